//! Every command in the guide's shell blocks is run, in order, over a copy of the bundled mods
//! (with the testing chapter's example test in place), and must succeed; where a comment after a
//! command is output (`# 2 passed, 0 failed`), the command prints it. `play` and `--watch` wait
//! for a person and are left out.

mod common;

use common::{lantern, root};

/// The commands of a chapter's ```sh blocks, each with its trailing comment.
fn commands(markdown: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut inside = false;
    for line in markdown.lines() {
        match (inside, line.trim()) {
            (false, "```sh") => inside = true,
            (true, "```") => inside = false,
            (true, l) if !l.is_empty() => {
                let (command, comment) = l.split_once(" #").unwrap_or((l, ""));
                out.push((command.trim().to_string(), comment.trim().to_string()));
            }
            _ => {}
        }
    }
    out
}

/// `lantern test "five rats"` as arguments, without the program's name.
fn arguments(command: &str) -> Vec<String> {
    let command = command
        .strip_prefix("cargo run --release -- ")
        .or_else(|| command.strip_prefix("lantern "))
        .unwrap_or(command);
    let mut args = Vec::new();
    let mut current = String::new();
    let mut quoted = false;
    for c in command.chars() {
        match c {
            '"' => quoted = !quoted,
            ' ' if !quoted => {
                if !current.is_empty() {
                    args.push(std::mem::take(&mut current));
                }
            }
            c => current.push(c),
        }
    }
    if !current.is_empty() {
        args.push(current);
    }
    args
}

#[test]
fn every_command_in_the_guide_runs() {
    let dir = tempfile::tempdir().unwrap();
    for m in common::SHIPPED {
        common::world::copy_dir(
            &root().join("mods").join(m),
            &dir.path().join("mods").join(m),
        );
    }
    common::world::copy_dir(&root().join("docs"), &dir.path().join("docs"));
    // The testing chapter filters for its own example test.
    let testing = std::fs::read_to_string(root().join("docs/guide/05-testing.md")).unwrap();
    let lua: String = testing
        .split("```lua\n")
        .skip(1)
        .filter_map(|b| b.split("```").next())
        .collect();
    std::fs::write(dir.path().join("mods/core/tests/guide_test.lua"), lua).unwrap();
    let mut ran = 0;
    for entry in std::fs::read_dir(root().join("docs/guide")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "md") {
            continue;
        }
        let markdown = std::fs::read_to_string(&path).unwrap();
        for (command, comment) in commands(&markdown) {
            let args = arguments(&command);
            if args.first().is_some_and(|a| a == "play") || args.iter().any(|a| a == "--watch") {
                continue;
            }
            // The simulator plays fewer runs here: the command is what is tested, not the figures,
            // and this is a debug build.
            let mut args = args;
            if args.first().is_some_and(|a| a == "sim") {
                match args.iter().position(|a| a == "--runs") {
                    Some(i) => args[i + 1] = "500".into(),
                    None => args.extend(["--runs".into(), "500".into()]),
                }
            }
            let refs: Vec<&str> = args.iter().map(String::as_str).collect();
            let out = lantern(&refs, dir.path());
            let stdout = String::from_utf8_lossy(&out.stdout);
            assert!(
                out.status.success(),
                "{}: `{command}` failed:\n{stdout}{}",
                path.display(),
                String::from_utf8_lossy(&out.stderr)
            );
            if comment.starts_with(|c: char| c.is_ascii_digit()) {
                assert!(
                    stdout.contains(&comment),
                    "{}: `{command}` does not print `{comment}`:\n{stdout}",
                    path.display()
                );
            }
            ran += 1;
        }
    }
    assert!(ran >= 9, "only {ran} commands ran");
}
