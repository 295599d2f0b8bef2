//! The Lua layer over real scripts: the sandbox (every escape attempt fails), budgets (each runaway
//! ends with its message and the next event is handled normally), fault isolation, quarantine,
//! storage, custom events, registered actions and checks, and determinism across processes.

mod common;

use common::root;
use common::world::{problems, turn, TestMods};
use lantern::game::Game;
use lantern::lua::Limits;

fn said(g: &mut Game) -> Vec<String> {
    g.take_messages()
}

/// Each entry: a description and Lua that must NOT succeed; the handler logs "escaped" if it does.
const ESCAPES: &[(&str, &str)] = &[
    ("io", "io.open('/etc/passwd')"),
    ("os", "os.execute('true')"),
    ("os.time reads the clock", "os.time()"),
    ("os.clock", "os.clock()"),
    ("debug", "debug.getregistry()"),
    ("package.loadlib", "package.loadlib('libc.so.6', 'system')"),
    ("dofile", "dofile('/etc/passwd')"),
    ("loadfile", "loadfile('/etc/passwd')"),
    ("string.dump", "string.dump(function() end)"),
    (
        "binary chunk through load",
        "assert(load('\\27Lua', 'x', 'b'))",
    ),
    ("binary chunk in text mode", "assert(load('\\27LuaT\\0'))"),
    ("collectgarbage beyond count", "collectgarbage('collect')"),
    ("require outside the mod", "require('..secret')"),
    ("require a path", "require('/etc/passwd')"),
    ("math.randomseed", "math.randomseed(42)"),
    (
        "the shared string metatable",
        "getmetatable('').__index.upper = nil",
    ),
    ("the string library through a string", "('x').upper = 1"),
    (
        "another mod's environment via _G",
        "assert(_G.core_secret == nil); _G.io.write('x')",
    ),
    ("setting a field of an event", "ev.name = 'x'"),
    (
        "the metatable every event view shares",
        "getmetatable(ev).__index = nil",
    ),
];

#[test]
fn every_sandbox_escape_fails() {
    let mut lua = String::new();
    for (i, (_, code)) in ESCAPES.iter().enumerate() {
        lua.push_str(&format!(
            "lantern.on('turn_started', function(ev) local ok = pcall(function() {code} end); if ok then lantern.log('escaped {i}') else lantern.log('held {i}') end end)\n"
        ));
    }
    let mods = TestMods::new(&[("scripts/main.lua", &lua)]);
    let (mut g, _world) = mods.game(1);
    turn(&mut g);
    let log = said(&mut g);
    for (i, (what, _)) in ESCAPES.iter().enumerate() {
        assert!(
            log.contains(&format!("[test] held {i}")),
            "sandbox escape `{what}` was not stopped: {log:?}"
        );
    }
    assert!(ESCAPES.len() >= 12);
}

/// What mods `test` (its `main.lua` being `mine`) and `other` (`theirs`) log in one turn.
fn two_mods_say(mine: &str, theirs: &str) -> Vec<String> {
    let mods = TestMods::new(&[("scripts/main.lua", mine)]);
    mods.add_other(theirs);
    let (mut g, _w) = mods.game(1);
    turn(&mut g);
    said(&mut g)
}

#[test]
fn one_mod_cannot_change_the_string_library_another_mod_sees() {
    let log = two_mods_say(
        "string.upper = function() return 'hacked' end\nlantern.on('turn_started', function() lantern.log(('a'):upper()) end)",
        "lantern.on('turn_started', function() lantern.log(string.upper('a'), ('b'):upper()) end)",
    );
    assert!(log.contains(&"[other] A\tB".to_string()), "{log:?}");
    assert!(
        log.contains(&"[test] A".to_string()),
        "a method call on a string uses the shared, read-only library: {log:?}"
    );
}

#[test]
fn every_mod_gets_whole_copies_of_the_libraries() {
    // Each library is a copy of the whole table (less `string.dump`), which a mod may change
    // without another mod seeing it.
    let log = two_mods_say(
        "local counts = {}\n\
         for _, lib in ipairs({ 'string', 'table', 'math', 'utf8', 'coroutine' }) do\n\
           local n = 0\n\
           for _ in pairs(_G[lib]) do n = n + 1 end\n\
           counts[#counts + 1] = lib .. '=' .. n\n\
         end\n\
         math.floor, table.insert = nil, nil\n\
         lantern.on('turn_started', function() lantern.log(table.concat(counts, ' '), string.dump, math.floor, math.pi) end)",
        "lantern.on('turn_started', function() lantern.log(math.floor(2.5), type(table.insert), #utf8.char(228)) end)",
    );
    assert!(
        log.contains(
            &"[test] string=16 table=7 math=35 utf8=6 coroutine=8\tnil\tnil\t3.141592653589793"
                .to_string()
        ),
        "{log:?}"
    );
    assert!(
        log.contains(&"[other] 2\tfunction\t2".to_string()),
        "{log:?}"
    );
}

#[test]
fn one_mod_cannot_change_the_game_view_another_mod_sees() {
    // The view's metatable is one per state; each mod's `lantern.game` is its own table over it.
    let log = two_mods_say(
        "rawset(lantern.game, 'player', { count = function() return 99 end })\n\
         rawset(lantern.game, 'turn', -1)\n\
         local ok = pcall(setmetatable, lantern.game, {})\n\
         lantern.on('turn_started', function() lantern.log('mine', lantern.game.turn, ok, getmetatable(lantern.game)) end)",
        "lantern.on('turn_started', function() lantern.log('theirs', lantern.game.turn, lantern.game.player:count('core:gold')) end)",
    );
    assert!(
        log.contains(&"[test] mine\t-1\tfalse\tlantern.game".to_string()),
        "{log:?}"
    );
    let theirs = log.iter().find(|l| l.starts_with("[other] theirs\t1\t"));
    assert!(theirs.is_some_and(|l| !l.ends_with("\t99")), "{log:?}");
}

#[test]
fn each_mod_gets_its_own_lantern_table_storage_and_bound_functions() {
    // The fields and `lantern.on` are made once per state and copied or bound for each mod: each
    // mod's storage is its own table, and its `lantern.on` registers for it, kept in a local or
    // made again after the script cleared it.
    let log = two_mods_say(
        "local on = lantern.on\n\
         lantern.on = nil\n\
         on('turn_started', function() lantern.log('mine', lantern.storage.mark, type(lantern.on)) end)\n\
         lantern.on('turn_started', function() lantern.log('again', rawequal(on, lantern.on)) end)",
        "lantern.on('turn_started', function() lantern.storage.mark = 'theirs'; lantern.log('theirs', lantern.storage.mark) end)",
    );
    // `other` loads first; its storage is not `test`'s.
    assert_eq!(
        log,
        [
            "[other] theirs\ttheirs",
            "[test] mine\tnil\tfunction",
            "[test] again\tfalse",
        ],
    );
}

#[test]
fn a_bad_argument_to_a_function_bound_to_the_mod_is_numbered_as_the_script_wrote_it() {
    // `math.random`, `collectgarbage`, `load`, `lantern.on` and `print` are functions of the state
    // bound to the mod's values; the values they are bound to are not the script's arguments.
    let log = two_mods_say(
        "local function which(ok, e) return (tostring(e):match('bad argument #%d+')) end\n\
         lantern.on('turn_started', function()\n\
           lantern.log(which(pcall(math.random, 'x')), which(pcall(collectgarbage, {})),\n\
             which(pcall(load, 'return 1', 'n', 't', 5)), which(pcall(lantern.on, 'turn_started', 5)))\n\
         end)",
        "",
    );
    assert_eq!(
        log,
        ["[test] bad argument #1\tbad argument #1\tbad argument #4\tbad argument #2"]
    );
}

/// Runs `code` once, in the first turn's handler, under a budget of 2,000,000 instructions, and
/// returns the problems reported and what the handlers logged in both turns.
fn run_under_budget(code: &str) -> (Vec<String>, Vec<String>) {
    let lua = format!(
        "lantern.on('turn_started', function(ev) if lantern.game.turn == 1 then {code} end lantern.log('handled turn ' .. lantern.game.turn) end)"
    );
    let mods = TestMods::new(&[("scripts/main.lua", &lua)]);
    let (mut g, world) = mods.game_with(
        1,
        Limits::default()
            .with_instructions(2_000_000)
            .with_memory(32 * 1024 * 1024),
    );
    turn(&mut g);
    let p = problems(&mut g, &world);
    turn(&mut g);
    (p, said(&mut g))
}

