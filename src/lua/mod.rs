//! The Lua layer: sandboxed scripts that subscribe to events, emit custom events and register
//! actions and checks.
//!
//! One Lua 5.4 state holds one environment per mod ([`sandbox`]). Each mod's `scripts/main.lua` runs
//! at load, in mod order, and registers what it offers; [`LuaRuntime::extensions`] then tells the
//! content resolver which `<mod>:<name>` actions and checks exist, and [`LuaRuntime::bind`] resolves
//! the events handlers listen to. During play the runtime is the game's [`Host`]: the engine calls it
//! for every event and for every registered action and check, and it lends the game to Lua for the
//! length of one call ([`bridge`]). Every call runs under an instruction budget and the state under a
//! memory limit ([`budget`]); an error is caught at the call, reported with mod, file, line and the
//! chain of events, and a handler that fails five times in a row is quarantined until the next reload.
//! The engine knows nothing of this module (invariant 3).

pub mod api;
pub mod bridge;
pub mod budget;
mod capi;
pub mod defs;
pub mod event_view;
pub mod policy;
pub mod sandbox;

pub use budget::Limits;

use crate::content::{resolve::Symbols, Content, EventKey, Extensions, Value};
use crate::diag::{did_you_mean, Diagnostic, FileId, SourceMap, Span};
use crate::game::{Ctx, Event, Game, Host};
use crate::id::Id;
use crate::mods::ModFolder;
use bridge::{Creature, Lender};
use mlua::{Function, Lua, Table};
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;
use std::sync::Arc;

/// Consecutive failures after which a handler, action or check is switched off until the next reload.
pub const QUARANTINE_AFTER: u32 = 5;

/// A function registered by a script, with its failure record.
pub struct Registered {
    pub mod_id: String,
    pub func: Function,
    failures: u32,
    quarantined: bool,
}

impl Registered {
    pub fn new(mod_id: &str, func: Function) -> Registered {
        Registered {
            mod_id: mod_id.to_string(),
            func,
            failures: 0,
            quarantined: false,
        }
    }
}

/// A `lantern.on` subscription.
pub struct Handler {
    pub event: String,
    pub key: Option<EventKey>,
    pub site: Option<(String, usize)>,
    pub registered: Registered,
}

impl Handler {
    pub fn new(
        mod_id: &str,
        event: String,
        func: Function,
        site: Option<(String, usize)>,
    ) -> Handler {
        Handler {
            event,
            key: None,
            site,
            registered: Registered::new(mod_id, func),
        }
    }
}

/// A handler as an event's list holds it.
pub struct Listener {
    /// Its index in [`Shared::handlers`].
    handler: usize,
    /// Its mod's index in the runtime's mods (always there: handlers are registered by mods' scripts).
    script: Option<usize>,
    func: Function,
}

/// What the API functions and the runtime share.
#[derive(Default)]
pub struct Shared {
    pub handlers: Vec<Handler>,
    /// Handlers by event key, after [`LuaRuntime::bind`]: their indexes and functions, shared so an
    /// event takes its list without copying a function reference per handler (handlers are only
    /// registered while the mods load, so the lists never change during a game).
    pub by_event: Vec<std::rc::Rc<[Listener]>>,
    pub actions: BTreeMap<Id, Registered>,
    pub checks: BTreeMap<Id, Registered>,
    pub on_reload: Vec<(String, Function)>,
    pub content: Option<Arc<Content>>,
    pub symbols: Option<Symbols>,
    /// True while mods' `main.lua` run: the only time `lantern.on` and `register_*` are allowed.
    pub loading: bool,
    /// Messages logged while no game was running.
    pub messages: Vec<String>,
}

struct ModScript {
    id: String,
    lantern: Table,
    /// Whether its code ran since its storage was last written into the game.
    ran: bool,
}

