//! Turning diagnostics into text: the human form with a caret under the span, and JSON for tools.
//!
//! These are pure functions that return strings; printing them is the command line's business.

use super::escape::{self, visible};
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
///
/// Everything in it that a mod controls (the message, labels, help, file names, the source line)
/// is shown with control characters escaped ([`super::visible`]), so a mod's text cannot move the
/// cursor or forge a line of lantern's; a source line longer than `WIDEST_LINE` characters is
/// shown as a window around the span.
pub fn render(diagnostic: &Diagnostic, sources: &SourceMap) -> String {
    let mut out = format!(
        "{}: {}\n",
        diagnostic.severity.as_str(),
        said(&diagnostic.message)
    );
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
        if file.is_released() {
            // A text let go and not read back (it changed): its places are not known.
            let _ = writeln!(out, "{pad}{arrow} {}", visible(&file.shown()));
            continue;
        }
        let _ = writeln!(out, "{pad}{arrow} {}:{line}:{col}", visible(&file.shown()));
        let text = file.line_text(line);
        let (end_line, end_col) = file.line_col(span.end.max(span.start));
        let caret_len = if end_line == line && end_col > col {
            end_col - col
        } else {
            1
        };
        let (shown, indent, caret_len) = window(text, col - 1, caret_len);
        let _ = writeln!(out, "{pad} |");
        let _ = writeln!(out, "{line:>width$} | {shown}");
        let mut caret_line = format!("{pad} | {indent}{}", "^".repeat(caret_len));
        if !label.is_empty() {
            caret_line.push(' ');
            caret_line.push_str(&said(label));
        }
        let _ = writeln!(out, "{caret_line}");
    }
    if let Some(help) = &diagnostic.help {
        let _ = writeln!(out, "{pad} = help: {}", said(help));
    }
    out
}

/// The most bytes of a message, label or help a diagnostic shows: a script's error may carry a
/// megabyte of text.
pub(super) const LONGEST_MESSAGE: usize = 2000;

/// A message, label or help as shown: [`clipped`], then [`visible`].
fn said(text: &str) -> String {
    visible(&clipped(text)).into_owned()
}

/// `text`, cut at [`LONGEST_MESSAGE`] bytes (on a character boundary) with `…` where it was cut.
fn clipped(text: &str) -> std::borrow::Cow<'_, str> {
    if text.len() <= LONGEST_MESSAGE {
        return text.into();
    }
    let mut end = LONGEST_MESSAGE;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}… ({} bytes in all)", &text[..end], text.len()).into()
}

/// The most characters of a source line a diagnostic shows: a longer line (a minified file, a
/// 30 KB line of a hostile one) is shown as a window around the span, marked `…` where it is cut.
pub(crate) const WIDEST_LINE: usize = 160;

/// How many characters of a long line are shown before the span.
const BEFORE_SPAN: usize = 40;

/// A source line as shown (escaped, and windowed when long), the indent that puts a caret under
/// the character at index `start`, and how many carets cover `len` characters from there.
fn window(text: &str, start: usize, len: usize) -> (String, String, usize) {
    let count = text.chars().count();
    let start = start.min(count);
    let (from, to) = if count > WIDEST_LINE {
        let from = start.saturating_sub(BEFORE_SPAN);
        (from, (from + WIDEST_LINE).min(count))
    } else {
        (0, count)
    };
    let end = (start + len.max(1)).min(to);
    let mut shown = String::new();
    let mut indent = String::new();
    let mut carets = 0;
    if from > 0 {
        shown.push('…');
        indent.push(' ');
    }
    for (i, piece) in escape::shown_chars(text).enumerate().take(to).skip(from) {
        if i < start {
            if piece == "\t" {
                indent.push('\t');
            } else {
                indent.extend(std::iter::repeat_n(' ', cells(&piece)));
            }
        } else if i < end {
            carets += cells(&piece);
        }
        shown.push_str(&piece);
    }
    if to < count {
        shown.push('…');
    }
    (shown, indent, carets.max(1))
}

