//! The roguelike's world, declared as any game declares its own ([`Vocabulary`]): its rooms and
//! floors are its tables (`[[rooms]]`, `[[floors]]`), where the run is its state ([`Run`]),
//! entering a room is its internal action, and `floor_entered` and `room_entered` are its events.
//! lantern resolves none of it itself: the references in rooms and floors are checked through
//! `refers`, a room kind's rules through `validate`, and a room's triggers listen while the run is
//! in it through `triggers`, as a farm's crops do.
//!
//! [`rules`] is the vocabulary the `lantern` binary plays, passed to the loaders as any game's
//! rules are (`load_game(&roots, &roguelike::rules(), limits)`). Its player verbs (`next`,
//! `attack`, `flee`, `use`, `talk`) are declared here as a game's verbs, so a test's `g:attack(1)`
//! and `g:verb("attack", 1)` run them as Harvest's run its own.

use crate::content::{Content, Name, TextArg};
use crate::game::Game;
use crate::host::{Param, Problem, Rules, Vocabulary};
use crate::id::Id;
use serde::{Deserialize, Serialize};

/// The most enemies a room may hold, and so the highest enemy number `attack` takes.
const MOST_ENEMIES: i64 = 1_000;

/// A verb's outcome as a game's verb returns it: the run being over is in the state.
fn done(outcome: Result<crate::game::Outcome, crate::Error>) -> Result<(), String> {
    outcome.map(|_| ()).map_err(|e| e.to_string())
}

/// The roguelike's namespace: its internal action is `roguelike:enter`.
pub(crate) const NAMESPACE: &str = "roguelike";

/// Where the run is: the roguelike's own state, saved and hashed with the game.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub(crate) struct Run {
    /// The floor, by its place in the run (floors are played by depth, ties by ID).
    #[serde(default)]
    pub floor: usize,
    /// The room on that floor, by its place; none before the first room.
    #[serde(default)]
    pub room: Option<usize>,
    /// The room there, as the content says: whose triggers listen. Set on entering and again
    /// whenever the content changes under the run (a reload, a save loaded).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub room_id: Option<Id>,
}

/// What a room holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum RoomKind {
    /// A fight with its `enemies`.
    Combat,
    /// An encounter: its fixed one, or one drawn by weight.
    Encounter,
    /// A hazard: its fixed one, or one drawn.
    Hazard,
    /// Nothing but its loot and NPC.
    Empty,
}

impl RoomKind {
    /// The name data files write.
    #[cfg_attr(not(feature = "cli"), allow(dead_code))]
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            RoomKind::Combat => "combat",
            RoomKind::Encounter => "encounter",
            RoomKind::Hazard => "hazard",
            RoomKind::Empty => "empty",
        }
    }
}

/// A room (`[[rooms]]`): one step of a floor. Its IDs are full (`core:rat`) when it is read.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Room {
    /// Shown to players; the ID's name when absent.
    #[serde(default)]
    pub name: Option<String>,
    /// What the player reads on entering it.
    #[serde(default)]
    pub description: String,
    /// What it holds.
    pub kind: RoomKind,
    /// Enemies of a combat room.
    #[serde(default)]
    pub enemies: Vec<String>,
    /// A creature to talk to.
    #[serde(default)]
    pub npc: Option<String>,
    /// Items picked up on entering.
    #[serde(default)]
    pub loot: Vec<Loot>,
    /// A fixed encounter; without it an encounter room draws one by weight.
    #[serde(default)]
    pub encounter: Option<String>,
    /// A fixed hazard; without it a hazard room draws one.
    #[serde(default)]
    pub hazard: Option<String>,
}

/// Items of a room's loot.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Loot {
    /// The item.
    pub item: String,
    /// How many (1 unless said).
    #[serde(default = "one")]
    pub count: i64,
}

fn one() -> i64 {
    1
}

/// A floor (`[[floors]]`): rooms in order; the run plays floors by depth.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Floor {
    /// Shown to players; the ID's name when absent.
    #[serde(default)]
    pub name: Option<String>,
    /// Where it comes in the run: lowest first.
    pub depth: i64,
    /// Its rooms, in order.
    pub rooms: Vec<String>,
}

/// The most items of one kind a room's loot gives.
const MOST_LOOT: i64 = 1_000_000_000;

