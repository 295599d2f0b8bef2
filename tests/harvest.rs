//! Harvest, the example farming game, embeds lantern through the public API: its mods' own tests
//! run with its verbs, its vocabulary is validated at load with located messages, and its state
//! is rolled back, saved, hashed and kept across a reload like lantern's own.

mod common;
#[path = "../examples/harvest/farm.rs"]
#[allow(dead_code)]
mod farm;
#[path = "../examples/harvest/session.rs"]
mod session;

use farm::Farm;
use lantern::content::Value;
use lantern::game::Game;
use lantern::host::Param;
use lantern::load::{load_game, World};
use lantern::lua::Limits;
use std::path::PathBuf;

fn mods() -> PathBuf {
    common::harvest_mods()
}

fn world_over(roots: &[PathBuf]) -> World {
    load_game(roots, &farm::rules(), Limits::default())
}

fn started(seed: u64) -> (Game, World) {
    let mut world = world_over(&[mods()]);
    assert!(
        !world.has_errors(),
        "{}",
        lantern::diag::render_all(&world.diagnostics, &world.sources)
    );
    let game = world.start(seed);
    (game, world)
}

/// The valley copied into a temporary mods folder, with `file` (relative to the mod) written over
/// it, and a game started over it; the folder lives as long as the first value.
fn valley_with(file: &str, text: &str) -> (tempfile::TempDir, Game, World) {
    let dir = tempfile::tempdir().unwrap();
    common::fs::copy_dir(&mods().join("valley"), &dir.path().join("valley"));
    std::fs::write(dir.path().join("valley").join(file), text).unwrap();
    let mut world = world_over(&[dir.path().to_path_buf()]);
    assert!(
        !world.has_errors(),
        "{}",
        lantern::diag::render_all(&world.diagnostics, &world.sources)
    );
    let game = world.start(1);
    (dir, game, world)
}

/// The problems the game raised since last asked, rendered as a modder sees them.
fn problems(g: &mut Game, world: &World) -> Vec<String> {
    g.take_problems()
        .iter()
        .map(|d| lantern::diag::render(d, &world.sources))
        .collect()
}

fn money(g: &Game) -> i64 {
    g.host_state::<Farm>().expect("the farm").money
}

#[test]
fn the_valley_loads_clean() {
    // Its own harness tests run one by one as `tests/harvest_mods.rs`.
    let world = world_over(&[mods()]);
    assert!(
        world.diagnostics.is_empty(),
        "{}",
        lantern::diag::render_all(&world.diagnostics, &world.sources)
    );
}

#[test]
fn every_mistake_against_the_games_vocabulary_is_located() {
    let roots = [
        mods(),
        common::root().join("tests/fixtures/host/broken_farm"),
    ];
    let world = world_over(&roots);
    let text = lantern::diag::render_all(&world.diagnostics, &world.sources);
    common::expect_file(
        &common::root().join("tests/fixtures/host/broken_farm/expected.txt"),
        &text,
    );
}

#[test]
fn a_failed_action_list_rolls_the_farm_back_too() {
    let (_dir, mut g, world) = valley_with(
        "data/greedy.toml",
        "[[triggers]]\nid = \"greedy\"\non = \"day_started\"\nactions = [ { action = \"farm:earn\", amount = 10 }, { action = \"farm:pay\", amount = 1000 } ]\n",
    );
    let before = money(&g);
    g.verb("sleep", &[]).unwrap();
    assert_eq!(money(&g), before, "the 10 coins earned were rolled back");
    let problems = problems(&mut g, &world);
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(
        problems[0].contains("the farm has 40 coins, not 1000 (from valley:greedy); nothing in this action list was applied"),
        "{}",
        problems[0]
    );
    assert!(
        problems[0].contains("valley/data/greedy.toml:4"),
        "{}",
        problems[0]
    );
}

#[test]
fn a_verb_that_fails_changes_nothing() {
    let (mut g, _) = started(1);
    for _ in 0..3 {
        g.verb("plant", &[Value::str("pumpkin")]).unwrap();
    }
    let hash = g.state_hash();
    let err = g.verb("plant", &[Value::str("pumpkin")]).unwrap_err();
    assert_eq!(
        err.to_string(),
        "the farm has 6 coins, not 8 (from plant); nothing in this action list was applied"
    );
    assert_eq!(g.state_hash(), hash);
}

#[test]
fn the_games_own_calls_are_checked_with_did_you_mean() {
    let (mut g, _) = started(1);
    assert_eq!(
        g.verb("slep", &[]).unwrap_err().to_string(),
        "the game has no verb `slep`; did you mean `sleep`?"
    );
    assert_eq!(
        g.verb("plant", &[Value::Int(3)]).unwrap_err().to_string(),
        "`crop` of verb `plant` must be the ID of a crop, not 3"
    );
    assert_eq!(
        g.verb("plant", &[Value::str("wheat"), Value::Int(2)])
            .unwrap_err()
            .to_string(),
        "verb `plant` takes 1 (crop), not 2"
    );
    assert_eq!(
        g.verb("plant", &[]).unwrap_err().to_string(),
        "verb `plant` needs `crop`"
    );
    assert_eq!(
        g.perform("Plant!", &[], "test").unwrap_err().to_string(),
        "the game has no action `Plant!`; did you mean `farm:plant`?"
    );
    let err = g.perform("plnt", &[], "test").unwrap_err().to_string();
    assert_eq!(
        err,
        "the game has no action `plnt`; did you mean `farm:plant`?"
    );
    let err = g
        .perform("plant", &[("crop", Value::str("pumkin"))], "test")
        .unwrap_err()
        .to_string();
    assert_eq!(err, "there is no crop `pumkin`; did you mean `pumpkin`?");
    let err = g
        .perform("earn", &[("amout", Value::Int(1))], "test")
        .unwrap_err()
        .to_string();
    assert_eq!(
        err,
        "action `farm:earn` has no parameter `amout`; did you mean `amount`?"
    );
    let err = g.perform("earn", &[], "test").unwrap_err().to_string();
    assert_eq!(err, "action `farm:earn` needs `amount`");
    let err = g
        .raise("crop_harvested", &[("crops", Value::Int(1))])
        .unwrap_err()
        .to_string();
    assert_eq!(
        err,
        "event `crop_harvested` has no payload field `crops`; did you mean `crop`?"
    );
}