/// The scripts of a mod set in one Lua state.
pub struct LuaRuntime {
    lua: Lua,
    shared: Rc<RefCell<Shared>>,
    budget: budget::Budget,
    mods: Vec<ModScript>,
    /// Lua files read, by display path, with their line starts: to point diagnostics at their lines.
    files: BTreeMap<String, (FileId, Vec<u32>)>,
    docs: Vec<api::ApiDoc>,
    /// Problems found outside a game (while loading), to be rendered by the caller.
    pending: Vec<Diagnostic>,
    /// Builds the read-only event views.
    views: event_view::Views,
    /// Lends the game to each call.
    lender: Lender,
}

impl LuaRuntime {
    pub fn new(limits: Limits) -> mlua::Result<LuaRuntime> {
        let lua = sandbox::new_state()?;
        let budget = budget::Budget::install(&lua, limits)?;
        let views = event_view::Views::new(&lua)?;
        Ok(LuaRuntime {
            views,
            lender: Lender::default(),
            lua,
            shared: Rc::new(RefCell::new(Shared::default())),
            budget,
            mods: Vec::new(),
            files: BTreeMap::new(),
            docs: Vec::new(),
            pending: if budget::patched_lua() {
                Vec::new()
            } else {
                vec![Diagnostic::warning(
                    "this build of lantern runs stock Lua, not lantern's (vendor/lantern-lua-src): scripts run, but the instruction budget slows every script and `pairs` may order keys differently in every process",
                )
                .with_help("lantern's build script links its own Lua and mlua-sys links none (feature `external`); something in this build linked another Lua in its place")]
            },
        })
    }

    /// The documentation of every API entry, as registered.
    pub fn api_docs(&self) -> &[api::ApiDoc] {
        &self.docs
    }

    /// Sets up a mod's environment and runs its `scripts/main.lua`, if it has one.
    pub fn load_mod(
        &mut self,
        m: &ModFolder,
        sources: &mut SourceMap,
        diags: &mut Vec<Diagnostic>,
    ) {
        let id = m.id().to_string();
        let cx = api::ModCx {
            mod_id: id.clone(),
            shared: self.shared.clone(),
        };
        let mut docs = Vec::new();
        let read: sandbox::ReadFiles = Rc::new(RefCell::new(Vec::new()));
        let built = (|| -> mlua::Result<(Table, Table)> {
            let lantern = api::build(&self.lua, &cx, &mut docs)?;
            let log: Function = lantern.raw_get("log")?;
            let env = sandbox::environment(
                &self.lua,
                &id,
                m.dir.join("scripts"),
                lantern.clone(),
                log,
                read.clone(),
            )?;
            // math.random draws from the mod's seeded stream.
            let math: Table = env.raw_get("math")?;
            let stream = format!("lua:{id}:math");
            math.raw_set(
                "random",
                self.lua
                    .create_function(move |_, (a, b): (Option<i64>, Option<i64>)| {
                        api::random(&stream, a, b)
                    })?,
            )?;
            Ok((env, lantern))
        })();
        if self.docs.is_empty() {
            self.docs = docs;
        }
        let (env, lantern) = match built {
            Ok(pair) => pair,
            Err(e) => {
                diags.push(Diagnostic::error(format!(
                    "mod `{id}`: cannot set up its Lua environment: {e}"
                )));
                return;
            }
        };
        self.mods.push(ModScript {
            id: id.clone(),
            lantern,
            ran: false,
        });
        let main = m.dir.join("scripts/main.lua");
        let Ok(bytes) = std::fs::read(&main) else {
            return;
        };
        let display = format!("{id}/scripts/main.lua");
        let (text, bad) = crate::mods::decode_utf8(&bytes);
        self.add_file(sources, display.clone(), text.clone());
        if let Some((offset, d)) = bad {
            let file = self.files[&display].0;
            diags.push(d.at(Span::new(file, offset..offset + 1)));
            return;
        }
        self.shared.borrow_mut().loading = true;
        self.budget.reset(&self.lua);
        let result = self
            .lua
            .load(text)
            .set_mode(mlua::ChunkMode::Text)
            .set_name(format!("@{display}"))
            .set_environment(env.clone())
            .exec();
        self.shared.borrow_mut().loading = false;
        // Files `require` read become part of the source map, so their errors render with carets too.
        for (path, text) in read.borrow_mut().drain(..) {
            self.add_file(sources, path, text);
        }
        if let Err(e) = result {
            diags.push(self.error_at(&id, "its scripts/main.lua failed", &e, None));
        }
    }

