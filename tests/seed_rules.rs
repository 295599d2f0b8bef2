//! The rules of the seed documents as they are written: each test states one rule in the project's
//! words, over a mod written for it beside the bundled core, and plays it through the library.

mod common;

use common::world::TestMods;
use lantern::content::{Action, ActionEntry, Value, Who};
use lantern::diag::{FileId, Span};
use lantern::game::{ev, CreatureRef, Game};
use lantern::id::Id;

fn id(s: &str) -> Id {
    Id::qualified(s).unwrap()
}

fn give(g: &mut Game, item: &str, count: u32) {
    let entry = ActionEntry {
        action: Action::GiveItem {
            item: id(item),
            count,
            target: Who::Player,
        },
        span: Span::file_start(FileId(0)),
    };
    g.command_action(entry, "give").unwrap();
}

fn take(g: &mut Game, item: &str, count: u32) {
    let entry = ActionEntry {
        action: Action::TakeItem {
            item: id(item),
            count,
            target: Who::Player,
        },
        span: Span::file_start(FileId(0)),
    };
    g.command_action(entry, "take").unwrap();
}

fn gold(g: &Game) -> u32 {
    g.state().player.count(&id("core:gold"))
}

/// The seed's thorn trigger, word for word, standing at the top level of a mod.
const THORNS_AT_TOP_LEVEL: &str = r#"
[[triggers]]
on = "damage_taken"
when = { damage_type = "fire" }
condition = [ { check = "has_tag", who = "target", value = "core:undead" } ]
actions = [ { action = "damage", amount = 3, damage_type = "fire", target = "target" } ]

[[creatures]]
id = "lich"
name = "Lich"
tags = ["core:undead"]
health = 900
damage = 2
damage_type = "fire"
"#;

/// A world trigger's bearer is the player, and `damage_taken` happens to the one hit: the trigger
/// answers the player being burnt, once, and not the lich being burnt by its answer (which ran
/// into the event cap, 900 health or not).
#[test]
fn the_seeds_thorn_trigger_at_top_level_reflects_once() {
    let mods = TestMods::new(&[("data/thorns.toml", THORNS_AT_TOP_LEVEL)]);
    let (mut g, _world) = mods.game(1);
    let lich = g.spawn(&id("test:lich")).unwrap();
    let hp = |g: &Game, who| g.creature(who).unwrap().health;
    let (player, lich_before) = (hp(&g, CreatureRef::Player), hp(&g, lich));
    // The lich burns the player for 2.
    g.emit_command(
        ev::DAMAGE_TAKEN,
        Some(lich),
        &[(0, Value::Int(2)), (1, Value::str("fire"))],
    )
    .unwrap();
    assert_eq!(hp(&g, lich), lich_before - 3, "one reflection of 3");
    assert_eq!(
        hp(&g, CreatureRef::Player),
        player,
        "the emit itself deals nothing"
    );
    assert!(g.take_problems().is_empty());
}

/// The same trigger on an item reflects once too: there its bearer is the item's owner.
#[test]
fn the_seeds_thorn_trigger_on_an_item_reflects_once() {
    let item = THORNS_AT_TOP_LEVEL.replacen(
        "[[triggers]]",
        "[[items]]\nid = \"thorns\"\n\n[[items.triggers]]",
        1,
    );
    let mods = TestMods::new(&[("data/thorns.toml", &item)]);
    let (mut g, _world) = mods.game(1);
    give(&mut g, "test:thorns", 1);
    let lich = g.spawn(&id("test:lich")).unwrap();
    let before = g.creature(lich).unwrap().health;
    g.emit_command(
        ev::DAMAGE_TAKEN,
        Some(lich),
        &[(0, Value::Int(2)), (1, Value::str("fire"))],
    )
    .unwrap();
    assert_eq!(g.creature(lich).unwrap().health, before - 3);
}

/// `attack_hit` happens at the attacker: a world trigger on it answers the player's blows only,
/// not the enemy hitting back. `who = "source"` and `is_player` ask about the event's sides.
#[test]
fn a_world_trigger_on_attack_hit_answers_the_players_blows_only() {
    let data = r#"
[[triggers]]
id = "bounty"
on = "attack_hit"
condition = [ { check = "has_tag", who = "target", value = "core:undead" } ]
actions = [ { action = "give_item", item = "core:gold", count = 1 } ]

[[triggers]]
id = "witness"
on = "creature_died"
condition = [ { check = "is_player", who = "source", not = true } ]
actions = [ { action = "give_item", item = "core:gold", count = 100 } ]

[[creatures]]
id = "tough_skeleton"
name = "Tough Skeleton"
tags = ["core:undead"]
health = 500
damage = 1
"#;
    let mods = TestMods::new(&[("data/bounty.toml", data)]);
    let (mut g, _world) = mods.game(1);
    g.spawn(&id("test:tough_skeleton")).unwrap();
    let before = gold(&g);
    for _ in 0..3 {
        g.verb("attack", &[]).unwrap();
    }
    let hits_back = g
        .log()
        .filter(|h| h.event.kind == ev::ATTACK_HIT && h.event.source != CreatureRef::Player)
        .count();
    assert_eq!(hits_back, 3, "the skeleton hit back every turn");
    assert_eq!(gold(&g) - before, 3, "one coin per blow of the player's");
    // A rat's death is not the player's: the witness pays.
    let rat = g.spawn(&id("core:rat")).unwrap();
    g.emit_command(ev::CREATURE_DIED, Some(rat), &[]).unwrap();
    assert_eq!(gold(&g) - before, 103);
}