fn runaway(code: &str) {
    let (p, said) = run_under_budget(code);
    assert_eq!(p.len(), 1, "{code}: {p:?}");
    assert!(
        p[0].contains("test/scripts/main.lua:1"),
        "the message names the file and line: {}",
        p[0]
    );
    assert_eq!(
        said,
        vec!["[test] handled turn 2".to_string()],
        "the next event is handled normally"
    );
}

/// This workspace builds lantern's Lua (`build.rs` links `vendor/lantern-lua-src`): if stock Lua
/// were linked instead, scripts would still run, so this is where it shows. Its count hook charges nothing for
/// straight-line code and still counts a loop.
#[test]
fn lanterns_own_lua_is_the_one_built() {
    assert!(
        lantern::lua::patched_lua(),
        "stock Lua was linked: does build.rs still link lantern-lua-src, with mlua-sys `external`?"
    );
    let lua = mlua::Lua::new();
    let fired = std::sync::Arc::new(std::sync::atomic::AtomicU32::new(0));
    let counter = fired.clone();
    lua.set_hook(
        mlua::HookTriggers::new().every_nth_instruction(100),
        move |_, _| {
            counter.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            Ok(mlua::VmState::Continue)
        },
    )
    .unwrap();
    lua.load("local s = 0 for i = 1, 1000 do s = s + i end")
        .exec()
        .unwrap();
    // A pass of this loop is a few instructions, so 1,000 passes charge a few thousand: the hook
    // every 100 fires dozens of times.
    let fired = fired.load(std::sync::atomic::Ordering::Relaxed);
    assert!(fired >= 20, "fired {fired} times");
}

/// The budget is charged where code can repeat (lantern's patched Lua, `vendor/lantern-lua-src`): every
/// backward jump and every call. Each way a script can run forever goes through one of them.
#[test]
fn every_way_to_repeat_code_ends_at_the_budget() {
    for code in [
        "repeat until false",
        "::again:: goto again",
        "for i = 1, math.huge do end",
        "for _ in function() return 1 end do end",
        "local function f() return f() end f()",
        "local n = 0 while true do n = n + 1 if n % 2 == 0 then n = n - 1 end end",
    ] {
        runaway(code);
    }
}

/// A loop costs its length for every pass: 100,000 passes of a short loop fit in a budget of
/// 2,000,000; a million passes of a longer one do not.
#[test]
fn the_budget_counts_each_pass_of_a_loop_by_its_length() {
    let (p, said) =
        run_under_budget("local x = 0 for i = 1, 100000 do x = x + i * 2 end lantern.log(x)");
    assert_eq!(p, Vec::<String>::new());
    assert_eq!(
        said,
        [
            "[test] 10000100000",
            "[test] handled turn 1",
            "[test] handled turn 2"
        ]
    );
    let (p, _) =
        run_under_budget("local x = 0 for i = 1, 1000000 do x = x + i * 2 x = x - i x = x + 1 end");
    assert_eq!(p.len(), 1, "{p:?}");
    assert!(
        p[0].contains("instruction budget of 2000000 exceeded"),
        "{}",
        p[0]
    );
}

/// The work a game's scripts have done so far, as their budgets counted it.
fn work(g: &mut Game) -> u64 {
    let scripts = g.set_scripts(None).expect("scripts are attached");
    let work = scripts.work();
    g.set_scripts(Some(scripts));
    work
}

/// A call is charged what it ran, counted from its own first instruction: a handler far shorter
/// than the hook's step (10,000) costs its mod the same small amount every turn, neither nothing
/// nor a whole step as the hook's phase happens to fall.
#[test]
fn a_short_call_is_charged_what_it_ran() {
    let mods = TestMods::new(&[(
        "scripts/main.lua",
        "lantern.on('turn_started', function() local x = 0 for i = 1, 10 do x = x + i end end)",
    )]);
    let (mut g, _world) = mods.game(1);
    let mut costs = Vec::new();
    for _ in 0..4 {
        let before = work(&mut g);
        turn(&mut g);
        costs.push(work(&mut g) - before);
    }
    assert!(
        costs.iter().all(|&c| c == costs[0] && c > 10 && c < 1_000),
        "each turn's call costs the same few dozen units: {costs:?}"
    );
}

/// Where a runaway stops depends on its own call alone: a loop counting its passes is stopped
/// after the same number of them whatever the mod's earlier handler ran before it (the hook's
/// phase starts afresh with every call from the game).
#[test]
fn a_runaway_stops_after_the_same_work_whatever_ran_before_it() {
    let passes = |before: usize| {
        let lua = format!(
            "passes = 0\n\
             lantern.on('turn_started', function() if lantern.game.turn == 1 then local x = 0 for i = 1, {before} do x = x + i end end end)\n\
             lantern.on('turn_started', function() if lantern.game.turn == 1 then while true do passes = passes + 1 end end end)\n\
             lantern.on('turn_started', function() if lantern.game.turn == 2 then lantern.log(passes) end end)\n"
        );
        let mods = TestMods::new(&[("scripts/main.lua", &lua)]);
        let (mut g, world) = mods.game_with(1, Limits::default().with_instructions(200_000));
        turn(&mut g);
        let p = problems(&mut g, &world);
        assert!(
            p.len() == 1 && p[0].contains("instruction budget of 200000 exceeded"),
            "{p:?}"
        );
        said(&mut g);
        turn(&mut g);
        said(&mut g)
    };
    let first = passes(0);
    assert_eq!(first.len(), 1, "{first:?}");
    for before in [1, 7, 333, 2_500] {
        assert_eq!(passes(before), first, "after a handler of {before} passes");
    }
}

#[test]
fn an_infinite_loop_ends_at_the_budget() {
    runaway("while true do end");
}

#[test]
fn an_infinite_loop_inside_pcall_ends_at_the_budget() {
    runaway("while true do pcall(function() while true do end end) end");
}

#[test]
fn a_coroutine_that_loops_ends_at_the_budget() {
    runaway("local co = coroutine.wrap(function() while true do end end) co()");
}

#[test]
fn a_memory_bomb_ends_at_the_memory_limit() {
    runaway("local t = {} for i = 1, 1e9 do t[i] = string.rep('x', 1024) .. i end");
}

#[test]
fn a_memory_bomb_that_keeps_what_it_filled_leaves_the_game_running() {
    // The hoard stays reachable, so collecting frees nothing: every later allocation in the state
    // may fail, and each must end as a reported error, not a crash.
    let lua = "lantern.on('turn_started', function()\n\
                 hoard = hoard or {}\n\
                 for i = 1, 1e9 do hoard[#hoard + 1] = string.rep('x', 1024) .. i end\n\
               end)\n\
               lantern.on('turn_started', function(ev) lantern.log('turn ' .. lantern.game.turn .. ' ' .. ev.name) end)\n";
    let mods = TestMods::new(&[("scripts/main.lua", lua)]);
    let (mut g, world) = mods.game_with(
        1,
        Limits::default()
            .with_instructions(50_000_000)
            .with_turn_instructions(500_000_000)
            .with_memory(16 * 1024 * 1024),
    );
    for _ in 0..3 {
        turn(&mut g);
    }
    let p = problems(&mut g, &world);
    assert!(!p.is_empty());
    assert!(p.iter().all(|p| p.contains("out of memory")), "{p:#?}");
    assert_eq!(g.state().turn, 3);
}

/// lantern's own objects made for a call are not a mod's garbage: a creature handle made anew on
/// each `lantern.game.player` (and two closures on each `lantern.rng(name)`) carried mlua's
/// finalizer, which Lua's collector frees a cycle late, so ten such handlers climbed about 80
/// bytes an event until the mod was stopped as a memory bomb in a long session. Their memory
/// stays flat now, well inside a limit the old handles passed within a few thousand events.
#[test]
fn handlers_reading_the_game_hold_flat_memory_over_a_long_session() {
    let handler = "lantern.on('turn_started', function()\n\
                     local gold = lantern.game.player:count('core:gold')\n\
                     local roll = lantern.rng('loot'):int(1, 6) + #lantern.game.enemies\n\
                   end)\n";
    let mut lua = handler.repeat(10);
    lua.push_str("lantern.on('turn_started', function() lantern.storage.kb = math.max(lantern.storage.kb or 0, collectgarbage('count')) end)\n");
    let mods = TestMods::new(&[("scripts/main.lua", &lua)]);
    let (mut g, world) = mods.game_with(1, Limits::default().with_memory(1024 * 1024));
    for _ in 0..20_000 {
        turn(&mut g);
    }
    assert_eq!(problems(&mut g, &world), Vec::<String>::new());
    let stored = g
        .state()
        .storage
        .get("test")
        .expect("the mod stored its peak")
        .to_string();
    let peak: f64 = stored
        .trim_start_matches("{\"kb\":")
        .trim_end_matches('}')
        .parse()
        .unwrap_or_else(|_| panic!("{stored}"));
    assert!(peak < 256.0, "the mod's memory peaked at {peak} KiB");
}