    fn add_file(&mut self, sources: &mut SourceMap, path: String, text: String) {
        let mut starts = vec![0u32];
        starts.extend(text.match_indices('\n').map(|(i, _)| i as u32 + 1));
        starts.push(text.len() as u32 + 1);
        let file = sources.add(path.clone(), text);
        self.files.insert(path, (file, starts));
    }

    /// The actions and checks the scripts registered, for the content resolver.
    pub fn extensions(&self) -> Extensions {
        let shared = self.shared.borrow();
        Extensions {
            actions: shared.actions.keys().cloned().collect(),
            checks: shared.checks.keys().cloned().collect(),
        }
    }

    /// Resolves the events handlers listen to against the built content.
    pub fn bind(&mut self, content: Arc<Content>, diags: &mut Vec<Diagnostic>) {
        let _unlimited = budget::Unlimited::new(&self.lua);
        let symbols = crate::content::resolve::symbols_of(&content, &self.extensions());
        let line_span = |path: &str, line: usize| self.line_span(path, line);
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
                    let mut d = Diagnostic::error(format!(
                        "mod `{}` listens to `{}`, which is not an event",
                        h.registered.mod_id, h.event
                    ))
                    .with_help_opt(
                        did_you_mean(&h.event, content.events.names())
                            .or(Some("declare custom events with [[event_types]]".into())),
                    );
                    if let Some(span) = h
                        .site
                        .as_ref()
                        .and_then(|(path, line)| line_span(path, *line))
                    {
                        d = d.at(span);
                    }
                    diags.push(d);
                }
            }
        }
        shared.by_event = by_event.into_iter().map(Into::into).collect();
        if let Err(e) = self.views.bind(&self.lua, &content.events) {
            diags.push(Diagnostic::error(format!(
                "cannot prepare the Lua event views: {e}"
            )));
        }
        shared.content = Some(content);
        shared.symbols = Some(symbols);
        let messages = std::mem::take(&mut shared.messages);
        drop(shared);
        for m in messages {
            self.pending.push(Diagnostic::warning(m));
        }
    }

    /// Messages the scripts logged while loading.
    pub fn take_load_messages(&mut self) -> Vec<Diagnostic> {
        std::mem::take(&mut self.pending)
    }

    /// Puts each mod's saved storage in place for a game that starts or was loaded.
    pub fn attach_storage(&mut self, game: &Game) {
        for m in &self.mods {
            let value = game
                .storage()
                .get(&m.id)
                .cloned()
                .unwrap_or(serde_json::Value::Object(Default::default()));
            // Storage that is not a table (or cannot be built, out of memory) starts empty.
            let table = match bridge::json_to_lua(&self.lua, &value) {
                Ok(mlua::Value::Table(t)) => Some(t),
                _ => self.lua.create_table().ok(),
            };
            if let Some(table) = table {
                let _ = m.lantern.raw_set("storage", table);
            }
        }
    }

    /// Runs every `lantern.on_reload` handler with the storage kept from before (after a hot reload).
    pub fn run_on_reload(&mut self, game: &mut Game) {
        let hooks = self
            .shared
            .borrow()
            .on_reload
            .iter()
            .map(|(m, f)| (m.clone(), f.clone()))
            .collect::<Vec<_>>();
        for (mod_id, func) in hooks {
            let Some(lantern) = self
                .mods
                .iter()
                .find(|m| m.id == mod_id)
                .map(|m| m.lantern.clone())
            else {
                continue;
            };
            let storage: mlua::Value = lantern.raw_get("storage").unwrap_or(mlua::Value::Nil);
            self.budget.reset(&self.lua);
            let result = self.lender.lend(game, || func.call::<mlua::Value>(storage));
            match result {
                Ok(mlua::Value::Table(t)) => {
                    let _ = lantern.raw_set("storage", t);
                }
                Ok(_) => {}
                Err(e) => {
                    let d = self.error_at(&mod_id, "its on_reload handler failed", &e, None);
                    game.report(d);
                }
            }
            self.mark_ran(&mod_id);
        }
        self.write_storage(game);
    }

    /// Notes that a mod's code runs, so its storage is written into the game afterwards.
    fn mark_ran(&mut self, mod_id: &str) {
        if let Some(m) = self.mods.iter_mut().find(|m| m.id == mod_id) {
            m.ran = true;
        }
    }

    fn write_storage(&mut self, game: &mut Game) {
        for m in self.mods.iter_mut().filter(|m| m.ran) {
            m.ran = false;
            let id = &m.id;
            let value: mlua::Value = m.lantern.raw_get("storage").unwrap_or(mlua::Value::Nil);
            match bridge::storage_to_json(&value, "lantern.storage") {
                Ok(json) => {
                    game.storage_mut().insert(id.clone(), json);
                }
                Err(e) => game.report(Diagnostic::error(format!(
                    "[{id}] {e}; the storage keeps its last saved state"
                ))),
            }
        }
    }

    /// A diagnostic for a script error, located at the script line the message names, with the
    /// traceback and the chain of events that led there.
    fn error_at(
        &self,
        mod_id: &str,
        what: &str,
        e: &mlua::Error,
        chain: Option<&str>,
    ) -> Diagnostic {
        self.error_in(mod_id, what, e, chain, None)
    }

    /// As [`error_at`](Self::error_at); when the message names no line (out of memory), the function
    /// that was called is the place.
    fn error_in(
        &self,
        mod_id: &str,
        what: &str,
        e: &mlua::Error,
        chain: Option<&str>,
        called: Option<&Function>,
    ) -> Diagnostic {
        if is_memory(e) {
            // What ran the state out of memory is garbage now, but stays until the collector's next
            // cycle: until then every allocation fails, even mlua's own bookkeeping (which panics
            // when it cannot grow its stack of references). Collect it now.
            let _ = self.lua.gc_collect();
        }
        let (message, traceback) = describe(e);
        let mut d = Diagnostic::error(format!("[{mod_id}] {what}: {message}"));
        let defined_at = || {
            let info = called?.info();
            let source = info.source?.trim_start_matches('@').to_string();
            self.line_span(&source, info.line_defined?)
        };
        // A message without a line (a failed `require`) is placed at the innermost script frame; an
        // out-of-memory error, which has neither, at the line the budget hook last saw running.
        let from_traceback = || traceback.iter().find_map(|t| self.locate(t));
        let last_seen = || {
            let (source, line) = self.budget.last_seen().filter(|_| is_memory(e))?;
            self.line_span(&source, line)
        };
        let mut help = Vec::new();
        let located = self.locate(&message).or_else(from_traceback);
        if let Some(span) = located {
            d = d.at(span);
        } else if let Some(span) = last_seen() {
            d = d.at(span);
            help.push("the script was running this line when it ran out".to_string());
        } else if let Some(span) = defined_at() {
            d = d.at(span);
        }
        if let Some(chain) = chain.filter(|c| !c.is_empty()) {
            help.push(format!("while handling {chain}"));
        }
        // A traceback of the one line the diagnostic already points at says nothing more.
        let only_here = matches!(traceback.as_slice(), [one] if located.is_some() && self.locate(one) == located);
        if !traceback.is_empty() && !only_here {
            help.push(format!("traceback: {}", traceback.join(" <- ")));
        }
        if !help.is_empty() {
            d = d.with_help(help.join("; "));
        }
        d
    }

    /// The line span of the first `path:line:` in a message that names a script this runtime read.
    fn locate(&self, message: &str) -> Option<Span> {
        for (path, (file, starts)) in &self.files {
            if let Some(at) = message.find(&format!("{path}:")) {
                let rest = &message[at + path.len() + 1..];
                let digits: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
                let line: usize = digits.parse().ok()?;
                let start = *starts.get(line.checked_sub(1)?)?;
                let end = starts.get(line).map_or(start, |e| e.saturating_sub(1));
                return Some(Span {
                    file: *file,
                    start,
                    end,
                });
            }
        }
        None
    }

    /// The span of a line of a script, for call sites.
    fn line_span(&self, path: &str, line: usize) -> Option<Span> {
        let (file, starts) = self.files.get(path)?;
        let start = *starts.get(line.checked_sub(1)?)?;
        let end = starts.get(line).map_or(start, |e| e.saturating_sub(1));
        Some(Span {
            file: *file,
            start,
            end,
        })
    }

    fn ctx_table(&self, ctx: &Ctx) -> mlua::Result<Table> {
        let t = self.lua.create_table()?;
        t.raw_set("self", Creature(ctx.bearer))?;
        if let Some(target) = ctx.target {
            t.raw_set("target", Creature(target))?;
        }
        t.raw_set("cause", ctx.cause)?;
        Ok(t)
    }

    fn args_table(&self, args: &BTreeMap<String, Value>) -> mlua::Result<Table> {
        let t = self.lua.create_table()?;
        for (k, v) in args {
            t.raw_set(k.as_str(), bridge::to_lua(&self.lua, v)?)?;
        }
        Ok(t)
    }

    /// The function a script registered as the action or check `id`, and its mod, unless it is
    /// switched off.
    fn registered(
        &self,
        kind: &str,
        table: impl Fn(&Shared) -> &BTreeMap<Id, Registered>,
        id: &Id,
    ) -> Result<(Function, String), String> {
        let shared = self.shared.borrow();
        let r = table(&shared)
            .get(id)
            .ok_or_else(|| format!("no script registers the {kind} `{id}`"))?;
        if r.quarantined {
            return Err(format!("the {kind} `{id}` is switched off after {QUARANTINE_AFTER} failures in a row; reload to retry"));
        }
        Ok((r.func.clone(), r.mod_id.clone()))
    }

    /// Runs a Lua-registered action (from a TOML action list).
    fn call_action(
        &mut self,
        game: &mut Game,
        id: &Id,
        args: &BTreeMap<String, Value>,
        ctx: &Ctx,
    ) -> Result<(), String> {
        let (func, mod_id) = self.registered("action", |s| &s.actions, id)?;
        let (ctx_t, args_t) = (
            self.ctx_table(ctx).map_err(|e| e.to_string())?,
            self.args_table(args).map_err(|e| e.to_string())?,
        );
        self.budget.reset(&self.lua);
        self.mark_ran(&mod_id);
        let result = self.lender.lend(game, || func.call::<()>((ctx_t, args_t)));
        let failed = result.is_err();
        self.count_failure(
            |s| s.actions.get_mut(id),
            failed,
            game,
            &mod_id,
            &format!("action `{id}`"),
        );
        result.map_err(|e| {
            let d = self.error_in(
                &mod_id,
                &format!("the action `{id}` failed"),
                &e,
                Some(&game.current_chain()),
                Some(&func),
            );
            let message = d.message.clone();
            game.report(d);
            message
        })
    }

    fn count_failure(
        &self,
        find: impl Fn(&mut Shared) -> Option<&mut Registered>,
        failed: bool,
        game: &mut Game,
        mod_id: &str,
        what: &str,
    ) {
        let mut shared = self.shared.borrow_mut();
        let Some(r) = find(&mut shared) else { return };
        if !failed {
            r.failures = 0;
            return;
        }
        r.failures += 1;
        if r.failures >= QUARANTINE_AFTER && !r.quarantined {
            r.quarantined = true;
            drop(shared);
            game.report(Diagnostic::warning(format!(
                "[{mod_id}] the {what} failed {QUARANTINE_AFTER} times in a row and is switched off until the next reload"
            )));
        }
    }
}

