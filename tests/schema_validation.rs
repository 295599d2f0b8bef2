//! The editor schemas (`lantern docs --schema`) held to a stock validator (the `jsonschema`
//! crate, as VS Code's and Taplo's validators read them): every valid file of the project passes
//! (the bundled mods' data, manifests and locale files, every TOML example of the guide, the
//! translating chapter's mods), and each broken file of `tests/fixtures/schema/` is rejected.

mod common;

use common::root;
use std::path::{Path, PathBuf};

/// The three schemas as `lantern docs --schema` writes them.
fn schemas() -> (serde_json::Value, serde_json::Value, serde_json::Value) {
    let dir = tempfile::tempdir().unwrap();
    let out = common::lantern(&["docs", "--schema", "schema"], dir.path());
    assert!(out.status.success());
    let read = |name: &str| -> serde_json::Value {
        serde_json::from_str(
            &std::fs::read_to_string(dir.path().join("schema").join(name)).unwrap(),
        )
        .unwrap()
    };
    (
        read("lantern-data.schema.json"),
        read("lantern-mod.schema.json"),
        read("lantern-locale.schema.json"),
    )
}

fn json_of(toml_text: &str, what: &str) -> serde_json::Value {
    let value: toml::Value = toml::from_str(toml_text).unwrap_or_else(|e| panic!("{what}: {e}"));
    serde_json::to_value(value).unwrap()
}

/// What the validator says of `text` against `schema`: every error with where it is.
fn errors(schema: &serde_json::Value, text: &str, what: &str) -> Vec<String> {
    let validator = jsonschema::validator_for(schema).expect("a valid schema");
    let instance = json_of(text, what);
    validator
        .iter_errors(&instance)
        .map(|e| format!("{what}: {} at {}", e, e.instance_path()))
        .collect()
}

fn files_under(dir: &Path, keep: &dyn Fn(&Path) -> bool, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = entries.map(|e| e.unwrap().path()).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            files_under(&path, keep, out);
        } else if keep(&path) {
            out.push(path);
        }
    }
}

/// The kind of a mod's file by its place: `data`, `manifest` or `locale`.
fn kind_of(path: &Path) -> Option<&'static str> {
    let s = path.to_string_lossy().replace('\\', "/");
    if !s.ends_with(".toml") {
        return None;
    }
    if s.ends_with("/mod.toml") {
        Some("manifest")
    } else if s.contains("/data/") {
        Some("data")
    } else if s.contains("/locale/") {
        Some("locale")
    } else {
        None
    }
}

