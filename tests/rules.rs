//! The rules engine through the library API, over the real bundled mods: the seed 001 scenarios,
//! FIFO order, quest chains, the event cap, saves, and determinism across processes.

mod common;

use common::{lantern, root};
use lantern::content::{Action, ActionEntry, Value, Who};
use lantern::diag::{FileId, Span};
use lantern::game::{ev, CreatureRef, Game};
use lantern::id::Id;
use lantern::rng::Stub;

/// The bundled core mod as one set, loaded once for every test's games.
fn core() -> lantern::mod_set::ModSet {
    static CORE: std::sync::OnceLock<lantern::mod_set::ModSet> = std::sync::OnceLock::new();
    CORE.get_or_init(|| common::reference_set(common::core_only().path()))
        .clone()
}

fn id(s: &str) -> Id {
    Id::qualified(s).unwrap()
}

fn act(action: Action) -> ActionEntry {
    ActionEntry {
        action,
        span: Span::file_start(FileId(0)),
    }
}

/// A game whose player has swapped the dagger for the flaming sword.
fn with_flaming_sword() -> Game {
    let mut g = core().start(7).unwrap();
    let take = Action::TakeItem {
        item: id("core:dagger"),
        count: 1,
        target: Who::Player,
    };
    g.command_action(act(take), "take").unwrap();
    let give = Action::GiveItem {
        item: id("core:flaming_sword"),
        count: 1,
        target: Who::Player,
    };
    g.command_action(act(give), "give").unwrap();
    g
}

/// Starts the seed's rat quest through the one door, as the `start` command does.
fn start_rattenplage(g: &mut Game) {
    g.command_action(
        act(Action::StartQuest {
            quest: id("core:rattenplage"),
        }),
        "start",
    )
    .unwrap();
}

fn kill_rat(g: &mut Game) {
    let rat = g.spawn(&id("core:rat")).unwrap();
    g.emit_command(ev::CREATURE_DIED, Some(rat), &[]).unwrap();
}

#[test]
fn five_rats_after_start_quest_pay_50_gold_and_rats_before_count_nothing() {
    let mut g = core().start(7).unwrap();
    let gold = id("core:gold");
    let before = g.state().player.count(&gold);
    kill_rat(&mut g);
    kill_rat(&mut g);
    assert!(
        g.state().quests.is_empty(),
        "rats killed before start_quest count nothing"
    );
    start_rattenplage(&mut g);
    for _ in 0..4 {
        kill_rat(&mut g);
    }
    assert_eq!(g.state().quests[&id("core:rattenplage")].count, 4);
    assert!(!g.state().quests[&id("core:rattenplage")].done);
    kill_rat(&mut g);
    let p = &g.state().quests[&id("core:rattenplage")];
    assert!(p.done && p.count == 5);
    assert_eq!(g.state().player.count(&gold), before + 50);
    // A done quest stays in the list and counts no more.
    kill_rat(&mut g);
    assert_eq!(g.state().player.count(&gold), before + 50);
}

#[test]
fn the_player_dying_does_not_count_as_a_rat_kill() {
    let mut g = core().start(7).unwrap();
    start_rattenplage(&mut g);
    g.spawn(&id("core:rat")).unwrap();
    g.emit_command(ev::CREATURE_DIED, Some(CreatureRef::Player), &[])
        .unwrap();
    assert_eq!(g.state().quests[&id("core:rattenplage")].count, 0);
}

#[test]
fn quest_chain_through_quest_completed() {
    let mut g = core().start(7).unwrap();
    start_rattenplage(&mut g);
    for _ in 0..5 {
        kill_rat(&mut g);
    }
    assert!(
        g.state().quests.contains_key(&id("core:keller")),
        "completing rattenplage starts keller"
    );
    let names: Vec<&str> = g
        .log()
        .map(|h| g.content().events.get(h.event.kind).name.as_str())
        .collect();
    let done = names.iter().position(|n| *n == "quest_completed").unwrap();
    assert_eq!(names[done + 1], "quest_started");
}

