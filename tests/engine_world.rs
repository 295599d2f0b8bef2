//! A game whose world lives in its own engine lends it to lantern for a turn
//! (`Game::with_world`): its actions defer changes to it, its checks and Lua functions read it, a
//! failed list or verb leaves it as it was, and with hooks declared a save, the hash and a reload
//! cover it. The world here is a plain type standing for an engine's (an ECS `World` is lent the
//! same way, as `examples/colony` does).

use lantern::content::Value;
use lantern::game::Game;
use lantern::host::{Param, Rules, Vocabulary, WorldHooks};
use lantern::load::{load_game, World};
use lantern::lua::Limits;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The engine's world: colonists by a stable number, each with a job that names content.
#[derive(Debug, Default, Clone, PartialEq, Serialize, Deserialize)]
struct Colony {
    colonists: BTreeMap<u32, String>,
    next: u32,
}

/// The part of the game lantern keeps: nothing but a count of hires.
#[derive(Debug, Default, Clone, PartialEq, Serialize, Deserialize)]
struct Ledger {
    hires: i64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Job {
    #[allow(dead_code)]
    name: String,
}

fn rules() -> Rules {
    Vocabulary::new("colony", Ledger::default())
        .table::<Job>("jobs", "job")
        .event("hired", &[("job", "job")], "A colonist was hired.")
        .action(
            "hire",
            &[Param::id("job", "job")],
            "Hires a colonist for a job.",
            |fx, args| {
                let job = args.id("job").ok_or("no job")?.to_string();
                fx.state_mut().hires += 1;
                fx.defer(move |c: &mut Colony| {
                    c.next += 1;
                    let n = c.next;
                    c.colonists.insert(n, job);
                })?;
                fx.raise("hired", &[("job", Value::str(args.text("job")))])?;
                Ok(())
            },
        )
        .action("fail", &[], "Always fails.", |_, _| Err("no".into()))
        .check(
            "colonists_at_least",
            &[Param::int("n")],
            "Whether the colony has that many colonists.",
            |q, args| Ok(q.world::<Colony>()?.colonists.len() as i64 >= args.int("n")),
        )
        .function("colonists", &[], "How many colonists there are.", |q, _| {
            Ok(Value::Int(q.world::<Colony>()?.colonists.len() as i64))
        })
        .verb("hire", &[Param::id("job", "job")], "hire JOB", |g, args| {
            let job = Value::str(args.text("job"));
            Ok(g.perform("hire", &[("job", job)], "hire")?)
        })
        .verb("hire_then_fail", &[], "", |g, _| {
            g.perform("hire", &[("job", Value::str("settlers:farmer"))], "hire")?;
            Err("changed its mind".into())
        })
        .world(
            WorldHooks::new(
                |c: &Colony| serde_json::to_value(c).unwrap_or_default(),
                |c: &mut Colony, saved, _content| {
                    *c = serde_json::from_value(saved).map_err(|e| e.to_string())?;
                    Ok(Vec::new())
                },
            )
            .fresh(|_content| Colony::default())
            .reconcile(|c: &mut Colony, content| {
                let mut lines = Vec::new();
                let jobs: Vec<String> = content
                    .table::<Job>("jobs")
                    .map(|(id, _)| id.to_string())
                    .collect();
                for (n, job) in c.colonists.iter_mut() {
                    if !jobs.contains(job) {
                        let was = std::mem::replace(job, jobs[0].clone());
                        lines.push(format!("colonist {n}'s job `{was}` is gone; now `{job}`"));
                    }
                }
                lines
            }),
        )
        .rules()
}

const JOBS: &str =
    "[[jobs]]\nid = \"farmer\"\nname = \"Farmer\"\n\n[[jobs]]\nid = \"miner\"\nname = \"Miner\"\n";

/// The mods folder: one mod `settlers` with `files` (paths relative to it).
fn mods(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let m = dir.path().join("settlers");
    std::fs::create_dir_all(&m).unwrap();
    std::fs::write(
        m.join("mod.toml"),
        "id = \"settlers\"\nversion = \"0.1.0\"\n",
    )
    .unwrap();
    for (path, text) in files {
        let p = m.join(path);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
    dir
}

fn world_of(dir: &tempfile::TempDir) -> World {
    let world = load_game(&[dir.path().to_path_buf()], &rules(), Limits::default());
    assert!(
        !world.has_errors(),
        "{}",
        lantern::diag::render_all(&world.diagnostics, &world.sources)
    );
    world
}

fn problems(g: &mut Game) -> Vec<String> {
    g.take_problems().into_iter().map(|d| d.message).collect()
}

#[test]
fn actions_defer_changes_to_the_lent_world_until_the_turn_ends() {
    let dir = mods(&[("data/jobs.toml", JOBS)]);
    let mut g = world_of(&dir).start(1);
    let mut colony = Colony::default();
    g.with_world(&mut colony, |g| {
        g.turn(|g| {
            g.perform("hire", &[("job", Value::str("farmer"))], "test")?;
            g.perform("hire", &[("job", Value::str("miner"))], "test")?;
            // Within the turn the world is as it was: the changes wait for its end.
            assert_eq!(g.world::<Colony>().unwrap().colonists.len(), 0);
            Ok(())
        })
        .unwrap();
        assert_eq!(g.world::<Colony>().unwrap().colonists.len(), 2);
    });
    assert_eq!(
        colony.colonists,
        BTreeMap::from([(1, "settlers:farmer".into()), (2, "settlers:miner".into())])
    );
    assert_eq!(g.host_state::<Ledger>().unwrap().hires, 2);
}

#[test]
fn a_failed_list_or_verb_leaves_the_world_as_it_was() {
    let dir = mods(&[
        ("data/jobs.toml", JOBS),
        (
            "data/triggers.toml",
            "[[event_types]]\nid = \"bell\"\n\n[[triggers]]\non = \"bell\"\nactions = [ { action = \"colony:hire\", job = \"farmer\" }, { action = \"colony:fail\" } ]\n",
        ),
    ]);
    let mut g = world_of(&dir).start(1);
    let mut colony = Colony::default();
    g.with_world(&mut colony, |g| {
        g.turn(|g| g.raise("settlers:bell", &[])).unwrap();
        let err = g.verb("hire_then_fail", &[]).unwrap_err();
        assert_eq!(err.to_string(), "changed its mind");
    });
    assert!(colony.colonists.is_empty(), "{colony:?}");
    assert_eq!(g.host_state::<Ledger>().unwrap().hires, 0);
    let p = problems(&mut g);
    assert!(
        p.iter()
            .any(|p| p.contains("nothing in this action list was applied")),
        "{p:?}"
    );
}

#[test]
fn checks_lua_functions_and_handlers_see_the_lent_world() {
    let dir = mods(&[
        ("data/jobs.toml", JOBS),
        (
            "data/quests.toml",
            "[[event_types]]\nid = \"tick\"\n\n[[triggers]]\non = \"tick\"\ncondition = [ { check = \"colony:colonists_at_least\", n = 2 } ]\nactions = [ { action = \"colony:hire\", job = \"miner\" } ]\n",
        ),
        (
            "scripts/main.lua",
            "lantern.on('hired', function(ev)\n  lantern.log('hired a ' .. ev.job .. '; colonists: ' .. lantern.colony.colonists())\nend)\n",
        ),
    ]);
    let mut g = world_of(&dir).start(1);
    let mut colony = Colony::default();
    g.with_world(&mut colony, |g| {
        g.verb("hire", &[Value::str("farmer")]).unwrap();
        g.turn(|g| g.raise("settlers:tick", &[])).unwrap();
        g.verb("hire", &[Value::str("farmer")]).unwrap();
        g.turn(|g| g.raise("settlers:tick", &[])).unwrap();
    });
    // The handler reads the world as the turn began; the check saw 1, then 2 colonists.
    assert_eq!(
        g.take_messages(),
        [
            "[settlers] hired a settlers:farmer; colonists: 0",
            "[settlers] hired a settlers:farmer; colonists: 1",
            "[settlers] hired a settlers:miner; colonists: 2",
        ]
    );
    assert_eq!(colony.colonists.len(), 3);
    assert!(problems(&mut g).is_empty());
}

#[test]
fn without_the_world_lent_an_action_that_needs_it_fails_and_says_why() {
    let dir = mods(&[("data/jobs.toml", JOBS)]);
    let mut g = world_of(&dir).start(1);
    let err = g
        .perform("hire", &[("job", Value::str("farmer"))], "test")
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("the game's world (`engine_world::Colony`) is not lent to this game now: run the game inside `Game::with_world`"),
        "{err}"
    );
    // A world of another type is not this one.
    let mut other = 7u8;
    let err = g.with_world(&mut other, |g| {
        g.perform("hire", &[("job", Value::str("farmer"))], "test")
            .unwrap_err()
            .to_string()
    });
    assert!(
        err.contains("the world lent to this game is not a `engine_world::Colony`"),
        "{err}"
    );
    assert_eq!(g.host_state::<Ledger>().unwrap().hires, 0);
}

#[test]
fn a_save_and_the_hash_cover_the_world_and_a_load_puts_it_back() {
    let dir = mods(&[
        ("data/jobs.toml", JOBS),
        (
            "scripts/main.lua",
            "lantern.on('hired', function(ev) lantern.storage.n = (lantern.storage.n or 0) + 1 end)\n",
        ),
    ]);
    let mut g = world_of(&dir).start(1);
    let mut colony = Colony::default();
    let save = dir.path().join("save.json");
    let hash = g.with_world(&mut colony, |g| {
        g.verb("hire", &[Value::str("farmer")]).unwrap();
        g.verb("hire", &[Value::str("miner")]).unwrap();
        g.save(&save).unwrap();
        g.state_hash()
    });
    // Outside the loan the world cannot be saved: a save without it would lose it.
    let err = g.save(&save).unwrap_err().to_string();
    assert!(err.contains("save inside `Game::with_world`"), "{err}");

    // Another process: the world starts empty and the save puts it back when it is lent.
    let (mut loaded, notes) = world_of(&dir).load_save(&save).unwrap();
    assert!(notes.is_empty(), "{notes:?}");
    assert_eq!(
        loaded.state_hash(),
        hash,
        "the save's world counts until it is lent"
    );
    let mut fresh = Colony::default();
    let again = loaded.with_world(&mut fresh, |g| {
        let h = g.state_hash();
        g.verb("hire", &[Value::str("miner")]).unwrap();
        h
    });
    assert_eq!(again, hash);
    assert_eq!(fresh.colonists.len(), 3);
    assert_eq!(fresh.next, 3);
    assert_eq!(
        loaded.storage()["settlers"]["n"],
        3,
        "the scripts came with the save"
    );

    // A world that differs is a different game.
    let mut other = colony.clone();
    other.colonists.insert(99, "settlers:miner".into());
    let differs = g.with_world(&mut other, |g| g.state_hash());
    assert_ne!(differs, hash);
}

#[test]
fn a_reload_reconciles_the_world_with_the_new_content() {
    let dir = mods(&[("data/jobs.toml", JOBS)]);
    let roots = [dir.path().to_path_buf()];
    let (mut live, _) =
        lantern::reload::Live::start_game(&roots, &rules(), 1, Limits::default()).unwrap();
    let mut colony = Colony::default();
    live.game_mut().with_world(&mut colony, |g| {
        g.verb("hire", &[Value::str("miner")]).unwrap();
    });
    // The miners' job goes away.
    std::fs::write(
        dir.path().join("settlers/data/jobs.toml"),
        "[[jobs]]\nid = \"farmer\"\nname = \"Farmer\"\n",
    )
    .unwrap();
    // Reloaded with the world lent: the reconcile is part of the reload's report.
    let report = live.reload();
    assert!(report.ok, "{}", report.problems);
    let lines: Vec<&str> = report
        .problems
        .diagnostics()
        .iter()
        .map(|d| d.message.as_str())
        .collect();
    assert!(lines.is_empty(), "not lent during the reload: {lines:?}");
    // Lent afterwards: reconciled then, and said among the game's problems.
    live.game_mut().with_world(&mut colony, |_| {});
    assert_eq!(colony.colonists[&1], "settlers:farmer");
    let p = problems(live.game_mut());
    assert_eq!(
        p,
        ["colonist 1's job `settlers:miner` is gone; now `settlers:farmer`"]
    );
}

#[test]
fn a_reload_with_the_world_lent_reconciles_it_in_the_report_and_a_load_puts_it_back_at_once() {
    let dir = mods(&[("data/jobs.toml", JOBS)]);
    let roots = [dir.path().to_path_buf()];
    let (mut live, _) =
        lantern::reload::Live::start_game(&roots, &rules(), 1, Limits::default()).unwrap();
    let mut colony = Colony::default();
    let save = dir.path().join("save.json");
    let report = live.with_world(&mut colony, |live| {
        live.game_mut()
            .verb("hire", &[Value::str("miner")])
            .unwrap();
        live.game().save(&save).unwrap();
        std::fs::write(
            dir.path().join("settlers/data/jobs.toml"),
            "[[jobs]]\nid = \"farmer\"\nname = \"Farmer\"\n",
        )
        .unwrap();
        live.reload()
    });
    assert!(report.ok, "{}", report.problems);
    let lines: Vec<&str> = report
        .problems
        .diagnostics()
        .iter()
        .map(|d| d.message.as_str())
        .collect();
    assert_eq!(
        lines,
        ["colonist 1's job `settlers:miner` is gone; now `settlers:farmer`"]
    );
    assert_eq!(colony.colonists[&1], "settlers:farmer");

    // The save (made before the reload) comes back into the lent world at once, and is
    // reconciled with the content it now runs over, as a reload would: said in the load's notes.
    let mut fresh = Colony::default();
    let notes = live.with_world(&mut fresh, |live| live.load_save(&save).unwrap());
    let lines: Vec<&str> = notes
        .diagnostics()
        .iter()
        .map(|d| d.message.as_str())
        .collect();
    assert_eq!(
        lines,
        ["colonist 1's job `settlers:miner` is gone; now `settlers:farmer`"]
    );
    assert_eq!(fresh.colonists[&1], "settlers:farmer");
}

#[test]
fn a_game_raises_many_events_of_one_kind_at_once_or_none() {
    let dir = mods(&[
        ("data/jobs.toml", JOBS),
        (
            "data/counted.toml",
            "[[quests]]\nid = \"shifts\"\nname = \"Shifts\"\non = \"hired\"\ncount = 1000\nactions = []\n",
        ),
    ]);
    let mut g = world_of(&dir).start(1);
    g.perform(
        "start_quest",
        &[("quest", Value::str("settlers:shifts"))],
        "test",
    )
    .unwrap();
    g.set_event_cap(2000);
    let rows = (0..1000).map(|i| [Value::str(if i % 2 == 0 { "farmer" } else { "miner" })]);
    let queued = g.turn(|g| g.raise_many("hired", &["job"], rows)).unwrap();
    assert_eq!(queued, 1000);
    let count =
        |g: &Game| g.state().quests[&lantern::id::Id::qualified("settlers:shifts").unwrap()].count;
    assert_eq!(count(&g), 1000);

    // A row that does not fit refuses the call whole: none of its events is handled.
    let rows = vec![vec![Value::str("farmer")], vec![Value::Int(3)]];
    let err = g
        .turn(|g| g.raise_many("hired", &["job"], rows))
        .unwrap_err()
        .to_string();
    assert!(err.starts_with("row 2 of `hired`: field `job`"), "{err}");
    assert!(err.ends_with("none of the events was raised"), "{err}");
    let err = g
        .turn(|g| g.raise_many("hired", &["jobb"], [[Value::str("farmer")]]))
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("has no payload field `jobb`; did you mean `job`?"),
        "{err}"
    );
    assert_eq!(count(&g), 1000);
}

