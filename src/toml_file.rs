//! Reading TOML text into serde types, turning every parse and type error into a [`Diagnostic`]
//! at its span, with "did you mean" for unknown keys.

use crate::diag::{did_you_mean, Diagnostic, FileId, Span};
use serde::de::DeserializeOwned;
use toml::de::{DeTable, DeValue, ValueDeserializer};
use toml::Spanned;

/// Deserializes one spanned TOML value (a table of a data file, a whole manifest) into `T`.
/// `what` names the thing for messages ("item", "manifest").
pub fn from_value<T: DeserializeOwned>(
    value: Spanned<DeValue<'_>>,
    file: FileId,
    what: &str,
) -> Result<T, Diagnostic> {
    let whole = value.span();
    T::deserialize(ValueDeserializer::from(value))
        .map_err(|e| error_to_diagnostic(&e, file, whole, what))
}

/// Parses a whole document, keeping every syntax error.
pub fn parse_document(text: &str, file: FileId) -> Result<Spanned<DeTable<'_>>, Vec<Diagnostic>> {
    let (table, errors) = DeTable::parse_recoverable(text);
    if errors.is_empty() {
        Ok(table)
    } else {
        Err(errors
            .iter()
            .map(|e| syntax_error(e, file, text.len()))
            .collect())
    }
}

fn syntax_error(e: &toml::de::Error, file: FileId, len: usize) -> Diagnostic {
    let span = e.span().unwrap_or(len..len);
    Diagnostic::error(format!("TOML syntax error: {}", first_line(e.message())))
        .at(Span::new(file, span))
}

/// Rewrites serde's messages into the project's voice and adds suggestions.
pub fn error_to_diagnostic(
    e: &toml::de::Error,
    file: FileId,
    whole: std::ops::Range<usize>,
    what: &str,
) -> Diagnostic {
    let span = Span::new(file, e.span().unwrap_or(whole));
    let message = first_line(e.message());
    if let Some((field, expected)) = parse_unknown_field(message) {
        let help = did_you_mean(&field, expected.iter().map(String::as_str)).or_else(|| {
            (!expected.is_empty()).then(|| format!("known keys: {}", expected.join(", ")))
        });
        return Diagnostic::error(format!("unknown key `{field}` in {what}"))
            .at(span)
            .with_help_opt(help);
    }
    if let Some(field) = message
        .strip_prefix("missing field `")
        .and_then(|r| r.strip_suffix('`'))
    {
        return Diagnostic::error(format!("{what} is missing the required key `{field}`")).at(span);
    }
    if let Some(rest) = message.strip_prefix("invalid type: ") {
        let (found, expected) = rest
            .split_once(", expected ")
            .unwrap_or((rest, "something else"));
        return Diagnostic::error(format!(
            "wrong type in {what}: expected {}, found {found}",
            plain_type(expected)
        ))
        .at(span);
    }
    Diagnostic::error(format!("in {what}: {message}")).at(span)
}

/// Serde's Rust type names in a modder's words.
fn plain_type(expected: &str) -> &str {
    match expected {
        "i64" | "u32" | "u64" | "i32" | "usize" => "an integer",
        "f64" | "f32" | "a number" => "a number",
        "a sequence" => "an array",
        "a map" => "a table",
        "a boolean" => "true or false",
        other => other,
    }
}

fn first_line(message: &str) -> &str {
    message.lines().next().unwrap_or(message).trim()
}

/// `unknown field `x`, expected one of `a`, `b`` → (`x`, [`a`, `b`]).
fn parse_unknown_field(message: &str) -> Option<(String, Vec<String>)> {
    let rest = message.strip_prefix("unknown field `")?;
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
