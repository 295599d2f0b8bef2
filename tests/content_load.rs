//! Loading real mod folders: DESIGN.md's examples verbatim, the bundled mods, and a property test
//! that feeds the loader mutated and random files and checks it never panics.

mod common;

use common::root;
use lantern::content::{load, Extensions};
use lantern::id::Id;
use proptest::prelude::*;

fn lua_names() -> Extensions {
    let mut ext = lantern::roguelike::rules().extensions();
    ext.checks.insert(Id::qualified("rats:is_night").unwrap());
    ext.actions.insert(Id::qualified("rats:summon").unwrap());
    ext
}

#[test]
fn design_examples_load_verbatim() {
    let loaded = load(
        &root().join("tests/fixtures/design_examples/mods"),
        &lua_names(),
    );
    let rendered = lantern::diag::render_all(&loaded.diagnostics, &loaded.sources);
    assert!(loaded.diagnostics.is_empty(), "{rendered}");
    let c = &loaded.content;
    assert_eq!(
        c.mods.iter().map(|m| m.id.as_str()).collect::<Vec<_>>(),
        ["core", "rats"]
    );
    let quest = &c.quests[&Id::qualified("core:rattenplage").unwrap()];
    assert_eq!(quest.count, 5);
    assert_eq!(c.triggers.len(), 2);
    assert_eq!(c.encounters.len(), 1);
    // What each definition resolved to inside (events, conditions, actions, odds) is checked by
    // `content::resolve` unit tests over the same folder: those fields are not public API.
}

#[test]
fn actions_and_checks_no_script_registers_are_reported() {
    let loaded = load(
        &root().join("tests/fixtures/design_examples/mods"),
        &lantern::roguelike::rules().extensions(),
    );
    let messages: Vec<&str> = loaded
        .diagnostics
        .iter()
        .map(|d| d.message.as_str())
        .collect();
    assert_eq!(
        messages,
        [
            "unknown check `rats:is_night`: no script registers it",
            "unknown action `rats:summon`: no script registers it"
        ]
    );
}

#[test]
fn load_order_puts_dependencies_first_and_breaks_ties_by_id() {
    let dir = tempfile::tempdir().unwrap();
    for (id, deps) in [
        ("zeta", ""),
        ("alpha", "\"zeta\""),
        ("beta", ""),
        ("gamma", "\"alpha\", \"beta\""),
    ] {
        std::fs::create_dir_all(dir.path().join(id)).unwrap();
        std::fs::write(
            dir.path().join(id).join("mod.toml"),
            format!("id = \"{id}\"\nversion = \"1.0.0\"\ndepends = [{deps}]\n"),
        )
        .unwrap();
    }
    let loaded = load(dir.path(), &lantern::roguelike::rules().extensions());
    let order: Vec<&str> = loaded.content.mods.iter().map(|m| m.id.as_str()).collect();
    assert_eq!(order, ["beta", "zeta", "alpha", "gamma"]);
}

/// Copies the bundled core mod into a temporary folder with a data file `data/mutated.toml` of
/// `bytes` added.
fn load_with_file(bytes: &[u8]) {
    load_with_core_file("data/mutated.toml", bytes);
}

/// Copies the bundled core mod (manifest, data and locales) into a temporary folder with the file
/// at `path` in it written as `bytes`, and loads it: nothing may panic, and every diagnostic must
/// render (spans inside their files, lines that exist).
fn load_with_core_file(path: &str, bytes: &[u8]) {
    let dir = tempfile::tempdir().unwrap();
    let core = dir.path().join("core");
    std::fs::copy(root().join("mods/core/mod.toml"), {
        std::fs::create_dir_all(&core).unwrap();
        core.join("mod.toml")
    })
    .unwrap();
    for sub in ["data", "locale"] {
        std::fs::create_dir_all(core.join(sub)).unwrap();
        for f in std::fs::read_dir(root().join("mods/core").join(sub)).unwrap() {
            let f = f.unwrap();
            std::fs::copy(f.path(), core.join(sub).join(f.file_name())).unwrap();
        }
    }
    std::fs::write(core.join(path), bytes).unwrap();
    let loaded = load(dir.path(), &lantern::roguelike::rules().extensions());
    let _ = lantern::diag::render_all(&loaded.diagnostics, &loaded.sources);
}

/// `bytes` with `edits` applied in turn: each removes, inserts or replaces a byte at a place, or
/// cuts up to 40 bytes from it.
fn mutated(mut bytes: Vec<u8>, edits: Vec<(prop::sample::Index, u8, u8)>) -> Vec<u8> {
    for (at, kind, byte) in edits {
        if bytes.is_empty() {
            break;
        }
        let i = at.index(bytes.len());
        match kind {
            0 => {
                bytes.remove(i);
            }
            1 => bytes.insert(i, byte),
            2 => bytes[i] = byte,
            _ => {
                let end = (i + byte as usize % 40).min(bytes.len());
                bytes.drain(i..end);
            }
        }
    }
    bytes
}