#[test]
fn a_string_rep_bomb_ends() {
    runaway("local s = string.rep('x', 1e10)");
}

#[test]
fn deep_recursion_ends() {
    runaway("local function f(n) return 1 + f(n + 1) end f(1)");
}

#[test]
fn a_failing_handler_between_two_good_ones_leaves_them_running() {
    let lua = "lantern.on('turn_started', function() lantern.log('first') end)\n\
               lantern.on('turn_started', function() error('boom') end)\n\
               lantern.on('turn_started', function() lantern.log('third') end)\n";
    let mods = TestMods::new(&[("scripts/main.lua", lua)]);
    let (mut g, world) = mods.game(1);
    turn(&mut g);
    assert_eq!(said(&mut g), vec!["[test] first", "[test] third"]);
    let p = problems(&mut g, &world);
    assert!(
        p[0].starts_with(
            "error: [test] a handler of `turn_started` failed: test/scripts/main.lua:2: boom"
        ),
        "{}",
        p[0]
    );
    assert!(p[0].contains("/test/scripts/main.lua:2:"), "{}", p[0]);
    assert!(p[0].contains("while handling turn_started"), "{}", p[0]);
}

#[test]
fn a_misspelt_id_on_a_creature_handle_is_an_error_at_its_line() {
    let lua = "lantern.on('turn_started', function()\n\
               local p = lantern.game.player\n\
               lantern.log('gold ' .. p:count('core:gold') .. ', undead ' .. tostring(p:has_tag('core:undead')))\n\
               lantern.log(p:count('gold'))\n\
               end)\n\
               lantern.on('turn_started', function() return lantern.game.player:has_tag('core:undaed') end)\n\
               lantern.on('turn_started', function() return lantern.game.player:attribute('armour') end)\n";
    let mods = TestMods::new(&[("scripts/main.lua", lua)]);
    let (mut g, world) = mods.game(1);
    turn(&mut g);
    assert_eq!(said(&mut g), vec!["[test] gold 120, undead false"]);
    let p = problems(&mut g, &world);
    assert_eq!(p.len(), 3, "{p:#?}");
    // A bare ID is the calling mod's own, as in its TOML.
    assert!(
        p[0].contains("there is no item `test:gold`; did you mean `core:gold`?"),
        "{}",
        p[0]
    );
    assert!(p[0].contains("/test/scripts/main.lua:4:"), "{}", p[0]);
    assert!(
        p[1].contains("there is no tag `core:undaed`; did you mean `core:undead`?"),
        "{}",
        p[1]
    );
    assert!(p[1].contains("/test/scripts/main.lua:6:"), "{}", p[1]);
    assert!(
        p[2].contains("there is no attribute `armour`; did you mean `armor`?"),
        "{}",
        p[2]
    );
    assert!(p[2].contains("/test/scripts/main.lua:7:"), "{}", p[2]);
}

#[test]
fn reading_a_field_an_event_does_not_have_is_an_error_at_its_line() {
    let lua = "lantern.on('damage_taken', function(ev)\n\
               if ev.amout > 3 then lantern.log('ouch') end\n\
               end)\n";
    let mods = TestMods::new(&[("scripts/main.lua", lua)]);
    let (mut g, world) = mods.game(1);
    g.spawn(&lantern::id::Id::qualified("core:rat").unwrap())
        .unwrap();
    g.verb("attack", &[]).unwrap();
    let p = problems(&mut g, &world);
    assert!(!p.is_empty());
    assert!(
        p[0].contains("event `damage_taken` has no field `amout`; did you mean `amount`?"),
        "{}",
        p[0]
    );
    assert!(p[0].contains("/test/scripts/main.lua:2:"), "{}", p[0]);
}

#[test]
fn a_handler_that_fails_five_times_in_a_row_is_quarantined_with_one_message() {
    let mods = TestMods::new(&[(
        "scripts/main.lua",
        "lantern.on('turn_started', function() error('always') end)",
    )]);
    let (mut g, world) = mods.game(1);
    let mut all = Vec::new();
    for _ in 0..8 {
        turn(&mut g);
        all.extend(problems(&mut g, &world));
    }
    assert_eq!(all.iter().filter(|p| p.contains("always")).count(), 5);
    assert_eq!(
        all.iter()
            .filter(|p| p.contains("switched off until the next reload"))
            .count(),
        1
    );
}

#[test]
fn emitting_an_undeclared_event_is_an_error_at_the_call_with_a_suggestion() {
    let data = "[[event_types]]\nid = \"ritual_done\"\npayload = { power = \"int\" }\n";
    let lua = "lantern.on('turn_started', function() lantern.emit_event('test:ritual_don', { power = 1 }) end)";
    let mods = TestMods::new(&[("data/events.toml", data), ("scripts/main.lua", lua)]);
    let (mut g, world) = mods.game(1);
    turn(&mut g);
    let p = problems(&mut g, &world);
    assert!(
        p[0].contains("unknown event `test:ritual_don`; did you mean `test:ritual_done`?"),
        "{}",
        p[0]
    );
}

#[test]
fn emit_event_checks_the_payload_and_queues_fifo() {
    let data = "[[event_types]]\nid = \"ping\"\npayload = { power = \"int\" }\n\n[[quests]]\nid = \"pings\"\non = \"ping\"\ncount = 2\n";
    let lua = "lantern.on('turn_started', function()\n  lantern.emit_event('ping', { power = 1 })\n  local ok, err = pcall(lantern.emit_event, 'ping', { power = 'high' })\n  lantern.log(err)\n  ok, err = pcall(lantern.emit_event, 'ping', { powr = 3 })\n  lantern.log(err)\n  lantern.emit_event('ping', { power = 2 })\nend)\n\
               lantern.on('ping', function(ev) lantern.log('ping ' .. ev.power) end)";
    let mods = TestMods::new(&[("data/events.toml", data), ("scripts/main.lua", lua)]);
    let (mut g, _world) = mods.game(1);
    g.command_action(
        lantern::content::ActionEntry {
            action: lantern::content::Action::StartQuest {
                quest: lantern::id::Id::qualified("test:pings").unwrap(),
            },
            span: lantern::diag::Span::file_start(lantern::diag::FileId(0)),
        },
        "start",
    )
    .unwrap();
    said(&mut g);
    turn(&mut g);
    let log = said(&mut g);
    assert!(
        log[0].contains("`power` of `test:ping` must be of type `int`, not `string`"),
        "{log:?}"
    );
    assert!(
        log[1].contains("event `test:ping` has no payload field `powr`; did you mean `power`?"),
        "{log:?}"
    );
    let pos = |m: &str| {
        log.iter()
            .position(|l| l == m)
            .unwrap_or_else(|| panic!("{m} missing: {log:?}"))
    };
    assert!(pos("[test] ping 1") < pos("[test] ping 2"), "{log:?}");
    assert!(g.state().quests[&lantern::id::Id::qualified("test:pings").unwrap()].done);
}

#[test]
fn registered_actions_and_checks_work_from_toml() {
    let data = "[[triggers]]\non = \"turn_started\"\ncondition = [ { check = \"test:even_turn\" } ]\nactions = [ { action = \"test:pay\", amount = 7 } ]\n";
    let lua = "lantern.register_check('even_turn', function(ctx, args) return lantern.game.turn % 2 == 0 end)\n\
               lantern.register_action('pay', function(ctx, args) lantern.apply({ action = 'give_item', item = 'core:gold', count = args.amount }) end)";
    let mods = TestMods::new(&[("data/t.toml", data), ("scripts/main.lua", lua)]);
    let (mut g, _world) = mods.game(1);
    let gold = |g: &Game| {
        g.state()
            .player
            .count(&lantern::id::Id::qualified("core:gold").unwrap())
    };
    let start = gold(&g);
    turn(&mut g); // turn 1: odd
    assert_eq!(gold(&g), start);
    turn(&mut g); // turn 2: even
    assert_eq!(gold(&g), start + 7);
}

