//! Crossing between Lua and the engine: the game lent to a call, creature handles, event views,
//! payload values and storage.
//!
//! Lua never holds a Rust reference that could outlive a call or a reload: the game is lent for the
//! duration of one call through [`lend`] (moved into the state's app data and back, a stand-in in
//! its place meanwhile; checks get it read-only through a scoped userdata), and handles hold a
//! [`CreatureRef`] that is looked up again on every access.

use crate::content::{EventDef, Value};
use crate::game::{CreatureRef, Event, Game};
use mlua::{AnyUserData, Lua, UserData, UserDataFields, UserDataMethods, Value as LuaValue};
use std::cell::{Cell, RefCell};

/// Where API functions find the game lent to the current call. Installed once per Lua state, in
/// its app data, and never replaced, so lending costs no allocation.
#[derive(Default)]
struct Lent {
    /// During [`lend`], the real game; between calls, a stand-in (made at the first lend). The
    /// game is moved in rather than referenced, which costs two copies of it: a scoped userdata,
    /// the safe way to lend a reference, cost more than half of a handler call.
    game: RefCell<Option<Game>>,
    /// Whether `game` holds the real game now.
    active: Cell<bool>,
    /// During [`lend_ref`] (checks, which only get `&Game`): the game as a scoped userdata.
    shared: RefCell<Option<AnyUserData>>,
}

fn lent(lua: &Lua) -> mlua::AppDataRef<'_, Lent> {
    if lua.app_data_ref::<Lent>().is_none() {
        lua.set_app_data(Lent::default());
    }
    lua.app_data_ref::<Lent>()
        .expect("the lent game's slot was installed just above")
}

/// Puts the real game back when the call ends, even if it unwinds.
struct Restore<'a> {
    game: &'a mut Game,
    lent: &'a Lent,
}

impl Drop for Restore<'_> {
    fn drop(&mut self) {
        self.lent.active.set(false);
        // No borrow of the slot outlives the call that took it, so this cannot fail.
        if let Ok(mut slot) = self.lent.game.try_borrow_mut() {
            if let Some(real) = slot.as_mut() {
                std::mem::swap(self.game, real);
            }
        }
    }
}

/// Runs `f` with the game lent to Lua, mutably: API functions reach it through [`with_game`].
pub fn lend<R>(lua: &Lua, game: &mut Game, f: impl FnOnce() -> mlua::Result<R>) -> mlua::Result<R> {
    let lent = lent(lua);
    if lent.active.get() || lent.shared.borrow().is_some() {
        return Err(mlua::Error::runtime(
            "the game is already lent to a script further up this call",
        ));
    }
    {
        let mut slot = lent.game.borrow_mut();
        let stand_in = slot.get_or_insert_with(|| Game::stand_in(game.content().clone()));
        std::mem::swap(game, stand_in);
    }
    lent.active.set(true);
    let _restore = Restore { game, lent: &lent };
    f()
}

/// Runs `f` with the game lent to Lua read-only (checks): changing it from Lua is an error.
pub fn lend_ref<R>(lua: &Lua, game: &Game, f: impl FnOnce() -> mlua::Result<R>) -> mlua::Result<R> {
    let lent = lent(lua);
    if lent.active.get() || lent.shared.borrow().is_some() {
        return Err(mlua::Error::runtime(
            "the game is already lent to a script further up this call",
        ));
    }
    lua.scope(|scope| {
        let ud = scope.create_any_userdata_ref(game)?;
        *lent.shared.borrow_mut() = Some(ud);
        let _clear = ClearShared(&lent);
        f()
    })
}

/// Ends a read-only lend when the call ends, even if it unwinds.
struct ClearShared<'a>(&'a Lent);

impl Drop for ClearShared<'_> {
    fn drop(&mut self) {
        if let Ok(mut shared) = self.0.shared.try_borrow_mut() {
            *shared = None;
        }
    }
}

const NOT_RUNNING: &str =
    "the game is only reachable while it runs: inside an event handler, action or check";

/// Reads the lent game.
pub fn with_game<R>(lua: &Lua, f: impl FnOnce(&Game) -> R) -> mlua::Result<R> {
    let lent = lua
        .app_data_ref::<Lent>()
        .ok_or_else(|| mlua::Error::runtime(NOT_RUNNING))?;
    if lent.active.get() {
        let slot = lent
            .game
            .try_borrow()
            .map_err(|_| mlua::Error::runtime("the game is busy in this call"))?;
        return slot
            .as_ref()
            .map(f)
            .ok_or_else(|| mlua::Error::runtime(NOT_RUNNING));
    }
    let shared = lent.shared.borrow().clone();
    match shared {
        Some(ud) => ud.borrow_scoped::<Game, R>(f),
        None => Err(mlua::Error::runtime(NOT_RUNNING)),
    }
}

