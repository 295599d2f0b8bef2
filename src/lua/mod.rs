//! The Lua layer: sandboxed scripts that subscribe to events, emit custom events and register
//! actions and checks.
//!
//! One Lua 5.4 state holds one environment per mod (`sandbox`). Each mod's `scripts/main.lua` runs
//! at load, in mod order, from bytecode compiled once per mod set (`compiled`), and registers what
//! it offers (`loading`); `LuaRuntime::extensions` then tells the
//! content resolver which `<mod>:<name>` actions and checks exist, and `LuaRuntime::bind` resolves
//! the events handlers listen to. During play the runtime is the game's [`ScriptHost`](crate::game::ScriptHost)
//! (`host`): the engine calls it for every event and for every registered action and check, and
//! it lends the game to Lua for the length of one call (`bridge`).
//!
//! Every call into a mod's code goes through one place (`call::call_mod`): it runs under an
//! instruction budget for the call and for the mod's turn (`budget`) with the mod's memory
//! account charged (`memory`), and an error is caught there, reported with mod, file, line and
//! the chain of events (`report`); a handler, action or check that fails five times in a row is
//! switched off until the next reload. The engine knows nothing of this module (invariant 3).

pub(crate) mod api;
pub(crate) mod bridge;
pub(crate) mod budget;
mod call;
mod capi;
pub(crate) mod compiled;
#[doc(hidden)]
pub mod defs;
pub(crate) mod event_view;
mod hooks;
mod host;
mod journal;
mod limits;
mod loading;
pub(crate) mod memory;
mod mirror;
#[cfg(feature = "cli")]
pub(crate) mod policy;
pub(crate) mod price;
mod profile;
pub(crate) mod report;
pub(crate) mod sandbox;
mod script_check;
mod settle;
pub(crate) mod storage;
pub(crate) mod switches;
mod unavailable;
mod unclosed;

pub use budget::patched_lua;
/// The instruction budget alone, for the Lua bench's baseline.
#[doc(hidden)]
pub use budget::Budget;
pub use limits::Limits;
pub use report::describe;

use crate::content::{resolve::Symbols, Content, EventKey};
use crate::diag::Code;
use crate::diag::{Diagnostic, FileId};
use crate::game::Game;
use crate::id::Id;
use atomic_refcell::AtomicRefCell;
use bridge::Lender;
use memory::{Accounts, Owner};
use mlua::{Function, Lua, Table};
use std::collections::BTreeMap;
use std::sync::Arc;

/// Consecutive failures after which a handler, action or check is switched off until the next reload.
pub const QUARANTINE_AFTER: u32 = 5;

/// A function registered by a script, with its failure record.
pub(crate) struct Registered {
    pub(crate) mod_id: String,
    pub(crate) func: Function,
    /// The memory account of the mod that registered it, which its code is charged to wherever
    /// it is called from.
    pub(crate) owner: Owner,
    failures: u32,
    /// Why it does not run, if it does not: [`QUARANTINED`], [`SWITCHED_OFF`] or both (one
    /// byte, so a handler's call tests one value).
    stopped: u8,
}

/// [`Registered::stopped`]: it failed [`QUARANTINE_AFTER`] times in a row.
const QUARANTINED: u8 = 1;
/// [`Registered::stopped`]: the host switched its mod's scripts off ([`switches`]).
const SWITCHED_OFF: u8 = 2;
/// [`Registered::stopped`]: its calls are counted ([`profile`]); alone, it runs.
const PROFILED: u8 = 4;

impl Registered {
    fn quarantined(&self) -> bool {
        self.stopped & QUARANTINED != 0
    }

    /// Marks it stopped for `why` (`QUARANTINED`, `SWITCHED_OFF`), or not.
    fn stop(&mut self, why: u8, stopped: bool) {
        if stopped {
            self.stopped |= why;
        } else {
            self.stopped &= !why;
        }
    }

    pub(crate) fn new(mod_id: &str, owner: Owner, func: Function) -> Registered {
        Registered {
            mod_id: mod_id.to_string(),
            func,
            owner,
            failures: 0,
            stopped: 0,
        }
    }
}

/// A `lantern.on` subscription.
pub(crate) struct Handler {
    pub(crate) event: String,
    pub(crate) key: Option<EventKey>,
    pub(crate) site: Option<(String, usize)>,
    pub(crate) registered: Registered,
}

