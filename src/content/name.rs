//! [`Name`]: one line of text a mod wrote for players (a name, a title, an option), which
//! prints only escaped. Its `Display` is the one way to show it, so a name with a line break
//! or a terminal escape cannot forge a line of lantern's (a prompt, a state hash) wherever it
//! is put; the text as written is reached only through [`Name::unescaped`], for a place that
//! escapes on its own (a Lua value, JSON) or compares it.

use serde::{Deserialize, Serialize};
use std::fmt;

/// One line of text a mod wrote for players. `Display` shows it with its line breaks and
/// control characters as escapes (`\n`, `\x1b`); widths and alignment (`{:<12}`) apply to
/// what is shown.
#[derive(Clone, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Name(String);

impl Name {
    /// The text as the mod wrote it, unescaped: for a place that escapes it itself (a Lua
    /// value, JSON, a locale template) or compares it, never for a terminal or a report.
    pub fn unescaped(&self) -> &str {
        &self.0
    }

    /// The text, for a translation to replace.
    pub(crate) fn written_mut(&mut self) -> &mut String {
        &mut self.0
    }
}

impl From<String> for Name {
    fn from(text: String) -> Self {
        Self(text)
    }
}

impl From<&str> for Name {
    fn from(text: &str) -> Self {
        Self(text.to_string())
    }
}

impl fmt::Display for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(&crate::diag::visible(&self.0))
    }
}

impl fmt::Debug for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.0, f)
    }
}

impl PartialEq<str> for Name {
    fn eq(&self, other: &str) -> bool {
        self.0 == other
    }
}

impl PartialEq<&str> for Name {
    fn eq(&self, other: &&str) -> bool {
        self.0 == *other
    }
}

#[cfg(test)]
mod tests {
    use super::Name;

    #[test]
    fn a_name_prints_escaped_and_keeps_what_was_written() {
        let name = Name::from("Rat\n> status\x1b[2J");
        assert_eq!(name.to_string(), "Rat\\n> status\\x1b[2J");
        assert_eq!(name.unescaped(), "Rat\n> status\x1b[2J");
        assert_eq!(format!("[{:<5}]", Name::from("ab")), "[ab   ]");
    }
}