/// Changes the lent game; inside a check it is lent read-only and this fails with a clear message.
pub fn with_game_mut<R>(lua: &Lua, f: impl FnOnce(&mut Game) -> R) -> mlua::Result<R> {
    let lent = lua
        .app_data_ref::<Lent>()
        .ok_or_else(|| mlua::Error::runtime(NOT_RUNNING))?;
    if !lent.active.get() {
        return Err(mlua::Error::runtime(if lent.shared.borrow().is_some() {
            "a check cannot change the game"
        } else {
            NOT_RUNNING
        }));
    }
    let mut slot = lent
        .game
        .try_borrow_mut()
        .map_err(|_| mlua::Error::runtime("the game is busy in this call"))?;
    slot.as_mut()
        .map(f)
        .ok_or_else(|| mlua::Error::runtime(NOT_RUNNING))
}

/// A creature as Lua sees it: a reference looked up on every access.
#[derive(Clone, Copy)]
pub struct Creature(pub CreatureRef);

pub fn ref_name(r: CreatureRef) -> String {
    match r {
        CreatureRef::Player => "player".into(),
        CreatureRef::Enemy(i) => format!("enemy:{}", i + 1),
    }
}

pub fn parse_ref(s: &str) -> Option<CreatureRef> {
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
    fn add_fields<F: UserDataFields<Self>>(fields: &mut F) {
        fields.add_field_method_get("ref", |_, this| Ok(ref_name(this.0)));
        fields.add_field_method_get("name", |lua, this| {
            with_game(lua, |g| g.creature(this.0).map(|c| c.name.clone()))
        });
        fields.add_field_method_get("def", |lua, this| {
            with_game(lua, |g| g.creature(this.0).map(|c| c.def.to_string()))
        });
        fields.add_field_method_get("health", |lua, this| {
            with_game(lua, |g| g.creature(this.0).map(|c| c.health))
        });
        fields.add_field_method_get("max_health", |lua, this| {
            with_game(lua, |g| g.attribute(this.0, "max_health", None))
        });
        fields.add_field_method_get("alive", |lua, this| {
            with_game(lua, |g| g.creature(this.0).is_some_and(|c| c.alive()))
        });
        fields.add_field_method_get("tags", |lua, this| {
            let tags = with_game(lua, |g| {
                g.creature(this.0)
                    .map(|c| c.tags.iter().map(|t| t.to_string()).collect::<Vec<_>>())
                    .unwrap_or_default()
            })?;
            lua.create_sequence_from(tags)
        });
    }

    fn add_methods<M: UserDataMethods<Self>>(methods: &mut M) {
        methods.add_method("count", |lua, this, item: String| {
            with_game(lua, |g| {
                let item = script_id(lua, &g.content().items, &item, "item")?;
                Ok(g.creature(this.0).map_or(0, |c| c.count(&item)))
            })?
        });
        methods.add_method("has_tag", |lua, this, tag: String| {
            with_game(lua, |g| {
                let tag = script_id(lua, &g.content().tags, &tag, "tag")?;
                Ok(g.creature(this.0).is_some_and(|c| c.tags.contains(&tag)))
            })?
        });
        methods.add_method("attribute", |lua, this, name: String| {
            crate::content::vocab::known_attribute(&name).map_err(mlua::Error::runtime)?;
            with_game(lua, |g| g.attribute(this.0, &name, None))
        });
        methods.add_meta_method("__tostring", |_, this, ()| Ok(ref_name(this.0)));
        methods.add_meta_method("__eq", |_, this, other: AnyUserData| {
            Ok(other
                .borrow::<Creature>()
                .map(|o| o.0 == this.0)
                .unwrap_or(false))
        });
    }
}

/// An ID a script passed to a creature handle: a bare name is the calling mod's own (as in its TOML),
/// and one that names nothing is an error at the script's line with the closest ID, rather than a
/// silent zero or `false` that hides the typo.
fn script_id<V>(
    lua: &Lua,
    registry: &std::collections::BTreeMap<crate::id::Id, V>,
    text: &str,
    kind: &str,
) -> mlua::Result<crate::id::Id> {
    let caller = super::api::call_site(lua)
        .and_then(|(file, _)| file.split('/').next().map(str::to_string))
        .unwrap_or_else(|| "core".to_string());
    crate::content::find_id(registry, text, &caller, kind).map_err(mlua::Error::runtime)
}

