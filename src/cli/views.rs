//! What the console shows of any game: its quests, the deck, the open encounter and hazard, and
//! events in the log. Plain functions from the game to text.

use crate::content::TextArg;
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
    let t = |key: &str, args: &[(&str, TextArg)]| content.text(key, args);
    let mut out = String::new();
    if full {
        out.push_str(&hazard_rules(content, h));
    }
    if let Some(route) = run.route {
        out.push_str(&route_lines(content, h, run, route));
    } else {
        out.push_str(&format!("\n  {}", t("choose_route", &[])));
    }
    out.push_str(&format!("\n  {}", t("hand", &[])));
    for (i, id) in run.hand.iter().enumerate() {
        if let Some(c) = content.cards.get(id) {
            out.push_str(&format!("\n    {}", card_line(content, i, c)));
        }
    }
    if !run.enchanted.is_empty() {
        let names: Vec<String> = run
            .enchanted
            .iter()
            .filter_map(|id| content.cards.get(id).map(|c| c.name.to_string()))
            .collect();
        out.push_str(&format!(
            "\n  {}",
            t("enchantments", &[("cards", names.join(", ").into())])
        ));
    }
    let piles = [
        ("deck", run.deck.len().into()),
        ("discard", run.discard.len().into()),
    ];
    out.push_str(&format!("\n  {}", t("deck_and_discard", &piles)));
    Some(out.trim_start_matches('\n').to_string())
}

/// The chosen route's line (its round, meters, focus and marks) and the dice.
fn route_lines(
    content: &crate::content::Content,
    h: &crate::content::Hazard,
    run: &crate::hazard::HazardRun,
    route: crate::hazard::Route,
) -> String {
    let t = |key: &str, args: &[(&str, TextArg)]| content.text(key, args);
    let ptype = |id: &Id| super::words::progress_name(content, id);
    let mut out = String::new();
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
    let route = t(&format!("route_{}", route.name()), &[]);
    out.push_str(&format!(
        "\n  {}",
        t(
            "route_round",
            &[
                ("route", route.into()),
                ("round", (run.round + 1).into()),
                ("rounds", h.rounds.into()),
                ("meters", meters.join(", ").into()),
            ]
        )
    ));
    if run.focus > 0 {
        out.push_str(&format!(", {}", t("focus", &[("focus", run.focus.into())])));
    }
    if !marks.is_empty() {
        out.push_str(&format!(", {}", t("marks", &[("marks", marks.into())])));
    }
    let dice: Vec<String> = run
        .dice
        .iter()
        .map(|d| {
            let face = crate::game::face_text(content, d.face);
            match d.state {
                crate::hazard::DieState::Available => face,
                state => t(
                    "die_in_state",
                    &[
                        ("face", face.into()),
                        ("state", t(state.name(), &[]).into()),
                    ],
                ),
            }
        })
        .collect();
    out.push_str(&format!(
        "\n  {}",
        t("dice", &[("dice", dice.join(" ").into())])
    ));
    out
}

/// One card of the hand, numbered from 1: its top half and, if it has one, its bottom half and
/// what it does once enchanted.
fn card_line(content: &crate::content::Content, i: usize, c: &crate::content::Card) -> String {
    let t = |key: &str, args: &[(&str, TextArg)]| content.text(key, args);
    let words = |list: &[crate::content::CardEffect]| super::words::effects(content, list);
    let bottom = c
        .bottom
        .as_ref()
        .map(|b| {
            let cost = if b.cost == 0 {
                t("free", &[])
            } else {
                t("dice_cost", &[("count", b.cost.into())])
            };
            let enchant = if c.enchant {
                format!(
                    "; {}",
                    t("enchant_then", &[("effects", words(&c.ongoing).into())])
                )
            } else {
                String::new()
            };
            let half = t(
                "bottom_half",
                &[("cost", cost.into()), ("effects", words(&b.effects).into())],
            );
            format!("; {half}{enchant}")
        })
        .unwrap_or_default();
    let line = t(
        "card_line",
        &[
            ("n", (i + 1).into()),
            ("card", c.name.to_string().into()),
            ("color", t(c.color.name(), &[]).into()),
            ("effects", words(&c.top).into()),
        ],
    );
    format!("{line}{bottom}")
}

