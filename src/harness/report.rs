//! Test reports: pretty for people, TAP for tools, JUnit XML for CI systems, JSON for scripts.
//!
//! Test names, messages and printed output come from test files and mods, and some are hostile:
//! a name `"x\nok 99 - forged"` printed raw is a forged TAP result, `# TODO` in a name turns a
//! failure into an expected one, and a control character makes a JUnit file invalid XML. Each
//! format escapes them by its own rules: pretty shows them (`diag::visible`, each printed line
//! indented under its test), TAP escapes `#` and `\\` in descriptions and writes messages as YAML
//! double-quoted scalars, JUnit writes XML character references and shows the characters XML 1.0
//! cannot hold, and JSON writes every character a terminal would obey as a `\uXXXX` escape.
//! `tests/report_formats.rs` parses every format of a hostile run.

use super::{summary, Status, TestResult};
use crate::diag::{needs_escape, visible, visible_lines};
use std::fmt::Write;

/// How a run is reported.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[non_exhaustive]
pub enum Format {
    /// For people: one line per test, failures in full.
    Pretty,
    /// TAP, for tools.
    Tap,
    /// JUnit XML, for CI.
    Junit,
    /// One JSON document, for scripts and mod portals: every result and the totals.
    Json,
}

/// The report of a run in a format.
pub fn render(results: &[TestResult], format: Format) -> String {
    match format {
        Format::Pretty => pretty(results),
        Format::Tap => tap(results),
        Format::Junit => junit(results),
        Format::Json => json(results),
    }
}

fn json(results: &[TestResult]) -> String {
    let count = |status: &str| {
        results
            .iter()
            .filter(|r| status_name(&r.status) == status)
            .count()
    };
    let tests: Vec<serde_json::Value> = results
        .iter()
        .map(|r| {
            let (message, location) = match &r.status {
                Status::Failed { message, location } => (Some(message), location.as_ref()),
                _ => (None, None),
            };
            serde_json::json!({
                "file": r.file,
                "name": r.name,
                "status": status_name(&r.status),
                "message": message,
                "location": location,
                "duration_ms": r.duration.as_micros() as f64 / 1000.0,
                "output": r.output,
            })
        })
        .collect();
    let doc = serde_json::json!({
        "passed": count("passed"),
        "failed": count("failed"),
        "skipped": count("skipped"),
        "tests": tests,
    });
    let mut out = String::new();
    // serde_json escapes the C0 controls; DEL, C1 controls and bidirectional overrides a
    // terminal would obey are written as `\uXXXX` escapes too (they occur only inside strings).
    for c in format!("{doc:#}\n").chars() {
        if c != '\n' && needs_escape(c) {
            let mut units = [0u16; 2];
            for u in c.encode_utf16(&mut units) {
                let _ = write!(out, "\\u{u:04x}");
            }
        } else {
            out.push(c);
        }
    }
    out
}

fn status_name(status: &Status) -> &'static str {
    match status {
        Status::Passed => "passed",
        Status::Failed { .. } => "failed",
        Status::Skipped => "skipped",
    }
}

fn pretty(results: &[TestResult]) -> String {
    let mut out = String::new();
    let mut file = "";
    for r in results {
        if r.file != file {
            file = &r.file;
            let _ = writeln!(out, "{}", visible(file));
        }
        let mark = match r.status {
            Status::Passed => "ok  ",
            Status::Failed { .. } => "FAIL",
            Status::Skipped => "skip",
        };
        let _ = writeln!(out, "  {mark} {}", visible(&r.name));
    }
    let failures: Vec<&TestResult> = results
        .iter()
        .filter(|r| matches!(r.status, Status::Failed { .. }))
        .collect();
    for r in &failures {
        if let Status::Failed { message, location } = &r.status {
            let _ = writeln!(out, "\n--- {}", visible(&r.full_name()));
            if let Some(at) = location {
                let _ = writeln!(out, "  at {}", visible(at));
            }
            // Each line indented under its test, so none can pass for lantern's own.
            for line in visible_lines(message).lines() {
                let _ = writeln!(out, "  {line}");
            }
            if !r.output.is_empty() {
                let _ = writeln!(out, "  output:");
                // The last 20 things printed; one that spans lines (a rendered problem) keeps
                // its lines indented under the rest.
                for printed in r.output.iter().rev().take(20).rev() {
                    for line in visible_lines(printed).lines() {
                        let _ = writeln!(out, "    {line}");
                    }
                }
            }
        }
    }
    let _ = writeln!(out, "\n{}", summary(results));
    out
}