#[test]
fn the_farm_is_saved_and_loaded_with_the_game() {
    let (mut g, _world) = started(3);
    g.verb("plant", &[Value::str("wheat")]).unwrap();
    g.verb("sleep", &[]).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("farm.json");
    g.save(&path).unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains("\"barn\""), "{text}");
    // The save read by another process: the mods loaded again, their scripts plugged in.
    let (loaded, notes) = world_over(&[mods()]).load_save(&path).unwrap();
    assert!(notes.is_empty(), "{notes:?}");
    assert_eq!(loaded.host_state::<Farm>(), g.host_state::<Farm>());
    assert_eq!(loaded.state_hash(), g.state_hash());
    // A save whose farm is not a farm is refused, and says why and where.
    let refused = |key: &str, bad: serde_json::Value| {
        let mut json: serde_json::Value = serde_json::from_str(&text).unwrap();
        json["state"]["host"][key] = bad;
        std::fs::write(&path, json.to_string()).unwrap();
        world_over(&[mods()])
            .load_save(&path)
            .err()
            .unwrap()
            .to_string()
    };
    let err = refused("money", serde_json::json!("lots"));
    assert!(
        err.contains("the game's state in the save is not a `harvest::farm::Farm`: at `money`: invalid type: string \"lots\", expected i64"),
        "{err}"
    );
    let err = refused(
        "plots",
        serde_json::json!([{ "crop": "valley:wheat", "planted": true }]),
    );
    assert!(
        err.contains(": at `plots[0].planted`: invalid type: boolean `true`"),
        "the path to it, deeper in: {err}"
    );
}

#[test]
fn a_reload_keeps_the_games_vocabulary_and_its_farm() {
    let (dir, mut live) = live_valley();
    live.game_mut()
        .verb("plant", &[Value::str("wheat")])
        .unwrap();
    live.game_mut().verb("sleep", &[]).unwrap();
    let crops = dir.path().join("valley/data/crops.toml");
    let text = std::fs::read_to_string(&crops).unwrap();
    std::fs::write(&crops, text.replace("sell_price = 4", "sell_price = 9")).unwrap();
    let report = live.reload();
    assert!(report.ok, "{:?}", report.problems.diagnostics());
    assert!(report.summary.ends_with(": ~1 crop"), "{}", report.summary);
    assert_eq!(live.generation(), 1);
    let before = money(live.game());
    live.game_mut()
        .verb("sell", &[Value::str("wheat"), Value::Int(1)])
        .unwrap();
    assert_eq!(
        money(live.game()),
        before + 9,
        "the new price, the same farm"
    );

    // A crop taken out while it grows: the reload says what happened to its plot.
    let melon = dir.path().join("valley/data/melon.toml");
    std::fs::write(
        &melon,
        "[[crops]]\nid = \"melon\"\nname = \"Melon\"\nseed_price = 1\nsell_price = 1\ndays = 9\n",
    )
    .unwrap();
    assert!(live.reload().ok);
    live.game_mut()
        .verb("plant", &[Value::str("melon")])
        .unwrap();
    std::fs::remove_file(&melon).unwrap();
    let report = live.reload();
    assert!(report.ok, "{:?}", report.problems.diagnostics());
    let notes: Vec<&str> = report
        .problems
        .diagnostics()
        .iter()
        .map(|d| d.message.as_str())
        .collect();
    assert_eq!(
        notes,
        ["crop `valley:melon` no longer exists; its plot was cleared"],
        "{notes:?}"
    );
    assert!(live.game().host_state::<Farm>().unwrap().plots.is_empty());
}

#[test]
fn the_same_session_gives_the_same_hash_in_three_processes() {
    if std::env::var_os("HARVEST_CHILD").is_some() {
        return;
    }
    let mut hashes = Vec::new();
    for _ in 0..3 {
        let out = std::process::Command::new(std::env::current_exe().unwrap())
            .args([
                "--exact",
                "child_plays_a_session",
                "--nocapture",
                "--test-threads=1",
            ])
            .env("HARVEST_CHILD", "1")
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout).to_string();
        let hash = text
            .split("hash: ")
            .nth(1)
            .and_then(|rest| rest.get(..16))
            .unwrap_or_else(|| panic!("no hash in {text}"))
            .to_string();
        hashes.push(hash);
    }
    assert_eq!(hashes[0].len(), 16);
    assert!(hashes.iter().all(|h| *h == hashes[0]), "{hashes:?}");
}

/// The child of the test above: plays a session and prints its hash (does nothing on its own).
#[test]
fn child_plays_a_session() {
    if std::env::var_os("HARVEST_CHILD").is_none() {
        return;
    }
    let (mut g, _) = started(11);
    for (verb, args) in [
        ("plant", vec![Value::str("wheat")]),
        ("plant", vec![Value::str("pumpkin")]),
        ("sleep", vec![]),
        ("sleep", vec![]),
        ("sleep", vec![]),
        ("choose", vec![Value::Int(3)]),
        ("sell", vec![Value::str("pumpkin")]),
    ] {
        g.verb(verb, &args).unwrap();
    }
    println!("hash: {}", g.state_hash());
}

