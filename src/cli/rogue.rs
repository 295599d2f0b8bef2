//! The reference roguelike's part of `lantern play`: its commands (status, inventory, map, look,
//! and its verbs with their short forms: `next`, `attack`, `flee`, `use`, `talk`), what they show,
//! and how a run's end is told. The console itself (`play.rs`) is every game's.

use super::play::{Command, Flavor};
use super::views::{encounter_text, hazard_text};
use crate::content::find_id;
use crate::game::{CreatureRef, Game, Outcome};
use crate::id::Id;
use crate::roguelike::{
    self,
    world::{self, Room},
};

/// The roguelike's console: `lantern play`.
pub(super) const FLAVOR: Flavor = Flavor {
    commands: COMMANDS,
    run,
    begin: "`next` to begin",
    stuck: STUCK,
    ending,
};

/// The roguelike lets a player leave an encounter none of whose options is open.
const STUCK: &str = "every option is blocked: `next` leaves it";

/// The roguelike's commands, in the order `help` lists them (before the console's own).
const COMMANDS: &[Command] = &[
    Command {
        names: &["status"],
        usage: "status",
        help: "health, position, gold, active quests",
    },
    Command {
        names: &["inventory"],
        usage: "inventory",
        help: "what you carry",
    },
    Command {
        names: &["map"],
        usage: "map",
        help: "the floors and rooms of the run",
    },
    Command {
        names: &["next"],
        usage: "next",
        help: "enter the next room",
    },
    Command {
        names: &["attack"],
        usage: "attack [N]",
        help: "attack enemy N (default: the first)",
    },
    Command {
        names: &["flee"],
        usage: "flee",
        help: "leave a fight",
    },
    Command {
        names: &["use"],
        usage: "use ITEM",
        help: "use an item (`use potion`)",
    },
    Command {
        names: &["talk"],
        usage: "talk",
        help: "talk to the room's NPC",
    },
    Command {
        names: &["look"],
        usage: "look",
        help: "the room you are in, who is here, what is open",
    },
];

/// Runs one of the roguelike's commands; `None` when `words` is not one of them.
fn run(game: &mut Game, words: &[&str]) -> Option<Result<String, crate::Error>> {
    let done = |o: Result<Outcome, crate::Error>| o.map(|_| String::new());
    Some(match words[0] {
        "status" => Ok(status(game)),
        "inventory" | "inv" | "i" => Ok(inventory(game)),
        "map" => Ok(map(game)),
        "look" | "l" => Ok(look(game)),
        "next" | "n" => roguelike::enter_next_room(game).map(|_| {
            encounter_text(game, STUCK)
                .or_else(|| hazard_text(game))
                .unwrap_or_default()
        }),
        "attack" | "a" => {
            let n = match words.get(1).map(|n| n.parse::<usize>()) {
                None => None,
                Some(Ok(n)) => Some(n.saturating_sub(1)),
                Some(Err(_)) => {
                    return Some(Err(format!("`{}` is not an enemy number", words[1]).into()))
                }
            };
            done(roguelike::attack(game, n))
        }
        "flee" => done(roguelike::flee(game)),
        "use" => {
            let Some(item) = words.get(1) else {
                return Some(Err("`use` needs an argument; see `help`".into()));
            };
            let home = game.content().declared.home().to_string();
            match find_id(&game.content().items, item, &home, "item") {
                Ok(item) => done(roguelike::use_item(game, &item)),
                Err(e) => Err(e),
            }
        }
        "talk" => done(roguelike::talk(game)),
        _ => return None,
    })
}

/// How a run ended, and what can follow it.
fn ending(game: &Game) -> String {
    let s = game.state();
    let done = s.quests.values().filter(|q| q.done).count();
    t(
        game,
        "run_over",
        &[
            ("where", whereabouts(game).into()),
            ("turn", s.turn.into()),
            ("count", done.into()),
        ],
    )
}

/// An enemy as `look` and `status` list it: `enemy 1: Rat 4 hp`, in the game's language.
fn enemy_line(game: &Game, r: CreatureRef, c: &crate::game::Creature) -> String {
    game.text(
        "creature_line",
        &[
            ("who", game.creature_ref_text(r).into()),
            ("name", c.name.to_string().into()),
            ("health", c.health.into()),
        ],
    )
}

/// The reference game's text `key` of `core`'s locale files, in the game's language.
fn t(game: &Game, key: &str, args: &[(&str, crate::content::TextArg)]) -> String {
    game.text(&format!("core:{key}"), args)
}

