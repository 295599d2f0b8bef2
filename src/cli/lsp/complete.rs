//! Completion: in a data file, the keys a table may hold (an action's own arguments once its
//! `action` is written) and the values a key may take (the engine's words, every ID of the kind
//! the key names across the mod set, event names, actions and checks with those scripts
//! register); in a manifest, its keys and the mods there are; in Lua, the API after `lantern.`,
//! the payload fields after a handler's `ev.`, event names in `lantern.on("` and IDs in strings.

use super::analysis::Analysis;
use super::context::{handler_event, lua_at, toml_at, LuaAt, TomlAt};
use super::position::Lines;
use super::schema_walk::Schema;
use super::vocabulary::{signature, DocKind, Vocabulary};
use lsp_types::{
    CompletionItem, CompletionItemKind, CompletionList, CompletionTextEdit, Documentation, TextEdit,
};
use std::ops::Range;

/// The most items one answer holds; the list says it is incomplete past that, so the editor asks
/// again as the modder types on (a pack of 100,000 IDs is not sent whole at each keystroke).
const MOST_ITEMS: usize = 500;

/// What the editor may insert at `offset` of `text`.
pub(super) fn complete(
    words: &Vocabulary,
    a: &Analysis,
    file: Option<crate::diag::FileId>,
    kind: DocKind,
    text: &str,
    offset: usize,
) -> CompletionList {
    let mut out = Items::default();
    match kind {
        DocKind::Data => data(words, a, file, text, offset, &mut out),
        DocKind::Manifest => manifest(words, a, text, offset, &mut out),
        DocKind::Lua => lua(words, a, file, text, offset, &mut out),
        DocKind::Other => {}
    }
    out.finish(text)
}

/// Items gathered, with the typed range they replace.
#[derive(Default)]
struct Items {
    items: Vec<(String, CompletionItemKind, Option<String>, Option<String>)>,
    /// The labels given, each once.
    labels: std::collections::HashSet<String>,
    typed: Range<usize>,
    incomplete: bool,
}

impl Items {
    fn push(
        &mut self,
        typed: &str,
        label: &str,
        kind: CompletionItemKind,
        detail: Option<String>,
        doc: Option<String>,
    ) {
        if !matches(typed, label) {
            return;
        }
        if self.full() {
            return;
        }
        if self.labels.insert(label.to_string()) {
            self.items.push((label.to_string(), kind, detail, doc));
        }
    }

    /// Whether no more items are taken (and the list says it is incomplete): a long walk stops.
    fn full(&mut self) -> bool {
        let full = self.items.len() >= MOST_ITEMS;
        self.incomplete |= full;
        full
    }

    fn finish(self, text: &str) -> CompletionList {
        let lines = Lines::new(text);
        let range = lines.range(self.typed.clone());
        let items = self
            .items
            .into_iter()
            .map(|(label, kind, detail, doc)| CompletionItem {
                text_edit: Some(CompletionTextEdit::Edit(TextEdit {
                    range,
                    new_text: label.clone(),
                })),
                // The editor filters by what is typed, which for `core:g` includes the namespace.
                filter_text: Some(label.clone()),
                label,
                kind: Some(kind),
                detail,
                documentation: doc.map(Documentation::String),
                ..Default::default()
            })
            .collect();
        CompletionList {
            is_incomplete: self.incomplete,
            items,
        }
    }
}

/// Whether `label` is offered for `typed`: its characters appear in it in order, ignoring case
/// (`gol` offers `core:gold`, `core:gl` too, `core:` every ID of `core`), as editors filter.
pub(super) fn matches(typed: &str, label: &str) -> bool {
    let mut label = label.chars().flat_map(char::to_lowercase);
    typed
        .chars()
        .flat_map(char::to_lowercase)
        .all(|t| label.any(|l| l == t))
}

fn data(
    words: &Vocabulary,
    a: &Analysis,
    file: Option<crate::diag::FileId>,
    text: &str,
    offset: usize,
    out: &mut Items,
) {
    let root = &words.schemas.data;
    let schema = Schema::new(root);
    match toml_at(text, offset) {
        TomlAt::Key {
            table,
            siblings,
            outer,
            typed,
        } => {
            out.typed = typed.clone();
            let typed = &text[typed];
            // `when = { ... }` holds payload fields of the entry's event.
            if table.last().is_some_and(|k| k == "when") {
                let event = outer
                    .iter()
                    .find(|(k, _)| k == "on")
                    .map(|(_, v)| v.as_str());
                let own = file
                    .and_then(|f| a.mod_of.get(&f))
                    .map_or("", String::as_str);
                let events = &a.content.events;
                let key = event.and_then(|e| events.lookup_for(own.as_bytes(), e.as_bytes()));
                let payload = key.map(|k| events.get(k).payload.as_slice());
                for (field, ty) in payload.unwrap_or_default() {
                    let ty = Some(ty.name().to_string());
                    out.push(typed, field, CompletionItemKind::FIELD, ty, None);
                }
                return;
            }
            let node = if table.is_empty() {
                Some(root)
            } else {
                schema.table(&table)
            };
            for key in node.map(|n| schema.keys(n, &siblings)).unwrap_or_default() {
                out.push(
                    typed,
                    &key.name,
                    CompletionItemKind::FIELD,
                    key.help.clone(),
                    None,
                );
            }
        }
        TomlAt::Value {
            table,
            key,
            siblings,
            typed,
        } => {
            out.typed = typed.clone();
            let typed = &text[typed];
            let node = schema.table(&table);
            if let Some(value) = node.and_then(|n| schema.property(n, &key, &siblings)) {
                for word in schema.words(value) {
                    let kind = if matches!(key.as_str(), "action" | "check" | "effect" | "on") {
                        CompletionItemKind::FUNCTION
                    } else {
                        CompletionItemKind::ENUM_MEMBER
                    };
                    out.push(typed, &word, kind, schema.help(value), None);
                }
            }
            values_of_key(a, file, &table, &key, typed, out);
        }
        TomlAt::Elsewhere => {}
    }
}

