//! The settings and calls chapter of the guide is run: its blocks marked `file=...` become
//! four mods beside core; `lantern check` finds nothing, its tests pass, and the command line and console it shows
//! set what it says.

mod common;

use common::world::copy_dir;
use common::{lantern, lantern_with_input, root};
use std::path::Path;

const CHAPTER: &str = "docs/guide/08-settings-updates-calls.md";

/// The blocks of the chapter and of the testing chapter that name a file, written under `dir`.
fn write_chapter(dir: &Path) -> usize {
    common::write_file_blocks(dir, CHAPTER)
        + common::write_file_blocks(dir, "docs/guide/05-testing.md")
}

fn chapter_mods() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    copy_dir(&root().join("mods/core"), &dir.path().join("core"));
    assert_eq!(write_chapter(dir.path()), 13);
    dir
}

#[test]
fn the_chapters_mod_checks_clean_and_its_tests_pass() {
    let dir = chapter_mods();
    let out = lantern(&["check", "--mods", "."], dir.path());
    let said =
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{said}");
    assert!(said.contains("0 errors, 0 warnings"), "{said}");
    for (m, passed) in [("rats", 4), ("owls", 1)] {
        let out = lantern(&["test", "--mods", ".", m], dir.path());
        let said = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{said}");
        assert!(
            said.contains(&format!("{passed} passed, 0 failed")),
            "{said}"
        );
    }
}

#[test]
fn the_chapters_command_line_and_console_set_what_it_says() {
    let dir = chapter_mods();
    let chapter = std::fs::read_to_string(root().join(CHAPTER)).unwrap();
    let command = "lantern play --set rats:rat_health=20 --set loud_rats=true";
    assert!(chapter.contains(command));
    let mut args: Vec<&str> = command.split(' ').skip(1).collect();
    args.extend(["--mods", ".", "--no-watch"]);
    let out = lantern_with_input(
        &args,
        dir.path(),
        "settings\nset rats:loud_rats false\nset rat_health 0\n",
    );
    let said = String::from_utf8_lossy(&out.stdout);
    for line in [
        "  rats:rat_health = 20    Rat health (int, 1 to 100; startup: fixed for a run)",
        "      How much health a sewer rat has",
        "  rats:loud_rats = true    loud_rats (bool, true or false; run)",
        "  rats:difficulty = normal    difficulty (string, easy, normal, hard; player)",
        "rats:loud_rats = false",
        "error: `rats:rat_health` must be 1 to 100",
    ] {
        assert!(said.contains(line), "{line}\n--- in\n{said}");
    }
    let quoted = "`error: --set rats:rat_health=0: `rats:rat_health` must be 1 to 100`";
    assert!(chapter.contains(quoted));
    let out = lantern(
        &["play", "--mods", ".", "--set", "rats:rat_health=0"],
        dir.path(),
    );
    assert_eq!(
        String::from_utf8_lossy(&out.stderr).trim_end(),
        &quoted[1..quoted.len() - 1]
    );
}

/// `smithy` 0.1.0, as the chapter tells it: an `old_sword`, and a count kept as a number.
fn first_smithy(dir: &Path) {
    let m = dir.join("smithy");
    std::fs::write(
        m.join("mod.toml"),
        "id = \"smithy\"\nversion = \"0.1.0\"\ndepends = [\"core\"]\n",
    )
    .unwrap();
    std::fs::write(
        m.join("data/items.toml"),
        "[[items]]\nid = \"old_sword\"\nname = \"Old Sword\"\n",
    )
    .unwrap();
    std::fs::write(m.join("scripts/main.lua"), "lantern.storage.forged = 3\n").unwrap();
}

#[test]
fn the_chapters_update_loads_a_save_of_the_old_version_in_a_test() {
    let dir = chapter_mods();
    first_smithy(dir.path());
    std::fs::create_dir_all(dir.path().join("smithy/tests/saves")).unwrap();
    let out = lantern_with_input(
        &["play", "--mods", ".", "--no-watch"],
        dir.path(),
        "give smithy:old_sword\nsave smithy/tests/saves/0.1.json\n",
    );
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(
        said.contains("saved to smithy/tests/saves/0.1.json"),
        "{said}"
    );
    write_chapter(dir.path());
    let out = lantern(&["test", "--mods", ".", "smithy"], dir.path());
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{said}");
    assert!(said.contains("1 passed, 0 failed"), "{said}");
    // What the chapter says loading says.
    let chapter = std::fs::read_to_string(root().join(CHAPTER)).unwrap();
    let out = lantern_with_input(
        &[
            "play",
            "--mods",
            ".",
            "--no-watch",
            "--load",
            "smithy/tests/saves/0.1.json",
        ],
        dir.path(),
        "",
    );
    let said =
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    for line in said.lines().filter(|l| l.starts_with("warning: ")) {
        assert!(
            chapter.contains(line),
            "{line} is not in the chapter\n{said}"
        );
    }
    assert_eq!(
        said.lines().filter(|l| l.starts_with("warning: ")).count(),
        3,
        "{said}"
    );
}
