//! A generated pack at 1,000, 10,000 and 100,000 definitions (a million with
//! `LANTERN_BENCH_PACK_SIZES=1000,10000,100000,1000000`), 500 definitions and one small script a
//! mod, and what a pack that size costs where a player or a modder feels it, each beside a plain
//! `toml::from_str` of the pack's files in the same run:
//!
//! - loading it (data and scripts: `load::load_game`);
//! - a reload after one data file changes a value, adds a definition or removes one, and after
//!   one script changes (`reload::Live::reload`, the whole of it);
//! - `lantern check` of it (the release binary, wall time and peak resident memory, started from
//!   a small copy of this bench so that the peak is the check's own);
//! - one test's game over it (`Harness::prepare` once, then `Prepared::game`).
//!
//! Prints a table and draws the curve (`target/bench/pack.svg`, log-log; docs/performance.md keeps
//! a copy). Run with `cargo bench --bench pack`; `LANTERN_BENCH_PACK_ONLY=game` (or `parse`,
//! `load`, `reload`, `check`) measures that column alone, for a profiler; `LANTERN_BENCH_PACK_ROUNDS=N`
//! times each figure N times; `LANTERN_BENCH_PACK_KEEP=DIR` keeps each pack in
//! `DIR/pack-<definitions>`.

use lantern::lua::Limits;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

const DEFS_A_MOD: usize = 500;

const SCRIPT: &str = "lantern.on(\"turn_started\", function(ev)\n  lantern.storage.turns = (lantern.storage.turns or 0) + 1\nend)\n";

fn median(mut v: Vec<Duration>) -> f64 {
    v.sort();
    v[v.len() / 2].as_secs_f64() * 1e3
}

/// Times `f` `rounds` times: the median in milliseconds.
fn time(rounds: usize, mut f: impl FnMut()) -> f64 {
    median(
        (0..rounds)
            .map(|_| {
                let start = Instant::now();
                f();
                start.elapsed()
            })
            .collect(),
    )
}

/// One size's figures, in milliseconds (memory in bytes).
struct Row {
    defs: usize,
    parse: f64,
    load: f64,
    reload: Reloads,
    check: f64,
    check_peak: u64,
    /// The check's CPU time in its own code and in the system's (most of it clearing the pages
    /// it touches), seconds, of the run with the median wall time.
    check_cpu: (f64, f64),
    test_game: f64,
}

/// A reload's figures (medians, milliseconds): after one data file changes a value, adds a
/// definition, removes one no other file names; after one script changes.
#[derive(Default)]
struct Reloads {
    change: f64,
    add: f64,
    remove: f64,
    script: f64,
}

/// Times `edit` then a reload, `rounds` times, with a reload to `data` between rounds (not
/// timed, and a pause for what it freed aside: a modder's edits are seconds apart), so that each
/// round edits the same version.
fn timed_edits(
    live: &mut lantern::reload::Live,
    file: &Path,
    data: &str,
    rounds: usize,
    edit: impl Fn(usize) -> String,
) -> f64 {
    let mut times = Vec::new();
    for n in 0..rounds {
        let start = Instant::now();
        std::fs::write(file, edit(n)).unwrap();
        assert!(live.reload().ok);
        times.push(start.elapsed());
        std::fs::write(file, data).unwrap();
        assert!(live.reload().ok);
        std::thread::sleep(Duration::from_millis(100));
    }
    median(times)
}

/// A reload after one data file of the pack changes a value, adds a tag, removes an item no
/// other definition names; and after one script changes (medians).
fn reloads(dir: &Path, files: &[PathBuf], rounds: usize, rules: &lantern::host::Rules) -> Reloads {
    let mods = files.len();
    let roots = [dir.to_path_buf()];
    let (mut live, _) = lantern::reload::Live::start_game(&roots, rules, 1, Limits::default())
        .expect("the pack starts");
    let edited = &files[mods / 2];
    let data = std::fs::read_to_string(edited).unwrap();
    let change = timed_edits(&mut live, edited, &data, rounds, |n| {
        data.replacen(
            "name = \"Item 0\"",
            &format!("name = \"Item {}\"", n + 1),
            1,
        )
    });
    let add = timed_edits(&mut live, edited, &data, rounds, |n| {
        format!("{data}\n[[tags]]\nid = \"added{n}\"\nname = \"Added\"\n")
    });
    // The last item of a mod: no creature, quest or trigger of the pack names it.
    let last_item = DEFS_A_MOD / 2 - 1;
    let start = data
        .find(&format!("[[items]]\nid = \"item{last_item}\"\n"))
        .expect("the pack's last item");
    let end = start + data[start..].find("\n\n").unwrap() + 2;
    let remove = timed_edits(&mut live, edited, &data, rounds, |_| {
        format!("{}{}", &data[..start], &data[end..])
    });
    let script = dir.join(format!("m{}/scripts/main.lua", mods / 2));
    let mut n = 0;
    let script = time(rounds, || {
        n += 1;
        std::fs::write(&script, format!("{SCRIPT}-- edit {n}\n")).unwrap();
        assert!(live.reload().ok);
    });
    Reloads {
        change,
        add,
        remove,
        script,
    }
}