#[cfg(feature = "cli")]
#[test]
fn the_games_tools_check_test_and_scaffold_its_mods() {
    use std::process::ExitCode;
    let run = |args: &[&str], roots: &[PathBuf]| {
        lantern::cli::tools_from(
            "harvest",
            &farm::rules(),
            roots,
            args.iter().map(|a| a.to_string()),
        )
    };
    assert_eq!(run(&["check"], &[mods()]), ExitCode::SUCCESS);
    assert_eq!(
        run(
            &[
                "sim",
                "hazard",
                "hailstorm",
                "--runs",
                "200",
                "--format",
                "json"
            ],
            &[mods()]
        ),
        ExitCode::SUCCESS,
        "the simulator loads the game's mods with its vocabulary and finds a bare hazard name"
    );
    let broken = common::root().join("tests/fixtures/host/broken_farm");
    assert_eq!(run(&["check"], &[mods(), broken]), ExitCode::from(1));
    assert_eq!(run(&["chek"], &[mods()]), ExitCode::from(2));
    let dir = tempfile::tempdir().unwrap();
    common::fs::copy_dir(&mods().join("valley"), &dir.path().join("valley"));
    let roots = [dir.path().to_path_buf()];
    assert_eq!(run(&["new", "orchard"], &roots), ExitCode::SUCCESS);
    let data = std::fs::read_to_string(dir.path().join("orchard/data/orchard.toml")).unwrap();
    assert!(data.contains("farm:plant"), "{data}");
    assert!(
        data.contains("[[crops]] (IDs of kind `crop`; keys name, seed_price, sell_price, days, harvest, companions; `companions` names crops; [[crops.triggers]] listen while it is in play)"),
        "{data}"
    );
    assert_eq!(run(&["check"], &roots), ExitCode::SUCCESS);
    assert_eq!(run(&["test", "orchard"], &roots), ExitCode::SUCCESS);
    // Its trigger's example action, taken out of its comment, is one the game checks and takes.
    assert!(
        data.contains(
            "on = \"day_started\"\nactions = [\n  # { action = \"farm:earn\", amount = 1 },\n]"
        ),
        "{data}"
    );
    let data_file = dir.path().join("orchard/data/orchard.toml");
    std::fs::write(&data_file, data.replace("  # { action", "  { action")).unwrap();
    assert_eq!(run(&["check"], &roots), ExitCode::SUCCESS);
    let defs = dir.path().join("harvest.d.lua");
    let defs_arg = defs.to_string_lossy().to_string();
    assert_eq!(
        run(&["docs", "--lua-defs", &defs_arg], &roots),
        ExitCode::SUCCESS
    );
    let schema_dir = dir.path().join("schema");
    let schema_arg = schema_dir.to_string_lossy().to_string();
    assert_eq!(
        run(&["docs", "--schema", &schema_arg], &roots),
        ExitCode::SUCCESS
    );
    let schema: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(schema_dir.join("lantern-data.schema.json")).unwrap(),
    )
    .unwrap();
    let tables = schema["properties"].as_object().unwrap();
    assert!(tables.contains_key("crops"), "the game's table is there");
    let companions = &tables["crops"]["items"]["properties"]["companions"];
    assert_eq!(
        companions["description"], "the ID of a crop, or an array of them",
        "a key the game declared to refer to IDs is described: {companions}"
    );
    assert_eq!(
        tables["crops"]["items"]["properties"]["triggers"]["items"]["$ref"],
        "#/definitions/trigger",
        "a crop's triggers are triggers to the editor"
    );
    let keys: Vec<&String> = tables["crops"]["items"]["properties"]
        .as_object()
        .unwrap()
        .keys()
        .collect();
    assert_eq!(
        keys,
        [
            "companions",
            "days",
            "harvest",
            "id",
            "name",
            "seed_price",
            "sell_price",
            "triggers"
        ],
        "every key Harvest's `Crop` reads, from its `Deserialize`"
    );
    assert_eq!(tables["crops"]["items"]["additionalProperties"], false);
    assert_eq!(
        tables["crops"]["items"]["properties"]["days"]["description"],
        "days from planting to harvest",
        "what the game said a key means"
    );
    assert!(
        !tables.contains_key("items"),
        "the creature tables the game left out are not"
    );
    let text = std::fs::read_to_string(&defs).unwrap();
    assert!(
        text.contains("---The farm's coins.\n---@return any\nfunction lantern.farm.money() end"),
        "{text}"
    );
    assert!(
        text.contains(
            "---@param crop string\n---@return any\nfunction lantern.farm.barn(crop) end"
        ),
        "{text}"
    );
}

#[derive(Clone, Default, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
struct Counter {
    ticks: i64,
}

fn counter_rules(listen_to: &str) -> lantern::host::Rules {
    lantern::host::Vocabulary::new("clock", Counter::default())
        .event("tick", &[("loud", "bool")], "A tick.")
        .on(listen_to, |fx, ev| {
            fx.state_mut().ticks += 1;
            if ev.get("loud") == Some(&Value::Bool(true)) {
                return Err("too loud".into());
            }
            Ok(())
        })
        .verb("tick", &[Param::flag("loud").optional()], "", |g, args| {
            Ok(g.raise("tick", &[("loud", Value::Bool(args.flag("loud")))])?)
        })
        .rules()
}

fn empty_mods() -> tempfile::TempDir {
    one_mod("m", &[])
}