#[test]
fn a_test_game_gets_a_world_of_its_own_that_its_verbs_drive_and_g_world_reads() {
    let dir = mods(&[
        ("data/jobs.toml", JOBS),
        (
            "tests/world.lua",
            "describe('the world', function()\n\
               it('hires into a test game\\'s own world', function()\n\
                 local g = lantern.test.game({ seed = 1 })\n\
                 expect(g:world().next).to_be(0)\n\
                 g:hire('settlers:farmer')\n\
                 g:verb('hire', 'settlers:miner')\n\
                 expect(g:world().next).to_be(2)\n\
                 expect(g:world().colonists['2']).to_be('settlers:miner')\n\
                 local other = lantern.test.game({ seed = 1 })\n\
                 expect(other:world().next).to_be(0)\n\
               end)\n\
             end)\n",
        ),
    ]);
    let files = lantern::harness::discover(dir.path());
    let h = std::sync::Arc::new(lantern::harness::Harness::new(
        dir.path(),
        rules(),
        Limits::default(),
    ));
    let results = lantern::harness::run(&h, &files, None);
    assert_eq!(results.len(), 1);
    assert!(
        matches!(results[0].status, lantern::harness::Status::Passed),
        "{:?} {:?}",
        results[0].status,
        results[0].output
    );
}

