//! A test game's mod settings: the test's own values (`settings = { ... }`, those the data reads
//! loaded with the data), and `g:setting` / `g:set_setting` while it runs.

use super::test_game::{driving, located, reading, TestGame};
use crate::game::Game;
use mlua::{Table, UserDataMethods, Value};

/// `g:setting(id)` and `g:set_setting(id, value)`: a setting as the game has it, and a
/// player's change of it during play (a `startup` one only before the first turn).
pub(super) fn setting_methods<M: UserDataMethods<TestGame>>(methods: &mut M) {
    methods.add_method(
        "setting",
        reading(|lua, this: &TestGame, id: String| {
            let setting = crate::game::find_setting(this.game.content(), &id)
                .map_err(|e| located(lua, format!("g:setting: {e}")))?;
            let value = this.game.setting(setting.id.as_str()).cloned();
            Ok(match value {
                Some(crate::content::SettingValue::Bool(b)) => Value::Boolean(b),
                Some(crate::content::SettingValue::Int(n)) => Value::Integer(n),
                Some(crate::content::SettingValue::Float(x)) => Value::Number(x),
                Some(crate::content::SettingValue::Text(t)) => Value::String(lua.create_string(t)?),
                None => Value::Nil,
            })
        }),
    );
    methods.add_method_mut(
        "set_setting",
        driving(|lua, this, (id, value): (String, Value)| {
            let value = setting_value(&id, value)
                .map_err(|e| located(lua, format!("g:set_setting: {e}")))?;
            (this.game.set_setting(&id, value))
                .map_err(|e| located(lua, format!("g:set_setting: {}", e.message())))
        }),
    );
}

/// A Lua value as a setting's value.
pub(super) fn setting_value(
    id: &str,
    value: Value,
) -> Result<crate::content::SettingValue, String> {
    use crate::content::SettingValue;
    Ok(match value {
        Value::Boolean(b) => SettingValue::Bool(b),
        Value::Integer(n) => SettingValue::Int(n),
        Value::Number(x) => SettingValue::Float(x),
        Value::String(t) => SettingValue::Text(t.to_string_lossy()),
        other => {
            return Err(format!(
                "setting `{}` cannot be a {}",
                crate::diag::shown(id),
                other.type_name()
            ))
        }
    })
}

/// The settings a test game asks for (`settings = { ... }`) that the mods' data reads, with
/// other values than `content` was read with: by whole ID, as a player types the value.
pub(super) fn data_settings(
    content: &crate::content::Content,
    opts: Option<&Table>,
) -> mlua::Result<Vec<(String, String)>> {
    let Some(Some(asked)) = opts
        .map(|o| o.get::<Option<Table>>("settings"))
        .transpose()?
    else {
        return Ok(Vec::new());
    };
    let mut read = Vec::new();
    for pair in asked.pairs::<mlua::Value, mlua::Value>() {
        let (key, value) = pair?;
        let Some(key) = key
            .as_string()
            .and_then(|k| k.to_str().ok().map(|k| k.to_string()))
        else {
            continue;
        };
        let Ok(s) = crate::game::find_setting(content, &key) else {
            continue;
        };
        if !content.read_by_data.contains(&s.id) {
            continue;
        }
        let Ok(value) = setting_value(&key, value) else {
            continue;
        };
        let now = content.start_settings.get(&s.id).unwrap_or(&s.default);
        if s.kind.admit(value.clone()).is_ok_and(|v| v != *now) {
            read.push((s.id.to_string(), value.to_string()));
        }
    }
    read.sort();
    Ok(read)
}

/// Sets a new test game's settings: the run's (`lantern test --set`, for the mods the game has),
/// then the test's own (`settings = { ["rats:rat_health"] = 20 }`), each checked as a player's.
pub(super) fn choose_settings(
    game: &mut Game,
    run: &[(String, String)],
    opts: Option<&Table>,
) -> mlua::Result<()> {
    let refused =
        |e: crate::Error| mlua::Error::runtime(format!("lantern.test.game: {}", e.message()));
    for (id, text) in run {
        // One the data reads, the game has from the content it was read with.
        let found = crate::game::find_setting(game.content(), id);
        if found.is_ok_and(|s| !game.content().read_by_data.contains(&s.id)) {
            game.set_setting_text(id, text).map_err(refused)?;
        }
    }
    let Some(asked) = opts
        .map(|o| o.get::<Option<Table>>("settings"))
        .transpose()?
    else {
        return Ok(());
    };
    let Some(asked) = asked else {
        return Ok(());
    };
    for pair in asked.pairs::<mlua::Value, mlua::Value>() {
        let (key, value) = pair?;
        let Some(id) = key
            .as_string()
            .and_then(|k| k.to_str().ok().map(|k| k.to_string()))
        else {
            return Err(mlua::Error::runtime(format!(
                "lantern.test.game: `settings` is keyed by setting ID (`[\"rats:rat_health\"] = 20`), not by a {}",
                key.type_name()
            )));
        };
        let value = setting_value(&id, value)
            .map_err(|e| mlua::Error::runtime(format!("lantern.test.game: {e}")))?;
        game.set_setting(&id, value).map_err(refused)?;
    }
    Ok(())
}
