//! Structure-aware fuzzing of what a game keeps: random edits of a save file, and random edits of
//! the content between a save and its load. A corrupt save is refused with a message or loads with
//! what it could keep; either way nothing panics, and the game goes on taking commands. Bounded and
//! seeded, so it runs the same cases every time in a few seconds.

mod common;

use lantern::game::Game;
use lantern::hazard::{Route, Side};
use lantern::id::Id;
use lantern::load::{load_game, World};
use rand_chacha::rand_core::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::Value;
use std::panic::{catch_unwind, AssertUnwindSafe};

/// The mods of `dir` under the reference rules, whatever problems they have (a fuzzed content
/// may have errors; a save loads into what it has).
fn core_world(dir: &std::path::Path) -> World {
    load_game(
        &[dir.to_path_buf()],
        &lantern::roguelike::rules(),
        Default::default(),
    )
}

/// A game with something in every part of its state: items, a quest, a hazard half played.
fn rich_game(world: &mut World) -> Game {
    let mut g = world.start(7);
    let _ = g.verb("next", &[]);
    let give = lantern::content::ActionEntry {
        action: lantern::content::Action::GiveItem {
            item: Id::new("core", "gold"),
            count: 120,
            target: lantern::content::Who::Player,
        },
        span: lantern::diag::Span::new(lantern::diag::FileId(0), 0..0),
    };
    let _ = g.command_action(give, "give");
    let _ = g.command_action(
        lantern::content::ActionEntry {
            action: lantern::content::Action::StartQuest {
                quest: Id::new("core", "rattenplage"),
            },
            span: lantern::diag::Span::new(lantern::diag::FileId(0), 0..0),
        },
        "start",
    );
    let _ = g.start_hazard(&Id::new("core", "collapsing_bridge"));
    let _ = g.choose_route(Route::Risk, None);
    let _ = g.play_card(0, Side::Top);
    let _ = g.end_hazard_round();
    g
}

/// A few commands of every kind, chosen by `rng`; each must not panic.
fn play_on(g: &mut Game, rng: &mut ChaCha8Rng) {
    for _ in 0..12 {
        let pick = rng.next_u32() % 9;
        let n = (rng.next_u32() % 6) as usize;
        let _ = match pick {
            0 => g.verb("next", &[]).map(|_| ()),
            1 => g
                .verb("attack", &[lantern::content::Value::Int(n as i64 + 1)])
                .map(|_| ()),
            2 => g
                .play_card(
                    n,
                    if n.is_multiple_of(2) {
                        Side::Top
                    } else {
                        Side::Bottom
                    },
                )
                .map(|_| ()),
            3 => g.end_hazard_round().map(|_| ()),
            4 => g.choose(n + 1).map(|_| ()),
            5 => g
                .choose_route(
                    if n.is_multiple_of(2) {
                        Route::Safe
                    } else {
                        Route::Risk
                    },
                    None,
                )
                .map(|_| ()),
            6 => g
                .verb("use", &[lantern::content::Value::Str("core:potion".into())])
                .map(|_| ()),
            7 => g.verb("flee", &[]).map(|_| ()),
            _ => g
                .start_hazard(&Id::new("core", "burning_library"))
                .map(|_| ()),
        };
        let _ = g.state_hash();
        let _ = g.take_problems();
    }
}

/// Every path into the JSON tree, for picking one to edit.
fn paths(v: &Value, here: Vec<String>, out: &mut Vec<Vec<String>>) {
    out.push(here.clone());
    match v {
        Value::Object(map) => {
            for (k, child) in map {
                let mut p = here.clone();
                p.push(k.clone());
                paths(child, p, out);
            }
        }
        Value::Array(items) => {
            for (i, child) in items.iter().enumerate() {
                let mut p = here.clone();
                p.push(i.to_string());
                paths(child, p, out);
            }
        }
        _ => {}
    }
}

