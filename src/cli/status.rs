//! `status` for any game's console: the turn, the game's own state (each top-level field of its
//! JSON, cut to a line), the quests under way and what is open. A game with a flavor of its own
//! (the roguelike's health, position and gold) answers `status` itself first.

use crate::game::Game;

/// How much of one field's value a line shows.
const LONGEST_VALUE: usize = 60;

/// The `status` text of `game`.
pub(super) fn status(game: &Game) -> String {
    let s = game.state();
    let mut out = format!("turn {}", s.turn);
    match s.host.to_json() {
        Some(serde_json::Value::Object(fields)) => {
            for (key, value) in fields {
                out.push_str(&format!("\n  {} {}", super::one_line(&key), shown(&value)));
            }
        }
        Some(other) => out.push_str(&format!("\n  {}", shown(&other))),
        None => {}
    }
    let active = s.quests.values().filter(|q| !q.done).count();
    let done = s.quests.values().filter(|q| q.done).count();
    out.push_str(&format!(
        "\nquests: {active} under way, {done} done (`quests`)"
    ));
    if game.encounter().is_some() {
        out.push_str("\nan encounter is open (`encounter`)");
    }
    if game.hazard().is_some() {
        out.push_str("\na hazard is open (`hazard`)");
    }
    out
}

/// A value as compact JSON on one line, escaped, cut at [`LONGEST_VALUE`] characters.
fn shown(value: &serde_json::Value) -> String {
    let text = value.to_string();
    let mut cut: String = text.chars().take(LONGEST_VALUE).collect();
    if cut.len() < text.len() {
        cut.push_str("...");
    }
    super::one_line(&cut)
}
