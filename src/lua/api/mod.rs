//! The `lantern` table a mod's scripts see, one module per file, each with a `register` function.
//!
//! Every function is added through [`Api::function`], which also records its signature and its
//! documentation; `lantern docs --lua-defs` writes the LuaLS definitions from that record, so the
//! definitions cannot drift from what is registered. Every one is charged to the calling script's
//! budget ([`crate::lua::budget::function`]): a call, its failure, and the work it does.
//!
//! The registrations are passes ([`Make`]): a mod's table is made with its fields only, and each
//! function the first time a script reads it, by a pass that makes that one (its metatable's
//! `__index`); `pairs` makes the rest first, so a script sees the whole table either way. A mod
//! uses a few of the functions, and a test game over 200 mods spent a quarter of its time making
//! every one for every mod.

mod actions;
pub(crate) use actions::to_toml_map;
mod emit;
mod events;
mod game;
mod host;
mod log;
mod rng;
mod storage;
mod text;

pub(crate) use log::{print_function, Printed, MOST_OUTPUT};
pub(crate) use rng::random;

use super::Shared;
use atomic_refcell::AtomicRefCell;
use mlua::{FromLuaMulti, IntoLuaMulti, Lua, Table};
use std::sync::Arc;

/// The most handlers one mod may register with `lantern.on`: far more than any mod needs, and a
/// bound on what lantern keeps for each (a mod looping over `lantern.on` cannot fill the state
/// with lantern's own references).
pub(crate) const MOST_HANDLERS: usize = 1000;

/// The most actions, checks and `on_reload` handlers one mod may register, together.
pub(crate) const MOST_REGISTERED: usize = 1000;

/// One documented entry of the API.
#[derive(Debug, Clone)]
pub struct ApiDoc {
    /// `lantern.on`
    pub(crate) path: String,
    /// (name, LuaLS type) of each parameter; a type ending in `?` is optional.
    pub(crate) params: Vec<(&'static str, &'static str)>,
    pub(crate) returns: Option<&'static str>,
    pub(crate) doc: &'static str,
    /// A function, or a field when `false`.
    pub(crate) function: bool,
}

/// What a mod's API functions know: the mod they belong to and the runtime's shared registry.
#[derive(Clone)]
pub(crate) struct ModCx {
    /// Shared, so that a function's closure takes its own copy cheaply (the table's functions
    /// are made one at a time, each by a pass over every registration).
    pub(crate) mod_id: Arc<str>,
    /// The mod's memory account.
    pub(crate) owner: crate::lua::memory::Owner,
    pub(crate) shared: Arc<AtomicRefCell<Shared>>,
}

/// What a pass over the registrations makes.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Make<'a> {
    /// Only the documentation of every entry.
    Docs,
    /// The fields of a new table (`storage`, `game`): its functions are made on first use.
    Fields,
    /// The one function (or the game's table of functions) of this name.
    One(&'a str),
    /// Every function not made yet (a script walks the table with `pairs`).
    Functions,
}

/// One pass over the registrations of a mod's `lantern` table (see [`build`]).
pub(crate) struct Api<'a> {
    lua: &'a Lua,
    table: Table,
    prefix: &'static str,
    make: Make<'a>,
    /// Every entry's documentation, when `make` is [`Make::Docs`].
    docs: Vec<ApiDoc>,
    /// The names of the entries registered so far, in a pass that makes the table or its
    /// documentation.
    names: Vec<String>,
    /// What this pass made.
    made: Vec<String>,
}

