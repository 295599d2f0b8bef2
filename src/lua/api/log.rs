//! `lantern.log` (and `print`): messages attributed to the mod.

use super::{Api, ModCx};
use crate::lua::bridge::with_game_mut;
use mlua::Variadic;

pub fn register(api: &mut Api, cx: &ModCx) -> mlua::Result<()> {
    let c = cx.clone();
    api.function(
        "log",
        &[("...", "any")],
        None,
        "Writes a message attributed to this mod (`[rats] ...`) to the play session or the test report. `print` does the same.",
        move |_, args: Variadic<mlua::Value>| {
            let text: Vec<String> = args.iter().map(|v| v.to_string().unwrap_or_else(|_| format!("<{}>", v.type_name()))).collect();
            let line = format!("[{}] {}", c.mod_id, text.join("\t"));
            if with_game_mut(|g| g.say(line.clone())).is_err() {
                c.shared.borrow_mut().messages.push(line);
            }
            Ok(())
        },
    )
}
