//! The scripted session `cargo run --example harvest` plays, as text: shared with the tests (which
//! compare it with `tests/fixtures/host/harvest_session.txt`) and with `tests/embed` (which plays it
//! from a crate outside lantern's workspace, without lantern's default features, and must print
//! the same).

use crate::farm;
use lantern::content::Value;
use std::fmt::Write;
use std::path::Path;

/// A week on the farm: one verb and its arguments per line.
pub(crate) const SESSION: &[&str] = &[
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

/// Plays [`SESSION`] over the mods in `mods` with seed 7 and returns what it printed, ending with
/// the state hash; `Err` with the rendered problems when the mods do not load.
pub(crate) fn play(mods: &Path) -> Result<String, String> {
    let rules = farm::rules();
    let limits = lantern::lua::Limits::default();
    let mut world = lantern::load::load_game(&[mods.to_path_buf()], &rules, limits);
    if world.has_errors() {
        return Err(lantern::diag::render_all(
            &world.diagnostics,
            &world.sources,
        ));
    }
    let mut game = world.start(7);
    let mut out = String::new();
    for line in SESSION {
        let _ = writeln!(out, "> {line}");
        let mut words = line.split_whitespace();
        let verb = words.next().unwrap_or_default();
        let args: Vec<Value> = words
            .map(|w| w.parse().map_or_else(|_| Value::str(w), Value::Int))
            .collect();
        if let Err(e) = game.verb(verb, &args) {
            let _ = writeln!(out, "  ! {e}");
        }
        for m in game.take_messages() {
            let _ = writeln!(out, "  {m}");
        }
        for p in game.take_problems() {
            let _ = writeln!(out, "  {}", lantern::diag::render(&p, &world.sources));
        }
        if let Some(e) = game.encounter() {
            let _ = writeln!(out, "  [{}] {}", e.title, e.description);
            for (i, o) in e.options.iter().enumerate() {
                let blocked = o
                    .blocked
                    .as_ref()
                    .map(|r| format!(" (blocked: {r})"))
                    .unwrap_or_default();
                let _ = writeln!(out, "    {}. {}{blocked}", i + 1, o.text);
            }
        }
    }
    let farm = game.host_state::<farm::Farm>().cloned().unwrap_or_default();
    let _ = writeln!(
        out,
        "day {}: {} coins, barn {:?}, {} plots growing, reputation {}",
        farm.day,
        farm.money,
        farm.barn,
        farm.plots.len(),
        farm.reputation
    );
    let _ = writeln!(out, "state hash: {}", game.state_hash());
    Ok(out)
}