impl<'a> Api<'a> {
    pub(crate) fn new(lua: &'a Lua, table: Table, prefix: &'static str, make: Make<'a>) -> Api<'a> {
        Api {
            lua,
            table,
            prefix,
            make,
            docs: Vec::new(),
            names: Vec::new(),
            made: Vec::new(),
        }
    }

    /// Whether this pass makes the function (or the game's table) `name`; a function not made
    /// yet is made by [`Make::Functions`].
    pub(crate) fn wants(&self, name: &str) -> mlua::Result<bool> {
        Ok(match self.make {
            Make::One(wanted) => wanted == name,
            Make::Functions => self.table.raw_get::<mlua::Value>(name)?.is_nil(),
            Make::Docs | Make::Fields => false,
        })
    }

    /// Puts a function or table made by this pass into the table, without telling the journal:
    /// it is lantern's, not a write of the script's (see [`quiet_set`]).
    fn put(&mut self, name: &str, value: impl mlua::IntoLua) -> mlua::Result<()> {
        quiet_set(self.lua, &self.table, name, value)?;
        self.made.push(name.to_string());
        Ok(())
    }

    /// Records an entry's documentation, in a pass that makes it.
    fn document(&mut self, doc: impl FnOnce() -> ApiDoc) {
        if self.make == Make::Docs {
            self.docs.push(doc());
        }
    }

    /// Records an entry's name, in a pass that keeps them (the passes that make a table or its
    /// documentation; a function's pass runs on a script's first read and needs none).
    fn name(&mut self, name: &str) {
        if matches!(self.make, Make::Docs | Make::Fields) {
            self.names.push(name.to_string());
        }
    }

    pub(crate) fn function<F, A, R>(
        &mut self,
        name: &'static str,
        params: &'static [(&'static str, &'static str)],
        returns: Option<&'static str>,
        doc: &'static str,
        f: F,
    ) -> mlua::Result<()>
    where
        F: Fn(&Lua, A) -> mlua::Result<R> + Send + 'static,
        A: FromLuaMulti,
        R: IntoLuaMulti,
    {
        self.function_with(name, params, returns, doc, |_| Ok(f))
    }

    /// [`Api::function`] for a function that needs more made for it (a metatable its results
    /// share): `make` runs only when the function is made.
    pub(crate) fn function_with<F, A, R>(
        &mut self,
        name: &'static str,
        params: &'static [(&'static str, &'static str)],
        returns: Option<&'static str>,
        doc: &'static str,
        make: impl FnOnce(&Lua) -> mlua::Result<F>,
    ) -> mlua::Result<()>
    where
        F: Fn(&Lua, A) -> mlua::Result<R> + Send + 'static,
        A: FromLuaMulti,
        R: IntoLuaMulti,
    {
        self.name(name);
        if self.wants(name)? {
            let f = crate::lua::budget::function(self.lua, make(self.lua)?)?;
            self.put(name, f)?;
        }
        let prefix = self.prefix;
        self.document(|| ApiDoc {
            path: format!("{prefix}.{name}"),
            params: params.to_vec(),
            returns,
            doc,
            function: true,
        });
        Ok(())
    }

    /// A field of every new table; `value` is made only then.
    pub(crate) fn field<V: mlua::IntoLua>(
        &mut self,
        name: &'static str,
        ty: &'static str,
        doc: &'static str,
        value: impl FnOnce(&Lua) -> mlua::Result<V>,
    ) -> mlua::Result<()> {
        self.name(name);
        if self.make == Make::Fields {
            self.table.raw_set(name, value(self.lua)?)?;
        }
        let prefix = self.prefix;
        self.document(|| ApiDoc {
            path: format!("{prefix}.{name}"),
            params: Vec::new(),
            returns: Some(ty),
            doc,
            function: false,
        });
        Ok(())
    }

    /// Puts a C fast path in front of the function `name` registered above, when this pass made
    /// it: a closure over `fast` with the function as upvalue 1 and `upvalues` after it (see
    /// `lua/capi.rs`).
    pub(crate) fn speed_up<U: IntoLuaMulti>(
        &mut self,
        name: &'static str,
        fast: mlua::ffi::lua_CFunction,
        upvalues: impl FnOnce(&Lua) -> mlua::Result<U>,
    ) -> mlua::Result<()> {
        if !self.made.iter().any(|m| m == name) {
            return Ok(());
        }
        let slow: mlua::Function = self.table.raw_get(name)?;
        let mut all = slow.into_lua_multi(self.lua)?;
        all.extend(upvalues(self.lua)?.into_lua_multi(self.lua)?);
        let closure = super::capi::c_closure(self.lua, fast, all)?;
        quiet_set(self.lua, &self.table, name, closure)
    }

    pub(crate) fn lua(&self) -> &'a Lua {
        self.lua
    }
}