impl Handler {
    pub(crate) fn new(
        mod_id: &str,
        owner: Owner,
        event: String,
        func: Function,
        site: Option<(String, usize)>,
    ) -> Handler {
        Handler {
            event,
            key: None,
            site,
            registered: Registered::new(mod_id, owner, func),
        }
    }
}

/// A handler as an event's list holds it.
pub(crate) struct Listener {
    /// Its index in [`Shared::handlers`].
    handler: usize,
    /// Its mod's index in the runtime's mods (always there: handlers are registered by mods' scripts).
    script: Option<usize>,
    func: Function,
}

/// What the API functions and the runtime share.
#[derive(Default)]
pub(crate) struct Shared {
    pub(crate) handlers: Vec<Handler>,
    /// How many handlers each mod registered (counted against `api::MOST_HANDLERS` as each is
    /// added: counted from `handlers`, 200 mods' loads took a time that grew with their square).
    pub(crate) handler_counts: rustc_hash::FxHashMap<Arc<str>, usize>,
    /// Handlers by event key, after [`LuaRuntime::bind`]: their indexes and functions, shared so an
    /// event takes its list without copying a function reference per handler (handlers are only
    /// registered while the mods load, so the lists never change during a game).
    pub(crate) by_event: Vec<std::sync::Arc<[Listener]>>,
    pub(crate) actions: BTreeMap<Id, Registered>,
    pub(crate) checks: BTreeMap<Id, Registered>,
    /// Functions mods expose to each other (`lantern.expose`), by `<mod>:<name>`.
    pub(crate) exposed: BTreeMap<Id, Registered>,
    /// The mods each mod names in `depends` and `optional`: the ones whose functions it may
    /// call and whose settings it may read.
    pub(crate) deps: BTreeMap<String, Vec<String>>,
    pub(crate) on_reload: Vec<(String, Function)>,
    /// `lantern.on_update` hooks, by mod.
    pub(crate) on_update: Vec<(String, Function)>,
    pub content: Option<Arc<Content>>,
    /// Every ID of the content and the scripts' actions and checks, for actions a script writes
    /// as tables (`lantern.apply{...}`): made the first time one is read
    /// ([`Shared::make_symbols`]), not for every game (at 100,000 definitions a test game spent 6.5 ms making it).
    pub(crate) symbols: Option<Symbols>,
    /// Mods whose `main.lua` failed, as of [`LuaRuntime::bind`]: their actions are not unknown.
    pub(crate) failed_scripts: std::collections::BTreeSet<String>,
    /// True while mods' `main.lua` run: the only time `lantern.on` and `register_*` are allowed.
    pub(crate) loading: bool,
    /// Messages logged while no game was running.
    pub(crate) messages: Vec<String>,
    /// The hosting game's vocabulary: its Lua functions and its actions.
    pub(crate) rules: crate::host::Rules,
    /// What mods' code ran inside another mod's call (an action one registered, applied by
    /// another's script), by mod: added to their turn's count, and their storage written, when
    /// the runtime next looks (`LuaRuntime::settle_crossed`).
    pub(crate) crossed: BTreeMap<String, u64>,
    /// Each mod's `lantern` table by its address, with the mod it belongs to and its account:
    /// how a function of the table is made for the right mod on first use (`api::build`).
    pub(crate) lantern_tables: rustc_hash::FxHashMap<usize, (Arc<str>, memory::Owner)>,
    /// What each mod has printed in the turn it last printed in (`lantern.log` and `print`).
    pub(crate) printed: rustc_hash::FxHashMap<Arc<str>, api::Printed>,
    /// The functions of the state every mod's `lantern` table binds to itself, by name
    /// (`api::Api::bound`).
    pub(crate) bound: rustc_hash::FxHashMap<&'static str, Function>,
}

impl Shared {
    /// Makes the IDs a script's action table is resolved against ([`Shared::symbols`]), once the
    /// scripts are bound to content and not before.
    pub(crate) fn make_symbols(&mut self) {
        if self.symbols.is_none() {
            self.symbols = self.symbols_now();
        }
    }

