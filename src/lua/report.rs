//! Script errors as diagnostics: the message in a modder's words, the place, the traceback.
//!
//! A place comes from the error's frames, never from what its text claims: a message that starts
//! with `file:line:` is placed there only if that is one of the traceback's frames (a script can
//! write any text into an error, including another mod's file and line), otherwise at the
//! innermost frame of the traceback, and an out-of-memory error (which has neither) at the line
//! the budget's hook last saw running.

use crate::diag::{FileId, SourceMap, Span};
use std::collections::BTreeMap;

/// The Lua files a runtime read, by display path (`rats/scripts/main.lua`), with their line
/// starts: to point diagnostics at their lines.
#[derive(Default)]
pub(super) struct ScriptFiles {
    files: BTreeMap<String, (FileId, Vec<u32>)>,
}

impl ScriptFiles {
    /// Adds a file to the source map and remembers where its lines start.
    pub(super) fn add(
        &mut self,
        sources: &mut SourceMap,
        path: String,
        disk: Option<&std::path::Path>,
        text: String,
    ) {
        let mut starts = vec![0u32];
        starts.extend(text.match_indices('\n').map(|(i, _)| i as u32 + 1));
        starts.push(text.len() as u32 + 1);
        let file = match disk {
            Some(disk) => sources.add_read(path.clone(), disk, text),
            None => sources.add(path.clone(), text),
        };
        self.files.insert(path, (file, starts));
    }

    /// The file id of a script read under `path`.
    pub(super) fn file(&self, path: &str) -> Option<FileId> {
        self.files.get(path).map(|(f, _)| *f)
    }

    /// The span of a line of a script, for call sites.
    pub(super) fn line_span(&self, path: &str, line: usize) -> Option<Span> {
        let (file, starts) = self.files.get(path)?;
        let start = *starts.get(line.checked_sub(1)?)?;
        let end = starts.get(line).map_or(start, |e| e.saturating_sub(1));
        Some(Span {
            file: *file,
            start,
            end,
        })
    }

    /// The span of a line of the script read as `file`.
    pub(super) fn line_span_in(&self, file: Option<FileId>, line: usize) -> Option<Span> {
        let file = file?;
        let path = self.files.iter().find(|(_, (f, _))| *f == file)?.0;
        self.line_span(path, line)
    }

    /// The span of a `path:line` entry (a traceback frame, or the start of a message) that names a
    /// script this runtime read.
    pub(super) fn at(&self, entry: &str) -> Option<Span> {
        let (path, line) = split_position(entry)?;
        self.line_span(path, line)
    }

    /// Where an error is: at the position its message starts with, if that is one of its frames;
    /// else at its innermost frame that is a script this runtime read.
    pub(super) fn locate(&self, message: &str, traceback: &[String]) -> Option<Span> {
        // A syntax error's message starts with the file the parser read: lantern named it.
        let message = message.strip_prefix("syntax error: ").unwrap_or(message);
        let claimed = split_position(message)
            .filter(|(path, line)| {
                traceback
                    .iter()
                    .filter_map(|t| split_position(t))
                    .any(|(p, l)| p == *path && l == *line)
                    || traceback.is_empty()
            })
            .and_then(|(path, line)| self.line_span(path, line));
        claimed.or_else(|| traceback.iter().find_map(|t| self.at(t)))
    }
}

impl ScriptFiles {
    /// Where the block a syntax error says is unclosed was opened: Lua's "`'end' expected (to
    /// close 'if' at line 3) near <eof>`" is noticed at the end of the file, but its cause is
    /// line 3. Only for a real syntax error's message (a script may write any text into an error).
    pub(super) fn opened_at(&self, syntax_message: &str) -> Option<Span> {
        let message = syntax_message.strip_prefix("syntax error: ")?;
        let (path, _) = split_position(message)?;
        let at = message.find("(to close '")? + "(to close '".len();
        let rest = &message[at..];
        let line = rest.split_once("' at line ")?.1;
        let digits = line.len() - line.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        self.line_span(path, line[..digits].parse().ok()?)
    }
}

/// `("rats/scripts/main.lua", 3)` from `rats/scripts/main.lua:3: ...` or `rats/scripts/main.lua:3`.
fn split_position(text: &str) -> Option<(&str, usize)> {
    let lua = text.find(".lua:")? + 4;
    let (path, rest) = (&text[..lua], &text[lua + 1..]);
    if path.contains(char::is_whitespace) {
        return None;
    }
    let digits = rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    let line = rest[..digits].parse().ok()?;
    Some((path, line))
}