/// A temporary mods folder with one mod `id` of these files (paths relative to the mod).
fn one_mod(id: &str, files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let m = dir.path().join(id);
    std::fs::create_dir_all(&m).unwrap();
    std::fs::write(
        m.join("mod.toml"),
        format!("id = \"{id}\"\nversion = \"0.1.0\"\n"),
    )
    .unwrap();
    for (path, text) in files {
        let p = m.join(path);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
    dir
}

/// A game of `rules` over one mod of `files`, loaded clean and started with seed 1.
fn started_with(
    rules: &lantern::host::Rules,
    id: &str,
    files: &[(&str, &str)],
) -> (tempfile::TempDir, Game, World) {
    let dir = one_mod(id, files);
    let mut world = load_game(&[dir.path().to_path_buf()], rules, Limits::default());
    assert!(
        !world.has_errors(),
        "{}",
        lantern::diag::render_all(&world.diagnostics, &world.sources)
    );
    let g = world.start(1);
    (dir, g, world)
}

/// The valley copied into a temporary mods folder, played by a game that reloads.
fn live_valley() -> (tempfile::TempDir, lantern::reload::Live) {
    let dir = tempfile::tempdir().unwrap();
    common::fs::copy_dir(&mods().join("valley"), &dir.path().join("valley"));
    let roots = [dir.path().to_path_buf()];
    let (live, notes) =
        lantern::reload::Live::start_game(&roots, &farm::rules(), 1, Limits::default()).unwrap();
    assert!(notes.is_empty(), "{notes:?}");
    (dir, live)
}

#[test]
fn a_rust_handler_that_fails_is_a_problem_and_changes_nothing() {
    let dir = empty_mods();
    let mut world = load_game(
        &[dir.path().to_path_buf()],
        &counter_rules("tick"),
        Limits::default(),
    );
    assert!(!world.has_errors());
    let mut g = world.start(1);
    g.verb("tick", &[]).unwrap();
    assert_eq!(g.host_state::<Counter>().unwrap().ticks, 1);
    g.verb("tick", &[Value::Bool(true)]).unwrap();
    assert_eq!(
        g.host_state::<Counter>().unwrap().ticks,
        1,
        "the failed handler's tick was undone"
    );
    let problems: Vec<String> = g
        .take_problems()
        .iter()
        .map(|d| d.message.clone())
        .collect();
    assert_eq!(
        problems,
        ["the game's handler of `tick` failed: too loud (events: tick)"]
    );
}

#[test]
fn a_games_field_of_lantern_game_reads_its_state_and_fails_at_the_scripts_line() {
    let rules = lantern::host::Vocabulary::new("clock", Counter { ticks: 3 })
        .game_field("ticks", "integer", "Ticks so far.", |q| {
            Ok(serde_json::json!({ "so_far": q.state().ticks, "laps": [1, 2] }))
        })
        .game_field("broken", "integer", "Never there.", |_| {
            Err("the clock has no hands".into())
        })
        .verb("wait", &[], "", |g, _| Ok(g.raise("turn_started", &[])?))
        .rules();
    let dir = one_mod(
        "m",
        &[(
            "scripts/main.lua",
            "lantern.on(\"turn_started\", function()\n  local t = lantern.game.ticks\n  lantern.storage.seen = { t.so_far, t.laps[2], lantern.game.nothing == nil }\n  local b = lantern.game.broken\nend)\n",
        )],
    );
    let mut world = load_game(&[dir.path().to_path_buf()], &rules, Limits::default());
    assert!(!world.has_errors(), "{:?}", world.diagnostics);
    let mut g = world.start(1);
    g.verb("wait", &[]).unwrap();
    let problems = problems(&mut g, &world);
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(
        problems[0].contains("lantern.game.broken: the clock has no hands")
            && problems[0].contains("m/scripts/main.lua:4"),
        "{}",
        problems[0]
    );
    assert_eq!(g.storage()["m"]["seen"], serde_json::json!([3, 2, true]));
    let defs = lantern::lua::defs::generate_for(&rules).unwrap();
    assert!(
        defs.contains("---@field ticks integer Ticks so far."),
        "{defs}"
    );
}

#[test]
fn a_handler_of_no_event_is_an_error_in_the_vocabulary() {
    let dir = empty_mods();
    let world = load_game(
        &[dir.path().to_path_buf()],
        &counter_rules("tik"),
        Limits::default(),
    );
    let errors: Vec<String> = world
        .diagnostics
        .iter()
        .map(|d| d.message.clone())
        .collect();
    assert_eq!(
        errors,
        ["in the game's vocabulary: a handler listens to `tik`, which is no event; did you mean `tick`?"]
    );
}

#[test]
fn the_examples_scripted_week_plays_as_recorded() {
    let text = session::play(&mods()).unwrap();
    common::expect_file(
        &common::root().join("tests/fixtures/host/harvest_session.txt"),
        &text,
    );
}

#[test]
fn a_scripts_call_of_a_game_function_is_checked_and_fails_at_its_line() {
    let (_dir, mut g, world) = valley_with(
        "scripts/main.lua",
        "lantern.on(\"day_started\", function(ev)\n  lantern.storage.wheat = lantern.farm.barn(\"wheat\")\n  lantern.farm.barn(\"whaet\")\nend)\nlantern.on(\"crop_harvested\", function(ev)\n  local _ = lantern.game.player\nend)\n",
    );
    g.verb("plant", &[Value::str("wheat")]).unwrap();
    g.verb("sleep", &[]).unwrap();
    assert_eq!(
        g.storage()["valley"]["wheat"],
        1,
        "a bare crop name is found"
    );
    let problems = problems(&mut g, &world);
    let expected = [
        // The harvest comes first in the night, then the morning.
        (
            "lantern.game.player: the game `farm` has no creatures or inventories; its own functions are `lantern.farm.*`",
            "valley/scripts/main.lua:6",
        ),
        (
            "lantern.farm.barn: there is no crop `whaet`; did you mean `valley:wheat`?",
            "valley/scripts/main.lua:3",
        ),
    ];
    assert_eq!(problems.len(), expected.len(), "{problems:?}");
    for (p, (message, place)) in problems.iter().zip(expected) {
        assert!(p.contains(message) && p.contains(place), "{p}");
    }
}

#[test]
fn every_mistake_in_a_games_vocabulary_is_an_error_when_mods_load() {
    let bad = lantern::host::Vocabulary::new("Farm", Counter::default())
        .action("pay", &[], "", |_, _| Ok(()))
        .rules();
    assert_eq!(
        bad.problems(),
        ["the game's namespace `Farm` must use lowercase letters, digits and `_`"],
        "nothing is declared under a bad namespace"
    );
    let rules = lantern::host::Vocabulary::new("farm", Counter::default())
        .event("turn_started", &[], "")
        .event("ripe", &[("crop", "crop")], "")
        .event("ripe", &[], "")
        .table::<Counter>("items", "item")
        .action("pay", &[], "", |_, _| Ok(()))
        .action("pay", &[], "", |_, _| Ok(()))
        .verb("Go", &[], "", |_, _| Ok(()))
        .check("ripe", &[Param::id("crop", "crp")], "", |_, _| Ok(true))
        .table::<Counter>("crates", "crate")
        .table::<Counter>("crate", "box")
        .refers("crates", "holds", "crp")
        .refers("barns", "holds", "crate")
        .refers("crates", "size", "int")
        .refers("crates", "inside", "crate")
        .refers("crates", "inside", "crate")
        .validate("crates", |_: &String| Vec::new())
        .validate("barns", |_: &Counter| Vec::new())
        .describe("crates", &[("nn", "a count")])
        .game_field("player", "integer", "", |_| Ok(0.into()))
        .game_field("ticks", "integer", "", |_| Ok(0.into()))
        .game_field("ticks", "integer", "", |_| Ok(0.into()))
        .player("farmer")
        .home("Valley")
        .rules();
    let dir = empty_mods();
    let world = load_game(&[dir.path().to_path_buf()], &rules, Limits::default());
    let errors: Vec<String> = world
        .diagnostics
        .iter()
        .filter(|d| d.is_error())
        .map(|d| d.message.clone())
        .collect();
    assert_eq!(
        errors,
        [
            "in the game's vocabulary: the game declares the event `ripe` twice",
            "in the game's vocabulary: the table `items` is one of lantern's own",
            "in the game's vocabulary: the game declares the action `farm:pay` twice",
            "in the game's vocabulary: the game's verb `Go` must be named with lowercase letters, digits and `_`",
            "in the game's vocabulary: `refers` names the table `barns`, which the game does not declare (declare it with `table` first)",
            "in the game's vocabulary: `crates.size` refers to `int`, which is not a kind of ID",
            "in the game's vocabulary: `crates.inside` is declared to refer twice",
            "in the game's vocabulary: the rule `validate` gives `crates` reads `alloc::string::String`, but the table's entries are `harvest::Counter`",
            "in the game's vocabulary: `validate` names the table `barns`, which the game does not declare (declare it with `table` first)",
            "in the game's vocabulary: `describe` gives `crates.nn` a meaning, but `crates` has no key `nn`",
            "in the game's vocabulary: `lantern.game.player` is one of lantern's own fields",
            "in the game's vocabulary: the game declares the field `ticks` twice",
            "in the game's vocabulary: the player's definition `farmer` must be a whole ID (`mod:name`)",
            "in the game's vocabulary: the game's home mod `Valley` must be named with lowercase letters, digits and `_`",
            "in the game's vocabulary: the table `crate` is named as the kind of ID of the table `crates`; give one of them another name",
            "in the game's vocabulary: `crates.holds` refers to `crp`, which is neither a kind of ID lantern knows nor one of the game's tables",
            "in the game's vocabulary: field `crop` of event `ripe` has the type `crop`, which is neither a type nor one of the game's tables",
            "in the game's vocabulary: `crop` of check `farm:ripe` is the ID of a `crp`, which is none of the game's tables",
            "in the game's vocabulary: the event `turn_started` is one of lantern's own",
        ],
        "{errors:#?}"
    );
}

#[test]
fn every_diagnostic_code_is_in_the_embedding_chapter() {
    let chapter = std::fs::read_to_string(common::root().join("docs/embedding.md")).unwrap();
    for code in lantern::diag::Code::ALL {
        let row = format!("| `{}` |", code.as_str());
        assert!(
            chapter.contains(&row),
            "{} is not in docs/embedding.md",
            code.as_str()
        );
    }
}

#[test]
fn the_broken_farms_problems_carry_their_codes() {
    let roots = [
        mods(),
        common::root().join("tests/fixtures/host/broken_farm"),
    ];
    let world = world_over(&roots);
    let codes: Vec<&str> = world.diagnostics.iter().map(|d| d.code.as_str()).collect();
    assert_eq!(
        codes,
        [
            "wrong-type",
            "unknown-key",
            "unknown-table",
            "unknown-reference",
            "missing-key",
            "wrong-type",
            "unknown-key",
            "unknown-reference",
            "unknown-reference",
            "unknown-reference",
            "unknown-reference",
            "unknown-reference",
            "unknown-reference",
            "unknown-table",
            "unknown-reference",
            "invalid-id",
            "unknown-reference",
            "content-rule",
            "content-rule",
            "unknown-reference",
        ]
    );
    let json = lantern::diag::render_json(&world.diagnostics, &world.sources);
    assert_eq!(json[0]["code"], "wrong-type");
}

#[test]
fn a_failed_list_of_the_games_actions_gives_back_its_draws_and_its_changes() {
    let rules = lantern::host::Vocabulary::new("clock", Counter::default())
        .event("tick", &[], "")
        .action("draw", &[], "", |fx, _| {
            let n = fx.between(1, 1000);
            fx.state_mut().ticks += n;
            Ok(())
        })
        .action("fail", &[], "", |_, _| Err("no".into()))
        .verb("tick", &[], "", |g, _| Ok(g.raise("tick", &[])?))
        .rules();
    let dir = empty_mods();
    std::fs::create_dir_all(dir.path().join("m/data")).unwrap();
    std::fs::write(
        dir.path().join("m/data/t.toml"),
        "[[triggers]]\nid = \"both\"\non = \"tick\"\nactions = [ { action = \"clock:draw\" }, { action = \"clock:fail\" } ]\n\n[[triggers]]\nid = \"one\"\non = \"tick\"\nactions = [ { action = \"clock:draw\" } ]\n",
    )
    .unwrap();
    let mut world = load_game(&[dir.path().to_path_buf()], &rules, Limits::default());
    assert!(!world.has_errors(), "{:?}", world.diagnostics);
    let mut g = world.start(1);
    g.verb("tick", &[]).unwrap();
    // `both` drew and failed: undone, its draw included; `one` drew and kept it.
    let kept = g.host_state::<Counter>().unwrap().ticks;
    assert!(kept > 0);
    let streams = g.snapshot().rng;
    assert!(!streams.contains_key("trigger:m:both"), "{streams:?}");
    assert!(streams.contains_key("trigger:m:one"), "{streams:?}");
    assert_eq!(g.take_problems().len(), 1);
}

#[test]
fn a_crops_companions_are_checked_ids_the_game_reads_whole() {
    let (_, world) = started(1);
    let pumpkin = world
        .content
        .entry::<farm::Crop>("crop", &lantern::id::Id::new("valley", "pumpkin"))
        .unwrap();
    assert_eq!(
        pumpkin.companions,
        ["valley:wheat"],
        "the bare `wheat` the mod wrote reaches the game as the full ID"
    );
    // A pumpkin gives one more when wheat grows on another plot the night it is harvested.
    let pumpkins = |wheat_beside: bool| {
        let (mut g, _) = started(1);
        let plant = |g: &mut Game, crop: &str| g.verb("plant", &[Value::str(crop)]).unwrap();
        plant(&mut g, "pumpkin");
        g.verb("sleep", &[]).unwrap();
        if wheat_beside {
            plant(&mut g, "wheat");
        }
        g.verb("sleep", &[]).unwrap();
        g.host_state::<Farm>().unwrap().barn["valley:pumpkin"]
    };
    assert_eq!((pumpkins(false), pumpkins(true)), (1, 2));
}

#[test]
fn a_game_without_creatures_is_told_so_when_it_performs_a_creature_action() {
    let (mut g, _world) = started(1);
    let e = g
        .perform("heal", &[("amount", Value::Int(1))], "test")
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("creature-and-inventory vocabulary, which the game `farm` does not use"),
        "{e}"
    );
}

