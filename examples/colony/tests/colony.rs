//! The colony as its developer tests it: a real Bevy app over the bundled mods, ticked headless.

use colony::{app, mods_dir, population, state_hash, take_output, Colonist};
use lantern_bevy::Lantern;
use std::path::PathBuf;

fn run(app: &mut bevy_app::App, ticks: u32) -> Vec<String> {
    let mut said = Vec::new();
    for _ in 0..ticks {
        app.update();
        let out = take_output(app);
        assert!(out.problems.is_empty(), "{:?}", out.problems);
        assert!(out.errors.is_empty(), "{:?}", out.errors);
        said.extend(out.messages.iter().cloned());
    }
    said
}

#[test]
fn the_mods_triggers_quest_encounter_and_script_run_over_the_engines_world() {
    let mut app = app(&[mods_dir()], 1, 1000).unwrap();
    let said = run(&mut app, 300);
    // The Lua handler reads the world through the game's functions.
    assert!(
        said.iter().any(|l| l.starts_with("[settlement] day 10: ")),
        "{said:?}"
    );
    // The quest counted the game's `recruited` events; the council's encounter was drawn.
    assert!(
        said.iter()
            .any(|l| l == "Quest completed: A Growing Colony"),
        "{said:?}"
    );
    assert!(
        said.iter().any(|l| l == "A caravan offers seed for food."),
        "{said:?}"
    );
    // Newcomers were spawned into the ECS by the game's deferred actions.
    assert!(population(app.world()) > 1000);
}

#[test]
fn the_same_seed_gives_the_same_whole_game_and_another_seed_another() {
    let hash = |seed| {
        let mut a = app(&[mods_dir()], seed, 1000).unwrap();
        run(&mut a, 200);
        state_hash(&mut a)
    };
    assert_eq!(hash(3), hash(3));
    assert_ne!(hash(3), hash(4));
}

#[test]
fn two_processes_land_on_the_same_hash() {
    let hash_of = |out: std::process::Output| {
        let text = String::from_utf8(out.stdout).unwrap();
        text.lines()
            .find_map(|l| l.strip_prefix("state hash: ").map(str::to_string))
            .unwrap_or_else(|| panic!("{text}"))
    };
    let bin = env!("CARGO_BIN_EXE_colony");
    let a = hash_of(
        std::process::Command::new(bin)
            .args(["150", "9"])
            .output()
            .unwrap(),
    );
    let b = hash_of(
        std::process::Command::new(bin)
            .args(["150", "9"])
            .output()
            .unwrap(),
    );
    assert_eq!(a, b);
    let mut here = app(&[mods_dir()], 9, 1000).unwrap();
    run(&mut here, 150);
    assert_eq!(state_hash(&mut here), a, "this process too");
}

#[test]
fn a_save_holds_the_whole_game_and_loads_into_a_new_app() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("colony.json");
    let mut a = app(&[mods_dir()], 5, 1000).unwrap();
    run(&mut a, 100);
    colony::save_game(&mut a, &path).unwrap();
    run(&mut a, 100);
    // A new app with other founders, numbered past the saved game's count: the save replaces
    // lantern's state and the world, and the colonists that arrive next get the numbers they
    // got in the game that went on (the hash holds every colonist by number).
    let mut b = app(&[mods_dir()], 99, 3000).unwrap();
    let notes = colony::load_game(&mut b, &path).unwrap();
    assert!(notes.is_empty(), "{notes}");
    run(&mut b, 100);
    assert_eq!(population(b.world()), population(a.world()));
    assert_eq!(state_hash(&mut b), state_hash(&mut a));
}

