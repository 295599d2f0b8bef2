//! The server's state and its loop: the open documents (their unsaved texts), the last check of
//! the mod set, and one message at a time. Edits arriving together are checked once: the server
//! reads every message already waiting before it checks again, so a burst of keystrokes costs
//! one check, and a request is answered from a check that includes every edit sent before it.

use super::analysis::{check, Analysis};
use super::document::Document;
use super::position::{path_of, real};
use super::vocabulary::{DocKind, Vocabulary};
use crate::host::Rules;
use crate::lua::Limits;
use lsp_server::{Connection, Message, Notification, Request, Response};
use lsp_types::notification::Notification as _;
use lsp_types::request::Request as _;
use lsp_types::{notification as note, request as req, Uri};
use serde_json::Value;
use std::collections::{BTreeSet, HashMap};
use std::path::PathBuf;
use std::sync::Arc;

/// An open document.
struct Doc {
    text: Document,
    version: i32,
    /// Its real path, when it names a file.
    path: Option<PathBuf>,
}

pub(super) struct Server {
    roots: Vec<PathBuf>,
    rules: Rules,
    limits: Limits,
    docs: HashMap<String, Doc>,
    analysis: Option<Analysis>,
    /// A document changed since the last check.
    stale: bool,
    /// The URIs diagnostics were last published for: a file that became clean is cleared.
    published: BTreeSet<String>,
    /// The schemas and the Lua API, for completion and hover.
    words: Vocabulary,
    /// How many checks ran: for the log, and for the tests that count them.
    checks: u64,
    /// The data files as the last check parsed them: the next parses only those that changed.
    memo: crate::content::parse::ParseMemo,
}

impl Server {
    pub(super) fn new(roots: Vec<PathBuf>, rules: &Rules, limits: Limits) -> Server {
        Server {
            roots,
            rules: rules.clone(),
            limits,
            docs: HashMap::new(),
            analysis: None,
            stale: true,
            published: BTreeSet::new(),
            words: Vocabulary::of(rules),
            checks: 0,
            memo: Default::default(),
        }
    }

    /// Runs until the client says `exit` or goes away: whether it said `shutdown` first. After
    /// `shutdown` every request is refused as the protocol says (`InvalidRequest`).
    pub(super) fn run(mut self, connection: &Connection) -> Result<bool, String> {
        let mut shut_down = false;
        loop {
            let message = if self.stale {
                match connection.receiver.try_recv() {
                    Ok(m) => m,
                    Err(e) if e.is_empty() => {
                        self.recheck(connection);
                        continue;
                    }
                    Err(_) => return Ok(shut_down),
                }
            } else {
                match connection.receiver.recv() {
                    Ok(m) => m,
                    Err(_) => return Ok(shut_down),
                }
            };
            match message {
                Message::Request(request) if shut_down => {
                    let refused = Response::new_err(
                        request.id,
                        lsp_server::ErrorCode::InvalidRequest as i32,
                        format!(
                            "`{}` after `shutdown`: the server is shutting down",
                            request.method
                        ),
                    );
                    send(connection, Message::Response(refused));
                }
                Message::Request(request) if request.method == req::Shutdown::METHOD => {
                    shut_down = true;
                    send(
                        connection,
                        Message::Response(Response::new_ok(request.id, ())),
                    );
                }
                Message::Request(request) => {
                    if self.stale {
                        self.recheck(connection);
                    }
                    let response = self.answer(request);
                    send(connection, Message::Response(response));
                }
                Message::Notification(n) if n.method == note::Exit::METHOD => return Ok(shut_down),
                Message::Notification(n) => self.notified(n),
                Message::Response(_) => {}
            }
        }
    }

    /// A document opened, changed, saved or closed, or files changed on disk.
    fn notified(&mut self, n: Notification) {
        match n.method.as_str() {
            note::DidOpenTextDocument::METHOD => {
                if let Ok(p) =
                    serde_json::from_value::<lsp_types::DidOpenTextDocumentParams>(n.params)
                {
                    let path = path_of(&p.text_document.uri).map(|p| real(&p));
                    self.docs.insert(
                        p.text_document.uri.as_str().to_string(),
                        Doc {
                            text: Document::new(p.text_document.text),
                            version: p.text_document.version,
                            path,
                        },
                    );
                }
            }
            note::DidChangeTextDocument::METHOD => {
                if let Ok(p) =
                    serde_json::from_value::<lsp_types::DidChangeTextDocumentParams>(n.params)
                {
                    if let Some(doc) = self.docs.get_mut(p.text_document.uri.as_str()) {
                        for change in p.content_changes {
                            doc.text.change(change);
                        }
                        doc.version = p.text_document.version;
                    }
                }
            }
            note::DidCloseTextDocument::METHOD => {
                if let Ok(p) =
                    serde_json::from_value::<lsp_types::DidCloseTextDocumentParams>(n.params)
                {
                    self.docs.remove(p.text_document.uri.as_str());
                }
            }
            // Saved, or changed on disk by another program: read again.
            note::DidSaveTextDocument::METHOD | note::DidChangeWatchedFiles::METHOD => {}
            _ => return,
        }
        self.stale = true;
    }

