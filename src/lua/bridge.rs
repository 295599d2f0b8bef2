//! Crossing between Lua and the engine: the game lent to a call, creature handles and payload
//! values. Event views are in [`super::event_view`], storage in [`super::storage`].
//!
//! Lua never holds a Rust reference that could outlive a call or a reload: the game is lent for the
//! duration of one call through [`Lender::lend`] (a pointer, found through a thread-local, set and
//! cleared around the call and dereferenced only under a borrow flag; checks get it read-only), and handles
//! hold a [`CreatureRef`] that is looked up again on every access.

use super::price::charged;
use crate::content::Value;
use crate::game::{CreatureRef, Game};
use atomic_refcell::AtomicRefCell;
use mlua::{AnyUserData, Lua, UserData, UserDataFields, UserDataMethods, Value as LuaValue};
use std::cell::Cell;
use std::sync::atomic::{AtomicBool, AtomicPtr, Ordering::Relaxed};
use std::sync::Arc;

/// The game lent to the running call. One per Lua state, owned by its [`Lender`]; API functions
/// find it through `LENDING` while a lend runs.
/// Its fields are atomics only so that a game (and its Lua state) may move between threads
/// between calls; a lend is set, used and cleared on one thread, by relaxed loads and stores.
#[derive(Default)]
struct Lent {
    /// The game lent to the running call, or null between calls. Set only by [`Lender::lend`] and
    /// [`Lender::lend_ref`], for exactly the length of the call, while they hold the caller's
    /// borrow of the game; read only through [`with_game`], [`with_game_mut`] and
    /// [`lent_game_mut`], under `borrows`. A pointer rather than the game moved in: moving a game in
    /// and out cost two copies of it, and a scoped userdata, mlua's safe way to lend a reference,
    /// more than half a handler call.
    game: AtomicPtr<Game>,
    /// Whether the game was lent read-only (to a check).
    read_only: AtomicBool,
    /// The API functions' borrows of the lent game, under a `RefCell`'s rules, so a function that
    /// reads the game can never run while another changes it.
    borrows: AtomicRefCell<()>,
}

thread_local! {
    /// The lend running on this thread, or null. Scripts run on the thread that lends the game to
    /// them, and one lend runs at a time in a Lua state; a thread-local that needs no destructor is
    /// read in one load, where the state's app data took a hash lookup and a borrow.
    static LENDING: Cell<*const Lent> = const { Cell::new(std::ptr::null()) };
}

/// Lends the game to the calls of one Lua state.
#[derive(Default)]
pub(crate) struct Lender(Arc<Lent>);

/// Ends a lend when the call ends, even if it unwinds, and puts back the lend it interrupted.
struct EndLend<'a> {
    lent: &'a Lent,
    outer: *const Lent,
}

impl Drop for EndLend<'_> {
    fn drop(&mut self) {
        self.lent.game.store(std::ptr::null_mut(), Relaxed);
        self.lent.read_only.store(false, Relaxed);
        LENDING.with(|l| l.set(self.outer));
    }
}

impl Lender {
    /// Runs `f` with the game lent to Lua, mutably: API functions reach it through [`with_game`]
    /// and [`with_game_mut`].
    pub(crate) fn lend<R>(
        &self,
        game: &mut Game,
        f: impl FnOnce() -> mlua::Result<R>,
    ) -> mlua::Result<R> {
        let _end = self.start(game, false)?;
        f()
    }

    /// Runs `f` with the game lent to Lua read-only (checks): changing it from Lua is an error.
    pub(crate) fn lend_ref<R>(
        &self,
        game: &Game,
        f: impl FnOnce() -> mlua::Result<R>,
    ) -> mlua::Result<R> {
        // Never written through: `with_game_mut` refuses a read-only lend.
        let _end = self.start(std::ptr::from_ref(game).cast_mut(), true)?;
        f()
    }

    fn start(&self, game: *mut Game, read_only: bool) -> mlua::Result<EndLend<'_>> {
        if !self.0.game.load(Relaxed).is_null() {
            return Err(mlua::Error::runtime(
                "the game is already lent to a script further up this call",
            ));
        }
        self.0.game.store(game, Relaxed);
        self.0.read_only.store(read_only, Relaxed);
        let outer = LENDING.with(|l| l.replace(Arc::as_ptr(&self.0)));
        Ok(EndLend {
            lent: &self.0,
            outer,
        })
    }
}

const NOT_RUNNING: &str =
    "the game is only reachable while it runs: inside an event handler, action or check";

