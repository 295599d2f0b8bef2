//! `lantern lsp`: a language server over stdio that knows the whole mod set.
//!
//! It runs `lantern check`'s own load on every edit, with the editor's unsaved buffers read in
//! place of their files (`mods::with_unsaved`), so its diagnostics are `check`'s: the same spans,
//! codes and help, a "did you mean" offered as a quick fix. From the same check it completes keys
//! and values of data files (from the editor schema, `content::schema`, and every ID of the mod
//! set by the kind a key names), event names, payload fields, text keys and the Lua API in
//! scripts; it goes to an ID's definition (a text key's locale lines), finds its references
//! across mods, renames it everywhere it is written, outlines a document, finds any definition
//! by its letters, shows an API function's parameters as its call is typed, and shows a
//! definition's entry, an event's payload or a key's help on hover.
//! A game's tools serve it for the game's vocabulary.
//!
//! `server` holds the loop and the documents, `analysis` one check and its indexes, `vocabulary`
//! the schemas and the Lua API the answers read, `context` what a cursor is in, `scan` the
//! strings of TOML and Lua, `schema_walk` the editor schema read as an editor reads it,
//! `complete`, `navigate`, `signature`, `symbols` and `publish` the answers, and `position` the protocol's URIs and
//! UTF-16 positions. The answers take the server's parts, never the server: the files import
//! downwards only.

mod analysis;
mod complete;
mod context;
mod document;
mod frames;
mod navigate;
mod position;
mod publish;
mod rename;
mod scan;
mod schema_walk;
mod server;
mod signature;
mod symbols;
mod vocabulary;

use crate::host::Rules;
use crate::lua::Limits;
use lsp_server::Connection;
use lsp_types::{
    CodeActionProviderCapability, CompletionOptions, HoverProviderCapability, OneOf,
    ServerCapabilities, TextDocumentSyncCapability, TextDocumentSyncKind,
};
use std::path::PathBuf;
use std::process::ExitCode;

/// Serves the mods under `mods` until the editor says `exit`; when none is given, the game's own
/// folders (`default`, those that exist) and the editor's workspace (see [`workspace_mods`]).
pub(super) fn run(
    mods: Vec<PathBuf>,
    default: &[PathBuf],
    rules: &Rules,
    limits: Limits,
) -> ExitCode {
    let (connection, io) = frames::stdio();
    let served = serve(&connection, mods, default, rules, limits);
    drop(connection);
    // What the reading thread met (a message that is not the protocol's) explains an end better
    // than the loop's view of it.
    match (served, io.join()) {
        // As the protocol says: `exit` after `shutdown` ends with 0, without it with 1.
        (Ok(true), Ok(())) => ExitCode::SUCCESS,
        (Ok(false), Ok(())) => ExitCode::from(1),
        (_, Err(e)) => {
            eprintln!("error: the editor's messages could not be read: {e}");
            ExitCode::from(1)
        }
        (Err(e), Ok(())) => {
            eprintln!("error: {e}");
            ExitCode::from(1)
        }
    }
}

/// The handshake, then the loop.
fn serve(
    connection: &Connection,
    mods: Vec<PathBuf>,
    default: &[PathBuf],
    rules: &Rules,
    limits: Limits,
) -> Result<bool, String> {
    let capabilities = ServerCapabilities {
        text_document_sync: Some(TextDocumentSyncCapability::Kind(
            TextDocumentSyncKind::INCREMENTAL,
        )),
        completion_provider: Some(CompletionOptions {
            trigger_characters: Some(vec!["\"".into(), "'".into(), ".".into(), ":".into()]),
            ..Default::default()
        }),
        definition_provider: Some(OneOf::Left(true)),
        references_provider: Some(OneOf::Left(true)),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        code_action_provider: Some(CodeActionProviderCapability::Simple(true)),
        document_symbol_provider: Some(OneOf::Left(true)),
        rename_provider: Some(OneOf::Left(true)),
        signature_help_provider: Some(lsp_types::SignatureHelpOptions {
            trigger_characters: Some(vec!["(".into(), ",".into()]),
            ..Default::default()
        }),
        workspace_symbol_provider: Some(OneOf::Left(true)),
        ..Default::default()
    };
    let capabilities = serde_json::to_value(capabilities).map_err(|e| e.to_string())?;
    let init = connection.initialize(capabilities).map_err(|e| {
        if e.channel_is_disconnected() {
            "the input ended before an editor said `initialize`: `lantern lsp` is a language \
             server, which an editor starts and speaks to on stdin and stdout (chapter 1 of the \
             modder guide shows how)"
                .to_string()
        } else {
            e.to_string()
        }
    })?;
    let roots = if mods.is_empty() {
        // The game's folders first, then the player's, each once.
        let mut roots: Vec<PathBuf> = default.iter().filter(|d| d.is_dir()).cloned().collect();
        if let Some(folder) = workspace_mods(&init) {
            if !roots
                .iter()
                .any(|r| position::real(r) == position::real(&folder))
            {
                roots.push(folder);
            }
        }
        roots
    } else {
        mods
    };
    server::Server::new(roots, rules, limits).run(connection)
}

/// The mods folder of the editor's workspace: its `mods` folder when it has one, the folder that
/// holds it when it is a mod, else the folder itself; none when the editor names no folder.
fn workspace_mods(init: &serde_json::Value) -> Option<PathBuf> {
    let params: lsp_types::InitializeParams =
        serde_json::from_value(init.clone()).unwrap_or_default();
    #[allow(deprecated)] // `root_uri`: older clients send only it.
    let uris = params
        .workspace_folders
        .unwrap_or_default()
        .into_iter()
        .map(|f| f.uri)
        .chain(params.root_uri);
    let folders: Vec<PathBuf> = uris.filter_map(|u| position::path_of(&u)).collect();
    let folder = folders.into_iter().next()?;
    let mods = folder.join("mods");
    Some(if mods.is_dir() {
        mods
    } else if folder.join("mod.toml").is_file() {
        folder.parent().map_or(folder.clone(), |p| p.to_path_buf())
    } else {
        folder
    })
}