#[test]
fn a_check_cannot_change_the_game() {
    let data = "[[triggers]]\nid = \"t\"\non = \"turn_started\"\ncondition = [ { check = \"test:sneaky\" } ]\nactions = [ { action = \"heal\", amount = 1 } ]\n";
    let lua = "lantern.register_check('sneaky', function() lantern.apply({ action = 'give_item', item = 'core:gold', count = 1 }) return true end)";
    let mods = TestMods::new(&[("data/t.toml", data), ("scripts/main.lua", lua)]);
    let (mut g, _world) = mods.game(1);
    let before = g
        .state()
        .player
        .count(&lantern::id::Id::qualified("core:gold").unwrap());
    turn(&mut g);
    assert_eq!(
        g.state()
            .player
            .count(&lantern::id::Id::qualified("core:gold").unwrap()),
        before
    );
    let why = g.why_text("test:t").unwrap();
    assert!(why.contains("a check cannot change the game"), "{why}");
}

#[test]
fn lantern_apply_validates_like_toml() {
    let lua = "lantern.on('turn_started', function() local ok, err = pcall(lantern.apply, { action = 'give_item', item = 'core:glod' }) lantern.log(err) end)";
    let mods = TestMods::new(&[("scripts/main.lua", lua)]);
    let (mut g, _world) = mods.game(1);
    turn(&mut g);
    let log = said(&mut g);
    assert!(
        log[0].contains("unknown item `core:glod` (did you mean `core:gold`?)"),
        "{log:?}"
    );
}

#[test]
fn storage_is_saved_with_the_game_and_refuses_functions() {
    let lua = "lantern.on('turn_started', function() lantern.storage.count = (lantern.storage.count or 0) + 1 end)";
    let mods = TestMods::new(&[("scripts/main.lua", lua)]);
    let (mut g, _world) = mods.game(1);
    turn(&mut g);
    turn(&mut g);
    assert_eq!(g.storage()["test"]["count"], 2);
    let bad = TestMods::new(&[(
        "scripts/main.lua",
        "lantern.on('turn_started', function() lantern.storage.f = print end)",
    )]);
    let (mut g, world) = bad.game(1);
    turn(&mut g);
    let p = problems(&mut g, &world);
    assert!(
        p[0].contains("lantern.storage.f holds a function; lantern.storage holds only plain data"),
        "{p:?}"
    );
    let kept = TestMods::new(&[(
        "scripts/main.lua",
        "lantern.on('turn_started', function(ev) lantern.storage.last = ev end)",
    )]);
    let (mut g, world) = kept.game(1);
    turn(&mut g);
    let p = problems(&mut g, &world);
    assert!(
        p[0].contains(
            "lantern.storage.last holds an event (`ev`), which is readable only inside its handler"
        ),
        "{p:?}"
    );
}

#[test]
fn a_failed_action_list_gives_back_what_scripts_stored_during_it() {
    // `seen` is stored by a handler before the list, in the same turn (not settled yet); `failed`
    // and the nested table's `deep` by the list that fails; `kept` by one that does not.
    let data = "[[event_types]]\nid = \"ping\"\n\n\
                [[triggers]]\non = \"test:ping\"\nactions = [ { action = \"test:note\", key = \"failed\" }, { action = \"test:boom\" } ]\n\n\
                [[triggers]]\non = \"test:ping\"\nactions = [ { action = \"test:note\", key = \"kept\" } ]\n";
    let lua = "local store = lantern.storage\n\
               lantern.register_action('note', function(ctx, args)\n\
                 lantern.storage[args.key] = true\n\
                 local list = lantern.storage.list\n\
                 list[#list + 1] = args.key\n\
                 lantern.storage.fresh = { inner = args.key }\n\
               end)\n\
               lantern.register_action('boom', function() error('the second action fails') end)\n\
               lantern.on('turn_started', function()\n\
                 lantern.storage.seen = (lantern.storage.seen or 0) + 1\n\
                 lantern.storage.list = lantern.storage.list or {}\n\
                 lantern.emit_event('test:ping', {})\n\
               end)\n\
               lantern.on('test:ping', function()\n\
                 lantern.log(tostring(rawequal(store, lantern.storage)) .. ' ' .. tostring(store.failed) .. ' ' .. tostring(store.kept) .. ' ' .. table.concat(store.list, ','))\n\
               end)";
    let mods = TestMods::new(&[("data/t.toml", data), ("scripts/main.lua", lua)]);
    let (mut g, world) = mods.game(1);
    turn(&mut g);
    assert_eq!(
        said(&mut g),
        ["[test] true nil true kept"],
        "the failed list's writes are gone (in the nested table too), the other list's are there"
    );
    let p = problems(&mut g, &world);
    assert_eq!(p.len(), 2, "{p:?}");
    assert!(
        p[0].contains(
            "the action `test:boom` failed: test/scripts/main.lua:8: the second action fails"
        ) && p[0].contains("/test/scripts/main.lua:8:"),
        "the cause first, at its line: {}",
        p[0]
    );
    assert!(
        p[1].contains("error: stopped by the failure above (from test/data/t.toml:4); nothing in this action list was applied")
            && p[1].contains("/test/data/t.toml:"),
        "then which list it stopped, without saying it again: {}",
        p[1]
    );
    let stored = &g.storage()["test"];
    assert_eq!(
        stored["seen"], 1,
        "what the turn stored before the list stays: {stored}"
    );
    assert_eq!(stored["kept"], true, "{stored}");
    assert_eq!(stored["fresh"]["inner"], "kept", "{stored}");
    assert!(stored.get("failed").is_none(), "{stored}");
    turn(&mut g);
    assert_eq!(g.storage()["test"]["seen"], 2);
    assert_eq!(
        g.storage()["test"]["list"],
        serde_json::json!(["kept", "kept"])
    );
}

#[test]
fn a_failed_list_gives_back_a_storage_a_script_replaced_whole() {
    let data = "[[event_types]]\nid = \"ping\"\n\n\
                [[triggers]]\non = \"test:ping\"\nactions = [ { action = \"test:wipe\" }, { action = \"test:boom\" } ]\n";
    let lua = "local store = lantern.storage\n\
               lantern.register_action('wipe', function() lantern.storage = { wiped = true } end)\n\
               lantern.register_action('boom', function() error('the second action fails') end)\n\
               lantern.on('turn_started', function()\n\
                 lantern.storage.gold = (lantern.storage.gold or 0) + 5\n\
                 lantern.emit_event('test:ping', {})\n\
               end)\n\
               lantern.on('test:ping', function()\n\
                 lantern.log(tostring(rawequal(store, lantern.storage)) .. ' ' .. tostring(lantern.storage.gold) .. ' ' .. tostring(lantern.storage.wiped))\n\
               end)";
    let mods = TestMods::new(&[("data/t.toml", data), ("scripts/main.lua", lua)]);
    let (mut g, _world) = mods.game(1);
    turn(&mut g);
    assert_eq!(
        said(&mut g),
        ["[test] true 5 nil"],
        "the storage the failed list replaced is back, with what the turn stored before it"
    );
    assert_eq!(*g.storage()["test"], serde_json::json!({ "gold": 5 }));
    // Outside a failed transaction, a new table is the storage from then on.
    let mods = TestMods::new(&[(
        "scripts/main.lua",
        "lantern.on('turn_started', function() lantern.storage = { fresh = 1 } end)",
    )]);
    let (mut g, _world) = mods.game(1);
    turn(&mut g);
    assert_eq!(*g.storage()["test"], serde_json::json!({ "fresh": 1 }));
}

#[test]
fn a_rollback_survives_deep_nesting_and_many_writes() {
    // 100,000 writes and a table nested 100 deep, made in a list that then fails: all of it is put
    // back, and the game goes on.
    let data = "[[triggers]]\non = \"turn_started\"\nactions = [ { action = \"test:flood\" }, { action = \"test:boom\" } ]\n";
    let lua = "lantern.register_action('flood', function()\n\
                 local s = lantern.storage\n\
                 for i = 1, 100000 do s[i] = i end\n\
                 local t = {} s.deep = t\n\
                 for i = 1, 100 do t.next = {} t = t.next end\n\
                 t.bottom = true\n\
               end)\n\
               lantern.register_action('boom', function() error('no') end)\n\
               lantern.on('turn_started', function()\n\
                 lantern.log(tostring(#lantern.storage) .. ' ' .. tostring(lantern.storage.deep))\n\
                 lantern.storage.turns = (lantern.storage.turns or 0) + 1\n\
               end)";
    let mods = TestMods::new(&[("data/t.toml", data), ("scripts/main.lua", lua)]);
    let (mut g, _world) = mods.game(1);
    turn(&mut g);
    turn(&mut g);
    assert_eq!(said(&mut g), ["[test] 0 nil", "[test] 0 nil"]);
    assert_eq!(g.storage()["test"]["turns"], 2);
}

