//! What the cursor is in: in a TOML file, the table and key it writes (a key being typed, or the
//! string value of a key), with the keys written before it in the same table; in Lua, a string
//! argument of a call or a field after `lantern.` or a handler's `ev.`.

use super::scan::{toml_tokens, Token};
use std::ops::Range;

/// Where in a data file the cursor is.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum TomlAt {
    /// Typing a key of the table at `table` (`["encounters", "options"]`; arrays left out).
    Key {
        table: Vec<String>,
        /// The keys already written in that table with their string values (`action = "give_item"`).
        siblings: Vec<(String, String)>,
        /// Those of the table it stands in, for a table inside an entry (a trigger's `on` for the
        /// keys of its `when = { ... }`).
        outer: Vec<(String, String)>,
        /// The part typed so far.
        typed: Range<usize>,
    },
    /// Inside the string value of `key` (or of an element of its array) in the table at `table`.
    Value {
        table: Vec<String>,
        key: String,
        siblings: Vec<(String, String)>,
        /// The string's contents typed so far (from its opening quote to the cursor).
        typed: Range<usize>,
    },
    /// Somewhere nothing is offered (a comment, a number, a table header).
    Elsewhere,
}

/// A table or an array the cursor stands in, opened before it.
#[derive(Debug)]
enum Frame {
    Table {
        path: Vec<String>,
        /// The key being written, and whether its `=` came (a value is next).
        key: Vec<String>,
        value_next: bool,
        siblings: Vec<(String, String)>,
        /// Inline (`{ ... }`): a line break does not end an entry.
        inline: bool,
    },
    Array {
        path: Vec<String>,
        /// The key the array is the value of (its elements are that key's values).
        key: String,
    },
}

/// The deepest the cursor's context is followed into arrays and inline tables; the loader refuses
/// data nested deeper (`quick_toml`'s bound).
const DEEPEST: usize = 32;

/// Reads `text` up to `offset` and says what the cursor is in.
pub(super) fn toml_at(text: &str, offset: usize) -> TomlAt {
    let mut stack = vec![table(Vec::new(), false)];
    let mut tokens = toml_tokens(text).into_iter().peekable();
    let mut header = false;
    while let Some(token) = tokens.next() {
        let start = match &token {
            Token::Str { inner, .. } => inner.start.saturating_sub(1),
            Token::Word(r) => r.start,
            Token::Punct(_, at) | Token::Newline(at) => *at,
        };
        if start >= offset {
            break;
        }
        match token {
            Token::Newline(_) => {
                header = false;
                if let Some(Frame::Table {
                    inline: false,
                    key,
                    value_next,
                    ..
                }) = stack.last_mut()
                {
                    key.clear();
                    *value_next = false;
                }
            }
            Token::Punct(b'[', _) if at_line_start(&stack) => {
                // A header: `[a.b]` or `[[a.b]]`; everything until `]` is its path.
                header = true;
                let mut path = Vec::new();
                for t in tokens.by_ref() {
                    match t {
                        Token::Word(r) | Token::Str { inner: r, .. } => {
                            path.push(text[r].to_string())
                        }
                        Token::Punct(b']', _) | Token::Newline(_) => break,
                        _ => {}
                    }
                }
                stack = vec![table(path, false)];
            }
            // Each frame holds its whole path: nesting past what data files use is no place to
            // offer anything, and 16,000 nested inline tables made paths of quadratic size.
            Token::Punct(b'[' | b'{', _) if stack.len() >= DEEPEST => return TomlAt::Elsewhere,
            Token::Punct(b'[', _) => {
                let (path, key) = value_home(&stack);
                stack.push(Frame::Array { path, key });
            }
            Token::Punct(b'{', _) => {
                let (path, _) = value_home(&stack);
                stack.push(table(path, true));
            }
            Token::Punct(b']' | b'}', _) => {
                if stack.len() > 1 {
                    stack.pop();
                }
                value_written(&mut stack, None);
            }
            Token::Punct(b'=', _) => {
                if let Some(Frame::Table { value_next, .. }) = stack.last_mut() {
                    *value_next = true;
                }
            }
            Token::Punct(b',', _) => {
                if let Some(Frame::Table {
                    key, value_next, ..
                }) = stack.last_mut()
                {
                    key.clear();
                    *value_next = false;
                }
            }
            Token::Punct(..) => {}
            Token::Str { inner, .. } => {
                if inner.end >= offset {
                    return in_string(&stack, inner.start..offset);
                }
                key_or_value(&mut stack, text[inner].to_string());
            }
            Token::Word(r) => {
                if r.end >= offset {
                    // The cursor is at the end of this word: a key being typed, or a number.
                    return match expects_key(&stack) && !header {
                        true => key_at(&stack, r.start..offset),
                        false => TomlAt::Elsewhere,
                    };
                }
                key_or_value(&mut stack, text[r].to_string());
            }
        }
    }
    if header {
        return TomlAt::Elsewhere;
    }
    if expects_key(&stack) {
        return key_at(&stack, offset..offset);
    }
    TomlAt::Elsewhere
}

