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

/// `lantern texts export rats`: every text of the mod in its language as one locale file, its data's
/// by their keys and its locale file's with their plural forms, a text that names a key left to
/// that key; copied as a new language, it checks cleanly.
#[test]
fn a_mods_texts_make_a_base_file_for_translators() {
    let dir = chapter_mods();
    let out = lantern(&["texts", "export", "rats", "--mods", "."], dir.path());
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
    let out = lantern(&["texts", "export", "rat", "--mods", "."], dir.path());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr.contains("there is no mod `rat` with texts") && stderr.contains("rats"),
        "{stderr}"
    );
}

/// A platform's work on a PO template: each `msgid` translated as `PL <text>`, the plural's
/// three Polish forms numbered by Weblate's own formula for Polish, the first entry marked
/// fuzzy and the quest's description left empty.
fn translate_as_a_platform(pot: &str) -> String {
    let weblate_pl =
        "nplurals=3; plural=n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2;";
    let po = fill(pot, "pl", weblate_pl, 3, |key, form, source| match form {
        None if key == "quests.rat_hunt.description" => String::new(),
        None => format!("PL {}", source[0]),
        Some(n) => format!("PL{n} {{count}} szczur"),
    });
    po.replacen("msgctxt ", "#, fuzzy\nmsgctxt ", 1)
}

/// A translation platform's round trip: the mod's texts exported as a PO template, translated
/// into Polish as Weblate writes it (its own plural formula, a fuzzy entry, one left empty),
/// imported as a translation mod. The game reads Polish from it, each plural form where Polish's
/// rules put it; what was left out is said, and `check` names the texts still missing.
#[test]
fn a_platforms_po_file_comes_back_as_a_translation_mod() {
    let dir = chapter_mods();
    let out = lantern(
        &[
            "texts", "export", "rats", "--mods", ".", "--out", "rats.pot",
        ],
        dir.path(),
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.contains("wrote the 8 texts of `rats` to rats.pot"),
        "{stdout}"
    );
    let pot = std::fs::read_to_string(dir.path().join("rats.pot")).unwrap();
    for part in [
        "\"X-Lantern-Mod: rats\\n\"",
        "#. keep {count} as written\n#: rats/locale/en.toml:",
        "msgctxt \"rats_left\"\nmsgid \"{count} rat left to catch.\"\nmsgid_plural \"{count} rats left to catch.\"\nmsgstr[0] \"\"\nmsgstr[1] \"\"\n",
        "msgctxt \"creatures.sewer_rat.name\"\nmsgid \"Sewer Rat\"\nmsgstr \"\"\n",
    ] {
        assert!(pot.contains(part), "{part}\n{pot}");
    }
    std::fs::write(dir.path().join("rats-pl.po"), translate_as_a_platform(&pot)).unwrap();
    std::fs::create_dir_all(dir.path().join("rats_pl")).unwrap();
    std::fs::write(
        dir.path().join("rats_pl/mod.toml"),
        "id = \"rats_pl\"\nversion = \"1.0.0\"\noptional = [\"rats\"]\n",
    )
    .unwrap();
    let out = lantern(
        &[
            "texts",
            "import",
            "rats-pl.po",
            "--mods",
            ".",
            "--into",
            "rats_pl",
        ],
        dir.path(),
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stdout}{stderr}");
    for said in [
        "wrote 6 of the 8 texts of `rats` in `pl` to rats_pl/locale/rats/pl.toml",
        "2 texts stay in the mod's own language until they are translated",
        "1 fuzzy entries were left out",
    ] {
        assert!(stdout.contains(said), "{said}\n{stdout}");
    }
    assert!(
        stderr.contains("warning:")
            && stderr.contains("`pl`")
            && stderr.contains("quests.rat_hunt.description"),
        "check names the missing texts: {stderr}"
    );
    let written = std::fs::read_to_string(dir.path().join("rats_pl/locale/rats/pl.toml")).unwrap();
    assert!(written.contains("[made_from]\n"), "{written}");

    let mut world = lantern::load::load_game(
        &[dir.path().to_path_buf()],
        &lantern::roguelike::rules(),
        Default::default(),
    );
    assert!(!world.has_errors());
    let mut g = world.start(5);
    g.set_language("pl");
    let quest = &g.content().quests[&lantern::id::Id::new("rats", "rat_hunt")].name;
    assert_eq!(quest.unescaped(), "PL Rat Hunt");
    // The fuzzy entry (the first) was left out: the mod's own text stands.
    let rat = &g.content().creatures[&lantern::id::Id::new("rats", "sewer_rat")].name;
    assert_eq!(rat.unescaped(), "Sewer Rat");
    let left = |n| g.text("rats:rats_left", &[("count", TextArg::Num(n))]);
    assert_eq!(
        [left(1), left(3), left(5), left(22)],
        [
            "PL0 1 szczur",
            "PL1 3 szczur",
            "PL2 5 szczur",
            "PL1 22 szczur"
        ]
    );
}

