//! `lantern test` on a fixture with passing, failing, erroring, looping and skipped tests: the whole
//! output and the exit code, in each format; and the bundled mods' tests give the same results twice.

mod common;

use common::{expect_file, lantern, root};

fn run(format: &str) -> String {
    let dir = root().join("tests/fixtures/harness");
    let out = lantern(&["test", "--mods", "mods", "--format", format], &dir);
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    // Durations are the one thing that differs between runs.
    let text = text
        .split("time=\"")
        .enumerate()
        .map(|(i, part)| {
            if i == 0 {
                part.to_string()
            } else {
                format!("time=\"T{}", &part[part.find('"').unwrap_or(0)..])
            }
        })
        .collect::<String>();
    format!("exit: {}\n{}", out.status.code().unwrap_or(-1), text)
}

#[test]
fn pretty_output_and_exit_code() {
    expect_file(
        &root().join("tests/fixtures/harness/expected_pretty.txt"),
        &run("pretty"),
    );
}

#[test]
fn tap_output() {
    expect_file(
        &root().join("tests/fixtures/harness/expected_tap.txt"),
        &run("tap"),
    );
}

#[test]
fn junit_output() {
    expect_file(
        &root().join("tests/fixtures/harness/expected_junit.xml"),
        &run("junit"),
    );
}

#[test]
fn a_filter_selects_tests_by_name() {
    let dir = root().join("tests/fixtures/harness");
    let out = lantern(&["test", "--mods", "mods", "compares"], &dir);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.ends_with("\n2 passed, 0 failed\n"), "{text}");
    assert!(out.status.success());
}

#[test]
fn two_runs_give_the_same_results_and_event_logs() {
    let shipped = common::shipped_mods();
    let first = lantern(&["test", "--format", "tap"], shipped.path());
    let second = lantern(&["test", "--format", "tap"], shipped.path());
    assert!(
        first.status.success(),
        "{}",
        String::from_utf8_lossy(&first.stdout)
    );
    assert_eq!(first.stdout, second.stdout);
}

#[test]
fn new_scaffolds_a_mod_whose_test_passes() {
    let dir = tempfile::tempdir().unwrap();
    common::world::copy_dir(&root().join("mods/core"), &dir.path().join("mods/core"));
    let out = lantern(&["new", "rats"], dir.path());
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let check = lantern(&["check"], dir.path());
    assert_eq!(
        String::from_utf8_lossy(&check.stdout),
        "0 errors, 0 warnings in 2 mods\n"
    );
    let test = lantern(&["test", "rats"], dir.path());
    let text = String::from_utf8_lossy(&test.stdout);
    assert!(text.ends_with("\n2 passed, 0 failed\n"), "{text}");
    // The editor's setup comes with it, and `check` and `test` above read past it.
    let m = dir.path().join("mods/rats");
    let luarc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(m.join(".luarc.json")).unwrap()).unwrap();
    assert_eq!(luarc["runtime.version"], "Lua 5.4");
    assert_eq!(luarc["workspace.library"][0], ".lantern");
    let taplo: toml::Table =
        toml::from_str(&std::fs::read_to_string(m.join(".taplo.toml")).unwrap()).unwrap();
    let rules = taplo["rule"].as_array().unwrap();
    for rule in rules {
        let schema = rule["schema"]["path"].as_str().unwrap();
        assert!(m.join(schema).is_file(), "{schema}");
    }
    assert_eq!(rules[0]["include"][0].as_str(), Some("data/**/*.toml"));
    let defs = std::fs::read_to_string(m.join(".lantern/lantern.d.lua")).unwrap();
    assert!(defs.starts_with("---@meta"), "{defs}");
    let tests = std::fs::read_to_string(m.join(".lantern/lantern-test.d.lua")).unwrap();
    assert!(
        tests.contains("function describe(name, body) end"),
        "{tests}"
    );
    let again = lantern(&["new", "rats"], dir.path());
    assert_eq!(again.status.code(), Some(1));
    let bad = lantern(&["new", "Bad-Name"], dir.path());
    assert_eq!(bad.status.code(), Some(2));
}

