//! `lantern.<namespace>`: the functions the hosting game lends to scripts (declared with
//! `Vocabulary::function` and `Vocabulary::query`), each a read-only query of the game.

use super::{Api, ApiDoc, ModCx};
use crate::game::code::Answer;
use crate::lua::bridge::{from_lua, to_lua, with_game};
use mlua::{Lua, Table, Value as LuaValue, Variadic};

/// Adds the game's table of functions to a mod's `lantern` table, when the game declares any;
/// the table is made, as the functions are, when a script first reads it.
pub(super) fn register(api: &mut Api, cx: &ModCx) -> mlua::Result<()> {
    let rules = cx.shared.borrow().rules.clone();
    let defs = rules.defs();
    if defs.functions.is_empty() {
        return Ok(());
    }
    let ns = rules.namespace();
    if api.names.iter().any(|n| n == ns) {
        return Err(mlua::Error::runtime(format!(
            "the game's namespace `{ns}` is a name of the `lantern` table itself"
        )));
    }
    api.name(ns);
    api.document(|| ApiDoc {
        path: format!("lantern.{ns}"),
        params: Vec::new(),
        returns: Some("table"),
        doc: "The functions the game lends to scripts: queries of the game, read-only",
        function: false,
    });
    for f in &defs.functions {
        api.document(|| ApiDoc {
            path: format!("lantern.{ns}.{}", f.name),
            params: f.params.iter().map(|p| (p.name(), p.lua_type())).collect(),
            returns: Some(f.returns),
            doc: f.doc,
            function: true,
        });
    }
    if api.wants(ns)? {
        let table = functions(api.lua(), &rules)?;
        // Journaled as the rest of the `lantern` table is (see `LuaRuntime::load_mod`).
        crate::lua::journal::flag(api.lua(), &table);
        api.put(ns, table)?;
    }
    Ok(())
}

/// The table of the game's functions.
fn functions(lua: &Lua, rules: &crate::host::Rules) -> mlua::Result<Table> {
    let ns = rules.namespace();
    let defs = rules.defs();
    let table = lua.create_table()?;
    for (f, call) in defs.functions.iter().zip(&rules.code().functions) {
        let call = call.clone();
        let shown = format!("lantern.{ns}.{}", f.name);
        let func = crate::lua::price::function(lua, move |lua, args: Variadic<LuaValue>| {
            let mut values = Vec::with_capacity(args.len());
            for (i, a) in args.iter().enumerate() {
                match from_lua(lua, a)? {
                    Some(v) => values.push(v),
                    None => {
                        return Err(mlua::Error::runtime(format!(
                            "{shown}: argument {} cannot be a {} (a number, text or boolean)",
                            i + 1,
                            a.type_name()
                        )))
                    }
                }
            }
            let answer = with_game(|g| call(g, &values))?
                .map_err(|e| mlua::Error::runtime(format!("{shown}: {e}")))?;
            match answer {
                Answer::Value(v) => to_lua(lua, &v),
                Answer::Json(json) => {
                    // Rows and tables: the copy is the script's, charged before it is made.
                    crate::lua::price::charge(lua, crate::lua::storage::copy_cost(&json))?;
                    crate::lua::storage::from_json(lua, &json)
                }
            }
        })?;
        table.raw_set(f.name, func)?;
    }
    Ok(table)
}