#[test]
fn a_crops_triggers_listen_while_it_grows_and_after_a_load_and_not_after_a_rollback() {
    let visitors = |g: &mut Game| {
        g.take_messages()
            .iter()
            .filter(|m| m.contains("[valley:pumpkin_visitors]"))
            .count()
    };
    let (mut g, _world) = started(1);
    g.verb("sleep", &[]).unwrap();
    assert_eq!(visitors(&mut g), 0, "nothing grows yet");
    g.verb("plant", &[Value::str("pumpkin")]).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("save.json");
    g.save(&save).unwrap();
    g.verb("sleep", &[]).unwrap();
    assert_eq!(
        visitors(&mut g),
        1,
        "the growing pumpkin's trigger fired in the morning"
    );
    g.verb("sleep", &[]).unwrap();
    assert_eq!(
        visitors(&mut g),
        0,
        "harvested in the night, it listens no more"
    );

    // A save keeps the plot, and the loaded game knows the pumpkin is in play.
    let (mut loaded, _) = world_over(&[mods()]).load_save(&save).unwrap();
    loaded.verb("sleep", &[]).unwrap();
    assert_eq!(visitors(&mut loaded), 1);

    // A list that plants and then fails leaves nothing growing, and nothing listening.
    let (mut g, _world) = started(1);
    let span = lantern::diag::Span::new(lantern::diag::FileId(0), 0..0);
    let custom = |name: &str, args: &[(&str, Value)]| lantern::content::ActionEntry {
        action: lantern::content::Action::Custom {
            id: lantern::id::Id::new("farm", name),
            args: args
                .iter()
                .map(|(k, v)| (k.to_string(), v.clone()))
                .collect(),
        },
        span,
    };
    let list = lantern::content::ActionList {
        actions: vec![
            custom("plant", &[("crop", Value::str("valley:pumpkin"))]),
            custom("pay", &[("amount", Value::Int(1000))]),
        ],
        span,
    };
    let failed = g.turn(|g| Ok(g.apply_list(&list, &lantern::game::Ctx::command("test"))?));
    assert!(failed.is_err());
    assert!(g.host_state::<Farm>().unwrap().plots.is_empty());
    g.verb("sleep", &[]).unwrap();
    assert_eq!(
        visitors(&mut g),
        0,
        "the rolled-back pumpkin does not listen"
    );
}