/// `lantern check --mods DIR`, run by a small copy of this bench (`peak_of`): its wall time, its
/// own peak resident memory in bytes, and its user and system CPU time in seconds. A process's peak survives `exec`, and a child started
/// from this bench (which holds a loaded pack) would begin with this bench's peak; the copy is
/// small when it starts the check, so the figure is the check's.
fn check_in_a_small_process(dir: &Path) -> (Duration, u64, (f64, f64)) {
    let out = std::process::Command::new(std::env::current_exe().unwrap())
        .env("LANTERN_BENCH_PEAK_OF", env!("CARGO_BIN_EXE_lantern"))
        .arg(dir)
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&out.stdout);
    let mut words = said.split_whitespace().map(|w| w.parse::<u64>().unwrap());
    let mut next = || words.next().unwrap();
    let (nanos, peak, user, system) = (next(), next(), next(), next());
    let cpu = (user as f64 / 1e6, system as f64 / 1e6);
    (Duration::from_nanos(nanos), peak, cpu)
}

/// The small copy: runs `EXE check --mods DIR`, and prints its wall time (ns) and peak resident
/// memory (bytes), user and system CPU time (µs) as its parent waited for it.
fn peak_of(exe: &std::ffi::OsStr, dir: &std::ffi::OsStr) {
    let start = Instant::now();
    // Waited for below, by `wait4`, which gives its usage too.
    #[allow(clippy::zombie_processes)]
    let child = std::process::Command::new(exe)
        .args(["check".as_ref(), "--mods".as_ref(), dir])
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let (mut status, pid) = (0, child.id() as libc::pid_t);
    // SAFETY: wait4 writes the status and the usage it is given; the child is ours and waited
    // for once, here (the `Child` is not waited for again).
    let usage = unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        libc::wait4(pid, &mut status, 0, &mut usage);
        usage
    };
    let elapsed = start.elapsed();
    assert!(status == 0, "lantern check failed on the pack");
    let micros = |t: libc::timeval| t.tv_sec as u64 * 1_000_000 + t.tv_usec as u64;
    println!(
        "{} {} {} {}",
        elapsed.as_nanos(),
        usage.ru_maxrss as u64 * 1024,
        micros(usage.ru_utime),
        micros(usage.ru_stime)
    );
}

