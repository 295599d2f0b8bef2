//! Rename: an ID rewritten wherever the mod set writes it (data files, scripts, the mods' tests
//! read from disk), each as written, and the locale keys its texts have (`items.coin.name` in
//! every language's file, a translation mod's and its `[made_from]` included).

use super::analysis::Analysis;
use super::navigate::{name_at, places};
use super::scan::{strings, Lang};
use super::vocabulary::DocKind;
use crate::diag::FileId;
use std::collections::HashMap;
use std::ops::Range;

type Edits = HashMap<lsp_types::Uri, Vec<lsp_types::TextEdit>>;

/// The edits that rename the definition named at `offset` to `new_name` (its name alone, or with
/// its own mod's namespace) wherever the mod set writes it: its data files and scripts, and its
/// mods' tests, each as written (`coin` stays bare, `rats:coin` keeps its namespace). What is
/// wrong with the request otherwise.
// `WorkspaceEdit` keys its changes by `Uri`, whose parse cache clippy takes for mutability.
#[allow(clippy::mutable_key_type)]
pub(super) fn rename(
    a: &Analysis,
    file: Option<FileId>,
    kind: DocKind,
    text: &str,
    offset: usize,
    new_name: &str,
) -> Result<lsp_types::WorkspaceEdit, String> {
    let Some((id, _)) = name_at(a, file, kind, text, offset) else {
        return Err("there is no ID here to rename".to_string());
    };
    if !a.defs.contains_key(&id) {
        return Err(format!(
            "`{}` is not defined in these mods",
            crate::diag::visible(&id)
        ));
    }
    let (ns, _) = id.split_once(':').unwrap_or(("", &id));
    let name = match new_name.split_once(':') {
        Some((new_ns, name)) if new_ns == ns => name,
        Some(_) => {
            return Err(format!(
                "a rename keeps the namespace `{ns}`: give a name alone"
            ))
        }
        None => new_name,
    };
    if name.is_empty()
        || !name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
    {
        return Err(format!(
            "`{}` is not a name: lowercase letters, digits and `_`",
            crate::diag::visible(name)
        ));
    }
    let new_text = |raw: &str| match raw.split_once(':') {
        Some((ns, _)) => format!("{ns}:{name}"),
        None => name.to_string(),
    };
    let mut edits = Edits::default();
    for (f, found) in places(a, &id, true) {
        let source = a.sources.get(f).text();
        let Some(uri) = a.paths.get(&f).and_then(|p| super::position::uri_of(p)) else {
            continue;
        };
        let lines = super::position::Lines::new(source);
        for inner in found {
            let edit = lsp_types::TextEdit {
                range: lines.range(inner.clone()),
                new_text: new_text(&source[inner]),
            };
            edits.entry(uri.clone()).or_default().push(edit);
        }
    }
    in_tests(a, &id, &new_text, &mut edits);
    let (ns, old) = id.split_once(':').unwrap_or(("", &id));
    for (file, range, new_text) in locale_keys(a, ns, old, name) {
        let Some(uri) = a.paths.get(&file).and_then(|p| super::position::uri_of(p)) else {
            continue;
        };
        let lines = super::position::Lines::new(a.sources.get(file).text());
        let edit = lsp_types::TextEdit {
            range: lines.range(range),
            new_text,
        };
        edits.entry(uri).or_default().push(edit);
    }
    Ok(lsp_types::WorkspaceEdit {
        changes: Some(edits),
        ..Default::default()
    })
}

/// The edits in the mods' tests, which a check does not read: from disk, each string of a test
/// of the mod set that names `id`.
// `Uri`'s parse cache, as above.
#[allow(clippy::mutable_key_type)]
fn in_tests(a: &Analysis, id: &str, new_text: &dyn Fn(&str) -> String, edits: &mut Edits) {
    for m in &a.content.mods {
        for path in test_files(&super::position::real(&m.dir).join("tests")) {
            let Ok(source) = std::fs::read_to_string(&path) else {
                continue;
            };
            let Some(uri) = super::position::uri_of(&path) else {
                continue;
            };
            let lines = super::position::Lines::new(&source);
            for (inner, _) in strings(&source, Lang::Lua) {
                let raw = &source[inner.clone()];
                let means = if raw.contains(':') {
                    raw.to_string()
                } else {
                    format!("{}:{raw}", m.id)
                };
                if means == id {
                    let edit = lsp_types::TextEdit {
                        range: lines.range(inner),
                        new_text: new_text(raw),
                    };
                    edits.entry(uri.clone()).or_default().push(edit);
                }
            }
        }
    }
}

