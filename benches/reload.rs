//! From the write of a file to the new content being live (the generation advanced), beside the raw
//! notify event latency measured in the same run; and the reload work alone (load, resolve, Lua):
//! for the bundled mods, and for a generated pack of 100,000 definitions whose data file changes
//! a value, adds a definition or removes one, or whose script changes.
//!
//! Run with `cargo bench --bench reload` (`LANTERN_BENCH_RELOAD_DEFS=<n>` for another pack size,
//! 0 for none).

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

/// A game over the mods in `dir`, reloaded as the watcher signals: what each write costs.
struct Watched {
    live: Live,
    signals: mpsc::Receiver<()>,
    _watcher: lantern::reload::Watch,
}

impl Watched {
    fn start(dir: &Path) -> Watched {
        let (live, _) = Live::start_game(
            &[dir.to_path_buf()],
            &lantern::roguelike::rules(),
            1,
            Limits::default(),
        )
        .map_err(|_| "mods load")
        .unwrap();
        let (tx, signals) = mpsc::channel();
        let watcher = watch(dir, move || {
            let _ = tx.send(());
        })
        .unwrap();
        Watched {
            live,
            signals,
            _watcher: watcher,
        }
    }

    /// Writes `text` to `file`, waits for the watcher's debounced signal and reloads, until the
    /// generation advanced: the time from the write, and the reload's own.
    fn write(&mut self, file: &Path, text: &str) -> (Duration, Duration) {
        let before = self.live.generation();
        let start = Instant::now();
        std::fs::write(file, text).unwrap();
        self.signals.recv_timeout(Duration::from_secs(10)).unwrap();
        let reload_start = Instant::now();
        let report = self.live.reload();
        assert!(report.ok, "{}", report.summary);
        assert_eq!(self.live.generation(), before + 1);
        let times = (start.elapsed(), reload_start.elapsed());
        while self
            .signals
            .recv_timeout(Duration::from_millis(100))
            .is_ok()
        {}
        times
    }

    /// The medians of [`Watched::write`] over `SAMPLES` edits (`edit(n)`), each written back to
    /// `file`'s text before the next (not timed).
    fn edits(&mut self, file: &Path, edit: impl Fn(usize) -> String) -> (Duration, Duration) {
        let text = std::fs::read_to_string(file).unwrap_or_default();
        let (mut total, mut work) = (Vec::new(), Vec::new());
        for n in 0..SAMPLES {
            let (t, w) = self.write(file, &edit(n));
            total.push(t);
            work.push(w);
            self.write(file, &text);
        }
        (median(total), median(work))
    }
}

/// Write a data file, wait for the watcher's debounced signal, reload; until the generation advanced.
fn write_to_live(dir: &Path, file: &Path) -> (Duration, Duration) {
    let mut watched = Watched::start(dir);
    watched.edits(file, |i| format!("[[tags]]\nid = \"bench_tag_{i}\"\n"))
}

/// A pack of `defs` definitions (500 a mod, one script each), installed an hour ago: write to
/// live for a changed value, an added definition, a removed one and a script edit.
fn pack(defs: usize) -> [(Duration, Duration); 4] {
    let dir = tempfile::tempdir().unwrap();
    let mods = lantern::content::generate::write_mod_set(dir.path(), defs / 500, 500).unwrap();
    let mods = mods / 500;
    let script = "lantern.on(\"turn_started\", function(ev) end)\n";
    let hour_ago = std::time::SystemTime::now() - Duration::from_secs(3600);
    for m in 0..mods {
        let root = dir.path().join(format!("m{m}"));
        std::fs::create_dir_all(root.join("scripts")).unwrap();
        std::fs::write(root.join("scripts/main.lua"), script).unwrap();
        for file in ["mod.toml", "data/defs.toml", "scripts/main.lua"] {
            let f = std::fs::File::options()
                .write(true)
                .open(root.join(file))
                .unwrap();
            f.set_modified(hour_ago).unwrap();
        }
    }
    let data = dir.path().join(format!("m{}/data/defs.toml", mods / 2));
    let text = std::fs::read_to_string(&data).unwrap();
    let mut watched = Watched::start(dir.path());
    let change = watched.edits(&data, |n| {
        text.replacen(
            "name = \"Item 0\"",
            &format!("name = \"Item {}\"", n + 1),
            1,
        )
    });
    let add = watched.edits(&data, |n| format!("{text}\n[[tags]]\nid = \"added{n}\"\n"));
    // The mod's last item: nothing in the pack names it.
    let start = text.find("[[items]]\nid = \"item249\"\n").unwrap();
    let end = start + text[start..].find("\n\n").unwrap() + 2;
    let remove = watched.edits(&data, |_| format!("{}{}", &text[..start], &text[end..]));
    let main = dir.path().join(format!("m{}/scripts/main.lua", mods / 2));
    let script = watched.edits(&main, |n| format!("{script}-- edit {n}\n"));
    [change, add, remove, script]
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

    // `LANTERN_BENCH_RELOAD_DEFS=<n>` sets the pack's size (0 leaves it out).
    let defs = std::env::var("LANTERN_BENCH_RELOAD_DEFS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(100_000);
    if defs == 0 {
        return;
    }
    let edits = [
        "a value changed",
        "a definition added",
        "one removed",
        "a script edited",
    ];
    println!(
        "\na pack of {defs} definitions (200 mods at 100,000), one data file or script written:"
    );
    for (what, (total, work)) in edits.iter().zip(pack(defs)) {
        println!(
            "write -> live, {what:<20}: {:>7.2} ms  (reload work {:.2} ms; {:.1} ms over the debounce)",
            ms(total),
            ms(work),
            ms(total) - ms(DEBOUNCE)
        );
    }
}