/// Runs `f` on the lend running now, if any.
fn lending<R>(f: impl FnOnce(&Lent) -> R) -> Option<R> {
    let lent = LENDING.with(Cell::get);
    // SAFETY: not null only while `Lender::start`'s guard lives, pointing into the `Arc` of the
    // `Lender` that guard borrows, so the `Lent` outlives the pointer; it is only read through
    // atomics and an `AtomicRefCell`.
    (!lent.is_null()).then(|| f(unsafe { &*lent }))
}

/// Reads the lent game.
pub(crate) fn with_game<R>(f: impl FnOnce(&Game) -> R) -> mlua::Result<R> {
    lending(|lent| {
        let game = lent.game.load(Relaxed);
        if game.is_null() {
            return Err(mlua::Error::runtime(NOT_RUNNING));
        }
        let _reading = lent
            .borrows
            .try_borrow()
            .map_err(|_| mlua::Error::runtime("the game is busy in this call"))?;
        // SAFETY: `game` is not null, so a lend is running and the game it points to is borrowed by
        // that lend for as long as it runs, which outlasts this call; the only other references made
        // from it are made here and in `with_game_mut`/`lent_game_mut`, under `borrows`, which is
        // held shared here.
        Ok(f(unsafe { &*game }))
    })
    .unwrap_or_else(|| Err(mlua::Error::runtime(NOT_RUNNING)))
}

/// Changes the lent game; inside a check it is lent read-only and this fails with a clear message.
pub(crate) fn with_game_mut<R>(f: impl FnOnce(&mut Game) -> R) -> mlua::Result<R> {
    lending(|lent| {
        if lent.game.load(Relaxed).is_null() {
            return Err(mlua::Error::runtime(NOT_RUNNING));
        }
        if lent.read_only.load(Relaxed) {
            return Err(mlua::Error::runtime("a check cannot change the game"));
        }
        lent_game_mut_in(lent, f)
            .ok_or_else(|| mlua::Error::runtime("the game is busy in this call"))
    })
    .unwrap_or_else(|| Err(mlua::Error::runtime(NOT_RUNNING)))
}

/// As [`with_game_mut`], for a fast path that hands every problem to a slower path that reports
/// it: `None` when no game is lent, it is lent read-only, or it is busy.
pub(crate) fn lent_game_mut<R>(f: impl FnOnce(&mut Game) -> R) -> Option<R> {
    lending(|lent| lent_game_mut_in(lent, f)).flatten()
}

fn lent_game_mut_in<R>(lent: &Lent, f: impl FnOnce(&mut Game) -> R) -> Option<R> {
    let game = lent.game.load(Relaxed);
    if game.is_null() || lent.read_only.load(Relaxed) {
        return None;
    }
    let _changing = lent.borrows.try_borrow_mut().ok()?;
    // SAFETY: as in `with_game`; the lend is mutable (not `read_only`, so the pointer came from a
    // `&mut Game`), and `borrows` is held exclusively, so no other reference made from it is alive.
    Some(f(unsafe { &mut *game }))
}

/// A creature as Lua sees it: a reference looked up on every access.
#[derive(Clone, Copy)]
pub(crate) struct Creature(pub CreatureRef);

/// The registry key of the table of creature handles made so far.
const HANDLES: &str = "lantern.handles";

/// The table of creature handles made so far in `lua`, by [`handle_key`], made on first use.
/// Event views (`ev.source`, through their C fast path) and `lantern.game` share it.
pub(crate) fn handles(lua: &Lua) -> mlua::Result<mlua::Table> {
    // Kept in the state's app data too: a lookup by type, where the registry's is by name (a
    // string made and hashed on every `lantern.game.player`).
    if let Some(t) = lua.app_data_ref::<Handles>() {
        return Ok(t.0.clone());
    }
    let t = match lua.named_registry_value::<Option<mlua::Table>>(HANDLES)? {
        Some(t) => t,
        None => {
            let _host = lantern_owned(lua);
            let t = lua.create_table()?;
            lua.set_named_registry_value(HANDLES, &t)?;
            t
        }
    };
    lua.set_app_data(Handles(t.clone()));
    Ok(t)
}

/// The table of creature handles, in the state's app data.
struct Handles(mlua::Table);

/// The handle of a creature: made the first time any script asks for it and kept, charged to
/// lantern. A handle made anew on each access was garbage with a finalizer (mlua's), which Lua's
/// collector frees a cycle late: a handler reading `lantern.game.player` on every event made its
/// mod's memory climb until it was stopped as a memory bomb.
pub(crate) fn handle(lua: &Lua, r: CreatureRef) -> mlua::Result<AnyUserData> {
    handle_in(lua, &handles(lua)?, r)
}

