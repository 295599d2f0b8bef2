//! Go to definition, find references and hover: an ID named in a string (a data file's value, a
//! script's argument) is found across every mod, as the loader resolves it (a bare name is its
//! file's mod's); hover shows a definition's entry, an event's payload, a key's help and an API
//! function's signature. A text key in `lantern.text("...")` leads to its line in every
//! language's locale file.

use super::analysis::Analysis;
use super::context::{lua_at, toml_at, LuaAt, TomlAt};

use super::scan::{string_at, strings, Lang};
use super::schema_walk::Schema;
use super::vocabulary::{signature, DocKind, Vocabulary};
use crate::diag::{FileId, Span};
use lsp_types::{Location, MarkupContent, MarkupKind};
use std::ops::Range;

/// The name written in the string at `offset`, as the ID it means (and as written).
pub(super) fn name_at(
    a: &Analysis,
    file: Option<FileId>,
    kind: DocKind,
    text: &str,
    offset: usize,
) -> Option<(String, String)> {
    let lang = if kind == DocKind::Lua {
        Lang::Lua
    } else {
        Lang::Toml
    };
    let inner = string_at(text, lang, offset)?;
    let written = text[inner].to_string();
    let id = match file {
        Some(f) => a.qualify(&written, f),
        None => written.clone(),
    };
    Some((id, written))
}

/// The definitions of the ID named at `offset`.
pub(super) fn definition(
    a: &Analysis,
    file: Option<FileId>,
    kind: DocKind,
    text: &str,
    offset: usize,
) -> Vec<Location> {
    let Some((id, written)) = name_at(a, file, kind, text, offset) else {
        return Vec::new();
    };
    if kind == DocKind::Lua
        && matches!(lua_at(text, offset), LuaAt::Str { function, .. } if function == "lantern.text")
    {
        return text_places(a, file, &written);
    }
    let defs = a.defs.get(&id).or_else(|| a.defs.get(&written));
    defs.into_iter()
        .flatten()
        .filter_map(|d| a.location(d.span))
        .collect()
}

/// Where the text `key` of `lantern.text` is written, in each language that has it: a bare key
/// is the script's own mod's, `mod:key` another's.
fn text_places(a: &Analysis, file: Option<FileId>, key: &str) -> Vec<Location> {
    let own = file.and_then(|f| a.mod_of.get(&f)).map(String::as_str);
    let (ns, key) = match key.split_once(':') {
        Some((ns, key)) => (ns, key),
        None => match own {
            Some(ns) => (ns, key),
            None => return Vec::new(),
        },
    };
    let Some(space) = a.content.locales.space(ns) else {
        return Vec::new();
    };
    (space.langs.values())
        .filter_map(|texts| texts.get(key)?.at)
        .filter_map(|span| a.location(span))
        .collect()
}

/// Every place the ID named at `offset` is written, in every data file and script of the mod
/// set; its definitions too when `declaration` says.
pub(super) fn references(
    a: &Analysis,
    file: Option<FileId>,
    kind: DocKind,
    text: &str,
    offset: usize,
    declaration: bool,
) -> Vec<Location> {
    let Some((id, written)) = name_at(a, file, kind, text, offset) else {
        return Vec::new();
    };
    let target = if a.defs.contains_key(&id) {
        id
    } else {
        written
    };
    let mut out = Vec::new();
    for (f, found) in places(a, &target, declaration) {
        out.extend(a.locations(f, found.into_iter()));
    }
    out.sort_by(|x, y| (x.uri.as_str(), x.range.start).cmp(&(y.uri.as_str(), y.range.start)));
    out
}