#[test]
fn two_runs_record_the_same_event_logs() {
    use lantern::harness::{self, Harness};
    let dir = tempfile::tempdir().unwrap();
    common::world::copy_dir(&root().join("mods/core"), &dir.path().join("core"));
    std::fs::create_dir_all(dir.path().join("core/tests")).unwrap();
    std::fs::write(
        dir.path().join("core/tests/log_test.lua"),
        "it('logs', function()\n  local g = lantern.test.game{ seed = 4 }\n  for _ = 1, 3 do pcall(function() g:next() end) while #g:enemies() > 0 do g:attack() end end\n  for _, e in ipairs(g:events()) do lantern.log(e.name, e.source, e.target or '-') end\nend)\n",
    )
    .unwrap();
    let run = || {
        let h = std::sync::Arc::new(Harness::new(
            dir.path(),
            lantern::roguelike::rules(),
            lantern::lua::Limits::default(),
        ));
        let files = harness::discover(dir.path());
        harness::run(&h, &files, Some("log_test"))
    };
    let (a, b) = (run(), run());
    assert_eq!(a.len(), 1);
    assert_eq!(a[0].status, harness::Status::Passed);
    assert!(a[0].output.len() > 10, "{:?}", a[0].output);
    assert_eq!(a[0].output, b[0].output);
}

#[test]
fn a_misspelt_id_or_a_missing_enemy_fails_at_the_test_line() {
    let dir = tempfile::tempdir().unwrap();
    common::world::copy_dir(&root().join("mods/core"), &dir.path().join("core"));
    std::fs::write(
        dir.path().join("core/tests/typo_test.lua"),
        r#"describe("typos", function()
  it("gives", function()
    local g = lantern.test.game{}
    g:give("core:glod", 3)
  end)
  it("counts", function()
    local g = lantern.test.game{}
    expect(g.player:count("core:potoin")).to_be(0)
  end)
  it("starts", function()
    local g = lantern.test.game{}
    g:start("core:rattenplag")
  end)
  it("emits at nobody", function()
    local g = lantern.test.game{}
    g:emit("creature_died", { target = 9 })
  end)
  it("emits a misspelt field", function()
    local g = lantern.test.game{}
    g:emit("damage_taken", { amout = 2 })
  end)
  it("reads an attribute", function()
    local g = lantern.test.game{}
    expect(g.player:attribute("max_helth")).to_be(0)
  end)
end)
"#,
    )
    .unwrap();
    let out = lantern(&["test", "--mods", ".", "typo_test"], dir.path());
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    for expected in [
        "at core/tests/typo_test.lua:4\n  there is no item `core:glod`; did you mean `core:gold`?",
        "at core/tests/typo_test.lua:8\n  there is no item `core:potoin`; did you mean `core:potion`?",
        "at core/tests/typo_test.lua:12\n  there is no quest `core:rattenplag`; did you mean `core:rattenplage`?",
        "at core/tests/typo_test.lua:16\n  there is no enemy 9",
        "at core/tests/typo_test.lua:20\n  event `damage_taken` has no payload field `amout`; did you mean `amount`?",
        "at core/tests/typo_test.lua:24\n  there is no attribute `max_helth`; did you mean `max_health`?",
        "0 passed, 6 failed",
    ] {
        assert!(text.contains(expected), "missing {expected:?} in:\n{text}");
    }
}

/// A bare ID in a mod's own test is that mod's, as in its data and scripts; another mod's is
/// written with its namespace, and leaving it out says which one was meant.
#[test]
fn a_bare_id_in_a_mods_test_is_that_mods() {
    let dir = tempfile::tempdir().unwrap();
    common::world::copy_dir(&root().join("mods/core"), &dir.path().join("core"));
    let m = dir.path().join("dairy");
    std::fs::create_dir_all(m.join("data")).unwrap();
    std::fs::create_dir_all(m.join("tests")).unwrap();
    std::fs::write(
        m.join("mod.toml"),
        "id = \"dairy\"\nversion = \"0.1.0\"\ndepends = [\"core\"]\n",
    )
    .unwrap();
    std::fs::write(
        m.join("data/items.toml"),
        "[[items]]\nid = \"wheel\"\nname = \"Wheel of cheese\"\nstack = 10\n",
    )
    .unwrap();
    std::fs::write(
        m.join("tests/own_test.lua"),
        r#"describe("bare IDs", function()
  it("are the mod's own", function()
    local g = lantern.test.game{}
    g:give("wheel", 2)
    g:apply{ action = "give_item", item = "wheel" }
    expect(g.player:count("wheel")).to_be(3)
    expect(g.player:count("dairy:wheel")).to_be(3)
    g:give("core:gold", 1)
    expect(g.player:count("core:gold")).to_be(121)
  end)
  it("do not reach another mod's", function()
    local g = lantern.test.game{}
    g:give("gold", 1)
  end)
end)
"#,
    )
    .unwrap();
    let out = lantern(&["test", "--mods", ".", "bare IDs"], dir.path());
    let text = String::from_utf8_lossy(&out.stdout);
    for expected in [
        "ok   bare IDs > are the mod's own",
        "at dairy/tests/own_test.lua:13\n  there is no item `dairy:gold`; did you mean `core:gold`?",
        "1 passed, 1 failed",
    ] {
        assert!(text.contains(expected), "missing {expected:?} in:\n{text}");
    }
}

