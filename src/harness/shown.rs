//! A script's value as a failed matcher shows it, cut before it is made: `{ count = 3, done = true }`,
//! `"text"`, `nil`.
//!
//! A test may compare or print values of any size, and some tests are hostile: a failure message
//! that formatted a whole 20 MB table took seconds and megabytes for a line nobody reads. What is
//! shown is bounded as it is built: three tables deep, [`MOST_ENTRIES`] entries a table, text cut
//! at [`MOST_CHARS`] characters, the whole at [`MOST_BYTES`]; every entry looked at is charged to
//! the test's budget. Text shows as escapes what would forge a line (control characters) or read
//! as something else (bytes that are not UTF-8, as `\xNN`).

use mlua::{Lua, Table, Value};
use std::fmt::Write;

/// The table under a read-only view (what `g:storage` returns), so matchers compare and show the
/// values and not the empty view.
pub(super) fn seen_through(v: &Value) -> Value {
    if let Value::Table(t) = v {
        if let Some(copy) = t
            .metatable()
            .and_then(|mt| mt.raw_get::<Option<Table>>("__copy").ok().flatten())
        {
            return Value::Table(copy);
        }
    }
    v.clone()
}

/// The most entries of one table a message shows.
const MOST_ENTRIES: usize = 16;

/// The most entries of one table looked at to choose what to show: past the shown ones, a few
/// more to find keys that are not in the table's sequence.
const MOST_LOOKED_AT: usize = 64;

/// The most characters of one text a message shows.
const MOST_CHARS: usize = 60;

/// The most bytes one shown value takes.
pub(super) const MOST_BYTES: usize = 400;

/// How deep into tables a message shows.
const DEEPEST: usize = 3;

/// What walking one entry from Rust costs, in instructions' worth.
pub(super) const ENTRY: usize = 20;

/// `v` as a message shows it, at most [`MOST_BYTES`] long, charged to the running test.
pub(super) fn show(lua: &Lua, v: &Value) -> mlua::Result<String> {
    let mut out = Shown {
        lua,
        text: String::new(),
    };
    out.value(v, 0)?;
    if out.text.len() > MOST_BYTES {
        let end = floor_char_boundary(&out.text, MOST_BYTES);
        out.text.truncate(end);
        out.text.push('…');
    }
    Ok(out.text)
}

/// Text as a message shows it: quoted, escaped, cut at [`MOST_CHARS`] characters with its length.
pub(super) fn quoted(bytes: &[u8]) -> String {
    let cut = cut(bytes);
    let mut out = String::from("\"");
    for chunk in bytes[..cut].utf8_chunks() {
        for c in chunk.valid().chars() {
            match c {
                '\\' => out.push_str("\\\\"),
                '"' => out.push_str("\\\""),
                c => out.push_str(&crate::diag::visible(c.encode_utf8(&mut [0; 4]))),
            }
        }
        for b in chunk.invalid() {
            let _ = write!(out, "\\x{b:02x}");
        }
    }
    if cut < bytes.len() {
        let _ = write!(out, "…\" ({} bytes)", bytes.len());
    } else {
        out.push('"');
    }
    out
}

/// A message's part from text a script gave (an error, a pattern): escaped and cut as [`quoted`]
/// cuts, without the quotes.
pub(super) fn excerpt(text: &str) -> String {
    let cut = cut(text.as_bytes());
    let mut out = crate::diag::visible(&text[..cut]).into_owned();
    if cut < text.len() {
        let _ = write!(out, "… ({} bytes)", text.len());
    }
    out
}

/// Where text is cut: after [`MOST_CHARS`] characters (a bad byte counts as one).
fn cut(bytes: &[u8]) -> usize {
    let mut chars = 0;
    let mut at = 0;
    for chunk in bytes.utf8_chunks() {
        for (i, _) in chunk.valid().char_indices() {
            if chars == MOST_CHARS {
                return at + i;
            }
            chars += 1;
        }
        at += chunk.valid().len();
        for _ in chunk.invalid() {
            if chars == MOST_CHARS {
                return at;
            }
            chars += 1;
            at += 1;
        }
    }
    bytes.len()
}

fn floor_char_boundary(text: &str, at: usize) -> usize {
    (0..=at.min(text.len()))
        .rev()
        .find(|i| text.is_char_boundary(*i))
        .unwrap_or(0)
}

struct Shown<'a> {
    lua: &'a Lua,
    text: String,
}