/// The Lua files under a mod's `tests/` folder, a few levels deep at most.
fn test_files(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut found = Vec::new();
    let mut dirs = vec![(dir.to_path_buf(), 0)];
    while let Some((dir, depth)) = dirs.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten().take(1000) {
            let path = entry.path();
            let Ok(kind) = entry.file_type() else {
                continue;
            };
            if kind.is_dir() && depth < 4 {
                dirs.push((path, depth + 1));
            } else if kind.is_file() && path.extension().is_some_and(|e| e == "lua") {
                found.push(path);
            }
        }
    }
    found.sort();
    found
}

/// Where the locale files of `ns` write the keys of the texts of its definition `old` (the key
/// segment `old` of `items.old.name`, under any header or dotted key, and the whole key of a
/// `[made_from]` entry), with what each becomes when it is named `new`.
fn locale_keys(
    a: &Analysis,
    ns: &str,
    old: &str,
    new: &str,
) -> Vec<(FileId, Range<usize>, String)> {
    let mut tables = std::collections::BTreeSet::new();
    crate::content::locale::each_text_read(&a.content, |f| {
        if f.ns() == ns && f.name() == old {
            tables.insert(f.table());
        }
    });
    let Some(space) = a.content.locales.space(ns) else {
        return Vec::new();
    };
    let files: std::collections::BTreeSet<FileId> = (space.langs.values())
        .flat_map(|texts| texts.iter())
        .filter(|(key, _)| tables.iter().any(|t| key_of(key, t, old).is_some()))
        .filter_map(|(_, entry)| entry.at.map(|at| at.file))
        .collect();
    let mut found = Vec::new();
    for file in files {
        let text = a.sources.get(file).text();
        let Ok(doc) = crate::toml_file::parse_document(text, file) else {
            continue;
        };
        for (key, value) in doc.get_ref() {
            let here = (key.get_ref().as_ref(), key.span());
            if here.0 == crate::content::locale::MADE_FROM {
                made_from(text, file, value, &tables, old, new, &mut found);
            } else {
                segments(file, &[here], value, &tables, old, new, &mut found, 0);
            }
        }
    }
    found
}

/// The rest of `key` after `table.old.`, if it is a key of that definition's texts.
fn key_of<'k>(key: &'k str, table: &str, old: &str) -> Option<&'k str> {
    key.strip_prefix(table)?
        .strip_prefix('.')?
        .strip_prefix(old)?
        .strip_prefix('.')
}

/// How deep a locale file's tables are followed: a key is a table, a name and a field or two.
const KEY_DEPTH: usize = 4;

/// The `old` segments under the path `at` (the keys above `value`, each with its span): a table
/// of the texts' tables holding `old` is the segment to rename.
#[allow(clippy::too_many_arguments)]
fn segments(
    file: FileId,
    at: &[(&str, Range<usize>)],
    value: &toml::Spanned<toml::de::DeValue<'_>>,
    tables: &std::collections::BTreeSet<&str>,
    old: &str,
    new: &str,
    found: &mut Vec<(FileId, Range<usize>, String)>,
    depth: usize,
) {
    if let [(table, _), (name, span)] = at {
        if tables.contains(table) && *name == old {
            found.push((file, span.clone(), new.to_string()));
            return;
        }
    }
    let toml::de::DeValue::Table(table) = value.get_ref() else {
        return;
    };
    if depth >= KEY_DEPTH || at.len() >= 2 {
        return;
    }
    for (key, value) in table {
        let mut path = at.to_vec();
        path.push((key.get_ref().as_ref(), key.span()));
        segments(file, &path, value, tables, old, new, found, depth + 1);
    }
}

/// The `[made_from]` entries whose key is one of `old`'s texts: each key written anew.
fn made_from(
    text: &str,
    file: FileId,
    value: &toml::Spanned<toml::de::DeValue<'_>>,
    tables: &std::collections::BTreeSet<&str>,
    old: &str,
    new: &str,
    found: &mut Vec<(FileId, Range<usize>, String)>,
) {
    let toml::de::DeValue::Table(entries) = value.get_ref() else {
        return;
    };
    for (key, _) in entries {
        let key_text = key.get_ref();
        for table in tables {
            if let Some(rest) = key_of(key_text, table, old) {
                let quote = if text[key.span()].starts_with('\'') {
                    '\''
                } else {
                    '"'
                };
                let renamed = format!("{quote}{table}.{new}.{rest}{quote}");
                found.push((file, key.span(), renamed));
            }
        }
    }
}