/// The mod set's own names a key's value may be: IDs of the kind it names, events, and the
/// actions and checks scripts register.
fn values_of_key(
    a: &Analysis,
    file: Option<crate::diag::FileId>,
    table: &[String],
    key: &str,
    typed: &str,
    out: &mut Items,
) {
    let declared = &a.content.declared;
    let kind: Option<&str> = match key {
        "on" => {
            events(a, typed, out);
            return;
        }
        "action" | "effect" => {
            for name in &a.lua_actions {
                out.push(
                    typed,
                    name,
                    CompletionItemKind::FUNCTION,
                    Some("an action a script registers".into()),
                    None,
                );
            }
            return;
        }
        "check" => {
            for name in &a.lua_checks {
                out.push(
                    typed,
                    name,
                    CompletionItemKind::FUNCTION,
                    Some("a check a script registers".into()),
                    None,
                );
            }
            return;
        }
        "setting" => {
            settings(a, file, typed, true, out);
            return;
        }
        "item" | "items" => Some("item"),
        "tag" | "tags" => Some("tag"),
        "quest" => Some("quest"),
        "card" => Some("card"),
        "creature" => Some("creature"),
        "encounter" => Some("encounter"),
        "hazard" => Some("hazard"),
        "rarity" => Some("rarity"),
        "progress" | "choose_progress" | "type" => Some("progress type"),
        "value" => None,
        k => {
            // A key of the game's table that names IDs, or an argument named after a kind.
            let refs = table
                .first()
                .and_then(|t| declared.tables.iter().find(|d| d.key == t));
            let by_ref = refs
                .and_then(|d| d.refs.iter().find(|(f, _)| *f == k))
                .map(|(_, t)| t.name());
            match by_ref.or_else(|| declared.tables.iter().find(|d| d.kind == k).map(|d| d.kind)) {
                Some(kind) => Some(kind),
                None => return,
            }
        }
    };
    let own = file.and_then(|f| a.mod_of.get(&f)).cloned();
    for (id, def_kind) in a.ids_of(kind) {
        if out.full() {
            break;
        }
        // The file's own mod's IDs may be written bare; both are offered.
        let bare = own
            .as_deref()
            .and_then(|m| id.strip_prefix(m))
            .and_then(|r| r.strip_prefix(':'));
        // What is not offered is not described: most IDs of a large set are not.
        if matches(typed, id) {
            out.push(
                typed,
                id,
                CompletionItemKind::REFERENCE,
                Some(def_kind.to_string()),
                None,
            );
        }
        if let Some(bare) = bare.filter(|bare| matches(typed, bare)) {
            out.push(
                typed,
                bare,
                CompletionItemKind::REFERENCE,
                Some(format!("{def_kind} {id}")),
                None,
            );
        }
    }
}

/// Every event name, each with its payload.
fn events(a: &Analysis, typed: &str, out: &mut Items) {
    for (_, e) in a.content.events.iter() {
        let payload: Vec<String> = e
            .payload
            .iter()
            .map(|(n, t)| format!("{n}: {}", t.name()))
            .collect();
        let doc = match (e.description.is_empty(), payload.is_empty()) {
            (true, true) => None,
            (_, true) => Some(e.description.clone()),
            (_, false) => Some(
                format!("{}\npayload: {}", e.description, payload.join(", "))
                    .trim()
                    .to_string(),
            ),
        };
        out.push(
            typed,
            &e.name,
            CompletionItemKind::EVENT,
            Some("event".into()),
            doc,
        );
    }
}

fn manifest(words: &Vocabulary, a: &Analysis, text: &str, offset: usize, out: &mut Items) {
    let root = &words.schemas.manifest;
    let schema = Schema::new(root);
    match toml_at(text, offset) {
        TomlAt::Key {
            table,
            siblings,
            typed,
            ..
        } if table.is_empty() => {
            out.typed = typed.clone();
            for key in schema.keys(root, &siblings) {
                out.push(
                    &text[typed.clone()],
                    &key.name,
                    CompletionItemKind::FIELD,
                    key.help.clone(),
                    None,
                );
            }
        }
        TomlAt::Value { key, typed, .. }
            if matches!(key.as_str(), "depends" | "optional" | "conflicts") =>
        {
            out.typed = typed.clone();
            for m in &a.content.mods {
                out.push(
                    &text[typed.clone()],
                    &m.id,
                    CompletionItemKind::MODULE,
                    Some(format!("{} {}", m.name, m.version)),
                    None,
                );
            }
        }
        _ => {}
    }
}