impl Shown<'_> {
    fn full(&self) -> bool {
        self.text.len() > MOST_BYTES
    }

    fn value(&mut self, v: &Value, depth: usize) -> mlua::Result<()> {
        if self.full() {
            return Ok(());
        }
        match &seen_through(v) {
            Value::Nil => self.text.push_str("nil"),
            Value::Boolean(b) => {
                let _ = write!(self.text, "{b}");
            }
            Value::Integer(i) => {
                let _ = write!(self.text, "{i}");
            }
            Value::Number(n) => {
                let _ = write!(self.text, "{n}");
            }
            Value::String(s) => self.text.push_str(&quoted(&s.as_bytes())),
            Value::Table(t) if depth < DEEPEST => self.table(t, depth)?,
            Value::Table(_) => self.text.push_str("{ ... }"),
            other => {
                let _ = write!(self.text, "<{}>", other.type_name());
            }
        }
        Ok(())
    }

    /// A table: its sequence in order, then its other entries sorted by how their keys show.
    fn table(&mut self, t: &Table, depth: usize) -> mlua::Result<()> {
        let len = t.raw_len();
        let mut items = Vec::new();
        let mut more = false;
        let mut looked_at = 0;
        for pair in t.clone().pairs::<Value, Value>() {
            looked_at += 1;
            crate::lua::price::charge(self.lua, ENTRY)?;
            if looked_at > MOST_LOOKED_AT || items.len() == MOST_ENTRIES {
                more = true;
                break;
            }
            let Ok((k, v)) = pair else { continue };
            let in_sequence = matches!(k, Value::Integer(i) if i >= 1 && (i as usize) <= len);
            if !in_sequence {
                let key = match &k {
                    Value::String(s) if is_name(&s.as_bytes()) => s.to_string_lossy(),
                    other => {
                        let mut key = Shown {
                            lua: self.lua,
                            text: String::from("["),
                        };
                        key.value(other, DEEPEST)?;
                        key.text.push(']');
                        key.text
                    }
                };
                items.push((key, v));
            }
        }
        items.sort_by(|a, b| a.0.cmp(&b.0));
        self.text.push('{');
        let mut first = true;
        for i in 1..=len.min(MOST_ENTRIES) {
            if self.full() {
                break;
            }
            self.text.push_str(if first { " " } else { ", " });
            first = false;
            let v: Value = t.raw_get(i)?;
            self.value(&v, depth + 1)?;
        }
        more |= len > MOST_ENTRIES;
        for (key, v) in items.iter().take(MOST_ENTRIES.saturating_sub(len)) {
            if self.full() {
                break;
            }
            self.text.push_str(if first { " " } else { ", " });
            first = false;
            self.text.push_str(key);
            self.text.push_str(" = ");
            self.value(v, depth + 1)?;
        }
        more |= items.len() + len.min(MOST_ENTRIES) > MOST_ENTRIES;
        if more {
            self.text.push_str(if first { " …" } else { ", …" });
        }
        self.text.push_str(if first && !more { "}" } else { " }" });
        Ok(())
    }
}

/// Whether a key shows bare, as Lua lets it be written: `count = 3`, not `["count"] = 3`.
fn is_name(bytes: &[u8]) -> bool {
    bytes.len() <= MOST_CHARS
        && bytes
            .first()
            .is_some_and(|b| b.is_ascii_alphabetic() || *b == b'_')
        && bytes
            .iter()
            .all(|b| b.is_ascii_alphanumeric() || *b == b'_')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shown(lua: &Lua, code: &str) -> String {
        let v: Value = lua.load(code).eval().unwrap();
        show(lua, &v).unwrap()
    }

    #[test]
    fn values_show_as_lua_writes_them() {
        let lua = Lua::new();
        assert_eq!(
            shown(&lua, "{ count = 3, done = true }"),
            "{ count = 3, done = true }"
        );
        assert_eq!(shown(&lua, "{ 1, 2, 'x' }"), r#"{ 1, 2, "x" }"#);
        assert_eq!(shown(&lua, "{}"), "{}");
        assert_eq!(shown(&lua, "{ { { { 1 } } } }"), "{ { { { ... } } } }");
        assert_eq!(shown(&lua, "{ ['a b'] = 1 }"), r#"{ ["a b"] = 1 }"#);
        assert_eq!(shown(&lua, "nil"), "nil");
    }

    #[test]
    fn big_values_are_cut_before_they_are_made() {
        let lua = Lua::new();
        let wide = shown(
            &lua,
            "local t = {} for i = 1, 100000 do t['k' .. i] = i end return t",
        );
        assert!(
            wide.len() <= MOST_BYTES + 4 && wide.ends_with(", … }"),
            "{wide}"
        );
        let long = shown(
            &lua,
            "local t = {} for i = 1, 100000 do t[i] = i end return t",
        );
        assert!(
            long.starts_with("{ 1, 2, 3") && long.ends_with("16, … }"),
            "{long}"
        );
        let text = shown(&lua, "return string.rep('x', 1000000)");
        assert_eq!(text, format!("\"{}…\" (1000000 bytes)", "x".repeat(60)));
        let many = shown(
            &lua,
            "local t = {} for i = 1, 16 do t[i] = string.rep('y', 60) end return t",
        );
        assert!(
            many.len() <= MOST_BYTES + 4 && many.ends_with('…'),
            "{many}"
        );
    }

    #[test]
    fn text_shows_what_would_forge_a_line_or_read_alike() {
        let lua = Lua::new();
        assert_eq!(shown(&lua, r#"return "a\nb\"\\""#), r#""a\nb\"\\""#);
        assert_eq!(shown(&lua, r#"return "\xff\xfe""#), r#""\xff\xfe""#);
        assert_eq!(excerpt("line\n\x1b[2J"), "line\\n\\x1b[2J");
    }
}
