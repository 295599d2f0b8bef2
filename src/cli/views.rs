//! What the console shows of any game: its quests, the deck, the open encounter and hazard, and
//! events in the log. Plain functions from the game to text.

use crate::game::{CreatureRef, Game};
use crate::id::Id;

pub(super) fn describe_event(game: &Game, e: &crate::game::Event) -> String {
    let def = game.content().events.get(e.kind);
    let name = |r: CreatureRef| {
        game.creature(r)
            .map(|c| format!("{} ({r})", c.name))
            .unwrap_or_else(|| r.to_string())
    };
    let mut text = format!("{} source={}", def.name, name(e.source));
    if let Some(t) = e.target {
        text.push_str(&format!(" target={}", name(t)));
    }
    for (i, v) in e.payload.iter().enumerate() {
        if let Some(v) = v {
            text.push_str(&format!(" {}={v}", def.payload[i].0));
        }
    }
    text
}

/// The open encounter: title, description and options; blocked ones with their reason, never a probability.
/// The open hazard: its text, routes and thresholds, the round, the hand, the dice and the meters.
pub(super) fn hazard_text(game: &Game) -> Option<String> {
    hazard_view(game, true)
}

/// The hazard after a play: the round, the dice and the hand, without the card's text and routes.
pub(super) fn hazard_round_text(game: &Game) -> Option<String> {
    hazard_view(game, false)
}