fn gold(game: &Game) -> u32 {
    game.state().player.count(&Id::new("core", "gold"))
}

/// Where the player is, in words: "in Rat Nest (room 4 of the run)".
pub(super) fn whereabouts(game: &Game) -> String {
    let content = game.content();
    let room = crate::roguelike::current_room(game)
        .and_then(|r| {
            Some(world::room_name(content, &r, content.entry::<Room>("room", &r)?).to_string())
        })
        .unwrap_or_else(|| t(game, "the_start", &[]));
    t(
        game,
        "whereabouts",
        &[("room", room.into()), ("scene", game.scene().into())],
    )
}

/// `look`: the room the run is in, who is in it, and the encounter or hazard open there.
pub(super) fn look(game: &Game) -> String {
    if crate::roguelike::current_room(game).is_none() {
        return t(game, "at_the_start", &[]);
    }
    let mut out = t(game, "you_are", &[("where", whereabouts(game).into())]);
    let content = game.content();
    let room = crate::roguelike::current_room(game).and_then(|r| content.entry::<Room>("room", &r));
    if let (Some(room), Some(id)) = (room, crate::roguelike::current_room(game)) {
        if !room.description.is_empty() {
            out.push_str(&format!(
                "\n{}",
                world::room_description(content, &id, room)
            ));
        }
        let npc = room.npc.as_deref().and_then(Id::qualified);
        if let Some(c) = npc.and_then(|n| content.creatures.get(&n)) {
            out.push_str(&format!(
                "\n{}",
                t(game, "npc_here", &[("npc", c.name.to_string().into())])
            ));
        }
    }
    for (r, c) in game.enemies().filter(|(_, c)| c.alive()) {
        out.push_str(&format!("\n  {}", enemy_line(game, r, c)));
    }
    if let Some(e) = encounter_text(game, STUCK) {
        out.push_str(&format!("\n{e}"));
    }
    if game.hazard().is_some() {
        out.push_str(&format!("\n{}", t(game, "hazard_under_way", &[])));
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
                    .map_or_else(|| id.to_string(), |q| q.name.to_string()),
                p.count,
                game.content().quests.get(id).map_or(0, |q| q.count)
            )
        })
        .collect();
    let mut out = t(
        game,
        "status",
        &[
            ("health", s.player.health.into()),
            ("max", max.into()),
            ("gold", gold(game).into()),
            ("where", whereabouts(game).into()),
        ],
    );
    if !active.is_empty() {
        let quests = t(
            game,
            "quests_under_way",
            &[("quests", active.join(", ").into())],
        );
        out.push_str(&format!("\n{quests}"));
    }
    for (r, c) in game.enemies() {
        out.push_str(&format!("\n  {}", enemy_line(game, r, c)));
    }
    out
}

pub(super) fn inventory(game: &Game) -> String {
    let inv = &game.state().player.inventory;
    if inv.is_empty() {
        return t(game, "carry_nothing", &[]);
    }
    inv.iter()
        .map(|s| {
            let name = game
                .content()
                .items
                .get(&s.item)
                .map_or_else(|| s.item.to_string(), |i| i.name.to_string());
            let props: Vec<String> = s
                .properties
                .iter()
                .map(|(k, v)| super::one_line(&format!("{k} {v}")))
                .collect();
            let eq = if s.equipped {
                format!(" ({})", t(game, "equipped", &[]))
            } else {
                String::new()
            };
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

pub(super) fn map(game: &Game) -> String {
    let content = game.content();
    let run = crate::roguelike::position(game);
    let mut out = Vec::new();
    for (fi, (id, f)) in world::floors(content).into_iter().enumerate() {
        let floor = world::floor_name(content, id, f);
        out.push(t(
            game,
            "map_floor",
            &[("floor", floor.into()), ("depth", f.depth.into())],
        ));
        for (ri, r) in f.rooms.iter().enumerate() {
            let here = if fi == run.floor && run.room == Some(ri) {
                format!(" <- {}", t(game, "you_are_here", &[]))
            } else {
                String::new()
            };
            let room =
                Id::qualified(r).and_then(|id| Some((content.entry::<Room>("room", &id)?, id)));
            let kind = room.as_ref().map_or("?", |(r, _)| r.kind.as_str());
            let name = room.map_or_else(
                || super::one_line(r),
                |(room, id)| world::room_name(content, &id, room).to_string(),
            );
            let kind = super::one_line(kind);
            out.push(format!("  {}. {name} [{kind}]{here}", ri + 1));
        }
    }
    out.join("\n")
}