#[test]
fn thorn_armour_reflects_fire_only_and_only_onto_the_undead() {
    let mut g = core().start(7).unwrap();
    g.command_action(
        act(Action::GiveItem {
            item: id("core:thorn_armor"),
            count: 1,
            target: Who::Player,
        }),
        "give",
    )
    .unwrap();
    let skeleton = g.spawn(&id("core:skeleton")).unwrap();
    let hp = |g: &Game| g.creature(skeleton).unwrap().health;
    let start = hp(&g);
    let fire = |amount| [(0, Value::Int(amount)), (1, Value::str("fire"))];
    g.emit_command(
        ev::DAMAGE_TAKEN,
        Some(skeleton),
        &[(0, Value::Int(2)), (1, Value::str("physical"))],
    )
    .unwrap();
    assert_eq!(hp(&g), start, "physical damage is not reflected");
    assert!(g
        .why_text("core:thorn_armor_reflect")
        .unwrap()
        .contains("wanted \"fire\""));
    g.emit_command(ev::DAMAGE_TAKEN, Some(skeleton), &fire(2))
        .unwrap();
    assert_eq!(
        hp(&g),
        start - 3,
        "fire damage from an undead is reflected for 3"
    );
    let rat = g.spawn(&id("core:giant_rat")).unwrap();
    let rat_hp = g.creature(rat).unwrap().health;
    g.emit_command(ev::DAMAGE_TAKEN, Some(rat), &fire(2))
        .unwrap();
    assert_eq!(
        g.creature(rat).unwrap().health,
        rat_hp,
        "a rat is not undead"
    );
}

#[test]
fn flaming_sword_burns_on_a_stubbed_roll_below_twenty_percent() {
    for (roll, burns) in [(0.1, true), (0.5, false)] {
        let mut g = with_flaming_sword();
        let sk = g.spawn(&id("core:skeleton")).unwrap();
        g.stub_rng(Some("trigger:core:flaming_sword_burn"), Stub::Fixed(roll));
        let start = g.creature(sk).unwrap().health;
        g.verb("attack", &[]).unwrap();
        let fire_hits = g
            .log()
            .filter(|h| {
                h.event.kind == ev::DAMAGE_TAKEN && h.event.field(1) == Some(&Value::str("fire"))
            })
            .count();
        assert_eq!(fire_hits == 1, burns, "roll {roll}");
        let trace = g.why_text("core:flaming_sword_burn").unwrap();
        assert!(trace.contains("rolled"), "{trace}");
        assert!(g.creature(sk).unwrap().health < start);
    }
}

#[test]
fn a_reward_that_emits_an_event_is_handled_after_the_events_already_waiting() {
    // An attack queues attack_hit and the physical damage_taken together. The flaming sword fires on
    // attack_hit and queues a fire damage_taken: FIFO puts it after the physical one already waiting
    // (the seed's first implementation popped from the back, and no test noticed).
    let mut g = with_flaming_sword();
    g.spawn(&id("core:skeleton")).unwrap();
    g.stub_rng(None, Stub::Fixed(0.0));
    g.verb("attack", &[]).unwrap();
    let kinds: Vec<(String, Option<Value>)> = g
        .log()
        .map(|h| {
            (
                g.content().events.get(h.event.kind).name.clone(),
                h.event.field(1).cloned(),
            )
        })
        .collect();
    let hit = kinds.iter().position(|(n, _)| n == "attack_hit").unwrap();
    let physical = kinds
        .iter()
        .position(|(n, t)| n == "damage_taken" && *t == Some(Value::str("physical")))
        .unwrap();
    let fire = kinds
        .iter()
        .position(|(n, t)| n == "damage_taken" && *t == Some(Value::str("fire")))
        .unwrap();
    assert!(hit < physical && physical < fire, "{kinds:?}");
}

#[test]
fn two_triggers_that_fire_each_other_stop_at_the_cap_with_the_chain_named() {
    let loaded = common::reference_set(&root().join("tests/fixtures/rules/loop/mods"));
    let mut g = loaded.start(1).unwrap();
    let ping = loaded.content().events.lookup("loop:ping").unwrap();
    g.emit_command(ping, None, &[]).unwrap();
    let problems = g.take_problems();
    assert_eq!(problems.len(), 1);
    let rendered = lantern::diag::render(&problems[0], loaded.sources());
    assert!(
        rendered.contains(
            "one turn raised 101 events, more than its cap of 100: the turn was stopped and 1 \
             were not handled. The chain that looped: loop:on_ping -> loop:on_pong -> \
             loop:on_ping\n"
        ),
        "{rendered}"
    );
    assert!(rendered.contains("/loop/data/loop.toml:"), "{rendered}");
    // The game goes on: the next command is handled normally.
    g.emit_command(ev::TURN_STARTED, None, &[]).unwrap();
}

