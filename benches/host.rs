//! A game's own actions and checks in triggers, beside the built-in ones in the same run: what a
//! game pays for declaring its vocabulary in Rust instead of using lantern's.
//!
//! Setup: one mod, ten triggers listening to one event, each with one condition that holds and
//! one action. In the `game` row the condition is the game's check (`bench:below`) and the action
//! the game's (`bench:add`, a counter in the game's state); in the `built-in` row they are
//! `health_below` and `heal` on the player. Each event is raised by the game's code and handled
//! in turns of 1,000. A hand-written loop doing the same work (a comparison and an add per
//! trigger) is the floor.
//!
//! Run with `cargo bench --bench host`.

use lantern::content::Value;
use lantern::game::Game;
use lantern::host::{Param, Rules, Vocabulary};
use std::fmt::Write;
use std::time::Instant;

const TRIGGERS: usize = 10;
const PER_TURN: usize = 1000;

#[derive(Clone, Default, serde::Serialize, serde::Deserialize)]
struct Counter {
    n: i64,
}

fn rules() -> Rules {
    Vocabulary::new("bench", Counter::default())
        .event("tick", &[("n", "int")], "")
        .action("add", &[Param::int("amount")], "", |fx, a| {
            fx.state_mut().n += a.int("amount");
            Ok(())
        })
        .check("below", &[Param::int("limit")], "", |q, a| {
            Ok(q.state().n < a.int("limit"))
        })
        .rules()
}

fn game(host_rules: bool) -> Game {
    let dir = tempfile::tempdir().unwrap();
    let m = dir.path().join("m");
    std::fs::create_dir_all(m.join("data")).unwrap();
    std::fs::write(m.join("mod.toml"), "id = \"m\"\nversion = \"1.0.0\"\n").unwrap();
    let (check, action) = if host_rules {
        (
            "{ check = \"bench:below\", limit = 1000000000 }",
            "{ action = \"bench:add\", amount = 1 }",
        )
    } else {
        (
            "{ check = \"health_below\", fraction = 1.0, not = true }",
            "{ action = \"heal\", amount = 1 }",
        )
    };
    let mut t = String::new();
    for _ in 0..TRIGGERS {
        let _ = writeln!(
            t,
            "[[triggers]]\non = \"tick\"\ncondition = [ {check} ]\nactions = [ {action} ]\n"
        );
    }
    std::fs::write(m.join("data/t.toml"), t).unwrap();
    let mut world = lantern::load::load_game(
        &[dir.path().to_path_buf()],
        &rules(),
        lantern::lua::Limits::default(),
    );
    assert!(
        !world.has_errors(),
        "{}",
        lantern::diag::render_all(&world.diagnostics, &world.sources)
    );
    let mut g = world.start(1);
    g.set_event_cap(PER_TURN + 1);
    g
}

/// Nanoseconds per event for `events` events.
fn run(g: &mut Game, events: usize) -> f64 {
    let start = Instant::now();
    for _ in 0..events / PER_TURN {
        g.turn(|g| {
            for _ in 0..PER_TURN {
                g.raise("tick", &[("n", Value::Int(1))])?;
            }
            Ok(())
        })
        .unwrap();
    }
    start.elapsed().as_nanos() as f64 / events as f64
}

fn baseline(events: usize) -> f64 {
    let mut n: i64 = 0;
    let start = Instant::now();
    for _ in 0..events {
        for _ in 0..TRIGGERS {
            if std::hint::black_box(n) < 1_000_000_000 {
                n = std::hint::black_box(n + 1);
            }
        }
    }
    std::hint::black_box(n);
    start.elapsed().as_nanos() as f64 / events as f64
}

fn main() {
    let events: usize = std::env::var("LANTERN_BENCH_EVENTS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(200_000);
    // `LANTERN_BENCH_ONLY_GAME=1`: the game's row alone, once, for a profiler.
    if std::env::var_os("LANTERN_BENCH_ONLY_GAME").is_some() {
        let mut host = game(true);
        println!("{:.0} ns per event", run(&mut host, events));
        return;
    }
    let (mut host, mut builtin) = (game(true), game(false));
    // Warm up, then alternate, keeping the best of five of each (the machine's load moves).
    run(&mut host, PER_TURN * 10);
    run(&mut builtin, PER_TURN * 10);
    let (mut h, mut b, mut floor) = (f64::MAX, f64::MAX, f64::MAX);
    for _ in 0..5 {
        h = h.min(run(&mut host, events));
        b = b.min(run(&mut builtin, events));
        floor = floor.min(baseline(events));
    }
    let n = host.host_state::<Counter>().map_or(0, |c| c.n);
    assert!(n > 0, "the game's action ran");
    println!("{TRIGGERS} triggers per event, {events} events a run, best of 5");
    println!("| row | ns per event | ratio to built-in |");
    println!("| --- | --- | --- |");
    println!("| game check + game action | {h:.0} | {:.2}x |", h / b);
    println!("| built-in check + action | {b:.0} | 1.00x |");
    println!("| hand-written loop | {floor:.1} | {:.3}x |", floor / b);
}