/// Where `target` is written in each data file and script of the mod set, by file: the strings'
/// insides; its definitions too when `declaration` says.
pub(super) fn places(
    a: &Analysis,
    target: &str,
    declaration: bool,
) -> Vec<(FileId, Vec<Range<usize>>)> {
    let defs: Vec<Span> = a
        .defs
        .get(target)
        .into_iter()
        .flatten()
        .map(|d| d.span)
        .collect();
    let mut out = Vec::new();
    for (&f, path) in &a.paths {
        let lang = match path.extension().and_then(|e| e.to_str()) {
            Some("lua") => Lang::Lua,
            Some("toml") if path.file_name().is_some_and(|n| n != "mod.toml") => Lang::Toml,
            _ => continue,
        };
        let source = a.sources.get(f).text();
        let found = strings(source, lang).into_iter().filter_map(|(inner, _)| {
            let raw = &source[inner.clone()];
            if raw != target && a.qualify(raw, f) != target {
                return None;
            }
            // A definition's span is its quoted value.
            let quoted = Span::new(f, inner.start.saturating_sub(1)..inner.end + 1);
            (declaration || !defs.contains(&quoted)).then_some(inner)
        });
        out.push((f, found.collect()));
    }
    out
}

/// What to show for the thing at `offset`, as Markdown.
pub(super) fn hover(
    words: &Vocabulary,
    a: &Analysis,
    file: Option<FileId>,
    kind: DocKind,
    text: &str,
    offset: usize,
) -> Option<MarkupContent> {
    let value = hover_name(a, file, kind, text, offset).or_else(|| match kind {
        DocKind::Data => {
            hover_value(words, a, text, offset).or_else(|| hover_key(words, text, offset))
        }
        DocKind::Lua => hover_api(words, text, offset),
        _ => None,
    })?;
    Some(MarkupContent {
        kind: MarkupKind::Markdown,
        value,
    })
}

/// A definition's kind, ID and entry, or an event's payload.
fn hover_name(
    a: &Analysis,
    file: Option<FileId>,
    kind: DocKind,
    text: &str,
    offset: usize,
) -> Option<String> {
    let (id, written) = name_at(a, file, kind, text, offset)?;
    let mut parts = Vec::new();
    for d in a
        .defs
        .get(&id)
        .or_else(|| a.defs.get(&written))
        .into_iter()
        .flatten()
    {
        let source = a.sources.get(d.span.file);
        let (line, _) = source.line_col(d.span.start);
        parts.push(format!(
            "**{}** `{}`, in `{}` line {line}\n\n```toml\n{}\n```",
            d.kind,
            id,
            crate::diag::visible(source.path()),
            entry_text(source.text(), d.span.start as usize)
        ));
    }
    let event = a
        .content
        .events
        .lookup(&written)
        .or_else(|| a.content.events.lookup(&id));
    if let (true, Some(key)) = (parts.is_empty(), event) {
        let e = a.content.events.get(key);
        let payload: Vec<String> = e
            .payload
            .iter()
            .map(|(n, t)| format!("- `{n}`: {}", t.name()))
            .collect();
        parts.push(
            format!(
                "**event** `{}`\n\n{}\n\n{}",
                e.name,
                crate::diag::visible(&e.description),
                payload.join("\n")
            )
            .trim_end()
            .to_string(),
        );
    }
    (!parts.is_empty()).then(|| parts.join("\n\n---\n\n"))
}

/// The entry a definition's `id` stands in: from its table header (or the line before it) to
/// the next header, at most 30 lines.
fn entry_text(text: &str, at: usize) -> String {
    let start = text[..at]
        .rfind("\n[")
        .map(|i| i + 1)
        .unwrap_or_else(|| text[..at].rfind('\n').map_or(0, |i| i + 1));
    let end = text[at..].find("\n[").map_or(text.len(), |i| at + i);
    let lines: Vec<&str> = text[start..end].trim_end().lines().take(30).collect();
    crate::diag::visible(&lines.join("\n")).replace("```", "'''")
}