/// Sets `table[key] = value` without telling the journal, for what lantern puts in a table the
/// journal follows (a mod's `lantern` table): not rolled back with the script's writes, not a
/// write storage must save, never named as where a script stored a function.
fn quiet_set(lua: &Lua, table: &Table, key: &str, value: impl mlua::IntoLua) -> mlua::Result<()> {
    extern "C-unwind" {
        fn lua_rawsetquiet(state: *mut mlua::ffi::lua_State, idx: std::ffi::c_int);
    }
    // SAFETY: `exec_raw` pushes the table, the key and the value (indices 1 to 3) in a protected
    // call; `lua_rawsetquiet` pops the key and the value, and the closure pops the table.
    unsafe {
        lua.exec_raw::<()>((table, key, value), |state| {
            lua_rawsetquiet(state, 1);
            mlua::ffi::lua_pop(state, 1);
        })
    }
}

/// Every registration, in the order of the guide's Lua chapter.
fn register_all(api: &mut Api, cx: &ModCx) -> mlua::Result<()> {
    events::register(api, cx)?;
    emit::register(api, cx)?;
    actions::register(api, cx)?;
    storage::register(api, cx)?;
    rng::register(api, cx)?;
    game::register(api, cx)?;
    log::register(api, cx)?;
    text::register(api, cx)?;
    host::register(api, cx)
}

/// Builds one mod's `lantern` table: its fields now, each function when a script first reads it
/// (most mods use a few of them, and a test game over 200 mods made every one for every mod: a
/// quarter of its time). The functions are made through the table's metatable, one per state,
/// which finds the mod from the table ([`Shared::lantern_tables`]); `pairs` sees them all.
pub(crate) fn build(lua: &Lua, cx: &ModCx) -> mlua::Result<Table> {
    let table = lua.create_table()?;
    register_all(
        &mut Api::new(lua, table.clone(), "lantern", Make::Fields),
        cx,
    )?;
    table.set_metatable(Some(lazy_meta(lua, &cx.shared)?))?;
    cx.shared
        .borrow_mut()
        .lantern_tables
        .insert(table.to_pointer() as usize, (cx.mod_id.clone(), cx.owner));
    Ok(table)
}

/// The function (or the game's table) `name` of a mod's `lantern` table, made now if it is not
/// yet: lantern's own, so charged to the host's memory as it was when every one was made before
/// the mod ran (and its work to the calling script's budget, as any call's). Nil for a name
/// lantern does not have.
pub(crate) fn made(lua: &Lua, cx: &ModCx, table: &Table, name: &str) -> mlua::Result<mlua::Value> {
    let _host = crate::lua::bridge::lantern_owned(lua);
    let mut api = Api::new(lua, table.clone(), "lantern", Make::One(name));
    register_all(&mut api, cx)?;
    if api.made.is_empty() {
        return Ok(mlua::Value::Nil);
    }
    table.raw_get(name)
}

/// Every documented entry of the API, as it registers itself.
pub(crate) fn docs(lua: &Lua, cx: &ModCx) -> mlua::Result<Vec<ApiDoc>> {
    let mut api = Api::new(lua, lua.create_table()?, "lantern", Make::Docs);
    register_all(&mut api, cx)?;
    Ok(api.docs)
}

/// The names of a `lantern` table's entries, made yet or not.
pub(crate) fn names(lua: &Lua, cx: &ModCx) -> mlua::Result<Vec<String>> {
    let mut api = Api::new(lua, lua.create_table()?, "lantern", Make::Docs);
    register_all(&mut api, cx)?;
    Ok(api.names)
}

/// The registry key of the metatable of every mod's `lantern` table.
const LAZY_META: &str = "lantern.api";