/// Runs `lantern texts import` with `args`: it succeeds and `check` says nothing of the file.
fn imports_cleanly(args: &[&str], dir: &Path) {
    let out = lantern(args, dir);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{args:?}: {stdout}{stderr}");
    assert!(
        stdout.contains("`check` has nothing to say of it"),
        "{args:?}: {stdout}{stderr}"
    );
}

/// The German texts of the bundled game go out as PO and JSON and come back the same: the
/// imported file holds every text the German file had, and `check` says nothing new.
#[test]
fn a_translation_goes_out_and_comes_back_the_same() {
    let dir = common::core_only();
    let check = |dir: &Path| {
        let out = lantern(&["check", "--mods", ".", "--format", "json"], dir);
        let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        (
            report["translations"].clone(),
            report["diagnostics"].clone(),
        )
    };
    let before = check(dir.path());
    for (format, file) in [("po", "core-de.po"), ("json", "core-de.json")] {
        let out = lantern(
            &[
                "texts", "export", "core", "--mods", ".", "--lang", "de", "--out", file,
            ],
            dir.path(),
        );
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let mut args = vec!["texts", "import", file, "--mods", "."];
        if format == "json" {
            args.extend(["--mod", "core", "--lang", "de"]);
        }
        imports_cleanly(&args, dir.path());
        assert_eq!(check(dir.path()), before, "{format}");
    }
}

/// A broken translated file is refused at its line with what is wrong, and nothing is written.
#[test]
fn a_broken_translated_file_is_refused_at_its_line() {
    let dir = common::core_only();
    let cases = [
        (
            "keyword.po",
            "msgid \"\"\nmsgstr \"\"\n\nmsgctxt \"status\"\nmsgid \"x\"\nmsgtsr \"y\"\n",
            "core-keyword.po:6:1",
            "`msgtsr` is not a PO keyword",
        ),
        (
            "quote.po",
            "msgctxt \"status\"\nmsgid \"x\nmsgstr \"y\"\n",
            "quote.po:2:1",
            "is not a quoted string",
        ),
        (
            "forms.po",
            "msgid \"\"\nmsgstr \"Language: de\\nPlural-Forms: nplurals=2; plural=(n != 1;\\n\"\n",
            "forms.po:1:1",
            "`Plural-Forms` cannot be read: a `(` of the formula is not closed",
        ),
        (
            "texts.json",
            "{\"status\": 5}",
            "texts.json:1:1",
            "`status` is a number",
        ),
        (
            "bad.json",
            "{\"status\": \"x\",\n  oops}",
            "bad.json:2:3",
            "the file is not JSON",
        ),
    ];
    for (file, text, place, said) in cases {
        let file = if file == "keyword.po" {
            "core-keyword.po"
        } else {
            file
        };
        std::fs::write(dir.path().join(file), text).unwrap();
        let out = lantern(
            &[
                "texts", "import", file, "--mods", ".", "--mod", "core", "--lang", "de",
            ],
            dir.path(),
        );
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{file}: {stderr}");
        assert!(
            stderr.contains(said) && stderr.contains(place),
            "{file}: {stderr}"
        );
    }
    // With no `--mod`, a file that cannot be read says so before anything else.
    let out = lantern(&["texts", "import", "quote.po", "--mods", "."], dir.path());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.starts_with("error: `\"x` is not a quoted string"),
        "{stderr}"
    );
    let german = std::fs::read_to_string(dir.path().join("core/locale/de.toml")).unwrap();
    assert_eq!(
        german,
        std::fs::read_to_string(root().join("mods/core/locale/de.toml")).unwrap()
    );
}

/// A PO string's inside, its escapes kept.
fn unquote(s: &str) -> String {
    s.strip_prefix('"')
        .and_then(|s| s.strip_suffix('"'))
        .unwrap()
        .to_string()
}

