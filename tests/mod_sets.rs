//! One mod set, many games: a server loads its mods once ([`ModSet`]) and starts or restores its
//! sessions from it on any worker thread; each plays as a game loaded on its own would, with
//! handlers, storage and draws of its own.

mod common;

use common::world::{turn, TestMods};
use lantern::game::Game;
use lantern::mod_set::ModSet;

/// A mod whose handler keeps a count in storage and draws: what sessions must not share.
fn counting_mods() -> TestMods {
    TestMods::new(&[(
        "scripts/main.lua",
        "lantern.on('turn_started', function()\n\
           lantern.storage.n = (lantern.storage.n or 0) + 1\n\
           lantern.storage.roll = math.random(1, 1000)\n\
           lantern.log('turn ' .. lantern.storage.n)\n\
         end)",
    )])
}

fn set_of(mods: &TestMods) -> ModSet {
    let (set, notes) = ModSet::load(
        &[mods.path()],
        &common::reference_rules(),
        Default::default(),
    )
    .unwrap();
    assert!(notes.is_empty(), "{notes}");
    set
}

fn play(g: &mut Game) -> Vec<String> {
    for _ in 0..5 {
        turn(g);
    }
    g.take_messages()
}

#[test]
fn games_of_one_set_play_as_games_loaded_alone_each_on_its_own() {
    let mods = counting_mods();
    let set = set_of(&mods);
    let mut alone = mods.world(Default::default()).start(3);
    let said_alone = play(&mut alone);
    // Sixteen sessions over four workers, two seeds: each lands on its seed's hash, and the
    // ones of seed 3 on the hash of the game loaded alone.
    let handles: Vec<_> = (0..4)
        .map(|worker| {
            let set = set.clone();
            std::thread::spawn(move || {
                (0..4)
                    .map(|i| {
                        let seed = if (worker + i) % 2 == 0 { 3 } else { 4 };
                        let mut g = set.start(seed).unwrap();
                        let said = play(&mut g);
                        (seed, said, g.state_hash().to_string())
                    })
                    .collect::<Vec<_>>()
            })
        })
        .collect();
    let mut hashes: std::collections::BTreeMap<u64, Vec<String>> = Default::default();
    for h in handles {
        for (seed, said, hash) in h.join().unwrap() {
            assert_eq!(said, said_alone, "each session has its own storage");
            hashes.entry(seed).or_default().push(hash);
        }
    }
    let alone_hash = alone.state_hash().to_string();
    assert!(hashes[&3].iter().all(|h| *h == alone_hash));
    assert!(hashes[&4].windows(2).all(|w| w[0] == w[1]));
    assert_ne!(hashes[&3][0], hashes[&4][0]);
}

#[test]
fn a_session_restored_from_bytes_goes_on_as_the_saved_one() {
    let mods = counting_mods();
    let set = set_of(&mods);
    let mut saved = set.start(9).unwrap();
    play(&mut saved);
    let bytes = saved.save_bytes().unwrap();
    let said = play(&mut saved);
    let restorer = set.clone();
    let (said_there, hash_there) = std::thread::spawn(move || {
        let (mut g, notes) = restorer.restore(bytes.as_slice()).unwrap();
        assert!(notes.is_empty(), "{notes}");
        let said = play(&mut g);
        (said, g.state_hash().to_string())
    })
    .join()
    .unwrap();
    assert_eq!(said_there, said, "the count goes on from the save");
    assert_eq!(hash_there, saved.state_hash().to_string());
    let refused = set.restore(&b"{}"[..]).map(|_| ()).unwrap_err().to_string();
    assert!(
        refused.contains("the save is not a lantern save file"),
        "{refused}"
    );
}

#[test]
fn a_set_whose_mods_have_errors_is_refused_with_them_located() {
    let mods = TestMods::new(&[(
        "data/items.toml",
        "[[items]]\nid = \"x\"\nstack = \"many\"\n",
    )]);
    let err = match ModSet::load(
        &[mods.path()],
        &common::reference_rules(),
        Default::default(),
    ) {
        Err(e) => e,
        Ok(_) => panic!("a set with an error loads"),
    };
    let problems = err.problems().expect("the mods' problems");
    let shown = problems.render();
    assert!(shown.contains("test/data/items.toml:3"), "{shown}");
    assert!(shown.contains("stack"), "{shown}");
}