fn table(path: Vec<String>, inline: bool) -> Frame {
    Frame::Table {
        path,
        key: Vec::new(),
        value_next: false,
        siblings: Vec::new(),
        inline,
    }
}

/// Whether a `[` here opens a header: at a line's start in a top-level table.
fn at_line_start(stack: &[Frame]) -> bool {
    matches!(stack, [Frame::Table { key, value_next: false, inline: false, .. }] if key.is_empty())
}

/// Whether the innermost frame expects a key.
fn expects_key(stack: &[Frame]) -> bool {
    matches!(
        stack.last(),
        Some(Frame::Table {
            value_next: false,
            ..
        })
    )
}

/// The table path and key a value opened here belongs to.
fn value_home(stack: &[Frame]) -> (Vec<String>, String) {
    match stack.last() {
        Some(Frame::Table { path, key, .. }) => {
            let mut path = path.clone();
            path.extend(key.iter().cloned());
            let last = key.last().cloned().unwrap_or_default();
            (path, last)
        }
        Some(Frame::Array { path, key }) => (path.clone(), key.clone()),
        None => (Vec::new(), String::new()),
    }
}

/// A word or a closed string: a key (part of a dotted one) or a value.
fn key_or_value(stack: &mut [Frame], text: String) {
    match stack.last_mut() {
        Some(Frame::Table {
            key,
            value_next: false,
            ..
        }) => key.push(text),
        _ => value_written(stack, Some(text)),
    }
}

/// A value ended: a table remembers a string one under its key.
fn value_written(stack: &mut [Frame], value: Option<String>) {
    if let Some(Frame::Table {
        key,
        value_next,
        siblings,
        ..
    }) = stack.last_mut()
    {
        if *value_next {
            if let (Some(v), false) = (value, key.is_empty()) {
                siblings.push((key.join("."), v));
            }
            // The entry ended; in an inline table a `,` comes next, at the top a line break.
            *value_next = false;
            key.clear();
        }
    }
}

fn key_at(stack: &[Frame], typed: Range<usize>) -> TomlAt {
    let outer = stack
        .iter()
        .rev()
        .skip(1)
        .find_map(|f| match f {
            Frame::Table { siblings, .. } => Some(siblings.clone()),
            Frame::Array { .. } => None,
        })
        .unwrap_or_default();
    match stack.last() {
        Some(Frame::Table {
            path,
            key,
            siblings,
            ..
        }) => {
            let mut table = path.clone();
            table.extend(key.iter().cloned());
            TomlAt::Key {
                table,
                siblings: siblings.clone(),
                outer,
                typed,
            }
        }
        _ => TomlAt::Elsewhere,
    }
}

