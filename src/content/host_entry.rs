//! An entry of a game's own table (`[[crops]]`) read from a data file: its `id` and `triggers`
//! taken out, the IDs it names made full, its texts kept, the rest read into the game's type,
//! every mistake said at its key.

use super::raw::RawTrigger;
use super::raw_defs::{HostEntry, RawDefs, Src};
use super::reread::{entry_again, HAS_ERRORS};
use crate::content::declare::Declarations;
use crate::content::spanned::Spanned;
use crate::diag::Code;
use crate::diag::{did_you_mean, Diagnostic, FileId, Span};
use std::sync::Arc;

/// A game's table entry's `id`, taken out of its fields; `None`, said, when it has none or it
/// is not text.
fn entry_id(
    fields: &mut toml::de::DeTable<'_>,
    kind: &str,
    file: FileId,
    span: Span,
    diags: &mut Vec<Diagnostic>,
) -> Option<Spanned<String>> {
    let id = fields
        .iter()
        .find(|(k, _)| k.get_ref() == "id")
        .map(|(k, _)| k.clone())
        .and_then(|k| fields.remove(&k));
    let Some(v) = id else {
        diags.push(Diagnostic::error(Code::MissingKey, format!("a {kind} needs an `id`")).at(span));
        return None;
    };
    match v.get_ref().as_str() {
        Some(text) => Some(Spanned::new(v.span(), text.to_string())),
        None => {
            diags.push(
                Diagnostic::error(
                    Code::WrongType,
                    format!("`id` of a {kind} must be a string"),
                )
                .at(Span::new(file, v.span())),
            );
            None
        }
    }
}

/// The `triggers` of a game's table entry whose entries are in play, taken out of its fields;
/// what reads of them when some do not, every mistake said.
fn entry_triggers(
    fields: &mut toml::de::DeTable<'_>,
    file: FileId,
    diags: &mut Vec<Diagnostic>,
) -> Vec<Spanned<RawTrigger>> {
    let key = fields
        .iter()
        .find(|(k, _)| k.get_ref() == "triggers")
        .map(|(k, _)| k.clone());
    let Some(value) = key.and_then(|k| fields.remove(&k)) else {
        return Vec::new();
    };
    let copy = value.clone();
    match crate::toml_file::from_value::<Vec<Spanned<RawTrigger>>>(value, file, "trigger") {
        Ok(t) => t,
        Err(_) => {
            let (found, partial) =
                crate::toml_file::all_errors::<Vec<Spanned<RawTrigger>>>(copy, file, "trigger");
            diags.extend(found);
            partial.unwrap_or_default()
        }
    }
}

/// Reads one entry of a game's table: its `id`, then the rest into the game's type.
#[allow(clippy::too_many_arguments)]
pub(super) fn read_host_entry(
    text: &str,
    entry: toml::Spanned<toml::de::DeValue<'_>>,
    file: FileId,
    ns: &Arc<str>,
    table: usize,
    rules: &Declarations,
    defs: &mut RawDefs,
    diags: &mut Vec<Diagnostic>,
) {
    let decl = &rules.tables[table];
    let span = Span::new(file, entry.span());
    let whole = entry.span();
    let toml::de::DeValue::Table(mut fields) = entry.into_inner() else {
        diags.push(
            Diagnostic::error(
                Code::WrongType,
                format!(
                    "each entry of `{}` must be a table, written `[[{}]]`",
                    decl.key, decl.key
                ),
            )
            .at(span),
        );
        return;
    };
    // Without a usable `id` the rest is still read, so every mistake in the entry is reported.
    let id = entry_id(&mut fields, decl.kind, file, span, diags);
    let (written, keys, texts) = as_written(text, &fields, &decl.texts);
    let refs = qualify_refs(&mut fields, &decl.refs, ns);
    let triggers = match decl.in_play {
        Some(_) => entry_triggers(&mut fields, file, diags),
        None => Vec::new(),
    };
    let rest = toml::Spanned::new(whole.clone(), toml::de::DeValue::Table(fields));
    // When the entry does not read, it is read again to report every mistake: only then.
    let mut again = || read_again(text, decl, whole.clone(), ns);
    let (mut found, value) = (decl.read)(rest, file, decl.kind, &mut again);
    help_unknown_keys(&mut found, decl);
    diags.extend(found);
    let (id, value) = match (id, value) {
        (Some(id), Some(value)) => (id, value),
        (id, _) => {
            if !refs.is_empty() {
                defs.loose_refs.push(Src {
                    ns: ns.clone(),
                    file,
                    span,
                    raw: refs,
                });
            }
            // An entry with an `id` that cannot be read: a reference to it follows from that.
            if let Some(id) = id {
                defs.broken
                    .push((file, ns.to_string(), id.into_inner(), HAS_ERRORS));
            }
            return;
        }
    };
    defs.host.push((
        table,
        Src {
            ns: ns.clone(),
            file,
            span,
            raw: HostEntry {
                id,
                value,
                text: written.into(),
                texts,
                refs,
                triggers,
                keys,
            },
        },
    ));
}

