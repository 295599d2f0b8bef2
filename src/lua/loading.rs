//! Loading a mod set's scripts into one runtime: each mod's `scripts/main.lua` run in its own
//! environment and memory account, what they register reported to the content resolver
//! ([`LuaRuntime::extensions`]), handlers bound to the resolved events ([`LuaRuntime::bind`]), and,
//! for `lantern check`, the scripts read for what their literal calls would fail with
//! ([`LuaRuntime::check_scripts`]). The runtime's play-time half (events, storage, errors) is in
//! the parent module and [`host`](super::host).

use super::compiled::Script;
use super::memory::Owner;
use super::{api, sandbox, script_check, Listener, LuaRuntime, ModScript};
use crate::content::{Content, Extensions};
use crate::diag::Code;
use crate::diag::{did_you_mean, Diagnostic, SourceMap, Span};
use crate::mods::ModFolder;
use atomic_refcell::AtomicRefCell;
use mlua::Table;
use std::sync::Arc;

impl LuaRuntime {
    /// Sets up a mod's environment and runs its `scripts/main.lua`, if it has one.
    pub(crate) fn load_mod(
        &mut self,
        m: &ModFolder,
        sources: &mut SourceMap,
        diags: &mut Vec<Diagnostic>,
    ) {
        let id = m.id().to_string();
        let named = (m.manifest.depends.iter().chain(&m.manifest.optional))
            .map(|d| d.id.clone())
            .collect();
        self.shared.borrow_mut().deps.insert(id.clone(), named);
        let owner = Owner::of_mod(self.mods.len());
        self.accounts.set_limit(owner, self.limits.memory);
        let read: sandbox::ReadFiles = Arc::new(AtomicRefCell::new(Vec::new()));
        let built = self.environment(&id, m, owner, read.clone());
        let (env, lantern) = match built {
            Ok(pair) => pair,
            Err(e) => {
                diags.push(Diagnostic::error(
                    Code::Lua,
                    format!("mod `{id}`: cannot set up its Lua environment: {e}"),
                ));
                return;
            }
        };
        self.enrol(&id, lantern, owner);
        let display = format!("{id}/scripts/main.lua");
        let Some(script) = self.main_script(m, &display, sources, diags) else {
            return;
        };
        let disk = m.dir.join("scripts/main.lua");
        self.files.add(
            sources,
            display.clone(),
            Some(&disk),
            script.text().to_string(),
        );
        if let Some(file) = self.files.file(&display) {
            self.scripts
                .push((id.clone(), file, script.text().to_string()));
        }
        self.ran_scripts.push((display.clone(), script.clone()));
        self.shared.borrow_mut().loading = true;
        let index = self.mods.len() - 1;
        let result = super::call::call_mod(
            &self.lua,
            &self.budget,
            self.accounts,
            &mut self.mods[index],
            || run_main(&self.lua, &script, &display, env),
        );
        let m = &mut self.mods[index];
        self.work = self.work.saturating_add(m.turn_used);
        m.spent = m.spent.saturating_add(m.turn_used);
        m.turn_used = 0;
        self.shared.borrow_mut().loading = false;
        // Files `require` read become part of the source map, so their errors render with carets too.
        for (path, text) in read.borrow_mut().drain(..) {
            self.files.add(sources, path.clone(), None, text.clone());
            if let Some(file) = self.files.file(&path) {
                self.scripts.push((id.clone(), file, text));
            }
        }
        if let Err(e) = result {
            diags.push(self.error_at(&id, "its scripts/main.lua failed", &e, None));
            self.failed.insert(id.clone());
            return;
        }
        self.keep_starting_storage(index, diags);
    }

