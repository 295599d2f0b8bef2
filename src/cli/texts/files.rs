//! The locale TOML and JSON forms of a mod's texts, and reading any of the three formats back.
//! Both hold texts by their dotted keys, a plural's forms as a table of CLDR categories below its
//! key, as lantern's locale files and go-i18n's do.

use super::{Forms, Imported};
use crate::diag::{Code, Diagnostic, FileId, Span};
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// A locale file of `texts`, each by its dotted key, a plural's forms below it; with `made_from`
/// the `[made_from]` table that lets `check` tell a translation gone stale.
pub(super) fn toml(
    mod_id: &str,
    lang: &str,
    translation: bool,
    texts: &BTreeMap<String, Forms>,
    made_from: &BTreeMap<String, String>,
) -> String {
    let mut file = if translation {
        format!("# The texts of `{mod_id}` in `{lang}`.\n")
    } else {
        format!(
            "# Every text of `{mod_id}` a player reads, in its own language (`{lang}`): copy this file\n\
             # to locale/<language>.toml and translate each text, keeping its {{arguments}}.\n"
        )
    };
    for (key, forms) in texts {
        for (form, text) in forms {
            let key = match form {
                Some(form) => format!("{}.{form}", dotted(key)),
                None => dotted(key),
            };
            let _ = writeln!(file, "{key} = {}", quoted(text));
        }
    }
    if !made_from.is_empty() {
        let _ = writeln!(file, "\n[{}]", crate::content::locale::MADE_FROM);
        for (key, source) in made_from {
            let _ = writeln!(file, "{} = {}", quoted(key), quoted(source));
        }
    }
    file
}

/// `texts` as one JSON object, nested by the keys' parts.
pub(super) fn json(texts: &BTreeMap<String, Forms>) -> String {
    let mut root = serde_json::Map::new();
    for (key, forms) in texts {
        let mut at = &mut root;
        let mut parts: Vec<&str> = key.split('.').collect();
        let last = parts.pop().unwrap_or_default();
        for part in parts {
            let next = at
                .entry(part)
                .or_insert_with(|| serde_json::Value::Object(Default::default()));
            if !next.is_object() {
                *next = serde_json::Value::Object(Default::default());
            }
            let serde_json::Value::Object(map) = next else {
                unreachable!("made an object just above")
            };
            at = map;
        }
        let value = match forms.as_slice() {
            [(None, text)] => serde_json::Value::String(text.clone()),
            forms => serde_json::Value::Object(
                (forms.iter())
                    .map(|(f, t)| (f.unwrap_or("other").to_string(), t.clone().into()))
                    .collect(),
            ),
        };
        at.insert(last.to_string(), value);
    }
    let mut out = serde_json::to_string_pretty(&root).unwrap_or_default();
    out.push('\n');
    out
}

/// Reads a translated file of `format`; the first thing wrong with it at its line otherwise.
pub(super) fn read(
    format: super::TextFormat,
    text: &str,
    file: FileId,
    by_source: &dyn Fn(&str) -> Vec<String>,
) -> Result<Imported, Diagnostic> {
    match format {
        super::TextFormat::Po => super::po::read(text, file, by_source),
        super::TextFormat::Toml => read_toml(text, file),
        super::TextFormat::Json => read_json(text, file),
    }
}

/// A locale TOML file, read as a mod's locale file is (its `[made_from]` kept).
fn read_toml(text: &str, file: FileId) -> Result<Imported, Diagnostic> {
    let mut diags = Vec::new();
    let texts = crate::content::locale::read_texts(text, file, &mut diags);
    let made_from = crate::content::locale::read_made_from(text, file, &mut diags);
    if let Some(first) = diags.into_iter().find(Diagnostic::is_error) {
        return Err(first);
    }
    let mut imported = Imported::default();
    for (key, text, _) in texts {
        imported.texts.insert(key, super::forms_of(&text));
    }
    for (key, source, _) in made_from {
        imported.made_from.insert(key, source);
    }
    Ok(imported)
}

/// How deep a JSON file's objects may nest: a key is a table, a name and a field or two.
const MOST_NESTED: usize = 16;