/// The handler of version `v` of the `test` mod: counts in storage, says its version, and says so
/// again when a reload or an upgrade brings it.
fn versioned(v: u32) -> String {
    format!(
        "lantern.on('turn_started', function()\n\
           lantern.storage.n = (lantern.storage.n or 0) + 1\n\
           lantern.log('v{v} turn ' .. lantern.storage.n)\n\
         end)\n\
         lantern.on_reload(function() lantern.log('v{v} is here') end)\n"
    )
}

#[test]
fn every_session_upgrades_to_a_set_loaded_once_and_keeps_its_progress() {
    let mods = TestMods::new(&[
        ("scripts/main.lua", &versioned(1)),
        (
            "data/items.toml",
            "[[items]]\nid = \"old_coin\"\nstack = 10\n",
        ),
    ]);
    let set = set_of(&mods);
    let mut sessions: Vec<Game> = (0..3).map(|_| set.start(5).unwrap()).collect();
    for g in &mut sessions {
        play(g);
    }
    // The new version: another handler, and the coin gone.
    std::fs::write(mods.path().join("test/scripts/main.lua"), versioned(2)).unwrap();
    std::fs::write(
        mods.path().join("test/data/items.toml"),
        "[[items]]\nid = \"new_coin\"\nstack = 10\n",
    )
    .unwrap();
    let upgraded = set_of(&mods);
    for g in &mut sessions {
        let notes = upgraded.upgrade(g).unwrap();
        assert!(notes.is_empty(), "{notes}");
        let items: Vec<String> = g.content().items.keys().map(|i| i.to_string()).collect();
        assert!(items.contains(&"test:new_coin".to_string()), "{items:?}");
        assert!(!items.contains(&"test:old_coin".to_string()), "{items:?}");
        assert_eq!(g.take_messages(), ["[test] v2 is here"]);
        turn(g);
        assert_eq!(g.take_messages(), ["[test] v2 turn 6"], "the count goes on");
    }
    let hashes: Vec<String> = sessions
        .iter()
        .map(|g| g.state_hash().to_string())
        .collect();
    assert!(hashes.windows(2).all(|w| w[0] == w[1]), "{hashes:?}");
    // A version that does not load is refused at its load, and no session moves.
    std::fs::write(mods.path().join("test/scripts/main.lua"), "lantern.on(").unwrap();
    assert!(ModSet::load(
        &[mods.path()],
        &common::reference_rules(),
        Default::default()
    )
    .is_err());
    turn(&mut sessions[0]);
    assert_eq!(sessions[0].take_messages(), ["[test] v2 turn 7"]);
}

/// A server gives its loads one thread (`load::set_threads(1)`): what a load makes is the same,
/// over a pack large enough that every core would read, parse and resolve it otherwise.
#[test]
fn a_load_on_one_thread_makes_what_a_load_on_every_core_makes() {
    let dir = tempfile::tempdir().unwrap();
    lantern::content::generate::write_mod_set(dir.path(), 20, 500).unwrap();
    let load = || {
        let (set, _) = ModSet::load(
            &[dir.path().to_path_buf()],
            &common::reference_rules(),
            Default::default(),
        )
        .unwrap();
        let mut game = set.start(4).unwrap();
        turn(&mut game);
        (set.content().items.len(), game.state_hash().to_string())
    };
    let every = load();
    lantern::load::set_threads(1);
    let one = load();
    lantern::load::set_threads(0);
    assert_eq!(one, every);
    assert!(every.0 > 1000, "a pack of {} items", every.0);
}

/// A host that reloads one game as its files change (`Live`) hands its other sessions the same
/// version: they start from it, and move to each version a reload brings.
#[test]
fn sessions_follow_a_live_games_reloads_through_its_mod_set() {
    let mods = TestMods::new(&[("scripts/main.lua", &versioned(1))]);
    let (mut live, _) = lantern::reload::Live::start_game(
        &[mods.path()],
        &common::reference_rules(),
        1,
        Default::default(),
    )
    .unwrap();
    let mut session = live.mod_set().start(2).unwrap();
    turn(&mut session);
    assert_eq!(session.take_messages(), ["[test] v1 turn 1"]);
    std::fs::write(mods.path().join("test/scripts/main.lua"), versioned(2)).unwrap();
    let report = live.reload();
    assert!(report.ok, "{}", report.problems);
    let notes = live.mod_set().upgrade(&mut session).unwrap();
    assert!(notes.is_empty(), "{notes}");
    turn(&mut session);
    assert_eq!(
        session.take_messages(),
        ["[test] v2 is here", "[test] v2 turn 2"]
    );
}

