//! A mod's settings, as a player, a test and a game set them: declared in `mod.toml`, read by
//! scripts (`lantern.settings`) and conditions (`check = "setting"`), kept in saves and the state
//! hash, refused with the closest name when wrong, and reconciled when the mod changes them.

mod common;

use common::world::{problems, turn, TestMods};
use common::{lantern, lantern_with_input};
use lantern::content::SettingValue;

const MANIFEST: &str = r#"id = "test"
version = "1.0.0"
depends = ["core"]

[settings.rat_health]
type = "int"
default = 10
min = 1
max = 100
name = "Rat health"
description = "How much health a rat has"

[settings.hard_mode]
type = "bool"
default = false
scope = "run"

[settings.level]
type = "string"
default = "easy"
choices = ["easy", "hard"]
scope = "player"
"#;

const SCRIPT: &str = r#"
lantern.on("turn_started", function(ev)
  lantern.storage.health = lantern.settings.rat_health
  lantern.storage.hard = lantern.settings.hard_mode
  lantern.storage.level = lantern.settings["test:level"]
end)
"#;

const TRIGGERS: &str = r#"
[[triggers]]
id = "hard_gold"
on = "turn_started"
condition = [ { check = "setting", setting = "hard_mode" }, { check = "setting", setting = "rat_health", at_least = 50 } ]
actions = [ { action = "give_item", item = "core:gold", count = 1 } ]
"#;

fn mods() -> TestMods {
    TestMods::new(&[
        ("mod.toml", MANIFEST),
        ("scripts/main.lua", SCRIPT),
        ("data/triggers.toml", TRIGGERS),
    ])
}

fn stored(g: &lantern::game::Game, key: &str) -> serde_json::Value {
    g.storage()["test"][key].clone()
}

#[test]
fn scripts_and_conditions_read_what_a_player_chose() {
    let m = mods();
    let (mut g, _world) = m.game(1);
    let gold = |g: &lantern::game::Game| {
        g.state()
            .player
            .count(&lantern::id::Id::new("core", "gold"))
    };
    let before = gold(&g);
    g.set_setting("test:rat_health", SettingValue::Int(60))
        .unwrap();
    g.set_setting_text("hard_mode", "true").unwrap();
    g.set_setting("test:level", SettingValue::Text("hard".into()))
        .unwrap();
    turn(&mut g);
    assert_eq!(stored(&g, "health"), 60);
    assert_eq!(stored(&g, "hard"), true);
    assert_eq!(stored(&g, "level"), "hard");
    assert_eq!(gold(&g), before + 1, "the trigger's conditions hold");
    // A run setting changes during play; the condition follows it.
    g.set_setting("hard_mode", SettingValue::Bool(false))
        .unwrap();
    turn(&mut g);
    assert_eq!(stored(&g, "hard"), false);
    assert_eq!(gold(&g), before + 1);
}

#[test]
fn the_menu_lists_every_setting_with_its_range_and_name() {
    let m = mods();
    let (g, _world) = m.game(1);
    let listed: Vec<String> = g
        .settings()
        .map(|(s, v)| {
            format!(
                "{} = {v} ({}, {}, {}, {})",
                s.id,
                s.name,
                s.kind.type_name(),
                s.kind.range(),
                s.scope.name()
            )
        })
        .collect();
    assert_eq!(
        listed,
        [
            "test:rat_health = 10 (Rat health, int, 1 to 100, startup)",
            "test:hard_mode = false (hard_mode, bool, true or false, run)",
            "test:level = easy (level, string, easy, hard, player)",
        ]
    );
}

#[test]
fn wrong_values_are_refused_with_what_is_wrong() {
    let m = mods();
    let (mut g, _world) = m.game(1);
    let refused = |r: Result<(), lantern::Error>| r.unwrap_err().message().to_string();
    assert_eq!(
        refused(g.set_setting_text("test:rat_helth", "20")),
        "there is no setting `test:rat_helth`; did you mean `test:rat_health`?"
    );
    assert_eq!(
        refused(g.set_setting_text("rat_health", "200")),
        "`test:rat_health` must be 1 to 100"
    );
    assert_eq!(
        refused(g.set_setting("test:level", SettingValue::Text("hrad".into()))),
        "`test:level` must be one of easy, hard, found `hrad` (did you mean `hard`?)"
    );
    assert_eq!(
        refused(g.set_setting("test:hard_mode", SettingValue::Int(1))),
        "`test:hard_mode` must be true or false, found an integer"
    );
    turn(&mut g);
    assert_eq!(
        refused(g.set_setting_text("test:rat_health", "20")),
        "`test:rat_health` is a startup setting, fixed for a run: start a new game with it (`--set test:rat_health=20`)"
    );
    assert_eq!(g.setting("test:rat_health"), Some(&SettingValue::Int(10)));
}

