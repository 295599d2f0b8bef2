//! Turning diagnostics into text: the human form with a caret under the span, and JSON for tools.
//!
//! These are pure functions that return strings; printing them is the command line's business.

use super::{Diagnostic, Severity, SourceMap, Span};
use std::fmt::Write;

/// The human form:
///
/// ```text
/// error: unknown item `core:glod`
///  --> rats/data/items.toml:4:12
///   |
/// 4 | item = "core:glod"
///   |        ^^^^^^^^^^^
///   = help: did you mean `core:gold`?
/// ```
pub fn render(diagnostic: &Diagnostic, sources: &SourceMap) -> String {
    let mut out = format!("{}: {}\n", diagnostic.severity.as_str(), diagnostic.message);
    let mut spans: Vec<(Span, &str)> = Vec::new();
    if let Some(span) = diagnostic.span {
        spans.push((span, ""));
    }
    spans.extend(
        diagnostic
            .labels
            .iter()
            .map(|l| (l.span, l.message.as_str())),
    );
    let width = spans
        .iter()
        .map(|(span, _)| {
            sources
                .get(span.file)
                .line_col(span.start)
                .0
                .to_string()
                .len()
        })
        .max()
        .unwrap_or(1);
    let pad = " ".repeat(width);
    for (i, (span, label)) in spans.iter().enumerate() {
        let file = sources.get(span.file);
        let (line, col) = file.line_col(span.start);
        let arrow = if i == 0 && diagnostic.span.is_some() {
            "-->"
        } else {
            ":::"
        };
        let _ = writeln!(out, "{pad}{arrow} {}:{line}:{col}", file.path());
        let text = file.line_text(line);
        let _ = writeln!(out, "{pad} |");
        let _ = writeln!(out, "{line:>width$} | {text}");
        let (end_line, end_col) = file.line_col(span.end.max(span.start));
        let caret_len = if end_line == line && end_col > col {
            end_col - col
        } else {
            1
        };
        let caret_len = caret_len.min(text.chars().count().saturating_sub(col - 1).max(1));
        let indent: String = text
            .chars()
            .take(col - 1)
            .map(|c| if c == '\t' { '\t' } else { ' ' })
            .collect();
        let mut caret_line = format!("{pad} | {indent}{}", "^".repeat(caret_len));
        if !label.is_empty() {
            caret_line.push(' ');
            caret_line.push_str(label);
        }
        let _ = writeln!(out, "{caret_line}");
    }
    if let Some(help) = &diagnostic.help {
        let _ = writeln!(out, "{pad} = help: {help}");
    }
    out
}

/// Every diagnostic, errors and warnings in the order given, separated by blank lines.
pub fn render_all(diagnostics: &[Diagnostic], sources: &SourceMap) -> String {
    diagnostics
        .iter()
        .map(|d| render(d, sources))
        .collect::<Vec<_>>()
        .join("\n")
}

/// `2 errors, 1 warning in 3 mods`.
pub fn summary_line(diagnostics: &[Diagnostic], mods: usize) -> String {
    let errors = diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .count();
    let warnings = diagnostics.len() - errors;
    let plural = |n: usize, word: &str| {
        if n == 1 {
            format!("{n} {word}")
        } else {
            format!("{n} {word}s")
        }
    };
    format!(
        "{}, {} in {}",
        plural(errors, "error"),
        plural(warnings, "warning"),
        plural(mods, "mod")
    )
}

/// The same fields as the human form, one JSON object per diagnostic, for editors and CI.
pub fn render_json(diagnostics: &[Diagnostic], sources: &SourceMap) -> serde_json::Value {
    let location = |span: Span| {
        let file = sources.get(span.file);
        let (line, column) = file.line_col(span.start);
        let (end_line, end_column) = file.line_col(span.end);
        serde_json::json!({
            "file": file.path(),
            "line": line,
            "column": column,
            "end_line": end_line,
            "end_column": end_column,
            "source_line": file.line_text(line),
        })
    };
    let items: Vec<_> = diagnostics
        .iter()
        .map(|d| {
            serde_json::json!({
                "severity": d.severity.as_str(),
                "code": d.code.as_str(),
                "message": d.message,
                "location": d.span.map(location),
                "labels": d.labels.iter().map(|l| {
                    let mut loc = location(l.span);
                    loc["message"] = serde_json::Value::from(l.message.clone());
                    loc
                }).collect::<Vec<_>>(),
                "help": d.help,
            })
        })
        .collect();
    serde_json::Value::Array(items)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::Code;

    #[test]
    fn caret_sits_under_the_span() {
        let mut sources = SourceMap::new();
        let text = "[[items]]\nid = \"sword\"\ntags = [\"core:sharpp\"]\n";
        let file = sources.add("rats/data/items.toml", text);
        let start = text.find("\"core:sharpp\"").unwrap();
        let span = Span::new(file, start..start + 13);
        let d = Diagnostic::error(Code::UnknownReference, "unknown tag `core:sharpp`")
            .at(span)
            .with_help("did you mean `core:sharp`?");
        let expected = "\
error: unknown tag `core:sharpp`
 --> rats/data/items.toml:3:9
  |
3 | tags = [\"core:sharpp\"]
  |         ^^^^^^^^^^^^^
  = help: did you mean `core:sharp`?
";
        assert_eq!(render(&d, &sources), expected);
    }

    #[test]
    fn summary_counts_with_plurals() {
        let ds = vec![
            Diagnostic::error(Code::UnknownReference, "a"),
            Diagnostic::error(Code::UnknownReference, "b"),
            Diagnostic::warning(Code::UnknownReference, "c"),
        ];
        assert_eq!(summary_line(&ds, 3), "2 errors, 1 warning in 3 mods");
        assert_eq!(summary_line(&[], 1), "0 errors, 0 warnings in 1 mod");
    }
}