fn at<'a>(v: &'a mut Value, path: &[String]) -> Option<&'a mut Value> {
    path.iter().try_fold(v, |v, key| match v {
        Value::Object(map) => map.get_mut(key),
        Value::Array(items) => items.get_mut(key.parse::<usize>().ok()?),
        _ => None,
    })
}

/// Replaces a random part of the save with something a hostile or a broken file could hold,
/// mostly of the same kind as what was there, so that most edits get past the reader.
fn mutate(save: &mut Value, rng: &mut ChaCha8Rng) {
    let mut all = Vec::new();
    paths(save, Vec::new(), &mut all);
    let path = &all[(rng.next_u32() as usize) % all.len()];
    let roll = rng.next_u32();
    let Some(slot) = at(save, path) else { return };
    let same_kind = !roll.is_multiple_of(5);
    *slot = match (slot.take(), same_kind) {
        (Value::Number(_), true) => {
            let picks = [i64::MAX, i64::MIN, -1, 0, 1, 2, 5, 99, 100_000];
            Value::from(picks[(roll / 5) as usize % picks.len()])
        }
        (Value::String(_), true) => {
            let picks = [
                "core:nothing_by_that_name",
                "",
                "core:gold",
                "core:strike",
                "nope",
                "risk",
                "done",
            ];
            Value::from(picks[(roll / 5) as usize % picks.len()])
        }
        (Value::Array(mut items), true) => {
            match (roll / 5) % 3 {
                0 => items.clear(),
                1 if !items.is_empty() => {
                    items.remove((roll as usize / 15) % items.len());
                }
                _ => {
                    if let Some(first) = items.first().cloned() {
                        for _ in 0..(roll % 7) {
                            items.push(first.clone());
                        }
                    }
                }
            }
            Value::Array(items)
        }
        (Value::Bool(b), true) => Value::Bool(!b),
        (Value::Object(mut map), true) if !map.is_empty() => {
            let key = map.keys().nth((roll as usize / 5) % map.len()).cloned();
            if let Some(key) = key {
                map.remove(&key);
            }
            Value::Object(map)
        }
        _ => match roll % 6 {
            0 => Value::Null,
            1 => Value::from(u64::MAX),
            2 => Value::from(1e300),
            3 => Value::Array(Vec::new()),
            4 => Value::Object(Default::default()),
            _ => Value::from("x"),
        },
    };
}

#[test]
fn random_edits_of_a_save_are_refused_or_loaded_and_the_game_goes_on() {
    let dir = common::core_only();
    let mut world = core_world(dir.path());
    let saves = tempfile::tempdir().unwrap();
    let path = saves.path().join("run.json");
    rich_game(&mut world).save(&path).unwrap();
    let original: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(14);
    let (mut loaded, mut refused) = (0, 0);
    for case in 0..common::fuzz_cases(400) {
        let mut save = original.clone();
        for _ in 0..=(rng.next_u32() % 3) {
            mutate(&mut save, &mut rng);
        }
        std::fs::write(&path, serde_json::to_string(&save).unwrap()).unwrap();
        let outcome = catch_unwind(AssertUnwindSafe(|| match world.load_save(&path) {
            Ok((mut g, _notes)) => {
                play_on(&mut g, &mut rng);
                g.save(&path).expect("a loaded game saves again");
                true
            }
            Err(message) => {
                assert!(!message.message().is_empty());
                false
            }
        }));
        match outcome {
            Ok(true) => loaded += 1,
            Ok(false) => refused += 1,
            Err(_) => panic!("case {case} panicked; the save was {save}"),
        }
    }
    // Both ways out were taken, so the edits reached both the reader and the game.
    eprintln!("{loaded} loaded, {refused} refused");
    assert!(
        loaded > 30 && refused > 30,
        "{loaded} loaded, {refused} refused"
    );
}

