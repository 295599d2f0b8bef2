//! Engine events per second through the queue, dispatch and condition evaluation, beside a
//! hand-written baseline (a `match` over the event and a loop over only the triggers that listen)
//! in the same run.
//!
//! Setup: a mod with `TOTAL` top-level triggers and 100 active quests. Ten triggers and five quests
//! listen to the event being raised (`bench:hot`, with a `when` that matches and a `has_item`
//! condition that fails, so the whole evaluation runs but no actions do); every other trigger
//! listens to one of 50 other custom events. With an index, 100,000 triggers should cost about what
//! 1,000 do, since only the listeners are visited.
//!
//! Beside them, when installed, the same work as a plain event bus run by LuaJIT and by stock Lua
//! (`benches/bus/bus.lua`).
//!
//! Run with `cargo bench --bench events`.

use lantern::content::Value;
use lantern::game::{CreatureRef, Game};
use std::collections::VecDeque;
use std::fmt::Write;
use std::time::Instant;

const HOT_TRIGGERS: usize = 10;
const HOT_QUESTS: usize = 5;
const QUESTS: usize = 100;
const BATCH: usize = 50;

fn write_mod(dir: &std::path::Path, total: usize) {
    let m = dir.join("bench");
    std::fs::create_dir_all(m.join("data")).unwrap();
    std::fs::write(m.join("mod.toml"), "id = \"bench\"\nversion = \"1.0.0\"\n").unwrap();
    let mut t = String::from("[[items]]\nid = \"gold\"\nstack = 9999\n\n[[event_types]]\nid = \"hot\"\npayload = { n = \"int\" }\n\n[[event_types]]\nid = \"unheard\"\npayload = { n = \"int\" }\n\n");
    for k in 0..50 {
        let _ = writeln!(
            t,
            "[[event_types]]\nid = \"cold{k}\"\npayload = {{ n = \"int\" }}\n"
        );
    }
    for i in 0..total {
        // Ten thousand triggers a file: a mod's file is read up to 16 MiB.
        if i > 0 && i % 10_000 == 0 {
            std::fs::write(
                m.join(format!("data/triggers{i}.toml")),
                std::mem::take(&mut t),
            )
            .unwrap();
        }
        let on = if i < HOT_TRIGGERS {
            "hot".to_string()
        } else {
            format!("cold{}", i % 50)
        };
        let _ = writeln!(
            t,
            "[[triggers]]\non = \"{on}\"\nwhen = {{ n = 1 }}\ncondition = [ {{ check = \"has_item\", who = \"self\", item = \"gold\", count = 1000000 }} ]\nactions = [ {{ action = \"heal\", amount = 1 }} ]\n"
        );
    }
    for q in 0..QUESTS {
        let on = if q < HOT_QUESTS {
            "hot".to_string()
        } else {
            format!("cold{}", q % 50)
        };
        let _ = writeln!(
            t,
            "[[quests]]\nid = \"q{q}\"\non = \"{on}\"\ncount = 3\ncondition = [ {{ check = \"has_item\", who = \"self\", item = \"gold\", count = 1000000 }} ]\n"
        );
    }
    std::fs::write(m.join("data/bench.toml"), t).unwrap();
}

