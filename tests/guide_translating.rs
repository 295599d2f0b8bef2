//! The translating chapter of the guide is run: its blocks marked `file=...` become two mods (a mod
//! and a translation mod of it) beside core; `lantern check` finds nothing, the mod's own tests
//! pass, and the same game plays in English, German and French to the same state hash. The
//! reference game plays in German and English to the same hash, across processes. And each kind
//! of translation mistake is reported at its place.

mod common;

use common::world::copy_dir;
use common::{lantern, lantern_with_input, root};
use lantern::content::TextArg;
use std::path::Path;

/// The chapter's blocks that name a file, written under `dir`.
fn write_chapter(dir: &Path) -> usize {
    common::write_file_blocks(dir, "docs/guide/07-translating.md")
}

fn chapter_mods() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    copy_dir(&root().join("mods/core"), &dir.path().join("core"));
    assert_eq!(write_chapter(dir.path()), 8, "the chapter's files");
    dir
}

#[test]
fn the_chapters_mods_check_cleanly_and_their_tests_pass() {
    let dir = chapter_mods();
    let out = lantern(&["check", "--mods", "."], dir.path());
    let stderr = String::from_utf8_lossy(&out.stderr);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stderr}{stdout}");
    assert!(
        stdout.contains("0 errors, 0 warnings in 3 mods"),
        "{stderr}{stdout}"
    );
    let out = lantern(&["test", "--mods", ".", "rats"], dir.path());
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("2 passed, 0 failed"), "{stdout}");
}

#[test]
fn a_translation_mod_adds_a_third_language_and_the_game_stays_the_same() {
    let dir = chapter_mods();
    let mut hashes = Vec::new();
    for lang in ["en", "de", "fr"] {
        let mut world = lantern::load::load_game(
            &[dir.path().to_path_buf()],
            &lantern::roguelike::rules(),
            Default::default(),
        );
        assert!(!world.has_errors());
        let mut g = world.start(5);
        g.set_language(lang);
        let rat = g.content().creatures[&lantern::id::Id::new("rats", "sewer_rat")]
            .name
            .clone();
        let left = g.text("rats:rats_left", &[("count", TextArg::Num(1))]);
        let (want_rat, want_left) = match lang {
            "en" => ("Sewer Rat", "1 rat left to catch."),
            "de" => ("Kanalratte", "Noch 1 Ratte zu fangen."),
            _ => ("Rat d'égout", "Encore 1 rat à attraper."),
        };
        assert_eq!(
            (rat.unescaped(), left.as_str()),
            (want_rat, want_left),
            "{lang}"
        );
        for _ in 0..4 {
            g.verb("next", &[]).ok();
            while g.in_combat() {
                g.verb("attack", &[]).unwrap();
            }
        }
        let said = g.take_messages().join("\n");
        // lantern's and core's own lines have German, not French: French players read English.
        let entered = match lang {
            "de" => "Du betrittst Kellertreppe.",
            _ => "You enter Cellar Steps.",
        };
        assert!(said.contains(entered), "{lang}: {said}");
        hashes.push(g.state_hash());
    }
    assert_eq!(hashes[0], hashes[1]);
    assert_eq!(hashes[0], hashes[2]);
}