#[test]
fn a_mod_that_fills_its_memory_inside_a_transaction_is_rolled_back_whole() {
    // Each write into storage during the list is journaled, charged to the mod; it runs out of
    // memory part way through a write, its action fails, and the list is put back whole.
    let data = "[[triggers]]\non = \"turn_started\"\nactions = [ { action = \"test:hoard\" } ]\n";
    let lua = "lantern.register_action('hoard', function()\n\
                 local s = lantern.storage\n\
                 s.kept = s.kept or 'before'\n\
                 for i = 1, 100000000 do s[i] = string.rep('x', 64) .. i end\n\
               end)\n\
               lantern.on('turn_started', function()\n\
                 lantern.log(tostring(lantern.storage.kept) .. ' ' .. #lantern.storage)\n\
               end)";
    let mods = TestMods::new(&[("data/t.toml", data), ("scripts/main.lua", lua)]);
    let limits = Limits::default()
        .with_memory(8 * 1024 * 1024)
        .with_instructions(500_000_000)
        .with_turn_instructions(1_000_000_000);
    let (mut g, world) = mods.game_with(1, limits);
    turn(&mut g);
    let p = problems(&mut g, &world);
    assert!(
        p.iter()
            .any(|p| p.contains("nothing in this action list was applied")),
        "{p:?}"
    );
    assert!(
        p.iter().any(|p| p.contains("memory")),
        "it ran out of memory: {p:?}"
    );
    assert_eq!(
        said(&mut g),
        ["[test] nil 0"],
        "nothing of the hoard is left"
    );
    turn(&mut g);
    assert_eq!(said(&mut g), ["[test] nil 0"], "and the game goes on");
}

#[test]
fn a_turn_that_only_reads_storage_does_not_write_it_again() {
    let lua = "lantern.on('turn_started', function()\n\
                 local s = lantern.storage\n\
                 s.turns = (s.turns or 0) + 1\n\
                 if s.turns == 2 then s.note = 'kept' end\n\
               end)\n\
               lantern.on('test:look', function() local seen = lantern.storage.turns end)";
    let data = "[[event_types]]\nid = \"look\"\n";
    let mods = TestMods::new(&[("data/t.toml", data), ("scripts/main.lua", lua)]);
    let (mut g, _world) = mods.game(1);
    turn(&mut g);
    let first = g.storage()["test"].clone();
    g.turn(|g| g.raise("test:look", &[])).unwrap();
    assert!(
        std::sync::Arc::ptr_eq(&first, &g.storage()["test"]),
        "a turn whose code only read the storage leaves the game's copy as it was"
    );
    turn(&mut g);
    assert_eq!(g.storage()["test"]["turns"], 2);
    assert_eq!(
        g.storage()["test"]["note"],
        "kept",
        "a turn that writes is written"
    );
}

#[test]
fn an_encounter_option_that_fails_gives_back_what_its_scripts_stored() {
    let data = "[[encounters]]\nid = \"shrine\"\ntitle = \"A shrine\"\nweight = 0\n\n\
                [[encounters.options]]\ntext = \"Pray\"\n\
                costs = [ { action = \"test:note\", key = \"prayed\" } ]\n\
                rewards = [ { action = \"take_item\", item = \"core:gold\", count = 99999 } ]\n\n\
                [[encounters.options]]\ntext = \"Leave\"\n\
                costs = [ { action = \"test:note\", key = \"left\" } ]\n";
    let lua =
        "lantern.register_action('note', function(ctx, args) lantern.storage[args.key] = true end)";
    let mods = TestMods::new(&[("data/t.toml", data), ("scripts/main.lua", lua)]);
    let (mut g, _world) = mods.game(1);
    let shrine = lantern::id::Id::new("test", "shrine");
    g.start_encounter(&shrine).unwrap();
    let refused = g.choose(1).unwrap_err().to_string();
    assert!(
        refused.contains("option 1 cannot be carried out"),
        "{refused}"
    );
    assert!(g.encounter().is_some(), "the encounter is still open");
    g.choose(2).unwrap();
    let stored = &g.storage()["test"];
    assert!(
        stored.get("prayed").is_none(),
        "the failed option's cost is given back: {stored}"
    );
    assert_eq!(stored["left"], true, "{stored}");
}

#[test]
fn storage_kept_in_a_local_is_the_storage_after_a_start_and_a_load() {
    // A script that keeps `lantern.storage` in a local writes into its storage: the table stays
    // the same when the game starts and when a save loads, and takes what was saved.
    let lua = "local store = lantern.storage\n\
               lantern.on('turn_started', function()\n\
                 store.count = (store.count or 0) + 1\n\
                 lantern.log(tostring(rawequal(store, lantern.storage)) .. ' ' .. store.count)\n\
               end)";
    let mods = TestMods::new(&[("scripts/main.lua", lua)]);
    let (mut live, _) = lantern::reload::Live::start_game(
        &[mods.path()],
        &lantern::roguelike::rules(),
        1,
        Default::default(),
    )
    .unwrap();
    let g = live.game_mut();
    turn(g);
    turn(g);
    assert_eq!(said(g), ["[test] true 1", "[test] true 2"]);
    assert_eq!(g.storage()["test"]["count"], 2);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("save.json");
    g.save(&path).unwrap();
    turn(g);
    said(g);
    // The same scripts go on serving the loaded game.
    live.load_save(&path).unwrap();
    let loaded = live.game_mut();
    turn(loaded);
    assert_eq!(
        said(loaded),
        ["[test] true 3"],
        "the loaded game's count goes on from the save's, through the same table"
    );
}

#[test]
fn a_cycle_in_storage_is_reported_at_the_line_that_closed_it() {
    // A tree whose child points back at its parent, closed on line 5 of the handler; then, in
    // another game, a fresh table that holds the storage, stored on line 3.
    let lua = "lantern.on('turn_started', function()\n\
                 lantern.storage.tree = { child = {} }\n\
                 local child = lantern.storage.tree.child\n\
                 child.name = 'leaf'\n\
                 child.parent = lantern.storage.tree\n\
                 lantern.storage.count = 1\n\
               end)";
    let mods = TestMods::new(&[("scripts/main.lua", lua)]);
    let (mut g, world) = mods.game(1);
    turn(&mut g);
    let p = problems(&mut g, &world);
    assert_eq!(p.len(), 1, "{p:?}");
    assert!(
        p[0].contains("lantern.storage.tree.child.parent holds a table that holds it (a cycle)")
            && p[0].contains("/test/scripts/main.lua:5:")
            && p[0].contains("stored here"),
        "{}",
        p[0]
    );
    let lua = "lantern.on('turn_started', function()\n\
                 local back = lantern.storage\n\
                 lantern.storage.wrap = { back = back }\n\
               end)";
    let mods = TestMods::new(&[("scripts/main.lua", lua)]);
    let (mut g, world) = mods.game(1);
    turn(&mut g);
    let p = problems(&mut g, &world);
    assert_eq!(p.len(), 1, "{p:?}");
    assert!(
        p[0].contains("(a cycle)") && p[0].contains("/test/scripts/main.lua:3:"),
        "{}",
        p[0]
    );
}

#[test]
fn storing_what_cannot_be_saved_is_reported_at_the_line_that_stored_it() {
    // A function stored into a nested table on line 4, an event view on line 8 of another
    // handler: each is reported where it was stored, not where the handler starts.
    let lua = "lantern.on('turn_started', function()\n\
                 lantern.storage.list = lantern.storage.list or {}\n\
                 local list = lantern.storage.list\n\
                 list.callback = print\n\
               end)\n\
               lantern.on('turn_started', function(ev)\n\
                 local keep = 1\n\
                 lantern.storage.last = ev\n\
               end)";
    let mods = TestMods::new(&[("scripts/main.lua", lua)]);
    let (mut g, world) = mods.game(1);
    turn(&mut g);
    let p = problems(&mut g, &world);
    assert_eq!(p.len(), 1, "one mod, one message: {p:?}");
    assert!(p[0].contains("/test/scripts/main.lua:8:"), "{}", p[0]);
    assert!(p[0].contains("stored here"), "{}", p[0]);
    // The next turn, only the function is left: it is reported at its own line.
    let fixed = TestMods::new(&[(
        "scripts/main.lua",
        "lantern.on('turn_started', function()\n\
           local t = {}\n\
           t.f = print\n\
           lantern.storage.t = t\n\
         end)",
    )]);
    let (mut g, world) = fixed.game(1);
    turn(&mut g);
    let p = problems(&mut g, &world);
    assert!(
        p[0].contains("lantern.storage.t.f holds a function")
            && p[0].contains("/test/scripts/main.lua:4:"),
        "a table filled before it is stored is placed where it is stored: {}",
        p[0]
    );
}