fn lua(
    words: &Vocabulary,
    a: &Analysis,
    file: Option<crate::diag::FileId>,
    text: &str,
    offset: usize,
    out: &mut Items,
) {
    match lua_at(text, offset) {
        LuaAt::Str { function, typed } => {
            out.typed = typed.clone();
            let typed = &text[typed];
            if matches!(function.as_str(), "lantern.on" | "lantern.emit_event") {
                events(a, typed, out);
            } else if function == "lantern.text" {
                texts(a, file, typed, out);
            } else {
                for (id, kind) in a.ids_of(None) {
                    out.push(
                        typed,
                        id,
                        CompletionItemKind::REFERENCE,
                        Some(kind.to_string()),
                        None,
                    );
                }
            }
        }
        LuaAt::Field { object, typed } => {
            out.typed = typed.clone();
            let typed = &text[typed];
            if object == "lantern.settings" {
                settings(a, file, typed, false, out);
            } else if object == "lantern" || object.starts_with("lantern.") {
                let prefix = format!("{object}.");
                for doc in &words.api {
                    let Some(rest) = doc.path.strip_prefix(&prefix) else {
                        continue;
                    };
                    let Some(name) = rest.split(['.', ':']).next() else {
                        continue;
                    };
                    let kind = if doc.function && !rest.contains('.') {
                        CompletionItemKind::FUNCTION
                    } else {
                        CompletionItemKind::FIELD
                    };
                    let detail = (!rest.contains('.')).then(|| signature(doc));
                    let help =
                        (!rest.contains('.') && !doc.doc.is_empty()).then(|| doc.doc.to_string());
                    out.push(typed, name, kind, detail, help);
                }
            } else if let Some(event) = handler_event(text, offset) {
                out.push(
                    typed,
                    "name",
                    CompletionItemKind::FIELD,
                    Some("string".into()),
                    None,
                );
                out.push(
                    typed,
                    "source",
                    CompletionItemKind::FIELD,
                    Some("lantern.Creature".into()),
                    None,
                );
                out.push(
                    typed,
                    "target",
                    CompletionItemKind::FIELD,
                    Some("lantern.Creature?".into()),
                    None,
                );
                if let Some(key) = a.content.events.lookup(&event) {
                    for (field, ty) in &a.content.events.get(key).payload {
                        out.push(
                            typed,
                            field,
                            CompletionItemKind::FIELD,
                            Some(ty.name().to_string()),
                            None,
                        );
                    }
                }
            }
        }
        LuaAt::Elsewhere => {}
    }
}

/// The text keys a `lantern.text("` may name: the script's own mod's bare, every mod's as
/// `mod:key`; each with its text in the mod's language.
fn texts(a: &Analysis, file: Option<crate::diag::FileId>, typed: &str, out: &mut Items) {
    let own = file.and_then(|f| a.mod_of.get(&f)).map(String::as_str);
    for (ns, space) in a.content.locales.spaces() {
        let texts = space.langs.get(&space.default);
        for key in space.keys().into_keys() {
            let said = texts.and_then(|t| t.get(key)).map(|e| match &e.text {
                crate::content::locale::Text::One(t) => t.written(),
                crate::content::locale::Text::Plural(forms) => {
                    forms.get("other").map(|t| t.written()).unwrap_or_default()
                }
            });
            // A key and its text are the mod's: made visible before an editor shows them.
            let said = said.map(|t| crate::diag::visible(&t).into_owned());
            let key = crate::diag::visible(key);
            let kind = CompletionItemKind::TEXT;
            if own == Some(ns.as_str()) {
                out.push(typed, &key, kind, said.clone(), None);
            }
            let ns = crate::diag::visible(ns);
            out.push(typed, &format!("{ns}:{key}"), kind, said, None);
        }
    }
}

/// The settings a `setting = "` may name (`ids`: every mod's by its ID, and the file's own mod's
/// by its name too), or a script's `lantern.settings.` (its own mod's, by name).
fn settings(
    a: &Analysis,
    file: Option<crate::diag::FileId>,
    typed: &str,
    ids: bool,
    out: &mut Items,
) {
    let own = file.and_then(|f| a.mod_of.get(&f)).map(String::as_str);
    for setting in a.content.settings() {
        let detail = format!(
            "{} setting: {}",
            setting.kind.type_name(),
            setting.kind.range()
        );
        let doc = Some(setting.name.to_string());
        let kind = CompletionItemKind::VARIABLE;
        if ids {
            out.push(
                typed,
                setting.id.as_str(),
                kind,
                Some(detail.clone()),
                doc.clone(),
            );
        }
        if own == Some(setting.id.namespace()) {
            out.push(typed, setting.id.name(), kind, Some(detail), doc);
        }
    }
}
