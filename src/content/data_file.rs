//! One data file read into raw definitions: by the quick reader when it can
//! ([`super::quick_read`]), else by `toml`, each array entry on its own so one bad entry costs
//! only itself (an entry of a game's table by `host_entry.rs`); and each trigger's line counted
//! in one pass.

use super::by_file::ByFile;
use super::host_entry::read_host_entry;
use super::raw::*;
use super::raw_defs::{RawDefs, Src, CREATURE_TABLES, TABLES};
use super::reread::{entry_again, id_of, HAS_ERRORS, IN_UNKNOWN_TABLE, UNPARSED};
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
            unknown_table(
                name,
                key_span,
                value.get_ref(),
                rules,
                (file, ns),
                defs,
                diags,
            );
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
            let at = (text, name, file, ns);
            macro_rules! take {
                ($list:ident, $what:expr) => {
                    take_entry(entry, at, $what, &mut defs.$list, &mut defs.broken, diags)
                };
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

/// Reports a table of a data file that is neither a built-in one the game uses nor one of the
/// game's; what its entries define is marked as in it, so references to them say so.
fn unknown_table(
    name: &str,
    key_span: Span,
    value: &toml::de::DeValue<'_>,
    rules: &Declarations,
    (file, ns): (FileId, &Arc<str>),
    defs: &mut RawDefs,
    diags: &mut Vec<Diagnostic>,
) {
    let builtin = |t: &&&str| !(rules.without_creatures && CREATURE_TABLES.contains(*t));
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
    if let toml::de::DeValue::Array(entries) = value {
        let ids = entries.iter().filter_map(id_of);
        defs.broken
            .extend(ids.map(|id| (file, ns.to_string(), id, IN_UNKNOWN_TABLE)));
    }
}

/// One entry of the built-in table `name` read into its raw type and added to `list`. When it
/// does not read, it is read again from the text to report every mistake in it, not only the
/// first, and what reads of it is kept; an entry with nothing kept is marked broken.
fn take_entry<T: serde::de::DeserializeOwned>(
    entry: toml::Spanned<toml::de::DeValue<'_>>,
    (text, name, file, ns): (&str, &str, FileId, &Arc<str>),
    what: &str,
    list: &mut ByFile<Src<T>>,
    broken: &mut ByFile<(FileId, String, String, &'static str)>,
    diags: &mut Vec<Diagnostic>,
) {
    let at = entry.span();
    let span = Span::new(file, at.clone());
    let src = |raw| Src {
        ns: ns.clone(),
        file,
        span,
        raw,
    };
    let first = match crate::toml_file::from_value(entry, file, what) {
        Ok(raw) => return list.push(src(raw)),
        Err(first) => first,
    };
    let Some(again) = entry_again(text, name, at) else {
        diags.push(first);
        return;
    };
    let id = id_of(&again);
    let (found, partial) = crate::toml_file::all_errors(again, file, what);
    diags.extend(found);
    match partial {
        Some(raw) => list.push(src(raw)),
        None => broken.extend(id.map(|id| (file, ns.to_string(), id, HAS_ERRORS))),
    }
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
