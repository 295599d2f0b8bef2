//! Where the scripts' work went, by mod and by handler: `profile` in `lantern play` (since the
//! game started) and `lantern test --profile` (over every test game of the run). The modder's
//! view of what `Game::script_costs` and `Game::handler_costs` give a server.

use crate::game::{Game, HandlerCost, ModCost};
use std::collections::BTreeMap;
use std::time::Duration;

/// How many handlers a profile lists, the costliest first.
const MOST_HANDLERS: usize = 10;

/// A handler as a profile tells them apart: its mod, its event, where it was registered.
type Handler = (String, String, Option<(String, usize)>);

/// The scripts' costs summed over games: one game's in `play`, every test game's in a test run.
#[derive(Default)]
pub(crate) struct Profile {
    /// By mod: instructions, memory held at most, handlers, failing, switched off, problems.
    mods: BTreeMap<String, ModCost>,
    /// By handler (mod, event, where): calls, instructions, time.
    handlers: BTreeMap<Handler, (u64, u64, Duration)>,
    games: usize,
    events: u64,
}

impl Profile {
    /// Adds what `game` cost.
    pub(crate) fn add(&mut self, game: &Game) {
        self.add_costs(
            game.script_costs(),
            game.handler_costs(),
            game.events_handled(),
        );
    }

    /// Adds one game's costs: by mod, by handler, and the events it handled.
    pub(crate) fn add_costs(
        &mut self,
        mods: Vec<ModCost>,
        handlers: Vec<HandlerCost>,
        events: u64,
    ) {
        self.games += 1;
        self.events += events;
        for c in mods {
            match self.mods.get_mut(&c.id) {
                None => {
                    self.mods.insert(c.id.clone(), c);
                }
                Some(sum) => {
                    sum.instructions += c.instructions;
                    sum.memory = sum.memory.max(c.memory);
                    sum.handlers = sum.handlers.max(c.handlers);
                    sum.failing += c.failing;
                    sum.quarantined += c.quarantined;
                    sum.problems += c.problems;
                }
            }
        }
        for h in handlers {
            let sum = self.handlers.entry((h.mod_id, h.event, h.at)).or_default();
            sum.0 += h.calls;
            sum.1 += h.instructions;
            sum.2 += h.time;
        }
    }

    /// The table by mod, the costliest first, then the costliest handlers; IDs, events and
    /// paths made visible (a mod names them).
    pub(crate) fn render(&self, over: &str) -> String {
        if self.mods.is_empty() {
            return "no mod has scripts".to_string();
        }
        let mut mods: Vec<&ModCost> = self.mods.values().collect();
        let total: u64 = mods.iter().map(|c| c.instructions).sum();
        mods.sort_by(|a, b| b.instructions.cmp(&a.instructions).then(a.id.cmp(&b.id)));
        let share = |n: u64| {
            if total == 0 {
                0.0
            } else {
                n as f64 * 100.0 / total as f64
            }
        };
        let mut out = format!(
            "the scripts' work {over} ({} events handled):\n",
            self.events
        );
        for c in mods {
            let mut line = format!(
                "  {:<20} {:>12} instructions {:>5.1} %   {:>9} held   {} handler{}",
                crate::diag::visible(&c.id),
                c.instructions,
                share(c.instructions),
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
            if c.problems > 0 {
                line.push_str(&format!(", {} problems", c.problems));
            }
            out.push_str(line.trim_end());
            out.push('\n');
        }
        let mut handlers: Vec<_> = self.handlers.iter().collect();
        handlers.sort_by(|a, b| b.1 .1.cmp(&a.1 .1).then(a.0.cmp(b.0)));
        if !handlers.is_empty() {
            out.push_str("the costliest handlers:\n");
        }
        for ((mod_id, event, at), (calls, instructions, time)) in
            handlers.into_iter().take(MOST_HANDLERS)
        {
            let at = at
                .as_ref()
                .map(|(file, line)| format!("{}:{line}", crate::diag::visible(file)))
                .unwrap_or_else(|| crate::diag::visible(mod_id).into_owned());
            out.push_str(&format!(
                "  {at:<32} on {:<18} {calls:>8} calls {:>10} instructions {:>5.1} % {:>8} a call {:>9.3} ms\n",
                crate::diag::visible(event),
                instructions,
                share(*instructions),
                instructions / (*calls).max(1),
                time.as_secs_f64() * 1000.0,
            ));
        }
        out.pop();
        out
    }
}

/// `profile` in `lantern play`: one game's costs since it started.
pub(super) fn profile(game: &Game) -> String {
    let mut p = Profile::default();
    p.add(game);
    p.render("since the game started")
}