/// A data file's word in a string value: an action's or a check's name with its arguments, each
/// with its help; another key's word with the words the key may take.
fn hover_value(words: &Vocabulary, a: &Analysis, text: &str, offset: usize) -> Option<String> {
    let inner = string_at(text, Lang::Toml, offset)?;
    let TomlAt::Value {
        table,
        key,
        mut siblings,
        ..
    } = toml_at(text, inner.end)
    else {
        return None;
    };
    let word = &text[inner];
    let schema = Schema::new(&words.schemas.data);
    let node = schema.table(&table)?;
    let prop = schema.property(node, &key, &siblings)?;
    let shown = crate::diag::visible(word);
    if matches!(key.as_str(), "action" | "check" | "effect") {
        let what = if key == "check" { "check" } else { "action" };
        let registered = match what {
            "check" => a.lua_checks.iter().any(|c| c == word),
            _ => a.lua_actions.iter().any(|c| c == word),
        };
        if registered {
            return Some(format!("**{what}** `{shown}`, which a script registers"));
        }
        if !schema.words(prop).iter().any(|w| w == word) {
            return None;
        }
        siblings.retain(|(k, _)| *k != key);
        siblings.push((key.clone(), word.to_string()));
        let common: Vec<String> = schema.keys(node, &[]).into_iter().map(|k| k.name).collect();
        let args: Vec<String> = schema
            .keys(node, &siblings)
            .into_iter()
            .filter(|k| k.name != key && !common.contains(&k.name))
            .map(|k| match k.help {
                Some(help) => format!("- `{}`: {help}", k.name),
                None => format!("- `{}`", k.name),
            })
            .collect();
        let mut out = format!("**{what}** `{shown}`");
        if !args.is_empty() {
            out.push_str(&format!("\n\n{}", args.join("\n")));
        }
        return Some(out);
    }
    let all = schema.words(prop);
    if !all.iter().any(|w| w == word) {
        return None;
    }
    let mut out = format!("`{shown}`: a word of `{key}`");
    if let Some(help) = schema.help(prop) {
        out.push_str(&format!("\n\n{help}"));
    }
    let listed: Vec<String> = all.iter().take(30).map(|w| format!("`{w}`")).collect();
    out.push_str(&format!("\n\none of {}", listed.join(", ")));
    Some(out)
}

/// A data file's key: its help from the schema.
fn hover_key(words: &Vocabulary, text: &str, offset: usize) -> Option<String> {
    let b = text.as_bytes();
    let is_key = |c: u8| c.is_ascii_alphanumeric() || c == b'_' || c == b'-';
    let (mut start, mut end) = (offset.min(b.len()), offset.min(b.len()));
    while start > 0 && is_key(b[start - 1]) {
        start -= 1;
    }
    while end < b.len() && is_key(b[end]) {
        end += 1;
    }
    if start == end {
        return None;
    }
    let TomlAt::Key {
        table, siblings, ..
    } = toml_at(text, end)
    else {
        return None;
    };
    let schema = Schema::new(&words.schemas.data);
    let root = &words.schemas.data;
    let node = if table.is_empty() {
        Some(root)
    } else {
        schema.table(&table)
    }?;
    let key = &text[start..end];
    let prop = schema.property(node, key, &siblings)?;
    let words = schema.words(prop);
    let mut out = format!("`{key}`");
    if let Some(help) = schema.help(prop) {
        out.push_str(&format!(": {help}"));
    }
    if !words.is_empty() && words.len() <= 40 {
        out.push_str(&format!(
            "\n\none of: {}",
            words
                .iter()
                .map(|w| format!("`{w}`"))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    Some(out)
}

/// A script's `lantern.x.y`: the function's signature and documentation.
fn hover_api(words: &Vocabulary, text: &str, offset: usize) -> Option<String> {
    let b = text.as_bytes();
    let is_name = |c: u8| c.is_ascii_alphanumeric() || c == b'_' || c == b'.';
    let (mut start, mut end) = (offset.min(b.len()), offset.min(b.len()));
    while start > 0 && is_name(b[start - 1]) {
        start -= 1;
    }
    while end < b.len() && (b[end].is_ascii_alphanumeric() || b[end] == b'_') {
        end += 1;
    }
    let path = &text[start..end];
    let doc = words.api.iter().find(|d| d.path == path)?;
    let head = match doc.function {
        true => signature(doc),
        false => format!("{}: {}", doc.path, signature(doc)),
    };
    Some(format!("```lua\n{head}\n```\n\n{}", doc.doc))
}