#[test]
fn lanterns_functions_are_made_on_first_read_and_look_as_if_always_there() {
    // Each function of a mod's `lantern` table is made the first time a script reads it. A walk
    // sees every one; one made inside a list that fails stays made; one made in the turn a
    // function is stored does not pass for that store (the message names line 3, not line 4).
    let data = "[[event_types]]\nid = \"ping\"\n\n\
                [[triggers]]\non = \"test:ping\"\nactions = [ { action = \"test:look\" }, { action = \"test:boom\" } ]\n";
    let lua = "lantern.on('turn_started', function()\n\
                 local before = rawget(lantern, 'rng')\n\
                 lantern.storage.bad = print\n\
                 local stream = lantern.rng('dice')\n\
                 lantern.log(tostring(before) .. ' ' .. type(rawget(lantern, 'rng')) .. ' ' .. tostring(getmetatable(lantern)), select(2, pcall(setmetatable, lantern, {})), lantern.nothing)\n\
                 lantern.emit_event('test:ping', {})\n\
               end)\n\
               lantern.register_action('look', function() local _ = lantern.text end)\n\
               lantern.register_action('boom', function() error('the second action fails') end)\n\
               lantern.on('test:ping', function()\n\
                 local names = {}\n\
                 for k in pairs(lantern) do names[#names + 1] = k end\n\
                 table.sort(names)\n\
                 lantern.log(type(rawget(lantern, 'text')), table.concat(names, ' '))\n\
               end)";
    let mods = TestMods::new(&[("data/t.toml", data), ("scripts/main.lua", lua)]);
    let (mut g, world) = mods.game(1);
    turn(&mut g);
    assert_eq!(
        said(&mut g),
        [
            "[test] nil function lantern\tsetmetatable: the metatable of this table is protected (it is lantern's); keep your own values in a table of your own\tnil",
            "[test] function\tapply call emit_event expose game log on on_reload on_update register_action register_check rng settings storage text",
        ]
    );
    let p = problems(&mut g, &world);
    let stored: Vec<&String> = p
        .iter()
        .filter(|m| m.contains("holds a function"))
        .collect();
    assert_eq!(stored.len(), 1, "{p:?}");
    assert!(
        stored[0].contains("lantern.storage.bad")
            && stored[0].contains("/test/scripts/main.lua:3:"),
        "{}",
        stored[0]
    );
}

#[test]
fn replacing_the_metatable_of_lanterns_table_fails_at_the_scripts_line() {
    let mods = TestMods::new(&[(
        "scripts/main.lua",
        "lantern.on('turn_started', function()\n\
           local keep = 1\n\
           setmetatable(lantern, { __index = function() return 0 end })\n\
         end)",
    )]);
    let (mut g, world) = mods.game(1);
    turn(&mut g);
    let p = problems(&mut g, &world);
    assert_eq!(p.len(), 1, "{p:?}");
    assert!(
        p[0].contains("setmetatable: the metatable of this table is protected (it is lantern's)")
            && p[0].contains("/test/scripts/main.lua:3:"),
        "{}",
        p[0]
    );
}

#[test]
fn an_argument_of_the_wrong_type_says_what_was_wanted() {
    let mods = TestMods::new(&[(
        "scripts/main.lua",
        "local handler = 'on_death'\nlantern.on('creature_died', handler)\n",
    )]);
    let world = mods.world(Limits::default());
    let text = lantern::diag::render_all(&world.diagnostics, &world.sources);
    assert!(
        text.contains(
            "error: [test] its scripts/main.lua failed: argument #2 must be a function, not a string"
        ),
        "{text}"
    );
    assert!(text.contains("/test/scripts/main.lua:2:"), "{text}");
}

#[test]
fn a_syntax_error_in_main_lua_is_reported_at_its_line() {
    let mods = TestMods::new(&[(
        "scripts/main.lua",
        "local x = 1\nlantern.on('turn_started', function()\n  x = = 2\nend)\n",
    )]);
    let world = mods.world(Limits::default());
    let text = lantern::diag::render_all(&world.diagnostics, &world.sources);
    assert!(
        text.contains("error: [test] its scripts/main.lua failed: syntax error:"),
        "{text}"
    );
    assert!(text.contains("/test/scripts/main.lua:3:"), "{text}");
}

#[test]
fn listening_to_an_unknown_event_points_at_the_call() {
    let mods = TestMods::new(&[(
        "scripts/main.lua",
        "\nlantern.on('creature_dyed', function() end)\n",
    )]);
    let world = mods.world(Limits::default());
    let text = lantern::diag::render_all(&world.diagnostics, &world.sources);
    assert!(
        text.contains("mod `test` listens to `creature_dyed`, which is not an event"),
        "{text}"
    );
    assert!(text.contains("/test/scripts/main.lua:2:1"), "{text}");
    assert!(text.contains("did you mean `creature_died`?"), "{text}");
}

#[test]
fn require_finds_modules_in_the_mods_own_folder() {
    let mods = TestMods::new(&[
        ("scripts/main.lua", "local util = require('lib.util')\nlantern.on('turn_started', function() lantern.log(util.greet()) end)"),
        ("scripts/lib/util.lua", "return { greet = function() return 'hello from util' end }"),
    ]);
    let (mut g, _w) = mods.game(1);
    turn(&mut g);
    assert_eq!(said(&mut g), vec!["[test] hello from util"]);
}

#[test]
fn the_example_mods_run_end_to_end() {
    let shipped = common::shipped_mods();
    let script = "next\nuse ritual:altar\nuse ritual:altar\nuse ritual:altar\nuse ritual:altar\nuse ritual:altar\nuse ritual:altar\nquests\nnext\nnext\nattack\nattack\nattack\n";
    let out = String::from_utf8(
        common::lantern_with_input(
            &["play", "--no-watch", "--seed", "4"],
            shipped.path(),
            script,
        )
        .stdout,
    )
    .unwrap();
    assert!(out.contains("[ritual] the ritual is complete"), "{out}");
    assert!(
        out.contains("Two Rituals (ritual:two_rituals): 2/2 done"),
        "{out}"
    );
    assert!(
        out.contains("Hero takes 1 cold damage."),
        "night_watch's Lua check fired: {out}"
    );
    assert!(out.contains("[lucky_coin] a lucky find"), "{out}");
}

#[test]
fn pairs_and_math_random_give_the_same_hash_in_three_processes() {
    let lua = "local t = {}\nfor _, k in ipairs({'zeta','alpha','mid','omega','beta','kappa','delta'}) do t[k] = #k end\n\
               lantern.on('turn_started', function()\n  local order = {}\n  for k in pairs(t) do order[#order + 1] = k end\n  lantern.storage.order = table.concat(order, ',')\n  lantern.storage.roll = math.random(1, 1000000)\nend)";
    let outputs = three_processes(lua);
    assert!(outputs.iter().all(|o| *o == outputs[0]), "{outputs:#?}");
    assert!(!outputs[0].contains("error"), "{}", outputs[0]);
}

/// A comparator that makes `table.sort`'s partitions go badly (McIlroy's adversary, consistent, so
/// the sort is valid) and counts its calls: stock Lua then draws its next pivot from the clock, so
/// the count (stored, so hashed) differed in every process. lantern's Lua never reads the clock.
#[test]
fn an_adversarial_sort_gives_the_same_hash_in_three_processes() {
    let lua = "lantern.on('turn_started', function()\n\
                 local n, gas, solid, candidate = 400, 401, 0, 0\n\
                 local t, value, calls = {}, {}, 0\n\
                 for i = 1, n do t[i] = i; value[i] = gas end\n\
                 table.sort(t, function(x, y)\n\
                   calls = calls + 1\n\
                   if value[x] == gas and value[y] == gas then\n\
                     if x == candidate then value[x] = solid else value[y] = solid end\n\
                     solid = solid + 1\n\
                   end\n\
                   if value[x] == gas then candidate = x elseif value[y] == gas then candidate = y end\n\
                   return value[x] < value[y]\n\
                 end)\n\
                 lantern.storage.calls = calls\n\
                 lantern.log('comparisons', calls)\n\
               end)";
    let outputs = three_processes(lua);
    assert!(outputs.iter().all(|o| *o == outputs[0]), "{outputs:#?}");
    // Partitions went badly (a sort of 400 items that goes well makes about 3,500 comparisons).
    assert!(outputs[0].contains("comparisons\t40597"), "{}", outputs[0]);
}

