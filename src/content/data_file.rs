//! One data file read into raw definitions: by the quick reader when it can
//! ([`super::quick_read`]), else by `toml`, each array entry on its own so one bad entry costs
//! only itself; the entries of a game's tables read into the game's types; and each trigger's
//! line counted in one pass.

use super::raw::*;
use super::raw_defs::{HostEntry, RawDefs, Src, CREATURE_TABLES, TABLES};
use crate::content::declare::Declarations;
use crate::content::spanned::Spanned;
use crate::diag::Code;
use crate::diag::{did_you_mean, Diagnostic, FileId, Span};
use std::sync::Arc;

/// Parses one data file's text into `defs`, each `{ setting = "..." }` read as its value in
/// `settings`.
pub(crate) fn read_file(
    text: &str,
    file: FileId,
    ns: &Arc<str>,
    rules: &Declarations,
    settings: &super::DataSettings,
    defs: &mut RawDefs,
    diags: &mut Vec<Diagnostic>,
) {
    let mut read = Vec::new();
    let text = &*settings.substitute(text, file, ns, &mut read, diags);
    defs.settings_read
        .extend(read.into_iter().map(|id| (file, id)));
    // Most files are read by the quick reader; the rest, and every mistake, by `toml`.
    if !super::quick_read::read_file(text, file, ns, rules, defs) {
        read_file_with_toml(text, file, ns, rules, defs, diags);
    }
    number_triggers(text, file, defs);
}

/// Gives every trigger `file` defines (at the top level, carried by an item, a creature or an
/// entry of a game's table) the line it starts at, counted in one pass over the file's text.
fn number_triggers(text: &str, file: FileId, defs: &mut RawDefs) {
    /// Each trigger a definition carries, with where it starts.
    fn borne<'a>(list: &'a mut [Spanned<RawTrigger>], found: &mut Vec<(u32, &'a mut u32)>) {
        for t in list {
            found.push((t.span().start as u32, &mut t.get_mut().line));
        }
    }
    let mut found: Vec<(u32, &mut u32)> = Vec::new();
    for src in defs.triggers.iter_mut().filter(|s| s.file == file) {
        found.push((src.span.start, &mut src.raw.line));
    }
    for src in defs.items.iter_mut().filter(|s| s.file == file) {
        borne(&mut src.raw.triggers, &mut found);
    }
    for src in defs.creatures.iter_mut().filter(|s| s.file == file) {
        borne(&mut src.raw.triggers, &mut found);
    }
    for (_, src) in defs.host.iter_mut().filter(|(_, s)| s.file == file) {
        borne(&mut src.raw.triggers, &mut found);
    }
    found.sort_by_key(|(at, _)| *at);
    let lines = crate::diag::lines_at(text, found.iter().map(|(at, _)| *at));
    for ((_, line), n) in found.into_iter().zip(lines) {
        *line = n as u32;
    }
}

