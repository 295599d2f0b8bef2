//! Every broken-mod fixture under `tests/fixtures/check/` is run through the real `lantern check`,
//! and its whole output (rendered diagnostics with carets, summary, exit code) is compared with the
//! fixture's `expected.txt`. Message and location are checked together, as `just` does.

mod common;

use common::{expect_file, lantern, root};

fn check_fixture(name: &str) {
    let dir = root().join("tests/fixtures/check").join(name);
    let out = lantern(&["check", "--mods", "mods"], &dir);
    let transcript = format!(
        "exit: {}\n--- stdout\n{}--- stderr\n{}",
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    expect_file(&dir.join("expected.txt"), &transcript);
}

macro_rules! fixtures {
    ($($name:ident),* $(,)?) => {
        $( #[test] fn $name() { check_fixture(stringify!($name)); } )*

        #[test]
        fn every_fixture_folder_has_a_test() {
            let listed = [$(stringify!($name)),*];
            let dir = root().join("tests/fixtures/check");
            for entry in std::fs::read_dir(&dir).unwrap() {
                let name = entry.unwrap().file_name().to_string_lossy().into_owned();
                assert!(listed.contains(&name.as_str()), "fixture `{name}` has no test in check_fixtures.rs");
            }
        }
    };
}

fixtures!(
    a_mod_given_for_its_folder,
    bare_name_compared_with_an_id,
    bad_encounter,
    bad_hazard,
    bad_language,
    bad_manifest_id,
    bad_rooms,
    bad_semver,
    bad_vocabulary,
    calls_between_mods,
    settings_declared_wrong,
    settings_in_conditions,
    settings_in_data,
    settings_read_by_scripts,
    updates_declared_wrong,
    conflicting_mods,
    damage_no_towers,
    dangling_references,
    dependency_cycle,
    duplicate_id,
    duplicate_mod_id,
    empty_mods_dir,
    empty_ids_and_huge_numbers,
    folder_without_manifest,
    hazard_route_rules,
    lua_bad_require,
    lua_literal_calls,
    lua_main_beside_manifest,
    lua_memory_bomb,
    lua_memory_bomb_kept,
    lua_runaway_loop,
    lua_runtime_error,
    lua_sandbox_in_lanterns_words,
    lua_syntax_error,
    lua_unclosed_block,
    key_under_another_name,
    lua_writes_the_game,
    event_nothing_emits,
    lua_unknown_event,
    manifest_names_a_mod_twice,
    missing_dependency,
    mod_id_changed,
    mod_layout_typos,
    names_another_mod_without_depending,
    missing_required_field,
    misspelt_required_key,
    modifier_depends_on_itself,
    not_utf8,
    one_mistake_one_message,
    override_listed,
    random_pool_empty,
    sub_table_under_another_table,
    script_deleted,
    stale_translation,
    override_without_dependency,
    placeholder_in_a_data_text,
    syntax_unclosed_array,
    toml_syntax_error,
    unknown_action,
    unknown_check,
    unknown_key_in_item,
    unknown_array_of_tables,
    unknown_table,
    version_mismatch,
    when_field_not_carried,
    wrong_types_everywhere,
    wrong_value_type,
);

#[test]
fn bundled_mods_check_clean() {
    let shipped = common::shipped_mods();
    let out = lantern(&["check"], shipped.path());
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("0 errors, 0 warnings in"));
}

#[test]
fn json_format_carries_the_same_fields() {
    let dir = root().join("tests/fixtures/check/dangling_references");
    let out = lantern(&["check", "--mods", "mods", "--format", "json"], &dir);
    assert_eq!(out.status.code(), Some(1));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("valid JSON");
    let first = &json["diagnostics"][0];
    assert_eq!(first["severity"], "error");
    assert_eq!(first["location"]["file"], "rats/data/all.toml");
    assert!(first["location"]["line"].as_u64().unwrap() > 0);
    assert!(first["help"].as_str().unwrap().starts_with("did you mean"));
    assert!(json["summary"].as_str().unwrap().contains("error"));
}

#[test]
fn usage_errors_exit_2() {
    let shipped = common::shipped_mods();
    let out = lantern(&["check", "--format", "yaml"], shipped.path());
    assert_eq!(out.status.code(), Some(2));
}
