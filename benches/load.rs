//! Load + resolve of a large generated mod set, beside plain `toml::from_str` into `toml::Value` of
//! the same files in the same run. Prints both figures and their ratio (target: under 2).
//!
//! Also times `Content::in_language` (a game switched to another language) beside the load.
//!
//! Run with `cargo bench --bench load`. Sizes: `LANTERN_BENCH_MODS` (200) and `LANTERN_BENCH_DEFS` (500).

use lantern::content::{generate, load};
use std::time::{Duration, Instant};

fn main() {
    let mods: usize = std::env::var("LANTERN_BENCH_MODS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(200);
    let defs: usize = std::env::var("LANTERN_BENCH_DEFS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(500);
    let dir = std::env::temp_dir().join(format!("lantern-bench-load-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let total = generate::write_mod_set(&dir, mods, defs).expect("write the mod set");
    let files: Vec<_> = (0..mods)
        .map(|m| dir.join(format!("m{m}/data/defs.toml")))
        .collect();
    let bytes: usize = files
        .iter()
        .map(|f| std::fs::metadata(f).map(|m| m.len() as usize).unwrap_or(0))
        .sum();
    println!(
        "mod set: {mods} mods, {total} definitions, {:.1} MiB of TOML",
        bytes as f64 / 1048576.0
    );

    // Warm the file cache and check the set is clean.
    let loaded = load(&dir, &lantern::roguelike::rules().extensions());
    assert!(
        !loaded.has_errors(),
        "generated set has errors: {:?}",
        loaded.diagnostics.first()
    );

    let rounds = 5;
    let mut baseline = Vec::new();
    let mut lantern = Vec::new();
    let mut translated = Vec::new();
    for _ in 0..rounds {
        let start = Instant::now();
        let mut n = 0;
        for f in &files {
            let text = std::fs::read_to_string(f).expect("read");
            let value: toml::Value = toml::from_str(&text).expect("parse");
            n += value.as_table().map(|t| t.len()).unwrap_or(0);
        }
        std::hint::black_box(n);
        baseline.push(start.elapsed());

        let start = Instant::now();
        let loaded = load(&dir, &lantern::roguelike::rules().extensions());
        std::hint::black_box(&loaded.content);
        lantern.push(start.elapsed());

        // A game switched to another language: the content copied with every text looked up.
        let start = Instant::now();
        std::hint::black_box(loaded.content.in_language("de"));
        translated.push(start.elapsed());
    }
    let median = |v: &mut Vec<Duration>| {
        v.sort();
        v[v.len() / 2]
    };
    let (b, l) = (median(&mut baseline), median(&mut lantern));
    let t = median(&mut translated);
    println!(
        "baseline  toml::from_str -> toml::Value : {:>8.1} ms",
        b.as_secs_f64() * 1e3
    );
    println!(
        "lantern   load + resolve                : {:>8.1} ms",
        l.as_secs_f64() * 1e3
    );
    println!(
        "ratio: {:.2} (target < 2)",
        l.as_secs_f64() / b.as_secs_f64()
    );
    println!(
        "lantern   the content in another language : {:>8.1} ms ({:.2} of a load)",
        t.as_secs_f64() * 1e3,
        t.as_secs_f64() / l.as_secs_f64()
    );
    let _ = std::fs::remove_dir_all(&dir);
}
