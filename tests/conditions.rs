//! Conditions as dispatch evaluates them, each check with and without `not`, including a check about
//! a creature that is not there (the event has no target): whether the trigger fires, and what its
//! `why` trace says it saw. `has_item` and `has_tag` take an inlined path and the other checks the
//! general one; both must give the same answers.

mod common;

use common::world::TestMods;
use lantern::game::{ev, Game};

/// A game whose mod has one trigger per condition, each on `turn_started` (which has no target),
/// each healing the player by one when it fires.
fn game_with(conditions: &[(&str, &str)]) -> (Game, lantern::load::World, TestMods) {
    let mut data = String::new();
    for (name, condition) in conditions {
        data.push_str(&format!(
            "[[triggers]]\nid = \"{name}\"\non = \"turn_started\"\ncondition = [ {condition} ]\nactions = [ {{ action = \"heal\", amount = 1 }} ]\n\n"
        ));
    }
    let mods = TestMods::new(&[("data/conditions.toml", &data)]);
    let (game, world) = mods.game(1);
    (game, world, mods)
}

/// The triggers that fired on one `turn_started`, by their traces.
fn fired(g: &mut Game, names: &[&str]) -> Vec<String> {
    g.emit_command(ev::TURN_STARTED, None, &[]).unwrap();
    names
        .iter()
        .filter(|n| {
            g.why_text(&format!("test:{n}"))
                .unwrap()
                .contains("fired: the actions ran")
        })
        .map(|n| n.to_string())
        .collect()
}

#[test]
fn each_check_and_its_not_agree_about_the_player() {
    let (mut g, _w, _m) = game_with(&[
        ("has_gold", "{ check = \"has_item\", who = \"player\", item = \"core:gold\", count = 1000000 }"),
        ("not_has_gold", "{ check = \"has_item\", who = \"player\", item = \"core:gold\", count = 1000000, not = true }"),
        ("undead", "{ check = \"has_tag\", who = \"self\", value = \"core:undead\" }"),
        ("not_undead", "{ check = \"has_tag\", who = \"self\", value = \"core:undead\", not = true }"),
        ("strong", "{ check = \"attribute\", who = \"self\", attribute = \"attack\", at_least = 1000 }"),
        ("not_strong", "{ check = \"attribute\", who = \"self\", attribute = \"attack\", at_least = 1000, not = true }"),
    ]);
    let names = [
        "has_gold",
        "not_has_gold",
        "undead",
        "not_undead",
        "strong",
        "not_strong",
    ];
    assert_eq!(
        fired(&mut g, &names),
        vec!["not_has_gold", "not_undead", "not_strong"]
    );
    let why = g.why_text("test:has_gold").unwrap();
    assert!(
        why.contains("condition 1 failed: player has at least 1000000 core:gold (saw "),
        "{why}"
    );
    let why = g.why_text("test:undead").unwrap();
    assert!(
        why.contains("condition 1 failed: self has tag core:undead (saw core:player with tags ["),
        "{why}"
    );
    let why = g.why_text("test:strong").unwrap();
    assert!(
        why.contains("condition 1 failed: self attack at least 1000 (saw "),
        "{why}"
    );
}

#[test]
fn a_check_about_a_creature_that_is_not_there_fails_and_its_not_holds() {
    let (mut g, _w, _m) = game_with(&[
        ("target_has_gold", "{ check = \"has_item\", who = \"target\", item = \"core:gold\" }"),
        ("target_has_no_gold", "{ check = \"has_item\", who = \"target\", item = \"core:gold\", not = true }"),
        ("target_undead", "{ check = \"has_tag\", who = \"target\", value = \"core:undead\" }"),
        ("target_not_undead", "{ check = \"has_tag\", who = \"target\", value = \"core:undead\", not = true }"),
        ("target_strong", "{ check = \"attribute\", who = \"target\", attribute = \"attack\", at_least = 1 }"),
        ("target_not_strong", "{ check = \"attribute\", who = \"target\", attribute = \"attack\", at_least = 1, not = true }"),
    ]);
    let names = [
        "target_has_gold",
        "target_has_no_gold",
        "target_undead",
        "target_not_undead",
        "target_strong",
        "target_not_strong",
    ];
    assert_eq!(
        fired(&mut g, &names),
        vec![
            "target_has_no_gold",
            "target_not_undead",
            "target_not_strong"
        ]
    );
    for name in ["target_has_gold", "target_undead", "target_strong"] {
        let why = g.why_text(&format!("test:{name}")).unwrap();
        assert!(why.contains("(saw no such creature here)"), "{name}: {why}");
    }
}
