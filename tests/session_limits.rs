//! A server's limits on a whole game, beside each mod's: an instruction budget for all mods'
//! calls in a turn, a memory cap for the game's Lua state, a deadline by the clock, and an
//! interrupt another thread triggers. A turn a limit stops says so once, with the mod that was
//! running, and the game goes on the next turn.

mod common;

use common::world::{problems, turn, TestMods};
use lantern::lua::Limits;

/// The `test` mod and two more, `m1` and `m2` (loaded in that order), each with `main`.
fn three_mods(main: &str) -> TestMods {
    let mods = TestMods::new(&[("scripts/main.lua", main)]);
    for other in ["m1", "m2"] {
        let dir = mods.path().join(other);
        std::fs::create_dir_all(dir.join("scripts")).unwrap();
        std::fs::write(
            dir.join("mod.toml"),
            format!("id = \"{other}\"\nversion = \"1.0.0\"\ndepends = [\"test\"]\n"),
        )
        .unwrap();
        std::fs::write(dir.join("scripts/main.lua"), main).unwrap();
    }
    mods
}

/// A handler that runs a few million instructions (as the budget counts them), then says so.
const BUSY: &str = "lantern.on('turn_started', function()\n\
     local n = 0\n\
     for i = 1, 1000000 do n = n + i end\n\
     lantern.log('done')\n\
   end)\n";

#[test]
fn the_games_turn_budget_stops_the_mod_that_passes_it_and_skips_the_rest_once() {
    let mods = three_mods(BUSY);
    // One handler's run fits; two do not.
    let limits = Limits::default().with_game_turn_instructions(6_000_000);
    let (mut game, world) = mods.game_with(1, limits);
    turn(&mut game);
    assert_eq!(game.take_messages(), ["[test] done"], "the first mod ran");
    let said = problems(&mut game, &world);
    assert_eq!(said.len(), 2, "{said:#?}");
    assert!(
        said[0].contains("[m1]") && said[0].contains("the game's instruction budget for the turn (6000000, all mods together) is used up"),
        "the mod that passed it, named: {}",
        said[0]
    );
    assert!(
        said[1].contains("1 handlers of m2 did not run this turn: the game's instruction budget"),
        "the rest, once: {}",
        said[1]
    );
    // The next turn starts with the whole budget again.
    turn(&mut game);
    assert_eq!(game.take_messages(), ["[test] done"]);
}

/// A handler that would run for hours on a call's budget of a trillion.
const ENDLESS: &str = "lantern.on('turn_started', function()\n\
     lantern.storage.began = (lantern.storage.began or 0) + 1\n\
     while true do end\n\
   end)\n";

fn endless_limits() -> Limits {
    Limits::default()
        .with_instructions(1_000_000_000_000)
        .with_turn_instructions(1_000_000_000_000)
}

#[test]
fn a_turn_past_its_deadline_stops_and_the_game_goes_on() {
    let mods = TestMods::new(&[("scripts/main.lua", ENDLESS)]);
    let limits = endless_limits().with_turn_deadline(std::time::Duration::from_millis(50));
    let (mut game, world) = mods.game_with(1, limits);
    turn(&mut game);
    let said = problems(&mut game, &world);
    assert!(
        said.iter().any(|p| p.contains("[test]")
            && p.contains("the turn passed the host's deadline of 50 ms")
            && p.contains("test/scripts/main.lua:3")),
        "{said:#?}"
    );
    // The game goes on: the next turn runs the handler again (and stops it again).
    turn(&mut game);
    assert!(problems(&mut game, &world)
        .iter()
        .any(|p| p.contains("deadline")));
    let began = game.state().storage.get("test").map(|s| s["began"].clone());
    assert_eq!(began, Some(serde_json::json!(2)));
}