/// Plays two turns and prints the hash in three processes over a mod of this one script.
fn three_processes(lua: &str) -> Vec<String> {
    let mods = TestMods::new(&[("scripts/main.lua", lua)]);
    let dir = mods.path().to_string_lossy().into_owned();
    (0..3)
        .map(|_| {
            let out = common::lantern_with_input(
                &["play", "--no-watch", "--seed", "8", "--mods", &dir],
                &root(),
                "emit turn_started\nemit turn_started\nhash\n",
            );
            String::from_utf8(out.stdout).unwrap()
        })
        .collect()
}

/// Tables, functions, coroutines and library functions used as keys iterate in the same order in
/// every process, and `tostring` and `%p` show the same text: lantern's Lua hashes and prints
/// them by the order they were made, not by their address (which differs in every process).
#[test]
fn keys_that_are_not_text_iterate_the_same_in_three_processes() {
    let lua = "local keys = {}\nfor i = 1, 40 do keys[i] = {} end\n\
               local t = {}\nfor i, k in ipairs(keys) do t[k] = i end\n\
               for i = 1, 10 do t[function() return i end] = 'f' .. i end\n\
               t[string.len] = 'len'; t[print] = 'print'; t[coroutine.create(print)] = 'co'\n\
               lantern.on('turn_started', function()\n\
                 local order = {}\n\
                 for _, v in pairs(t) do order[#order + 1] = tostring(v) end\n\
                 order[#order + 1] = tostring(keys[1]) .. string.format('%p', keys[2])\n\
                 lantern.storage.order = table.concat(order, ',')\n\
                 lantern.storage.roll = math.random(math.mininteger, math.maxinteger)\n\
               end)";
    let outputs = three_processes(lua);
    assert!(outputs.iter().all(|o| *o == outputs[0]), "{outputs:#?}");
    assert!(!outputs[0].contains("error"), "{}", outputs[0]);
}

/// The budget stops a runaway handler at the same instruction in every process: what it stored
/// before it was stopped stays (the state hash sees how far it got), and three processes agree.
#[test]
fn a_runaway_handler_stops_at_the_same_place_in_three_processes() {
    let lua = "lantern.on('turn_started', function()\n  local n = 0\n  while true do\n    n = n + 1\n    lantern.storage.n = n\n  end\nend)";
    let mods = TestMods::new(&[("scripts/main.lua", lua)]);
    let dir = mods.path().to_string_lossy().into_owned();
    let run = |instructions: &str| {
        let out = common::lantern_with_input(
            &[
                "play",
                "--no-watch",
                "--seed",
                "8",
                "--mods",
                &dir,
                "--lua-instructions",
                instructions,
            ],
            &root(),
            "emit turn_started\nhash\n",
        );
        let text = String::from_utf8(out.stdout).unwrap() + &String::from_utf8(out.stderr).unwrap();
        assert!(
            text.contains("test/scripts/main.lua:4: instruction budget of"),
            "{text}"
        );
        text
    };
    let outputs: Vec<String> = (0..3).map(|_| run("100000")).collect();
    assert!(outputs.iter().all(|o| *o == outputs[0]), "{outputs:#?}");
    // The hash does depend on where the loop stopped, so the agreement above means something.
    let hash = |text: &str| {
        text.split(|c: char| !c.is_ascii_hexdigit())
            .find(|w| w.len() == 16)
            .map(str::to_owned)
            .expect("the output holds a state hash")
    };
    assert_ne!(hash(&run("200000")), hash(&outputs[0]));
}

#[test]
fn reading_the_game_while_the_mod_loads_says_when_it_can_be_read() {
    let mods = TestMods::new(&[(
        "scripts/main.lua",
        "local n = 0\nlocal enemies = lantern.game.enemies\n",
    )]);
    let world = mods.world(Limits::default());
    let text = lantern::diag::render_all(&world.diagnostics, &world.sources);
    assert!(
        text.contains(
            "the game is only reachable while it runs: inside an event handler, action or check"
        ),
        "{text}"
    );
    assert!(text.contains("/test/scripts/main.lua:2:"), "{text}");
}

#[test]
fn a_handler_that_changes_the_game_and_then_fails_hands_back_the_real_game() {
    // The game is lent to Lua for the call (it was once moved in and out); whatever the handler
    // did, the change that went through the door before the error stays, the lend ends, and the
    // next handler and the next event see the same game.
    let lua = "lantern.on('turn_started', function()\n\
                 lantern.apply({ action = 'give_item', item = 'core:gold', count = 2 })\n\
                 error('after the gold')\n\
               end)\n\
               lantern.on('turn_started', function()\n\
                 lantern.log('gold ' .. #lantern.game.inventory)\n\
               end)\n";
    let mods = TestMods::new(&[("scripts/main.lua", lua)]);
    let (mut g, world) = mods.game(1);
    let gold = lantern::id::Id::qualified("core:gold").unwrap();
    let before = g.state().player.count(&gold);
    turn(&mut g);
    assert_eq!(g.state().player.count(&gold), before + 2);
    let p = problems(&mut g, &world);
    assert!(p[0].contains("after the gold"), "{}", p[0]);
    let lines = said(&mut g);
    assert!(
        lines.iter().any(|l| l.starts_with("[test] gold ")),
        "{lines:?}"
    );
    turn(&mut g);
    assert_eq!(g.state().player.count(&gold), before + 4);
}

#[test]
fn a_save_loads_with_its_scripts_by_every_public_path() {
    // A handler counts turns in storage. Saved after two turns, the save loads three ways; each
    // loaded game's handler says 3 at its next turn, and its hash is the saved game's.
    let lua = "lantern.on('turn_started', function()\n\
                 lantern.storage.count = (lantern.storage.count or 0) + 1\n\
                 lantern.log('turn ' .. lantern.storage.count)\n\
               end)";
    let mods = TestMods::new(&[("scripts/main.lua", lua)]);
    let mut world = mods.world(Default::default());
    let mut g = world.start(1);
    turn(&mut g);
    turn(&mut g);
    assert_eq!(said(&mut g), ["[test] turn 1", "[test] turn 2"]);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("save.json");
    g.save(&path).unwrap();

    // Another process: the mods loaded again, the save read into a game with their scripts.
    let (mut loaded, notes) = mods.world(Default::default()).load_save(&path).unwrap();
    assert!(notes.is_empty(), "{notes:?}");
    assert_eq!(loaded.state_hash(), g.state_hash());
    turn(&mut loaded);
    assert_eq!(said(&mut loaded), ["[test] turn 3"]);

    // A live game: the save replaces the running game, whose scripts go on serving it.
    let (mut live, _) = lantern::reload::Live::start_game(
        &[mods.path()],
        &lantern::roguelike::rules(),
        1,
        Default::default(),
    )
    .unwrap();
    turn(live.game_mut());
    let notes = live.load_save(&path).unwrap();
    assert!(notes.is_empty(), "{notes:?}");
    assert_eq!(live.game().state_hash(), g.state_hash());
    turn(live.game_mut());
    assert_eq!(said(live.game_mut()), ["[test] turn 3"]);

    // A world's scripts serve one game: a second game from it says it runs without them.
    let (mut second, notes) = world.load_save(&path).unwrap();
    let p: Vec<String> = notes
        .iter()
        .map(|n| lantern::diag::render(n, &world.sources))
        .collect();
    assert_eq!(p.len(), 1, "{p:?}");
    assert!(
        p[0].contains("this game runs without the scripts of `test`"),
        "{}",
        p[0]
    );
    turn(&mut second);
    assert!(said(&mut second).is_empty());
}