fn in_string(stack: &[Frame], typed: Range<usize>) -> TomlAt {
    match stack.last() {
        Some(Frame::Table {
            path,
            key,
            value_next: true,
            siblings,
            ..
        }) => {
            let mut table = path.clone();
            let Some((last, before)) = key.split_last() else {
                return TomlAt::Elsewhere;
            };
            table.extend(before.iter().cloned());
            TomlAt::Value {
                table,
                key: last.clone(),
                siblings: siblings.clone(),
                typed,
            }
        }
        Some(Frame::Array { path, key }) => {
            let table = path[..path.len().saturating_sub(1)].to_vec();
            let siblings = match stack.iter().rev().nth(1) {
                Some(Frame::Table { siblings, .. }) => siblings.clone(),
                _ => Vec::new(),
            };
            TomlAt::Value {
                table,
                key: key.clone(),
                siblings,
                typed,
            }
        }
        // A quoted key.
        Some(Frame::Table { .. }) => key_at(stack, typed),
        None => TomlAt::Elsewhere,
    }
}

/// Where in a Lua file the cursor is.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum LuaAt {
    /// Inside a string that is the first argument of `function` (`lantern.on`, `lantern.emit_event`,
    /// `g:give`): the string's contents typed so far.
    Str {
        function: String,
        typed: Range<usize>,
    },
    /// After `object.` (`lantern.`, `lantern.game.`, `ev.`): the field typed so far.
    Field {
        object: String,
        typed: Range<usize>,
    },
    Elsewhere,
}

/// Reads the Lua text around `offset`.
pub(super) fn lua_at(text: &str, offset: usize) -> LuaAt {
    use super::scan::{string_at, Lang};
    let offset = offset.min(text.len());
    if let Some(inner) = string_at(text, Lang::Lua, offset) {
        let before = text[..inner.start.saturating_sub(1)].trim_end();
        let before = before.strip_suffix('(').unwrap_or(before).trim_end();
        let function = trailing_name(before, b".:");
        return LuaAt::Str {
            function: function.to_string(),
            typed: inner.start..offset,
        };
    }
    let b = text.as_bytes();
    let mut start = offset;
    while start > 0 && (b[start - 1].is_ascii_alphanumeric() || b[start - 1] == b'_') {
        start -= 1;
    }
    if start > 0 && b[start - 1] == b'.' {
        let object = trailing_name(&text[..start - 1], b".");
        if !object.is_empty() {
            return LuaAt::Field {
                object: object.to_string(),
                typed: start..offset,
            };
        }
    }
    LuaAt::Elsewhere
}

/// The dotted (or `:`-called) name that `text` ends with: `lantern.on`, `g:give`.
fn trailing_name<'a>(text: &'a str, joins: &[u8]) -> &'a str {
    let b = text.as_bytes();
    let mut start = b.len();
    while start > 0
        && (b[start - 1].is_ascii_alphanumeric()
            || b[start - 1] == b'_'
            || joins.contains(&b[start - 1]))
    {
        start -= 1;
    }
    &text[start..]
}