    /// The IDs [`Shared::make_symbols`] makes, made now and not kept; none before the scripts
    /// are bound to content.
    pub(crate) fn symbols_now(&self) -> Option<Symbols> {
        let content = self.content.as_ref()?;
        let ext = crate::content::Extensions {
            actions: self.actions.keys().cloned().collect(),
            checks: self.checks.keys().cloned().collect(),
            failed: self.failed_scripts.clone(),
            declared: content.declared.clone(),
            ..Default::default()
        };
        Some(crate::content::resolve::symbols_of(content, &ext))
    }
}

/// Each mod's `main.lua` by its display path (`rats/scripts/main.lua`), as a load read and
/// compiled it ([`compiled`]).
pub(crate) type KnownScripts = Arc<std::collections::HashMap<String, Arc<compiled::Script>>>;

/// One mod's scripts in the state.
struct ModScript {
    id: String,
    lantern: Table,
    /// Its memory account.
    owner: Owner,
    /// Whether its code ran since its storage was last written into the game.
    ran: bool,
    /// Where each table of its storage sits in the game's save of it, as the last whole save
    /// found them: a turn that wrote keys of those tables patches them in; one whose code wrote
    /// into no storage table (lantern's Lua says so) and left the storage table in place writes
    /// nothing again.
    mirror: Option<mirror::Mirror>,
    /// Its `lantern` table's address: a write to it may put a new table in place of the storage.
    lantern_at: usize,
    /// Instructions its calls ran this turn.
    turn_used: u64,
    /// Instructions its calls ran before this turn, its loading included.
    spent: u64,
    /// Handlers of it skipped this turn because its turn's budget was used up.
    skipped: u32,
    /// The function of it that ran last, where a storage it could not save is reported: storage
    /// is written once a turn, so the last call is the best guess at the one that stored it.
    last: Option<Called>,
    /// What its `scripts/main.lua` put in `lantern.storage` while the mod loaded: a new game's
    /// starting storage for the mod (a loaded save's own storage wins). `None` when it stored
    /// nothing.
    starting: Option<Arc<serde_json::Value>>,
    /// Whether the host switched its scripts off ([`switches`]), as the game last looked.
    off: bool,
}

/// Each mod's id by its account's index ([`memory::Owner::mod_index`]), with the state's
/// accounts: kept in the state's app data, so lantern's functions know which mod's code called
/// them from the account charged, without reading Lua's stack.
pub(crate) struct ModIds {
    accounts: Accounts,
    pub(crate) ids: Vec<Arc<str>>,
}

/// The mod whose code is running now, from the account charged; `None` outside a mod's call (a
/// test file, lantern's own code) or past the last account, where reading the stack says.
pub(crate) fn running_mod(lua: &mlua::Lua) -> Option<Arc<str>> {
    let mods = lua.app_data_ref::<ModIds>()?;
    let index = mods.accounts.current().mod_index()?;
    mods.ids.get(index).cloned()
}

/// A mod's function that ran.
enum Called {
    /// The handler at this index of [`Shared::handlers`] (no reference made per call).
    Handler(usize),
    Function(Function),
}

/// The scripts of a mod set in one Lua state.
pub struct LuaRuntime {
    lua: Lua,
    shared: Arc<AtomicRefCell<Shared>>,
    budget: budget::Budget,
    accounts: Accounts,
    limits: Limits,
    mods: Vec<ModScript>,
    /// The places of `mods` in the order of their IDs: the order of the game's storage, which
    /// the end of a turn walks with them.
    by_id: Vec<usize>,
    /// Lua files read: to point diagnostics at their lines.
    files: report::ScriptFiles,
    /// Problems found outside a game (while loading), to be rendered by the caller.
    pending: Vec<Diagnostic>,
    /// Builds the read-only event views.
    views: event_view::Views,
    /// Lends the game to each call.
    lender: Lender,
    /// Mods whose `scripts/main.lua` failed: what they would have registered is unknown, so the
    /// resolver does not report their actions and checks as missing on top of the failure.
    failed: std::collections::BTreeSet<String>,
    /// Mods with no `scripts/main.lua`: nothing of theirs is registered.
    scriptless: std::collections::BTreeSet<String>,
    /// Every script read, by mod: checked without running once the content is known.
    scripts: Vec<(String, FileId, String)>,
    /// The `main.lua` scripts to run rather than read and compile (a test game runs what its mod
    /// set's load read and compiled).
    pub(crate) known_scripts: Option<KnownScripts>,
    /// The `main.lua` scripts this runtime ran, by display path: what a test game of the same mod
    /// set runs ([`LuaRuntime::ran_scripts`]).
    ran_scripts: Vec<(String, Arc<compiled::Script>)>,
    /// The `main.lua` scripts the load before this one compiled (a reload's): one whose text is
    /// the same is run as it was compiled, not compiled again.
    pub(crate) compiled_before: Option<KnownScripts>,
    /// What makes each mod's `lantern` table and `print` (`api::maker`), made with the first.
    make_lantern: Option<Function>,
    /// The marks of the storage journals open, innermost last: one per transaction of the game
    /// that may run script code (`ScriptHost::checkpoint`).
    journals: Vec<Option<i64>>,
    /// Instructions the calls into the scripts ran before this turn, their loading included:
    /// with this turn's (`ModScript::turn_used`), what `ScriptHost::work` says.
    work: u64,
    /// The host's switches over the mods' scripts, when the game is of a mod set, and how many
    /// times they had been flipped when the game last looked ([`switches`]).
    switches: Option<(Arc<switches::Switches>, u64)>,
    /// What each profiled handler has cost, by its index ([`profile`]).
    profile: Vec<profile::Tally>,
}

