//! Random command sequences over the bundled mods: nothing panics, no turn handles more events than
//! the cap, and the same sequence from the same seed always ends in the same state hash.

mod common;

use lantern::content::{Action, ActionEntry, Value, Who};
use lantern::diag::{FileId, Span};
use lantern::game::{ev, Outcome, EVENT_CAP};
use lantern::id::Id;
use proptest::prelude::*;
use std::sync::OnceLock;

/// The bundled core mod as one set, loaded once for every case's game.
fn set() -> lantern::mod_set::ModSet {
    static SET: OnceLock<lantern::mod_set::ModSet> = OnceLock::new();
    SET.get_or_init(|| common::reference_set(common::core_only().path()))
        .clone()
}

#[derive(Debug, Clone)]
enum Cmd {
    Next,
    Attack(usize),
    Flee,
    Use(&'static str),
    Talk,
    Give(&'static str, u32),
    Take(&'static str, u32),
    Start(&'static str),
    Spawn(&'static str),
    Kill(usize),
}

fn cmd() -> impl Strategy<Value = Cmd> {
    let item = prop::sample::select(vec![
        "core:gold",
        "core:potion",
        "core:flaming_sword",
        "core:thorn_armor",
        "core:cog",
        "core:arrow_tower",
    ]);
    let creature = prop::sample::select(vec![
        "core:rat",
        "core:skeleton",
        "core:fire_skeleton",
        "core:giant_rat",
    ]);
    prop_oneof![
        4 => Just(Cmd::Next),
        4 => (0usize..4).prop_map(Cmd::Attack),
        1 => Just(Cmd::Flee),
        1 => Just(Cmd::Use("core:potion")),
        1 => Just(Cmd::Talk),
        2 => (item.clone(), 1u32..200).prop_map(|(i, n)| Cmd::Give(i, n)),
        1 => (item, 1u32..50).prop_map(|(i, n)| Cmd::Take(i, n)),
        1 => prop::sample::select(vec!["core:rattenplage", "core:keller"]).prop_map(Cmd::Start),
        2 => creature.prop_map(Cmd::Spawn),
        2 => (0usize..4).prop_map(Cmd::Kill),
    ]
}

fn entry(action: Action) -> ActionEntry {
    ActionEntry {
        action,
        span: Span::file_start(FileId(0)),
    }
}

fn run(seed: u64, cmds: &[Cmd]) -> String {
    let mut g = set().start(seed).unwrap();
    let id = |s: &str| Id::qualified(s).unwrap();
    for c in cmds {
        let before = g.log().count();
        let _ = match c {
            Cmd::Next => g.verb("next", &[]).map(|()| Outcome::Done),
            Cmd::Attack(i) => g
                .verb("attack", &[Value::Int(*i as i64 + 1)])
                .map(|()| Outcome::Done),
            Cmd::Flee => g.verb("flee", &[]).map(|()| Outcome::Done),
            Cmd::Use(i) => g
                .verb("use", &[Value::Str(i.to_string().into())])
                .map(|()| Outcome::Done),
            Cmd::Talk => g.verb("talk", &[]).map(|()| Outcome::Done),
            Cmd::Give(i, n) => g.command_action(
                entry(Action::GiveItem {
                    item: id(i),
                    count: *n,
                    target: Who::Player,
                }),
                "give",
            ),
            Cmd::Take(i, n) => g.command_action(
                entry(Action::TakeItem {
                    item: id(i),
                    count: *n,
                    target: Who::Player,
                }),
                "take",
            ),
            Cmd::Start(q) => g.command_action(entry(Action::StartQuest { quest: id(q) }), "start"),
            Cmd::Spawn(c) => g.spawn(&id(c)).map(|_| Outcome::Done),
            Cmd::Kill(i) => g.emit_command(
                ev::CREATURE_DIED,
                Some(lantern::game::CreatureRef::Enemy(*i)),
                &[],
            ),
        };
        // The log keeps 1000 events; one command (at most two turns: the player's and the enemies') stays far below.
        let handled = g.log().count().saturating_sub(before);
        assert!(handled <= 4 * EVENT_CAP, "{handled} events in one command");
        g.take_messages();
        g.take_problems();
    }
    g.state_hash()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, .. ProptestConfig::default() })]

    #[test]
    fn random_commands_never_panic_and_replay_to_the_same_hash(seed in 0u64..1000, cmds in prop::collection::vec(cmd(), 0..40)) {
        let a = run(seed, &cmds);
        let b = run(seed, &cmds);
        prop_assert_eq!(a, b);
    }
}
