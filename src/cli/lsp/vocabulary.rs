//! What the answers read besides a check: the kind of file a document is, the editor schemas
//! (for a data file's and a manifest's keys and words) and the Lua API's documented entries (for
//! what follows `lantern.`), made once when the server starts, for the game's vocabulary.

use serde_json::Value;

/// What kind of file a document is, which decides what is offered in it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum DocKind {
    /// A data file (`*.toml` under a mod's `data/`).
    Data,
    /// A `mod.toml`.
    Manifest,
    /// A script or a test.
    Lua,
    /// Anything else (a locale file, a README).
    Other,
}

impl DocKind {
    /// The kind of the file at `path`.
    pub(super) fn of(path: &std::path::Path) -> DocKind {
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
        let in_data = path.components().any(|c| c.as_os_str() == "data");
        match (name, ext) {
            ("mod.toml", _) => DocKind::Manifest,
            (_, "lua") => DocKind::Lua,
            (_, "toml") if in_data => DocKind::Data,
            _ => DocKind::Other,
        }
    }
}

/// The schemas and the Lua API for one game's vocabulary.
pub(super) struct Vocabulary {
    pub schemas: Schemas,
    /// The Lua API's documented entries, for completion and hover after `lantern.`.
    pub api: Vec<crate::lua::api::ApiDoc>,
}

/// The schemas completion and hover read.
pub(super) struct Schemas {
    pub data: Value,
    pub manifest: Value,
}

impl Vocabulary {
    /// The schemas and the API of `rules`.
    pub(super) fn of(rules: &crate::host::Rules) -> Vocabulary {
        Vocabulary {
            schemas: Schemas {
                data: crate::content::schema::data_schema_for(rules.defs()),
                manifest: crate::content::schema::manifest_schema(),
            },
            api: crate::lua::defs::api_docs(rules).unwrap_or_default(),
        }
    }
}

/// `lantern.on(event: string, handler: function)` (a field: its type), as the definitions file
/// writes it.
pub(super) fn signature(doc: &crate::lua::api::ApiDoc) -> String {
    if !doc.function {
        return doc.returns.unwrap_or("").to_string();
    }
    let params: Vec<String> = doc
        .params
        .iter()
        .map(|(n, t)| format!("{n}: {t}"))
        .collect();
    let ret = doc.returns.map(|r| format!(": {r}")).unwrap_or_default();
    format!("{}({}){ret}", doc.path, params.join(", "))
}