/// [`handle`], in a table of handles the caller holds already.
pub(crate) fn handle_in(
    lua: &Lua,
    handles: &mlua::Table,
    r: CreatureRef,
) -> mlua::Result<AnyUserData> {
    let key = handle_key(r);
    if let Some(h) = handles.raw_get::<Option<AnyUserData>>(key)? {
        return Ok(h);
    }
    let _host = lantern_owned(lua);
    let h = lua.create_userdata(Creature(r))?;
    handles.raw_set(key, &h)?;
    Ok(h)
}

/// Where a creature's handle is kept in the table of handles.
pub(crate) fn handle_key(r: CreatureRef) -> i64 {
    match r {
        CreatureRef::Player => 0,
        CreatureRef::Enemy(i) => i64::try_from(i).map_or(i64::MAX, |i| i.saturating_add(1)),
    }
}

/// Charges what is allocated while the guard lives to lantern, in a state with accounts.
pub(crate) fn lantern_owned(lua: &Lua) -> Option<super::memory::Charging> {
    lua.app_data_ref::<super::memory::Accounts>()
        .map(|a| a.charge_to(super::memory::Owner::HOST))
}

pub(crate) fn ref_name(r: CreatureRef) -> String {
    match r {
        CreatureRef::Player => "player".into(),
        CreatureRef::Enemy(i) => format!("enemy:{}", i + 1),
    }
}

pub(crate) fn parse_ref(s: &str) -> Option<CreatureRef> {
    match s {
        "player" => Some(CreatureRef::Player),
        _ => s
            .strip_prefix("enemy:")
            .and_then(|n| n.parse::<usize>().ok())
            .filter(|n| *n >= 1)
            .map(|n| CreatureRef::Enemy(n - 1)),
    }
}

impl UserData for Creature {
    // Every field and method is charged to the calling script like any of lantern's functions
    // (`price::charged`), and takes its arguments as plain values, so a call with the wrong type
    // pays for its error too.
    fn add_fields<F: UserDataFields<Self>>(fields: &mut F) {
        fields.add_field_method_get("ref", |lua, this| charged(lua, || Ok(ref_name(this.0))));
        fields.add_field_method_get("name", |lua, this| {
            charged(lua, || {
                with_game(|g| g.creature(this.0).map(|c| c.name.unescaped().to_string()))
            })
        });
        fields.add_field_method_get("def", |lua, this| {
            charged(lua, || {
                with_game(|g| g.creature(this.0).map(|c| c.def.to_string()))
            })
        });
        fields.add_field_method_get("health", |lua, this| {
            charged(lua, || with_game(|g| g.creature(this.0).map(|c| c.health)))
        });
        fields.add_field_method_get("max_health", |lua, this| {
            charged(lua, || {
                with_game(|g| g.attribute(this.0, "max_health", None))
            })
        });
        fields.add_field_method_get("alive", |lua, this| {
            charged(lua, || {
                with_game(|g| g.creature(this.0).is_some_and(|c| c.alive()))
            })
        });
        fields.add_field_method_get("tags", |lua, this| {
            charged(lua, || {
                let tags = with_game(|g| {
                    g.creature(this.0)
                        .map(|c| c.tags.iter().map(|t| t.to_string()).collect::<Vec<_>>())
                        .unwrap_or_default()
                })?;
                super::price::charge(lua, 8 * tags.len())?;
                lua.create_sequence_from(tags)
            })
        });
    }

    fn add_methods<M: UserDataMethods<Self>>(methods: &mut M) {
        methods.add_method("count", |lua, this, item: LuaValue| {
            charged(lua, || {
                with_text(&item, "count", "an item ID", |item| {
                    with_game(|g| {
                        let item = script_id(lua, g.content(), &g.content().items, item, "item")?;
                        Ok(g.creature(this.0).map_or(0, |c| c.count(&item)))
                    })?
                })
            })
        });
        methods.add_method("has_tag", |lua, this, tag: LuaValue| {
            charged(lua, || {
                let tag = text_arg(&tag, "has_tag", "a tag ID")?;
                with_game(|g| {
                    let tag = script_id(lua, g.content(), &g.content().tags, &tag, "tag")?;
                    Ok(g.creature(this.0).is_some_and(|c| c.tags.contains(&tag)))
                })?
            })
        });
        methods.add_method("attribute", |lua, this, name: LuaValue| {
            charged(lua, || {
                let name = text_arg(&name, "attribute", "an attribute's name")?;
                crate::content::vocab::known_attribute(&name).map_err(mlua::Error::runtime)?;
                with_game(|g| g.attribute(this.0, &name, None))
            })
        });
        methods.add_meta_method("__tostring", |lua, this, ()| {
            charged(lua, || Ok(ref_name(this.0)))
        });
        methods.add_meta_method("__eq", |lua, this, other: LuaValue| {
            charged(lua, || {
                Ok(match other {
                    LuaValue::UserData(other) => other
                        .borrow::<Creature>()
                        .map(|o| o.0 == this.0)
                        .unwrap_or(false),
                    _ => false,
                })
            })
        });
    }
}

