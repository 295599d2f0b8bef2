//! A game moves between threads: a server runs sessions on a pool, an engine keeps lantern as a
//! resource its systems use from any thread. Each game, scripts included, plays the same on any
//! thread and lands on the same hash as one that never moved.

mod common;

use common::world::{turn, TestMods};
use lantern::game::Game;
use lantern::reload::Live;

/// A mod whose handler keeps a count in storage and says it: Lua runs on whichever thread the
/// game is on.
fn counting_mods() -> TestMods {
    TestMods::new(&[(
        "scripts/main.lua",
        "lantern.on('turn_started', function()\n\
           lantern.storage.n = (lantern.storage.n or 0) + 1\n\
           lantern.log('turn ' .. lantern.storage.n)\n\
         end)",
    )])
}

/// Ten turns and a few steps of the run, with the handler's messages.
fn play(g: &mut Game) -> Vec<String> {
    for _ in 0..10 {
        turn(g);
    }
    let _ = g.verb("next", &[]);
    let _ = g.verb("next", &[]);
    g.take_messages()
}

#[test]
fn a_game_moved_to_another_thread_plays_the_same_and_lands_on_the_same_hash() {
    let mods = counting_mods();
    let mut here = mods.world(Default::default()).start(5);
    let said_here = play(&mut here);
    assert!(
        said_here.contains(&"[test] turn 10".to_string()),
        "{said_here:?}"
    );

    // Started on this thread, played on another, handed back, played on here again.
    let moved = mods.world(Default::default()).start(5);
    let (mut moved, said_there) = std::thread::spawn(move || {
        let mut moved = moved;
        let said = play(&mut moved);
        (moved, said)
    })
    .join()
    .unwrap();
    assert_eq!(said_there, said_here);
    assert_eq!(moved.state_hash(), here.state_hash());
    turn(&mut moved);
    turn(&mut here);
    assert_eq!(moved.take_messages(), here.take_messages());
    assert_eq!(moved.state_hash(), here.state_hash());
}

#[test]
fn many_sessions_run_on_a_pool_of_threads_each_deterministic() {
    // Eight sessions, two seeds, over four threads: each session's hash is its seed's.
    let mods = counting_mods();
    let games: Vec<(u64, Game)> = (0..8u64)
        .map(|i| (i % 2, mods.world(Default::default()).start(i % 2)))
        .collect();
    let mut pool: Vec<Vec<(u64, Game)>> = (0..4).map(|_| Vec::new()).collect();
    for (i, g) in games.into_iter().enumerate() {
        pool[i % 4].push(g);
    }
    let handles: Vec<_> = pool
        .into_iter()
        .map(|sessions| {
            std::thread::spawn(move || {
                sessions
                    .into_iter()
                    .map(|(seed, mut g)| {
                        play(&mut g);
                        (seed, g.state_hash())
                    })
                    .collect::<Vec<_>>()
            })
        })
        .collect();
    let mut by_seed: std::collections::BTreeMap<u64, Vec<String>> = Default::default();
    for h in handles {
        for (seed, hash) in h.join().unwrap() {
            by_seed.entry(seed).or_default().push(hash.to_string());
        }
    }
    for (seed, hashes) in &by_seed {
        assert_eq!(hashes.len(), 4);
        assert!(
            hashes.windows(2).all(|w| w[0] == w[1]),
            "seed {seed}: {hashes:?}"
        );
    }
    assert_ne!(by_seed[&0][0], by_seed[&1][0], "two seeds, two runs");
}

#[test]
fn a_live_game_reloads_on_the_thread_it_was_moved_to() {
    let mods = counting_mods();
    let (mut live, _) = Live::start_game(
        &[mods.path()],
        &lantern::roguelike::rules(),
        1,
        Default::default(),
    )
    .unwrap();
    turn(live.game_mut());
    let dir = mods.path();
    let (live, report) = std::thread::spawn(move || {
        std::fs::write(
            dir.join("test/scripts/main.lua"),
            "lantern.on('turn_started', function() lantern.log('changed') end)",
        )
        .unwrap();
        let report = live.reload();
        turn(live.game_mut());
        (live, report)
    })
    .join()
    .unwrap();
    assert!(report.ok, "{}", report.problems);
    assert_eq!(live.generation(), 1);
    let mut live = live;
    assert_eq!(
        live.game_mut().take_messages(),
        ["[test] turn 1", "[test] changed"]
    );
}

/// A session saved to bytes (a server's database row) and restored on another thread, and in
/// another process, plays on to the hash of the session that never stopped.
#[test]
fn a_game_saved_to_bytes_restores_in_another_thread_and_process_to_the_same_hash() {
    let mods = counting_mods();
    // In the other process (this test binary run again): restore the bytes, play, say the hash.
    if let Ok(path) = std::env::var("LANTERN_RESTORE_BYTES_FROM") {
        let bytes = std::fs::read(path).unwrap();
        let (mut game, notes) = mods.world(Default::default()).restore(&bytes[..]).unwrap();
        assert!(notes.is_empty(), "{notes:?}");
        play(&mut game);
        println!("restored hash: {}", game.state_hash());
        return;
    }
    let mut went_on = mods.world(Default::default()).start(11);
    play(&mut went_on);
    let bytes = went_on.save_bytes().unwrap();
    let mut written = Vec::new();
    went_on.save_to(&mut written).unwrap();
    assert_eq!(written, bytes, "a writer gets the bytes");
    play(&mut went_on);
    let expected = went_on.state_hash();

    let world = mods.world(Default::default());
    let there = std::thread::spawn(move || {
        let mut world = world;
        let (mut game, _) = world.restore(bytes.as_slice()).unwrap();
        play(&mut game);
        game.state_hash()
    })
    .join()
    .unwrap();
    assert_eq!(there, expected, "another thread");

    let file = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(file.path(), went_on_bytes(&mods)).unwrap();
    let out = std::process::Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "a_game_saved_to_bytes_restores_in_another_thread_and_process_to_the_same_hash",
            "--nocapture",
        ])
        .env("LANTERN_RESTORE_BYTES_FROM", file.path())
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&out.stdout);
    let hash = said
        .lines()
        .find_map(|l| l.strip_prefix("restored hash: "))
        .unwrap_or_else(|| panic!("{said}\n{}", String::from_utf8_lossy(&out.stderr)));
    assert_eq!(hash, expected, "another process");
}

/// The bytes of the same session at the same point: seed 11, one round of play.
fn went_on_bytes(mods: &TestMods) -> Vec<u8> {
    let mut game = mods.world(Default::default()).start(11);
    play(&mut game);
    game.save_bytes().unwrap()
}

/// Bytes that are not a save, or never end, are refused with a message and no game.
#[test]
fn bytes_that_are_not_a_save_are_refused_without_a_panic() {
    let mods = counting_mods();
    let refused = |bytes: &[u8]| {
        mods.world(Default::default())
            .restore(bytes)
            .map(|_| ())
            .unwrap_err()
            .to_string()
    };
    let empty = refused(b"");
    assert!(
        empty.contains("the save is not a lantern save file"),
        "{empty}"
    );
    assert!(refused(&[0xff, 0xfe, 0x00])
        .contains("the save is not a lantern save file: it is not text"));
    let mut bytes = went_on_bytes(&mods);
    bytes.truncate(bytes.len() / 2);
    assert!(refused(&bytes).contains("the save is not a lantern save file"));
    // A reader that never ends is read no further than the largest save.
    let endless = std::io::repeat(b' ');
    let err = mods
        .world(Default::default())
        .restore(endless)
        .map(|_| ())
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("the save is larger than any save lantern writes"),
        "{err}"
    );
}