/// `lantern test` over a fixture, its whole output (stdout, then stderr) and exit code.
fn transcript(fixture: &str, args: &[&str]) -> String {
    let dir = root().join("tests/fixtures").join(fixture);
    let mut all = vec!["test", "--mods", "mods"];
    all.extend_from_slice(args);
    let out = lantern(&all, &dir);
    format!(
        "exit: {}\n--- stdout\n{}--- stderr\n{}",
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// Every harness misuse is an error at the test's own line, with what was meant; a script's action
/// and an `emit_event` with a payload work from `g:apply` as from a handler; a problem in a data
/// file renders at its line.
#[test]
fn harness_misuse_is_located_and_suggested() {
    expect_file(
        &root().join("tests/fixtures/harness_misuse/expected.txt"),
        &transcript("harness_misuse", &[]),
    );
}

/// A mod set that does not load: its diagnostics once, first, and each test fails with one line.
#[test]
fn a_broken_mod_set_is_reported_once_per_run() {
    expect_file(
        &root().join("tests/fixtures/harness_broken/expected.txt"),
        &transcript("harness_broken", &[]),
    );
}

/// A filter that matches no test is an error, not a pass.
#[test]
fn a_filter_that_matches_nothing_fails() {
    let text = transcript("harness_broken", &["bda"]);
    assert!(text.starts_with("exit: 5\n"), "{text}");
    assert!(
        text.contains("error: no test matches `bda`; did you mean `bad`?"),
        "{text}"
    );
}

/// The game's mods and the player's in folders of their own: `--mods` given twice. `lantern new`
/// writes into the last one a mod whose test passes there, and check, test and play see both.
#[test]
fn the_players_mods_live_in_a_folder_of_their_own() {
    let dir = tempfile::tempdir().unwrap();
    common::world::copy_dir(&root().join("mods/core"), &dir.path().join("game/core"));
    std::fs::create_dir_all(dir.path().join("mine")).unwrap();
    let two = ["--mods", "game", "--mods", "mine"];
    let args = |cmd: &[&str]| -> Vec<String> {
        let mut v: Vec<String> = cmd.iter().map(|s| s.to_string()).collect();
        v.splice(1..1, two.iter().map(|s| s.to_string()));
        v
    };
    let run = |cmd: &[&str]| {
        let a = args(cmd);
        lantern(
            &a.iter().map(String::as_str).collect::<Vec<_>>(),
            dir.path(),
        )
    };
    let new = run(&["new", "rats"]);
    assert!(
        new.status.success(),
        "{}",
        String::from_utf8_lossy(&new.stderr)
    );
    assert!(dir.path().join("mine/rats/mod.toml").is_file());
    assert!(!dir.path().join("game/rats").exists());
    let check = run(&["check"]);
    assert_eq!(
        String::from_utf8_lossy(&check.stdout),
        "0 errors, 0 warnings in 2 mods\n"
    );
    let test = run(&["test", "rats"]);
    let text = String::from_utf8_lossy(&test.stdout);
    assert!(text.ends_with("\n2 passed, 0 failed\n"), "{text}");
    let play = common::lantern_with_input(
        &args(&["play", "--no-watch"])
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>(),
        dir.path(),
        "next\nquests\n",
    );
    let text = String::from_utf8_lossy(&play.stdout);
    assert!(text.contains("lantern: 2 mods loaded"), "{text}");
    assert!(text.contains("First Hunt (rats:first_hunt)"), "{text}");
    // Only the player's folder: the note says what to add, and the tests say core is missing.
    let alone = lantern(&["test", "--mods", "mine", "rats"], dir.path());
    let text = String::from_utf8_lossy(&alone.stdout);
    assert_eq!(alone.status.code(), Some(1));
    assert!(text.contains("there is no mod `core` in `mine`"), "{text}");
}

#[test]
fn each_test_game_has_its_own_messages() {
    let dir = tempfile::tempdir().unwrap();
    common::world::copy_dir(&root().join("mods/core"), &dir.path().join("core"));
    std::fs::write(
        dir.path().join("core/tests/two_games_test.lua"),
        r#"describe("two games", function()
  it("say their own lines", function()
    local first = lantern.test.game{}
    first:give("core:gold", 5)
    local second = lantern.test.game{}
    second:give("core:potion", 1)
    expect(first:messages()).to_equal({ "You receive 5 Gold." })
    expect(second:messages()).to_equal({ "You receive 1 Healing Potion." })
  end)
end)
"#,
    )
    .unwrap();
    let out = lantern(&["test", "--mods", ".", "two_games"], dir.path());
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(text.contains("1 passed, 0 failed"), "{text}");
}