/// A game without creatures that declares a verb `spawn` (a tower defense's wave) saw the test
/// game's own `g:spawn` of creatures run instead, and fail. Without creatures, `g:spawn` is the
/// game's verb, or an error that says the game has neither.
#[test]
fn without_creatures_g_spawn_is_the_games_own_verb() {
    let rules = |with_verb: bool| {
        let v = Vocabulary::new("td", Ledger::default())
            .without_creatures()
            .action(
                "call_wave",
                &[Param::int("wave")],
                "Calls a wave.",
                |fx, args| {
                    fx.state_mut().hires += args.int("wave");
                    Ok(())
                },
            );
        let v = if with_verb {
            v.verb("spawn", &[Param::int("wave")], "spawn WAVE", |g, args| {
                let wave = Value::Int(args.int("wave"));
                Ok(g.perform("call_wave", &[("wave", wave)], "spawn")?)
            })
        } else {
            v
        };
        v.rules()
    };
    let run = |with_verb: bool| {
        let dir = mods(&[(
            "tests/waves.lua",
            "it('spawns a wave', function()\n\
               local g = lantern.test.game({ seed = 1 })\n\
               g:spawn(3)\n\
               expect(g:state().hires).to_be(3)\n\
             end)\n",
        )]);
        let files = lantern::harness::discover(dir.path());
        let h = std::sync::Arc::new(lantern::harness::Harness::new(
            dir.path(),
            rules(with_verb),
            Limits::default(),
        ));
        lantern::harness::run(&h, &files, None).remove(0)
    };
    let with = run(true);
    assert!(
        matches!(with.status, lantern::harness::Status::Passed),
        "{:?} {:?}",
        with.status,
        with.output
    );
    let without = run(false);
    let said = format!("{:?}", without.status);
    assert!(
        said.contains("g:spawn: this game has no creatures, and declares no verb `spawn`"),
        "{said}"
    );
}

