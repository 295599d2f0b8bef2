//! Signature help: inside the parentheses of a call to lantern's Lua API (`lantern.emit_event(`),
//! the function's parameters and documentation, from the same table the LuaLS definitions are
//! written from, with the parameter the cursor is in.

use super::scan::{strings, Lang};
use super::vocabulary::{signature, Vocabulary};
use lsp_types::{
    Documentation, ParameterInformation, ParameterLabel, SignatureHelp, SignatureInformation,
};

/// How far back from the cursor a call's opening parenthesis is looked for.
const LOOK_BACK: usize = 4096;

/// The signature of the API call whose arguments `offset` is in, if it is one.
pub(super) fn help(words: &Vocabulary, text: &str, offset: usize) -> Option<SignatureHelp> {
    let (name, argument) = call_at(text, offset)?;
    let doc = words.api.iter().find(|d| d.function && d.path == name)?;
    let parameters = doc
        .params
        .iter()
        .map(|(n, t)| ParameterInformation {
            label: ParameterLabel::Simple(format!("{n}: {t}")),
            documentation: None,
        })
        .collect();
    Some(SignatureHelp {
        signatures: vec![SignatureInformation {
            label: signature(doc),
            documentation: Some(Documentation::String(doc.doc.to_string())),
            parameters: Some(parameters),
            active_parameter: None,
        }],
        active_signature: Some(0),
        active_parameter: Some(argument),
    })
}

/// The dotted name of the call whose parentheses hold `offset`, and which of its arguments the
/// cursor is in (from 0; in a table argument, the table's place is not told apart); strings and
/// nested brackets skipped.
fn call_at(text: &str, offset: usize) -> Option<(String, u32)> {
    let offset = offset.min(text.len());
    let from = offset.saturating_sub(LOOK_BACK);
    let from = (from..=offset).find(|&i| text.is_char_boundary(i))?;
    let quoted: Vec<std::ops::Range<usize>> = strings(text, Lang::Lua)
        .into_iter()
        .map(|(inner, _)| inner.start.saturating_sub(1)..inner.end + 1)
        .filter(|r| r.start < offset && r.start >= from)
        .collect();
    let b = text.as_bytes();
    let (mut depth, mut commas, mut i) = (0i32, 0u32, offset);
    while i > from {
        i -= 1;
        if let Some(q) = quoted.iter().find(|q| q.contains(&i)) {
            i = q.start;
            continue;
        }
        match b[i] {
            b')' | b']' | b'}' => depth += 1,
            // The cursor is inside a table given as an argument: its commas were the table's.
            b'[' | b'{' if depth == 0 => commas = 0,
            b'[' | b'{' => depth -= 1,
            b'(' if depth == 0 => {
                let end = i;
                let mut start = end;
                while start > 0
                    && (b[start - 1].is_ascii_alphanumeric() || b"_.".contains(&b[start - 1]))
                {
                    start -= 1;
                }
                return (start < end).then(|| (text[start..end].to_string(), commas));
            }
            b'(' => depth -= 1,
            b',' if depth == 0 => commas += 1,
            _ => {}
        }
        if depth < 0 {
            return None;
        }
    }
    None
}