#[test]
fn an_id_inside_a_table_of_an_entry_is_checked_and_made_whole() {
    #[derive(serde::Deserialize)]
    struct Plain {}
    #[derive(serde::Deserialize)]
    struct Need {
        crop: String,
        amount: i64,
    }
    #[derive(serde::Deserialize)]
    struct Recipe {
        needs: Vec<Need>,
    }
    let rules = lantern::host::Vocabulary::new("kitchen", Counter::default())
        .table::<Plain>("crops", "crop")
        .table::<Recipe>("recipes", "recipe")
        .refers("recipes", "needs.crop", "crop")
        .rules();
    assert!(rules.problems().is_empty(), "{:?}", rules.problems());
    let dir = one_mod("home", &[]);
    let m = dir.path().join("home");
    std::fs::create_dir_all(m.join("data")).unwrap();
    let write = |recipes: &str| {
        std::fs::write(
            m.join("data/kitchen.toml"),
            format!("[[crops]]\nid = \"wheat\"\n\n[[crops]]\nid = \"pumpkin\"\n\n{recipes}"),
        )
        .unwrap();
        load_game(&[dir.path().to_path_buf()], &rules, Limits::default())
    };
    let world = write(
        "[[recipes]]\nid = \"bread\"\nneeds = [ { crop = \"wheat\", amount = 2 }, { crop = \"pumkin\", amount = 1 } ]\n",
    );
    let shown = lantern::diag::render_all(&world.diagnostics, &world.sources);
    assert!(
        shown.contains("error: unknown crop `home:pumkin`")
            && shown.contains("did you mean `home:pumpkin`?")
            && shown.contains("/home/data/kitchen.toml:9:52"),
        "{shown}"
    );
    let world =
        write("[[recipes]]\nid = \"bread\"\nneeds = [ { crop = \"wheat\", amount = 2 } ]\n");
    assert!(!world.has_errors());
    let bread = world
        .content
        .entry::<Recipe>("recipe", &lantern::id::Id::new("home", "bread"))
        .unwrap();
    assert_eq!(
        (bread.needs[0].crop.as_str(), bread.needs[0].amount),
        ("home:wheat", 2)
    );
}