/// A component holding an entry's ID as text (`Arc<str>`) looked it up through
/// `Id::qualified` every time. An entry is found by its `Id` or by the ID's text alike.
#[test]
fn a_tables_entry_is_found_by_its_id_or_its_text() {
    let dir = mods(&[("data/jobs.toml", JOBS)]);
    let world = world_of(&dir);
    let content = world.content.clone();
    let id = lantern::id::Id::qualified("settlers:miner").unwrap();
    let held: std::sync::Arc<str> = "settlers:miner".into();
    assert!(content.entry::<Job>("job", &id).is_some());
    assert!(content.entry::<Job>("job", "settlers:miner").is_some());
    assert!(content.entry::<Job>("jobs", &held).is_some());
    assert!(content
        .entry::<Job>("job", &"settlers:miner".to_string())
        .is_some());
    assert!(content.entry::<Job>("job", "settlers:baker").is_none());
    assert_eq!(
        content.entry_span("job", "settlers:miner"),
        content.entry_span("job", &id)
    );
}

/// A declared query answers a script with rows (a Bevy game's `enemies_near` returned
/// `"12,40,41"` for want of them), the copy charged to the script by its size: a script asking
/// for a million rows in a loop is stopped by its budget, not by the machine.
#[test]
fn a_query_answers_with_rows_charged_by_their_size() {
    let rules = |rows: i64| {
        Vocabulary::new("td", Ledger::default())
            .without_creatures()
            .query(
                "enemies_near",
                &[Param::int("at"), Param::int("radius")],
                "{ id: integer, health: integer }[]",
                "The enemies within `radius` of `at`.",
                move |_, args| {
                    let (at, radius) = (args.int("at"), args.int("radius"));
                    let near = (at - radius..).take(rows as usize);
                    let rows = near.map(|id| serde_json::json!({ "id": id, "health": id % 7 }));
                    Ok(serde_json::Value::Array(rows.collect()))
                },
            )
            .event("tick", &[], "A tick.")
            .rules()
    };
    let script = "lantern.on('tick', function()\n\
                    local near = lantern.td.enemies_near(12, 2)\n\
                    lantern.storage.first = near[1].id\n\
                    lantern.storage.count = #near\n\
                    lantern.storage.health = near[5].health\n\
                  end)\n";
    let dir = mods(&[("scripts/main.lua", script)]);
    let play = |rules: &Rules, limits: Limits| {
        let mut world = load_game(&[dir.path().to_path_buf()], rules, limits);
        assert!(!world.has_errors(), "{:?}", world.diagnostics);
        let mut game = world.start(1);
        let _ = game.turn(|g| g.raise("tick", &[]));
        (game, world)
    };
    let (mut game, _) = play(&rules(5), Limits::default());
    assert!(game.take_problems().is_empty());
    let stored = &game.storage()["settlers"];
    assert_eq!(
        (stored["first"].clone(), stored["count"].clone()),
        (10.into(), 5.into())
    );
    assert_eq!(stored["health"], 14 % 7);
    // A million rows against a call's budget of 100,000 instructions: refused before it is made.
    let (mut game, world) = play(
        &rules(1_000_000),
        Limits::default().with_instructions(100_000),
    );
    let said: Vec<String> = game
        .take_problems()
        .iter()
        .map(|d| lantern::diag::render(d, &world.sources))
        .collect();
    assert_eq!(said.len(), 1, "{said:#?}");
    assert!(said[0].contains("instruction"), "{}", said[0]);
    assert!(game
        .storage()
        .get("settlers")
        .and_then(|s| s.get("count"))
        .is_none());
}