/// [`read_file`] by the `toml` crate alone: every file the quick reader does not read, and what
/// is wrong in it.
pub(super) fn read_file_with_toml(
    text: &str,
    file: FileId,
    ns: &Arc<str>,
    rules: &Declarations,
    defs: &mut RawDefs,
    diags: &mut Vec<Diagnostic>,
) {
    let doc = match crate::toml_file::parse_document(text, file) {
        Ok(doc) => doc.into_inner(),
        Err(errors) => {
            // The first syntax error is where the parser lost its way; what it reports after it
            // (and every reference to what the file defines) follows from that one.
            diags.extend(errors.into_iter().take(1));
            defs.broken
                .extend(ids_written(text).map(|id| (file, ns.to_string(), id, UNPARSED)));
            return;
        }
    };
    super::headers::stray(text, file, diags);
    for (key, value) in doc {
        let key_span = Span::new(file, key.span());
        let name: &str = key.get_ref();
        let host_table = rules.tables.iter().position(|t| t.key == name);
        let builtin = |t: &&&str| !(rules.without_creatures && CREATURE_TABLES.contains(*t));
        if !TABLES.iter().filter(builtin).any(|t| *t == name) && host_table.is_none() {
            let tables: Vec<&str> = TABLES
                .iter()
                .filter(builtin)
                .copied()
                .chain(rules.tables.iter().map(|t| t.key))
                .collect();
            let message = if CREATURE_TABLES.contains(&name) {
                format!(
                    "`{name}` is lantern's creature-and-inventory vocabulary, which the game `{}` does not use",
                    rules.namespace
                )
            } else {
                format!("unknown table `{name}` in a data file")
            };
            diags.push(
                Diagnostic::error(Code::UnknownTable, message)
                    .at(key_span)
                    .with_help_opt(did_you_mean(name, tables.iter().copied()).or(Some(format!(
                        "a data file holds these arrays: {}",
                        tables.join(", ")
                    )))),
            );
            // What its entries define is named elsewhere: those names follow from this table's.
            if let toml::de::DeValue::Array(entries) = value.get_ref() {
                let ids = entries.iter().filter_map(id_of);
                defs.broken
                    .extend(ids.map(|id| (file, ns.to_string(), id, IN_UNKNOWN_TABLE)));
            }
            continue;
        }
        let value_span = value.span();
        let toml::de::DeValue::Array(entries) = value.into_inner() else {
            diags.push(
                Diagnostic::error(
                    Code::WrongType,
                    format!("`{name}` must be an array of tables, written `[[{name}]]`"),
                )
                .at(Span::new(file, value_span)),
            );
            continue;
        };
        if let Some(t) = host_table {
            for entry in entries {
                read_host_entry(text, entry, file, ns, t, rules, defs, diags);
            }
            continue;
        }
        for entry in entries {
            let span = Span::new(file, entry.span());
            macro_rules! take {
                ($list:ident, $what:expr) => {{
                    let at = entry.span();
                    match crate::toml_file::from_value(entry, file, $what) {
                        Ok(raw) => defs.$list.push(Src {
                            ns: ns.clone(),
                            file,
                            span,
                            raw,
                        }),
                        Err(first) => {
                            // Read the entry again to report every mistake in it, not only the first.
                            match entry_again(text, name, at) {
                                Some(again) => {
                                    let id = id_of(&again);
                                    let (found, partial) =
                                        crate::toml_file::all_errors(again, file, $what);
                                    diags.extend(found);
                                    match partial {
                                        Some(raw) => defs.$list.push(Src {
                                            ns: ns.clone(),
                                            file,
                                            span,
                                            raw,
                                        }),
                                        None => defs.broken.extend(id.map(|id| (file, ns.to_string(), id, HAS_ERRORS))),
                                    }
                                }
                                None => diags.push(first),
                            }
                        }
                    }
                }};
            }
            match name {
                "tags" => take!(tags, "tag"),
                "rarities" => take!(rarities, "rarity"),
                "items" => take!(items, "item"),
                "creatures" => take!(creatures, "creature"),
                "triggers" => take!(triggers, "trigger"),
                "quests" => take!(quests, "quest"),
                "encounters" => take!(encounters, "encounter"),
                "event_types" => take!(event_types, "event type"),
                "progress_types" => take!(progress_types, "progress type"),
                "hazards" => take!(hazards, "hazard"),
                "cards" => take!(cards, "card"),
                _ => unreachable!("checked against TABLES above"),
            }
        }
    }
}

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
fn read_host_entry(
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
    // What the entry says, key by key (the entry's own span is its header's for `[[crops]]`).
    let mut written = String::new();
    for (k, v) in &fields {
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
    // The keys players read, as written (`Vocabulary::texts`).
    let texts: std::sync::Arc<[(&'static str, String)]> = (decl.texts.iter())
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
    let refs = qualify_refs(&mut fields, &decl.refs, ns);
    let triggers = match decl.in_play {
        Some(_) => entry_triggers(&mut fields, file, diags),
        None => Vec::new(),
    };
    let rest = toml::Spanned::new(whole.clone(), toml::de::DeValue::Table(fields));
    // When the entry does not read, it is read again to report every mistake: from the text, as
    // the game's type sees it (no `id` or `triggers`, its IDs made full). Only then.
    let mut again = || {
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
        Some(toml::Spanned::new(
            whole.clone(),
            toml::de::DeValue::Table(fields),
        ))
    };
    let (mut found, value) = (decl.read)(rest, file, decl.kind, &mut again);
    // serde knows the keys of the game's type; a modder writes `id` and `triggers` too.
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

/// Why a definition could not be read, as a reference to it says.
const HAS_ERRORS: &str = "has errors, see above";
const UNPARSED: &str = "is in a file that does not parse, see above";
const IN_UNKNOWN_TABLE: &str = "is in a table lantern does not know, see above";

/// The entry of `[[table]]` at `span`, parsed again from the text.
fn entry_again<'a>(
    text: &'a str,
    table: &str,
    span: std::ops::Range<usize>,
) -> Option<toml::Spanned<toml::de::DeValue<'a>>> {
    let doc = crate::toml_file::parse_document(text, FileId(0))
        .ok()?
        .into_inner();
    let (_, list) = doc.into_iter().find(|(k, _)| k.get_ref() == table)?;
    let toml::de::DeValue::Array(entries) = list.into_inner() else {
        return None;
    };
    entries.into_iter().find(|e| e.span() == span)
}

/// The `id` an entry gives itself, if it is a string.
fn id_of(entry: &toml::Spanned<toml::de::DeValue<'_>>) -> Option<String> {
    let id = entry.get_ref().as_table()?.get("id")?;
    id.get_ref().as_str().map(str::to_string)
}

/// The IDs a file that does not parse meant to define, from its `id = "..."` lines.
fn ids_written(text: &str) -> impl Iterator<Item = String> + '_ {
    text.lines().filter_map(|line| {
        let rest = line
            .trim_start()
            .strip_prefix("id")?
            .trim_start()
            .strip_prefix('=')?;
        let rest = rest.trim_start().strip_prefix('"')?;
        rest.split_once('"').map(|(id, _)| id.to_string())
    })
}
