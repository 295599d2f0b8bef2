//! The `lantern` table a mod's scripts see, one module per file, each with a `register` function.
//!
//! Every function is added through [`Api::function`], which also records its signature and its
//! documentation; `lantern docs --lua-defs` writes the LuaLS definitions from that record, so the
//! definitions cannot drift from what is registered. Every one is charged to the calling script's
//! budget ([`crate::lua::budget::function`]): a call, its failure, and the work it does.

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

pub(crate) use log::MOST_OUTPUT;
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
    pub(crate) mod_id: String,
    /// The mod's memory account.
    pub(crate) owner: crate::lua::memory::Owner,
    pub(crate) shared: Arc<AtomicRefCell<Shared>>,
}

pub(crate) struct Api<'a> {
    lua: &'a Lua,
    table: Table,
    prefix: &'static str,
    /// Where each entry is documented; `None` when the record is made already (every mod's
    /// table has the same entries, so only the first mod's is recorded).
    docs: Option<&'a mut Vec<ApiDoc>>,
}

impl<'a> Api<'a> {
    pub(crate) fn new(
        lua: &'a Lua,
        table: Table,
        prefix: &'static str,
        docs: Option<&'a mut Vec<ApiDoc>>,
    ) -> Api<'a> {
        Api {
            lua,
            table,
            prefix,
            docs,
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
        self.table
            .raw_set(name, crate::lua::budget::function(self.lua, f)?)?;
        if let Some(docs) = self.docs.as_mut() {
            docs.push(ApiDoc {
                path: format!("{}.{name}", self.prefix),
                params: params.to_vec(),
                returns,
                doc,
                function: true,
            });
        }
        Ok(())
    }

    pub(crate) fn field(
        &mut self,
        name: &'static str,
        ty: &'static str,
        doc: &'static str,
        value: impl mlua::IntoLua,
    ) -> mlua::Result<()> {
        self.table.raw_set(name, value)?;
        if let Some(docs) = self.docs.as_mut() {
            docs.push(ApiDoc {
                path: format!("{}.{name}", self.prefix),
                params: Vec::new(),
                returns: Some(ty),
                doc,
                function: false,
            });
        }
        Ok(())
    }

    /// Puts a C fast path in front of the function `name` registered above: a closure over `fast`
    /// with the function as upvalue 1 and `upvalues` after it (see `lua/capi.rs`).
    pub(crate) fn speed_up(
        &mut self,
        name: &'static str,
        fast: mlua::ffi::lua_CFunction,
        upvalues: impl IntoLuaMulti,
    ) -> mlua::Result<()> {
        let slow: mlua::Function = self.table.raw_get(name)?;
        let mut all = slow.into_lua_multi(self.lua)?;
        all.extend(upvalues.into_lua_multi(self.lua)?);
        let closure = super::capi::c_closure(self.lua, fast, all)?;
        self.table.raw_set(name, closure)
    }

    pub(crate) fn lua(&self) -> &'a Lua {
        self.lua
    }
}

/// Builds one mod's `lantern` table: every module, in the order of the guide's Lua chapter;
/// each entry is documented in `docs` when it is given.
pub(crate) fn build(
    lua: &Lua,
    cx: &ModCx,
    mut docs: Option<&mut Vec<ApiDoc>>,
) -> mlua::Result<Table> {
    let table = lua.create_table()?;
    let mut api = Api::new(lua, table.clone(), "lantern", docs.as_deref_mut());
    events::register(&mut api, cx)?;
    emit::register(&mut api, cx)?;
    actions::register(&mut api, cx)?;
    storage::register(&mut api, cx)?;
    rng::register(&mut api, cx)?;
    game::register(&mut api, cx)?;
    log::register(&mut api, cx)?;
    text::register(&mut api, cx)?;
    host::register(lua, &table, cx, docs)?;
    Ok(table)
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
