//! Reports that cannot be forged: a test run whose names, messages and printed output are hostile
//! (line breaks, TAP directives, escape sequences, characters XML cannot hold) is reported in each
//! format, and each report is read back by a consumer of that format: TAP by a strict TAP reader
//! (below), JUnit by an XML 1.0 parser, JSON by a JSON parser, pretty and the terminal by what a
//! terminal obeys.

mod common;

use common::lantern;

/// A mods folder with one mod whose test file is hostile.
fn hostile_run() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let m = dir.path().join("mods/evil");
    std::fs::create_dir_all(m.join("tests")).unwrap();
    std::fs::write(m.join("mod.toml"), "id = \"evil\"\nversion = \"0.1.0\"\n").unwrap();
    std::fs::write(
        m.join("tests/evil.lua"),
        r#"describe("evil\27]0;owned\7", function()
  it("x\nok 99 - forged", function() error("boom\nok 100 - forged too") end)
  it("hides # TODO behind a directive", function() error("fails") end)
  it("\27[2J\27[31mred\rcarriage\8\8 back", function()
    print("printed\27]52;c;ZXZpbA==\7\n1 passed, 0 failed")
    error("bad \1\2\3 & <tag> \"quoted\" \\ back \u{202E}desrever")
  end)
  it("passes \u{FFFF}\127", function() end)
end)
"#,
    )
    .unwrap();
    dir
}

fn report(dir: &std::path::Path, format: &str) -> String {
    let out = lantern(&["test", "--mods", "mods", "--format", format], dir);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("reports are UTF-8")
}

/// Nothing a terminal would obey: no control character but the line break.
fn assert_inert(text: &str) {
    let bad: Vec<char> = text
        .chars()
        .filter(|c| *c != '\n' && lantern::diag::needs_escape(*c))
        .collect();
    assert!(bad.is_empty(), "{bad:?} in\n{text}");
}

#[test]
fn tap_reads_back_as_four_results_three_failed() {
    let text = report(hostile_run().path(), "tap");
    assert_inert(&text);
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("TAP version 13"));
    assert_eq!(lines.next(), Some("1..4"));
    let (mut points, mut failed, mut in_yaml) = (0, 0, false);
    for line in lines {
        if in_yaml {
            assert!(line.starts_with("  "), "a YAML block line: {line:?}");
            in_yaml = line != "  ...";
            continue;
        }
        if line == "  ---" {
            in_yaml = true;
            continue;
        }
        if line.starts_with('#') {
            continue;
        }
        let (ok, rest) = match line.strip_prefix("not ok ") {
            Some(rest) => (false, rest),
            None => (
                true,
                line.strip_prefix("ok ")
                    .unwrap_or_else(|| panic!("not TAP: {line:?}")),
            ),
        };
        points += 1;
        let (number, description) = rest.split_once(" - ").expect("a description");
        assert_eq!(number, points.to_string(), "{line:?}");
        // A directive is an unescaped `#`: none may hide in a description.
        let unescaped = description
            .char_indices()
            .any(|(i, c)| c == '#' && !description[..i].ends_with('\\'));
        assert!(!unescaped, "a directive in {line:?}");
        failed += usize::from(!ok);
    }
    assert_eq!((points, failed), (4, 3), "{text}");
    assert!(text.contains("hides \\# TODO behind a directive"), "{text}");
}

#[test]
fn json_parses_with_every_name_and_message_kept() {
    let text = report(hostile_run().path(), "json");
    assert_inert(&text);
    let doc: serde_json::Value =
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(
        (&doc["passed"], &doc["failed"], &doc["skipped"]),
        (&1.into(), &3.into(), &0.into())
    );
    let tests = doc["tests"].as_array().unwrap();
    assert_eq!(tests.len(), 4);
    // What the test file wrote comes back exactly, escapes and all.
    assert!(
        tests.iter().any(|t| t["name"]
            .as_str()
            .unwrap()
            .ends_with(" > x\nok 99 - forged")),
        "{text}"
    );
    assert!(
        tests.iter().any(|t| t["message"]
            .as_str()
            .is_some_and(|m| m.contains("\u{202E}desrever"))),
        "{text}"
    );
    assert!(tests.iter().any(|t| t["output"][0]
        .as_str()
        .is_some_and(|o| o.starts_with("printed\u{1b}]52"))));
}

#[test]
fn junit_parses_as_xml_with_every_name_kept() {
    let text = report(hostile_run().path(), "junit");
    assert_inert(&text);
    let doc = roxmltree::Document::parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let cases: Vec<_> = doc
        .descendants()
        .filter(|n| n.has_tag_name("testcase"))
        .collect();
    assert_eq!(cases.len(), 4);
    let failures = doc
        .descendants()
        .filter(|n| n.has_tag_name("failure"))
        .count();
    assert_eq!(failures, 3);
    // Names keep their line breaks as text, not as structure.
    assert!(
        cases.iter().any(|c| c
            .attribute("name")
            .is_some_and(|n| n.ends_with(" > x\nok 99 - forged"))),
        "{text}"
    );
    let messages: Vec<&str> = doc
        .descendants()
        .filter(|n| n.has_tag_name("failure"))
        .filter_map(|n| n.attribute("message"))
        .collect();
    assert!(
        messages
            .iter()
            .any(|m| m.contains("\\x01\\x02\\x03 & <tag> \"quoted\"")),
        "{messages:?}"
    );
}

#[test]
fn pretty_and_the_terminal_show_one_line_per_test_and_one_summary() {
    let text = report(hostile_run().path(), "pretty");
    assert_inert(&text);
    // The results come first; the failures follow, each under its `--- ` header.
    let listed = text.split("\n--- ").next().unwrap();
    let results: Vec<&str> = listed
        .lines()
        .filter(|l| l.starts_with("  ok ") || l.starts_with("  FAIL ") || l.starts_with("  skip "))
        .collect();
    assert_eq!(results.len(), 4, "{text}");
    // Only lantern's summary starts a line with a count of results.
    let summaries = text
        .lines()
        .filter(|l| l.contains(" passed, ") && !l.starts_with(' '))
        .count();
    assert_eq!(summaries, 1, "{text}");
    assert!(text.contains(" > x\\nok 99 - forged\n"), "{text}");
}