/// A payload value as Lua sees it.
pub fn to_lua(lua: &Lua, v: &Value) -> mlua::Result<LuaValue> {
    Ok(match v {
        Value::Bool(b) => LuaValue::Boolean(*b),
        Value::Int(i) => LuaValue::Integer(*i),
        Value::Float(f) => LuaValue::Number(*f),
        Value::Str(s) => LuaValue::String(lua.create_string(s.as_bytes())?),
    })
}

/// A Lua value as a payload value; tables and functions have none.
pub fn from_lua(v: &LuaValue) -> Option<Value> {
    match v {
        LuaValue::Boolean(b) => Some(Value::Bool(*b)),
        LuaValue::Integer(i) => Some(Value::Int(*i)),
        LuaValue::Number(n) if n.fract() == 0.0 && n.abs() < 9e15 => Some(Value::Float(*n)),
        LuaValue::Number(n) => Some(Value::Float(*n)),
        LuaValue::String(s) => s.to_str().ok().map(|s| Value::str(&s)),
        _ => None,
    }
}

/// Builds the read-only event views: the names of every event kind are Lua strings made once per
/// content, and creature handles are made once per creature reference.
pub struct Views {
    /// Per event kind: its name, then its payload field names.
    names: Vec<std::rc::Rc<[mlua::String]>>,
    handles: Handles,
}

/// Creature handles made so far, one per creature reference, shared with the views that hand
/// them out.
type Handles = std::rc::Rc<RefCell<std::collections::BTreeMap<CreatureRef, AnyUserData>>>;

fn handle_in(handles: &Handles, lua: &Lua, r: CreatureRef) -> mlua::Result<AnyUserData> {
    if let Some(h) = handles.borrow().get(&r) {
        return Ok(h.clone());
    }
    let h = lua.create_userdata(Creature(r))?;
    handles.borrow_mut().insert(r, h.clone());
    Ok(h)
}

/// An event as Lua sees it: `ev.name`, `ev.source`, `ev.target` and the payload fields, read on
/// access from the event itself; every write is refused. One per event, shared by its handlers.
/// It holds plain references; the creature handles are fetched when a handler asks for them, so
/// making a view takes no Lua references.
pub struct EventView {
    names: std::rc::Rc<[mlua::String]>,
    handles: Handles,
    source: CreatureRef,
    target: Option<CreatureRef>,
    payload: std::rc::Rc<[Option<Value>]>,
}

impl EventView {
    fn no_field(&self, key: &[u8]) -> mlua::Error {
        let key = String::from_utf8_lossy(key);
        let names: Vec<String> = ["name".to_string(), "source".into(), "target".into()]
            .into_iter()
            .chain(self.names[1..].iter().map(|n| n.to_string_lossy()))
            .collect();
        let help = crate::diag::did_you_mean_suffix(&key, names.iter().map(String::as_str));
        mlua::Error::runtime(format!(
            "event `{}` has no field `{key}`{help}",
            self.names[0].to_string_lossy()
        ))
    }
}

impl UserData for EventView {
    fn add_methods<M: UserDataMethods<Self>>(methods: &mut M) {
        methods.add_meta_method(mlua::MetaMethod::Index, |lua, this, key: mlua::String| {
            let key = key.as_bytes();
            Ok(match &*key {
                b"name" => LuaValue::String(this.names[0].clone()),
                b"source" => LuaValue::UserData(handle_in(&this.handles, lua, this.source)?),
                b"target" => match this.target {
                    Some(t) => LuaValue::UserData(handle_in(&this.handles, lua, t)?),
                    None => LuaValue::Nil,
                },
                other => match this.names[1..].iter().position(|n| &*n.as_bytes() == other) {
                    Some(i) => match this.payload.get(i).and_then(Option::as_ref) {
                        Some(v) => to_lua(lua, v)?,
                        None => LuaValue::Nil,
                    },
                    // A misspelt field would read as nil and fail later, somewhere less clear.
                    None => return Err(this.no_field(other)),
                },
            })
        });
        methods.add_meta_method(
            mlua::MetaMethod::NewIndex,
            |_, _, (key, _value): (LuaValue, LuaValue)| -> mlua::Result<()> {
                Err(mlua::Error::runtime(format!(
                    "this table is read-only (tried to set `{}`)",
                    key.to_string().unwrap_or_default()
                )))
            },
        );
        methods.add_meta_method(mlua::MetaMethod::ToString, |_, this, ()| {
            Ok(format!("event {}", this.names[0].to_string_lossy()))
        });
    }
}

