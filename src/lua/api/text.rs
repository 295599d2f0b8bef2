//! `lantern.text`: a text of the mods' locale files in the game's language, with its arguments.
//!
//! A bare key is the calling mod's (`"rats_left"` in `rats` is `rats:rats_left`); another mod's is
//! written with its namespace. The result is charged to the script by its bytes.

use super::{Api, ModCx};
use crate::content::TextArg;
use crate::lua::bridge::with_game;

/// The most arguments one call fills: a text has a handful.
const MOST_ARGS: usize = 64;

pub(super) fn register(api: &mut Api, cx: &ModCx) -> mlua::Result<()> {
    let c = cx.clone();
    api.function(
        "text",
        &[("key", "string"), ("args", "table<string, string|integer>?")],
        Some("string"),
        "The text `key` of your mod's `locale/<language>.toml` (another mod's as `mod:key`) in the game's language, its `{name}` arguments filled from `args`; a plural form is chosen by `args.count`. A text no language has reads `[missing text mod:key]`. Write a handler's messages with it: `lantern.log(lantern.text(\"rats_left\", { count = n }))`.",
        move |lua, (key, args): (String, Option<mlua::Table>)| {
            let key = if key.contains(':') { key } else { format!("{}:{key}", c.mod_id) };
            let mut filled: Vec<(String, TextArg)> = Vec::new();
            if let Some(args) = args {
                for pair in args.pairs::<mlua::Value, mlua::Value>() {
                    let (name, value) = pair?;
                    if filled.len() == MOST_ARGS {
                        return Err(mlua::Error::runtime(format!(
                            "lantern.text fills at most {MOST_ARGS} arguments"
                        )));
                    }
                    // What is copied is charged by its length first.
                    crate::lua::price::charge_arguments(lua, &[name.clone(), value.clone()].into_iter().collect())?;
                    let name = match name {
                        mlua::Value::String(s) => s.to_string_lossy(),
                        other => {
                            return Err(mlua::Error::runtime(format!(
                                "lantern.text: arguments are named by text (`{{ count = 3 }}`), not by a key of type `{}`",
                                other.type_name()
                            )))
                        }
                    };
                    let value = match value {
                        mlua::Value::Integer(n) => TextArg::Num(n),
                        mlua::Value::Number(n) if n.fract() == 0.0 && n.abs() < 9.0e15 => {
                            TextArg::Num(n as i64)
                        }
                        mlua::Value::String(s) => TextArg::Str(s.to_string_lossy()),
                        other => TextArg::Str(other.to_string()?),
                    };
                    filled.push((name, value));
                }
            }
            let args: Vec<(&str, TextArg)> =
                filled.iter().map(|(n, v)| (n.as_str(), v.clone())).collect();
            let text = match with_game(|g| g.text_within(&key, &args)) {
                Ok(text) => text,
                // While the mods load there is no game yet: the mod's own language.
                Err(_) => match c.shared.borrow().content.as_ref() {
                    Some(content) => content.text_within(&key, &args),
                    None => {
                        return Err(mlua::Error::runtime(
                            "lantern.text works once the mods are loaded (in a handler, an action or a check)",
                        ))
                    }
                },
            }
            .map_err(|e| mlua::Error::runtime(format!("lantern.text: {e}")))?;
            crate::lua::price::charge_bytes(lua, text.len())?;
            Ok(text)
        },
    )
}