#[test]
fn the_host_switches_a_mods_scripts_off_in_every_game_of_its_set() {
    let mods = counting_mods();
    // A second mod whose handler fails every turn: its problems carry its ID.
    mods.add_other("lantern.on('turn_started', function() error('broken') end)");
    let set = set_of(&mods);
    let mut games = [set.start(1).unwrap(), set.start(2).unwrap()];
    for g in &mut games {
        turn(g);
        let problems = g.take_problems();
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert_eq!(problems[0].mod_id(), Some("other"), "{}", problems[0]);
        let costs = g.script_costs();
        let of = |id: &str| costs.iter().find(|c| c.id == id).unwrap().clone();
        assert_eq!((of("other").problems, of("test").problems), (1, 0));
        assert!(!of("other").switched_off);
    }
    // The host's policy: `other` failed in every session; off with it, everywhere.
    assert!(set.switch_off("other"));
    assert!(!set.switch_off("nope"), "no such mod");
    assert_eq!(set.switched_off(), ["other"]);
    for g in &mut games {
        turn(g);
        turn(g);
        let problems = g.take_problems();
        let said: Vec<String> = problems.iter().map(|d| d.to_string()).collect();
        assert_eq!(
            said.len(),
            1,
            "said once, and its handler no longer fails: {said:?}"
        );
        assert!(
            said[0].contains("[other] the host switched its scripts off"),
            "{said:?}"
        );
        assert_eq!(problems[0].mod_id(), Some("other"));
        let costs = g.script_costs();
        assert!(costs.iter().find(|c| c.id == "other").unwrap().switched_off);
        assert_eq!(g.storage()["test"]["n"], 3, "the other mods play on");
    }
    // A game started after the switch starts with the mod off.
    let mut late = set.start(3).unwrap();
    turn(&mut late);
    let said: Vec<String> = late.take_problems().iter().map(|d| d.to_string()).collect();
    assert_eq!(said.len(), 1, "{said:?}");
    assert!(said[0].contains("switched its scripts off"), "{said:?}");
    // On again: the handler runs (and fails) again from the next turn.
    assert!(set.switch_on("other"));
    turn(&mut games[0]);
    let said: Vec<String> = games[0]
        .take_problems()
        .iter()
        .map(|d| d.to_string())
        .collect();
    assert_eq!(said.len(), 2, "{said:?}");
    assert!(
        said[0].contains("switched its scripts on again"),
        "{said:?}"
    );
    assert!(said[1].contains("broken"), "{said:?}");
}

#[test]
fn a_loads_problems_say_which_mod_they_are_about() {
    let mods = TestMods::new(&[(
        "data/items.toml",
        "[[items]]\nid = \"x\"\nname = \"X\"\nunknown_field = 1\n",
    )]);
    let Err(err) = ModSet::load(
        &[mods.path()],
        &common::reference_rules(),
        Default::default(),
    ) else {
        panic!("an unknown field is an error")
    };
    let notes = err.problems().expect("the mods' problems");
    assert!(!notes.is_empty());
    for d in notes.diagnostics() {
        assert_eq!(d.mod_id(), Some("test"), "{d}");
    }
    let json = notes.render_json();
    assert_eq!(json[0]["mod"], "test", "{json}");
}

#[test]
fn a_profiled_game_counts_each_handlers_calls_and_work() {
    let mods = counting_mods();
    let set = set_of(&mods);
    let mut g = set.start(1).unwrap();
    turn(&mut g);
    assert!(g.handler_costs().is_empty(), "not profiled yet");
    g.profile_scripts(true);
    for _ in 0..4 {
        turn(&mut g);
    }
    let costs = g.handler_costs();
    assert_eq!(costs.len(), 1, "{costs:?}");
    let h = &costs[0];
    assert_eq!(
        (h.mod_id.as_str(), h.event.as_str()),
        ("test", "turn_started")
    );
    assert_eq!(h.at, Some(("test/scripts/main.lua".to_string(), 1)));
    assert_eq!(h.calls, 4);
    let mod_total = g
        .script_costs()
        .iter()
        .find(|c| c.id == "test")
        .unwrap()
        .instructions;
    assert!(
        h.instructions > 0 && h.instructions < mod_total,
        "{h:?} / {mod_total}"
    );
    // It plays as it would unprofiled: the same storage, the same hash.
    let mut plain = set.start(1).unwrap();
    for _ in 0..5 {
        turn(&mut plain);
    }
    assert_eq!(g.state_hash(), plain.state_hash());
    // Profiling stops; what was counted stays.
    g.profile_scripts(false);
    turn(&mut g);
    assert_eq!(g.handler_costs()[0].calls, 4);
}