    /// The mod's Lua environment and its `lantern` table (`print` its `lantern.log`,
    /// `math.random` its seeded stream, `require` reading its files into `read`). lantern's
    /// own setup, run in Lua: charged to no script's count, and never stopped by a count an
    /// earlier script ran past.
    fn environment(
        &mut self,
        id: &str,
        m: &ModFolder,
        owner: Owner,
        read: sandbox::ReadFiles,
    ) -> mlua::Result<(Table, Table)> {
        let cx = api::ModCx {
            mod_id: id.into(),
            owner,
            shared: self.shared.clone(),
        };
        let paused = self.budget.pause();
        let built = (|| -> mlua::Result<(Table, Table)> {
            let maker = match &self.make_lantern {
                Some(maker) => maker.clone(),
                None => self
                    .make_lantern
                    .insert(api::maker(&self.lua, &cx)?)
                    .clone(),
            };
            // `print` is the mod's `lantern.log`.
            let (lantern, log) = api::build(&cx, &maker)?;
            // math.random draws from the mod's seeded stream.
            let stream = format!("lua:{id}:math");
            let env = sandbox::environment(
                &self.lua,
                &sandbox::ModFiles::new(id, &m.dir),
                lantern.clone(),
                log,
                read,
                sandbox::Account::new(owner),
                Some(&stream),
            )?;
            Ok((env, lantern))
        })();
        drop(paused);
        built
    }

    /// Takes the mod in among the scripts, at the next place: its account's index is its place
    /// in `mods`, its ID goes in the same place of the state's IDs, and `by_id` finds it.
    fn enrol(&mut self, id: &str, lantern: Table, owner: Owner) {
        if let Some(mut ids) = self.lua.app_data_mut::<super::ModIds>() {
            ids.ids.push(id.into());
        }
        let place = self
            .by_id
            .partition_point(|&i| self.mods[i].id.as_str() < id);
        self.by_id.insert(place, self.mods.len());
        self.mods.push(ModScript {
            id: id.to_string(),
            lantern_at: lantern.to_pointer() as usize,
            lantern,
            owner,
            ran: false,
            mirror: None,
            turn_used: 0,
            spent: 0,
            skipped: 0,
            last: None,
            starting: None,
            off: false,
        });
    }

    /// Keeps what a mod's `main.lua` stored while it loaded, as a new game's starting storage;
    /// what storage cannot hold (a function) is an error now, at the mod, as it would be at the
    /// end of a turn.
    fn keep_starting_storage(&mut self, index: usize, diags: &mut Vec<Diagnostic>) {
        let m = &mut self.mods[index];
        let Ok(mlua::Value::Table(stored)) = m.lantern.raw_get::<mlua::Value>("storage") else {
            return;
        };
        if stored.is_empty() {
            return;
        }
        match super::storage::saved(&mlua::Value::Table(stored), 0, None) {
            Ok((json, _)) => m.starting = Some(Arc::new(json)),
            Err((message, _)) => diags.push(
                Diagnostic::error(
                    Code::Script,
                    format!(
                        "[{}] its scripts/main.lua stored what storage cannot hold: {message}",
                        m.id
                    ),
                )
                .with_help("keep functions in the script's locals: storage is what a save keeps")
                .of_mod(&m.id),
            ),
        }
    }

    /// A mod's `main.lua`: the one its mod set's load compiled, or read now and compiled (unless
    /// the load before, a reload's, compiled the same text). `None` when it has none, or it
    /// cannot be read (reported).
    fn main_script(
        &mut self,
        m: &ModFolder,
        display: &str,
        sources: &mut SourceMap,
        diags: &mut Vec<Diagnostic>,
    ) -> Option<Arc<Script>> {
        if let Some(known) = self.known_scripts.as_ref().and_then(|k| k.get(display)) {
            return Some(known.clone());
        }
        let bytes = match crate::mods::read_mod_file(&m.real, "scripts/main.lua") {
            Ok(Some(bytes)) => bytes,
            Ok(None) => {
                self.scriptless.insert(m.id().to_string());
                return None;
            }
            Err(refused) => {
                diags.push(refused.diagnostic(display));
                // What it would register follows from this message, not from a second one.
                self.failed.insert(m.id().to_string());
                return None;
            }
        };
        let (text, bad) = crate::mods::decode_utf8(bytes);
        if let Some((offset, d)) = bad {
            let disk = m.dir.join("scripts/main.lua");
            self.files
                .add(sources, display.to_string(), Some(&disk), text.clone());
            if let Some(file) = self.files.file(display) {
                self.scripts.push((m.id().to_string(), file, text));
                diags.push(d.at(Span::new(file, offset..offset + 1)));
            }
            self.failed.insert(m.id().to_string());
            return None;
        }
        let before = self.compiled_before.as_ref().and_then(|k| k.get(display));
        if let Some(before) = before.filter(|s| s.text() == text) {
            return Some(before.clone());
        }
        let name = format!("@{display}");
        Some(Arc::new(Script::compile(
            text.into(),
            &name,
            self.limits.memory,
        )))
    }

