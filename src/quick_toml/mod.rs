//! A quick reader for the plain TOML data files are written in, beside the `toml` crate.
//!
//! Parsing a big pack's data with `toml` is most of what loading or checking it costs (about 20,000
//! instructions a definition, 120 a byte, before serde reads a field). This module reads the shape
//! data files take (`[[items]]` and `[[encounters.options]]` headers, `key = value` lines, strings,
//! numbers, booleans, arrays and inline tables) into a tree of borrowed text with spans, and
//! deserializes serde types from it as `toml`'s deserializer does, spans (`toml::Spanned`)
//! included.
//!
//! It is only ever a shortcut, and gives up ([`GaveUp`]) on whatever it does not know for
//! certain: a dotted key, a date, an escape or an inline table of TOML 1.1, a header that would
//! make a table implicitly, a sub-table header (`[[a.b]]`) right under another table's header, a
//! value serde will not take, any mistake at all. The caller then reads
//! the file with `toml`, whose messages are the ones a modder sees. So it never takes a text `toml`
//! refuses nor reads one differently; tests compare the two over generated documents and every
//! data file the repository ships.
//!
//! It knows nothing of lantern: no diagnostics, no mods, no content.

mod de;
mod parse;

pub(crate) use de::from_item;
pub(crate) use parse::parse;
use std::borrow::Cow;

/// The reader met something it does not read: read the text with `toml` instead.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct GaveUp;

/// A table's keys and values, in the order written.
pub(crate) type Entries<'a> = Vec<(Cow<'a, str>, Item<'a>)>;

/// A value and where it is written: byte offsets into the text, as `toml` spans it (a string
/// with its quotes, an array with its brackets, a table opened by a header at its header).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Item<'a> {
    pub start: u32,
    pub end: u32,
    pub value: Value<'a>,
}

/// A TOML value, as far as this reader reads them.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Value<'a> {
    /// A string, borrowed from the text unless it holds an escape.
    Str(Cow<'a, str>),
    Int(i64),
    Float(f64),
    Bool(bool),
    /// An array: written `[...]`, or (`headed`) made by `[[name]]` headers.
    Array {
        items: Vec<Item<'a>>,
        headed: bool,
    },
    /// A table: written `{...}`, or (`headed`) opened by a `[name]` or `[[name]]` header.
    Table {
        entries: Entries<'a>,
        headed: bool,
    },
}

impl std::fmt::Display for GaveUp {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("not read by the quick reader")
    }
}

impl std::error::Error for GaveUp {}

#[cfg(test)]
mod tests;
