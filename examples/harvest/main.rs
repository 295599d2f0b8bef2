//! Harvest: a small farming game that hosts mods with lantern, the second game after the bundled
//! roguelike and one that shares none of its world. Its state, events, crops table, actions,
//! checks, Lua functions, verbs and handlers are declared in `farm.rs`; its mods are in `mods/`.
//!
//! `cargo run --example harvest` plays a scripted week on the farm (`session.rs`) and prints what
//! happened and the state hash. `cargo run --example harvest -- check` (or `test`, `docs`, `new`,
//! `sim`, `play`) runs lantern's tools for Harvest's own world over its mods: `play` is a console
//! over Harvest's verbs that swaps in a changed mod while the farm runs.

mod farm;
mod session;

use std::path::PathBuf;
use std::process::ExitCode;

/// Where Harvest's mods are, from the working directory: `examples/harvest/mods` in a checkout
/// of lantern (where `cargo run --example harvest` runs), else `mods` beside the player, as the
/// `lantern` binary finds them. No path of the machine that built it is compiled in; `--mods`
/// names others.
fn default_mods() -> PathBuf {
    let in_checkout = PathBuf::from("examples/harvest/mods");
    if in_checkout.is_dir() {
        in_checkout
    } else {
        PathBuf::from("mods")
    }
}

fn main() -> ExitCode {
    let mods = default_mods();
    // `check`, `test`, `docs`, `new`, `sim` and `play` for Harvest's own world (lantern's `cli`
    // feature: clap and rustyline).
    #[cfg(feature = "cli")]
    if std::env::args().nth(1).is_some() {
        return lantern::cli::tools("harvest", &farm::rules(), &[mods]);
    }
    match session::play(&mods) {
        Ok(text) => {
            print!("{text}");
            ExitCode::SUCCESS
        }
        Err(problems) => {
            eprint!("{problems}");
            ExitCode::from(1)
        }
    }
}