impl LuaRuntime {
    /// A Lua state for mods' scripts, with the scripts' limits.
    pub(crate) fn new(limits: Limits) -> mlua::Result<LuaRuntime> {
        let lua = sandbox::new_state()?;
        // Memory is limited per mod ([`memory`]); mlua is still told of a limit, one no state
        // reaches, so that it protects every allocation it makes (an allocation that fails for a
        // mod's limit then becomes that call's error).
        lua.set_memory_limit(limits.game_memory.min(usize::MAX / 4))?;
        let accounts = Accounts::of(&lua)?;
        // What lantern keeps for scripts (creature handles) is made charged to lantern, found here.
        lua.set_app_data(accounts);
        lua.set_app_data(ModIds {
            accounts,
            ids: Vec::new(),
        });
        let budget = budget::Budget::hook(&lua, limits)?;
        let views = event_view::Views::new(&lua)?;
        Ok(LuaRuntime {
            views,
            lender: Lender::default(),
            failed: Default::default(),
            scriptless: Default::default(),
            scripts: Vec::new(),
            known_scripts: None,
            ran_scripts: Vec::new(),
            compiled_before: None,
            make_lantern: None,
            journals: Vec::new(),
            work: 0,
            switches: None,
            profile: Vec::new(),
            lua,
            shared: Arc::new(AtomicRefCell::new(Shared::default())),
            budget,
            accounts,
            limits,
            mods: Vec::new(),
            by_id: Vec::new(),
            files: report::ScriptFiles::default(),
            pending: if budget::patched_lua() {
                Vec::new()
            } else {
                vec![Diagnostic::warning(Code::Lua,
                    "this build of lantern runs stock Lua, not lantern's (vendor/lantern-lua-src): scripts run, but the instruction budget misses the work of C functions and `pairs` may order keys differently in every process",
                )
                .with_help("lantern's build script links its own Lua and mlua-sys links none (feature `external`); something in this build linked another Lua in its place")]
            },
        })
    }