/// A modifier's condition sees an attribute as everything else does: the level the crown gives
/// counts for the blade's "+4 attack at level 3 or more" (it read the base level, 1, and never
/// applied).
#[test]
fn a_modifiers_condition_sees_the_attribute_other_items_give() {
    let data = r#"
[[items]]
id = "crown"
slot = "trinket"
modifiers = [ { attribute = "level", add = 3 } ]

[[items]]
id = "blade"
slot = "weapon"
modifiers = [ { attribute = "attack", add = 4, condition = [ { check = "attribute", who = "self", attribute = "level", at_least = 3 } ] } ]
"#;
    let mods = TestMods::new(&[("data/kit.toml", data)]);
    let (mut g, _world) = mods.game(1);
    take(&mut g, "core:dagger", 1);
    give(&mut g, "test:blade", 1);
    let base = g.attribute(CreatureRef::Player, "attack", None);
    give(&mut g, "test:crown", 1);
    assert_eq!(g.attribute(CreatureRef::Player, "level", None), 4);
    assert_eq!(g.attribute(CreatureRef::Player, "attack", None), base + 4);
}

/// A Lua check works wherever a condition may stand: in an item's modifier (it loaded with no
/// error and never applied), in an encounter's eligibility (always false) and in its options
/// (always true), the same answer everywhere.
#[test]
fn a_lua_check_holds_in_a_modifier_and_in_an_encounters_options() {
    let lua = "lantern.register_check('is_night', function(ctx, args) return args.answer end)";
    let data = r#"
[[items]]
id = "moon_blade"
slot = "trinket"
modifiers = [ { attribute = "attack", add = 5, condition = [ { check = "test:is_night", answer = true } ] } ]

[[items]]
id = "sun_blade"
slot = "trinket"
modifiers = [ { attribute = "armor", add = 5, condition = [ { check = "test:is_night", answer = false } ] } ]

[[encounters]]
id = "night_market"
title = "Night Market"
weight = 1
condition = [ { check = "test:is_night", answer = false } ]

[[encounters.options]]
text = "Buy"
requirements = [ { check = "test:is_night", answer = false, reason = "only at night" } ]

[[encounters.options]]
text = "Leave"
"#;
    let mods = TestMods::new(&[("scripts/main.lua", lua), ("data/night.toml", data)]);
    let (mut g, world) = mods.game(1);
    assert!(!world.has_errors());
    let (attack, armor) = (
        g.attribute(CreatureRef::Player, "attack", None),
        g.attribute(CreatureRef::Player, "armor", None),
    );
    give(&mut g, "test:moon_blade", 1);
    give(&mut g, "test:sun_blade", 1);
    assert_eq!(g.attribute(CreatureRef::Player, "attack", None), attack + 5);
    assert_eq!(g.attribute(CreatureRef::Player, "armor", None), armor);
    g.start_encounter(&id("test:night_market")).unwrap();
    let view = g.encounter().unwrap();
    assert_eq!(
        view.options[0].blocked.as_ref().map(|b| b.unescaped()),
        Some("only at night")
    );
    assert_eq!(view.options[1].blocked, None);
    assert!(g
        .choose(1)
        .unwrap_err()
        .to_string()
        .contains("only at night"));
}

const MARKET: &str = r#"
[[encounters]]
id = "market"
title = "Market"
weight = 1

[[encounters.options]]
text = "Trade at the till"
rewards = [ { action = "give_item", item = "core:gold", count = 100 }, { action = "take_item", item = "core:gold", count = 100 } ]

[[encounters.options]]
text = "Bet"
probability = 0.7
rewards = [ { action = "give_item", item = "core:gold", count = 5 } ]
"#;

/// Seed 000, F4: the working copy has no cap, the cap of 9999 is applied on commit. At 9990 gold,
/// +100 then -100 in one option leaves 9990 (capping each `give_item` left 9899).
#[test]
fn the_gold_cap_applies_when_an_option_is_committed() {
    let mods = TestMods::new(&[("data/market.toml", MARKET)]);
    let (mut g, _world) = mods.game(1);
    give(&mut g, "core:gold", 9999);
    take(&mut g, "core:gold", 9);
    assert_eq!(gold(&g), 9990);
    g.start_encounter(&id("test:market")).unwrap();
    g.choose(1).unwrap();
    assert_eq!(gold(&g), 9990);
    // A plain give is capped as before: on its own it is a whole list, committed at once.
    give(&mut g, "core:gold", 100);
    assert_eq!(gold(&g), 9999);
}

/// Seed 000, F1: `NextDouble() <= probability` succeeds, so a roll equal to it wins.
#[test]
fn a_roll_equal_to_the_probability_succeeds() {
    let mods = TestMods::new(&[("data/market.toml", MARKET)]);
    let (mut g, _world) = mods.game(1);
    let before = gold(&g);
    g.start_encounter(&id("test:market")).unwrap();
    g.stub_rng(None, lantern::rng::Stub::Fixed(0.7));
    g.choose(2).unwrap();
    assert_eq!(gold(&g), before + 5);
}