#[test]
fn settings_are_in_the_state_hash_and_the_save() {
    let m = mods();
    let (mut a, _w) = m.game(1);
    let (mut b, _w2) = m.game(1);
    b.set_setting_text("test:rat_health", "20").unwrap();
    assert_ne!(a.state_hash(), b.state_hash());
    a.set_setting_text("test:rat_health", "20").unwrap();
    assert_eq!(a.state_hash(), b.state_hash());
    turn(&mut b);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("run.json");
    b.save(&path).unwrap();
    let mut world = m.world(Default::default());
    let (loaded, notes) = world.load_save(&path).unwrap();
    assert!(notes.is_empty(), "{notes:?}");
    assert_eq!(
        loaded.setting("test:rat_health"),
        Some(&SettingValue::Int(20))
    );
    assert_eq!(loaded.state_hash(), b.state_hash());
}

#[test]
fn a_save_with_a_value_the_updated_mod_no_longer_takes_is_brought_back_to_its_default() {
    let m = mods();
    let (mut g, _w) = m.game(1);
    g.set_setting_text("test:rat_health", "80").unwrap();
    g.set_setting_text("test:level", "hard").unwrap();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("run.json");
    g.save(&path).unwrap();
    // The mod's next version takes at most 50 and has no `level` any more.
    let manifest = MANIFEST
        .replace("max = 100", "max = 50")
        .replace("[settings.level]", "[settings.tone]");
    std::fs::write(m.path().join("test/mod.toml"), manifest).unwrap();
    let mut world = m.world(Default::default());
    let (loaded, notes) = world.load_save(&path).unwrap();
    let notes: Vec<&str> = notes.iter().map(|n| n.message.as_str()).collect();
    assert_eq!(
        notes,
        [
            "setting `test:level` is no longer declared; its value hard is dropped",
            "setting `test:rat_health` was 80, which it no longer takes (it must be 1 to 50): it is back to its default, 10",
        ]
    );
    assert_eq!(
        loaded.setting("test:rat_health"),
        Some(&SettingValue::Int(10))
    );
    assert_eq!(
        loaded.setting("test:tone"),
        Some(&SettingValue::Text("easy".into()))
    );
}

#[test]
fn a_script_reads_settings_while_the_game_runs_and_only_of_mods_it_depends_on() {
    let m = TestMods::new(&[
        ("mod.toml", MANIFEST),
        (
            "scripts/main.lua",
            "local hp = lantern.settings.rat_health\n",
        ),
    ]);
    let world = m.world(Default::default());
    let rendered = lantern::diag::render_all(&world.diagnostics, &world.sources);
    assert!(
        rendered.contains("test/scripts/main.lua:1")
            && rendered.contains("lantern.settings.rat_health: settings are read while the game runs (in a handler, action or check); while main.lua loads no game has chosen them yet"),
        "{rendered}"
    );
    // A second mod reading `test`'s setting without depending on it.
    let m = mods();
    let other = m.path().join("other");
    std::fs::create_dir_all(other.join("scripts")).unwrap();
    std::fs::write(
        other.join("mod.toml"),
        "id = \"other\"\nversion = \"1.0.0\"\ndepends = [\"core\"]\n",
    )
    .unwrap();
    std::fs::write(
        other.join("scripts/main.lua"),
        "lantern.on(\"turn_started\", function() lantern.storage.x = lantern.settings[\"test:rat_health\"] end)\n\
         lantern.on(\"turn_started\", function() lantern.storage.y = lantern.settings.speed end)\n",
    )
    .unwrap();
    let (mut g, world) = m.game(1);
    turn(&mut g);
    let said = problems(&mut g, &world).join("\n");
    assert!(
        said.contains("lantern.settings[\"test:rat_health\"]: `other` reads a setting of `test` but does not depend on it; add `test` to `depends` (or `optional`) in its mod.toml")
            && said.contains("other/scripts/main.lua:1"),
        "{said}"
    );
    assert!(
        said.contains("lantern.settings: there is no setting `other:speed`; `other` declares no settings (a setting is a `[settings.speed]` table in its mod.toml)"),
        "{said}"
    );
}

