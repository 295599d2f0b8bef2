//! Symbols: a document's outline (a data file's definitions, a script's registrations: the
//! events it handles, the actions and checks it registers) and the workspace's (every definition
//! of the mod set whose ID holds the letters typed, in order).

use super::analysis::Analysis;
use super::position::Lines;
use super::scan::{strings, Lang};
use super::vocabulary::DocKind;
use crate::diag::FileId;
use lsp_types::{DocumentSymbol, Location, SymbolInformation, SymbolKind};

/// The most symbols a workspace search answers with: a pack of 100,000 IDs is not sent whole.
const MOST_FOUND: usize = 500;

/// The kind an editor shows for a definition of `kind` (`item`, `event`, ...).
fn symbol_kind(kind: &str) -> SymbolKind {
    match kind {
        "event" => SymbolKind::EVENT,
        "trigger" | "quest" | "encounter" | "hazard" => SymbolKind::STRUCT,
        "tag" | "rarity" | "progress type" => SymbolKind::ENUM_MEMBER,
        _ => SymbolKind::OBJECT,
    }
}

/// The outline of a document: `text` as the editor holds it.
pub(super) fn document(
    a: &Analysis,
    file: Option<FileId>,
    kind: DocKind,
    text: &str,
) -> Vec<DocumentSymbol> {
    let lines = Lines::new(text);
    let mut found: Vec<(usize, DocumentSymbol)> = Vec::new();
    let mut push = |at: std::ops::Range<usize>, name: String, detail: &str, kind: SymbolKind| {
        let range = lines.range(at.clone());
        #[allow(deprecated)] // `deprecated` is a field every literal must name.
        found.push((
            at.start,
            DocumentSymbol {
                name: crate::diag::visible(&name).into_owned(),
                detail: Some(detail.to_string()),
                kind,
                tags: None,
                deprecated: None,
                range,
                selection_range: range,
                children: None,
            },
        ));
    };
    match kind {
        DocKind::Lua => {
            for (at, _) in strings(text, Lang::Lua) {
                let before = text[..at.start.saturating_sub(1)].trim_end();
                let what = [
                    ("lantern.on(", "handles", SymbolKind::EVENT),
                    ("lantern.register_action(", "action", SymbolKind::FUNCTION),
                    ("lantern.register_check(", "check", SymbolKind::FUNCTION),
                ]
                .into_iter()
                .find(|(call, ..)| before.ends_with(call));
                if let Some((_, detail, kind)) = what {
                    let name = text[at.clone()].to_string();
                    push(at, name, detail, kind);
                }
            }
        }
        _ => {
            let Some(file) = file else {
                return Vec::new();
            };
            for (id, defs) in &a.defs {
                for d in defs.iter().filter(|d| d.span.file == file) {
                    let at = d.span.start as usize..d.span.end as usize;
                    if at.end <= text.len() {
                        push(at, id.clone(), d.kind, symbol_kind(d.kind));
                    }
                }
            }
        }
    }
    found.sort_by_key(|(at, _)| *at);
    found.into_iter().map(|(_, s)| s).collect()
}

/// Every definition whose ID holds the letters of `query` in order (all of them for an empty
/// query), at most [`MOST_FOUND`].
pub(super) fn workspace(a: &Analysis, query: &str) -> Vec<SymbolInformation> {
    let mut found = Vec::new();
    for (id, defs) in &a.defs {
        if !super::complete::matches(query, id) {
            continue;
        }
        for d in defs {
            let Some(location) = a.location(d.span) else {
                continue;
            };
            if found.len() == MOST_FOUND {
                return found;
            }
            found.push(information(id, d.kind, location));
        }
    }
    found
}

#[allow(deprecated)] // `deprecated` is a field every literal must name.
fn information(id: &str, kind: &str, location: Location) -> SymbolInformation {
    SymbolInformation {
        name: crate::diag::visible(id).into_owned(),
        kind: symbol_kind(kind),
        tags: None,
        deprecated: None,
        location,
        container_name: Some(kind.to_string()),
    }
}
