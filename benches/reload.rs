//! From the write of a file to the new content being live (the generation advanced), beside the raw
//! notify event latency measured in the same run; and the reload work alone (load, resolve, Lua).
//!
//! Run with `cargo bench --bench reload`.

use lantern::lua::Limits;
use lantern::reload::{watch, Live, DEBOUNCE};
use notify::Watcher;
use std::path::Path;
use std::sync::mpsc;
use std::time::{Duration, Instant};

#[path = "../tests/common/fs.rs"]
mod fs;
use fs::copy_dir;

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

const SAMPLES: usize = 15;

fn raw_notify(dir: &Path) -> Duration {
    let (tx, rx) = mpsc::channel();
    let mut w = notify::recommended_watcher(move |res: notify::Result<notify::Event>| {
        if res.is_ok() {
            let _ = tx.send(Instant::now());
        }
    })
    .unwrap();
    w.watch(dir, notify::RecursiveMode::Recursive).unwrap();
    let file = dir.join("probe.toml");
    let mut samples = Vec::new();
    for i in 0..SAMPLES {
        while rx.try_recv().is_ok() {}
        let start = Instant::now();
        std::fs::write(&file, format!("# {i}\n")).unwrap();
        let seen = rx.recv_timeout(Duration::from_secs(5)).unwrap();
        samples.push(seen - start);
        std::thread::sleep(Duration::from_millis(20));
        while rx.try_recv().is_ok() {}
    }
    let _ = std::fs::remove_file(file);
    median(samples)
}

/// Write a data file, wait for the watcher's debounced signal, reload; until the generation advanced.
fn write_to_live(dir: &Path, file: &Path) -> (Duration, Duration) {
    let (mut live, _) = Live::start_game(
        &[dir.to_path_buf()],
        &lantern::roguelike::rules(),
        1,
        Limits::default(),
    )
    .map_err(|_| "mods load")
    .unwrap();
    let (tx, rx) = mpsc::channel();
    let _w = watch(dir, move || {
        let _ = tx.send(());
    })
    .unwrap();
    let mut total = Vec::new();
    let mut work = Vec::new();
    for i in 0..SAMPLES {
        let before = live.generation();
        let start = Instant::now();
        std::fs::write(file, format!("[[tags]]\nid = \"bench_tag_{i}\"\n")).unwrap();
        rx.recv_timeout(Duration::from_secs(10)).unwrap();
        let reload_start = Instant::now();
        let report = live.reload();
        assert!(report.ok, "{}", report.summary);
        assert_eq!(live.generation(), before + 1);
        work.push(reload_start.elapsed());
        total.push(start.elapsed());
        while rx.recv_timeout(Duration::from_millis(100)).is_ok() {}
    }
    (median(total), median(work))
}

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));

    let typical = tempfile::tempdir().unwrap();
    copy_dir(&root.join("mods/core"), &typical.path().join("core"));
    std::fs::create_dir_all(typical.path().join("rats/data")).unwrap();
    std::fs::write(
        typical.path().join("rats/mod.toml"),
        "id = \"rats\"\nversion = \"1.0.0\"\ndepends = [\"core\"]\n",
    )
    .unwrap();
    let raw = raw_notify(typical.path());
    let (typ_total, typ_work) =
        write_to_live(typical.path(), &typical.path().join("rats/data/bench.toml"));

    let bundled = tempfile::tempdir().unwrap();
    copy_dir(&root.join("mods"), bundled.path());
    let (all_total, all_work) =
        write_to_live(bundled.path(), &bundled.path().join("core/data/bench.toml"));

    println!("debounce: {} ms", DEBOUNCE.as_millis());
    println!(
        "raw notify event latency (baseline)         : {:>7.2} ms",
        ms(raw)
    );
    println!(
        "write -> live, core + one mod                : {:>7.2} ms  (reload work {:.2} ms)",
        ms(typ_total),
        ms(typ_work)
    );
    println!(
        "write -> live, the whole bundled set         : {:>7.2} ms  (reload work {:.2} ms)",
        ms(all_total),
        ms(all_work)
    );
    println!(
        "over the debounce: {:.1} ms and {:.1} ms (target: median under 100 ms over the debounce)",
        ms(typ_total) - ms(DEBOUNCE),
        ms(all_total) - ms(DEBOUNCE)
    );
}
