//! The roguelike's world as its own vocabulary (`src/roguelike/world.rs`): rooms and floors are its
//! tables, where the run is its state. A room's triggers listen while the run is in it, through
//! reloads and saves; `lantern.game.position` reads the run; saves of the format before the run
//! moved into the game's state still load, to the same state.

mod common;

use common::world::TestMods;
use lantern::game::Game;
use lantern::id::Id;

/// A floor before core's: the room `test:bell` rings (gives 5 gold) when the run enters it, the
/// room `test:hall` does nothing. A script keeps where the run was at each `room_entered`.
fn bell_mods(rooms: &str) -> TestMods {
    TestMods::new(&[
        (
            "data/run.toml",
            &format!(
                r#"
[[rooms]]
id = "bell"
name = "Bell Tower"
description = "A rope hangs from the dark."
kind = "empty"

[[rooms.triggers]]
on = "room_entered"
actions = [ {{ action = "give_item", item = "core:gold", count = 5 }} ]

[[rooms]]
id = "hall"
kind = "empty"

[[floors]]
id = "tower"
depth = -10
rooms = {rooms}
"#
            ),
        ),
        (
            "scripts/main.lua",
            r#"
lantern.on("room_entered", function(ev)
  local p = lantern.game.position
  lantern.storage.seen = lantern.storage.seen or {}
  table.insert(lantern.storage.seen, { floor = p.floor, room = p.room, sequence = p.sequence, room_id = p.room_id })
end)
"#,
        ),
    ])
}

fn gold(g: &Game) -> u32 {
    g.state().player.count(&Id::new("core", "gold"))
}

#[test]
fn a_rooms_triggers_listen_while_the_run_is_in_it() {
    let mods = bell_mods(r#"["bell", "hall", "bell"]"#);
    let (mut g, _world) = mods.game(1);
    let start = gold(&g);
    g.verb("next", &[]).unwrap();
    assert_eq!(
        lantern::roguelike::current_room(&g),
        Some(Id::new("test", "bell"))
    );
    let said = g.take_messages();
    assert_eq!(
        said[..3],
        [
            "You descend to tower.",
            "You enter Bell Tower.",
            "A rope hangs from the dark."
        ],
        "a room's description is read on entering it"
    );
    assert_eq!(gold(&g), start + 5, "{said:?}");
    g.verb("next", &[]).unwrap();
    assert_eq!(
        lantern::roguelike::current_room(&g),
        Some(Id::new("test", "hall"))
    );
    assert_eq!(gold(&g), start + 5, "the bell's trigger is not the hall's");
    g.verb("next", &[]).unwrap();
    assert_eq!(
        gold(&g),
        start + 10,
        "the bell rings again on its second visit"
    );
}

#[test]
fn lantern_game_position_reads_the_run() {
    let mods = bell_mods(r#"["bell", "hall"]"#);
    let (mut g, _world) = mods.game(1);
    g.verb("next", &[]).unwrap();
    g.verb("next", &[]).unwrap();
    g.verb("next", &[]).unwrap(); // core's first floor
    assert!(g.take_problems().is_empty());
    let seen = g.storage()["test"]["seen"].clone();
    let expected = serde_json::json!([
        { "floor": 1, "room": 1, "sequence": 1, "room_id": "test:bell" },
        { "floor": 1, "room": 2, "sequence": 2, "room_id": "test:hall" },
        { "floor": 2, "room": 1, "sequence": 3, "room_id": lantern::roguelike::current_room(&g).unwrap().to_string() },
    ]);
    assert_eq!(seen, expected);
}

#[test]
fn a_reload_that_moves_rooms_puts_the_new_rooms_triggers_in_play() {
    let (mut g, _world) = bell_mods(r#"["hall", "bell"]"#).game(1);
    g.verb("next", &[]).unwrap();
    assert_eq!(
        lantern::roguelike::current_room(&g),
        Some(Id::new("test", "hall"))
    );
    // The floor's first room is the bell now: the run, still at that place, is in it.
    let swapped = bell_mods(r#"["bell", "hall"]"#);
    let world = lantern::load::load_game(
        &[swapped.path()],
        &lantern::roguelike::rules(),
        lantern::lua::Limits::default(),
    );
    assert!(!world.has_errors());
    let notes = g.swap_content(world.content.clone());
    assert!(notes.is_empty(), "{notes:?}");
    assert_eq!(
        lantern::roguelike::current_room(&g),
        Some(Id::new("test", "bell"))
    );
    let before = gold(&g);
    // The bell's trigger listens to `room_entered`; raise one as a game's tool would.
    g.begin_turn();
    g.raise(
        "room_entered",
        &[("prefab", lantern::content::Value::str("test:bell"))],
    )
    .unwrap();
    g.end_turn();
    assert_eq!(gold(&g), before + 5);
}

/// A version 3 save rewritten as version 2 wrote it: the run's position in lantern's state, its
/// `sequence` the scene's number, no game state.
fn as_version_2(save: &str) -> String {
    let mut json: serde_json::Value = serde_json::from_str(save).unwrap();
    json["version"] = 2.into();
    let state = json["state"].as_object_mut().unwrap();
    let run = state.remove("host").unwrap();
    let scene = state.remove("scene").unwrap();
    state.insert(
        "position".into(),
        serde_json::json!({ "floor": run["floor"], "room": run["room"], "sequence": scene }),
    );
    serde_json::to_string_pretty(&json).unwrap()
}

#[test]
fn a_save_of_version_2_loads_to_the_same_state() {
    let mods = bell_mods(r#"["bell", "hall", "bell"]"#);
    let mut g = mods.world(lantern::lua::Limits::default()).start(9);
    g.verb("next", &[]).unwrap();
    g.verb("next", &[]).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("save.json");
    g.save(&path).unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains("\"version\": 3"), "{text}");
    std::fs::write(&path, as_version_2(&text)).unwrap();
    let (mut loaded, notes) = mods
        .world(lantern::lua::Limits::default())
        .load_save(&path)
        .unwrap();
    assert!(notes.is_empty(), "{notes:?}");
    assert_eq!(loaded.state_hash(), g.state_hash());
    assert_eq!(
        lantern::roguelike::current_room(&loaded),
        Some(Id::new("test", "hall"))
    );
    // And it goes on as the game it was saved from.
    g.verb("next", &[]).unwrap();
    loaded.verb("next", &[]).unwrap();
    assert_eq!(loaded.state_hash(), g.state_hash());
}

#[test]
fn a_rooms_mistakes_are_the_roguelikes_rules_at_their_keys() {
    let mods = TestMods::new(&[(
        "data/run.toml",
        r#"
[[rooms]]
id = "pit"
kind = "combt"
enemies = ["ratt"]

[[rooms]]
id = "den"
kind = "combat"
encounter = "core:merchant"
"#,
    )]);
    let world = mods.world(lantern::lua::Limits::default());
    let text = lantern::diag::render_all(&world.diagnostics, &world.sources);
    for expected in [
        "unknown value `combt` for `kind` in room",
        "did you mean `combat`?",
        "unknown creature `test:ratt`",
        "room `test:den`: a combat room with no `enemies`",
        "room `test:den`: only an encounter room may name an `encounter`",
    ] {
        assert!(text.contains(expected), "{expected:?} is not in:\n{text}");
    }
}