impl Views {
    pub fn new(_lua: &Lua) -> mlua::Result<Views> {
        Ok(Views {
            names: Vec::new(),
            handles: Default::default(),
        })
    }

    /// Interns the names of every event kind of a content set.
    pub fn bind(&mut self, lua: &Lua, events: &crate::content::EventTable) -> mlua::Result<()> {
        self.names = events
            .iter()
            .map(|(_, def)| {
                std::iter::once(def.name.as_str())
                    .chain(def.payload.iter().map(|(n, _)| n.as_str()))
                    .map(|n| lua.create_string(n))
                    .collect::<mlua::Result<Vec<_>>>()
                    .map(std::rc::Rc::from)
            })
            .collect::<mlua::Result<_>>()?;
        Ok(())
    }

    /// The view of an event.
    pub fn view(&self, lua: &Lua, _def: &EventDef, event: &Event) -> mlua::Result<AnyUserData> {
        let names = self
            .names
            .get(event.kind.0 as usize)
            .cloned()
            .ok_or_else(|| mlua::Error::runtime("an event of unknown kind"))?;
        let view = EventView {
            names,
            handles: self.handles.clone(),
            source: event.source,
            target: event.target,
            payload: event.payload.clone(),
        };
        lua.create_userdata(view)
    }
}

/// `lantern.storage` to JSON: only plain data (strings, numbers, booleans, tables of them).
pub fn storage_to_json(v: &LuaValue, path: &str) -> Result<serde_json::Value, String> {
    Ok(match v {
        LuaValue::Nil => serde_json::Value::Null,
        LuaValue::Boolean(b) => serde_json::Value::Bool(*b),
        LuaValue::Integer(i) => serde_json::Value::from(*i),
        LuaValue::Number(n) => serde_json::Number::from_f64(*n).map(serde_json::Value::Number).ok_or_else(|| format!("{path} is not a finite number"))?,
        LuaValue::String(s) => serde_json::Value::String(s.to_str().map(|s| s.to_string()).map_err(|_| format!("{path} is not UTF-8 text"))?),
        LuaValue::Table(t) => {
            let len = t.raw_len();
            let mut count = 0;
            let mut object = serde_json::Map::new();
            for pair in t.pairs::<LuaValue, LuaValue>() {
                let (k, v) = pair.map_err(|e| e.to_string())?;
                count += 1;
                let key = match &k {
                    LuaValue::String(s) => s.to_str().map(|s| s.to_string()).map_err(|_| format!("{path} has a key that is not UTF-8"))?,
                    LuaValue::Integer(i) => i.to_string(),
                    other => return Err(format!("{path} has a {} key; storage keys are strings or integers", other.type_name())),
                };
                let child = storage_to_json(&v, &format!("{path}.{key}"))?;
                object.insert(key, child);
            }
            if len > 0 && count == len {
                serde_json::Value::Array((1..=len).map(|i| object.remove(&i.to_string()).unwrap_or(serde_json::Value::Null)).collect())
            } else {
                serde_json::Value::Object(object)
            }
        }
        other => return Err(format!("{path} holds a {}; lantern.storage holds only plain data (strings, numbers, booleans, tables)", other.type_name())),
    })
}

/// JSON back to a Lua table or value.
pub fn json_to_lua(lua: &Lua, v: &serde_json::Value) -> mlua::Result<LuaValue> {
    Ok(match v {
        serde_json::Value::Null => LuaValue::Nil,
        serde_json::Value::Bool(b) => LuaValue::Boolean(*b),
        serde_json::Value::Number(n) => match n.as_i64() {
            Some(i) => LuaValue::Integer(i),
            None => LuaValue::Number(n.as_f64().unwrap_or(0.0)),
        },
        serde_json::Value::String(s) => LuaValue::String(lua.create_string(s)?),
        serde_json::Value::Array(items) => {
            let t = lua.create_table()?;
            for (i, item) in items.iter().enumerate() {
                t.raw_set(i + 1, json_to_lua(lua, item)?)?;
            }
            LuaValue::Table(t)
        }
        serde_json::Value::Object(map) => {
            let t = lua.create_table()?;
            for (k, item) in map {
                t.raw_set(k.as_str(), json_to_lua(lua, item)?)?;
            }
            LuaValue::Table(t)
        }
    })
}
