//! `lantern lsp` on a generated pack: from an edit sent by the editor to its diagnostics
//! published (the release binary over stdio, as an editor runs it), beside what the same check
//! costs in-process in the same run (`load::check_game`: the floor the server stands on) and a
//! plain `toml::from_str` of the pack's files. Also a completion of IDs and a find-references.
//!
//! Run with `cargo bench --bench lsp`. Sizes: `LANTERN_BENCH_MODS` (20) and `LANTERN_BENCH_DEFS`
//! (500): 10,000 definitions.

#[path = "../tests/common/lsp.rs"]
mod lsp;

use serde_json::json;
use std::path::Path;
use std::time::{Duration, Instant};

const ROUNDS: usize = 15;

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn main() {
    let size = |name: &str, default: usize| {
        std::env::var(name)
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(default)
    };
    let (mods, defs) = (
        size("LANTERN_BENCH_MODS", 20),
        size("LANTERN_BENCH_DEFS", 500),
    );
    let dir = std::env::temp_dir().join(format!("lantern-bench-lsp-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let total =
        lantern::content::generate::write_mod_set(&dir, mods, defs).expect("write the pack");
    println!("pack: {mods} mods, {total} definitions");
    let files: Vec<_> = (0..mods)
        .map(|m| dir.join(format!("m{m}/data/defs.toml")))
        .collect();

    let rules = lantern::roguelike::rules();
    let limits = lantern::lua::Limits::default();
    let roots = [dir.clone()];
    let (mut baseline, mut check) = (Vec::new(), Vec::new());
    for _ in 0..ROUNDS {
        let start = Instant::now();
        for f in &files {
            let text = std::fs::read_to_string(f).expect("read");
            std::hint::black_box(toml::from_str::<toml::Value>(&text).expect("parse"));
        }
        baseline.push(start.elapsed());
        let start = Instant::now();
        let world = lantern::load::check_game(&roots, &rules, limits);
        assert!(!world.has_errors(), "the generated pack is clean");
        check.push(start.elapsed());
    }

    let (mut client, _) = lsp::Client::start(
        Path::new(env!("CARGO_BIN_EXE_lantern")),
        &["--mods", dir.to_str().unwrap()],
        &dir,
    );
    let edited = &files[mods / 2];
    let text = std::fs::read_to_string(edited).unwrap();
    client.open(edited);
    client.sync();
    // A keystroke: one name changed in the buffer, then its diagnostics.
    let mut keystroke = Vec::new();
    for round in 0..ROUNDS {
        let typed = text.replacen("name = \"Item 0\"", &format!("name = \"Item {round}x\""), 1);
        let start = Instant::now();
        client.change(edited, round as i32 + 2, &typed);
        client.sync();
        keystroke.push(start.elapsed());
    }
    // A mistake typed: published at the file, then mended.
    let broken = text.replacen("tags = [\"tag0\"", "tags = [\"tga0\"", 1);
    client.change(edited, 100, &broken);
    client.sync();
    let published = client.published(edited).expect("the mistake is published");
    assert_eq!(published.len(), 1, "{published:?}");
    client.change(edited, 101, &text);
    client.sync();

    // Completion of an item ID, and every reference to a tag across the pack.
    let line = text
        .lines()
        .position(|l| l.starts_with("tags = ["))
        .unwrap() as u32;
    let (mut complete, mut references) = (Vec::new(), Vec::new());
    let mut found = (0, 0);
    for _ in 0..ROUNDS {
        let start = Instant::now();
        let answer = client.at("textDocument/completion", edited, line, 9, json!({}));
        complete.push(start.elapsed());
        found.0 = answer["items"].as_array().map_or(0, Vec::len);
        let start = Instant::now();
        let refs = client.at(
            "textDocument/references",
            edited,
            line,
            9,
            json!({ "context": { "includeDeclaration": true } }),
        );
        references.push(start.elapsed());
        found.1 = refs.as_array().map_or(0, Vec::len);
    }
    assert!(client.stop().success());

    let (b, c, k) = (median(baseline), median(check), median(keystroke));
    println!(
        "baseline  toml::from_str of the pack          : {:>8.1} ms",
        ms(b)
    );
    println!(
        "baseline  load::check_game in-process         : {:>8.1} ms ({:.2}x the parse)",
        ms(c),
        ms(c) / ms(b)
    );
    println!("lantern   an edit to its diagnostics (lsp)    : {:>8.1} ms ({:.2}x the check; target < 100 ms)", ms(k), ms(k) / ms(c));
    println!(
        "lantern   completion in a tag list        : {:>8.1} ms ({} items: at most 500 an answer)",
        ms(median(complete)),
        found.0
    );
    println!(
        "lantern   references of a tag             : {:>8.1} ms ({} places; every file scanned)",
        ms(median(references)),
        found.1
    );
    let _ = std::fs::remove_dir_all(&dir);
}