fn measure(dir: &Path, defs: usize) -> Row {
    let mods = (defs / DEFS_A_MOD).max(1);
    let _ = std::fs::remove_dir_all(dir);
    let total =
        lantern::content::generate::write_mod_set(dir, mods, DEFS_A_MOD).expect("write the pack");
    for m in 0..mods {
        let scripts = dir.join(format!("m{m}/scripts"));
        std::fs::create_dir_all(&scripts).unwrap();
        std::fs::write(scripts.join("main.lua"), SCRIPT).unwrap();
    }
    let files: Vec<PathBuf> = (0..mods)
        .map(|m| dir.join(format!("m{m}/data/defs.toml")))
        .collect();
    // A pack installed an hour ago, as a player's is: its files' times say they were not written
    // since (a file written seconds before a load is read again at every reload; see
    // `mods::Stamp`).
    let hour_ago = std::time::SystemTime::now() - Duration::from_secs(3600);
    for m in 0..mods {
        for file in ["mod.toml", "data/defs.toml", "scripts/main.lua"] {
            let path = dir.join(format!("m{m}/{file}"));
            let f = std::fs::File::options().write(true).open(path).unwrap();
            f.set_modified(hour_ago).unwrap();
        }
    }
    // `LANTERN_BENCH_PACK_ROUNDS=N` times each figure N times (for a profiler of one column).
    let rounds = match std::env::var("LANTERN_BENCH_PACK_ROUNDS")
        .ok()
        .and_then(|n| n.parse().ok())
    {
        Some(n) => n,
        None if total >= 500_000 => 1,
        None if total >= 50_000 => 3,
        None => 7,
    };
    let rules = lantern::roguelike::rules();
    let roots = [dir.to_path_buf()];

    let only = std::env::var("LANTERN_BENCH_PACK_ONLY").ok();
    let wanted = |what: &str| only.as_deref().is_none_or(|o| o == what);
    let mut parse = 0.0;
    if wanted("parse") {
        parse = time(rounds, || {
            for f in &files {
                let text = std::fs::read_to_string(f).unwrap();
                std::hint::black_box(toml::from_str::<toml::Value>(&text).unwrap());
            }
        });
    }
    let mut load = 0.0;
    if wanted("load") {
        load = time(rounds, || {
            let world = lantern::load::load_game(&roots, &rules, Limits::default());
            assert!(!world.has_errors(), "{:?}", world.diagnostics.first());
        });
    }
    let mut reload = Reloads::default();
    if wanted("reload") {
        reload = reloads(dir, &files, rounds, &rules);
    }
    let (mut check, mut check_peak, mut check_cpu) = (0.0, 0, (0.0, 0.0));
    if wanted("check") {
        let mut runs: Vec<(Duration, u64, (f64, f64))> =
            (0..rounds).map(|_| check_in_a_small_process(dir)).collect();
        check = median(runs.iter().map(|r| r.0).collect());
        check_peak = runs.iter().map(|r| r.1).max().unwrap_or(0);
        runs.sort_by_key(|r| r.0);
        check_cpu = runs[runs.len() / 2].2;
    }
    let mut test_game = 0.0;
    if wanted("game") {
        let harness = std::sync::Arc::new(lantern::harness::Harness::new(
            dir,
            lantern::roguelike::rules(),
            Limits::default(),
        ));
        let prepared = harness.prepare(&[]).expect("the pack prepares");
        let mut seed = 0;
        // Alone (for a profiler), long enough to see.
        let rounds = if only.is_some() { 100 } else { rounds.max(5) };
        test_game = time(rounds, || {
            seed += 1;
            std::hint::black_box(prepared.game(seed, Limits::default()).unwrap());
        });
    }
    // `LANTERN_BENCH_PACK_KEEP=DIR` keeps the pack there, for a profiler of the `lantern` binary.
    match std::env::var_os("LANTERN_BENCH_PACK_KEEP") {
        Some(keep) => {
            let keep = PathBuf::from(keep).join(format!("pack-{total}"));
            let _ = std::fs::remove_dir_all(&keep);
            let _ = std::fs::create_dir_all(keep.parent().unwrap());
            std::fs::rename(dir, &keep).expect("keep the pack");
            println!("kept: {}", keep.display());
        }
        None => {
            let _ = std::fs::remove_dir_all(dir);
        }
    }
    Row {
        defs: total,
        parse,
        load,
        reload,
        check,
        check_peak,
        check_cpu,
        test_game,
    }
}