#[test]
fn a_reload_puts_the_new_triggers_of_a_growing_crop_into_play() {
    let (dir, mut live) = live_valley();
    live.game_mut()
        .verb("plant", &[Value::str("pumpkin")])
        .unwrap();
    live.game_mut().take_messages();
    // While it grows, the pumpkin's trigger changes on disk.
    let crops = dir.path().join("valley/data/crops.toml");
    let text = std::fs::read_to_string(&crops).unwrap();
    std::fs::write(
        &crops,
        text.replace("id = \"pumpkin_visitors\"", "id = \"pumpkin_fans\""),
    )
    .unwrap();
    let report = live.reload();
    assert!(report.ok, "{:?}", report.problems.diagnostics());
    live.game_mut().verb("sleep", &[]).unwrap();
    let said = live.game_mut().take_messages();
    assert!(
        said.iter().any(|m| m.contains("[valley:pumpkin_fans]")),
        "the reloaded trigger of the crop in play fired: {said:?}"
    );
    assert!(
        !said.iter().any(|m| m.contains("pumpkin_visitors")),
        "{said:?}"
    );
}

#[test]
fn a_verb_that_fails_gives_back_what_the_scripts_stored_during_it() {
    // The verb raises its event and lets the mods' handlers run, then fails: the handler's write
    // goes with the rest of the verb.
    let rules = lantern::host::Vocabulary::new("shop", Counter::default())
        .event("rang", &[], "The bell rang.")
        .verb("ring", &[Param::flag("fail")], "ring FAIL", |game, args| {
            game.raise("rang", &[])?;
            game.drain();
            if args.get("fail") == Some(&Value::Bool(true)) {
                return Err("the bell cracked".into());
            }
            Ok(())
        })
        .rules();
    let (_dir, mut g, _world) = started_with(
        &rules,
        "bell",
        &[(
            "scripts/main.lua",
            "lantern.on('rang', function() lantern.storage.rings = (lantern.storage.rings or 0) + 1 end)",
        )],
    );
    g.verb("ring", &[Value::Bool(false)]).unwrap();
    assert!(g.verb("ring", &[Value::Bool(true)]).is_err());
    g.verb("ring", &[Value::Bool(false)]).unwrap();
    assert_eq!(
        g.storage()["bell"]["rings"],
        2,
        "the failed verb's ring was given back"
    );
}

#[test]
fn a_script_cannot_perform_the_games_internal_action_but_the_game_can() {
    let (_dir, mut g, _world) = valley_with(
        "scripts/main.lua",
        "lantern.on('day_started', function()\n  local ok, e = pcall(lantern.apply, { action = 'farm:end_day' })\n  lantern.log(tostring(e))\nend)",
    );
    g.verb("sleep", &[]).unwrap();
    let said = g.take_messages();
    assert!(
        said.iter()
            .any(|m| m
                .contains("`farm:end_day` is the game's own action, which only the game performs")),
        "{said:?}"
    );
    assert_eq!(
        g.host_state::<Farm>().unwrap().day,
        2,
        "only the game's own night passed"
    );
    g.perform("end_day", &[], "test").unwrap();
    assert_eq!(g.host_state::<Farm>().unwrap().day, 3);
}

#[test]
fn the_game_performing_a_scripts_action_that_fails_is_told_it_was_reported_at_its_line() {
    let rules = lantern::host::Vocabulary::new("shop", Counter::default()).rules();
    let (_dir, mut g, world) = started_with(
        &rules,
        "bell",
        &[(
            "scripts/main.lua",
            "lantern.register_action('crack', function(ctx, args)\n  error('the bell cracked')\nend)\n",
        )],
    );
    let e = g.perform("bell:crack", &[], "test").unwrap_err();
    assert!(e.is_reported(), "{e:?}");
    assert!(e.to_string().contains("the bell cracked"), "{e}");
    let told = problems(&mut g, &world);
    assert_eq!(told.len(), 1, "one mistake, one message: {told:#?}");
    assert!(
        told[0].contains("bell/scripts/main.lua:2"),
        "at the script's line: {}",
        told[0]
    );
    // A script's action the game names by its ID; one no script registers is refused.
    let e = g.perform("bell:crak", &[], "test").unwrap_err();
    assert!(!e.is_reported(), "{e:?}");
    assert!(
        e.to_string()
            .contains("no script registers the action `bell:crak`; did you mean `bell:crack`?"),
        "{e}"
    );
}

#[test]
fn a_games_table_is_found_by_its_key_or_its_kind_of_id() {
    let (g, _world) = started(1);
    let content = g.content();
    let pumpkin = lantern::id::Id::parse("valley:pumpkin", "valley").unwrap();
    let by_kind = content
        .entry::<farm::Crop>("crop", &pumpkin)
        .map(|c| &c.name);
    let by_key = content
        .entry::<farm::Crop>("crops", &pumpkin)
        .map(|c| &c.name);
    assert!(by_kind.is_some());
    assert_eq!(by_kind, by_key);
    assert_eq!(
        content.table::<farm::Crop>("crops").count(),
        content.table::<farm::Crop>("crop").count()
    );
    assert_eq!(
        content.entry_span("crops", &pumpkin),
        content.entry_span("crop", &pumpkin)
    );
}