/// A creature method's text argument: `handle:count("core:gold")`.
/// [`text_arg`] without a copy, for a hot method: `f` reads the text where Lua keeps it (text
/// that is not UTF-8 is read as `text_arg` reads it).
fn with_text<R>(
    v: &LuaValue,
    method: &str,
    what: &str,
    f: impl FnOnce(&str) -> mlua::Result<R>,
) -> mlua::Result<R> {
    if let LuaValue::String(s) = v {
        if let Ok(text) = s.to_str() {
            return f(&text);
        }
    }
    f(&text_arg(v, method, what)?)
}

fn text_arg(v: &LuaValue, method: &str, what: &str) -> mlua::Result<String> {
    match v {
        LuaValue::String(s) => Ok(s.to_string_lossy()),
        other => Err(mlua::Error::runtime(format!(
            "{method} takes {what}, not a {} (call it with `:`, as `handle:{method}(...)`)",
            other.type_name()
        ))),
    }
}

/// An ID a script passed to a creature handle: a bare name is the calling mod's own (as in its TOML),
/// and one that names nothing is an error at the script's line with the closest ID, rather than a
/// silent zero or `false` that hides the typo.
fn script_id<V>(
    lua: &Lua,
    content: &crate::content::Content,
    registry: &crate::content::Registry<V>,
    text: &str,
    kind: &str,
) -> mlua::Result<crate::id::Id> {
    // A whole ID names its mod: no need to ask which script called (reading Lua's stack is most
    // of what a call like `player:count("core:gold")` costs).
    if text.contains(':') {
        return crate::content::find_id(registry, text, "", kind).or_else(|e| {
            super::price::charge_suggestions(lua, registry.len())?;
            Err(mlua::Error::runtime(e))
        });
    }
    // The mod whose call is running (its account is charged); else the file of the Lua code that
    // called, read from the stack; a call from no script's file (lantern's own code) means the
    // game's home mod.
    let running = super::running_mod(lua);
    let from_stack = || {
        super::report::call_site(lua)
            .and_then(|(file, _)| file.split('/').next().map(str::to_string))
            .unwrap_or_else(|| content.declared.home().to_string())
    };
    let caller: std::borrow::Cow<'_, str> = match &running {
        Some(m) => std::borrow::Cow::Borrowed(m),
        None => std::borrow::Cow::Owned(from_stack()),
    };
    crate::content::find_id(registry, text, &caller, kind).or_else(|e| {
        super::price::charge_suggestions(lua, registry.len())?;
        Err(mlua::Error::runtime(e))
    })
}

/// A payload value as Lua sees it; text is charged to the running call by its length before it
/// is copied into Lua.
pub(crate) fn to_lua(lua: &Lua, v: &Value) -> mlua::Result<LuaValue> {
    Ok(match v {
        Value::Bool(b) => LuaValue::Boolean(*b),
        Value::Int(i) => LuaValue::Integer(*i),
        Value::Float(f) => LuaValue::Number(*f),
        Value::Str(s) => {
            super::price::charge_bytes(lua, s.len())?;
            LuaValue::String(lua.create_string(s.as_bytes())?)
        }
    })
}

/// A Lua value as a payload value; tables and functions have none (`Ok(None)`). Text is charged
/// to the running call by its length before it is copied, and text longer than
/// [`MOST_TEXT`](crate::content::MOST_TEXT) is an error: a payload that lantern holds (queued,
/// logged, saved) must not be a script's whole memory.
pub(crate) fn from_lua(lua: &Lua, v: &LuaValue) -> mlua::Result<Option<Value>> {
    Ok(match v {
        LuaValue::Boolean(b) => Some(Value::Bool(*b)),
        LuaValue::Integer(i) => Some(Value::Int(*i)),
        LuaValue::Number(n) => Some(Value::Float(*n)),
        LuaValue::String(s) => {
            let bytes = s.as_bytes();
            if bytes.len() > crate::content::MOST_TEXT {
                return Err(mlua::Error::runtime(format!(
                    "text of {} is longer than a value lantern passes on may be ({}): pass an ID \
                     or a key, not the text itself",
                    crate::diag::bytes(bytes.len()),
                    crate::diag::bytes(crate::content::MOST_TEXT)
                )));
            }
            super::price::charge_bytes(lua, bytes.len())?;
            std::str::from_utf8(&bytes).ok().map(Value::str)
        }
        _ => None,
    })
}