#[test]
fn a_player_sets_them_on_the_command_line_and_in_the_console() {
    let m = mods();
    let dir = m.path();
    let out = lantern_with_input(
        &[
            "play",
            "--mods",
            ".",
            "--no-watch",
            "--set",
            "test:rat_health=60",
        ],
        &dir,
        "settings\nset hard_mode true\nset rat_health 5\nset level medium\n",
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    for line in [
        "  test:rat_health = 60    Rat health (int, 1 to 100; startup: fixed for a run)",
        "      How much health a rat has",
        "  test:hard_mode = false    hard_mode (bool, true or false; run)",
        "  test:level = easy    level (string, easy, hard; player)",
        "test:hard_mode = true",
        "error: `test:level` must be one of easy, hard, found `medium`",
    ] {
        assert!(stdout.contains(line), "{line}\n--- in\n{stdout}");
    }
    // A startup setting is changed before the first turn only: `set` is a command, not a turn.
    assert!(stdout.contains("test:rat_health = 5"), "{stdout}");
    let out = lantern(
        &["play", "--mods", ".", "--no-watch", "--set", "rat_health=0"],
        &dir,
    );
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "error: --set rat_health=0: `test:rat_health` must be 1 to 100\n"
    );
    let out = lantern(&["play", "--mods", ".", "--set", "rat_health"], &dir);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr)
        .starts_with("error: `--set rat_health` needs a setting and a value"));
}

#[test]
fn a_test_game_takes_settings_from_the_test_and_from_the_command_line() {
    let m = TestMods::new(&[
        ("mod.toml", MANIFEST),
        ("scripts/main.lua", SCRIPT),
        ("data/triggers.toml", TRIGGERS),
        (
            "tests/settings_test.lua",
            r#"describe("settings", function()
  it("start as the test says", function()
    local g = lantern.test.game{ settings = { ["test:rat_health"] = 60, ["test:hard_mode"] = true } }
    expect(g:setting("test:rat_health")).to_be(60)
    local gold = g.player:count("core:gold")
    g:emit("turn_started", {})
    expect(g:storage("test").health).to_be(60)
    expect(g.player:count("core:gold")).to_be(gold + 1)
    g:set_setting("test:hard_mode", false)
    expect(g:setting("hard_mode")).to_be(false)
  end)
  it("start as the command line says", function()
    local g = lantern.test.game{}
    expect(g:setting("test:rat_health")).to_be(RUN_HEALTH)
  end)
  it("refuse a wrong one at the test's line", function()
    lantern.test.game{ settings = { ["test:rat_health"] = "lots" } }
  end)
end)
"#,
        ),
    ]);
    let file = m.path().join("test/tests/settings_test.lua");
    let text = std::fs::read_to_string(&file).unwrap();
    std::fs::write(&file, text.replace("RUN_HEALTH", "30")).unwrap();
    let out = lantern(
        &["test", "--mods", ".", "--set", "test:rat_health=30", "test"],
        &m.path(),
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("2 passed, 1 failed"), "{stdout}");
    assert!(
        stdout.contains("lantern.test.game: `test:rat_health` must be an integer, found a text"),
        "{stdout}"
    );
    let out = lantern(
        &["test", "--mods", ".", "--set", "test:rat_helth=30"],
        &m.path(),
    );
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "error: --set: there is no setting `test:rat_helth`; did you mean `test:rat_health`?\n"
    );
}

#[test]
fn a_startup_setting_changed_over_a_saved_run_is_said() {
    let m = mods();
    let dir = m.path();
    let out = lantern_with_input(
        &[
            "play",
            "--mods",
            ".",
            "--no-watch",
            "--set",
            "rat_health=20",
        ],
        &dir,
        "emit turn_started\nsave run.json\n",
    );
    assert!(out.status.success(), "{out:?}");
    let out = lantern_with_input(
        &[
            "play",
            "--mods",
            ".",
            "--no-watch",
            "--load",
            "run.json",
            "--set",
            "rat_health=30",
        ],
        &dir,
        "settings\n",
    );
    let said =
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    assert!(
        said.contains("startup setting `test:rat_health` was 20 in this run and is 30 from now on"),
        "{said}"
    );
    assert!(said.contains("  test:rat_health = 30 "), "{said}");
}