/// A game's number parameter is bounded on every path into its code: Harvest's `farm:pay` took
/// `math.mininteger` from a script (`has - amount` overflowed: exit 101). Written in TOML, from
/// `lantern.apply`, or by the game's own `perform`, a number past the parameter's range is an
/// error where it was written, and the farm's code never runs with it.
#[test]
fn a_games_number_parameters_hold_from_lua_too() {
    let (_dir, mut g, world) = valley_with(
        "scripts/main.lua",
        "lantern.on('day_started', function()\n\
           lantern.apply({ action = 'farm:pay', amount = math.mininteger })\n\
         end)\n",
    );
    let before = money(&g);
    g.verb("sleep", &[]).unwrap();
    let p = problems(&mut g, &world);
    assert!(
        p.iter().any(|p| p.contains("`amount` in action `farm:pay` must be between -1000000000 and 1000000000, found -9223372036854775808")
            && p.contains("valley/scripts/main.lua:2")),
        "{p:#?}"
    );
    assert!(
        money(&g) <= before + 1_000,
        "the farm was not paid a fortune"
    );
    let err = g
        .perform("earn", &[("amount", Value::Int(i64::MAX))], "test")
        .unwrap_err()
        .to_string();
    assert_eq!(
        err,
        "`amount` in action `farm:earn` must be between -1000000000 and 1000000000, found 9223372036854775807"
    );
    let broken = one_mod(
        "valley",
        &[("data/pay.toml", "[[triggers]]\non = \"day_started\"\nactions = [ { action = \"farm:pay\", amount = 5000000000 } ]\n")],
    );
    let world = world_over(&[broken.path().to_path_buf()]);
    let text = lantern::diag::render_all(&world.diagnostics, &world.sources);
    assert!(
        text.contains("error: `amount` in action `farm:pay` must be between -1000000000 and 1000000000, found 5000000000\n --> ")
            && text.contains("/valley/data/pay.toml:3:45"),
        "{text}"
    );
}

/// A game names the creature its player is made from and the mod whose IDs a bare name means:
/// the player comes from that mod's definition, and a test's `g:give("coin")` finds `hall:coin`.
#[test]
fn a_games_player_and_home_mod_come_from_its_vocabulary() {
    let rules = lantern::host::Vocabulary::new("arena", ())
        .player("hall:hero")
        .home("hall")
        .rules();
    let files = [
        (
            "data/all.toml",
            "[[items]]\nid = \"coin\"\nname = \"Coin\"\nstack = 10\n\n[[creatures]]\nid = \"hero\"\nname = \"Champion\"\nhealth = 50\n",
        ),
        (
            "tests/home_test.lua",
            "describe(\"home\", function()\n  it(\"gives by a bare name\", function()\n    local g = lantern.test.game{}\n    g:give(\"coin\", 2)\n    expect(g.player:count(\"hall:coin\")).to_be(2)\n  end)\nend)\n",
        ),
    ];
    let (dir, game, _world) = started_with(&rules, "hall", &files);
    let player = &game.state().player;
    assert_eq!((player.def.as_str(), player.health), ("hall:hero", 50));
    let harness = std::sync::Arc::new(lantern::harness::Harness::new(
        dir.path(),
        rules.clone(),
        Limits::default(),
    ));
    let tests = lantern::harness::discover(dir.path());
    let results = lantern::harness::run(&harness, &tests, None);
    assert_eq!(results.len(), 1);
    assert_eq!(
        results[0].status,
        lantern::harness::Status::Passed,
        "{results:?}"
    );
}

/// `harvest play`: the console every game's tools have, its commands Harvest's declared verbs
/// (which take over the console's `play`, `route` and `choose`) beside the console's own; the
/// real example binary, fed commands from a pipe, its whole transcript compared.
#[test]
fn harvest_plays_in_german_to_the_same_hash_as_in_english() {
    let exe = common::harvest_exe();
    let dir = tempfile::tempdir().unwrap();
    common::world::copy_dir(&common::harvest_mods(), &dir.path().join("mods"));
    let play = |lang: &str| {
        let out = common::run_with_input(
            &exe,
            &[
                "play",
                "--no-watch",
                "--mods",
                "mods",
                "--seed",
                "3",
                "--lang",
                lang,
            ],
            dir.path(),
            "plant wheat\nsleep\nsleep\nsleep\nencounter\nhash\nquit\n",
        );
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let (en, de) = (play("en"), play("de"));
    assert!(common::printed_hash(&en).is_some(), "{en}");
    assert_eq!(
        common::printed_hash(&en),
        common::printed_hash(&de),
        "en:\n{en}\nde:\n{de}"
    );
    assert!(en.contains("You plant Wheat."), "{en}");
    assert!(de.contains("Du pflanzt Weizen."), "{de}");
    assert!(de.contains("Der Hof zahlt 2 Münzen."), "{de}");
}

#[test]
fn harvest_play_is_the_console_over_harvests_verbs() {
    let exe = common::harvest_exe();
    let dir = tempfile::tempdir().unwrap();
    common::world::copy_dir(&common::harvest_mods(), &dir.path().join("mods"));
    let out = common::run_with_input(
        &exe,
        &["play", "--no-watch", "--mods", "mods", "--seed", "3"],
        dir.path(),
        "help\nplant wheat\nplant wheet\nsleep\nsleep\nchoose 3\nquests\nencounter\nstatus\nspawn rat\nhash\nquit\n",
    );
    let text = format!(
        "{}--- stderr\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    common::expect_file(
        &common::root().join("tests/fixtures/host/harvest_play.txt"),
        &text,
    );
}