/// A script error as a message and a short traceback (`file:line` entries).
pub fn describe(e: &mlua::Error) -> (String, Vec<String>) {
    match e {
        mlua::Error::CallbackError { traceback, cause } => {
            let (message, mut inner) = describe(cause);
            if inner.is_empty() {
                inner = parse_traceback(traceback);
            }
            (message, inner)
        }
        mlua::Error::RuntimeError(text) => {
            let (message, tb) = text.split_once("\nstack traceback:").unwrap_or((text, ""));
            (message.trim().to_string(), parse_traceback(tb))
        }
        mlua::Error::SyntaxError { message, .. } => {
            (format!("syntax error: {message}"), Vec::new())
        }
        mlua::Error::MemoryError(_) => (
            "out of memory: the scripts passed the memory limit (a memory bomb?)".into(),
            Vec::new(),
        ),
        mlua::Error::WithContext { cause, .. } => describe(cause),
        mlua::Error::BadArgument {
            to,
            pos,
            name,
            cause,
        } => {
            let which = match name {
                Some(name) => format!("argument `{name}`"),
                None => format!("argument #{pos}"),
            };
            let of = to
                .as_ref()
                .map(|t| format!(" of `{t}`"))
                .unwrap_or_default();
            let (why, _) = describe(cause);
            (format!("{which}{of} {why}"), Vec::new())
        }
        mlua::Error::FromLuaConversionError { from, to, .. } => {
            let wanted = lua_type_of(to);
            let article = |t: &str| {
                if t == "nil" {
                    ""
                } else if t.starts_with(['a', 'e', 'i', 'o', 'u']) {
                    "an "
                } else {
                    "a "
                }
            };
            (
                format!(
                    "must be {}{wanted}, not {}{from}",
                    article(wanted),
                    article(from)
                ),
                Vec::new(),
            )
        }
        other => (
            other
                .to_string()
                .lines()
                .next()
                .unwrap_or_default()
                .to_string(),
            Vec::new(),
        ),
    }
}