/// A game whose own events come in numbers raises the cap: 120 events raised in one turn all
/// reach the quest that counts them. Under the default cap the turn stops and says so twice: the
/// turn answers with a typed error the game cannot miss, and a problem says how many events the
/// turn raised, that no chain looped, and which setting to raise.
#[test]
fn a_game_raises_the_event_cap_and_no_event_past_a_cap_is_dropped_silently() {
    let mods = common::world::TestMods::new(&[(
        "data/harvest.toml",
        "[[event_types]]\nid = \"harvested\"\n\n\
         [[quests]]\nid = \"crops\"\nname = \"Crops\"\non = \"harvested\"\ncount = 1000\nactions = []\n",
    )]);
    let run = |cap: Option<usize>| {
        let (mut g, world) = mods.game(1);
        if let Some(cap) = cap {
            g.set_event_cap(cap);
        }
        g.turn(|g| {
            g.perform(
                "start_quest",
                &[("quest", Value::str("test:crops"))],
                "start",
            )
        })
        .unwrap();
        // One turn of the game's own: every plot harvested raises an event.
        let turn = g.turn(|g| {
            for _ in 0..120 {
                g.raise("test:harvested", &[])?;
            }
            Ok(())
        });
        let count = g.state().quests[&Id::qualified("test:crops").unwrap()].count;
        (turn, count, common::world::problems(&mut g, &world))
    };
    let (turn, count, problems) = run(Some(500));
    assert_eq!(turn, Ok(()));
    assert_eq!(count, 120);
    assert!(problems.is_empty(), "{problems:#?}");
    let (turn, count, problems) = run(None);
    let stopped = "one turn raised 120 events, more than its cap of 100: the turn was stopped and \
                   20 were not handled. No chain looped: the turn's events outnumber the cap";
    match turn {
        Err(lantern::Error::EventCap {
            message,
            raised: 120,
            cap: 100,
        }) => assert_eq!(message, stopped),
        other => panic!("{other:?}"),
    }
    assert_eq!(count, 100);
    assert_eq!(problems.len(), 1, "{problems:#?}");
    assert!(problems[0].contains(stopped), "{}", problems[0]);
    assert!(
        problems[0].contains("raises the cap with `Game::set_event_cap`"),
        "{}",
        problems[0]
    );
}

#[test]
fn a_failing_action_list_leaves_nothing_applied_and_names_its_line() {
    let dir = tempfile::tempdir().unwrap();
    let m = dir.path().join("shop");
    std::fs::create_dir_all(m.join("data")).unwrap();
    std::fs::write(m.join("mod.toml"), "id = \"shop\"\nversion = \"1.0.0\"\n").unwrap();
    std::fs::write(
        m.join("data/shop.toml"),
        "[[items]]\nid = \"gold\"\nstack = 9999\n\n[[items]]\nid = \"gem\"\n\n[[triggers]]\non = \"turn_started\"\nactions = [ { action = \"give_item\", item = \"gem\" }, { action = \"take_item\", item = \"gold\", count = 100 } ]\n",
    )
    .unwrap();
    let loaded = common::reference_set(dir.path());
    let mut g = loaded.start(1).unwrap();
    // What the turn leaves if the list changes nothing: the same state, one turn on.
    let mut expected = g.state().clone();
    expected.turn += 1;
    g.emit_command(ev::TURN_STARTED, None, &[]).unwrap();
    assert_eq!(*g.state(), expected, "the failed list left nothing behind");
    assert_eq!(
        g.state().player.count(&id("shop:gem")),
        0,
        "the gem of a failed list is taken back"
    );
    let problems = g.take_problems();
    let rendered = lantern::diag::render(&problems[0], loaded.sources());
    assert!(
        rendered.contains("needs 100 gold, but player holds 0"),
        "{rendered}"
    );
    assert!(
        rendered.contains("/shop/data/shop.toml:10:11"),
        "{rendered}"
    );
}