/// Removes random definitions from the core mod's data files and shrinks random numbers.
fn edit_content(dir: &std::path::Path, rng: &mut ChaCha8Rng) {
    let data = dir.join("core/data");
    for entry in std::fs::read_dir(&data).unwrap() {
        let path = entry.unwrap().path();
        let text = std::fs::read_to_string(&path).unwrap();
        let mut doc: toml::Table = toml::from_str(&text).unwrap();
        for (_, value) in doc.iter_mut() {
            let Some(list) = value.as_array_mut() else {
                continue;
            };
            list.retain(|_| !rng.next_u32().is_multiple_of(4));
            for def in list.iter_mut().filter_map(|d| d.as_table_mut()) {
                for (key, v) in def.iter_mut() {
                    if key == "rounds" && rng.next_u32().is_multiple_of(2) {
                        *v = toml::Value::Integer(1);
                    }
                }
            }
        }
        std::fs::write(&path, toml::to_string(&doc).unwrap()).unwrap();
    }
}

#[test]
fn a_save_loads_into_content_that_changed_and_the_game_goes_on() {
    let saves = tempfile::tempdir().unwrap();
    let path = saves.path().join("run.json");
    let dir = common::core_only();
    rich_game(&mut core_world(dir.path())).save(&path).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(15);
    for case in 0..common::fuzz_cases(25) {
        let changed = common::core_only();
        edit_content(changed.path(), &mut rng);
        let mut world = core_world(changed.path());
        let outcome = catch_unwind(AssertUnwindSafe(|| {
            if let Ok((mut g, _notes)) = world.load_save(&path) {
                play_on(&mut g, &mut rng);
            }
            // The same edits under a running game, as a hot reload makes them.
            let mut g = rich_game(&mut core_world(dir.path()));
            let _ = g.swap_content(world.content.clone());
            play_on(&mut g, &mut rng);
        }));
        assert!(outcome.is_ok(), "case {case} panicked");
    }
}

#[test]
fn a_hazard_whose_rounds_shrank_is_set_aside_with_a_note() {
    let dir = common::core_only();
    let mut g = rich_game(&mut core_world(dir.path()));
    assert!(g.hazard().is_some());
    let changed = common::core_only();
    let hazards = changed.path().join("core/data/hazards.toml");
    let text = std::fs::read_to_string(&hazards).unwrap();
    let mut doc: toml::Table = toml::from_str(&text).unwrap();
    for h in doc["hazards"].as_array_mut().unwrap() {
        let h = h.as_table_mut().unwrap();
        if h["id"].as_str() == Some("collapsing_bridge") {
            h.insert("rounds".into(), toml::Value::Integer(1));
            h["safe"].as_table_mut().unwrap().insert(
                "thresholds".into(),
                toml::Value::Array(vec![toml::Value::Integer(1)]),
            );
            for m in h["risk"].as_array_mut().unwrap() {
                m.as_table_mut().unwrap().insert(
                    "thresholds".into(),
                    toml::Value::Array(vec![toml::Value::Integer(1)]),
                );
            }
        }
    }
    std::fs::write(&hazards, toml::to_string(&doc).unwrap()).unwrap();
    let loaded = core_world(changed.path());
    assert!(
        !loaded.diagnostics.iter().any(|d| d.is_error()),
        "{:?}",
        loaded.diagnostics
    );
    let notes = g.swap_content(loaded.content);
    let notes: Vec<&str> = notes.iter().map(|d| d.message.as_str()).collect();
    assert_eq!(
        notes,
        ["Collapsing Bridge has 1 rounds now, and the run was in round 2; the hazard is set aside until it returns, and the run goes on"]
    );
    assert!(g.hazard().is_none());
    // The run goes on: the next room opens.
    g.verb("next", &[]).unwrap();
}

