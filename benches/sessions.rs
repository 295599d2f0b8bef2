//! Sessions over one mod set, as a server hosts them: the bundled mods loaded once as a
//! `ModSet`, then 10, 100 and 1,000 games started from it, each saved to bytes and restored; beside
//! the baseline a server had before, a full load of the mods for each session, in the same run.
//!
//! Prints, for each count, the time to start a session, the bytes a session holds beyond the set
//! (every allocation counted by this binary's allocator, Lua's included), and the time to restore
//! one from its save's bytes; then the time to upgrade each of 1,000 sessions to the mods loaded
//! again (`ModSet::upgrade`). Run with `cargo bench --bench sessions`.
//! `LANTERN_BENCH_SESSIONS=<n>` starts n sessions and does nothing else, for
//! `valgrind --tool=cachegrind` (the difference of two counts, divided, is a session's
//! instructions).

use lantern::game::Game;
use lantern::lua::Limits;
use lantern::mod_set::ModSet;
use std::path::PathBuf;
use std::time::Instant;

#[global_allocator]
static COUNTING: held::Counting = held::Counting;

fn roots() -> Vec<PathBuf> {
    vec![PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("mods")]
}

/// The bundled mods loaded as one set.
fn load_set() -> ModSet {
    let rules = lantern::roguelike::rules();
    ModSet::load(&roots(), &rules, Limits::default())
        .expect("the bundled mods load")
        .0
}

fn main() {
    if let Ok(n) = std::env::var("LANTERN_BENCH_SESSIONS") {
        let n: u64 = n.parse().expect("a number of sessions");
        let set = load_set();
        let games: Vec<Game> = (0..n).map(|seed| set.start(seed).unwrap()).collect();
        std::hint::black_box(games);
        return;
    }
    let set = load_set();
    println!("sessions over the bundled mods, one ModSet (medians of 3 runs):");
    for n in [10u64, 100, 1000] {
        let mut start_ms = Vec::new();
        let mut held_kb = Vec::new();
        let mut restore_ms = Vec::new();
        for _ in 0..3 {
            let before = held::held();
            let t = Instant::now();
            let games: Vec<Game> = (0..n).map(|seed| set.start(seed).unwrap()).collect();
            start_ms.push(t.elapsed().as_secs_f64() * 1e3 / n as f64);
            held_kb.push((held::held() - before) as f64 / 1024.0 / n as f64);
            let saves: Vec<Vec<u8>> = games.iter().map(|g| g.save_bytes().unwrap()).collect();
            drop(games);
            let t = Instant::now();
            let restored: Vec<Game> = saves
                .iter()
                .map(|b| set.restore(b.as_slice()).unwrap().0)
                .collect();
            restore_ms.push(t.elapsed().as_secs_f64() * 1e3 / n as f64);
            drop(restored);
        }
        let median = |v: &mut Vec<f64>| {
            v.sort_by(f64::total_cmp);
            v[1]
        };
        println!(
            "{n:>5} sessions: start {:.3} ms, {:.0} KB a session, restore {:.3} ms",
            median(&mut start_ms),
            median(&mut held_kb),
            median(&mut restore_ms)
        );
    }
    // An upgrade: the mods loaded again once, and every session moved to them.
    let next = load_set();
    let n = 1000u64;
    let mut games: Vec<Game> = (0..n).map(|seed| set.start(seed).unwrap()).collect();
    let t = Instant::now();
    for g in &mut games {
        next.upgrade(g).unwrap();
    }
    let upgrade_ms = t.elapsed().as_secs_f64() * 1e3 / n as f64;
    drop(games);
    println!("{n:>5} sessions upgraded to a set loaded again: {upgrade_ms:.3} ms a session");
    // The baseline: a full load of the mods for each session.
    let rules = lantern::roguelike::rules();
    let n = 10;
    let before = held::held();
    let t = Instant::now();
    let games: Vec<Game> = (0..n)
        .map(|seed| lantern::load::load_game(&roots(), &rules, Limits::default()).start(seed))
        .collect();
    let full_ms = t.elapsed().as_secs_f64() * 1e3 / n as f64;
    let full_kb = (held::held() - before) as f64 / 1024.0 / n as f64;
    drop(games);
    println!(
        "baseline, a full load a session ({n}): start {full_ms:.3} ms, {full_kb:.0} KB a session"
    );
}
