//! Reading TOML text into serde types, turning every parse and type error into a [`Diagnostic`]
//! at its span, with "did you mean" for unknown keys.

use crate::diag::Code;
use crate::diag::{did_you_mean, Diagnostic, FileId, Span};
use serde::de::DeserializeOwned;
use toml::de::{DeTable, DeValue, ValueDeserializer};
use toml::Spanned;

/// Deserializes one spanned TOML value (a table of a data file, a whole manifest) into `T`.
/// `what` names the thing for messages ("item", "manifest").
pub(crate) fn from_value<T: DeserializeOwned>(
    value: Spanned<DeValue<'_>>,
    file: FileId,
    what: &str,
) -> Result<T, Diagnostic> {
    let whole = value.span();
    T::deserialize(ValueDeserializer::from(value))
        .map_err(|e| error_to_diagnostic(&e, file, whole, what, None))
}

/// Every independent mistake in one value, not only the first serde stops at: each bad key is
/// reported and taken out, and the rest deserialized again. Returns the messages, and the value
/// without its bad keys when what is left is still a whole `T` (so references to it do not turn
/// into errors of their own). Only for the error path: it deserializes once per mistake.
pub(crate) fn all_errors<T: DeserializeOwned>(
    mut value: Spanned<DeValue<'_>>,
    file: FileId,
    what: &str,
) -> (Vec<Diagnostic>, Option<T>) {
    const MOST: usize = 16;
    let whole = value.span();
    let mut diags: Vec<Diagnostic> = Vec::new();
    let mut removed: Vec<String> = Vec::new();
    // Unknown keys reported so far, not yet matched with a missing one: diagnostic index, key.
    let mut unknown: Vec<(usize, String)> = Vec::new();
    for _ in 0..MOST {
        let e = match T::deserialize(ValueDeserializer::from(value.clone())) {
            Ok(t) => return (diags, Some(t)),
            Err(e) => e,
        };
        let message = first_line(e.message());
        let span = e.span().unwrap_or(whole.clone());
        // A key this loop took out is missing now: that is its own doing, not a second mistake.
        let missing = message
            .strip_prefix("missing field `")
            .and_then(|r| r.strip_suffix('`'));
        let missing_removed = missing.is_some_and(|f| removed.iter().any(|r| r == f));
        // A required key written with a typo (`onn` for `on`) is one mistake: the unknown key's
        // message says the key it meant is required, and no second message says it is missing.
        // So is the only unknown key when this is the only missing one (`tag` for `value`).
        let misspelt = missing.and_then(|f| {
            let near = unknown
                .iter()
                .position(|(_, typed)| did_you_mean(typed, [f]).is_some());
            let i = near.or((unknown.len() == 1).then_some(0))?;
            Some((unknown.remove(i), f, near.is_some()))
        });
        if let Some(((at, typed), field, near)) = &misspelt {
            let known = diags[*at].help.take().unwrap_or_default();
            diags[*at].help = Some(if *near {
                format!("did you mean `{field}`? every {what} needs it")
            } else {
                format!(
                    "every {what} needs the key `{field}`: is `{typed}` meant to be it? {known}"
                )
                .trim_end()
                .to_string()
            });
        }
        let key = key_at(&value, &span);
        if parse_unknown_field(message).is_some() {
            if let Some(k) = &key {
                unknown.push((diags.len(), k.clone()));
            }
        }
        if !missing_removed && misspelt.is_none() {
            let d = error_to_diagnostic(&e, file, whole.clone(), what, key.as_deref());
            diags.push(match (one_for_many::<T>(&value, &span, message), &key) {
                (Some(one), Some(k)) if !k.is_empty() => {
                    d.with_help(format!("write it as an array: `{k} = [{one}]`"))
                }
                _ => d,
            });
        }
        match remove_at(&mut value, &span) {
            Some(name) => removed.push(name),
            None => break,
        }
    }
    (diags, None)
}

/// `depends = "core"` or `actions = { action = "heal" }`: one value where `T` reads an array.
/// The one value as an array would hold it (`"core"`, `{ ... }`), when `T` reads the key once
/// it is written as an array of that one value (so the help is not given where it would be
/// wrong: `actions = "heal"`).
fn one_for_many<T: DeserializeOwned>(
    value: &Spanned<DeValue<'_>>,
    span: &std::ops::Range<usize>,
    message: &str,
) -> Option<String> {
    let (one, expected) = match message.strip_prefix("invalid type: string \"") {
        Some(rest) => {
            let (text, expected) = rest.split_once("\", expected ")?;
            (format!("\"{text}\""), expected)
        }
        None => (
            " { ... } ".to_string(),
            message.strip_prefix("invalid type: map, expected ")?,
        ),
    };
    if plain_type(expected) != "an array" {
        return None;
    }
    let mut probe = value.clone();
    if !wrap_in_array(&mut probe, span) {
        return None;
    }
    let reads = match T::deserialize(ValueDeserializer::from(probe)) {
        Ok(_) => true,
        Err(e) => e
            .span()
            .is_none_or(|s| s.end <= span.start || span.end <= s.start),
    };
    reads.then_some(one)
}

