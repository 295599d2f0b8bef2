//! `profile` in `lantern play`: where the scripts' work went, by mod, since the game started:
//! the modder's view of what `Game::script_costs` gives a server.

use crate::game::Game;

/// The mods' costs as a table, the costliest first; mod IDs made visible (a mod names itself).
pub(super) fn profile(game: &Game) -> String {
    let mut costs = game.script_costs();
    if costs.is_empty() {
        return "no mod has scripts".to_string();
    }
    let total: u64 = costs.iter().map(|c| c.instructions).sum();
    costs.sort_by(|a, b| b.instructions.cmp(&a.instructions).then(a.id.cmp(&b.id)));
    let mut out = format!(
        "the scripts' work since the game started ({} events handled):\n",
        game.events_handled()
    );
    for c in &costs {
        let share = if total == 0 {
            0.0
        } else {
            c.instructions as f64 * 100.0 / total as f64
        };
        let mut line = format!(
            "  {:<20} {:>12} instructions {:>5.1} %   {:>9} held   {} handler{}",
            crate::diag::visible(&c.id),
            c.instructions,
            share,
            crate::diag::bytes(c.memory),
            c.handlers,
            if c.handlers == 1 { "" } else { "s" },
        );
        if c.failing > 0 {
            line.push_str(&format!(", {} failing", c.failing));
        }
        if c.quarantined > 0 {
            line.push_str(&format!(", {} switched off", c.quarantined));
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out.pop();
    out
}
