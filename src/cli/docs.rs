//! `lantern docs`: editor support files, generated from the running code so they cannot drift.

use std::path::Path;
use std::process::ExitCode;

pub fn run(lua_defs: Option<&Path>) -> ExitCode {
    let Some(path) = lua_defs else {
        eprintln!("error: say what to write: `lantern docs --lua-defs lantern.d.lua`");
        return ExitCode::from(2);
    };
    let text = match crate::lua::defs::generate() {
        Ok(text) => text,
        Err(e) => {
            eprintln!("error: cannot start Lua to read the API: {e}");
            return ExitCode::from(1);
        }
    };
    match std::fs::write(path, text) {
        Ok(()) => {
            println!("wrote {}", path.display());
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: cannot write `{}`: {e}", path.display());
            ExitCode::from(1)
        }
    }
}