/// A random Lua value as constructor text: plain data of every kind storage keeps, with the keys
/// a save could confuse (`1` and `"1"`, sparse and negative integers, floats, `"$pairs"`).
fn lua_value(rng: &mut ChaCha8Rng, depth: u32) -> String {
    let pick = rng.next_u32() % if depth >= 4 { 6 } else { 8 };
    match pick {
        0 => ["math.maxinteger", "math.mininteger", "0", "-7", "42"][rng.next_u32() as usize % 5]
            .into(),
        1 => ["0.5", "-2.25", "1e300", "2.0", "-0.0"][rng.next_u32() as usize % 5].into(),
        2 => [
            "'text'",
            "'\\u{3b1}\\u{3b2}'",
            "''",
            "'$pairs'",
            "'line\\nbreak'",
            "'1'",
        ][rng.next_u32() as usize % 6]
            .into(),
        3 => ["true", "false"][rng.next_u32() as usize % 2].into(),
        4 | 5 => format!("'s{}'", rng.next_u32() % 100),
        _ => {
            let n = rng.next_u32() % 6;
            let mut parts = Vec::new();
            let sequence = rng.next_u32().is_multiple_of(3);
            for i in 0..n {
                let value = lua_value(rng, depth + 1);
                if sequence {
                    parts.push(value);
                    continue;
                }
                let key = match rng.next_u32() % 7 {
                    0 => format!("[{}]", i + 1),
                    1 => format!("['{}']", i + 1),
                    2 => format!("[{}]", (rng.next_u32() % 1000) as i64 - 500),
                    3 => "[2.5]".to_string(),
                    4 => "['$pairs']".to_string(),
                    5 => "[true]".to_string(),
                    _ => format!("k{}", rng.next_u32() % 20),
                };
                parts.push(format!("{key} = {value}"));
            }
            format!("{{ {} }}", parts.join(", "))
        }
    }
}

#[test]
fn random_storage_shapes_load_back_equal_after_a_save_and_a_reload() {
    let mut rng = ChaCha8Rng::seed_from_u64(16);
    let shapes: Vec<String> = (0..60).map(|_| lua_value(&mut rng, 0)).collect();
    let lua = format!(
        "SHAPES = {{ {} }}\n\
         local function same(a, b)\n\
           if type(a) ~= type(b) then return false end\n\
           if type(a) ~= 'table' then return a == b and math.type(a) == math.type(b) end\n\
           for k, v in pairs(a) do if not same(v, b[k]) then return false end end\n\
           for k in pairs(b) do if a[k] == nil then return false end end\n\
           return true\n\
         end\n\
         lantern.on('turn_started', function()\n\
           local turn = lantern.game.turn\n\
           if lantern.storage.shape ~= nil then\n\
             lantern.log('shape ' .. lantern.storage.at .. (same(lantern.storage.shape, SHAPES[lantern.storage.at]) and ' same' or ' differs'))\n\
           end\n\
           lantern.storage.at = turn\n\
           lantern.storage.shape = SHAPES[turn]\n\
         end)\n",
        shapes.join(",\n")
    );
    let mods = common::world::TestMods::new(&[("scripts/main.lua", &lua)]);
    let saves = tempfile::tempdir().unwrap();
    let path = saves.path().join("run.json");
    let (mut g, world) = mods.game(3);
    for turn in 1..=shapes.len() {
        common::world::turn(&mut g);
        let _ = g.take_messages();
        g.save(&path).unwrap();
        // A fresh process's view: the save loaded into a new game with new scripts.
        let (mut loaded, _) = common::world::TestMods::new(&[("scripts/main.lua", &lua)])
            .world(Default::default())
            .load_save(&path)
            .unwrap();
        // Its turn counter says which shape comes next; the handler first compares the last.
        common::world::turn(&mut loaded);
        let said = loaded.take_messages().join("\n");
        assert!(
            said.contains(&format!("[test] shape {turn} same")),
            "shape {turn} `{}` came back different: {said}",
            shapes[turn - 1]
        );
        assert!(loaded.take_problems().is_empty(), "shape {turn}");
    }
    drop(world);
}