/// The Lua name of a Rust type an argument was converted to (`String` is a string, `i64` an integer).
fn lua_type_of(rust: &str) -> &str {
    match rust {
        "String" | "&str" | "string" | "BString" => "string",
        "i8" | "i16" | "i32" | "i64" | "isize" | "u8" | "u16" | "u32" | "u64" | "usize"
        | "integer" => "integer",
        "f32" | "f64" | "number" => "number",
        "bool" | "boolean" => "boolean",
        other => other,
    }
}

/// Whether a script error is the memory limit, however deeply it was wrapped.
fn is_memory(e: &mlua::Error) -> bool {
    match e {
        mlua::Error::MemoryError(_) => true,
        mlua::Error::CallbackError { cause, .. } | mlua::Error::WithContext { cause, .. } => {
            is_memory(cause)
        }
        _ => false,
    }
}

fn parse_traceback(tb: &str) -> Vec<String> {
    tb.lines()
        .map(str::trim)
        .filter(|l| {
            !l.is_empty() && !l.starts_with("[C]") && !l.starts_with("[string \"lantern\"]")
        })
        .filter_map(|l| {
            l.split(": in ")
                .next()
                .map(|s| s.trim_end_matches(':').to_string())
        })
        .filter(|s| s.contains(".lua:"))
        .take(6)
        .collect()
}