/// Puts the value at exactly `span` into an array of its own; whether there was one.
fn wrap_in_array(value: &mut Spanned<DeValue<'_>>, span: &std::ops::Range<usize>) -> bool {
    if value.span() == *span {
        let whole = value.span();
        let one = std::mem::replace(value, Spanned::new(whole.clone(), DeValue::Boolean(false)));
        let mut array = toml::de::DeArray::new();
        array.push(one);
        *value = Spanned::new(whole, DeValue::Array(array));
        return true;
    }
    let inside = |s: std::ops::Range<usize>| s.start <= span.start && span.end <= s.end;
    match value.get_mut() {
        DeValue::Table(t) => t
            .iter_mut()
            .find(|(_, v)| inside(v.span()))
            .is_some_and(|(_, v)| wrap_in_array(v, span)),
        DeValue::Array(a) => a
            .iter_mut()
            .find(|v| inside(v.span()))
            .is_some_and(|v| wrap_in_array(v, span)),
        _ => false,
    }
}

/// The name of the innermost key whose value holds `span`.
fn key_at(value: &Spanned<DeValue<'_>>, span: &std::ops::Range<usize>) -> Option<String> {
    let inside = |s: std::ops::Range<usize>| s.start <= span.start && span.end <= s.end;
    match value.get_ref() {
        DeValue::Table(t) => t.iter().find_map(|(k, v)| {
            let here = inside(v.span()) || inside(k.span());
            here.then(|| key_at(v, span).unwrap_or_else(|| k.get_ref().to_string()))
        }),
        DeValue::Array(a) => a
            .iter()
            .find_map(|v| inside(v.span()).then(|| key_at(v, span)).flatten()),
        _ => None,
    }
}

/// Takes out the smallest key or array element that holds `span` (not the whole value) and
/// returns the name of the key it was, or under.
fn remove_at(value: &mut Spanned<DeValue<'_>>, span: &std::ops::Range<usize>) -> Option<String> {
    let inside = |s: std::ops::Range<usize>| s.start <= span.start && span.end <= s.end;
    match value.get_mut() {
        DeValue::Table(t) => {
            let (key, at_key) = t
                .iter()
                .find(|(k, v)| inside(v.span()) || inside(k.span()))
                .map(|(k, _)| (k.clone(), inside(k.span())))?;
            let name = key.get_ref().to_string();
            // A mistake at the key itself (an unknown key) takes the key out, even when its
            // value's span holds the key too (`[[quests.stages]]`: each table of the array
            // starts at its header, which names the key).
            let deeper = t.get_mut(&key).and_then(|v| {
                let exact = v.span() == *span;
                (!exact && !at_key).then(|| remove_at(v, span)).flatten()
            });
            if deeper.is_none() {
                t.remove(&key);
            }
            Some(name)
        }
        DeValue::Array(a) => {
            let i = a.iter().position(|v| inside(v.span()))?;
            if a[i].span() != *span {
                if let Some(name) = remove_at(&mut a.as_mut()[i], span) {
                    return Some(name);
                }
            }
            let kept: toml::de::DeArray<'_> = std::mem::replace(a, toml::de::DeArray::new())
                .into_iter()
                .enumerate()
                .filter(|(j, _)| *j != i)
                .map(|(_, v)| v)
                .collect();
            *a = kept;
            Some(String::new())
        }
        _ => None,
    }
}

/// The most syntax errors kept from one file: the first is the cause, the rest mostly follow.
const MOST_SYNTAX_ERRORS: usize = 16;

/// Parses a whole document, keeping its first syntax errors.
pub(crate) fn parse_document(
    text: &str,
    file: FileId,
) -> Result<Spanned<DeTable<'_>>, Vec<Diagnostic>> {
    let (table, errors) = DeTable::parse_recoverable(text);
    if errors.is_empty() {
        Ok(table)
    } else {
        // Each is placed by a scan of the text before it, so a file that is one mistake after
        // another (line endings of carriage returns alone: one per line) is read for the first few.
        Err(errors
            .iter()
            .take(MOST_SYNTAX_ERRORS)
            .map(|e| syntax_error(e, file, text))
            .collect())
    }
}