#[test]
fn a_reload_that_removes_a_job_reassigns_its_workers_between_two_ticks() {
    let dir = tempfile::tempdir().unwrap();
    copy(&mods_dir(), dir.path());
    let mut a = app(&[dir.path().to_path_buf()], 1, 300).unwrap();
    run(&mut a, 20);
    std::fs::write(
        dir.path().join("settlement/data/jobs.toml"),
        "[[jobs]]\nid = \"farmer\"\nname = \"Farmer\"\nfood = 3\neats = 1\n\n\
         [[jobs]]\nid = \"cook\"\nname = \"Cook\"\nfood = 2\neats = 1\n",
    )
    .unwrap();
    a.world().resource::<Lantern>().reload_soon();
    a.update();
    let out = take_output(&mut a);
    let summary = out.reloaded.join("\n");
    assert!(summary.contains("-1 job"), "{summary}");
    let problems = out.problems.join("\n");
    assert!(
        problems
            .contains("job `settlement:miner` is gone: its 100 workers are now `settlement:cook`"),
        "{problems}"
    );
    let mut q = a.world_mut().query::<&Colonist>();
    assert!(q.iter(a.world()).all(|c| c.job != "settlement:miner"));
}

#[test]
fn a_tick_past_the_event_cap_says_so_and_drops_nothing_quietly() {
    let mut a = app(&[mods_dir()], 1, 100).unwrap();
    a.world()
        .resource::<Lantern>()
        .live()
        .game_mut()
        .set_event_cap(1);
    // Day 1 raises `day_started`, whose trigger starts a quest and may recruit: past one event.
    for _ in 0..10 {
        a.update();
    }
    let out = take_output(&mut a);
    match out.errors.first() {
        Some(lantern::Error::EventCap { cap: 1, raised, .. }) => assert!(*raised > 1),
        other => panic!("{other:?}"),
    }
}