/// A real-time game whose bursts pass a tick's cap carries what is left to the next tick, in
/// order, in the state (so in the hash and saves); past what a game carries, the rest is dropped
/// with a problem.
#[test]
fn events_past_the_cap_are_carried_to_the_next_turn_in_order() {
    let rules = Vocabulary::new("td", Ledger::default())
        .without_creatures()
        .event("ping", &[("n", "int")], "One ping.")
        .on("ping", |fx, ev| {
            // Each ping's number, in the order handled: hires = hires * 10 + n.
            let n = ev.int("n");
            let s = fx.state_mut();
            s.hires = s.hires * 10 + n;
            Ok(())
        })
        .verb(
            "burst",
            &[Param::int("count")],
            "Raises `count` pings.",
            |g, args| {
                for n in 1..=args.int("count") {
                    g.raise("ping", &[("n", Value::Int(n))])?;
                }
                Ok(())
            },
        )
        .verb("wait", &[], "A tick with nothing new.", |_, _| Ok(()))
        .rules();
    let dir = mods(&[]);
    let mut world = load_game(&[dir.path().to_path_buf()], &rules, Limits::default());
    let mut g = world.start(1);
    g.set_event_cap(3);
    g.set_event_cap_policy(lantern::game::EventCapPolicy::Carry);
    g.verb("burst", &[Value::Int(7)]).unwrap();
    let hires = |g: &Game| g.host_state::<Ledger>().unwrap().hires;
    assert_eq!(hires(&g), 123);
    assert_eq!(g.state().carried.len(), 4);
    assert!(g.take_problems().is_empty());
    // The carried events are the state's: a save keeps them, and a game read from it goes on.
    let save = dir.path().join("run.json");
    g.save(&save).unwrap();
    let (mut loaded, _) = world.load_save(&save).unwrap();
    assert_eq!(loaded.state_hash(), g.state_hash());
    loaded.set_event_cap(3);
    loaded.set_event_cap_policy(lantern::game::EventCapPolicy::Carry);
    for game in [&mut g, &mut loaded] {
        game.verb("wait", &[]).unwrap();
        assert_eq!(hires(game), 123_456);
        game.verb("wait", &[]).unwrap();
        assert_eq!(hires(game), 1_234_567);
        assert!(game.state().carried.is_empty());
    }
    assert_eq!(loaded.state_hash(), g.state_hash());
    // Stopping is the default: the same burst stops the turn and says so.
    let mut stopping = world.start(1);
    stopping.set_event_cap(3);
    let err = stopping.verb("burst", &[Value::Int(7)]).unwrap_err();
    assert!(
        matches!(
            err,
            lantern::Error::EventCap {
                raised: 7,
                cap: 3,
                ..
            }
        ),
        "{err:?}"
    );
}