/// The TOML blocks of the guide that are files: data blocks (```toml), and the translating
/// chapter's `file=` blocks by their place.
fn guide_blocks() -> Vec<(String, &'static str, String)> {
    let mut out = Vec::new();
    let mut chapters = Vec::new();
    files_under(
        &root().join("docs/guide"),
        &|p| p.extension().is_some_and(|e| e == "md"),
        &mut chapters,
    );
    for chapter in chapters {
        let text = std::fs::read_to_string(&chapter).unwrap();
        let mut current: Option<(usize, &'static str, String)> = None;
        for (n, line) in text.lines().enumerate() {
            match (&mut current, line.trim_start()) {
                (None, "```toml") => current = Some((n + 1, "data", String::new())),
                (None, l) if l.starts_with("```toml file=") => {
                    let kind = kind_of(Path::new(&format!("/{}", &l["```toml file=".len()..])));
                    if let Some(kind) = kind {
                        current = Some((n + 1, kind, String::new()));
                    }
                }
                (Some(_), "```") => {
                    let (line, kind, block) = current.take().unwrap();
                    let name = chapter.file_name().unwrap().to_string_lossy().into_owned();
                    out.push((format!("{name}:{line}"), kind, block));
                }
                (Some((_, _, block)), _) => {
                    block.push_str(line);
                    block.push('\n');
                }
                _ => {}
            }
        }
    }
    out
}

#[test]
fn every_valid_file_passes_the_stock_validator() {
    let (data, manifest, locale) = schemas();
    let schema = |kind: &str| match kind {
        "data" => &data,
        "manifest" => &manifest,
        _ => &locale,
    };
    let mut problems = Vec::new();
    let mut checked = 0;
    let mut files = Vec::new();
    for m in common::SHIPPED {
        let shipped = root().join("mods").join(m);
        files_under(&shipped, &|p| kind_of(p).is_some(), &mut files);
    }
    // Harvest's data is another game's (its tools write its own schema); its manifest and locale
    // files are any game's.
    let mut harvest = Vec::new();
    files_under(
        &common::harvest_mods(),
        &|p| matches!(kind_of(p), Some("manifest" | "locale")),
        &mut harvest,
    );
    files.extend(harvest);
    for path in &files {
        let kind = kind_of(path).unwrap();
        let text = std::fs::read_to_string(path).unwrap();
        let shown = path.strip_prefix(root()).unwrap().display().to_string();
        problems.extend(errors(schema(kind), &text, &shown));
        checked += 1;
    }
    for (what, kind, block) in guide_blocks() {
        problems.extend(errors(schema(kind), &block, &what));
        checked += 1;
    }
    assert!(checked > 40, "only {checked} files read");
    assert!(
        problems.is_empty(),
        "{} false alarms:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

/// Each file of `tests/fixtures/schema/` is a mistake (its first line says which) that the schema
/// for its kind (`data_`, `manifest_`, `locale_`) rejects, and so does `lantern check`: the schema
/// reports only what lantern reports.
#[test]
fn every_broken_file_is_rejected_by_the_validator_and_by_check() {
    let (data, manifest, locale) = schemas();
    let mut files = Vec::new();
    files_under(
        &root().join("tests/fixtures/schema"),
        &|p| p.extension().is_some_and(|e| e == "toml"),
        &mut files,
    );
    assert!(files.len() >= 20, "{} broken files", files.len());
    let mut passed = Vec::new();
    for path in &files {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let text = std::fs::read_to_string(path).unwrap();
        let (schema, place) = match name.split('_').next().unwrap() {
            "data" => (&data, "rats/data/broken.toml"),
            "manifest" => (&manifest, "rats/mod.toml"),
            _ => (&locale, "rats/locale/de.toml"),
        };
        if errors(schema, &text, &name).is_empty() {
            passed.push(format!(
                "the schema lets through {name}: {}",
                text.lines().next().unwrap_or("")
            ));
        }
        // The same mistake in a mod that is otherwise sound: `lantern check` reports it.
        let dir = tempfile::tempdir().unwrap();
        common::world::copy_dir(&root().join("mods/core"), &dir.path().join("core"));
        let rats = dir.path().join("rats");
        std::fs::create_dir_all(rats.join("data")).unwrap();
        std::fs::write(
            rats.join("mod.toml"),
            "id = \"rats\"\nversion = \"1.0.0\"\ndepends = [\"core\"]\n",
        )
        .unwrap();
        let target = dir.path().join(place);
        std::fs::create_dir_all(target.parent().unwrap()).unwrap();
        std::fs::write(&target, &text).unwrap();
        let out = common::lantern(&["check", "--mods", "."], dir.path());
        if out.status.success() {
            passed.push(format!("lantern check lets through {name}"));
        }
    }
    assert!(passed.is_empty(), "{}", passed.join("\n"));
}

/// Harvest's data against the schema Harvest's own tools write: a game's tables, actions and
/// checks are typed from its declarations, and its mods pass.
#[test]
fn a_games_data_passes_the_schema_its_tools_write() {
    let exe = common::harvest_exe();
    let dir = tempfile::tempdir().unwrap();
    let out = std::process::Command::new(exe)
        .args(["docs", "--schema", "schema"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let schema: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(dir.path().join("schema/lantern-data.schema.json")).unwrap(),
    )
    .unwrap();
    let mut files = Vec::new();
    files_under(
        &common::harvest_mods(),
        &|p| kind_of(p) == Some("data"),
        &mut files,
    );
    assert!(files.len() >= 3);
    let mut problems = Vec::new();
    for path in &files {
        let text = std::fs::read_to_string(path).unwrap();
        problems.extend(errors(&schema, &text, &path.display().to_string()));
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    // And a misspelt argument of one of the game's actions is caught.
    let bad = "[[triggers]]\non = \"day_started\"\nactions = [ { action = \"farm:earn\", amuont = 1 } ]\n";
    assert!(!errors(&schema, bad, "farm:earn").is_empty());
}