/// The metatable of every mod's `lantern` table: `__index` makes a function the first time it
/// is read, `__pairs` makes the rest before a walk.
fn lazy_meta(lua: &Lua, shared: &Arc<AtomicRefCell<Shared>>) -> mlua::Result<Table> {
    if let Ok(meta) = lua.named_registry_value::<Table>(LAZY_META) {
        return Ok(meta);
    }
    let _host = crate::lua::bridge::lantern_owned(lua);
    let meta = lua.create_table()?;
    let mod_of = {
        let shared = Arc::downgrade(shared);
        move |table: &Table| cx_of(&shared, table)
    };
    let cx_index = mod_of.clone();
    // The names lantern has, found once: a script that reads a name lantern does not have (a
    // feature test, `if lantern.x then`, in a handler) costs a lookup, not a pass.
    let known: std::sync::OnceLock<rustc_hash::FxHashSet<String>> = std::sync::OnceLock::new();
    meta.raw_set(
        "__index",
        crate::lua::budget::function(lua, move |lua, (table, key): (Table, mlua::Value)| {
            let mlua::Value::String(key) = key else {
                return Ok(mlua::Value::Nil);
            };
            let (Some(cx), Ok(key)) = (cx_index(&table)?, key.to_str()) else {
                return Ok(mlua::Value::Nil);
            };
            if known.get().is_none() {
                let _ = known.set(names(lua, &cx)?.into_iter().collect());
            }
            if !known.get().is_some_and(|k| k.contains(&*key)) {
                return Ok(mlua::Value::Nil);
            }
            made(lua, &cx, &table, &key)
        })?,
    )?;
    let next: mlua::Function = lua.globals().raw_get("next")?;
    meta.raw_set(
        "__pairs",
        crate::lua::budget::function(lua, move |lua, table: Table| {
            if let Some(cx) = mod_of(&table)? {
                let _host = crate::lua::bridge::lantern_owned(lua);
                register_all(
                    &mut Api::new(lua, table.clone(), "lantern", Make::Functions),
                    &cx,
                )?;
            }
            Ok((next.clone(), table, mlua::Value::Nil))
        })?,
    )?;
    meta.raw_set("__metatable", "lantern")?;
    lua.set_named_registry_value(LAZY_META, &meta)?;
    Ok(meta)
}

/// The mod a `lantern` table belongs to; `None` for a table that is no mod's `lantern` table (a
/// script may hand lantern's functions any table), or once the runtime is gone.
pub(crate) fn cx_of(
    shared: &std::sync::Weak<AtomicRefCell<Shared>>,
    table: &Table,
) -> mlua::Result<Option<ModCx>> {
    let Some(shared) = shared.upgrade() else {
        return Ok(None);
    };
    let found = shared
        .try_borrow()
        .map_err(|_| mlua::Error::runtime("lantern: the runtime is busy"))?
        .lantern_tables
        .get(&(table.to_pointer() as usize))
        .cloned();
    Ok(found.map(|(mod_id, owner)| ModCx {
        mod_id,
        owner,
        shared,
    }))
}

/// `name` must be a plain identifier to become `<mod>:<name>`.
pub(crate) fn registered_id(mod_id: &str, name: &str, what: &str) -> mlua::Result<crate::id::Id> {
    if !crate::id::is_ident(name) {
        return Err(mlua::Error::runtime(format!(
            "{what} name `{name}` must use lowercase letters, digits and `_`; it becomes `{mod_id}:{name}`"
        )));
    }
    Ok(crate::id::Id::new(mod_id, name))
}

/// Fails when the mod has registered `limit` of what `counted` counts already (`things`, as a
/// message names them).
pub(crate) fn within(
    cx: &ModCx,
    what: &str,
    things: &str,
    limit: usize,
    counted: impl Fn(&Shared, &str) -> usize,
) -> mlua::Result<()> {
    if counted(&cx.shared.borrow(), &cx.mod_id) >= limit {
        return Err(mlua::Error::runtime(format!(
            "{what}: a mod may register at most {limit} {things}"
        )));
    }
    Ok(())
}

/// How many actions, checks and `on_reload` handlers a mod registered.
pub(crate) fn registered_by(shared: &Shared, mod_id: &str) -> usize {
    shared
        .actions
        .values()
        .filter(|r| r.mod_id == mod_id)
        .count()
        + shared
            .checks
            .values()
            .filter(|r| r.mod_id == mod_id)
            .count()
        + shared.on_reload.iter().filter(|(m, _)| m == mod_id).count()
}

/// Fails unless the mod is still loading (its `main.lua` is running).
pub(crate) fn while_loading(cx: &ModCx, what: &str) -> mlua::Result<()> {
    if cx.shared.borrow().loading {
        Ok(())
    } else {
        Err(mlua::Error::runtime(format!("{what} can only be called while the mod loads (in scripts/main.lua or what it requires)")))
    }
}
