//! Helpers shared by the integration tests: running the real binary, comparing against expected files.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The reference roguelike's rules, which the bundled mods are written for (the empty rules
/// without its feature): what a test passes to the loaders, as every game passes its own.
/// The mods of `dir` as one set under the reference game's rules; panics with every problem when
/// they do not load.
#[allow(dead_code)]
pub(crate) fn reference_set(dir: &Path) -> lantern::mod_set::ModSet {
    let loaded = lantern::mod_set::ModSet::load(
        &[dir.to_path_buf()],
        &reference_rules(),
        Default::default(),
    );
    match loaded {
        Ok((set, _)) => set,
        Err(e) => panic!("{e}"),
    }
}

pub(crate) fn reference_rules() -> lantern::host::Rules {
    #[cfg(feature = "roguelike")]
    return lantern::roguelike::rules();
    #[cfg(not(feature = "roguelike"))]
    lantern::host::Rules::empty()
}

pub(crate) fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

pub(crate) fn lantern(args: &[&str], dir: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_lantern"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("the lantern binary runs")
}

/// How many cases a fuzzing test runs: `usual` on every `cargo test`, or `LANTERN_FUZZ_CASES` for
/// a longer campaign (`LANTERN_FUZZ_CASES=100000 cargo test --release --test hostile_saves`).
pub(crate) fn fuzz_cases(usual: u32) -> u32 {
    std::env::var("LANTERN_FUZZ_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(usual)
}

/// Compares `actual` with the file at `path`; with `LANTERN_BLESS=1` in the environment, writes it instead.
pub(crate) fn expect_file(path: &Path, actual: &str) {
    if std::env::var_os("LANTERN_BLESS").is_some() {
        std::fs::write(path, actual).expect("write expected file");
        return;
    }
    let expected = std::fs::read_to_string(path).unwrap_or_else(|_| {
        panic!(
            "missing {}; run with LANTERN_BLESS=1 to create it",
            path.display()
        )
    });
    if expected != actual {
        panic!(
            "output differs from {}\n--- expected\n{expected}\n--- actual\n{actual}\n(run with LANTERN_BLESS=1 to accept the new output)",
            path.display()
        );
    }
}

/// The Harvest example's binary, built first: `cargo test` builds the examples, a test binary run
/// alone (`cargo test --test harvest`) does not, and a test must never run a stale one.
pub(crate) fn harvest_exe() -> PathBuf {
    let built = Command::new(env!("CARGO"))
        .args(["build", "--example", "harvest"])
        .current_dir(root())
        .status()
        .expect("cargo runs");
    assert!(built.success());
    std::env::current_exe()
        .expect("the test binary's path")
        .parent()
        .and_then(|deps| deps.parent())
        .map(|dir| dir.join("examples"))
        .expect("the target folder")
        .join(format!("harvest{}", std::env::consts::EXE_SUFFIX))
}

/// The state hash a console printed for `hash` (sixteen hex digits on a line of their own, after
/// the prompt when there is one).
pub(crate) fn printed_hash(output: &str) -> Option<String> {
    output
        .lines()
        .map(|l| l.trim_start_matches("> "))
        .find(|l| l.len() == 16 && l.bytes().all(|b| b.is_ascii_hexdigit()))
        .map(str::to_string)
}

pub(crate) mod fs;
pub(crate) mod world;

/// A mods directory holding only the bundled core mod: for engine tests that must not see the examples.
pub(crate) fn core_only() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    world::copy_dir(&root().join("mods/core"), &dir.path().join("core"));
    dir
}

/// Runs `lantern` with `args` in `dir`, feeding `script` on standard input (a scripted play session).
pub(crate) fn lantern_with_input(args: &[&str], dir: &Path, script: &str) -> Output {
    run_with_input(Path::new(env!("CARGO_BIN_EXE_lantern")), args, dir, script)
}

/// Runs the program `exe` with `args` in `dir`, feeding `script` on standard input.
#[allow(dead_code)] // Not every test binary that shares this module plays a session.
pub(crate) fn run_with_input(exe: &Path, args: &[&str], dir: &Path, script: &str) -> Output {
    use std::io::Write;
    let mut child = Command::new(exe)
        .args(args)
        .current_dir(dir)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the program runs");
    child
        .stdin
        .take()
        .expect("stdin is piped")
        .write_all(script.as_bytes())
        .expect("write the script");
    child.wait_with_output().expect("the program finishes")
}

/// The mods this repository ships in `mods/`. A modder's own (the README's `lantern new rats`
/// puts one beside them) are not among them, and no test reads those.
pub(crate) const SHIPPED: [&str; 2] = ["core", "examples"];

/// A fresh folder with a copy of the shipped mods in its `mods/`: where a test that plays or
/// checks "the bundled mods" runs (`lantern play` finds `mods/` there by default).
pub(crate) fn shipped_mods() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for m in SHIPPED {
        fs::copy_dir(
            &root().join("mods").join(m),
            &dir.path().join("mods").join(m),
        );
    }
    dir
}

/// The mods Harvest ships (`examples/harvest/mods`): a modder's own beside them
/// (`cargo run --example harvest -- new x`) are not among them.
pub(crate) const HARVEST_SHIPPED: [&str; 2] = ["valley", "fair"];

/// Harvest's shipped mods, copied once per test process into cargo's temporary folder for
/// integration tests: what Harvest's tests read, whatever else lies in `examples/harvest/mods`.
pub(crate) fn harvest_mods() -> PathBuf {
    static DIR: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    DIR.get_or_init(|| {
        let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
            .join(format!("harvest-mods-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        for m in HARVEST_SHIPPED {
            fs::copy_dir(&root().join("examples/harvest/mods").join(m), &dir.join(m));
        }
        dir
    })
    .clone()
}

/// Writes under `dir` every block of the guide chapter `chapter` (`docs/guide/...md`) whose
/// opening line names a file (```` ```toml file=rats/mod.toml ````); how many it wrote.
pub(crate) fn write_file_blocks(dir: &Path, chapter: &str) -> usize {
    let chapter = std::fs::read_to_string(root().join(chapter)).unwrap();
    let mut current: Option<(String, String)> = None;
    let mut written = 0;
    for line in chapter.lines() {
        match (&mut current, line) {
            (None, l) if l.starts_with("```") && l.contains(" file=") => {
                let path = l.split(" file=").nth(1).unwrap().trim().to_string();
                current = Some((path, String::new()));
            }
            (Some(_), "```") => {
                let (path, text) = current.take().unwrap();
                let path = dir.join(path);
                std::fs::create_dir_all(path.parent().unwrap()).unwrap();
                std::fs::write(path, text).unwrap();
                written += 1;
            }
            (Some((_, text)), l) => {
                text.push_str(l);
                text.push('\n');
            }
            _ => {}
        }
    }
    written
}