fn tap(results: &[TestResult]) -> String {
    let mut out = format!("TAP version 13\n1..{}\n", results.len());
    for (i, r) in results.iter().enumerate() {
        let n = i + 1;
        match &r.status {
            Status::Passed => {
                let _ = writeln!(out, "ok {n} - {}", tap_description(&r.full_name()));
            }
            Status::Skipped => {
                let _ = writeln!(out, "ok {n} - {} # SKIP", tap_description(&r.full_name()));
            }
            Status::Failed { message, location } => {
                let _ = writeln!(out, "not ok {n} - {}", tap_description(&r.full_name()));
                let _ = writeln!(out, "  ---\n  message: {}", yaml_quoted(message));
                if let Some(at) = location {
                    let _ = writeln!(out, "  at: {}", yaml_quoted(at));
                }
                let _ = writeln!(out, "  ...");
            }
        }
    }
    let _ = writeln!(out, "# {}", summary(results));
    out
}

/// A TAP test point's description: one line, with `#` (which starts a directive such as
/// `# TODO`) and `\\` escaped as TAP 14 says, and every control character shown.
fn tap_description(text: &str) -> String {
    visible(text).replace('\\', "\\\\").replace('#', "\\#")
}

/// `text` as a YAML double-quoted scalar on one line: quotes and backslashes escaped, line breaks
/// and every other control character as YAML's escapes.
fn yaml_quoted(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if needs_escape(c) => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// `text` for an XML attribute or element: markup escaped, line breaks and tabs as character
/// references (an attribute would fold them into spaces), and the characters XML 1.0 cannot hold
/// at all (most control characters) shown as escapes, as every other output shows them.
fn xml(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\n' => out.push_str("&#10;"),
            '\r' => out.push_str("&#13;"),
            '\t' => out.push_str("&#9;"),
            '\u{fffe}' | '\u{ffff}' => {
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
            c => out.push_str(&visible(c.encode_utf8(&mut [0; 4]))),
        }
    }
    out
}

fn junit(results: &[TestResult]) -> String {
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let failures = results
        .iter()
        .filter(|r| matches!(r.status, Status::Failed { .. }))
        .count();
    let skipped = results
        .iter()
        .filter(|r| r.status == Status::Skipped)
        .count();
    let _ = writeln!(
        out,
        "<testsuites name=\"lantern\" tests=\"{}\" failures=\"{failures}\" skipped=\"{skipped}\">",
        results.len()
    );
    let mut files: Vec<&str> = results.iter().map(|r| r.file.as_str()).collect();
    files.dedup();
    for file in files {
        let in_file: Vec<&TestResult> = results.iter().filter(|r| r.file == file).collect();
        let f = in_file
            .iter()
            .filter(|r| matches!(r.status, Status::Failed { .. }))
            .count();
        let s = in_file
            .iter()
            .filter(|r| r.status == Status::Skipped)
            .count();
        let _ = writeln!(
            out,
            "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{f}\" skipped=\"{s}\">",
            xml(file),
            in_file.len()
        );
        for r in in_file {
            let _ = write!(
                out,
                "    <testcase classname=\"{}\" name=\"{}\" time=\"{:.3}\"",
                xml(file),
                xml(&r.name),
                r.duration.as_secs_f64()
            );
            match &r.status {
                Status::Passed => out.push_str("/>\n"),
                Status::Skipped => out.push_str("><skipped/></testcase>\n"),
                Status::Failed { message, location } => {
                    let at = location.as_deref().unwrap_or("");
                    let _ = writeln!(
                        out,
                        "><failure message=\"{}\">{}</failure></testcase>",
                        xml(message),
                        xml(&format!("{at}: {message}"))
                    );
                }
            }
        }
        out.push_str("  </testsuite>\n");
    }
    out.push_str("</testsuites>\n");
    out
}