#[test]
fn another_thread_interrupts_a_runaway_turn() {
    let mods = TestMods::new(&[("scripts/main.lua", ENDLESS)]);
    let (mut game, world) = mods.game_with(1, endless_limits());
    let stop = game
        .interrupter()
        .expect("a game with scripts can be interrupted");
    let watchdog = std::thread::spawn(move || {
        std::thread::sleep(std::time::Duration::from_millis(100));
        stop.interrupt();
    });
    turn(&mut game);
    watchdog.join().unwrap();
    let said = problems(&mut game, &world);
    assert!(
        said.iter()
            .any(|p| p.contains("the host interrupted the turn")),
        "{said:#?}"
    );
    // Interrupted before a turn starts, the turn's runaway stops at its first step: said once,
    // at its line.
    game.interrupter().unwrap().interrupt();
    turn(&mut game);
    let said = problems(&mut game, &world);
    assert_eq!(said.len(), 1, "{said:#?}");
    assert!(
        said[0].contains("[test] a handler of `turn_started` failed: test/scripts/main.lua:3: the host interrupted the turn"),
        "{}",
        said[0]
    );
}

#[test]
fn the_games_memory_cap_fails_the_mod_that_reaches_it() {
    let mods = three_mods(
        "local keep = {}\n\
         lantern.on('turn_started', function()\n\
           for i = 1, 40000 do keep[#keep + 1] = string.rep('x', 64) .. i end\n\
           lantern.log('kept ' .. #keep)\n\
         end)\n",
    );
    let limits = Limits::default().with_game_memory(8 * 1024 * 1024);
    let (mut game, world) = mods.game_with(1, limits);
    turn(&mut game);
    let said = problems(&mut game, &world);
    assert!(
        said.iter().any(|p| p.contains(
            "] a handler of `turn_started` failed: out of memory: \
             the game's scripts passed their memory limit of 8 MiB, all mods together"
        )),
        "one of the three passes the game's memory: {said:#?} {:?}",
        game.take_messages()
    );
}

#[test]
fn what_each_mod_costs_a_game_is_read_from_the_public_api() {
    // `test` loops a while each turn and keeps a table; `m1` fails every turn; `m2` does little.
    let mods = TestMods::new(&[(
        "scripts/main.lua",
        "local keep = {}\n\
         lantern.on('turn_started', function()\n\
           for i = 1, 20000 do keep[i] = i end\n\
         end)\n",
    )]);
    for (id, main) in [
        (
            "m1",
            "lantern.on('turn_started', function() error('broken') end)\n",
        ),
        ("m2", "lantern.on('turn_started', function() end)\n"),
    ] {
        let dir = mods.path().join(id);
        std::fs::create_dir_all(dir.join("scripts")).unwrap();
        std::fs::write(
            dir.join("mod.toml"),
            format!("id = \"{id}\"\nversion = \"1.0.0\"\ndepends = [\"test\"]\n"),
        )
        .unwrap();
        std::fs::write(dir.join("scripts/main.lua"), main).unwrap();
    }
    let (mut game, _world) = mods.game_with(1, Limits::default());
    let handled_before = game.events_handled();
    for _ in 0..6 {
        turn(&mut game);
    }
    game.take_problems();
    assert!(game.events_handled() >= handled_before + 6);
    let costs = game.script_costs();
    let of = |id: &str| costs.iter().find(|c| c.id == id).unwrap().clone();
    let (busy, broken, idle) = (of("test"), of("m1"), of("m2"));
    assert!(busy.instructions > 6 * 20_000, "{busy:?}");
    assert!(
        busy.instructions > 10 * idle.instructions,
        "{busy:?} {idle:?}"
    );
    assert!(busy.memory > 20_000 * 8, "its table is held: {busy:?}");
    assert_eq!((busy.handlers, busy.failing, busy.quarantined), (1, 0, 0));
    // Five failures in a row switch a handler off.
    assert_eq!(
        (broken.handlers, broken.failing, broken.quarantined),
        (1, 0, 1),
        "{broken:?}"
    );
    assert_eq!(idle.failing + idle.quarantined, 0);
}