fn copy(from: &std::path::Path, to: &std::path::Path) {
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target: PathBuf = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            std::fs::create_dir_all(&target).unwrap();
            copy(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

/// A mod `id` under `dir` whose handler recruits a thousand farmers `times` times a day.
fn recruiting_mod(dir: &std::path::Path, id: &str, times: u32) {
    let m = dir.join(id);
    std::fs::create_dir_all(m.join("scripts")).unwrap();
    std::fs::write(
        m.join("mod.toml"),
        format!("id = \"{id}\"\nversion = \"0.1.0\"\ndepends = [\"settlement\"]\n"),
    )
    .unwrap();
    std::fs::write(
        m.join("scripts/main.lua"),
        format!(
            "lantern.on('day_started', function()\n\
               for _ = 1, {times} do\n\
                 lantern.apply({{ action = 'colony:recruit', job = 'settlement:farmer', count = 1000 }})\n\
               end\n\
             end)\n"
        ),
    )
    .unwrap();
}

/// Eleven mods each within its own bound (10,000 units a turn) would still make lantern hold
/// 110,000 changes a turn, and a thousand such mods a hundred times more: what all mods defer in
/// a turn is bounded too, and the mod that crosses it is named with the one that deferred most.
#[test]
fn many_mods_each_within_bounds_are_stopped_together() {
    let dir = tempfile::tempdir().unwrap();
    for n in 0..11 {
        recruiting_mod(dir.path(), &format!("busy{n:02}"), 10);
    }
    let mut a = app(&[mods_dir(), dir.path().to_path_buf()], 1, 1000).unwrap();
    let mut problems = Vec::new();
    let mut days = 0;
    for tick in 1..=3 * colony::TICKS_PER_DAY {
        a.update();
        problems.extend(take_output(&mut a).problems);
        days += usize::from(tick.is_multiple_of(colony::TICKS_PER_DAY));
    }
    assert!(
        problems.iter().any(|p| p.contains(
            "would pass the 100000 all mods together may defer to the game's world in a turn"
        ) && p.contains("most by `busy")),
        "{problems:#?}"
    );
    assert!(
        population(a.world()) <= days * 101_000,
        "{} in {days} days",
        population(a.world())
    );
}

/// One handler calling `colony:recruit` (within its declared bounds) 2,000 times a day made the
/// world hold two million spawns and reached 3.77 GB. What a mod defers into the world is counted
/// for the turn: past the bound its action fails, the mod is named, and the colony goes on.
#[test]
fn a_mod_that_recruits_in_a_loop_is_stopped_and_named_and_the_colony_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    recruiting_mod(dir.path(), "greedy", 2000);
    let mut a = app(&[mods_dir(), dir.path().to_path_buf()], 1, 1000).unwrap();
    let mut problems = Vec::new();
    for _ in 0..30 {
        a.update();
        problems.extend(take_output(&mut a).problems);
    }
    assert!(
        problems.iter().any(|p| p.contains("[greedy]")
            && p.contains("`greedy` deferred 10000 units of changes to the game's world this turn, and this one of 1000 would pass the 10000 a mod may defer in a turn")),
        "{problems:#?}"
    );
    // The greedy mod's ten recruits of 1,000 a day at most (beside the settlement's own few), not
    // two million: a handler fails once a day, at its eleventh.
    let days = problems.len();
    assert!(days > 0);
    assert!(
        population(a.world()) <= days * 11_000,
        "{} in {days} days",
        population(a.world())
    );
}

/// A fixed-step game rebuilt the plugin by hand to run lantern's turn in its own schedule, and
/// with several steps in a frame a reader saw only the last step's output. The plugin takes the
/// schedule, and the output gathers every turn until it is taken.
#[test]
fn turns_in_a_fixed_step_schedule_each_add_to_the_output() {
    #[derive(bevy_ecs::schedule::ScheduleLabel, Debug, Clone, PartialEq, Eq, Hash)]
    struct Step;
    let (lantern, _notes) = Lantern::start(
        &[mods_dir()],
        &colony::rules(),
        1,
        lantern::lua::Limits::default(),
    )
    .unwrap();
    let mut app = bevy_app::App::new();
    app.add_plugins(lantern_bevy::LanternPlugin::in_schedule(Step))
        .insert_resource(lantern)
        .insert_resource(colony::Stores { food: 500 })
        .insert_resource(colony::Clock::default());
    // One frame of three fixed steps: days 10, 20 and 30 each make the settlement count itself.
    for day in [10, 20, 30] {
        app.world_mut()
            .resource_mut::<lantern_bevy::ModEvents>()
            .raise("day_started", &[("day", lantern::content::Value::Int(day))]);
        app.world_mut().run_schedule(Step);
    }
    let out = take_output(&mut app);
    assert_eq!(out.turns, 3);
    let counts: Vec<&String> = out
        .messages
        .iter()
        .filter(|l| l.starts_with("[settlement] day "))
        .collect();
    assert_eq!(counts.len(), 3, "{:?}", out.messages);
    assert!(counts[2].starts_with("[settlement] day 30: "), "{counts:?}");
    assert_eq!(take_output(&mut app).turns, 0, "taken, it starts again");
}

#[test]
fn output_no_reader_takes_keeps_the_newest_lines_within_its_bound() {
    let dir = tempfile::tempdir().unwrap();
    let m = dir.path().join("chatty");
    std::fs::create_dir_all(m.join("scripts")).unwrap();
    std::fs::write(m.join("mod.toml"), "id = \"chatty\"\nversion = \"0.1.0\"\n").unwrap();
    std::fs::write(
        m.join("scripts/main.lua"),
        "lantern.on('ticked', function(ev)\n  for i = 1, 20 do lantern.log('tick ' .. ev.tick .. ' line ' .. i) end\nend)\n",
    )
    .unwrap();
    let mut a = app(&[dir.path().to_path_buf()], 1, 10).unwrap();
    run_without_reading(&mut a, 600);
    let out = take_output(&mut a);
    assert_eq!(out.turns, 600);
    assert_eq!(out.messages.len(), lantern_bevy::MOST_KEPT);
    assert_eq!(out.dropped, 600 * 20 - lantern_bevy::MOST_KEPT);
    assert_eq!(out.messages.last().unwrap(), "[chatty] tick 600 line 20");
}

fn run_without_reading(app: &mut bevy_app::App, ticks: u32) {
    for _ in 0..ticks {
        app.update();
    }
}