/// A JSON file of nested objects: strings are texts, an object of plural categories a plural.
fn read_json(text: &str, file: FileId) -> Result<Imported, Diagnostic> {
    let value: serde_json::Value = serde_json::from_str(text).map_err(|e| {
        let offset = offset_of(text, e.line(), e.column());
        Diagnostic::error(Code::Locale, format!("the file is not JSON: {e}"))
            .at(Span::new(file, offset..offset))
    })?;
    let mut imported = Imported::default();
    let whole = Span::new(file, 0..0);
    flatten(&value, String::new(), 0, &mut imported, whole)?;
    Ok(imported)
}

fn flatten(
    value: &serde_json::Value,
    key: String,
    depth: usize,
    imported: &mut Imported,
    at: Span,
) -> Result<(), Diagnostic> {
    let wrong = |what: String| Diagnostic::error(Code::Locale, what).at(at);
    if depth > MOST_NESTED {
        return Err(wrong(format!(
            "`{}` nests deeper than {MOST_NESTED}",
            crate::diag::visible(&key)
        )));
    }
    match value {
        serde_json::Value::String(text) if !key.is_empty() => {
            if !text.is_empty() {
                imported.texts.insert(key, vec![(None, text.clone())]);
            } else {
                imported.untranslated += 1;
            }
            Ok(())
        }
        serde_json::Value::Object(map) if is_plural(map) && !key.is_empty() => {
            let forms: Forms = (crate::content::locale::PLURAL_FORMS.iter())
                .filter_map(|c| match map.get(*c) {
                    Some(serde_json::Value::String(t)) if !t.is_empty() => {
                        Some((Some(*c), t.clone()))
                    }
                    _ => None,
                })
                .collect();
            if forms.is_empty() {
                imported.untranslated += 1;
            } else {
                imported.texts.insert(key, forms);
            }
            Ok(())
        }
        serde_json::Value::Object(map) => {
            for (k, v) in map {
                let inner = if key.is_empty() {
                    k.clone()
                } else {
                    format!("{key}.{k}")
                };
                flatten(v, inner, depth + 1, imported, at)?;
            }
            Ok(())
        }
        other => Err(wrong(format!(
            "`{}` is {}: a text is a string, a plural an object of its forms",
            crate::diag::visible(&key),
            match other {
                serde_json::Value::Null => "null",
                serde_json::Value::Bool(_) => "a boolean",
                serde_json::Value::Number(_) => "a number",
                serde_json::Value::Array(_) => "an array",
                _ => "not a text",
            }
        ))),
    }
}

/// Whether an object is a plural's forms: CLDR categories only, `other` among them.
fn is_plural(map: &serde_json::Map<String, serde_json::Value>) -> bool {
    map.contains_key("other")
        && map.iter().all(|(k, v)| {
            crate::content::locale::PLURAL_FORMS.contains(&k.as_str()) && v.is_string()
        })
}

/// The byte offset of a one-based line and column.
fn offset_of(text: &str, line: usize, column: usize) -> usize {
    let start: usize = text
        .split_inclusive('\n')
        .take(line.saturating_sub(1))
        .map(str::len)
        .sum();
    (start + column.saturating_sub(1)).min(text.len())
}

/// `key` as TOML's dotted key: each part bare when it may be, quoted when not.
fn dotted(key: &str) -> String {
    key.split('.')
        .map(|part| {
            let bare = !part.is_empty()
                && part
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
            if bare {
                part.to_string()
            } else {
                quoted(part)
            }
        })
        .collect::<Vec<_>>()
        .join(".")
}

/// `text` as a TOML basic string.
fn quoted(text: &str) -> String {
    let mut out = String::from("\"");
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() => {
                let _ = write!(out, "\\u{:04X}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_and_texts_are_written_as_toml_reads_them() {
        assert_eq!(dotted("items.rusty_key.name"), "items.rusty_key.name");
        assert_eq!(dotted("odd key.x"), "\"odd key\".x");
        assert_eq!(
            quoted("say \"hi\"\\\n\u{1b}"),
            "\"say \\\"hi\\\"\\\\\\n\\u001B\""
        );
        let text: toml::Table = toml::from_str(&format!(
            "{} = {}",
            dotted("a.\"b\""),
            quoted("x\"\\y\u{7}")
        ))
        .unwrap();
        assert_eq!(text["a"]["\"b\""].as_str(), Some("x\"\\y\u{7}"));
    }
}
