//! Conditions as dispatch evaluates them, each check with and without `not`, including a check about
//! a creature that is not there (the event has no target): whether the trigger fires, and what its
//! `why` trace says it saw. `has_item` and `has_tag` take an inlined path and the other checks the
//! general one; both must give the same answers.

mod common;

use common::world::TestMods;
use lantern::content::Value;
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

/// Top-level triggers and quests whose test has a quick form (at most one `when` and one
/// `has_item` of an item or `has_tag`, no `chance`) are answered from their listener's own record
/// when they fail; the rest, and those that pass, are evaluated in full. Both must say the same:
/// a debug build checks every quick answer against the full evaluation, and this walks each kind
/// of quick answer and what its `why` says, beside tests that have no quick form.
#[test]
fn quick_tests_answer_and_explain_as_the_full_evaluation_does() {
    let data = "[[event_types]]\nid = \"ping\"\npayload = { power = \"int\", name = \"string\" }\n\n\
        [[triggers]]\nid = \"start\"\non = \"turn_started\"\nactions = [ { action = \"start_quest\", quest = \"pings\" } ]\n\n\
        [[triggers]]\nid = \"loud\"\non = \"ping\"\nwhen = { power = 3 }\nactions = [ { action = \"heal\", amount = 1 } ]\n\n\
        [[triggers]]\nid = \"named\"\non = \"ping\"\nwhen = { name = \"bob\" }\ncondition = [ { check = \"has_item\", who = \"player\", item = \"core:gold\", count = 1000000 } ]\nactions = [ { action = \"heal\", amount = 1 } ]\n\n\
        [[triggers]]\nid = \"undead\"\non = \"ping\"\ncondition = [ { check = \"has_tag\", who = \"self\", value = \"core:undead\" } ]\nactions = [ { action = \"heal\", amount = 1 } ]\n\n\
        [[triggers]]\nid = \"lucky\"\non = \"ping\"\nwhen = { power = 1 }\nchance = 0.0\nactions = [ { action = \"heal\", amount = 1 } ]\n\n\
        [[triggers]]\nid = \"both\"\non = \"ping\"\ncondition = [ { check = \"has_tag\", who = \"self\", value = \"core:undead\", not = true }, { check = \"has_item\", who = \"player\", item = \"core:gold\", count = 1000000 } ]\nactions = [ { action = \"heal\", amount = 1 } ]\n\n\
        [[quests]]\nid = \"pings\"\nname = \"Pings\"\non = \"ping\"\nwhen = { power = 2 }\ncount = 2\n\n\
        [[quests]]\nid = \"never\"\nname = \"Never\"\non = \"ping\"\ncount = 2\n";
    let mods = TestMods::new(&[("data/quick.toml", data)]);
    let (mut g, _w) = mods.game(1);
    g.emit_command(ev::TURN_STARTED, None, &[]).unwrap();
    let ping = g.content().events.lookup("test:ping").unwrap();
    let why = |g: &Game, id: &str| g.why_text(&format!("test:{id}")).unwrap();
    let field = |name: &str| {
        let def = g.content().events.get(ping);
        def.payload.iter().position(|(f, _)| f == name).unwrap()
    };
    let (power_at, name_at) = (field("power"), field("name"));
    let send = |g: &mut Game, power: i64, name: &str| {
        let payload = [
            (power_at, Value::Int(power)),
            (name_at, Value::Str(name.into())),
        ];
        g.emit_command(ping, None, &payload).unwrap();
    };

    send(&mut g, 1, "al");
    assert!(
        why(&g, "loud").contains("`when` power: wanted 3, the event had 1"),
        "{}",
        why(&g, "loud")
    );
    assert!(
        why(&g, "named").contains("`when` name: wanted"),
        "{}",
        why(&g, "named")
    );
    assert!(
        why(&g, "named").contains("the event had"),
        "{}",
        why(&g, "named")
    );
    assert!(
        why(&g, "undead").contains("condition 1 failed: self has tag core:undead (saw core:player"),
        "{}",
        why(&g, "undead")
    );
    assert!(
        why(&g, "lucky").contains("against chance 0: no luck"),
        "{}",
        why(&g, "lucky")
    );
    assert!(
        why(&g, "both").contains("condition 2 failed"),
        "{}",
        why(&g, "both")
    );
    assert!(
        why(&g, "pings").contains("`when` power: wanted 2, the event had 1"),
        "{}",
        why(&g, "pings")
    );
    assert!(
        why(&g, "never").contains("the quest is not started"),
        "{}",
        why(&g, "never")
    );

    send(&mut g, 3, "bob");
    assert!(
        why(&g, "loud").contains("fired: the actions ran"),
        "{}",
        why(&g, "loud")
    );
    assert!(
        why(&g, "named")
            .contains("condition 1 failed: player has at least 1000000 core:gold (saw "),
        "{}",
        why(&g, "named")
    );

    send(&mut g, 2, "al");
    assert!(
        why(&g, "pings").contains("counted: 1 of 2"),
        "{}",
        why(&g, "pings")
    );
    assert!(
        why(&g, "loud").contains("`when` power: wanted 3, the event had 2"),
        "{}",
        why(&g, "loud")
    );
}

#[test]
fn triggers_of_one_shape_in_a_row_are_each_explained_and_each_fire() {
    // Three triggers of one quick form, one of another, then two of the first again: each run
    // of one form is tested once an event, and every trigger's own trace is written.
    let gold = "{ check = \"has_item\", who = \"player\", item = \"core:gold\", count = 5000 }";
    let undead = "{ check = \"has_tag\", who = \"self\", value = \"core:undead\" }";
    let conditions = [
        ("a", gold),
        ("b", gold),
        ("c", gold),
        ("d", undead),
        ("e", gold),
        ("f", gold),
    ];
    let (mut g, _w, _m) = game_with(&conditions);
    let names: Vec<&str> = conditions.iter().map(|(n, _)| *n).collect();
    assert!(fired(&mut g, &names).is_empty());
    for name in ["a", "b", "c", "e", "f"] {
        let why = g.why_text(&format!("test:{name}")).unwrap();
        assert!(
            why.contains("condition 1 failed: player has at least 5000 core:gold (saw "),
            "{name}: {why}"
        );
    }
    let why = g.why_text("test:d").unwrap();
    assert!(
        why.contains("self has tag core:undead (saw core:player"),
        "{why}"
    );
    // Rich enough, the whole run of one form fires, each trigger for itself.
    let give = lantern::content::ActionEntry {
        action: lantern::content::Action::GiveItem {
            item: lantern::id::Id::new("core", "gold"),
            count: 5000,
            target: lantern::content::Who::Player,
        },
        span: lantern::diag::Span::new(lantern::diag::FileId(0), 0..0),
    };
    g.command_action(give, "give").unwrap();
    assert_eq!(fired(&mut g, &names), ["a", "b", "c", "e", "f"]);
}