    /// The `main.lua` scripts this runtime ran, compiled: a test game of the same mod set runs
    /// them without reading or compiling them again.
    pub(crate) fn ran_scripts(&self) -> super::KnownScripts {
        Arc::new(self.ran_scripts.iter().cloned().collect())
    }

    /// How many handlers, actions and checks one mod's scripts registered, for the reload summary.
    pub(crate) fn registrations(&self, mod_id: &str) -> [usize; 3] {
        let shared = self.shared.borrow();
        let mine = |r: &super::Registered| r.mod_id == mod_id;
        [
            shared
                .handlers
                .iter()
                .filter(|h| mine(&h.registered))
                .count(),
            shared.actions.values().filter(|r| mine(r)).count(),
            shared.checks.values().filter(|r| mine(r)).count(),
        ]
    }

    /// The actions and checks the scripts registered, for the content resolver.
    pub(crate) fn extensions(&self) -> Extensions {
        let shared = self.shared.borrow();
        Extensions {
            actions: shared.actions.keys().cloned().collect(),
            checks: shared.checks.keys().cloned().collect(),
            failed: self.failed.clone(),
            scriptless: self.scriptless.clone(),
            declared: shared.rules.defs().clone(),
        }
    }

    /// The hosting game's vocabulary, whose functions every mod loaded after this sees as
    /// `lantern.<namespace>`.
    pub(crate) fn set_rules(&mut self, rules: crate::host::Rules) {
        self.shared.borrow_mut().rules = rules;
    }

    /// Resolves the events handlers listen to against the built content.
    pub(crate) fn bind(&mut self, content: Arc<Content>, diags: &mut Vec<Diagnostic>) {
        let _host = self.accounts.charge_to(Owner::HOST);
        let _paused = self.budget.pause();
        let files = &self.files;
        let mut shared = self.shared.borrow_mut();
        let mut by_event: Vec<Vec<Listener>> =
            (0..content.events.len()).map(|_| Vec::new()).collect();
        for (i, h) in shared.handlers.iter_mut().enumerate() {
            let key = content
                .events
                .lookup_for(h.registered.mod_id.as_bytes(), h.event.as_bytes());
            match key {
                Some(k) => {
                    h.key = Some(k);
                    let script = self.mods.iter().position(|m| m.id == h.registered.mod_id);
                    by_event[k.0 as usize].push(Listener {
                        handler: i,
                        script,
                        func: h.registered.func.clone(),
                    });
                }
                None => {
                    let mut d = Diagnostic::error(
                        Code::UnknownReference,
                        format!(
                            "mod `{}` listens to `{}`, which is not an event",
                            h.registered.mod_id, h.event
                        ),
                    )
                    .with_help_opt(
                        did_you_mean(&h.event, content.events.names())
                            .or(Some("declare custom events with [[event_types]]".into())),
                    );
                    if let Some(span) = h
                        .site
                        .as_ref()
                        .and_then(|(path, line)| files.line_span(path, *line))
                    {
                        d = d.at(span);
                    }
                    diags.push(d);
                }
            }
        }
        shared.by_event = by_event.into_iter().map(Into::into).collect();

        if let Err(e) = self.views.bind(&self.lua, &content.events) {
            diags.push(Diagnostic::error(
                Code::Lua,
                format!("cannot prepare the Lua event views: {e}"),
            ));
        }
        shared.content = Some(content);
        shared.failed_scripts = self.failed.clone();
        let messages = std::mem::take(&mut shared.messages);
        drop(shared);
        for m in messages {
            self.pending.push(Diagnostic::warning(Code::Script, m));
        }
    }