impl Host for LuaRuntime {
    fn on_event(&mut self, game: &mut Game, event: &Event) {
        let calls = {
            let shared = self.shared.borrow();
            match shared.by_event.get(event.kind.0 as usize) {
                Some(list) if !list.is_empty() => list.clone(),
                _ => return,
            }
        };
        // Handlers that failed now or had failed before, with the error if they failed now: the
        // common case (every handler ran and none ever failed) allocates nothing.
        let mut outcomes: Vec<(usize, Option<mlua::Error>)> = Vec::new();
        let (lua, budget, shared, mods) = (&self.lua, &self.budget, &self.shared, &mut self.mods);
        // One view per event, shared by its handlers; the game is lent once for all of them.
        let lent = self.views.deliver(event, |view| {
            self.lender.lend(game, || {
                for call in calls.iter() {
                    let failures = {
                        let shared = shared.borrow();
                        let r = &shared.handlers[call.handler].registered;
                        if r.quarantined {
                            continue;
                        }
                        r.failures
                    };
                    if let Some(m) = call.script.and_then(|i| mods.get_mut(i)) {
                        m.ran = true;
                    }
                    budget.reset(lua);
                    match call.func.call::<()>(&view) {
                        Err(e) => outcomes.push((call.handler, Some(e))),
                        Ok(()) if failures > 0 => outcomes.push((call.handler, None)),
                        Ok(()) => {}
                    }
                }
                Ok(())
            })
        });
        if let Err(e) = lent.and_then(|lent| lent) {
            let name = &game.content().events.get(event.kind).name;
            let d = Diagnostic::error(format!("cannot run the handlers of `{name}`: {e}"));
            game.report(d);
        }
        for (i, error) in outcomes {
            let (mod_id, func) = {
                let shared = self.shared.borrow();
                let r = &shared.handlers[i].registered;
                (r.mod_id.clone(), r.func.clone())
            };
            let name = game.content().events.get(event.kind).name.clone();
            if let Some(e) = &error {
                let d = self.error_in(
                    &mod_id,
                    &format!("a handler of `{name}` failed"),
                    e,
                    Some(&game.current_chain()),
                    Some(&func),
                );
                game.report(d);
            }
            // It failed now or had failed before: count it, or reset its count.
            self.count_failure(
                |s| s.handlers.get_mut(i).map(|h| &mut h.registered),
                error.is_some(),
                game,
                &mod_id,
                &format!("handler of `{name}`"),
            );
        }
    }