fn seed_text() -> Vec<u8> {
    let mut all = Vec::new();
    for name in ["items.toml", "creatures.toml", "quests.toml", "run.toml"] {
        all.extend(std::fs::read(root().join("mods/core/data").join(name)).unwrap());
    }
    // Renamed IDs so the mutated file does not only produce duplicate-ID errors.
    String::from_utf8(all)
        .unwrap()
        .replace("id = \"", "id = \"x_")
        .into_bytes()
}

proptest! {
    // 96 cases each on every `cargo test`; `LANTERN_FUZZ_CASES=N` runs a longer campaign.
    #![proptest_config(ProptestConfig { cases: common::fuzz_cases(96), .. ProptestConfig::default() })]

    #[test]
    fn loader_never_panics_on_mutated_files(edits in prop::collection::vec((any::<prop::sample::Index>(), 0u8..4, any::<u8>()), 1..12)) {
        load_with_file(&mutated(seed_text(), edits));
    }

    #[test]
    fn loader_never_panics_on_mutated_manifests(edits in prop::collection::vec((any::<prop::sample::Index>(), 0u8..4, any::<u8>()), 1..8)) {
        let manifest = std::fs::read(root().join("mods/core/mod.toml")).unwrap();
        load_with_core_file("mod.toml", &mutated(manifest, edits));
    }

    #[test]
    fn loader_never_panics_on_mutated_locale_files(edits in prop::collection::vec((any::<prop::sample::Index>(), 0u8..4, any::<u8>()), 1..12)) {
        let german = std::fs::read(root().join("mods/core/locale/de.toml")).unwrap();
        load_with_core_file("locale/de.toml", &mutated(german, edits));
    }

    #[test]
    fn loader_never_panics_on_random_files(bytes in prop::collection::vec(any::<u8>(), 0..400)) {
        load_with_file(&bytes);
    }

    #[test]
    fn loader_never_panics_on_random_toml_shapes(
        table in prop::sample::select(vec!["items", "creatures", "triggers", "quests", "encounters", "rooms", "floors", "event_types", "tags"]),
        keys in prop::collection::vec((prop::sample::select(vec!["id", "on", "name", "count", "tags", "actions", "condition", "when", "health", "kind", "options", "payload", "rooms", "depth", "chance", "stack"]),
            prop::sample::select(vec!["\"x\"", "3", "-1", "0.5", "[]", "{}", "[{ action = \"heal\" }]", "[{ check = \"quest\" }]", "{ a = 1 }", "true", "\"core:gold\"", "[\"rat\"]"])), 0..8),
    ) {
        let mut text = format!("[[{table}]]\n");
        let mut seen = std::collections::BTreeSet::new();
        for (k, v) in keys {
            if seen.insert(k) { text.push_str(&format!("{k} = {v}\n")); }
        }
        load_with_file(text.as_bytes());
    }
}

/// The data schema `lantern docs --schema` writes, as an editor reads it.
fn data_schema() -> serde_json::Value {
    static SCHEMA: std::sync::OnceLock<serde_json::Value> = std::sync::OnceLock::new();
    SCHEMA
        .get_or_init(|| {
            let dir = tempfile::tempdir().unwrap();
            let out = common::lantern(&["docs", "--schema", "schema"], dir.path());
            assert!(out.status.success());
            let path = dir.path().join("schema/lantern-data.schema.json");
            serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
        })
        .clone()
}

/// What the loader's help lists after an unknown key in `[[table]]` (or an unknown table).
fn loader_help(table: &str, key: &str) -> String {
    let dir = tempfile::tempdir().unwrap();
    let m = dir.path().join("m");
    std::fs::create_dir_all(m.join("data")).unwrap();
    std::fs::write(m.join("mod.toml"), "id = \"m\"\nversion = \"1.0.0\"\n").unwrap();
    std::fs::write(m.join("data/a.toml"), format!("[[{table}]]\n{key} = 1\n")).unwrap();
    let loaded = load(dir.path(), &lantern::roguelike::rules().extensions());
    loaded
        .diagnostics
        .iter()
        .find_map(|d| d.help.clone())
        .unwrap_or_default()
}

/// The tables and keys the editor schema lists are exactly the ones the loader accepts: the
/// loader's own help for an unknown table and an unknown key is the reference.
/// The names a loader's help lists after `prefix` (which may follow a question of its own),
/// sorted.
fn listed_after(help: &str, prefix: &str) -> Vec<String> {
    let mut names: Vec<String> = help
        .split_once(prefix)
        .unwrap_or_else(|| panic!("{help}"))
        .1
        .split(", ")
        .map(str::to_string)
        .collect();
    names.sort();
    names
}

/// The keys of a JSON object, sorted.
fn keys_of(v: &serde_json::Value) -> Vec<String> {
    let mut keys: Vec<String> = v.as_object().unwrap().keys().cloned().collect();
    keys.sort();
    keys
}