fn syntax_error(e: &toml::de::Error, file: FileId, text: &str) -> Diagnostic {
    let span = e.span().unwrap_or(text.len()..text.len());
    let message = first_line(e.message());
    // A missing `]` or `}` is noticed only where the next thing starts, often lines later: point
    // at the bracket that was never closed, and say where the parser noticed.
    if let Some(open) = unclosed_bracket(&text[..span.start.min(text.len())]) {
        let (what, close) = if text.as_bytes()[open] == b'[' {
            ("array", ']')
        } else {
            ("inline table", '}')
        };
        return Diagnostic::error(
            Code::TomlSyntax,
            format!("TOML syntax error: this {what} is never closed"),
        )
        .at(Span::new(file, open..open + 1))
        .with_label(
            Span::new(file, span),
            format!("the parser noticed here: {message}"),
        )
        .with_help(format!("add `{close}` where the {what} ends"));
    }
    Diagnostic::error(Code::TomlSyntax, format!("TOML syntax error: {message}"))
        .at(Span::new(file, span))
}

/// The offset of the innermost `[` or `{` of a value that is still open at the end of `text`,
/// skipping strings, comments and table headers (`[[items]]`).
fn unclosed_bracket(text: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut open: Vec<usize> = Vec::new();
    let mut i = 0;
    let mut line_start = true;
    while i < bytes.len() {
        let b = bytes[i];
        match b {
            b'\n' => line_start = true,
            b' ' | b'\t' | b'\r' => {}
            b'#' => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            b'"' | b'\'' => {
                let triple = bytes[i..].starts_with(if b == b'"' { b"\"\"\"" } else { b"'''" });
                let step = if triple { 3 } else { 1 };
                i += step;
                while i < bytes.len() {
                    if b == b'"' && bytes[i] == b'\\' {
                        i += 2;
                        continue;
                    }
                    if bytes[i] == b && (!triple || bytes[i..].starts_with(&[b, b, b])) {
                        i += step;
                        break;
                    }
                    if !triple && bytes[i] == b'\n' {
                        break;
                    }
                    i += 1;
                }
                line_start = false;
                continue;
            }
            b'[' if line_start && open.is_empty() => {
                // A table header: to the end of its line.
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            b'[' | b'{' => {
                open.push(i);
                line_start = false;
            }
            b']' | b'}' => {
                open.pop();
                line_start = false;
            }
            _ => line_start = false,
        }
        i += 1;
    }
    open.last().copied()
}

/// Rewrites serde's messages into the project's voice and adds suggestions.
pub(crate) fn error_to_diagnostic(
    e: &toml::de::Error,
    file: FileId,
    whole: std::ops::Range<usize>,
    what: &str,
    key: Option<&str>,
) -> Diagnostic {
    let span = Span::new(file, e.span().unwrap_or(whole));
    let message = first_line(e.message());
    if let Some((field, expected)) = parse_unknown_field(message) {
        let help = did_you_mean(&field, expected.iter().map(String::as_str)).or_else(|| {
            (!expected.is_empty()).then(|| format!("known keys: {}", expected.join(", ")))
        });
        return Diagnostic::error(Code::UnknownKey, format!("unknown key `{field}` in {what}"))
            .at(span)
            .with_help_opt(help);
    }
    // `count` in quest, or the quest itself when the key is not known.
    let place = match key.filter(|k| !k.is_empty()) {
        Some(k) => format!("`{k}` in {what}"),
        None => what.to_string(),
    };
    if let Some((value, expected)) = parse_unknown_variant(message) {
        let help = did_you_mean(&value, expected.iter().map(String::as_str))
            .unwrap_or_else(|| format!("one of: {}", expected.join(", ")));
        return Diagnostic::error(
            Code::UnknownReference,
            format!("unknown value `{value}` for {place}"),
        )
        .at(span)
        .with_help(help);
    }
    if let Some(field) = message
        .strip_prefix("missing field `")
        .and_then(|r| r.strip_suffix('`'))
    {
        return Diagnostic::error(
            Code::MissingKey,
            format!("{what} is missing the required key `{field}`"),
        )
        .at(span);
    }
    if let Some(rest) = message.strip_prefix("invalid type: ") {
        let (found, expected) = rest
            .split_once(", expected ")
            .unwrap_or((rest, "another type"));
        // An integer past what TOML's 64 bits hold reaches serde as an i128.
        if let Some(n) = found
            .strip_prefix("integer `")
            .and_then(|r| r.strip_suffix("` as i128"))
        {
            let (least, most) = integer_range(expected);
            let bound = if n.starts_with('-') {
                format!("at least {least}")
            } else {
                format!("at most {most}")
            };
            return Diagnostic::error(
                Code::OutOfRange,
                format!("{place} must be {bound}, found {n}"),
            )
            .at(span);
        }
        let place = match key.filter(|k| !k.is_empty()) {
            Some(k) => format!("wrong type for `{k}` in {what}"),
            None => format!("wrong type in {what}"),
        };
        // `chance = "0.5"`: a number written as a string.
        let unquoted = found
            .strip_prefix("string \"")
            .and_then(|r| r.strip_suffix('"'))
            .filter(|v| v.trim().parse::<f64>().is_ok())
            .filter(|_| matches!(plain_type(expected), "an integer" | "a number"));
        let d = Diagnostic::error(
            Code::WrongType,
            format!(
                "{place}: expected {}, found {}",
                plain_type(expected),
                plain_found(found)
            ),
        )
        .at(span);
        return match (unquoted, key) {
            (Some(v), Some(k)) => {
                d.with_help(format!("write the number without quotes: `{k} = {v}`"))
            }
            _ => d,
        };
    }
    Diagnostic::error(Code::WrongType, format!("in {what}: {message}")).at(span)
}

/// The smallest and largest value of the integer type serde names (`u32`), as text.
fn integer_range(expected: &str) -> (String, String) {
    match expected {
        "u8" => ("0".into(), u8::MAX.to_string()),
        "u16" => ("0".into(), u16::MAX.to_string()),
        "u32" => ("0".into(), u32::MAX.to_string()),
        "u64" | "usize" => ("0".into(), u64::MAX.to_string()),
        "i8" => (i8::MIN.to_string(), i8::MAX.to_string()),
        "i16" => (i16::MIN.to_string(), i16::MAX.to_string()),
        "i32" => (i32::MIN.to_string(), i32::MAX.to_string()),
        _ => (i64::MIN.to_string(), i64::MAX.to_string()),
    }
}

/// Serde's Rust type names in a modder's words.
fn plain_type(expected: &str) -> &str {
    match expected {
        "i64" | "u32" | "u64" | "i32" | "usize" => "an integer",
        "f64" | "f32" | "a number" | "a number (an integer or a float)" => "a number",
        "a sequence" => "an array",
        "a map" => "a table",
        "a boolean" => "true or false",
        other => other,
    }
}

/// What serde found, in the same words: a TOML table is a table, an array an array.
fn plain_found(found: &str) -> String {
    match found {
        "map" => "a table".into(),
        "sequence" => "an array".into(),
        other => match other.strip_prefix("floating point ") {
            Some(n) => format!("the number {}", n.trim_matches('`')),
            None => match other.strip_prefix("integer ") {
                Some(n) => format!("the integer {}", n.trim_matches('`')),
                None => other.to_string(),
            },
        },
    }
}

fn first_line(message: &str) -> &str {
    message.lines().next().unwrap_or(message).trim()
}

/// `unknown field `x`, expected one of `a`, `b`` → (`x`, [`a`, `b`]).
fn parse_unknown_field(message: &str) -> Option<(String, Vec<String>)> {
    split_names(message.strip_prefix("unknown field `")?)
}

/// `unknown variant `x`, expected one of `a`, `b`` (an enum's value: a room's `kind`) → (`x`,
/// [`a`, `b`]).
fn parse_unknown_variant(message: &str) -> Option<(String, Vec<String>)> {
    split_names(message.strip_prefix("unknown variant `")?)
}

/// `x`, expected one of `a`, `b` (the opening quote already taken) → (`x`, [`a`, `b`]).
fn split_names(rest: &str) -> Option<(String, Vec<String>)> {
    let (field, rest) = rest.split_once('`')?;
    let expected = rest
        .split('`')
        .skip(1)
        .step_by(2)
        .map(str::to_string)
        .collect();
    Some((field.to_string(), expected))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bracket_left_open_is_found() {
        assert_eq!(unclosed_bracket("a = [1, 2\n"), Some(4));
        assert_eq!(unclosed_bracket("[[items]]\nx = { a = [1] \n"), Some(14));
        assert_eq!(unclosed_bracket("a = \"[\" # [\nb = [1]\n"), None);
        assert_eq!(unclosed_bracket("[table]\nb = '''['''\n"), None);
    }

    #[test]
    fn unknown_field_messages_are_understood() {
        let (field, expected) =
            parse_unknown_field("unknown field `nmae`, expected one of `id`, `name`").unwrap();
        assert_eq!(field, "nmae");
        assert_eq!(expected, vec!["id", "name"]);
        let (_, expected) = parse_unknown_field("unknown field `x`, expected `id`").unwrap();
        assert_eq!(expected, vec!["id"]);
        let (_, expected) = parse_unknown_field("unknown field `x`, there are no fields").unwrap();
        assert!(expected.is_empty());
    }
}