#[test]
fn save_load_and_continue_gives_the_same_hash_as_never_saving() {
    let commands = |g: &mut Game| {
        g.verb("next", &[]).unwrap();
        g.verb("next", &[]).unwrap();
        g.verb("talk", &[]).unwrap();
        g.verb("next", &[]).unwrap();
    };
    let rest = |g: &mut Game| {
        while g.in_combat() {
            g.verb("attack", &[]).unwrap();
        }
        g.verb("next", &[]).unwrap();
    };
    let mut a = core().start(42).unwrap();
    commands(&mut a);
    rest(&mut a);
    let mut b = core().start(42).unwrap();
    commands(&mut b);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("save.json");
    b.save(&path).unwrap();
    let (mut c, notes) = core().load_save(&path).unwrap();
    assert!(notes.is_empty());
    assert_eq!(c.state_hash(), b.state_hash());
    rest(&mut c);
    assert_eq!(c.state_hash(), a.state_hash());
}

#[test]
fn a_corrupt_or_truncated_save_is_refused() {
    let mut g = core().start(3).unwrap();
    g.verb("next", &[]).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("save.json");
    g.save(&path).unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::write(&path, &text[..text.len() / 2]).unwrap();
    let err = core().load_save(&path).err().unwrap().to_string();
    assert!(err.contains("is not a lantern save file"), "{err}");
}

#[test]
fn the_same_seed_and_commands_give_the_same_hash_in_three_processes() {
    let script = "next\nnext\ntalk\nnext\nattack\nattack\nattack\nattack\nnext\nnext\nhash\n";
    let shipped = common::shipped_mods();
    let mut hashes = Vec::new();
    for _ in 0..3 {
        let out = common::lantern_with_input(
            &["play", "--no-watch", "--seed", "99"],
            shipped.path(),
            script,
        );
        let text = String::from_utf8(out.stdout).unwrap();
        hashes.push(text.lines().last().unwrap().to_string());
    }
    assert_eq!(hashes[0].len(), 16);
    assert!(hashes.iter().all(|h| *h == hashes[0]), "{hashes:?}");
}

#[test]
fn engine_event_keys_match_the_vocabulary() {
    let set = core();
    let c = set.content();
    // Every key the engine raises by number, against the name the vocabulary gives it.
    let keys = [
        (ev::TURN_STARTED, "turn_started"),
        (ev::ATTACK_HIT, "attack_hit"),
        (ev::DAMAGE_TAKEN, "damage_taken"),
        (ev::CREATURE_DIED, "creature_died"),
        (ev::ITEM_PICKED_UP, "item_picked_up"),
        (ev::ITEM_USED, "item_used"),
        (ev::NPC_TALKED, "npc_talked"),
        (ev::QUEST_STARTED, "quest_started"),
        (ev::QUEST_COMPLETED, "quest_completed"),
        (ev::COMBAT_STARTED, "combat_started"),
        (ev::COMBAT_ENDED, "combat_ended"),
        (ev::ENCOUNTER_STARTED, "encounter_started"),
        (ev::ENCOUNTER_RESOLVED, "encounter_resolved"),
        (ev::HAZARD_STARTED, "hazard_started"),
        (ev::CARD_PLAYED, "card_played"),
        (ev::HAZARD_ROUND_ENDED, "hazard_round_ended"),
        (ev::HAZARD_ENDED, "hazard_ended"),
    ];
    for (key, name) in keys {
        assert_eq!(c.events.get(key).name, name);
        assert_eq!(c.events.lookup(name), Some(key), "{name}");
    }
    // And no engine event is left out of the list above.
    assert_eq!(
        lantern::content::vocab::ENGINE_EVENTS.len(),
        keys.len(),
        "the engine has events this test does not check"
    );
}

#[test]
fn the_scripted_play_session_transcript() {
    let shipped = common::shipped_mods();
    let out = lantern(&["play", "--no-watch", "--seed", "5"], shipped.path());
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("lantern: 4 mods loaded, seed 5."));
}

