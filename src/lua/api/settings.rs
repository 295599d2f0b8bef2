//! `lantern.settings`: the mod set's settings as the running game has them, read-only.
//! `lantern.settings.rat_health` is the mod's own; `lantern.settings["weather:rain"]` another's,
//! which only a mod that declares it among `depends` or `optional` may read.

use super::{Api, ApiDoc, ModCx};
use crate::content::SettingValue;
use crate::lua::bridge::with_game;
use mlua::{Lua, Table, Value};

pub(super) fn register(api: &mut Api, cx: &ModCx) -> mlua::Result<()> {
    api.name("settings");
    api.document(|| ApiDoc {
        path: "lantern.settings".into(),
        params: Vec::new(),
        returns: Some("table<string, boolean|integer|number|string>"),
        doc: "The settings a player chose, read-only, as the game has them now: `lantern.settings.rat_health` is this mod's own (declared in its mod.toml's `[settings.rat_health]`), `lantern.settings[\"weather:rain\"]` another mod's, which this one must name in `depends` or `optional`. Read them where they are used (a handler, action or check): while main.lua loads, no game has chosen them yet.",
        function: false,
    });
    if api.wants("settings")? {
        let table = view(api.lua(), cx)?;
        api.put("settings", table)?;
    }
    Ok(())
}

/// The mod's read-only view: every read asks the running game.
fn view(lua: &Lua, cx: &ModCx) -> mlua::Result<Table> {
    let own = cx.mod_id.clone();
    let meta = lua.create_table()?;
    meta.raw_set(
        "__index",
        crate::lua::price::function(lua, move |lua, (_, key): (Value, Value)| {
            let Value::String(key) = key else {
                return Err(mlua::Error::runtime(format!(
                    "lantern.settings: a setting is named by a text, not a {}",
                    key.type_name()
                )));
            };
            let key = key.to_str()?.to_string();
            let value = with_game(|g| read(g, &own, &key))
                .map_err(|_| {
                    mlua::Error::runtime(format!(
                        "lantern.settings.{}: settings are read while the game runs (in a handler, action or check); while main.lua loads no game has chosen them yet",
                        crate::diag::shown(&key)
                    ))
                })?
                .map_err(mlua::Error::runtime)?;
            Ok(match value {
                SettingValue::Bool(b) => Value::Boolean(b),
                SettingValue::Int(n) => Value::Integer(n),
                SettingValue::Float(x) => Value::Number(x),
                SettingValue::Text(t) => {
                    // The copy is the script's, charged by its size before it is made.
                    crate::lua::price::charge(lua, t.len() >> 5)?;
                    Value::String(lua.create_string(t)?)
                }
            })
        })?,
    )?;
    meta.raw_set(
        "__newindex",
        crate::lua::price::function(lua, |_, (_, key): (Value, Value)| {
            let key = key.to_string().unwrap_or_default();
            Err::<(), _>(mlua::Error::runtime(format!(
                "lantern.settings is read-only: `{}` is the player's to choose (`--set`, the console's `set`)",
                crate::diag::shown(&key)
            )))
        })?,
    )?;
    meta.raw_set("__metatable", "lantern.settings")?;
    let table = lua.create_table()?;
    table.set_metatable(Some(meta))?;
    Ok(table)
}

/// The value of setting `key` as mod `own` reads it, or why it may not.
fn read(game: &crate::game::Game, own: &str, key: &str) -> Result<SettingValue, String> {
    let content = game.content();
    let shown = crate::diag::shown(key);
    let id = if key.contains(':') {
        key.to_string()
    } else {
        format!("{own}:{key}")
    };
    if let Some(v) = game.setting(&id) {
        let other = id.split_once(':').map_or("", |(ns, _)| ns);
        let named = content
            .mods
            .iter()
            .find(|m| m.id == own)
            .is_some_and(|m| m.deps.iter().any(|d| d == other));
        if other != own && !named {
            return Err(format!(
                "lantern.settings[\"{shown}\"]: `{own}` reads a setting of `{other}` but does not depend on it; add `{other}` to `depends` (or `optional`) in its mod.toml"
            ));
        }
        return Ok(v.clone());
    }
    let near = if key.contains(':') {
        crate::diag::did_you_mean(key, content.settings().map(|s| s.id.as_str()))
    } else {
        let own_names = content
            .settings()
            .filter(|s| s.id.namespace() == own)
            .map(|s| s.id.name());
        crate::diag::did_you_mean(key, own_names)
    };
    let declared = content.settings().any(|s| s.id.namespace() == own);
    let help = match (near, declared) {
        (Some(near), _) => format!("; {near}"),
        (None, false) if !key.contains(':') => format!(
            "; `{own}` declares no settings (a setting is a `[settings.{shown}]` table in its mod.toml)"
        ),
        (None, _) => String::new(),
    };
    Err(format!(
        "lantern.settings: there is no setting `{}`{help}",
        crate::diag::shown(&id)
    ))
}