/// `lantern.text` in a handler: a bare key is the mod's own, arguments fill the text, a key no
/// language has is shown for a player to report, and a table of more arguments than any text has
/// is an error at the script's line (and the next turn's handler runs).
#[test]
fn lantern_text_reads_the_mods_texts_and_refuses_a_flood_of_arguments() {
    let lua = "lantern.on('turn_started', function(ev)\n  lantern.log(lantern.text('hello', { who = 'Ada' }), lantern.text('gone'))\n  if lantern.game.turn == 1 then\n    local many = {}\n    for i = 1, 100 do many['a' .. i] = i end\n    lantern.text('hello', many)\n  end\nend)\n";
    let mods = TestMods::new(&[
        ("scripts/main.lua", lua),
        ("locale/en.toml", "hello = \"Hello, {who}.\"\n"),
    ]);
    let (mut g, world) = mods.game(1);
    turn(&mut g);
    let p = problems(&mut g, &world);
    assert_eq!(p.len(), 1, "{p:?}");
    assert!(
        p[0].contains("lantern.text fills at most 64 arguments"),
        "{}",
        p[0]
    );
    assert!(p[0].contains("test/scripts/main.lua:6"), "{}", p[0]);
    turn(&mut g);
    let said = said(&mut g);
    assert!(
        said.contains(&"[test] Hello, Ada.\t[missing text test:gone]".to_string()),
        "{said:?}"
    );
}

/// A mod's `main.lua` is compiled once per mod set and every game runs its bytecode, charged what
/// reading the text cost: a compile too long for the budget stops the played load and a test's
/// game alike, with the same message, and a load's work counts the compile.
#[test]
fn a_main_lua_run_from_bytecode_is_charged_its_compile_in_every_game() {
    use lantern::game::ScriptHost;
    // 3,000 lines of six tokens: about 150,000 units to read, 12,000 to run.
    let lua: String = (0..3000)
        .map(|i| format!("do local x = {i} end\n"))
        .collect();
    let lua = format!("{lua}lantern.on('turn_started', function() lantern.log('ran') end)\n");
    let mods = TestMods::new(&[("scripts/main.lua", &lua)]);
    let small = Limits::default().with_instructions(20_000);

    let played = mods.world(small);
    let stopped = lantern::diag::render_all(&played.diagnostics, &played.sources);
    assert!(
        stopped.contains("its scripts/main.lua failed")
            && stopped.contains("instruction budget of 20000 exceeded"),
        "{stopped}"
    );

    let harness = lantern::harness::Harness::new(
        &mods.path(),
        lantern::roguelike::rules(),
        Limits::default(),
    );
    let prepared = harness.prepare(&[]).expect("the mods load");
    let refused = prepared
        .game(1, small)
        .err()
        .expect("the compile is over budget");
    assert!(
        refused.contains("instruction budget of 20000 exceeded"),
        "{refused}"
    );
    let mut game = prepared.game(1, Limits::default()).expect("a test's game");
    turn(&mut game);
    assert_eq!(said(&mut game), ["[test] ran"]);

    let mut world = mods.world(Limits::default());
    let loaded = world.take_lua().expect("Lua starts");
    assert!(
        loaded.work() > 144_000,
        "the load's work: {}",
        loaded.work()
    );
}

/// What the C paths of lantern's Lua charge per unit of their input, as `docs/security.md`'s
/// table ("What C paths cost") lists them with what each costs: `(path, setup making the input
/// `s` of `n` units, the call, charge per unit)`. `string.format("%q")` charged a control
/// character as a thirty-second of a unit, like a letter's copy, though `sprintf` writes it in
/// some 780 machine instructions against a letter's 36.
const C_PATHS: [(&str, &str, &str, u64); 5] = [
    (
        "%q of letters",
        "local s = string.rep('a', n)",
        "string.format('%q', s)",
        1,
    ),
    (
        "%q of control characters",
        "local s = string.rep('\\1', n)",
        "string.format('%q', s)",
        26,
    ),
    ("string.rep", "local s = 'a'", "string.rep(s, n)", 1),
    (
        "string.upper",
        "local s = string.rep('aaaa', n)",
        "string.upper(s)",
        1,
    ),
    (
        "concatenation",
        "local s = string.rep('a', 32 * n)",
        "s .. 'b'",
        1,
    ),
];

/// Each C path is charged at least what the table says per unit of its input, measured as the
/// work a handler's call of it adds over the same handler with an empty input.
#[test]
fn c_paths_are_charged_per_unit_of_input_as_the_table_says() {
    let charged = |setup: &str, call: &str, n: usize| {
        let lua = format!(
            "local n = {n}\n{setup}\nlantern.on('turn_started', function() local r = {call} end)\n"
        );
        let mods = TestMods::new(&[("scripts/main.lua", &lua)]);
        let (mut g, _world) = mods.game(1);
        let before = work(&mut g);
        turn(&mut g);
        work(&mut g) - before
    };
    for (path, setup, call, per_unit) in C_PATHS {
        let n = 64_000;
        let extra = charged(setup, call, n) - charged(setup, call, 0);
        // At least the table's charge, and not much more: the copy of a result is charged a
        // unit per 32 bytes on top.
        assert!(
            extra >= per_unit * n as u64 && extra <= 2 * per_unit * n as u64,
            "{path}: {extra} units for {n}, the table says {per_unit} a unit"
        );
    }
}

/// `profile` in `lantern play`: each mod's share of the scripts' work, the costliest first, with
/// what it holds and its failing handlers.
#[test]
fn the_profile_command_says_where_the_scripts_work_went() {
    let mods = TestMods::new(&[(
        "scripts/main.lua",
        "local keep = {}\n\
         lantern.on('room_entered', function()\n\
           for i = 1, 5000 do keep[#keep + 1] = i end\n\
         end)\n",
    )]);
    let out = common::lantern_with_input(
        &["play", "--mods", ".", "--no-watch", "--seed", "1"],
        &mods.path(),
        "next\nnext\nprofile\n",
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("the scripts' work since the game started ("),
        "{stdout}"
    );
    let row = stdout
        .lines()
        .find(|l| l.trim_start().starts_with("test "))
        .unwrap_or_else(|| panic!("{stdout}"));
    assert!(
        row.contains(" instructions 100.0 %") && row.contains("1 handler"),
        "{row}"
    );
    let ran: u64 = row.split_whitespace().nth(1).unwrap().parse().unwrap();
    assert!(
        ran > 2 * 5000,
        "two rooms entered, each a loop of 5,000: {row}"
    );
    // And by handler: where it was registered, its calls, and nearly all of the mod's work.
    let handler = stdout
        .lines()
        .find(|l| l.trim_start().starts_with("test/scripts/main.lua:2 "))
        .unwrap_or_else(|| panic!("{stdout}"));
    let words: Vec<&str> = handler.split_whitespace().collect();
    assert_eq!(
        &words[1..5],
        ["on", "room_entered", "2", "calls"],
        "{handler}"
    );
    let in_handler: u64 = words[5].parse().unwrap();
    assert!(
        in_handler > 2 * 5000 && in_handler <= ran,
        "{handler} / {row}"
    );
}

/// `lantern test --profile`: after the report, the test games' scripts' work by mod and by
/// handler, summed over every test game.
#[test]
fn a_test_run_profiles_its_games_scripts() {
    let mods = TestMods::new(&[
        (
            "scripts/main.lua",
            "lantern.on('turn_started', function()\n\
               local s = 0\n\
               for i = 1, 1000 do s = s + i end\n\
               lantern.storage.s = s\n\
             end)\n",
        ),
        (
            "tests/work_test.lua",
            "describe('work', function()\n\
               it('turns three times', function()\n\
                 local g = lantern.test.game{ seed = 1 }\n\
                 for i = 1, 3 do g:emit('turn_started') end\n\
               end)\n\
               it('turns twice', function()\n\
                 local g = lantern.test.game{ seed = 2 }\n\
                 for i = 1, 2 do g:emit('turn_started') end\n\
               end)\n\
             end)\n",
        ),
    ]);
    let out = common::lantern(&["test", "--mods", ".", "test", "--profile"], &mods.path());
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    assert!(out.status.success(), "{stdout}{stderr}");
    assert!(stdout.contains("2 passed"), "{stdout}");
    assert!(
        stderr.contains("the scripts' work in the test games ("),
        "{stderr}"
    );
    let handler = stderr
        .lines()
        .find(|l| l.trim_start().starts_with("test/scripts/main.lua:1 "))
        .unwrap_or_else(|| panic!("{stderr}"));
    let words: Vec<&str> = handler.split_whitespace().collect();
    assert_eq!(
        &words[1..5],
        ["on", "turn_started", "5", "calls"],
        "{handler}"
    );
    let instructions: u64 = words[5].parse().unwrap();
    assert!(
        instructions > 5 * 1000,
        "five turns, a loop of 1,000 each: {handler}"
    );
}
