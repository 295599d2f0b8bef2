//! Loading a mod set's scripts into one runtime: each mod's `scripts/main.lua` run in its own
//! environment and memory account, what they register reported to the content resolver
//! ([`LuaRuntime::extensions`]), handlers bound to the resolved events ([`LuaRuntime::bind`]), and,
//! for `lantern check`, the scripts read for what their literal calls would fail with
//! ([`LuaRuntime::check_scripts`]). The runtime's play-time half (events, storage, errors) is in
//! the parent module and [`host`](super::host).

use super::memory::Owner;
use super::{api, host, sandbox, script_check, Listener, LuaRuntime, ModScript};
use crate::content::{Content, Extensions};
use crate::diag::Code;
use crate::diag::{did_you_mean, Diagnostic, SourceMap, Span};
use crate::mods::ModFolder;
use atomic_refcell::AtomicRefCell;
use mlua::{Function, Table};
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
        let owner = Owner::of_mod(self.mods.len());
        self.accounts.set_limit(owner, self.limits.memory);
        let cx = api::ModCx {
            mod_id: id.clone(),
            owner,
            shared: self.shared.clone(),
        };
        let mut docs = Vec::new();
        let read: sandbox::ReadFiles = Arc::new(AtomicRefCell::new(Vec::new()));
        // lantern's own setup, run in Lua: charged to no script's count, and never stopped by a
        // count an earlier script ran past.
        let paused = self.budget.pause();
        let built = (|| -> mlua::Result<(Table, Table)> {
            // Every mod's table has the same entries: the first mod's are documented.
            let record = self.docs.is_empty().then_some(&mut docs);
            let lantern = api::build(&self.lua, &cx, record)?;
            let log: Function = lantern.raw_get("log")?;
            let env = sandbox::environment(
                &self.lua,
                &sandbox::ModFiles::new(&id, &m.dir),
                lantern.clone(),
                log,
                read.clone(),
                sandbox::Account::new(self.accounts, owner),
            )?;
            // math.random draws from the mod's seeded stream.
            let math: Table = env.raw_get("math")?;
            let stream = format!("lua:{id}:math");
            math.raw_set(
                "random",
                super::budget::function(
                    &self.lua,
                    move |_, (a, b): (Option<i64>, Option<i64>)| api::random(&stream, a, b),
                )?,
            )?;
            // The `lantern` table is journaled as the storage is: a script that puts a new table
            // in place of `lantern.storage` inside a transaction that fails gets its old one back.
            super::journal::flag(&self.lua, &lantern);
            Ok((env, lantern))
        })();
        drop(paused);
        if self.docs.is_empty() {
            self.docs = docs;
        }
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
        self.mods.push(ModScript {
            id: id.clone(),
            lantern_at: lantern.to_pointer() as usize,
            lantern,
            owner,
            ran: false,
            mirror: None,
            turn_used: 0,
            skipped: 0,
            last: None,
        });
        let display = format!("{id}/scripts/main.lua");
        let known = self.known_scripts.as_ref().and_then(|k| k.get(&display));
        let (text, bad) = match known {
            Some(text) => (text.to_string(), None),
            None => {
                let bytes = match crate::mods::read_mod_file(&m.dir, "scripts/main.lua") {
                    Ok(Some(bytes)) => bytes,
                    Ok(None) => return,
                    Err(refused) => {
                        diags.push(refused.diagnostic(&display));
                        return;
                    }
                };
                crate::mods::decode_utf8(bytes)
            }
        };
        let disk = m.dir.join("scripts/main.lua");
        self.files
            .add(sources, display.clone(), Some(&disk), text.clone());
        if let Some(file) = self.files.file(&display) {
            self.scripts.push((id.clone(), file, text.clone()));
        }
        if let Some((offset, d)) = bad {
            if let Some(file) = self.files.file(&display) {
                diags.push(d.at(Span::new(file, offset..offset + 1)));
            }
            return;
        }
        // lantern's references to what this mod registers are made while it runs, charged to its
        // account; keeping room for them now means none has to grow the state when it is full.
        self.reserve_references();
        self.shared.borrow_mut().loading = true;
        let index = self.mods.len() - 1;
        let result = host::call_mod(
            &self.lua,
            &self.budget,
            self.accounts,
            &mut self.mods[index],
            || {
                self.lua
                    .load(text)
                    .set_mode(mlua::ChunkMode::Text)
                    .set_name(format!("@{display}"))
                    .set_environment(env.clone())
                    .exec()
            },
        );
        self.work = self.work.saturating_add(self.mods[index].turn_used);
        self.mods[index].turn_used = 0;
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
        }
    }

    /// Makes room for as many references as one mod may register, charged to lantern. A dropped
    /// reference leaves its slot free for the next, so only what earlier mods took is made again:
    /// the full room is made once per state (it costs what 0.15 ms does), not once per mod.
    fn reserve_references(&mut self) {
        let _host = self.accounts.charge_to(Owner::HOST);
        let room = 2 * (api::MOST_HANDLERS + api::MOST_REGISTERED) + 256;
        let shared = self.shared.borrow();
        let taken = shared.handlers.len()
            + shared.actions.len()
            + shared.checks.len()
            + shared.on_reload.len();
        drop(shared);
        // Each registration holds a reference or two; the rest of a mod's load holds a few more.
        let used = (2 * taken + 64 * self.mods.len()).saturating_sub(self.refs_used);
        let free = self.refs_free.saturating_sub(used);
        self.refs_used += used;
        if free < room {
            let refs: Vec<Table> = (0..room - free).map(|_| self.lua.globals()).collect();
            drop(refs);
        }
        self.refs_free = room;
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
        let mut shared = self.shared.borrow_mut();
        shared.make_symbols();
        let shared = &*shared;
        let (Some(content), Some(symbols)) = (shared.content.as_ref(), shared.symbols.as_ref())
        else {
            return Vec::new();
        };
        let scripts: Vec<script_check::Script<'_>> = self
            .scripts
            .iter()
            .filter(|(id, _, _)| !self.failed.contains(id))
            .map(|(mod_id, file, text)| script_check::Script {
                mod_id,
                file: *file,
                text,
                lantern: self.lantern_names(mod_id),
            })
            .collect();
        script_check::check(&scripts, content, symbols)
    }

    /// The names in a mod's `lantern` table after its scripts ran: lantern's functions and
    /// whatever the mod put there itself.
    fn lantern_names(&self, mod_id: &str) -> std::collections::BTreeSet<String> {
        let Some(m) = self.mods.iter().find(|m| m.id == mod_id) else {
            return Default::default();
        };
        m.lantern
            .pairs::<mlua::Value, mlua::Value>()
            .filter_map(|pair| match pair.ok()?.0 {
                mlua::Value::String(s) => Some(s.to_str().ok()?.to_string()),
                _ => None,
            })
            .collect()
    }

    /// Messages the scripts logged while loading.
    pub(crate) fn take_load_messages(&mut self) -> Vec<Diagnostic> {
        std::mem::take(&mut self.pending)
    }
}
