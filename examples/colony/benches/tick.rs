//! What lantern adds to a real-time game's tick: the colony (1,000 colonists, a tick of its own
//! systems) without lantern, and with lantern over its settlement mod plus 0, 10 and 50 small
//! mods (each a trigger on `day_started` and a Lua handler on `recruited`), in the same run.
//!
//! `cargo bench -p colony --bench tick` prints microseconds per tick (medians of 5) and each
//! figure's ratio to the game alone. `COLONY_BENCH=<alone|0|10|50> COLONY_TICKS=<n>` runs one
//! configuration for n ticks and prints nothing else, for `valgrind --tool=cachegrind`: the
//! difference of two tick counts, divided, is instructions per tick, which do not move with the
//! machine's load.

use std::path::Path;
use std::time::Instant;

const FOUNDERS: u32 = 1000;

/// `n` small mods beside the settlement, in `dir`.
fn extra_mods(dir: &Path, n: usize) {
    for i in 0..n {
        let m = dir.join(format!("extra{i}"));
        std::fs::create_dir_all(m.join("data")).unwrap();
        std::fs::create_dir_all(m.join("scripts")).unwrap();
        std::fs::write(
            m.join("mod.toml"),
            format!("id = \"extra{i}\"\nversion = \"0.1.0\"\n"),
        )
        .unwrap();
        std::fs::write(
            m.join("data/rules.toml"),
            "[[triggers]]\non = \"day_started\"\ncondition = [ { check = \"colony:food_at_least\", amount = 1 } ]\nactions = [ { action = \"colony:add_food\", amount = 1 } ]\n",
        )
        .unwrap();
        std::fs::write(
            m.join("scripts/main.lua"),
            "lantern.on('recruited', function(ev)\n  lantern.storage.seen = (lantern.storage.seen or 0) + ev.count\nend)\n",
        )
        .unwrap();
    }
}

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
    let n: usize = which.parse().expect("alone, 0, 10 or 50");
    copy(&colony::mods_dir(), dir.path());
    extra_mods(dir.path(), n);
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
    let configs = ["alone", "0", "10", "50"];
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
    println!("microseconds per tick, 1,000 colonists (medians of 5):");
    println!("the game's own systems, no lantern : {alone:>8.1}");
    for (i, which) in configs.iter().enumerate().skip(1) {
        let t = median(&mut times[i]);
        println!(
            "with lantern, settlement + {which:>2} mods : {t:>8.1}   ratio {:.2}",
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
