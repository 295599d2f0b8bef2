//! A mod updated under a saved game: the save made with 0.1.0 loads under 0.2.0 with the items
//! the mod renamed in place and its `on_update` hook's one line, to the hash a fresh run of 0.2.0
//! reaches with the same steps; a save newer than the installed mod is refused, a mod removed
//! from under a save is said with what it left, and a mod made for other versions of the game is
//! an error at its manifest.

mod common;

use common::world::{turn, TestMods};
use common::{lantern, root};
use lantern::game::Game;
use lantern::id::Id;

const V1_MANIFEST: &str = "id = \"test\"\nversion = \"0.1.0\"\ndepends = [\"core\"]\n";
const V1_DATA: &str = "[[items]]\nid = \"old_sword\"\nname = \"Old Sword\"\n";
const V1_SCRIPT: &str = r#"
lantern.storage.favorite = "test:old_sword"
lantern.on("turn_started", function()
  lantern.storage.turns = (lantern.storage.turns or 0) + 1
end)
"#;

const V2_MANIFEST: &str = r#"id = "test"
version = "0.2.0"
depends = ["core"]
ids_in_storage = ["favorite"]

[renames]
old_sword = "blade"
"#;
const V2_DATA: &str = "[[items]]\nid = \"blade\"\nname = \"Blade\"\n";
/// 0.2.0 keeps its count in a table: its update hook moves 0.1.0's number there.
const V2_SCRIPT: &str = r#"
lantern.storage.favorite = "test:blade"
lantern.on_update(function(from, to)
  if from == "0.1.0" then
    lantern.storage.turns = { count = lantern.storage.turns }
  end
end)
lantern.on("turn_started", function()
  lantern.storage.turns = lantern.storage.turns or { count = 0 }
  lantern.storage.turns.count = lantern.storage.turns.count + 1
end)
"#;

fn version(m: &TestMods, manifest: &str, data: &str, script: &str) {
    let dir = m.path().join("test");
    std::fs::write(dir.join("mod.toml"), manifest).unwrap();
    std::fs::write(dir.join("data/items.toml"), data).unwrap();
    std::fs::write(dir.join("scripts/main.lua"), script).unwrap();
}

fn first_version() -> TestMods {
    TestMods::new(&[
        ("mod.toml", V1_MANIFEST),
        ("data/items.toml", V1_DATA),
        ("scripts/main.lua", V1_SCRIPT),
    ])
}

/// The steps both runs take: a sword, then two turns.
fn play(g: &mut Game, sword: &str) {
    let item = lantern::content::Value::str(&format!("test:{sword}"));
    g.perform("give_item", &[("item", item)], "give").unwrap();
    turn(g);
    turn(g);
}

#[test]
fn a_save_of_the_old_version_loads_renamed_and_migrated_to_a_fresh_runs_hash() {
    let m = first_version();
    let (mut old, _world) = m.game(5);
    play(&mut old, "old_sword");
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("run.json");
    old.save(&save).unwrap();

    version(&m, V2_MANIFEST, V2_DATA, V2_SCRIPT);
    let mut world = m.world(Default::default());
    assert!(!world.has_errors(), "{:?}", world.diagnostics);
    let (loaded, notes) = world.load_save(&save).unwrap();
    let notes: Vec<String> = notes.iter().map(|n| n.message.clone()).collect();
    assert_eq!(
        notes,
        [
            "the save used mod `test` 0.1.0; 0.2.0 is loaded",
            "`test:old_sword` is `test:blade` since mod `test` 0.2.0: 2 in the save renamed",
            "mod `test` updated from 0.1.0 to 0.2.0: its on_update changed `turns` in its storage",
        ]
    );
    assert_eq!(loaded.state().player.count(&Id::new("test", "blade")), 1);
    assert_eq!(loaded.storage()["test"]["turns"]["count"], 2);
    assert_eq!(loaded.storage()["test"]["favorite"], "test:blade");

    let (mut fresh, _w) = m.game(5);
    play(&mut fresh, "blade");
    assert_eq!(loaded.state_hash(), fresh.state_hash());
}

#[test]
fn a_save_newer_than_the_installed_mod_is_refused_naming_both_versions() {
    let m = first_version();
    version(&m, V2_MANIFEST, V2_DATA, V2_SCRIPT);
    let (mut g, _world) = m.game(1);
    turn(&mut g);
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("run.json");
    g.save(&save).unwrap();
    version(&m, V1_MANIFEST, V1_DATA, V1_SCRIPT);
    let mut world = m.world(Default::default());
    let refused = world.load_save(&save).err().expect("refused");
    assert_eq!(
        refused.message(),
        format!(
            "`{}` cannot be loaded: it was saved with mod `test` 0.2.0, newer than the installed 0.1.0: install `test` 0.2.0 or later to load it",
            save.display()
        )
    );
}