/// A game over a generated mod with `total` triggers, every quest started; and the hot event's key.
fn setup(total: usize) -> (Game, lantern::content::EventKey) {
    let dir = std::env::temp_dir().join(format!(
        "lantern-bench-events-{}-{total}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    write_mod(&dir, total);
    let mut world = lantern::load::load_game(
        std::slice::from_ref(&dir),
        &lantern::roguelike::rules(),
        Default::default(),
    );
    assert!(!world.has_errors(), "{:?}", world.diagnostics.first());
    let _ = std::fs::remove_dir_all(&dir);
    let content = world.content.clone();
    let mut game = world.start(1);
    // The native engine alone: no script host to ask about each event.
    game.set_scripts(None);
    for q in content.quests.keys() {
        let entry = lantern::content::ActionEntry {
            action: lantern::content::Action::StartQuest { quest: q.clone() },
            span: lantern::diag::Span::file_start(lantern::diag::FileId(0)),
        };
        game.command_action(entry, "start").unwrap();
    }
    // `LANTERN_BENCH_EVENT=unheard` raises an event nothing listens to instead of the hot one.
    let name = std::env::var("LANTERN_BENCH_EVENT").unwrap_or_else(|_| "hot".into());
    let hot = content.events.lookup(&format!("bench:{name}")).unwrap();
    (game, hot)
}

/// Events per second through `emit` and `drain`, `BATCH` per turn.
fn lantern_rate(game: &mut Game, hot: lantern::content::EventKey, events: usize) -> f64 {
    let payload = [(0usize, Value::Int(1))];
    let start = Instant::now();
    let mut sent = 0;
    while sent < events {
        game.begin_turn();
        for _ in 0..BATCH {
            game.emit(hot, CreatureRef::Player, None, &payload, None)
                .unwrap();
        }
        game.drain();
        sent += BATCH;
    }
    sent as f64 / start.elapsed().as_secs_f64()
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// The baseline: the same work written by hand for this one event shape.
fn baseline_rate(events: usize) -> f64 {
    struct Listener {
        when_n: i64,
        item: usize,
        count: u32,
    }
    let listeners: Vec<Listener> = (0..HOT_TRIGGERS + HOT_QUESTS)
        .map(|_| Listener {
            when_n: 1,
            item: 0,
            count: 1_000_000,
        })
        .collect();
    let inventory: Vec<(usize, u32)> = vec![(1, 1), (2, 2), (0, 20)];
    let mut queue: VecDeque<(u32, i64)> = VecDeque::new();
    let mut fired = 0u64;
    let start = Instant::now();
    let mut sent = 0;
    while sent < events {
        for _ in 0..BATCH {
            queue.push_back((0, 1));
        }
        while let Some((kind, n)) = queue.pop_front() {
            match kind {
                0 => {
                    for l in &listeners {
                        if l.when_n != n {
                            continue;
                        }
                        let held: u32 = inventory
                            .iter()
                            .filter(|(i, _)| *i == l.item)
                            .map(|(_, c)| c)
                            .sum();
                        if held >= l.count {
                            fired += 1;
                        }
                    }
                }
                _ => unreachable!(),
            }
        }
        sent += BATCH;
    }
    std::hint::black_box(fired);
    sent as f64 / start.elapsed().as_secs_f64()
}

fn main() {
    let events = 1_000_000;
    // `LANTERN_BENCH_PROFILE=1` runs only the engine with 1,000 triggers, longer: for `perf record`.
    // `LANTERN_BENCH_PROFILE=<n>` handles n events instead of 20 million: a few thousand are enough
    // for `valgrind --tool=cachegrind`, whose instruction counts do not move with the machine's load.
    // `LANTERN_BENCH_BASELINE=<n>` runs only the hand-written baseline for n events, to count its
    // instructions the same way.
    if let Some(n) = std::env::var_os("LANTERN_BENCH_BASELINE") {
        let n = n
            .to_str()
            .and_then(|s| s.parse::<usize>().ok())
            .unwrap_or(events);
        println!("baseline: {:.0} events/s", baseline_rate(n));
        return;
    }
    if let Some(profile) = std::env::var_os("LANTERN_BENCH_PROFILE") {
        let n = match profile.to_str().and_then(|s| s.parse::<usize>().ok()) {
            Some(n) if n > 1 => n,
            _ => events * 20,
        };
        // `LANTERN_BENCH_TRIGGERS=<t>` profiles with t triggers instead of 1,000.
        let total = std::env::var("LANTERN_BENCH_TRIGGERS")
            .ok()
            .and_then(|t| t.parse().ok())
            .unwrap_or(1_000);
        let (mut game, hot) = setup(total);
        let rate = lantern_rate(&mut game, hot, n);
        println!("lantern {total} triggers: {rate:.0} events/s");
        return;
    }
    // Five rounds, each measuring the three in turn with freshly built games; the medians are
    // reported, since this machine is shared (one run can be off by 2x) and where the allocator
    // happens to place a game moved one figure by 20 % when both games lived side by side.
    let (mut base, mut small, mut large) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..5 {
        base.push(baseline_rate(events));
        for (total, rates) in [(1_000, &mut small), (100_000, &mut large)] {
            let (mut game, hot) = setup(total);
            rates.push(lantern_rate(&mut game, hot, events));
        }
    }
    let (base, small, large) = (median(base), median(small), median(large));
    println!("events per second, {HOT_TRIGGERS} triggers and {HOT_QUESTS} quests listening, 100 quests active (medians of 5):");
    println!("baseline  hand-written match + loop      : {:>12.0}", base);
    println!(
        "lantern   1,000 triggers                 : {:>12.0}  ({:.2}x the baseline's time)",
        small,
        base / small
    );
    println!(
        "lantern   100,000 triggers               : {:>12.0}  ({:.2}x the baseline's time)",
        large,
        base / large
    );
    println!("100,000 vs 1,000: {:+.1} %", (small / large - 1.0) * 100.0);
    // The same work as a plain event bus in Lua (benches/bus/bus.lua), when LuaJIT or stock Lua
    // is installed: each runs the bus five times and the median is reported beside lantern's.
    for lua in ["luajit", "lua5.4"] {
        let rates: Vec<f64> = (0..5).filter_map(|_| bus_rate(lua, events)).collect();
        if rates.is_empty() {
            println!("{lua:<8}  event bus (benches/bus/bus.lua): not installed, skipped");
            continue;
        }
        let rate = median(rates);
        println!(
            "{lua:<8}  event bus (benches/bus/bus.lua): {:>12.0}  (lantern's time with 1,000 triggers is {:.2}x its)",
            rate,
            rate / small
        );
    }
}

/// Events per second of the Lua event bus run by `lua`, or `None` when it cannot be run.
fn bus_rate(lua: &str, events: usize) -> Option<f64> {
    let script = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/bus/bus.lua");
    let out = std::process::Command::new(lua)
        .arg(script)
        .arg(events.to_string())
        .output()
        .ok()
        .filter(|o| o.status.success())?;
    String::from_utf8_lossy(&out.stdout).trim().parse().ok()
}