/// The event of the handler the cursor is in: the nearest `lantern.on("name"` before it.
pub(super) fn handler_event(text: &str, offset: usize) -> Option<String> {
    let before = &text[..offset.min(text.len())];
    let at = before.rfind("lantern.on(")?;
    let rest = before[at + "lantern.on(".len()..].trim_start();
    let quote = rest.chars().next().filter(|c| *c == '"' || *c == '\'')?;
    let name = &rest[1..];
    Some(name[..name.find(quote)?].to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(text_with_cursor: &str) -> (TomlAt, String) {
        let offset = text_with_cursor.find('|').unwrap();
        let text = text_with_cursor.replacen('|', "", 1);
        (toml_at(&text, offset), text)
    }

    fn value(t: &str) -> (Vec<String>, String, Vec<(String, String)>, String) {
        match at(t) {
            (
                TomlAt::Value {
                    table,
                    key,
                    siblings,
                    typed,
                },
                text,
            ) => (table, key, siblings, text[typed].to_string()),
            (other, _) => panic!("not a value: {other:?}"),
        }
    }

    fn key(t: &str) -> (Vec<String>, Vec<(String, String)>, String) {
        match at(t) {
            (
                TomlAt::Key {
                    table,
                    siblings,
                    typed,
                    ..
                },
                text,
            ) => (table, siblings, text[typed].to_string()),
            (other, _) => panic!("not a key: {other:?}"),
        }
    }

    fn s(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn nesting_past_what_data_files_use_offers_nothing_and_costs_no_more() {
        let deep = format!("x = {}\"", "{ a = ".repeat(16_000));
        assert_eq!(toml_at(&deep, deep.len()), TomlAt::Elsewhere);
    }

    #[test]
    fn a_value_in_an_inline_table_of_an_array_knows_its_siblings() {
        let (table, key, siblings, typed) = value(
            "[[triggers]]\non = \"damage_taken\"\nactions = [\n  { action = \"give_item\", item = \"core:g|\" },\n]\n",
        );
        assert_eq!(table, s(&["triggers", "actions"]));
        assert_eq!(key, "item");
        assert_eq!(
            siblings,
            vec![("action".to_string(), "give_item".to_string())]
        );
        assert_eq!(typed, "core:g");
    }

    #[test]
    fn an_element_of_a_string_array_is_its_key_value() {
        let (table, key, _, typed) = value("[[items]]\nid = \"x\"\ntags = [\"a\", \"b|");
        assert_eq!(
            (table, key, typed.as_str()),
            (s(&["items"]), "tags".to_string(), "b")
        );
    }

    #[test]
    fn keys_at_a_line_start_and_after_a_comma() {
        let (table, _, typed) = key("[[encounters.options]]\ntext = \"go\"\npro|");
        assert_eq!(
            (table, typed.as_str()),
            (s(&["encounters", "options"]), "pro")
        );
        let (table, siblings, typed) = key("[[quests]]\nactions = [{ action = \"heal\", |");
        assert_eq!(table, s(&["quests", "actions"]));
        assert_eq!(siblings, vec![("action".to_string(), "heal".to_string())]);
        assert_eq!(typed, "");
        let (table, _, _) = key("[[creatures]]\nid = \"rat\"\n|");
        assert_eq!(table, s(&["creatures"]));
        // A table inside an entry knows the entry's keys.
        let (at, _) = at("[[triggers]]\non = \"damage_taken\"\nwhen = { am|");
        let TomlAt::Key { table, outer, .. } = at else {
            panic!("{at:?}")
        };
        assert_eq!(table, s(&["triggers", "when"]));
        assert_eq!(outer, vec![("on".to_string(), "damage_taken".to_string())]);
    }

    #[test]
    fn a_top_level_value_and_nothing_in_a_header_or_after_a_number() {
        let (table, key, _, typed) = value("[[quests]]\non = \"da|\"");
        assert_eq!(
            (table, key, typed.as_str()),
            (s(&["quests"]), "on".to_string(), "da")
        );
        assert_eq!(at("[[cre|").0, TomlAt::Elsewhere);
        assert_eq!(at("[[creatures]]\nhealth = 4|").0, TomlAt::Elsewhere);
    }

    #[test]
    fn lua_strings_name_their_function_and_fields_their_object() {
        let text = "lantern.on(\"dam\", function(ev) return ev.am end)";
        let cursor = text.find("dam").unwrap() + 3;
        assert_eq!(
            lua_at(text, cursor),
            LuaAt::Str {
                function: "lantern.on".into(),
                typed: 12..cursor
            }
        );
        let cursor = text.find("ev.am").unwrap() + 5;
        assert_eq!(
            lua_at(text, cursor),
            LuaAt::Field {
                object: "ev".into(),
                typed: cursor - 2..cursor
            }
        );
        assert_eq!(handler_event(text, cursor).as_deref(), Some("dam"));
        let g = "g:give('core:s";
        assert_eq!(
            lua_at(g, g.len()),
            LuaAt::Str {
                function: "g:give".into(),
                typed: 8..g.len()
            }
        );
    }
}