    /// Puts each mod's saved storage in place for a game that starts or was loaded. A mod's
    /// storage is built in its own memory account; one that cannot be built (it no longer fits)
    /// starts empty, and the game says so.
    pub fn attach_storage(&mut self, game: &mut Game) {
        let _paused = self.budget.pause();
        for m in &self.mods {
            let mut saved = game.storage().get(&m.id).cloned();
            // A game that has none for the mod (a new one, or a save from before the mod) starts
            // from what its script stored while it loaded.
            if let (None, Some(starting)) = (&saved, &m.starting) {
                game.storage_mut().insert(m.id.clone(), starting.clone());
                saved = Some(starting.clone());
            }
            if let Some((kept, dropped)) = saved.as_deref().and_then(storage::within_bounds) {
                let more = match dropped.len() {
                    n if n > 3 => format!(", and {} more", n - 3),
                    _ => String::new(),
                };
                game.report(Diagnostic::warning(
                    Code::Reconciled,
                    format!(
                        "[{}] its saved storage held what storage cannot, which was dropped: {}{more}",
                        m.id,
                        dropped.iter().take(3).cloned().collect::<Vec<_>>().join("; ")
                    ),
                )
                .of_mod(&m.id));
                let kept = Arc::new(kept);
                game.storage_mut().insert(m.id.clone(), kept.clone());
                saved = Some(kept);
            }
            let _charged = self.accounts.charge_to(m.owner);
            let table = match saved.as_deref().map(|v| storage::from_json(&self.lua, v)) {
                None => self.lua.create_table().ok(),
                Some(Ok(mlua::Value::Table(t))) => Some(t),
                Some(other) => {
                    let why = match other {
                        Err(e) => report::describe(&e).0,
                        Ok(_) => "it is not a table".to_string(),
                    };
                    game.report(
                        Diagnostic::warning(
                            Code::Script,
                            format!(
                            "[{}] its saved storage could not be restored ({why}); it starts empty",
                            m.id
                        ),
                        )
                        .of_mod(&m.id),
                    );
                    self.lua.create_table().ok()
                }
            };
            if let Some(table) = table {
                put_storage(&self.lua, &m.lantern, table);
            }
        }
        // The storage tables took new contents: the next save is whole.
        for m in &mut self.mods {
            m.mirror = None;
        }
    }

    /// Opens a storage journal for a transaction. (Storage tables are flagged when they are put
    /// in place and when a turn settles, which catches one a script put in place of its own.)
    fn open_journal(&mut self) {
        let _host = self.accounts.charge_to(Owner::HOST);
        // Pushed even when it could not open, so that its close pops it and not an outer one.
        self.journals.push(journal::begin(&self.lua));
    }

    /// Closes the innermost storage journal; with `undo`, what scripts stored during its
    /// transaction is put back as it was.
    fn close_journal(&mut self, game: &mut Game, undo: bool) {
        let Some(Some(mark)) = self.journals.pop() else {
            return;
        };
        let _host = self.accounts.charge_to(Owner::HOST);
        let _paused = self.budget.pause();
        if let Err(e) = journal::end(&self.lua, mark, undo) {
            game.report(Diagnostic::error(
                Code::Lua,
                format!("the mods' storage could not be put back after a failed action: {e}"),
            ));
        }
    }

    /// Takes in what mods' code ran inside other mods' calls: their turn's count grows by it, and
    /// their storage is written at the end of the turn like that of any mod whose code ran.
    fn settle_crossed(&mut self) {
        let crossed = std::mem::take(&mut self.shared.borrow_mut().crossed);
        for (id, used) in crossed {
            if let Some(m) = self.mods.iter_mut().find(|m| m.id == id) {
                m.turn_used = m.turn_used.saturating_add(used);
                m.ran = true;
            }
        }
    }

    /// Starts a new turn for every mod's budget and the game's.
    fn new_turn(&mut self) {
        self.settle_crossed();
        self.budget.new_turn();
        for m in &mut self.mods {
            self.work = self.work.saturating_add(m.turn_used);
            m.spent = m.spent.saturating_add(m.turn_used);
            m.turn_used = 0;
            m.skipped = 0;
        }
    }

    /// A diagnostic for a script error, located at the script line the error's frames name, with
    /// the traceback and the chain of events that led there.
    fn error_at(
        &self,
        mod_id: &str,
        what: &str,
        e: &mlua::Error,
        chain: Option<&str>,
    ) -> Diagnostic {
        self.error_in(mod_id, what, e, chain, None)
    }

    /// What a mod that ran out of memory is told: whose limit it was (the mod's own, or the
    /// game's whole state's, all mods together, when the mod held less than its own) and what it
    /// holds once what ran it out is collected.
    fn out_of_memory(&self, mod_id: &str) -> String {
        let held_by = || {
            let m = self.mods.iter().find(|m| m.id == mod_id);
            m.map(|m| self.accounts.used(m.owner))
        };
        let own_limit = held_by().is_none_or(|held| held >= self.limits.memory / 2)
            || self.limits.game_memory >= usize::MAX / 4;
        // What ran the mod out of memory may be garbage now: collect it, so the mod's next call
        // starts from what it really keeps. Twice: what the first collection finds in the middle
        // of a cycle is only freed by the next (the figure said depended on when the collector
        // last ran).
        {
            let _host = self.accounts.charge_to(Owner::HOST);
            let _ = self.lua.gc_collect();
            let _ = self.lua.gc_collect();
        }
        let held = held_by().unwrap_or(0);
        if own_limit {
            format!(
                "out of memory: its scripts passed their memory limit of {} (a memory bomb?); they hold {} after collecting",
                crate::diag::bytes(self.limits.memory),
                crate::diag::bytes(held)
            )
        } else {
            format!(
                "out of memory: the game's scripts passed their memory limit of {}, all mods together, while this mod's ran; it holds {} after collecting",
                crate::diag::bytes(self.limits.game_memory),
                crate::diag::bytes(held)
            )
        }
    }

