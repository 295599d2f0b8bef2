//! `lantern.<namespace>`: the functions the hosting game lends to scripts (declared with
//! `Vocabulary::function`), each a read-only query of the game.

use super::{ApiDoc, ModCx};
use crate::lua::bridge::{from_lua, to_lua, with_game};
use mlua::{Lua, Table, Value as LuaValue, Variadic};

/// Adds the game's table of functions to a mod's `lantern` table, when the game declares any.
pub(super) fn register(
    lua: &Lua,
    lantern: &Table,
    cx: &ModCx,
    mut docs: Option<&mut Vec<ApiDoc>>,
) -> mlua::Result<()> {
    let rules = cx.shared.borrow().rules.clone();
    let defs = rules.defs();
    if defs.functions.is_empty() {
        return Ok(());
    }
    let ns = rules.namespace();
    if lantern.contains_key(ns)? {
        return Err(mlua::Error::runtime(format!(
            "the game's namespace `{ns}` is a name of the `lantern` table itself"
        )));
    }
    let table = lua.create_table()?;
    let mut document = |doc: ApiDoc| docs.as_mut().map(|d| d.push(doc));
    document(ApiDoc {
        path: format!("lantern.{ns}"),
        params: Vec::new(),
        returns: Some("table"),
        doc: "The functions the game lends to scripts: queries of the game, read-only",
        function: false,
    });
    for (f, call) in defs.functions.iter().zip(&rules.code().functions) {
        let call = call.clone();
        let path = format!("lantern.{ns}.{}", f.name);
        let shown = path.clone();
        let func = crate::lua::budget::function(lua, move |lua, args: Variadic<LuaValue>| {
            let mut values = Vec::with_capacity(args.len());
            for (i, a) in args.iter().enumerate() {
                match from_lua(a) {
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
            to_lua(lua, &answer)
        })?;
        table.raw_set(f.name, func)?;
        document(ApiDoc {
            path,
            params: f.params.iter().map(|p| (p.name(), p.lua_type())).collect(),
            returns: Some("any"),
            doc: f.doc,
            function: true,
        });
    }
    lantern.raw_set(ns, table)
}
