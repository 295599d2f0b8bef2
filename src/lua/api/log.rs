//! `lantern.log` (and `print`): messages attributed to the mod, bounded per turn.
//!
//! What a mod prints ends in the play session, the game's messages or a test report, and is kept
//! until then: a mod printing in a loop could fill the process's memory outside its Lua limit (a
//! `check` reached 4.9 GB). Each mod may print [`MOST_OUTPUT`] bytes in a turn (and while it
//! loads); past that one line says so and the rest is left out. Every call is charged to the
//! script by the bytes it writes.

use super::{Api, ModCx};
use crate::lua::bridge::{with_game, with_game_mut};
use mlua::Variadic;

/// The most bytes one mod's `lantern.log` and `print` may write in one turn.
pub(crate) const MOST_OUTPUT: usize = 64 * 1024;

/// What a mod has printed in the turn it last printed in.
#[derive(Clone, Copy, Default)]
pub(crate) struct Printed {
    /// The turn (`None` while no game runs: the mod is loading).
    turn: Option<u64>,
    bytes: usize,
}

/// `lantern.log`, bound to each mod's table like `lantern.on`; the mod's `print` is the same
/// function bound the same way ([`super::maker`]), so the two count their output together.
pub(super) fn register(api: &mut Api, cx: &ModCx) -> mlua::Result<()> {
    api.bound(
        cx,
        "log",
        &[("...", "any")],
        None,
        "Writes a message attributed to this mod (`[rats] ...`) to the play session or the test report. `print` does the same. A mod may write 64 KiB in a turn; past that, one line says so and the rest is left out.",
        |lua, c, args: Variadic<mlua::Value>| write(lua, c, &args),
    )
}

/// Writes `args` as a line of the mod's output, within what it may print this turn.
fn write(lua: &mlua::Lua, c: &ModCx, args: &[mlua::Value]) -> mlua::Result<()> {
    let turn = with_game(|g| g.state().turn).ok();
    let mut p = c
        .shared
        .borrow()
        .printed
        .get(&c.mod_id)
        .copied()
        .unwrap_or_default();
    if p.turn != turn {
        p = Printed { turn, bytes: 0 };
    }
    let before = p.bytes;
    // No more of a value is copied than may still be written (plus a byte, to tell).
    let room = MOST_OUTPUT.saturating_sub(before) + 1;
    let mut line = format!("[{}] ", c.mod_id);
    let mut written = 0usize;
    for (i, v) in args.iter().enumerate() {
        if i > 0 {
            line.push('\t');
            written += 1;
        }
        let text = match v {
            mlua::Value::String(s) => {
                let bytes = s.as_bytes();
                written = written.saturating_add(bytes.len());
                String::from_utf8_lossy(&bytes[..bytes.len().min(room)]).into_owned()
            }
            other => {
                let text = other
                    .to_string()
                    .unwrap_or_else(|_| format!("<{}>", other.type_name()));
                written = written.saturating_add(text.len());
                text
            }
        };
        crate::lua::price::charge_bytes(lua, text.len())?;
        if line.len() < room {
            line.push_str(&text);
        }
    }
    p.bytes = p.bytes.saturating_add(written);
    c.shared.borrow_mut().printed.insert(c.mod_id.clone(), p);
    if before >= MOST_OUTPUT {
        return Ok(());
    }
    if p.bytes > MOST_OUTPUT {
        line = format!(
            "[{}] (this mod wrote more than {} this turn; the rest of its output is left out)",
            c.mod_id,
            crate::diag::bytes(MOST_OUTPUT)
        );
    }
    if with_game_mut(|g| g.say(line.clone())).is_err() {
        c.shared.borrow_mut().messages.push(line);
    }
    Ok(())
}