    fn settle(&mut self, game: &mut Game) {
        self.write_storage(game);
    }

    fn attach(&mut self, game: &Game) {
        self.attach_storage(game);
    }

    fn action(
        &mut self,
        game: &mut Game,
        id: &Id,
        args: &BTreeMap<String, Value>,
        ctx: &Ctx,
    ) -> Result<(), String> {
        self.call_action(game, id, args, ctx)
    }

    fn check(
        &mut self,
        game: &Game,
        id: &Id,
        args: &BTreeMap<String, Value>,
        ctx: &Ctx,
    ) -> Result<bool, String> {
        let (func, mod_id) = self.registered("check", |s| &s.checks, id)?;
        let (ctx_t, args_t) = (
            self.ctx_table(ctx).map_err(|e| e.to_string())?,
            self.args_table(args).map_err(|e| e.to_string())?,
        );
        self.budget.reset(&self.lua);
        let result = self
            .lender
            .lend_ref(game, || func.call::<bool>((ctx_t, args_t)));
        let failed = result.is_err();
        {
            let mut shared = self.shared.borrow_mut();
            if let Some(r) = shared.checks.get_mut(id) {
                r.failures = if failed { r.failures + 1 } else { 0 };
                if r.failures >= QUARANTINE_AFTER {
                    r.quarantined = true;
                }
            }
        }
        result.map_err(|e| {
            let (message, _) = describe(&e);
            format!("[{mod_id}] the check `{id}` failed: {message}")
        })
    }
}