#[test]
fn a_conditional_modifier_counts_only_against_the_opponent_it_names() {
    let mut g = core().start(7).unwrap();
    g.command_action(
        act(Action::GiveItem {
            item: id("core:silver_charm"),
            count: 1,
            target: Who::Player,
        }),
        "give",
    )
    .unwrap();
    let rat = g.spawn(&id("core:rat")).unwrap();
    let skeleton = g.spawn(&id("core:skeleton")).unwrap();
    let base = g.attribute(CreatureRef::Player, "attack", None);
    assert_eq!(g.attribute(CreatureRef::Player, "attack", Some(rat)), base);
    assert_eq!(
        g.attribute(CreatureRef::Player, "attack", Some(skeleton)),
        base + 3
    );
}

#[test]
fn loading_a_save_whose_quest_is_gone_keeps_the_rest_and_names_what_was_set_aside() {
    let mut g = core().start(11).unwrap();
    start_rattenplage(&mut g);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("save.json");
    g.save(&path).unwrap();
    let text = std::fs::read_to_string(&path)
        .unwrap()
        .replace("core:rattenplage", "core:vanished_quest")
        .replace("core:potion", "core:vanished_potion");
    std::fs::write(&path, text).unwrap();
    let (loaded, notes) = core().load_save(&path).unwrap();
    let messages: Vec<&str> = notes
        .diagnostics()
        .iter()
        .map(|d| d.message.as_str())
        .collect();
    assert!(
        messages
            .contains(&"quest `core:vanished_quest` no longer exists; its progress is set aside until it returns"),
        "{messages:?}"
    );
    assert!(
        messages
            .iter()
            .any(|m| m.starts_with("item `core:vanished_potion` no longer exists")),
        "{messages:?}"
    );
    assert_eq!(
        loaded.state().orphans.len(),
        1,
        "the item is set aside, not deleted"
    );
    assert!(
        loaded.state().set_aside.quests[&id("core:vanished_quest")]
            == g.state().quests[&id("core:rattenplage")],
        "the quest's progress is set aside, not deleted"
    );
    assert_eq!(
        loaded.state().player.count(&id("core:gold")),
        g.state().player.count(&id("core:gold"))
    );
}

#[test]
fn a_games_code_performs_built_in_actions_by_name_checked_as_a_mods() {
    let mut g = core().start(7).unwrap();
    let gold = |g: &Game| g.state().player.count(&id("core:gold"));
    let before = gold(&g);
    g.perform(
        "give_item",
        &[("item", Value::str("core:gold")), ("count", Value::Int(5))],
        "gift",
    )
    .unwrap();
    assert_eq!(gold(&g), before + 5);
    let misspelt = g
        .perform("give_item", &[("item", Value::str("core:glod"))], "gift")
        .unwrap_err()
        .to_string();
    assert!(
        misspelt.contains("unknown item `core:glod`")
            && misspelt.contains("did you mean `core:gold`?"),
        "{misspelt}"
    );
    let unknown = g.perform("giv_item", &[], "gift").unwrap_err().to_string();
    assert!(
        unknown.contains("the game has no action `giv_item`; did you mean `give_item`?"),
        "{unknown}"
    );
    // Who acts and at whom: a rat bites the player.
    let rat = g.spawn(&id("core:rat")).unwrap();
    let health = g.state().player.health;
    let bite = lantern::game::Ctx::command("bite")
        .by(rat)
        .at(CreatureRef::Player);
    g.perform_in(
        &bite,
        "damage",
        &[("amount", Value::Int(2)), ("target", Value::str("target"))],
    )
    .unwrap();
    // Physical damage less the player's armour.
    assert!(
        g.state().player.health < health,
        "the bite landed on the player"
    );
    let rat_health = g.creature(rat).unwrap().health;
    assert_eq!(
        rat_health,
        g.content().creatures[&id("core:rat")].health,
        "not on the rat"
    );
}

#[test]
fn a_gift_past_a_full_stack_says_what_was_left_behind() {
    // The potion stacks to 10 and the hero carries 2: of 20 given, 8 are kept.
    let mut g = core().start(3).unwrap();
    g.command_action(
        act(Action::GiveItem {
            item: id("core:potion"),
            count: 20,
            target: Who::Player,
        }),
        "give",
    )
    .unwrap();
    assert_eq!(g.state().player.count(&id("core:potion")), 10);
    assert_eq!(
        g.take_messages(),
        [
            "You receive 20 Healing Potion.",
            "You carry at most 10 Healing Potion: 12 left behind."
        ]
    );
}