const DATA_MANIFEST: &str = r#"id = "test"
version = "1.0.0"
depends = ["core"]

[settings.rat_health]
type = "int"
default = 10
min = 1
max = 100

[settings.bounty]
type = "float"
default = 2.0
min = 0.5
"#;

const DATA: &str = r#"
[[creatures]]
id = "sewer_rat"
name = "Sewer Rat"
health = { setting = "rat_health" }
attributes = { attack = { setting = "test:rat_health" } }

[[triggers]]
id = "pay"
on = "creature_died"
actions = [ { action = "give_item", item = "core:gold", count = { setting = "rat_health" } } ]
"#;

fn data_mods() -> TestMods {
    TestMods::new(&[("mod.toml", DATA_MANIFEST), ("data/rats.toml", DATA)])
}

#[test]
fn data_reads_a_startup_setting_where_it_writes_a_number() {
    let m = data_mods();
    let rat = lantern::id::Id::new("test", "sewer_rat");
    let world = m.world(Default::default());
    assert!(world.diagnostics.is_empty(), "{:?}", world.diagnostics);
    assert_eq!(world.content.creatures.get(&rat).unwrap().health, 10);
    let roots = [m.path()];
    let rules = lantern::roguelike::rules();
    let chosen = [("rat_health".to_string(), "20".to_string())];
    let mut world = lantern::load::load_game_with(&roots, &rules, Default::default(), &chosen);
    assert!(world.diagnostics.is_empty(), "{:?}", world.diagnostics);
    assert_eq!(world.content.creatures.get(&rat).unwrap().health, 20);
    let mut g = world.start(1);
    assert_eq!(g.setting("test:rat_health"), Some(&SettingValue::Int(20)));
    // What the data read is fixed with it: another value is a load of the mods with it.
    assert_eq!(
        g.set_setting_text("rat_health", "30").unwrap_err().message(),
        "`test:rat_health` is read by the mods' data, which was read with 20: choose it when the mods load (`--set test:rat_health=30`)"
    );
    // A setting the data does not read changes as before.
    g.set_setting_text("bounty", "3").unwrap();
    // A save played with 20 loaded over mods read with 10 says so, and plays with 10.
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("run.json");
    g.save(&save).unwrap();
    let (loaded, notes) = m.world(Default::default()).load_save(&save).unwrap();
    assert_eq!(
        notes[0].message,
        "setting `test:rat_health` was 20, but the mods' data was read with 10, which it is now: load the mods with `--set test:rat_health=20` to keep 20"
    );
    assert_eq!(
        loaded.setting("test:rat_health"),
        Some(&SettingValue::Int(10))
    );
}

#[test]
fn a_test_game_and_the_command_line_read_the_data_with_their_settings() {
    let m = data_mods();
    std::fs::create_dir_all(m.path().join("test/tests")).unwrap();
    std::fs::write(
        m.path().join("test/tests/rats_test.lua"),
        r#"it("reads the data with the test's setting", function()
  local g = lantern.test.game{ settings = { ["test:rat_health"] = 30 } }
  expect(g:spawn("test:sewer_rat").health).to_be(30)
  local plain = lantern.test.game{}
  expect(plain:spawn("test:sewer_rat").health).to_be(RUN)
end)
"#,
    )
    .unwrap();
    let file = m.path().join("test/tests/rats_test.lua");
    let text = std::fs::read_to_string(&file).unwrap();
    std::fs::write(&file, text.replace("RUN)", "25)")).unwrap();
    let out = lantern(
        &["test", "--mods", ".", "--set", "rat_health=25", "test"],
        &m.path(),
    );
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && said.contains("1 passed, 0 failed"),
        "{said}"
    );
    // The console: `play --set` reads the data with it.
    let out = lantern_with_input(
        &[
            "play",
            "--mods",
            ".",
            "--no-watch",
            "--set",
            "test:rat_health=40",
        ],
        &m.path(),
        "spawn test:sewer_rat\nsettings\n",
    );
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(said.contains("  test:rat_health = 40 "), "{said}");
    let out = lantern(
        &["sim", "hazard", "x", "--mods", ".", "--set", "rat_helth=1"],
        &m.path(),
    );
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "error: --set rat_helth=1: there is no setting `rat_helth`; did you mean `test:rat_health`?\n"
    );
}