/// The roguelike's vocabulary.
pub(crate) fn rules() -> Rules {
    let game = Vocabulary::new(NAMESPACE, Run::default())
        .version(env!("CARGO_PKG_VERSION"))
        .player("core:player")
        .home("core");
    verbs(texts(game))
        .table::<Room>("rooms", "room")
        .refers("rooms", "enemies", "creature")
        .refers("rooms", "npc", "creature")
        .refers("rooms", "loot.item", "item")
        .refers("rooms", "encounter", "encounter")
        .refers("rooms", "hazard", "hazard")
        .validate("rooms", room_rules)
        .triggers("rooms", |run: &Run| run.room_id.iter().cloned().collect())
        .describe(
            "rooms",
            &[
                ("name", "shown to players"),
                ("description", "what the player reads on entering"),
                ("kind", "combat, encounter, hazard or empty"),
                ("enemies", "creature IDs"),
                ("npc", "a creature to talk to"),
                ("loot", "{ item, count }"),
                ("encounter", "a fixed encounter"),
                ("hazard", "a fixed hazard"),
                ("triggers", "listen while the run is in the room"),
            ],
        )
        .texts("rooms", &["name", "description"])
        .table::<Floor>("floors", "floor")
        .refers("floors", "rooms", "room")
        .texts("floors", &["name"])
        .describe(
            "floors",
            &[
                ("name", "shown to players"),
                ("depth", "floors are played by depth"),
                ("rooms", "room IDs in order"),
            ],
        )
        .event(
            "floor_entered",
            &[("floor", "floor"), ("depth", "int")],
            "The run reached a floor (before its first room).",
        )
        .event(
            "room_entered",
            &[("prefab", "room")],
            "The run entered a room (before its loot, fight, encounter or hazard).",
        )
        .internal_action(
            "enter",
            &[Param::int("floor"), Param::int("room")],
            "Moves the run to a room of a floor, by their places in the run.",
            |fx, args| {
                let (floor, room) = (args.int("floor"), args.int("room"));
                let (Ok(floor), Ok(room)) = (usize::try_from(floor), usize::try_from(room)) else {
                    return Err(format!("there is no room {room} of floor {floor}"));
                };
                let room_id = room_at(fx.content(), floor, Some(room));
                *fx.state_mut() = Run {
                    floor,
                    room: Some(room),
                    room_id,
                };
                Ok(())
            },
        )
        .game_field(
            "position",
            "{floor: integer, room: integer?, sequence: integer, room_id: string?}",
            "Where the run is: floor and room counted from 1, the number of rooms entered, the room's ID.",
            |q| {
                let run = q.state();
                Ok(serde_json::json!({
                    "floor": run.floor + 1,
                    "room": run.room.map(|r| r + 1),
                    "sequence": q.game().scene(),
                    "room_id": run.room_id.as_ref().map(|r| r.to_string()),
                }))
            },
        )
        .reconcile(|run: &mut Run, content: &Content| {
            // The room at the run's place may be another one now; its triggers listen instead.
            run.room_id = room_at(content, run.floor, run.room);
            Vec::new()
        })
        .rules()
}

/// The texts its code and its console say, from core's locale files, with the arguments each
/// fills.
fn texts(v: Vocabulary<Run>) -> Vocabulary<Run> {
    v.text("core:you_descend", &["floor"])
        .text("core:you_enter", &["room"])
        .text("core:npc_here", &["npc"])
        .text("core:quiet_room", &["why"])
        .text("core:no_encounters", &[])
        .text("core:no_eligible_encounter", &[])
        .text("core:no_hazards", &[])
        .text("core:hits", &["who", "whom"])
        .text("core:waits", &["who"])
        .text("core:you_flee", &[])
        .text("core:you_use", &["item"])
        .text("core:you_talk_to", &["npc"])
        .text("core:the_start", &[])
        .text("core:whereabouts", &["room", "scene"])
        .text("core:at_the_start", &[])
        .text("core:you_are", &["where"])
        .text("core:hazard_under_way", &[])
        .text("core:status", &["health", "max", "gold", "where"])
        .text("core:quests_under_way", &["quests"])
        .text("core:carry_nothing", &[])
        .text("core:equipped", &[])
        .text("core:map_floor", &["floor", "depth"])
        .text("core:you_are_here", &[])
        .text("core:run_over", &["where", "turn", "count"])
        .text("core:leave_during_fight", &[])
        .text("core:choose_first", &[])
        .text("core:hazard_not_over", &[])
        .text("core:run_complete", &[])
        .text("core:nothing_to_attack", &[])
        .text("core:nothing_to_flee", &[])
        .text("core:nobody_to_talk_to", &[])
}

