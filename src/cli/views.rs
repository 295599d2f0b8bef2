//! What the play session shows: the player's status, inventory, quests and map, the open
//! encounter and hazard, and events in the log. Plain functions from the game to text.

use crate::game::{CreatureRef, Game};
use crate::id::Id;
use crate::roguelike::world::{self, Room};

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

pub(super) fn encounter_text(game: &Game) -> Option<String> {
    let e = game.encounter()?;
    let mut out = format!("[{}]", e.title);
    for (i, o) in e.options.iter().enumerate() {
        match &o.blocked {
            None => out.push_str(&format!("\n  {}. {}", i + 1, o.text)),
            Some(reason) => out.push_str(&format!("\n  {}. {} (blocked: {reason})", i + 1, o.text)),
        }
    }
    if e.options.iter().all(|o| o.blocked.is_some()) {
        out.push_str("\n  (every option is blocked: `next` leaves it)");
    }
    Some(out)
}

fn gold(game: &Game) -> u32 {
    game.state().player.count(&Id::new("core", "gold"))
}

/// Where the player is, in words: "in Rat Nest (room 4 of the run)".
pub(super) fn whereabouts(game: &Game) -> String {
    let room = crate::roguelike::current_room(game)
        .and_then(|r| {
            Some(world::room_name(
                &r,
                game.content().entry::<Room>("room", &r)?,
            ))
        })
        .unwrap_or_else(|| "the start".into());
    format!("in {room} (room {} of the run)", game.scene())
}

/// `look`: the room the run is in, who is in it, and the encounter or hazard open there.
pub(super) fn look(game: &Game) -> String {
    if crate::roguelike::current_room(game).is_none() {
        return "You stand at the start of the run; `next` enters the first room.".into();
    }
    let mut out = format!("You are {}.", whereabouts(game));
    let content = game.content();
    let room = crate::roguelike::current_room(game).and_then(|r| content.entry::<Room>("room", &r));
    if let Some(room) = room {
        if !room.description.is_empty() {
            out.push_str(&format!("\n{}", room.description));
        }
        let npc = room.npc.as_deref().and_then(Id::qualified);
        if let Some(c) = npc.and_then(|n| content.creatures.get(&n)) {
            out.push_str(&format!("\n{} is here; `talk` to them.", c.name));
        }
    }
    for (r, c) in game.enemies().filter(|(_, c)| c.alive()) {
        out.push_str(&format!("\n  {r}: {} {} hp", c.name, c.health));
    }
    if let Some(e) = encounter_text(game) {
        out.push_str(&format!("\n{e}"));
    }
    if game.hazard().is_some() {
        out.push_str("\na hazard is under way: `hazard` shows it");
    }
    out
}

pub(super) fn status(game: &Game) -> String {
    let s = game.state();
    let max = game.attribute(CreatureRef::Player, "max_health", None);
    let active: Vec<String> = s
        .quests
        .iter()
        .filter(|(_, p)| !p.done)
        .map(|(id, p)| {
            format!(
                "{} {}/{}",
                game.content()
                    .quests
                    .get(id)
                    .map(|q| q.name.as_str())
                    .unwrap_or(id.as_str()),
                p.count,
                game.content().quests.get(id).map_or(0, |q| q.count)
            )
        })
        .collect();
    let mut out = format!(
        "health {}/{max}, gold {}, {}",
        s.player.health,
        gold(game),
        whereabouts(game)
    );
    if !active.is_empty() {
        out.push_str(&format!("\nquests: {}", active.join(", ")));
    }
    for (r, c) in game.enemies() {
        out.push_str(&format!("\n  {r}: {} {} hp", c.name, c.health));
    }
    out
}

pub(super) fn inventory(game: &Game) -> String {
    let inv = &game.state().player.inventory;
    if inv.is_empty() {
        return "you carry nothing".into();
    }
    inv.iter()
        .map(|s| {
            let name = game
                .content()
                .items
                .get(&s.item)
                .map(|i| i.name.as_str())
                .unwrap_or(s.item.as_str());
            let props: Vec<String> = s
                .properties
                .iter()
                .map(|(k, v)| format!("{k} {v}"))
                .collect();
            let eq = if s.equipped { " (equipped)" } else { "" };
            let props = if props.is_empty() {
                String::new()
            } else {
                format!(" [{}]", props.join(", "))
            };
            format!("{} x{}{eq}{props}  ({})", name, s.count, s.item)
        })
        .collect::<Vec<_>>()
        .join("\n")
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

pub(super) fn map(game: &Game) -> String {
    let content = game.content();
    let run = crate::roguelike::position(game);
    let mut out = Vec::new();
    for (fi, (id, f)) in world::floors(content).into_iter().enumerate() {
        out.push(format!("{} (depth {})", world::floor_name(id, f), f.depth));
        for (ri, r) in f.rooms.iter().enumerate() {
            let here = if fi == run.floor && run.room == Some(ri) {
                " <- you are here"
            } else {
                ""
            };
            let room =
                Id::qualified(r).and_then(|id| Some((content.entry::<Room>("room", &id)?, id)));
            let kind = room.as_ref().map_or("?", |(r, _)| r.kind.as_str());
            let name = room.map_or_else(|| r.clone(), |(room, id)| world::room_name(&id, room));
            out.push(format!("  {}. {name} [{kind}]{here}", ri + 1));
        }
    }
    out.join("\n")
}