fn main() {
    if let Some(exe) = std::env::var_os("LANTERN_BENCH_PEAK_OF") {
        let dir = std::env::args_os().nth(1).expect("a pack folder");
        return peak_of(&exe, &dir);
    }
    let sizes: Vec<usize> = std::env::var("LANTERN_BENCH_PACK_SIZES")
        .ok()
        .map(|v| v.split(',').filter_map(|s| s.trim().parse().ok()).collect())
        .unwrap_or_else(|| vec![1_000, 10_000, 100_000]);
    let dir = std::env::temp_dir().join(format!("lantern-bench-pack-{}", std::process::id()));
    println!("| definitions | parse (baseline) | load | reload, one data file | a definition added | one removed | reload, one script | `lantern check` | check's peak memory | a test's game |");
    println!("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
    let mut rows = Vec::new();
    for defs in sizes {
        let r = measure(&dir, defs);
        println!(
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            r.defs,
            ms(r.parse, 1),
            with_ratio(r.load, r.parse, "x"),
            with_ratio(r.reload.change, r.load, " of a load"),
            with_ratio(r.reload.add, r.load, ""),
            with_ratio(r.reload.remove, r.load, ""),
            with_ratio(r.reload.script, r.load, ""),
            ms(r.check, 1),
            match r.check_peak {
                0 => "-".to_string(),
                peak => format!(
                    "{:.0} MB ({:.2} KB a definition)",
                    peak as f64 / 1e6,
                    peak as f64 / 1e3 / r.defs as f64
                ),
            },
            ms(r.test_game, 2),
        );
        rows.push(r);
    }
    // The check's wall time on two cores is its own work and the system's clearing of the memory
    // it touches, which on these machines varies from run to run by seconds.
    println!();
    for r in rows.iter().filter(|r| r.check > 0.0) {
        println!(
            "`lantern check` of {}: {:.2} s of its own CPU time, {:.2} s of the system's",
            r.defs, r.check_cpu.0, r.check_cpu.1
        );
    }
    let out = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/bench/pack.svg");
    match plot(&rows, &out) {
        Ok(()) => println!("\ncurve: {}", out.display()),
        Err(e) => println!("\nno curve drawn: {e}"),
    }
}

/// A figure in milliseconds with `digits` decimals, or `-` for a column not measured (a figure
/// measured is never exactly 0).
fn ms(v: f64, digits: usize) -> String {
    if v == 0.0 {
        "-".to_string()
    } else {
        format!("{v:.digits$} ms")
    }
}

/// A figure with its ratio to `of` (`{ratio}{unit}` in brackets), when both were measured.
fn with_ratio(v: f64, of: f64, unit: &str) -> String {
    match (v == 0.0, of == 0.0) {
        (true, _) => "-".to_string(),
        (false, true) => ms(v, 1),
        (false, false) => format!("{v:.1} ms ({:.2}{unit})", v / of),
    }
}

/// A curve: its name, its figure of a row, its color.
type Series = (&'static str, fn(&Row) -> f64, plotters::style::RGBColor);

/// Each cost against the pack's size, log-log.
fn plot(rows: &[Row], out: &Path) -> Result<(), Box<dyn std::error::Error>> {
    use plotters::prelude::*;
    if rows.len() < 2 {
        return Err("one size is no curve".into());
    }
    std::fs::create_dir_all(out.parent().unwrap())?;
    let root = SVGBackend::new(out, (900, 560)).into_drawing_area();
    root.fill(&WHITE)?;
    let series: [Series; 6] = [
        (
            "toml::from_str (baseline)",
            |r| r.parse,
            RGBColor(150, 150, 150),
        ),
        ("load", |r| r.load, RGBColor(31, 119, 180)),
        (
            "reload, one data file",
            |r| r.reload.change,
            RGBColor(214, 39, 40),
        ),
        (
            "reload, one script",
            |r| r.reload.script,
            RGBColor(255, 127, 14),
        ),
        (
            "lantern check (process)",
            |r| r.check,
            RGBColor(44, 160, 44),
        ),
        ("a test's game", |r| r.test_game, RGBColor(148, 103, 189)),
    ];
    // Only the columns measured (`LANTERN_BENCH_PACK_ONLY` measures one).
    let series: Vec<Series> = series
        .into_iter()
        .filter(|(_, f, _)| rows.iter().all(|r| f(r) > 0.0))
        .collect();
    let (lo, hi) = rows
        .iter()
        .flat_map(|r| series.iter().map(move |(_, f, _)| f(r)))
        .fold((f64::MAX, 0f64), |(lo, hi), v| (lo.min(v), hi.max(v)));
    if series.is_empty() {
        return Err("no column measured at every size".into());
    }
    let first = rows[0].defs as f64;
    let last = rows[rows.len() - 1].defs as f64;
    let mut chart = ChartBuilder::on(&root)
        .caption("lantern: what a pack costs as it grows", ("sans-serif", 22))
        .margin(16)
        .x_label_area_size(40)
        .y_label_area_size(60)
        .build_cartesian_2d(
            (first..last).log_scale(),
            (lo.max(0.01) / 2.0..hi * 2.0).log_scale(),
        )?;
    chart
        .configure_mesh()
        .x_desc("definitions in the pack")
        .y_desc("milliseconds")
        .draw()?;
    for (name, f, color) in series {
        chart
            .draw_series(LineSeries::new(
                rows.iter().map(|r| (r.defs as f64, f(r))),
                color.stroke_width(2),
            ))?
            .label(name)
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 20, y)], color.stroke_width(2))
            });
    }
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .position(SeriesLabelPosition::UpperLeft)
        .draw()?;
    root.present()?;
    Ok(())
}
