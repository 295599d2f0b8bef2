//! A language server client for tests and benches: runs a binary's `lsp` over stdio and speaks
//! the protocol to it, as an editor does (Content-Length framing, requests answered by id,
//! notifications collected as they come).

#![allow(dead_code)]

use lsp_server::{Message, Notification, Request, RequestId};
use serde_json::{json, Value};
use std::io::BufReader;
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

/// How long a test waits for a message before it fails rather than hangs: far beyond any answer
/// (a check of a small mod set takes milliseconds); not a timing assertion.
const PATIENCE: Duration = Duration::from_secs(120);

pub(crate) struct Client {
    child: Child,
    stdin: ChildStdin,
    incoming: mpsc::Receiver<Message>,
    next_id: i32,
    /// Notifications received and not yet looked at, oldest first.
    pub notes: Vec<Notification>,
}

/// The `file://` URI of a path (spaces and the like are not in the tests' paths).
pub(crate) fn uri(path: &Path) -> String {
    let real = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    format!("file://{}", real.display())
}

impl Client {
    /// Starts `exe lsp <args>` in `dir` and does the handshake, the workspace being `dir`.
    pub(crate) fn start(exe: &Path, args: &[&str], dir: &Path) -> (Client, Value) {
        let mut child = Command::new(exe)
            .arg("lsp")
            .args(args)
            .current_dir(dir)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("the server starts");
        let stdin = child.stdin.take().unwrap();
        let mut stdout = BufReader::new(child.stdout.take().unwrap());
        let (tx, incoming) = mpsc::channel();
        std::thread::spawn(move || {
            while let Ok(Some(message)) = Message::read(&mut stdout) {
                if tx.send(message).is_err() {
                    break;
                }
            }
        });
        let mut client = Client {
            child,
            stdin,
            incoming,
            next_id: 0,
            notes: Vec::new(),
        };
        let init = client.request(
            "initialize",
            json!({
                "processId": null,
                "rootUri": uri(dir),
                "capabilities": {},
            }),
        );
        client.notify("initialized", json!({}));
        (client, init)
    }

    /// Sends a notification.
    pub(crate) fn notify(&mut self, method: &str, params: Value) {
        let message = Message::Notification(Notification::new(method.to_string(), params));
        message.write(&mut self.stdin).expect("the server reads");
    }

    /// Sends a request and waits for its answer, keeping the notifications that come before it.
    pub(crate) fn request(&mut self, method: &str, params: Value) -> Value {
        match self.answer(method, params) {
            Ok(v) => v,
            Err(e) => panic!("`{method}` failed: {e}"),
        }
    }

    /// Sends a request: its result, or its error's message.
    pub(crate) fn answer(&mut self, method: &str, params: Value) -> Result<Value, String> {
        self.answer_coded(method, params)
            .map_err(|(_, message)| message)
    }

    /// Sends a request: its result, or its error's code and message.
    pub(crate) fn answer_coded(
        &mut self,
        method: &str,
        params: Value,
    ) -> Result<Value, (i32, String)> {
        self.next_id += 1;
        let id = RequestId::from(self.next_id);
        let message = Message::Request(Request::new(id.clone(), method.to_string(), params));
        message.write(&mut self.stdin).expect("the server reads");
        loop {
            match self
                .incoming
                .recv_timeout(PATIENCE)
                .expect("the server answers")
            {
                Message::Response(r) if r.id == id => {
                    return r.response_result.map_err(|e| (e.code, e.message));
                }
                Message::Notification(n) => self.notes.push(n),
                _ => {}
            }
        }
    }

    /// Opens a file as an editor does, with its text as on disk.
    pub(crate) fn open(&mut self, path: &Path) {
        let text = std::fs::read_to_string(path).unwrap();
        let language = if path.extension().is_some_and(|e| e == "lua") {
            "lua"
        } else {
            "toml"
        };
        self.notify(
            "textDocument/didOpen",
            json!({ "textDocument": { "uri": uri(path), "languageId": language, "version": 1, "text": text } }),
        );
    }

    /// Replaces a document's whole text (unsaved).
    pub(crate) fn change(&mut self, path: &Path, version: i32, text: &str) {
        self.notify(
            "textDocument/didChange",
            json!({ "textDocument": { "uri": uri(path), "version": version }, "contentChanges": [ { "text": text } ] }),
        );
    }

    /// Waits until the server has handled every message sent so far: it answers a request only
    /// after checking every edit sent before it, and publishes that check's diagnostics first.
    pub(crate) fn sync(&mut self) {
        let nowhere = json!({ "textDocument": { "uri": "file:///nowhere.toml" }, "position": { "line": 0, "character": 0 } });
        self.request("textDocument/hover", nowhere);
    }

    /// The latest diagnostics published for `path` among the notifications received (None when
    /// none was).
    pub(crate) fn published(&self, path: &Path) -> Option<Vec<Value>> {
        let uri = uri(path);
        self.notes
            .iter()
            .rev()
            .filter(|n| n.method == "textDocument/publishDiagnostics")
            .find(|n| n.params["uri"] == uri.as_str())
            .map(|n| {
                n.params["diagnostics"]
                    .as_array()
                    .cloned()
                    .unwrap_or_default()
            })
    }

    /// A position's request (`textDocument/completion`, `/definition`, ...) at line and UTF-16
    /// column.
    pub(crate) fn at(
        &mut self,
        method: &str,
        path: &Path,
        line: u32,
        character: u32,
        extra: Value,
    ) -> Value {
        let mut params = json!({
            "textDocument": { "uri": uri(path) },
            "position": { "line": line, "character": character },
        });
        if let (Some(p), Some(extra)) = (params.as_object_mut(), extra.as_object()) {
            p.extend(extra.clone());
        }
        self.request(method, params)
    }

    /// Says `exit` without `shutdown`, and waits for the server to end: its exit status.
    pub(crate) fn exit_at_once(mut self) -> std::process::ExitStatus {
        self.notify("exit", Value::Null);
        self.child.wait().expect("the server ends")
    }

    /// Says `shutdown` and `exit`, and waits for the server to end: its exit status.
    pub(crate) fn stop(mut self) -> std::process::ExitStatus {
        self.request("shutdown", Value::Null);
        self.notify("exit", Value::Null);
        self.child.wait().expect("the server ends")
    }
}
