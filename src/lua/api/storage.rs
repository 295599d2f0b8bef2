//! `lantern.storage`: the mod's table of plain data, saved with the game and kept across reloads.
//!
//! The table itself is put in place by the runtime when a game attaches (from the saved state), and
//! written back into the game after every turn in which the mod's code ran.

use super::{Api, ModCx};

pub(super) fn register(api: &mut Api, _cx: &ModCx) -> mlua::Result<()> {
    api.field(
        "storage",
        "table",
        "This mod's own table of plain data (strings, numbers, booleans and tables of them), saved with the game and kept across reloads. A function or other value that cannot be saved is an error at the end of the turn, and the storage keeps its last good state.",
        |lua| lua.create_table(),
    )
}