    /// What the scripts' literal calls (`lantern.emit_event("x", {...})`, `lantern.apply{...}`,
    /// `ev.<field>` in a handler) would fail with when they run, found by reading them: for
    /// `lantern check`. Parsing costs what running does not (about 4 MB of Lua a second, and some
    /// 250 bytes of memory per byte of script), so a reload during play leaves it to the runtime.
    pub(crate) fn check_scripts(&self) -> Vec<Diagnostic> {
        // Read before the shared state is borrowed: the names of lantern's entries come from
        // its registrations, which read the game's vocabulary there. They are every mod's.
        let api_names = self.mods.first().map_or_else(Vec::new, |m| {
            let cx = api::ModCx {
                mod_id: m.id.as_str().into(),
                owner: m.owner,
                shared: self.shared.clone(),
            };
            api::names(&self.lua, &cx).unwrap_or_default()
        });
        let names: Vec<_> = self
            .scripts
            .iter()
            .map(|(mod_id, _, _)| self.lantern_names(mod_id, &api_names))
            .collect();
        let shared = self.shared.borrow();
        let Some(content) = shared.content.as_ref() else {
            return Vec::new();
        };
        // Made only when a script has a literal `lantern.apply` to check: at a million
        // definitions, making them is a twentieth of a check.
        let made = std::cell::OnceCell::new();
        let symbols = || {
            shared
                .symbols
                .as_ref()
                .unwrap_or_else(|| made.get_or_init(|| shared.symbols_now().unwrap_or_default()))
        };
        let exposed: std::collections::BTreeSet<String> =
            shared.exposed.keys().map(|k| k.to_string()).collect();
        let scripts: Vec<script_check::Script<'_>> = self
            .scripts
            .iter()
            .zip(names)
            .filter(|((id, _, _), _)| !self.failed.contains(id))
            .map(|((mod_id, file, text), lantern)| script_check::Script {
                mod_id,
                file: *file,
                text,
                lantern,
                exposed: &exposed,
                calls: script_check::Calls {
                    deps: shared.deps.get(mod_id).map_or(&[], Vec::as_slice),
                    failed: &self.failed,
                },
            })
            .collect();
        script_check::check(&scripts, content, &symbols)
    }

    /// The names in a mod's `lantern` table after its scripts ran: lantern's entries (`api`,
    /// made or not yet) and whatever the mod put there itself.
    fn lantern_names(&self, mod_id: &str, api: &[String]) -> std::collections::BTreeSet<String> {
        let Some(m) = self.mods.iter().find(|m| m.id == mod_id) else {
            return Default::default();
        };
        let own = m
            .lantern
            .pairs::<mlua::Value, mlua::Value>()
            .filter_map(|pair| match pair.ok()?.0 {
                mlua::Value::String(s) => Some(s.to_str().ok()?.to_string()),
                _ => None,
            });
        api.iter().cloned().chain(own).collect()
    }

    /// Messages the scripts logged while loading.
    pub(crate) fn take_load_messages(&mut self) -> Vec<Diagnostic> {
        std::mem::take(&mut self.pending)
    }
}

/// Runs a mod's `main.lua` in its environment: its bytecode, once the mod is charged what
/// compiling it cost (as the lexer would have charged it), or its text where it did not compile.
fn run_main(lua: &mlua::Lua, script: &Script, display: &str, env: Table) -> mlua::Result<()> {
    let name = format!("@{display}");
    match script.chunk() {
        Some(chunk) => {
            let units = usize::try_from(chunk.units).unwrap_or(usize::MAX);
            // Charged through the count, as the lexer charged it, so the hook fires where it
            // would have. SAFETY: `exec_raw` runs the closure in a protected call on the running
            // thread; the closure owns nothing with a destructor, so the budget's error may
            // leave it (`capi::charge`).
            unsafe { lua.exec_raw::<()>((), |state| super::capi::charge(state, units))? };
            lua.load(&chunk.bytecode[..])
                .set_mode(mlua::ChunkMode::Binary)
                .set_name(name)
                .set_environment(env)
                .exec()
        }
        None => lua
            .load(script.text())
            .set_mode(mlua::ChunkMode::Text)
            .set_name(name)
            .set_environment(env)
            .exec(),
    }
}