/// A platform's translation of a PO template into `lang`, its plurals numbered by
/// `plural_forms` in `forms` forms: `translate(key, form, sources)` gives each `msgstr` (empty:
/// left untranslated), `form` being `None` for a text of one form.
fn fill(
    pot: &str,
    lang: &str,
    plural_forms: &str,
    forms: usize,
    translate: impl Fn(&str, Option<usize>, &[String]) -> String,
) -> String {
    let mut out = Vec::new();
    let (mut key, mut source) = (String::new(), Vec::new());
    for line in pot.lines() {
        match line {
            "\"Language: \\n\"" => out.push(format!("\"Language: {lang}\\n\"")),
            l if l.starts_with("\"Plural-Forms: ") => {
                out.push(format!("\"Plural-Forms: {plural_forms}\\n\""))
            }
            l if l.starts_with("msgctxt ") => {
                key = unquote(&l["msgctxt ".len()..]);
                out.push(l.to_string());
            }
            l if l.starts_with("msgid ") => {
                source = vec![unquote(&l["msgid ".len()..])];
                out.push(l.to_string());
            }
            l if l.starts_with("msgid_plural ") => {
                source.push(unquote(&l["msgid_plural ".len()..]));
                out.push(l.to_string());
            }
            "msgstr \"\"" if !key.is_empty() => {
                out.push(format!("msgstr \"{}\"", translate(&key, None, &source)));
            }
            "msgstr[0] \"\"" => {
                for n in 0..forms {
                    out.push(format!(
                        "msgstr[{n}] \"{}\"",
                        translate(&key, Some(n), &source)
                    ));
                }
            }
            l if l.starts_with("msgstr[") => {}
            l => out.push(l.to_string()),
        }
    }
    out.join("\n")
}

/// The translator: the reference game's mod and lantern's own lines exported as PO
/// templates, every entry translated on a platform (French, with gettext's own formula),
/// imported (the mod's into its own folder, lantern's into a translation mod), and a game played
/// in French shows no line the mod or lantern wrote in English: rooms and floors, the game's
/// own tables, included.
#[test]
fn the_bundled_game_is_translated_through_a_platform_and_played_with_no_english_line() {
    let dir = common::core_only();
    std::fs::create_dir_all(dir.path().join("core_fr")).unwrap();
    std::fs::write(
        dir.path().join("core_fr/mod.toml"),
        "id = \"core_fr\"\nversion = \"1.0.0\"\noptional = [\"core\"]\n",
    )
    .unwrap();
    for (of, into) in [("core", None), ("lantern", Some("core_fr"))] {
        let pot = format!("{of}.pot");
        let out = lantern(
            &["texts", "export", of, "--mods", ".", "--out", &pot],
            dir.path(),
        );
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let template = std::fs::read_to_string(dir.path().join(&pot)).unwrap();
        let french = "nplurals=2; plural=(n > 1);";
        let po = fill(&template, "fr", french, 2, |_, form, source| {
            format!("FR {}", source[form.unwrap_or(0).min(source.len() - 1)])
        });
        let file = format!("{of}-fr.po");
        std::fs::write(dir.path().join(&file), po).unwrap();
        let mut args = vec!["texts", "import", file.as_str(), "--mods", "."];
        args.extend(into.iter().flat_map(|dir| ["--into", dir]));
        imports_cleanly(&args, dir.path());
    }
    let commands = "next\nstatus\nnext\nnext\nattack\nattack\nattack\nattack\nattack\nnext\nnext\nnext\nquit\n";
    let out = lantern_with_input(
        &["play", "--mods", ".", "--lang", "fr", "--no-watch"],
        dir.path(),
        commands,
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    let said: Vec<&str> = (stdout.lines().skip(1))
        .filter(|l| !l.starts_with('>') && !l.trim().is_empty())
        .collect();
    assert!(said.len() > 15, "{stdout}");
    let english: Vec<&&str> = said.iter().filter(|l| !l.contains("FR ")).collect();
    assert!(
        english.is_empty(),
        "lines left in English: {english:#?}\n{stdout}"
    );
    assert!(stdout.contains("FR You enter FR Cellar Steps."), "{stdout}");
}

/// What `texts import` cannot do is said before anything is written: a file of no known form, a
/// folder that is no mod for `--into`, lantern's own lines with nowhere to go.
#[test]
fn an_import_with_nowhere_to_go_says_why() {
    let dir = common::core_only();
    std::fs::write(dir.path().join("texts.yaml"), "status: x\n").unwrap();
    std::fs::write(dir.path().join("de.toml"), "status = \"x\"\n").unwrap();
    std::fs::create_dir_all(dir.path().join("notamod")).unwrap();
    let cases: [(&[&str], &str); 3] = [
        (
            &["texts.yaml", "--mod", "core", "--lang", "de"],
            "error: `texts.yaml` is not a `.po`, `.toml` or `.json` file\n  = help: say which it is with `--format po|toml|json`",
        ),
        (
            &["de.toml", "--mod", "core", "--lang", "de", "--into", "notamod"],
            "error: `notamod` is not a mod (it has no mod.toml)",
        ),
        (
            &["de.toml", "--mod", "lantern", "--lang", "fr"],
            "error: `lantern`'s texts are built in: import them into a translation mod with `--into DIR`",
        ),
    ];
    for (args, said) in cases {
        let mut all = vec!["texts", "import"];
        all.extend_from_slice(args);
        all.extend(["--mods", "."]);
        let out = lantern(&all, dir.path());
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.starts_with(said), "{args:?}: {stderr}");
    }
    assert!(!dir.path().join("notamod/locale").exists());
}