/// The IDs an entry of a game's table names in its reference keys (one ID or an array of them, or
/// a key of tables inside it: `loot.item`), as written, for the resolver to check; each is replaced by its full form (`wheat` written in
/// the mod `valley` is `valley:wheat`) before the entry is read into the game's type, so the game
/// holds IDs it can look up. A value that is no ID is left as it is and reported by the resolver;
/// one of another type is the game's type's to report.
fn qualify_refs(
    fields: &mut toml::de::DeTable<'_>,
    refs: &[(&'static str, crate::content::vocab::FieldType)],
    ns: &str,
) -> Vec<(crate::content::vocab::FieldType, Spanned<String>)> {
    let mut found = Vec::new();
    for (path, ty) in refs {
        let mut keys = path.split('.');
        let Some(first) = keys.next() else {
            continue;
        };
        let rest: Vec<&str> = keys.collect();
        if let Some((_, value)) = fields.iter_mut().find(|(k, _)| k.get_ref() == first) {
            qualify_at(value, &rest, *ty, ns, &mut found);
        }
    }
    found
}

/// The IDs at `path` under `value` (`loot.item`: the `item` of each table in `loot`), made full:
/// an array is walked element by element at the same place in the path, a table by its key.
fn qualify_at(
    value: &mut toml::Spanned<toml::de::DeValue<'_>>,
    path: &[&str],
    ty: crate::content::vocab::FieldType,
    ns: &str,
    found: &mut Vec<(crate::content::vocab::FieldType, Spanned<String>)>,
) {
    use toml::de::DeValue;
    let span = value.span();
    match (value.get_mut(), path) {
        (DeValue::Array(items), _) => {
            for item in items.iter_mut() {
                qualify_at(item, path, ty, ns, found);
            }
        }
        (DeValue::Table(table), [key, rest @ ..]) => {
            if let Some((_, child)) = table.iter_mut().find(|(k, _)| k.get_ref() == key) {
                qualify_at(child, rest, ty, ns, found);
            }
        }
        (DeValue::String(text), []) => {
            found.push((ty, Spanned::new(span, text.to_string())));
            // `wheat` is `valley:wheat`; a full ID, and what is no ID, stay as written.
            if !text.contains(':') && crate::id::is_ident(text) && crate::id::is_ident(ns) {
                *text = std::borrow::Cow::Owned(format!("{ns}:{text}"));
            }
        }
        // Another type is the game's type's to report.
        _ => {}
    }
}

/// What an entry of a game's table says, as written: its text key by key (the entry's own span
/// is its header's for `[[crops]]`), each key with its value's place, and the keys players read
/// (`Vocabulary::texts`) with their text.
#[allow(clippy::type_complexity)]
fn as_written(
    text: &str,
    fields: &toml::de::DeTable<'_>,
    text_keys: &[&'static str],
) -> (
    String,
    Vec<(String, std::ops::Range<usize>)>,
    Arc<[(&'static str, String)]>,
) {
    let mut written = String::new();
    for (k, v) in fields {
        for part in [
            text.get(k.span()),
            Some("="),
            text.get(v.span()),
            Some("\n"),
        ] {
            written.push_str(part.unwrap_or_default());
        }
    }
    let keys = fields
        .iter()
        .map(|(k, v)| (k.get_ref().to_string(), v.span()))
        .collect();
    let texts = (text_keys.iter())
        .filter_map(|key| {
            let (_, v) = fields.iter().find(|(k, _)| {
                let k: &str = k.get_ref();
                k == *key
            })?;
            match v.get_ref() {
                toml::de::DeValue::String(s) => Some((*key, s.to_string())),
                _ => None,
            }
        })
        .collect();
    (written, keys, texts)
}

/// The entry at `whole` read again from the text, as the game's type sees it (no `id` or
/// `triggers`, its IDs made full), to report every mistake in it.
fn read_again<'t>(
    text: &'t str,
    decl: &crate::content::declare::TableDecl,
    whole: std::ops::Range<usize>,
    ns: &Arc<str>,
) -> Option<toml::Spanned<toml::de::DeValue<'t>>> {
    let entry = entry_again(text, decl.key, whole.clone())?;
    let toml::de::DeValue::Table(mut fields) = entry.into_inner() else {
        return None;
    };
    let taken: Vec<_> = fields
        .keys()
        .filter(|k| {
            let k: &str = k.get_ref();
            k == "id" || (decl.in_play.is_some() && k == "triggers")
        })
        .cloned()
        .collect();
    for k in &taken {
        fields.remove(k);
    }
    qualify_refs(&mut fields, &decl.refs, ns);
    Some(toml::Spanned::new(whole, toml::de::DeValue::Table(fields)))
}

/// Names the keys an unknown key might have meant: serde knows the keys of the game's type; a
/// modder writes `id` and `triggers` too.
fn help_unknown_keys(found: &mut [Diagnostic], decl: &crate::content::declare::TableDecl) {
    let known: Vec<&str> = std::iter::once("id")
        .chain(decl.keys.unwrap_or_default().iter().copied())
        .chain(decl.in_play.is_some().then_some("triggers"))
        .collect();
    for d in found.iter_mut().filter(|d| d.code == Code::UnknownKey) {
        if let Some(key) = d.message.split('`').nth(1) {
            d.help = did_you_mean(key, known.iter().copied())
                .or_else(|| Some(format!("known keys: {}", known.join(", "))));
        }
    }
}