    /// As [`error_at`](Self::error_at); when the error names no line (out of memory), the function
    /// that was called is the place.
    fn error_in(
        &self,
        mod_id: &str,
        what: &str,
        e: &mlua::Error,
        chain: Option<&str>,
        called: Option<&Function>,
    ) -> Diagnostic {
        let memory = report::is_memory(e);
        let (mut message, traceback) = report::describe(e);
        if memory {
            message = self.out_of_memory(mod_id);
        }
        let mut d =
            Diagnostic::error(Code::Script, format!("[{mod_id}] {what}: {message}")).of_mod(mod_id);
        let defined_at = || {
            let info = called?.info();
            let source = info.source?.trim_start_matches('@').to_string();
            self.files.line_span(&source, info.line_defined?)
        };
        let last_seen = || {
            let (source, line) = self.budget.last_seen().filter(|_| memory)?;
            self.files.line_span(&source, line)
        };
        let mut help = Vec::new();
        // The budget's own error is where the call passed its budget, wherever the script that
        // caught it went on to.
        let stopped = self
            .budget
            .stopped()
            .filter(|stop| report::describe(stop).0 == message)
            .and_then(|_| self.budget.stopped_place())
            .and_then(|(source, line)| self.files.line_span(&source, line));
        let located = stopped.or_else(|| self.files.locate(&message, &traceback));
        let syntax = matches!(e, mlua::Error::SyntaxError { .. });
        let mut opened = syntax.then(|| self.files.opened_at(&message)).flatten();
        if syntax && opened.is_none() {
            // Lua did not say which block: guess it from the indentation.
            let text = located.and_then(|at| {
                let (_, file, text) = self.scripts.iter().find(|(_, f, _)| *f == at.file)?;
                Some((*file, text))
            });
            if let Some(u) = text.and_then(|(_, text)| unclosed::guess(text)) {
                opened = self.files.line_span_in(located.map(|l| l.file), u.line);
                help.push(format!(
                    "the `{}` at line {} has no `end` of its own: the `end` at line {} lines up with the block around it",
                    u.keyword, u.line, u.end_line
                ));
            }
        }
        if let Some(span) = opened {
            // An unclosed block: its opening line is the cause, where Lua noticed is the label.
            d = d.at(span);
            if let Some(noticed) = located {
                d = d.with_label(noticed, "Lua noticed it here");
            }
        } else if let Some(span) = located {
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
        let only_here = matches!(traceback.as_slice(), [one] if located.is_some() && self.files.at(one) == located);
        if !traceback.is_empty() && !only_here {
            help.push(format!("traceback: {}", traceback.join(" <- ")));
        }
        if !help.is_empty() {
            d = d.with_help(help.join("; "));
        }
        d
    }
}

/// Makes `fresh` a mod's `lantern.storage`. The table the mod has stays and takes `fresh`'s
/// contents, so that a script that keeps it in a local (`local store = lantern.storage`) writes
/// into its storage still after a game starts or a save loads. It is flagged for the journal
/// (`journal.rs`), with every table it holds.
fn put_storage(lua: &mlua::Lua, lantern: &Table, fresh: Table) {
    if let Ok(mlua::Value::Table(live)) = lantern.raw_get::<mlua::Value>("storage") {
        let copied = live.clear().and_then(|()| {
            fresh
                .pairs::<mlua::Value, mlua::Value>()
                .try_for_each(|pair| pair.and_then(|(k, v)| live.raw_set(k, v)))
        });
        if copied.is_ok() {
            journal::flag(lua, &live);
            return;
        }
    }
    journal::flag(lua, &fresh);
    let _ = lantern.raw_set("storage", fresh);
}