/// What a game carries is bounded: a burst past it drops the rest with a problem that says so.
#[test]
fn a_burst_past_what_a_game_carries_is_dropped_with_a_word() {
    let rules = Vocabulary::new("td", Ledger::default())
        .without_creatures()
        .event("ping", &[], "One ping.")
        .verb(
            "burst",
            &[Param::int("count").within(1, 200_000)],
            "Pings.",
            |g, args| {
                let rows = vec![Vec::<Value>::new(); args.int("count") as usize];
                g.raise_many("ping", &[], rows)?;
                Ok(())
            },
        )
        .rules();
    let dir = mods(&[]);
    let mut world = load_game(&[dir.path().to_path_buf()], &rules, Limits::default());
    let mut g = world.start(1);
    g.set_event_cap(10);
    g.set_event_cap_policy(lantern::game::EventCapPolicy::Carry);
    let most = lantern::game::MOST_CARRIED;
    let err = g.verb("burst", &[Value::Int(most as i64 + 5)]).unwrap_err();
    assert!(matches!(err, lantern::Error::EventCap { .. }), "{err:?}");
    assert_eq!(g.state().carried.len(), most - 10);
    let said: Vec<String> = g
        .take_problems()
        .iter()
        .map(|d| d.message.clone())
        .collect();
    assert_eq!(
        said,
        [format!("events waited past their turns' cap of 10 beyond the {most} a game carries: 5 were dropped. No chain looped: the turn's events outnumber the cap")]
    );
}