/// The terminal cells a shown character takes: two for a wide one (`赌`), none for a combining
/// mark, one for each character of an escape (`\x1b` is four).
fn cells(piece: &str) -> usize {
    unicode_width::UnicodeWidthStr::width(piece)
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
///
/// Problems a report left out are counted too ([`super::bound`]).
#[cfg_attr(not(feature = "cli"), allow(dead_code))]
pub(crate) fn summary_line(diagnostics: &[Diagnostic], mods: usize) -> String {
    let (mut errors, mut warnings) = (0, 0);
    for d in diagnostics {
        if d.code == super::Code::Elided {
            let (e, w) = d.stands_for();
            errors += e as usize;
            warnings += w as usize;
        } else if d.severity == Severity::Error {
            errors += 1;
        } else {
            warnings += 1;
        }
    }
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
        if file.is_released() {
            return serde_json::json!({ "file": file.path() });
        }
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
                "mod": d.mod_id(),
            })
        })
        .collect();
    serde_json::Value::Array(items)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::Code;

    /// The seeds' own texts: after Chinese (two cells a character) and German with a combining
    /// mark (none), the carets sit under the mistake, as many as it has cells.
    #[test]
    fn carets_count_terminal_cells_not_characters() {
        let mut sources = SourceMap::new();
        let text = "text = \"下注 100 金币\" # Rattenplage, Ku\u{308}che: 赌马 oops\n";
        let file = sources.add("rats/data/a.toml", text);
        let start = text.find("赌马 oops").unwrap();
        let span = Span::new(file, start..start + "赌马 oops".len());
        let d = Diagnostic::error(Code::UnknownKey, "x").at(span);
        let out = render(&d, &sources);
        let lines: Vec<&str> = out.lines().collect();
        let (source, carets) = (lines[3], lines[4]);
        let cells_before = |s: &str, upto: usize| cells(&s[..upto]);
        let at = source.find("赌马").unwrap();
        assert_eq!(carets.find('^').unwrap(), cells_before(source, at), "{out}");
        // 赌马 is four cells, the space one, oops four.
        assert_eq!(carets.matches('^').count(), 9, "{out}");
    }

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
    fn what_a_mod_wrote_is_shown_escaped_and_long_lines_as_a_window() {
        let mut sources = SourceMap::new();
        let long = format!("x = \"{}\u{1b}[2J{}\"", "a".repeat(100), "b".repeat(5000));
        let text = format!("ok\n{long}\n");
        let file = sources.add("evil/data/\u{1b}]0;x\u{7}.toml", text.as_str());
        let start = text.find('\u{1b}').unwrap();
        let d = Diagnostic::error(Code::UnknownReference, "bad\n1 error, 0 warnings in 1 mod")
            .at(Span::new(file, start..start + 4))
            .with_help("\r\u{8}");
        let out = render(&d, &sources);
        assert!(!out.chars().any(|c| c.is_control() && c != '\n'), "{out:?}");
        assert_eq!(out.lines().count(), 6, "{out}");
        assert!(out.starts_with("error: bad\\n1 error, 0 warnings in 1 mod\n --> evil/data/\\x1b]0;x\\x07.toml:2:106\n"), "{out}");
        let shown = out.lines().nth(3).unwrap();
        let carets = out.lines().nth(4).unwrap();
        assert!(
            shown.len() < 200 && shown.starts_with("2 | …aaaa") && shown.ends_with("bb…"),
            "{shown}"
        );
        // The carets sit under the escape, all four characters of it.
        let at = shown.find("\\x1b").unwrap();
        assert_eq!(
            carets.find('^'),
            Some(at - "…".len() + 1),
            "{shown}\n{carets}"
        );
        assert!(carets.ends_with("^^^^^^^"), "{carets}");
        assert!(out.ends_with("= help: \\r\\x08\n"), "{out}");
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
