//! What lantern adds to a real-time game's tick: the colony (1,000 colonists, a tick of its own
//! systems) without lantern, and with lantern over its settlement mod plus 0, 1, 10, 50 and 100
//! small mods, in the same run. Each small mod is what a modder writes first: a trigger on the
//! colony's every-tick event with a `when` and a `chance`, and a Lua handler on it that adds 1 to
//! a counter in its storage; so every mod's trigger, handler and storage write run every tick.
//!
//! `cargo bench -p colony --bench tick` prints microseconds per tick (medians of 5), each
//! figure's ratio to the game alone, and what each small mod adds to a tick. Per-tick cost is
//! linear in the number of mods when that last column stays level from 10 to 100.
//! `COLONY_BENCH=<alone|0|1|10|50|100> COLONY_TICKS=<n>` runs one configuration for n ticks and
//! prints nothing else, for `valgrind --tool=cachegrind`: the difference of two tick counts,
//! divided, is instructions per tick, which do not move with the machine's load.

use std::path::Path;
use std::time::Instant;

const FOUNDERS: u32 = 1000;

/// An app of configuration `which` (`alone`, or the number of extra mods), and the folder its
/// mods are in.
fn app(which: &str) -> (bevy_app::App, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    if which == "alone" {
        let content =
            lantern::load::load_game(&[colony::mods_dir()], &colony::rules(), Default::default())
                .content;
        return (colony::app_without_lantern(content, FOUNDERS), dir);
    }
    let n: usize = which.parse().expect("alone, 0, 1, 10, 50 or 100");
    copy(&colony::mods_dir(), dir.path());
    colony::write_small_mods(dir.path(), n).unwrap();
    let app = colony::app(&[dir.path().to_path_buf()], 1, FOUNDERS).unwrap();
    (app, dir)
}

fn ticks(app: &mut bevy_app::App, n: u64) {
    for _ in 0..n {
        app.update();
    }
}

fn main() {
    if let Ok(which) = std::env::var("COLONY_BENCH") {
        let n = std::env::var("COLONY_TICKS")
            .ok()
            .and_then(|t| t.parse().ok())
            .unwrap_or(1000);
        let (mut app, _dir) = app(&which);
        ticks(&mut app, n);
        return;
    }
    let configs = ["alone", "0", "1", "10", "50", "100"];
    let mut times: Vec<Vec<f64>> = vec![Vec::new(); configs.len()];
    for _ in 0..5 {
        for (i, which) in configs.iter().enumerate() {
            let (mut app, _dir) = app(which);
            ticks(&mut app, 20); // warm up: the first day, the first allocations
            let start = Instant::now();
            ticks(&mut app, 500);
            times[i].push(start.elapsed().as_secs_f64() * 1e6 / 500.0);
        }
    }
    let median = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    let alone = median(&mut times[0]);
    let settlement = median(&mut times[1]);
    println!("microseconds per tick, 1,000 colonists (medians of 5):");
    println!("the game's own systems, no lantern  : {alone:>8.1}");
    for (i, which) in configs.iter().enumerate().skip(1) {
        let t = median(&mut times[i]);
        let n: f64 = which.parse().unwrap_or(0.0);
        let per_mod = if n > 0.0 {
            format!("   {:.2} a small mod", (t - settlement) / n)
        } else {
            String::new()
        };
        println!(
            "with lantern, settlement + {which:>3} mods : {t:>8.1}   ratio {:.2}{per_mod}",
            t / alone
        );
    }
}

fn copy(from: &Path, to: &Path) {
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            std::fs::create_dir_all(&target).unwrap();
            copy(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}
