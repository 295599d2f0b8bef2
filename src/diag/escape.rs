//! Text a mod controls, made safe to show: control characters visibly escaped.
//!
//! Names, messages, printed output, source lines and file names come from mods, and some mods are
//! hostile. Shown raw, an escape sequence recolours or retitles the player's terminal (ESC, OSC),
//! a carriage return or a backspace overwrites what lantern wrote, a newline forges a line of
//! lantern's own (a summary, a TAP result), and a bidirectional override makes a line read other
//! than it is. [`visible`] shows each such character as an escape (`\n`, `\x1b`, `\u{202e}`), so
//! what reaches a terminal or a report is only what lantern meant. Tabs are kept: they only move
//! the cursor right, and source lines are full of them. JSON needs none of this (serde escapes
//! control characters); the report formats add their own rules on top (`harness::report`).

use std::borrow::Cow;

/// How `c` is shown, when it is not shown as itself.
fn escaped(c: char) -> Option<String> {
    match c {
        '\t' => None,
        '\n' => Some("\\n".into()),
        '\r' => Some("\\r".into()),
        '\u{0}'..='\u{1f}' | '\u{7f}'..='\u{9f}' => Some(format!("\\x{:02x}", c as u32)),
        // Bidirectional controls and invisible marks: a line that reads other than it is.
        '\u{61c}'
        | '\u{200b}'..='\u{200f}'
        | '\u{202a}'..='\u{202e}'
        | '\u{2066}'..='\u{2069}'
        | '\u{feff}' => Some(format!("\\u{{{:x}}}", c as u32)),
        _ => None,
    }
}

/// Whether [`visible`] shows `c` as an escape.
pub fn needs_escape(c: char) -> bool {
    c != '\t' && (c.is_control() || escaped(c).is_some())
}

/// `text` with every control character (newlines included), bidirectional control and invisible
/// mark shown as an escape; tabs are kept. Borrowed when there is nothing to escape.
pub fn visible(text: &str) -> Cow<'_, str> {
    if !text.chars().any(needs_escape) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match escaped(c) {
            Some(e) => out.push_str(&e),
            None => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// As [`visible`], keeping line breaks: for a whole output of lantern's whose lines are its own
/// (a play session's answer, a report), where every mod's text inside was made [`visible`]
/// already or is the game's multi-line text (a room's description).
pub fn visible_lines(text: &str) -> Cow<'_, str> {
    if !text.chars().any(|c| c != '\n' && needs_escape(c)) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match escaped(c) {
            Some(e) if c != '\n' => out.push_str(&e),
            _ => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// How each character of `text` is shown: itself, or its escape.
pub(super) fn shown_chars(text: &str) -> impl Iterator<Item = Cow<'static, str>> + '_ {
    text.chars().map(|c| match escaped(c) {
        Some(e) => Cow::Owned(e),
        None => Cow::Owned(c.to_string()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_are_shown_not_obeyed() {
        assert_eq!(visible("plain `core:gold`\tok"), "plain `core:gold`\tok");
        assert_eq!(
            visible("x\n1 error, 0 warnings\r\x1b]0;owned\x07\x08"),
            "x\\n1 error, 0 warnings\\r\\x1b]0;owned\\x07\\x08"
        );
        assert_eq!(visible("abc\u{202e}fed"), "abc\\u{202e}fed");
        assert_eq!(visible("\u{9b}31m"), "\\x9b31m");
        assert!(matches!(visible("nothing to do"), Cow::Borrowed(_)));
        assert_eq!(
            visible_lines("a room\nwith \x1b[2Ja view\r"),
            "a room\nwith \\x1b[2Ja view\\r"
        );
    }
}