    /// Checks the mod set with the open documents' texts and publishes what changed.
    fn recheck(&mut self, connection: &Connection) {
        self.stale = false;
        let unsaved: crate::mods::Unsaved = self
            .docs
            .values()
            .filter_map(|d| {
                Some((
                    d.path.clone().filter(|p| p.is_file())?,
                    Arc::from(d.text.text()),
                ))
            })
            .collect();
        let analysis = check(
            &self.roots,
            &self.rules,
            self.limits,
            Arc::new(unsaved),
            &mut self.memo,
            self.analysis.as_ref(),
        );
        self.checks += 1;
        let (by_file, placeless) = super::publish::diagnostics(&analysis);
        let mut now = BTreeSet::new();
        for (key, (uri, diagnostics)) in by_file {
            let version = self.docs.get(&key).map(|d| d.version);
            publish(connection, uri, diagnostics, version);
            now.insert(key);
        }
        for gone in self.published.difference(&now) {
            if let Ok(uri) = gone.parse::<Uri>() {
                let version = self.docs.get(gone).map(|d| d.version);
                publish(connection, uri, Vec::new(), version);
            }
        }
        self.published = now;
        for line in placeless {
            let params = lsp_types::LogMessageParams {
                typ: lsp_types::MessageType::WARNING,
                message: line,
            };
            send(
                connection,
                Message::Notification(Notification::new(note::LogMessage::METHOD.into(), params)),
            );
        }
        self.analysis = Some(analysis);
    }

    /// The answer to a request.
    fn answer(&mut self, request: Request) -> Response {
        let id = request.id.clone();
        let result = self.result(request);
        match result {
            Ok(value) => Response::new_ok(id, value),
            Err(Refusal::Unknown(method)) => Response::new_err(
                id,
                lsp_server::ErrorCode::MethodNotFound as i32,
                format!("lantern's language server does not answer `{method}`"),
            ),
            Err(Refusal::Params(message)) => {
                Response::new_err(id, lsp_server::ErrorCode::InvalidParams as i32, message)
            }
            Err(Refusal::Failed(message)) => {
                Response::new_err(id, lsp_server::ErrorCode::RequestFailed as i32, message)
            }
        }
    }

