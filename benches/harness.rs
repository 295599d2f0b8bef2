//! The test harness: the cost of a fresh game (what every `lantern.test.game{}` pays), beside loading
//! the mods from scratch for every game (the baseline the reuse replaces), and the bundled suite.
//!
//! Run with `cargo bench --bench harness`.

use lantern::harness::{self, Harness};
use lantern::lua::Limits;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

fn main() {
    let mods = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("mods");
    let h = Arc::new(Harness::new(
        &mods,
        lantern::roguelike::rules(),
        Limits::default(),
    ));
    let prepared = h.prepare(&[]).expect("the bundled mods load");
    let n = 300;

    let start = Instant::now();
    for seed in 0..n {
        let game = prepared.game(seed, Limits::default()).unwrap();
        std::hint::black_box(&game);
    }
    let fresh = start.elapsed().as_secs_f64() * 1e3 / n as f64;

    let start = Instant::now();
    for seed in 0..n / 10 {
        let mut world = lantern::load::load_game(
            std::slice::from_ref(&mods),
            &lantern::roguelike::rules(),
            Limits::default(),
        );
        let game = world.start(seed);
        std::hint::black_box(&game);
    }
    let scratch = start.elapsed().as_secs_f64() * 1e3 / (n / 10) as f64;

    let files = harness::discover(&mods);
    let start = Instant::now();
    let results = harness::run(&h, &files, None);
    let suite = start.elapsed().as_secs_f64() * 1e3;

    println!("fresh game, all bundled mods (content reused, new Lua state): {fresh:>7.3} ms   (target < 1 ms)");
    println!("baseline: the same game loaded from scratch                 : {scratch:>7.3} ms   ({:.1}x)", scratch / fresh);
    println!(
        "bundled suite: {} tests in {suite:.0} ms on {} threads, {:.1} ms per test ({})",
        results.len(),
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1),
        suite / results.len().max(1) as f64,
        harness::summary(&results)
    );
}