/// The player's verbs: `next`, `attack`, `flee`, `use`, `talk`.
fn verbs(v: Vocabulary<Run>) -> Vocabulary<Run> {
    v.verb(
        "next",
        &[],
        "Enters the next room (and the next floor when this one is done).",
        |g, _| done(super::enter_next_room(g)),
    )
    .verb(
        "attack",
        &[Param::int("enemy").optional().within(1, MOST_ENEMIES)],
        "Attacks an enemy by its number (the first living one by default); then the enemies act.",
        |g, args| {
            let enemy = args.opt_int("enemy").map(|n| (n - 1) as usize);
            done(super::attack(g, enemy))
        },
    )
    .verb(
        "flee",
        &[],
        "Leaves the fight; the enemies stay behind.",
        |g, _| done(super::flee(g)),
    )
    .verb(
        "use",
        &[Param::id("item", "item")],
        "Uses an item the player carries.",
        |g, args| match args.id("item") {
            Some(item) => done(super::use_item(g, &item)),
            None => Err("`use` needs the item".into()),
        },
    )
    .verb("talk", &[], "Talks to the room's NPC.", |g, _| {
        done(super::talk(g))
    })
}

/// A room kind's rules, beyond its keys' types.
fn room_rules(room: &Room) -> Vec<Problem> {
    let mut problems = Vec::new();
    if room.kind == RoomKind::Combat && room.enemies.is_empty() {
        problems.push(
            Problem::warning("a combat room with no `enemies`")
                .at("kind")
                .help("use `kind = \"empty\"` for a room without a fight"),
        );
    }
    if room.encounter.is_some() && room.kind != RoomKind::Encounter {
        problems.push(Problem::error("only an encounter room may name an `encounter`").at("kind"));
    }
    if let Some(l) = room
        .loot
        .iter()
        .find(|l| !(1..=MOST_LOOT).contains(&l.count))
    {
        problems.push(
            Problem::error(format!(
                "`count` of the loot `{}` must be between 1 and {MOST_LOOT}, not {}",
                l.item, l.count
            ))
            .at("loot"),
        );
    }
    problems
}

/// The run's floors in the order it plays them: by depth, ties by ID.
pub(crate) fn floors(content: &Content) -> Vec<(&Id, &Floor)> {
    let mut floors: Vec<(&Id, &Floor)> = content.table::<Floor>("floor").collect();
    floors.sort_by(|a, b| a.1.depth.cmp(&b.1.depth).then_with(|| a.0.cmp(b.0)));
    floors
}

/// The room at a place of the run, when there is one.
pub(crate) fn room_at(content: &Content, floor: usize, room: Option<usize>) -> Option<Id> {
    let floors = floors(content);
    let (_, f) = floors.get(floor)?;
    f.rooms.get(room?).and_then(|r| Id::qualified(r))
}

/// A room's name as players see it.
pub(crate) fn room_name(content: &Content, id: &Id, room: &Room) -> Name {
    let written = room.name.as_deref().unwrap_or(id.name());
    content.text_of("rooms", id, "name", written).into()
}

/// A room's description as players read it.
pub(crate) fn room_description(content: &Content, id: &Id, room: &Room) -> String {
    content.text_of("rooms", id, "description", &room.description)
}

/// A floor's name as players see it.
pub(crate) fn floor_name(content: &Content, id: &Id, floor: &Floor) -> Name {
    let written = floor.name.as_deref().unwrap_or(id.name());
    content.text_of("floors", id, "name", written).into()
}

/// The reference game's text `key` of `core`'s locale files, with `args`.
pub(crate) fn text(g: &Game, key: &str, args: &[(&str, TextArg)]) -> String {
    g.text(&format!("core:{key}"), args)
}

/// Says the reference game's message `key` of `core`'s locale files, with `args`.
pub(crate) fn say(g: &mut Game, key: &str, args: &[(&str, TextArg)]) {
    let line = text(g, key, args);
    g.say(line);
}