/// A hazard's text, routes, thresholds and penalties: what the player reads before choosing.
fn hazard_rules(content: &crate::content::Content, h: &crate::content::Hazard) -> String {
    let t = |key: &str, args: &[(&str, TextArg)]| content.text(key, args);
    let ptype = |id: &Id| super::words::progress_name(content, id);
    let list = |v: &[i64]| {
        v.iter()
            .map(|t| t.to_string())
            .collect::<Vec<_>>()
            .join("/")
    };
    let and = format!(" {} ", t("and", &[]));
    let mut out = String::new();
    out.push_str(&format!(
        "[{}] {}\n  {}",
        h.name,
        h.text,
        t("hazard_rounds", &[("rounds", h.rounds.into())])
    ));
    let meter = format!("{} {}", ptype(&h.safe.progress), list(&h.safe.thresholds));
    out.push_str(&format!(
        "\n  {}",
        t("safe_route", &[("meter", meter.into())])
    ));
    if !h.choose_progress.is_empty() {
        let kinds: Vec<String> = h.choose_progress.iter().map(ptype).collect();
        out.push_str(&format!(
            " {}",
            t("or_choose", &[("kinds", kinds.join(", ").into())])
        ));
    }
    let risk: Vec<String> = h
        .risk
        .iter()
        .map(|m| format!("{} {}", ptype(&m.progress), list(&m.thresholds)))
        .collect();
    out.push_str(&format!(
        "\n  {}",
        t("risk_route", &[("meters", risk.join(&and).into())])
    ));
    // FR-01 and FR-07: what a failed round costs, and what is different about the final one.
    let finals = |ms: &[&crate::content::Meter]| {
        ms.iter()
            .map(|m| {
                let (last, rest) = m.thresholds.split_last().unwrap_or((&0, &[]));
                let before = rest.iter().max().copied().unwrap_or(0);
                let more = if *last > before {
                    format!(
                        " {}",
                        t("on_the_round_before", &[("more", (last - before).into())])
                    )
                } else {
                    String::new()
                };
                format!("{} {last}{more}", ptype(&m.progress))
            })
            .collect::<Vec<_>>()
            .join(&and)
    };
    let risk = finals(&h.risk.iter().collect::<Vec<_>>());
    out.push_str(&format!(
        "\n  {}",
        t(
            "final_round",
            &[
                ("round", h.rounds.into()),
                ("safe", finals(&[&h.safe]).into()),
                ("risk", risk.into())
            ]
        )
    ));
    let costs = super::words::actions(content, &h.penalty);
    out.push_str(&format!(
        "\n  {}",
        t("round_costs", &[("actions", costs.into())])
    ));
    if !h.final_penalty.actions.is_empty() {
        let also = super::words::actions(content, &h.final_penalty);
        out.push_str(&format!(
            "; {}",
            t("final_round_also", &[("actions", also.into())])
        ));
    }
    out
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
        return game.text("deck_empty", &[]);
    }
    let mut out = game.text("deck_cards", &[("count", game.state().deck.len().into())]);
    for (id, n) in counts {
        match content.cards.get(id) {
            Some(c) => out.push_str(&format!(
                "\n  {} x{n} [{}, {}]  ({id})",
                c.name,
                content.text(c.color.name(), &[]),
                c.class.name()
            )),
            None => out.push_str(&format!(
                "\n  {id} x{n} ({})",
                game.text("no_longer_in_mods", &[])
            )),
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
            Some(reason) => {
                let option = format!("{}. {}", i + 1, o.text);
                let line = game.text(
                    "blocked",
                    &[("option", option.into()), ("reason", reason.into())],
                );
                out.push_str(&format!("\n  {line}"));
            }
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
        return game.text("no_quests", &[]);
    }
    s.quests
        .iter()
        .map(|(id, p)| {
            let q = game.content().quests.get(id);
            format!(
                "{} ({id}): {}/{}{}",
                q.map_or_else(|| "?".into(), |q| q.name.to_string()),
                p.count,
                q.map_or(0, |q| q.count),
                if p.done {
                    format!(" {}", game.text("quest_done", &[]))
                } else {
                    String::new()
                }
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}
