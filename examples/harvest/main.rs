//! Harvest: a small farming game that hosts mods with lantern, the second game after the bundled
//! roguelike and one that shares none of its world. Its state, events, crops table, actions,
//! checks, Lua functions and verbs are declared in `farm.rs`; its mods are in `mods/`.
//!
//! `cargo run --example harvest` plays a scripted session of a week on the farm and prints what
//! happened and the state hash. `cargo run --example harvest -- check` (or `test`, `docs`, `new`)
//! runs lantern's tools for Harvest's own world over its mods.

mod farm;

use lantern::content::Value;
use std::path::PathBuf;
use std::process::ExitCode;

/// The session `cargo run --example harvest` plays: one verb and its arguments per line.
const SESSION: &[&str] = &[
    "plant wheat",
    "plant wheat",
    "plant pumpkin",
    "sleep",
    "plant wheat",
    "sleep",
    "choose 1",
    "sell wheat 1",
    "plant pumpkin",
    "sleep",
    "sleep",
    "route safe",
    "play 1",
    "play 1",
    "end_round",
    "play 1",
    "end_round",
    "play 1",
    "play 1",
    "end_round",
    "sleep",
    "sell pumpkin",
];

fn main() -> ExitCode {
    let mods = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("examples/harvest/mods");
    let rules = farm::rules();
    // `check`, `test`, `docs` and `new` for Harvest's own world (the `cli` feature: clap).
    #[cfg(feature = "cli")]
    if std::env::args().nth(1).is_some() {
        return lantern::cli::tools("harvest", &rules, &[mods]);
    }
    let limits = lantern::lua::Limits::default();
    let mut world = lantern::load::load_game(&[mods], &rules, limits);
    for d in &world.diagnostics {
        eprintln!("{}", lantern::diag::render(d, &world.sources));
    }
    if world.has_errors() {
        return ExitCode::from(1);
    }
    let mut game = world.start(7);
    for line in SESSION {
        println!("> {line}");
        let mut words = line.split_whitespace();
        let verb = words.next().unwrap_or_default();
        let args: Vec<Value> = words
            .map(|w| w.parse().map_or_else(|_| Value::str(w), Value::Int))
            .collect();
        if let Err(e) = game.verb(verb, &args) {
            println!("  ! {e}");
        }
        for m in game.take_messages() {
            println!("  {m}");
        }
        for p in game.take_problems() {
            println!("  {}", lantern::diag::render(&p, &world.sources));
        }
        if let Some(e) = game.encounter() {
            println!("  [{}] {}", e.title, e.description);
            for (i, o) in e.options.iter().enumerate() {
                let blocked = o
                    .blocked
                    .as_ref()
                    .map(|r| format!(" (blocked: {r})"))
                    .unwrap_or_default();
                println!("    {}. {}{blocked}", i + 1, o.text);
            }
        }
    }
    let farm = game.host_state::<farm::Farm>().cloned().unwrap_or_default();
    println!(
        "day {}: {} coins, barn {:?}, {} plots growing",
        farm.day,
        farm.money,
        farm.barn,
        farm.plots.len()
    );
    println!("state hash: {}", game.state_hash());
    ExitCode::SUCCESS
}