    fn result(&self, request: Request) -> Result<Value, Refusal> {
        let Some(a) = self.analysis.as_ref() else {
            return Ok(Value::Null);
        };
        let json = |v: serde_json::Result<Value>| v.map_err(|e| Refusal::Params(e.to_string()));
        match request.method.as_str() {
            req::Completion::METHOD => {
                let p: lsp_types::CompletionParams = params(request)?;
                let Some((file, kind, text, offset)) = self.place(a, &p.text_document_position)
                else {
                    return Ok(Value::Null);
                };
                let items = super::complete::complete(&self.words, a, file, kind, text, offset);
                json(serde_json::to_value(items))
            }
            req::GotoDefinition::METHOD => {
                let p: lsp_types::GotoDefinitionParams = params(request)?;
                let Some((file, kind, text, offset)) =
                    self.place(a, &p.text_document_position_params)
                else {
                    return Ok(Value::Null);
                };
                let found = super::navigate::definition(a, file, kind, text, offset);
                json(serde_json::to_value(found))
            }
            req::References::METHOD => {
                let p: lsp_types::ReferenceParams = params(request)?;
                let Some((file, kind, text, offset)) = self.place(a, &p.text_document_position)
                else {
                    return Ok(Value::Null);
                };
                let include = p.context.include_declaration;
                let found = super::navigate::references(a, file, kind, text, offset, include);
                json(serde_json::to_value(found))
            }
            req::HoverRequest::METHOD => {
                let p: lsp_types::HoverParams = params(request)?;
                let Some((file, kind, text, offset)) =
                    self.place(a, &p.text_document_position_params)
                else {
                    return Ok(Value::Null);
                };
                let hover = super::navigate::hover(&self.words, a, file, kind, text, offset).map(
                    |contents| lsp_types::Hover {
                        contents: lsp_types::HoverContents::Markup(contents),
                        range: None,
                    },
                );
                json(serde_json::to_value(hover))
            }
            req::Rename::METHOD => {
                let p: lsp_types::RenameParams = params(request)?;
                let Some((file, kind, text, offset)) = self.place(a, &p.text_document_position)
                else {
                    return Ok(Value::Null);
                };
                let edit = super::rename::rename(a, file, kind, text, offset, &p.new_name)
                    .map_err(Refusal::Failed)?;
                json(serde_json::to_value(edit))
            }
            req::SignatureHelpRequest::METHOD => {
                let p: lsp_types::SignatureHelpParams = params(request)?;
                let Some((_, kind, text, offset)) = self.place(a, &p.text_document_position_params)
                else {
                    return Ok(Value::Null);
                };
                let help = (kind == DocKind::Lua)
                    .then(|| super::signature::help(&self.words, text, offset))
                    .flatten();
                json(serde_json::to_value(help))
            }
            req::DocumentSymbolRequest::METHOD => {
                let p: lsp_types::DocumentSymbolParams = params(request)?;
                let Some(doc) = self.docs.get(p.text_document.uri.as_str()) else {
                    return Ok(Value::Null);
                };
                let kind =
                    path_of(&p.text_document.uri).map_or(DocKind::Other, |p| DocKind::of(&p));
                let file = doc.path.as_deref().and_then(|p| a.file(p));
                let symbols = super::symbols::document(a, file, kind, doc.text.text());
                json(serde_json::to_value(
                    lsp_types::DocumentSymbolResponse::Nested(symbols),
                ))
            }
            req::WorkspaceSymbolRequest::METHOD => {
                let p: lsp_types::WorkspaceSymbolParams = params(request)?;
                let found = super::symbols::workspace(a, &p.query);
                json(serde_json::to_value(
                    lsp_types::WorkspaceSymbolResponse::Flat(found),
                ))
            }
            req::CodeActionRequest::METHOD => {
                let p: lsp_types::CodeActionParams = params(request)?;
                let fixes =
                    super::publish::quick_fixes(&p.text_document.uri, &p.context.diagnostics);
                json(serde_json::to_value(fixes))
            }
            _ => Err(Refusal::Unknown(request.method)),
        }
    }

    /// The open document a position is in as the answers read it: its file in the analysis (when
    /// it was read from disk), its kind, its text and the position's byte offset.
    fn place<'s>(
        &'s self,
        a: &Analysis,
        at: &lsp_types::TextDocumentPositionParams,
    ) -> Option<(Option<crate::diag::FileId>, DocKind, &'s str, usize)> {
        let (doc, kind, offset) = self.at(at)?;
        let file = doc.path.as_deref().and_then(|p| a.file(p));
        Some((file, kind, doc.text.text(), offset))
    }

    /// The open document a position is in, its kind, and the position's byte offset.
    fn at(&self, at: &lsp_types::TextDocumentPositionParams) -> Option<(&Doc, DocKind, usize)> {
        let doc = self.docs.get(at.text_document.uri.as_str())?;
        let kind = path_of(&at.text_document.uri).map_or(DocKind::Other, |p| DocKind::of(&p));
        Some((doc, kind, doc.text.lines().offset(at.position)))
    }
}

/// Why a request got no answer: a method the server does not know (`MethodNotFound`),
/// parameters it cannot read (`InvalidParams`), or a request it cannot do (`RequestFailed`: a
/// rename to a name that is not one).
enum Refusal {
    Unknown(String),
    Params(String),
    Failed(String),
}

/// A request's parameters.
fn params<P: serde::de::DeserializeOwned>(request: Request) -> Result<P, Refusal> {
    serde_json::from_value(request.params)
        .map_err(|e| Refusal::Params(format!("bad parameters: {e}")))
}

fn publish(
    connection: &Connection,
    uri: Uri,
    diagnostics: Vec<lsp_types::Diagnostic>,
    version: Option<i32>,
) {
    let params = lsp_types::PublishDiagnosticsParams {
        uri,
        diagnostics,
        version,
    };
    send(
        connection,
        Message::Notification(Notification::new(
            note::PublishDiagnostics::METHOD.into(),
            params,
        )),
    );
}

/// Sends a message; a client gone is noticed by the loop's next read.
fn send(connection: &Connection, message: Message) {
    let _ = connection.sender.send(message);
}