#[test]
fn a_mod_removed_from_under_a_save_is_said_with_what_it_left() {
    let m = first_version();
    let (mut g, _world) = m.game(1);
    play(&mut g, "old_sword");
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("run.json");
    g.save(&save).unwrap();
    std::fs::remove_dir_all(m.path().join("test")).unwrap();
    let mut world = m.world(Default::default());
    let (loaded, notes) = world.load_save(&save).unwrap();
    assert_eq!(
        notes[0].message,
        "the save used mod `test` 0.1.0, which is not loaded: its 1 item is set aside until it returns, and its storage is kept"
    );
    assert_eq!(loaded.state().orphans.len(), 1);
}

#[test]
fn renames_name_what_the_new_version_defines() {
    let m = first_version();
    let manifest = V2_MANIFEST.replace("\"blade\"", "\"blaed\"");
    version(&m, &manifest, V2_DATA, V2_SCRIPT);
    let world = m.world(Default::default());
    let rendered = lantern::diag::render_all(&world.diagnostics, &world.sources);
    assert!(
        rendered.contains("warning: `[renames]` renames `test:old_sword` to `test:blaed`, which the mod does not define")
            && rendered.contains("test/mod.toml:7:1"),
        "{rendered}"
    );
}

#[test]
fn a_mod_made_for_other_versions_of_the_game_is_an_error_at_its_manifest() {
    let dir = tempfile::tempdir().unwrap();
    common::world::copy_dir(&root().join("mods/core"), &dir.path().join("core"));
    let m = dir.path().join("future");
    std::fs::create_dir_all(&m).unwrap();
    std::fs::write(
        m.join("mod.toml"),
        "id = \"future\"\nversion = \"1.0.0\"\ngame = \">=99\"\n",
    )
    .unwrap();
    let out = lantern(&["check", "--mods", "."], dir.path());
    let said = String::from_utf8_lossy(&out.stderr);
    let version = env!("CARGO_PKG_VERSION");
    assert!(
        said.contains(&format!(
            "error: mod `future` works with the game `roguelike` at `>=99`; this is {version}\n --> future/mod.toml:3:8"
        )),
        "{said}"
    );
}

#[test]
fn an_update_hook_hears_of_a_mod_new_to_the_save_and_its_failure_is_the_mods() {
    let m = TestMods::new(&[("mod.toml", V1_MANIFEST)]);
    let (mut g, _world) = m.game(1);
    turn(&mut g);
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("run.json");
    g.save(&save).unwrap();
    // A mod the save never knew, with a hook that records what it was told.
    let newbie = m.path().join("newbie");
    std::fs::create_dir_all(newbie.join("scripts")).unwrap();
    std::fs::write(
        newbie.join("mod.toml"),
        "id = \"newbie\"\nversion = \"1.0.0\"\n",
    )
    .unwrap();
    let hook = |body: &str| {
        std::fs::write(
            newbie.join("scripts/main.lua"),
            format!("lantern.on_update(function(from, to) {body} end)\n"),
        )
        .unwrap();
    };
    hook("lantern.storage.told = tostring(from) .. ' ' .. to");
    let (loaded, notes) = m.world(Default::default()).load_save(&save).unwrap();
    assert_eq!(
        notes.last().unwrap().message,
        "mod `newbie` updated from none (new to the save) to 1.0.0: its on_update added `told` in its storage"
    );
    assert_eq!(loaded.storage()["newbie"]["told"], "nil 1.0.0");
    // `test`, saved at its own version, heard nothing; a hook that fails says so at its line.
    hook("error('cannot migrate ' .. tostring(from))");
    let world = m.world(Default::default());
    let (_, notes) = m.world(Default::default()).load_save(&save).unwrap();
    let said: Vec<String> = notes
        .iter()
        .map(|n| lantern::diag::render(n, &world.sources))
        .collect();
    assert_eq!(said.len(), 1, "{said:#?}");
    assert!(
        said[0].starts_with("error: [newbie] its on_update hook failed: ")
            && said[0].contains("cannot migrate nil")
            && said[0].contains("newbie/scripts/main.lua:1"),
        "{}",
        said[0]
    );
}

/// A test game's `save` is a file of the test's own mod: one that is not there, and one outside
/// the mod's folder, fail the test at its line with what is wrong.
#[test]
fn a_test_games_save_is_read_inside_its_mod() {
    let m = TestMods::new(&[
        ("mod.toml", V1_MANIFEST),
        (
            "tests/save_test.lua",
            "it('misses', function()\n  lantern.test.game{ save = 'tests/saves/none.json' }\nend)\n\
             it('leaves the mod', function()\n  lantern.test.game{ save = '../core/mod.toml' }\nend)\n",
        ),
    ]);
    let out = lantern(&["test", "--mods", ".", "test"], &m.path());
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(said.contains("0 passed, 2 failed"), "{said}");
    assert!(
        said.contains("at test/tests/save_test.lua:2\n  lantern.test.game: there is no save `test/tests/saves/none.json`"),
        "{said}"
    );
    assert!(
        said.contains("at test/tests/save_test.lua:5\n  lantern.test.game: `test/../core/mod.toml` leads outside its mod's folder and is not read"),
        "{said}"
    );
}