/// A script error as a message and a short traceback (`file:line` entries, innermost first).
pub fn describe(e: &mlua::Error) -> (String, Vec<String>) {
    match e {
        mlua::Error::CallbackError { traceback, cause } => {
            let (message, mut inner) = describe(cause);
            if inner.is_empty() {
                inner = parse_traceback(traceback);
            }
            (message, inner)
        }
        mlua::Error::RuntimeError(text) => {
            let (message, tb) = text.split_once("\nstack traceback:").unwrap_or((text, ""));
            let message = message.trim();
            let message =
                super::unavailable::explained(message).unwrap_or_else(|| message.to_string());
            (message, parse_traceback(tb))
        }
        mlua::Error::SyntaxError { message, .. } => {
            (format!("syntax error: {message}"), Vec::new())
        }
        mlua::Error::MemoryError(_) => (
            "out of memory: the scripts passed the memory limit (a memory bomb?)".into(),
            Vec::new(),
        ),
        mlua::Error::WithContext { cause, .. } => describe(cause),
        mlua::Error::BadArgument {
            to,
            pos,
            name,
            cause,
        } => {
            let which = match name {
                Some(name) => format!("argument `{name}`"),
                None => format!("argument #{pos}"),
            };
            let of = to
                .as_ref()
                .map(|t| format!(" of `{t}`"))
                .unwrap_or_default();
            let (why, _) = describe(cause);
            (format!("{which}{of} {why}"), Vec::new())
        }
        mlua::Error::FromLuaConversionError { from, to, .. } => {
            let wanted = lua_type_of(to);
            let article = |t: &str| {
                if t == "nil" {
                    ""
                } else if t.starts_with(['a', 'e', 'i', 'o', 'u']) {
                    "an "
                } else {
                    "a "
                }
            };
            (
                format!(
                    "must be {}{wanted}, not {}{from}",
                    article(wanted),
                    article(from)
                ),
                Vec::new(),
            )
        }
        other => (
            other
                .to_string()
                .lines()
                .next()
                .unwrap_or_default()
                .to_string(),
            Vec::new(),
        ),
    }
}

/// The Lua name of a Rust type an argument was converted to (`String` is a string, `i64` an integer).
fn lua_type_of(rust: &str) -> &str {
    match rust {
        "String" | "&str" | "string" | "BString" => "string",
        "i8" | "i16" | "i32" | "i64" | "isize" | "u8" | "u16" | "u32" | "u64" | "usize"
        | "integer" => "integer",
        "f32" | "f64" | "number" => "number",
        "bool" | "boolean" => "boolean",
        other => other,
    }
}

/// Whether a script error is the memory limit, however deeply it was wrapped.
pub(super) fn is_memory(e: &mlua::Error) -> bool {
    match e {
        mlua::Error::MemoryError(_) => true,
        mlua::Error::CallbackError { cause, .. } | mlua::Error::WithContext { cause, .. } => {
            is_memory(cause)
        }
        _ => false,
    }
}

fn parse_traceback(tb: &str) -> Vec<String> {
    tb.lines()
        .map(str::trim)
        .filter(|l| {
            !l.is_empty() && !l.starts_with("[C]") && !l.starts_with("[string \"lantern\"]")
        })
        .filter_map(|l| {
            l.split(": in ")
                .next()
                .map(|s| s.trim_end_matches(':').to_string())
        })
        .filter(|s| s.contains(".lua:"))
        .take(6)
        .collect()
}

/// `file:line` of the Lua code calling into the API.
pub(crate) fn call_site(lua: &mlua::Lua) -> Option<(String, usize)> {
    // mlua's own Lua wrappers (its `__index` that falls back to a metamethod) and C functions (a
    // bound function's closure, `pcall`) stand between a script and the function it reached;
    // the script's frame is the first one above them.
    for level in 1..=4 {
        let frame = lua.inspect_stack(level, |d| {
            let src = d.source().source?;
            if src.starts_with("=__mlua") || src == "=[C]" {
                return Some(None);
            }
            let place = src.trim_start_matches('@').to_string();
            Some(Some((place, d.current_line()?)))
        })?;
        match frame {
            Some(None) => continue,
            Some(Some(site)) => return Some(site),
            None => return None,
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn files() -> ScriptFiles {
        let mut sources = SourceMap::new();
        let mut files = ScriptFiles::default();
        files.add(
            &mut sources,
            "a/scripts/main.lua".into(),
            None,
            "x\ny\nz\n".into(),
        );
        files.add(
            &mut sources,
            "b/scripts/main.lua".into(),
            None,
            "p\nq\n".into(),
        );
        files
    }

    #[test]
    fn a_message_is_placed_where_it_says_when_that_is_one_of_its_frames() {
        let f = files();
        let tb = vec!["a/scripts/main.lua:2".to_string()];
        let span = f.locate("a/scripts/main.lua:2: boom", &tb).unwrap();
        assert_eq!(span, f.line_span("a/scripts/main.lua", 2).unwrap());
    }

    #[test]
    fn a_message_that_names_another_mods_file_stays_at_its_own_frames() {
        let f = files();
        let tb = vec!["a/scripts/main.lua:3".to_string()];
        let span = f.locate("b/scripts/main.lua:1: not me", &tb).unwrap();
        assert_eq!(span, f.line_span("a/scripts/main.lua", 3).unwrap());
        // Text in the middle of a message is never a place.
        let span = f.locate("boom (see b/scripts/main.lua:1)", &tb).unwrap();
        assert_eq!(span, f.line_span("a/scripts/main.lua", 3).unwrap());
    }

    #[test]
    fn positions_are_read_only_from_the_start() {
        assert_eq!(
            split_position("a/scripts/main.lua:12: x"),
            Some(("a/scripts/main.lua", 12))
        );
        assert_eq!(split_position("[load] a/scripts/main.lua:1: x"), None);
        assert_eq!(split_position("no place"), None);
    }
}