#[test]
fn the_editor_schema_lists_exactly_the_keys_the_loader_accepts() {
    let schema = data_schema();
    let accepted = listed_after(
        &loader_help("zzzqqq", "a"),
        "a data file holds these arrays: ",
    );
    assert_eq!(
        keys_of(&schema["properties"]),
        accepted,
        "the schema's tables differ from the loader's"
    );
    for (table, def) in schema["properties"].as_object().unwrap() {
        let accepted = listed_after(&loader_help(table, "zzzqqq"), "known keys: ");
        assert_eq!(
            keys_of(&def["items"]["properties"]),
            accepted,
            "the schema's keys for [[{table}]] differ from the loader's"
        );
    }
}

/// A key of a game's table is offered as its type reads it, learnt from the type's `Deserialize`:
/// an enum of names (the roguelike's room `kind`) with those names, an integer as an integer.
#[test]
fn the_editor_schema_knows_what_a_games_table_keys_read() {
    let kind = &data_schema()["properties"]["rooms"]["items"]["properties"]["kind"];
    assert_eq!(
        kind["enum"],
        serde_json::json!(["combat", "encounter", "hazard", "empty"])
    );
    // And what the type reads elsewhere, with what the game says a key means.
    let schema = data_schema();
    let floor = &schema["properties"]["floors"]["items"]["properties"];
    // A number, or a setting's value read where the number is written.
    assert_eq!(floor["depth"]["anyOf"][0]["type"], "integer");
    assert_eq!(
        floor["depth"]["anyOf"][1]["$ref"],
        "#/definitions/setting_ref"
    );
    assert_eq!(floor["name"]["type"], "string");
    let triggers = &schema["properties"]["rooms"]["items"]["properties"]["triggers"];
    assert_eq!(
        triggers["description"],
        "listen while the run is in the room"
    );
    assert_eq!(triggers["items"]["$ref"], "#/definitions/trigger");
}

#[test]
fn docs_writes_every_schema() {
    let dir = tempfile::tempdir().unwrap();
    let out = common::lantern(&["docs", "--schema", "schema"], dir.path());
    assert!(out.status.success());
    for name in [
        "lantern-data.schema.json",
        "lantern-mod.schema.json",
        "lantern-locale.schema.json",
    ] {
        let text = std::fs::read_to_string(dir.path().join("schema").join(name)).unwrap();
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(v["$schema"], "http://json-schema.org/draft-07/schema#");
    }
    // A locale file's plural forms are CLDR's, `other` among them always.
    let text =
        std::fs::read_to_string(dir.path().join("schema/lantern-locale.schema.json")).unwrap();
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    let plural = &v["definitions"]["plural"];
    assert_eq!(plural["required"], serde_json::json!(["other"]));
    assert_eq!(plural["additionalProperties"], false);
    assert!(plural["properties"]["few"].is_object());
}

/// Every card effect the bundled mods write is one the editor schema offers, `preserve` included.
#[test]
fn the_editor_schema_knows_every_card_effect_the_bundled_mods_use() {
    let schema = data_schema();
    let offered: Vec<String> = schema["definitions"]["card_effect"]["properties"]["effect"]
        ["anyOf"][0]["enum"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect();
    assert!(offered.iter().any(|e| e == "preserve"), "{offered:?}");
    let text = std::fs::read_to_string(common::root().join("mods/core/data/hazards.toml")).unwrap();
    let data: toml::Table = text.parse().unwrap();
    let mut seen = 0;
    for card in data["cards"].as_array().unwrap() {
        let bottom = card
            .get("bottom")
            .and_then(|b| b.get("effects"))
            .and_then(|e| e.as_array());
        let lists = ["top", "ongoing"]
            .iter()
            .filter_map(|k| card.get(*k).and_then(|v| v.as_array()))
            .chain(bottom);
        for effect in lists.flatten() {
            let name = effect["effect"].as_str().unwrap();
            assert!(
                offered.iter().any(|e| e == name) || name.contains(':'),
                "`{name}` is not in the schema"
            );
            seen += 1;
        }
    }
    assert!(seen > 20, "only {seen} effects read");
}

/// Data files are TOML 1.1: an inline table over several lines with a trailing comma, and the
/// `\xHH` and `\e` escapes, read as TOML 1.1 says (the guide's first chapter promises it).
#[test]
fn data_files_are_toml_1_1() {
    let dir = tempfile::tempdir().unwrap();
    let m = dir.path().join("m");
    std::fs::create_dir_all(m.join("data")).unwrap();
    std::fs::write(m.join("mod.toml"), "id = \"m\"\nversion = \"1.0.0\"\n").unwrap();
    std::fs::write(
        m.join("data/items.toml"),
        "[[items]]\nid = \"cafe\"\nname = \"Caf\\xE9\"\ndescription = \"\\e\"\nproperties = {\n  warmth = 2,\n  sugar = 1,\n}\n",
    )
    .unwrap();
    let loaded = load(dir.path(), &lua_names());
    let rendered = lantern::diag::render_all(&loaded.diagnostics, &loaded.sources);
    assert!(loaded.diagnostics.is_empty(), "{rendered}");
    let item = &loaded.content.items[&Id::qualified("m:cafe").unwrap()];
    assert_eq!(item.name.unescaped(), "Café");
    assert_eq!(item.description, "\u{1b}");
}