fn hazard_view(game: &Game, full: bool) -> Option<String> {
    let run = game.hazard()?;
    let content = game.content();
    let h = content.hazards.get(&run.hazard)?;
    let ptype = |id: &Id| {
        content
            .progress_types
            .get(id)
            .map(|p| p.name.clone())
            .unwrap_or_else(|| id.to_string())
    };
    let list = |v: &[i64]| {
        v.iter()
            .map(|t| t.to_string())
            .collect::<Vec<_>>()
            .join("/")
    };
    let mut out = String::new();
    if full {
        out.push_str(&format!("[{}] {}\n  rounds {}", h.name, h.text, h.rounds));
        out.push_str(&format!(
            "\n  safe route: {} {}",
            ptype(&h.safe.progress),
            list(&h.safe.thresholds)
        ));
        if !h.choose_progress.is_empty() {
            out.push_str(&format!(
                " (or choose: {})",
                h.choose_progress
                    .iter()
                    .map(ptype)
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        out.push_str(&format!(
            "\n  risk route, both required: {}",
            h.risk
                .iter()
                .map(|m| format!("{} {}", ptype(&m.progress), list(&m.thresholds)))
                .collect::<Vec<_>>()
                .join(" and ")
        ));
        // FR-01 and FR-07: what a failed round costs, and what is different about the final one.
        let finals = |ms: &[&crate::content::Meter]| {
            ms.iter()
                .map(|m| {
                    let (last, rest) = m.thresholds.split_last().unwrap_or((&0, &[]));
                    let before = rest.iter().max().copied().unwrap_or(0);
                    format!(
                        "{} {last}{}",
                        ptype(&m.progress),
                        if *last > before {
                            format!(" (+{} on the round before)", last - before)
                        } else {
                            String::new()
                        }
                    )
                })
                .collect::<Vec<_>>()
                .join(" and ")
        };
        out.push_str(&format!(
            "\n  final round (round {}): safe {}; risk {}",
            h.rounds,
            finals(&[&h.safe]),
            finals(&h.risk.iter().collect::<Vec<_>>())
        ));
        out.push_str(&format!(
            "\n  a failed round costs: {}",
            super::words::actions(content, &h.penalty)
        ));
        if !h.final_penalty.actions.is_empty() {
            out.push_str(&format!(
                "; a failed final round also: {}",
                super::words::actions(content, &h.final_penalty)
            ));
        }
    }
    if let Some(route) = run.route {
        let meters: Vec<String> = run
            .meter_types(h)
            .iter()
            .zip(run.thresholds(h))
            .zip(&run.meters)
            .map(|((t, need), have)| format!("{} {have}/{need}", ptype(t)))
            .collect();
        let marks: String = run
            .marks
            .iter()
            .map(|m| if *m { 'O' } else { 'X' })
            .collect();
        out.push_str(&format!(
            "\n  {} route, round {} of {}: {}",
            route.name(),
            run.round + 1,
            h.rounds,
            meters.join(", ")
        ));
        if run.focus > 0 {
            out.push_str(&format!(", focus {}", run.focus));
        }
        if !marks.is_empty() {
            out.push_str(&format!(", marks {marks}"));
        }
        let dice: Vec<String> = run
            .dice
            .iter()
            .map(|d| {
                let face = crate::game::describe_face(d.face);
                match d.state {
                    crate::hazard::DieState::Available => face,
                    crate::hazard::DieState::Spent => format!("({face} spent)"),
                    crate::hazard::DieState::Exhausted => format!("({face} exhausted)"),
                }
            })
            .collect();
        out.push_str(&format!("\n  dice: {}", dice.join(" ")));
    } else {
        out.push_str("\n  choose a route: `route safe` or `route risk`");
    }
    out.push_str("\n  hand:");
    for (i, id) in run.hand.iter().enumerate() {
        let Some(c) = content.cards.get(id) else {
            continue;
        };
        let words = |list: &[crate::content::CardEffect]| super::words::effects(content, list);
        let bottom = c
            .bottom
            .as_ref()
            .map(|b| {
                let cost = if b.cost == 0 {
                    "free".to_string()
                } else if b.cost == 1 {
                    "1 die".to_string()
                } else {
                    format!("{} dice", b.cost)
                };
                let enchant = if c.enchant {
                    format!("; ENCHANT, then every round: {}", words(&c.ongoing))
                } else {
                    String::new()
                };
                format!("; bottom ({cost}): {}{enchant}", words(&b.effects))
            })
            .unwrap_or_default();
        out.push_str(&format!(
            "\n    {}. {} [{}] top: {}{bottom}",
            i + 1,
            c.name,
            c.color.name(),
            words(&c.top)
        ));
    }
    if !run.enchanted.is_empty() {
        let names: Vec<String> = run
            .enchanted
            .iter()
            .filter_map(|id| content.cards.get(id).map(|c| c.name.clone()))
            .collect();
        out.push_str(&format!("\n  enchantments: {}", names.join(", ")));
    }
    out.push_str(&format!(
        "\n  deck {}, discard {}",
        run.deck.len(),
        run.discard.len()
    ));
    Some(out.trim_start_matches('\n').to_string())
}

/// The personal deck a hazard draws from: each card once, with its copies, colour and class.
pub(super) fn deck(game: &Game) -> String {
    let content = game.content();
    let mut counts: Vec<(&Id, usize)> = Vec::new();
    for id in &game.state().deck {
        match counts.iter_mut().find(|(c, _)| *c == id) {
            Some((_, n)) => *n += 1,
            None => counts.push((id, 1)),
        }
    }
    if counts.is_empty() {
        return "your deck is empty".into();
    }
    let mut out = format!("{} cards:", game.state().deck.len());
    for (id, n) in counts {
        match content.cards.get(id) {
            Some(c) => out.push_str(&format!(
                "\n  {} x{n} [{}, {}]  ({id})",
                c.name,
                c.color.name(),
                c.class.name()
            )),
            None => out.push_str(&format!("\n  {id} x{n} (no longer in the mods)")),
        }
    }
    out
}

/// The open encounter and its options; `stuck` is what to say when every option is blocked
/// (what the game lets a player do then).
pub(super) fn encounter_text(game: &Game, stuck: &str) -> Option<String> {
    let e = game.encounter()?;
    let mut out = format!("[{}]", e.title);
    for (i, o) in e.options.iter().enumerate() {
        match &o.blocked {
            None => out.push_str(&format!("\n  {}. {}", i + 1, o.text)),
            Some(reason) => out.push_str(&format!("\n  {}. {} (blocked: {reason})", i + 1, o.text)),
        }
    }
    if e.options.iter().all(|o| o.blocked.is_some()) {
        out.push_str(&format!("\n  ({stuck})"));
    }
    Some(out)
}

pub(super) fn quests(game: &Game) -> String {
    let s = game.state();
    if s.quests.is_empty() {
        return "no quests started".into();
    }
    s.quests
        .iter()
        .map(|(id, p)| {
            let q = game.content().quests.get(id);
            format!(
                "{} ({id}): {}/{}{}",
                q.map(|q| q.name.as_str()).unwrap_or("?"),
                p.count,
                q.map_or(0, |q| q.count),
                if p.done { " done" } else { "" }
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}
