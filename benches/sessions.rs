//! Sessions over one mod set, as a server hosts them: the bundled mods loaded once as a
//! `ModSet`, then 10, 100 and 1,000 games started from it, each saved to bytes and restored; beside
//! the baseline a server had before, a full load of the mods for each session, in the same run.
//!
//! Prints, for each count, the time to start a session, the bytes a session holds beyond the set
//! (every allocation counted by this binary's allocator, Lua's included), and the time to restore
//! one from its save's bytes; then the time to upgrade each of 1,000 sessions to the mods loaded
//! again (`ModSet::upgrade`). The same again with a pack of 10,000 more definitions beside the
//! bundled mods (`LANTERN_BENCH_DEFS=<n>` for another size, `0` for the bundled mods alone). Run
//! with `cargo bench --bench sessions`.
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

fn bundled() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("mods")
}

/// The mods loaded as one set.
fn load_set(roots: &[PathBuf]) -> ModSet {
    let rules = lantern::roguelike::rules();
    match ModSet::load(roots, &rules, Limits::default()) {
        Ok((set, _)) => set,
        Err(e) => panic!("the mods load: {e}"),
    }
}

/// A mods directory holding one mod, `pack`, of `n` items (a thousand to a file), which needs
/// the bundled `core`.
fn write_pack(n: usize) -> tempfile::TempDir {
    use std::fmt::Write;
    let dir = tempfile::tempdir().expect("a temporary folder");
    let m = dir.path().join("pack");
    std::fs::create_dir_all(m.join("data")).unwrap();
    std::fs::write(
        m.join("mod.toml"),
        "id = \"pack\"\nversion = \"1.0.0\"\ndepends = [\"core\"]\n",
    )
    .unwrap();
    for file in 0..n.div_ceil(1000) {
        let mut text = String::new();
        for i in file * 1000..((file + 1) * 1000).min(n) {
            let _ = writeln!(
                text,
                "[[items]]\nid = \"item{i}\"\nname = \"Item {i}\"\nstack = 10\n"
            );
        }
        std::fs::write(m.join(format!("data/items{file}.toml")), text).unwrap();
    }
    dir
}

fn main() {
    let defs: usize = std::env::var("LANTERN_BENCH_DEFS")
        .ok()
        .map(|n| n.parse().expect("a number of definitions"))
        .unwrap_or(10_000);
    let pack = (defs > 0).then(|| write_pack(defs));
    if let Ok(n) = std::env::var("LANTERN_BENCH_SESSIONS") {
        let n: u64 = n.parse().expect("a number of sessions");
        let set = load_set(&[bundled()]);
        let games: Vec<Game> = (0..n).map(|seed| set.start(seed).unwrap()).collect();
        std::hint::black_box(games);
        return;
    }
    sessions(&[bundled()], "the bundled mods");
    if let Some(pack) = &pack {
        let roots = [bundled(), pack.path().to_path_buf()];
        sessions(
            &roots,
            &format!("the bundled mods and {defs} more definitions"),
        );
    }
}

/// Sessions over the mods of `roots`, called `what`: started, held, restored, upgraded, against a
/// full load a session.
fn sessions(roots: &[PathBuf], what: &str) {
    let set = load_set(roots);
    println!("sessions over {what}, one ModSet (medians of 3 runs):");
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
    let next = load_set(roots);
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
        .map(|seed| lantern::load::load_game(roots, &rules, Limits::default()).start(seed))
        .collect();
    let full_ms = t.elapsed().as_secs_f64() * 1e3 / n as f64;
    let full_kb = (held::held() - before) as f64 / 1024.0 / n as f64;
    drop(games);
    println!(
        "baseline, a full load a session ({n}): start {full_ms:.3} ms, {full_kb:.0} KB a session"
    );
}
