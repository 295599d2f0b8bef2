//! Test reports: pretty for people, TAP for tools, JUnit XML for CI systems.

use super::{summary, Status, TestResult};
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
}

/// The report of a run in a format.
pub fn render(results: &[TestResult], format: Format) -> String {
    match format {
        Format::Pretty => pretty(results),
        Format::Tap => tap(results),
        Format::Junit => junit(results),
    }
}

fn pretty(results: &[TestResult]) -> String {
    let mut out = String::new();
    let mut file = "";
    for r in results {
        if r.file != file {
            file = &r.file;
            let _ = writeln!(out, "{file}");
        }
        let mark = match r.status {
            Status::Passed => "ok  ",
            Status::Failed { .. } => "FAIL",
            Status::Skipped => "skip",
        };
        let _ = writeln!(out, "  {mark} {}", r.name);
    }
    let failures: Vec<&TestResult> = results
        .iter()
        .filter(|r| matches!(r.status, Status::Failed { .. }))
        .collect();
    for r in &failures {
        if let Status::Failed { message, location } = &r.status {
            let _ = writeln!(out, "\n--- {}", r.full_name());
            if let Some(at) = location {
                let _ = writeln!(out, "  at {at}");
            }
            for line in message.lines() {
                let _ = writeln!(out, "  {line}");
            }
            if !r.output.is_empty() {
                let _ = writeln!(out, "  output:");
                // The last 20 things printed; one that spans lines (a rendered problem) keeps
                // its lines indented under the rest.
                for printed in r.output.iter().rev().take(20).rev() {
                    for line in printed.lines() {
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
                let _ = writeln!(out, "ok {n} - {}", r.full_name());
            }
            Status::Skipped => {
                let _ = writeln!(out, "ok {n} - {} # SKIP", r.full_name());
            }
            Status::Failed { message, location } => {
                let _ = writeln!(out, "not ok {n} - {}", r.full_name());
                let _ = writeln!(out, "  ---\n  message: {:?}", message);
                if let Some(at) = location {
                    let _ = writeln!(out, "  at: {at}");
                }
                let _ = writeln!(out, "  ...");
            }
        }
    }
    let _ = writeln!(out, "# {}", summary(results));
    out
}

fn xml(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
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
