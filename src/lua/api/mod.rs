//! The `lantern` table a mod's scripts see, one module per file, each with a `register` function.
//!
//! Every function is added through [`Api::function`], which also records its signature and its
//! documentation; `lantern docs --lua-defs` writes the LuaLS definitions from that record, so the
//! definitions cannot drift from what is registered. Every one is charged to the calling script's
//! budget ([`crate::lua::price::function`]): a call, its failure, and the work it does.
//!
//! The registrations are passes ([`Make`]). One pass per state makes the fields and the functions
//! bound to each mod's table ([`Api::bound`], such as `lantern.on`), and a Lua function of the
//! state copies and binds them for each mod ([`maker`]). Every other function is made the first
//! time a script reads it, by a pass that makes that one (the table's metatable's `__index`);
//! `pairs` makes the rest first, so a script sees the whole table either way. A mod uses a few of
//! the functions, and a test game over 200 mods spent a quarter of its time making every one for
//! every mod.

mod actions;
mod calls;
pub(crate) use actions::to_toml_map;
pub(crate) use game::dice_table;
mod emit;
mod events;
mod game;
mod host;
mod log;
mod rng;
mod settings;
mod storage;
mod text;

pub(crate) use log::{Printed, MOST_OUTPUT};
pub(crate) use rng::random;

use super::Shared;
use atomic_refcell::AtomicRefCell;
use mlua::{FromLuaMulti, IntoLuaMulti, Lua, Table};
use std::sync::Arc;

/// The most handlers one mod may register with `lantern.on`: far more than any mod needs, and a
/// bound on what lantern keeps for each (a mod looping over `lantern.on` cannot fill the state
/// with lantern's own references).
pub(crate) const MOST_HANDLERS: usize = 1000;

/// The most actions, checks, exposed functions and `on_reload` handlers one mod may register,
/// together.
pub(crate) const MOST_REGISTERED: usize = 1000;

/// One documented entry of the API.
#[derive(Debug, Clone)]
pub(crate) struct ApiDoc {
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
    /// The fields (`storage`, `game`) and the bound functions (`on`, `log`), once per state, for
    /// [`maker`] to copy and bind for each mod; the other functions are made on first use.
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
    /// Where the pass that makes a state's fields ([`Make::Fields`]) puts the functions each
    /// mod's table binds to itself ([`Api::bound`]).
    bound_into: Option<Table>,
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
            bound_into: None,
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

    /// Records a function's documentation, in a pass that makes it.
    fn document_function(
        &mut self,
        name: &'static str,
        params: &'static [(&'static str, &'static str)],
        returns: Option<&'static str>,
        doc: &'static str,
    ) {
        let prefix = self.prefix;
        self.document(|| ApiDoc {
            path: format!("{prefix}.{name}"),
            params: params.to_vec(),
            returns,
            doc,
            function: true,
        });
    }

    /// Records an entry's name, in the pass that documents the entries (the others run for every
    /// mod, or on a script's first read, and need none).
    fn name(&mut self, name: &str) {
        if self.make == Make::Docs {
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
            let f = crate::lua::price::function(self.lua, make(self.lua)?)?;
            self.put(name, f)?;
        }
        self.document_function(name, params, returns, doc);
        Ok(())
    }

    /// A function made once per state and bound to each mod's table (`capi::bind`): `f` gets the
    /// mod it was called for and the script's arguments. Made with the table, as a field is: the
    /// bound closure costs a mod a few hundred instructions where a function made for the mod on
    /// first read cost it 11,000 (a twentieth of a test game over 200 mods, all calling
    /// `lantern.on`).
    pub(crate) fn bound<F, A, R>(
        &mut self,
        cx: &ModCx,
        name: &'static str,
        params: &'static [(&'static str, &'static str)],
        returns: Option<&'static str>,
        doc: &'static str,
        f: F,
    ) -> mlua::Result<()>
    where
        F: Fn(&Lua, &ModCx, A) -> mlua::Result<R> + Send + 'static,
        A: FromLuaMulti,
        R: IntoLuaMulti,
    {
        self.name(name);
        let fields = self.make == Make::Fields;
        if fields || self.wants(name)? {
            let known = cx.shared.borrow().bound.get(name).cloned();
            let f = match known {
                Some(f) => f,
                None => {
                    let _host = crate::lua::bridge::lantern_owned(self.lua);
                    let made = bound_function(self.lua, &cx.shared, name, f)?;
                    cx.shared.borrow_mut().bound.insert(name, made.clone());
                    made
                }
            };
            match (&self.bound_into, fields) {
                (Some(bound), true) => bound.raw_set(name, f)?,
                _ => {
                    bind_quiet(self.lua, &self.table, name, f)?;
                    self.made.push(name.to_string());
                }
            }
        }
        self.document_function(name, params, returns, doc);
        Ok(())
    }