/// A crafted save whose storage nests deeper than storage may, or has keys storage cannot hold,
/// loaded without a word: the mod was then blamed at the end of every turn and nothing it stored
/// was saved again. A save with a health of `i64::MAX` or numbers past any content's loaded as
/// well. Load brings both within what a running game keeps to, and says what it dropped or
/// clamped; the mod's storage works again on the next turn.
#[test]
fn a_crafted_save_is_brought_within_bounds_with_a_word() {
    let lua = "lantern.on('turn_started', function()\n\
                 lantern.storage.turns = (lantern.storage.turns or 0) + 1\n\
               end)\n";
    let mods = common::world::TestMods::new(&[("scripts/main.lua", lua)]);
    let saves = tempfile::tempdir().unwrap();
    let path = saves.path().join("run.json");
    let (mut g, _world) = mods.game(3);
    common::world::turn(&mut g);
    g.save(&path).unwrap();
    let mut save: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let mut deep = serde_json::json!({"bottom": 1});
    for _ in 0..40 {
        deep = serde_json::json!({ "down": deep });
    }
    save["state"]["storage"]["test"] = serde_json::json!({
        "turns": 1,
        "deep": deep,
        "odd": { "$pairs": [[{"a": 1}, "a table key"], [7, "kept"]] },
    });
    save["state"]["player"]["health"] = serde_json::json!(i64::MAX);
    save["state"]["player"]["attributes"]["armor"] = serde_json::json!(i64::MIN);
    std::fs::write(&path, serde_json::to_string(&save).unwrap()).unwrap();

    let (mut loaded, notes) = mods.world(Default::default()).load_save(&path).unwrap();
    let notes: Vec<String> = notes.iter().map(|d| d.message.clone()).collect();
    assert!(
        notes.iter().any(|n| n == "the save held numbers past what a game keeps to (±1000000000), which were clamped: Hero's health was 9223372036854775807, now 1000000000; Hero's armor was -9223372036854775808, now -1000000000"),
        "{notes:#?}"
    );
    assert_eq!(loaded.state().player.health, 1_000_000_000);
    // What plugging the scripts in said is among the notes too, and nothing is left behind.
    assert!(loaded.take_problems().is_empty());
    assert_eq!(
        &notes[1..],
        ["[test] its saved storage held what storage cannot, which was dropped: lantern.storage.deep.down.down.down.down.down.down.down.down.down.down.down.down.down.down.down.down.down.down.down.down.down.down.down.down.down.down.down.down.down.down.down (tables nested more than 32 deep); an entry of lantern.storage.odd (a key storage cannot hold: keys are text, numbers or booleans)"],
    );
    // The mod's storage works again: a turn saves it, and it loads back with no word.
    common::world::turn(&mut loaded);
    assert_eq!(loaded.take_problems(), Vec::new());
    loaded.save(&path).unwrap();
    let again: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(again["state"]["storage"]["test"]["turns"], 2);
    assert_eq!(
        again["state"]["storage"]["test"]["odd"],
        serde_json::json!({"$pairs": [[7, "kept"]]})
    );
}

/// A save of zeros (`[0,0,0,...]` in a mod's storage) built a JSON tree 16 to 32 times its size
/// before anything looked at it: 80 MB peaked at 6 GB. Its values are counted as they are read,
/// in a current save and in an older one alike, and past the bound it is refused with a word.
#[test]
fn a_save_of_millions_of_zeros_is_refused_while_it_is_read() {
    let mods = common::world::TestMods::new(&[("scripts/main.lua", "")]);
    let saves = tempfile::tempdir().unwrap();
    let path = saves.path().join("run.json");
    let (g, _world) = mods.game(3);
    g.save(&path).unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    let zeros = format!("[{}0]", "0,".repeat(4_000_000));
    let crafted = text.replacen(
        "\"storage\": {}",
        &format!("\"storage\": {{\"test\": {zeros}}}"),
        1,
    );
    assert_ne!(crafted, text, "the save has an empty storage to fill");
    for version in ["\"version\": 3", "\"version\": 2"] {
        std::fs::write(&path, crafted.replacen("\"version\": 3", version, 1)).unwrap();
        let refused = mods
            .world(Default::default())
            .load_save(&path)
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(
            refused.contains("is not a lantern save file: it holds more than 4000000 values in its storage and world, more than any game lantern saves"),
            "{version}: {refused}"
        );
    }
}