#[test]
fn the_bundled_game_plays_in_german_and_english_to_the_same_hash_across_processes() {
    let dir = common::core_only();
    let commands = "next\nnext\nnext\nattack\nattack\nattack\nattack\nstatus\nhash\nquit\n";
    let play = |lang: &str| {
        let out = lantern_with_input(
            &[
                "play",
                "--mods",
                ".",
                "--no-watch",
                "--seed",
                "4",
                "--lang",
                lang,
            ],
            dir.path(),
            commands,
        );
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let (en, de) = (play("en"), play("de"));
    // Switched in the middle of the run, with `lang`: the same game again.
    let out = lantern_with_input(
        &["play", "--mods", ".", "--no-watch", "--seed", "4"],
        dir.path(),
        &commands.replacen("attack\n", "lang de\nattack\n", 1),
    );
    let switched = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(switched.contains("You enter Cellar Steps."), "{switched}");
    assert!(switched.contains("language: de"), "{switched}");
    assert!(switched.contains("Gesundheit"), "{switched}");
    let hash = |s: &str| common::printed_hash(s).unwrap_or_else(|| panic!("no hash in\n{s}"));
    assert_eq!(hash(&en), hash(&de), "en:\n{en}\nde:\n{de}");
    assert_eq!(hash(&en), hash(&switched), "{switched}");
    assert!(en.contains("You enter Cellar Steps."), "{en}");
    assert!(de.contains("Du betrittst Kellertreppe."), "{de}");
    assert!(de.contains("Gesundheit"), "{de}");
    assert!(de.contains("Ratte"), "{de}");
    assert!(
        !de.contains("You "),
        "every line of the German game is German:\n{de}"
    );
    // A language that is no tag is a usage error; one no mod has plays each mod's own, and says so.
    for tool in [
        &["play", "--lang", "x y"][..],
        &["test", "--lang", "x y"],
        &["sim", "hazard", "rockslide", "--lang", "x y"],
    ] {
        let out = lantern(&[tool, &["--mods", "."]].concat(), dir.path());
        assert_eq!(out.status.code(), Some(2), "{tool:?}");
        assert!(String::from_utf8_lossy(&out.stderr).contains("`x y` is not a language tag"));
    }
    let out = lantern_with_input(
        &["play", "--mods", ".", "--no-watch", "--lang", "fr"],
        dir.path(),
        "next\nquit\n",
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("no mod has texts in `fr`"));
    assert!(String::from_utf8_lossy(&out.stdout).contains("You enter Cellar Steps."));
}

/// A mod with one of each translation mistake, and the message for each.
#[test]
fn every_translation_mistake_is_reported_at_its_place() {
    let dir = tempfile::tempdir().unwrap();
    copy_dir(&root().join("tests/fixtures/locale/mistakes"), dir.path());
    let out = lantern(&["check", "--mods", "."], dir.path());
    let text = format!(
        "exit: {}\n--- stdout\n{}--- stderr\n{}",
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    common::expect_file(
        &root().join("tests/fixtures/locale/mistakes.expected.txt"),
        &text,
    );
    let out = lantern(&["check", "--mods", ".", "--format", "json"], dir.path());
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let de = json["translations"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["mod"] == "tavern" && t["language"] == "de")
        .expect("tavern's German coverage");
    assert_eq!(de["texts"], 5, "{de}");
    assert_eq!(de["translated"], 3, "{de}");
    assert_eq!(
        de["missing"],
        serde_json::json!(["items.mead.name", "wares"]),
        "{de}"
    );
}

/// A hostile upload: twenty thousand stray keys, twenty thousand `@` texts and a manifest listing
/// twenty thousand untranslated keys. `lantern check` reads it in one pass (a look-up per key, "did
/// you mean" for the first problems only) and shows a bounded report.
#[test]
fn a_locale_of_twenty_thousand_stray_keys_is_checked_in_one_pass() {
    let dir = tempfile::tempdir().unwrap();
    let m = dir.path().join("flood");
    std::fs::create_dir_all(m.join("locale")).unwrap();
    std::fs::create_dir_all(m.join("data")).unwrap();
    let n = 20_000;
    let untranslated: Vec<String> = (0..n).map(|i| format!("\"u{i}.*\"")).collect();
    std::fs::write(
        m.join("mod.toml"),
        format!(
            "id = \"flood\"\nversion = \"1.0.0\"\nuntranslated = [{}]\n",
            untranslated.join(", ")
        ),
    )
    .unwrap();
    let keys: String = (0..n).map(|i| format!("stray_{i} = \"x\"\n")).collect();
    std::fs::write(m.join("locale/en.toml"), &keys).unwrap();
    std::fs::write(m.join("locale/de.toml"), keys.replace("stray", "streu")).unwrap();
    let items: String = (0..n)
        .map(|i| format!("[[items]]\nid = \"i{i}\"\nname = \"@stray_{i}\"\n"))
        .collect();
    std::fs::write(m.join("data/items.toml"), items).unwrap();
    let out = lantern(&["check", "--mods", "."], dir.path());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("has no text `streu_"),
        "{}",
        &stderr[..stderr.len().min(2000)]
    );
    assert!(
        stderr.contains("more problems"),
        "{}",
        &stderr[stderr.len().saturating_sub(2000)..]
    );
    assert!(
        stderr.lines().count() < 5_000,
        "{} lines",
        stderr.lines().count()
    );
}

/// `lantern texts rats`: every text of the mod in its language as one locale file, its data's
/// by their keys and its locale file's with their plural forms, a text that names a key left to
/// that key; copied as a new language, it checks cleanly.
#[test]
fn a_mods_texts_make_a_base_file_for_translators() {
    let dir = chapter_mods();
    let out = lantern(&["texts", "rats", "--mods", "."], dir.path());
    let file = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for line in [
        "creatures.sewer_rat.name = \"Sewer Rat\"",
        "quests.rat_hunt.description = \"Three sewer rats, and the cellar is yours.\"",
        "offer_cheese = \"Offer the cheese\"",
        "rats_left.one = \"{count} rat left to catch.\"",
        "rats_left.other = \"{count} rats left to catch.\"",
    ] {
        assert!(file.lines().any(|l| l == line), "{line}\n{file}");
    }
    assert!(
        !file.contains("encounters.hungry_rat.options.1.text"),
        "a text naming `@offer_cheese` is that key's: {file}"
    );
    std::fs::write(dir.path().join("rats/locale/pt.toml"), &file).unwrap();
    let out = lantern(&["check", "--mods", "."], dir.path());
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("0 errors, 0 warnings in 3 mods"),
        "{stdout}"
    );
    let out = lantern(&["texts", "rat", "--mods", "."], dir.path());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr.contains("there is no mod `rat` with texts") && stderr.contains("rats"),
        "{stderr}"
    );
}