    /// A field of every mod's table. `value` is made once per state, by the pass that makes the
    /// fields ([`maker`]); a table is copied for each mod, its metatable shared.
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

/// The state's function behind [`Api::bound`]: called with a mod's `lantern` table before the
/// script's arguments (`price::bound_function`), it finds the mod from the table.
fn bound_function<F, A, R>(
    lua: &Lua,
    shared: &Arc<AtomicRefCell<Shared>>,
    name: &'static str,
    f: F,
) -> mlua::Result<mlua::Function>
where
    F: Fn(&Lua, &ModCx, A) -> mlua::Result<R> + Send + 'static,
    A: FromLuaMulti,
    R: IntoLuaMulti,
{
    let shared = Arc::downgrade(shared);
    crate::lua::price::bound_function(lua, move |lua, lantern: Table, args: A| {
        let Some(cx) = cx_of(&shared, &lantern)? else {
            return Err(mlua::Error::runtime(format!(
                "lantern.{name}: the mod's scripts are no longer loaded"
            )));
        };
        f(lua, &cx, args)
    })
}

/// Sets `table[key]` to `f` bound to `table` (`capi::bind`), without telling the journal (see
/// [`quiet_set`]).
fn bind_quiet(lua: &Lua, table: &Table, key: &str, f: mlua::Function) -> mlua::Result<()> {
    extern "C-unwind" {
        fn lua_rawsetquiet(state: *mut mlua::ffi::lua_State, idx: std::ffi::c_int);
    }
    // SAFETY: `exec_raw` pushes the table, the key and the function (indices 1 to 3) in a
    // protected call, where the closure owns nothing an error could skip; `lua_pushcclosure`
    // takes the function and a copy of the table as its upvalues, `lua_rawsetquiet` pops the key
    // and the closure, and the closure pops the table.
    unsafe {
        lua.exec_raw::<()>((table, key, f), |state| {
            mlua::ffi::lua_pushvalue(state, 1);
            mlua::ffi::lua_pushcclosure(state, crate::lua::capi::bound, 2);
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
    calls::register(api, cx)?;
    storage::register(api, cx)?;
    rng::register(api, cx)?;
    game::register(api, cx)?;
    settings::register(api, cx)?;
    log::register(api, cx)?;
    text::register(api, cx)?;
    host::register(api, cx)
}

/// The function of the state that makes a mod's `lantern` table and its `print` (its
/// `lantern.log`, bound again: a script may change its table's): the fields
/// ([`Api::field`]) and the bound functions ([`Api::bound`]), made once here by a pass over the
/// registrations and copied or bound for each mod in Lua, the metatable that makes the other
/// functions on first read ([`lazy_meta`]), and the journal's flag. Made for each mod by passes
/// through the Rust API, the table was a fifth of a test game over 200 mods.
pub(crate) fn maker(lua: &Lua, cx: &ModCx) -> mlua::Result<mlua::Function> {
    let _host = crate::lua::bridge::lantern_owned(lua);
    let fields = lua.create_table()?;
    let bound = lua.create_table()?;
    let mut api = Api::new(lua, fields.clone(), "lantern", Make::Fields);
    api.bound_into = Some(bound.clone());
    register_all(&mut api, cx)?;
    // SAFETY: both follow the rules of a C function called by Lua.
    let (copy, bind, flag) = unsafe {
        (
            lua.create_c_function(crate::lua::capi::copy_table)?,
            lua.create_c_function(crate::lua::capi::bind)?,
            lua.create_c_function(crate::lua::journal::flag_function)?,
        )
    };
    let source = "local next, type, setmetatable, copy, bind, flag, fields, bound, lazy = next, type, setmetatable, ...\n\
         return function()\n\
           local lantern = {}\n\
           for name, value in next, fields do\n\
             if type(value) == 'table' then value = copy(value) end\n\
             lantern[name] = value\n\
           end\n\
           for name, f in next, bound do lantern[name] = bind(f, lantern) end\n\
           setmetatable(lantern, lazy)\n\
           flag(lantern)\n\
           return lantern, bind(bound.log, lantern)\n\
         end";
    crate::lua::compiled::own_chunk(lua, source, "=lantern")?.call((
        copy,
        bind,
        flag,
        fields,
        bound,
        lazy_meta(lua, &cx.shared)?,
    ))
}

/// Makes one mod's `lantern` table with the state's [`maker`], and its `print` (the state's
/// `lantern.log` bound to the table). The table's other functions are made through
/// its metatable, one per state, which finds the mod from the table
/// ([`Shared::lantern_tables`]); `pairs` sees them all. The table is journaled as the storage
/// is: a script that puts a new table in place of `lantern.storage` inside a transaction that
/// fails gets its old one back.
pub(crate) fn build(cx: &ModCx, maker: &mlua::Function) -> mlua::Result<(Table, mlua::Function)> {
    let (table, print): (Table, mlua::Function) = maker.call(())?;
    cx.shared
        .borrow_mut()
        .lantern_tables
        .insert(table.to_pointer() as usize, (cx.mod_id.clone(), cx.owner));
    Ok((table, print))
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
        crate::lua::price::function(lua, move |lua, (table, key): (Table, mlua::Value)| {
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
        crate::lua::price::function(lua, move |lua, table: Table| {
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
        + shared.on_update.iter().filter(|(m, _)| m == mod_id).count()
        + (shared.exposed.values())
            .filter(|r| r.mod_id == mod_id)
            .count()
}

/// Fails unless the mod is still loading (its `main.lua` is running).
pub(crate) fn while_loading(cx: &ModCx, what: &str) -> mlua::Result<()> {
    if cx.shared.borrow().loading {
        Ok(())
    } else {
        Err(mlua::Error::runtime(format!("{what} can only be called while the mod loads (in scripts/main.lua or what it requires)")))
    }
}
