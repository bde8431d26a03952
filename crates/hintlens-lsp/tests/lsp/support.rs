//! An in-process client for the server: a git repository built from an inline fixture, the
//! server on a thread over `Connection::memory()`, and helpers that speak LSP to it.
//!
//! Fixtures are multi-file strings in rust-analyzer's style:
//!
//! ```text
//! //- /pkg/same.py          the same at the base commit and in the work tree
//! //- base /pkg/api.py      only at the base commit (deleted in the work tree unless a
//! //- work /pkg/api.py      `work` section follows: then this is its work tree content)
//! ```
//!
//! `$0` in a work tree file marks the cursor for [`TestServer::hover`].

use crossbeam_channel::RecvTimeoutError;
use hintlens_lsp::Options;
use lsp_server::{Connection, Message, Notification, Request, RequestId, Response, ResponseError};
use serde_json::{Value, json};
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

const TIMEOUT: Duration = Duration::from_secs(60);

#[derive(Debug, Clone)]
pub struct Cursor {
    pub path: String,
    pub line: u32,
    /// UTF-16 code units, as LSP counts.
    pub character: u32,
}

#[derive(Debug, Default)]
pub struct Fixture {
    pub base: BTreeMap<String, String>,
    pub work: BTreeMap<String, String>,
    pub cursor: Option<Cursor>,
}

impl Fixture {
    pub fn parse(text: &str) -> Fixture {
        let mut fixture = Fixture::default();
        let mut sections: Vec<(&str, String, String)> = Vec::new();
        for line in text.lines() {
            if let Some(header) = line.strip_prefix("//- ") {
                let (side, path) = match header.split_once(' ') {
                    Some((side @ ("base" | "work"), path)) => (side, path),
                    _ => ("both", header),
                };
                let path = path.trim().trim_start_matches('/').to_owned();
                sections.push((side, path, String::new()));
            } else if let Some((_, _, body)) = sections.last_mut() {
                body.push_str(line);
                body.push('\n');
            }
        }
        for (side, path, mut body) in sections {
            if let Some(at) = body.find("$0") {
                assert_ne!(side, "base", "the cursor goes into a work tree file");
                let before = &body[..at];
                let line = before.matches('\n').count() as u32;
                let character = before.rsplit('\n').next().unwrap_or_default().encode_utf16().count() as u32;
                fixture.cursor = Some(Cursor { path: path.clone(), line, character });
                body.replace_range(at..at + 2, "");
            }
            match side {
                "base" => {
                    fixture.base.insert(path, body);
                }
                "work" => {
                    fixture.work.insert(path, body);
                }
                _ => {
                    fixture.base.insert(path.clone(), body.clone());
                    fixture.work.insert(path, body);
                }
            }
        }
        fixture
    }
}

/// Server options that log each `file_index` execution (a file parsed and indexed).
pub fn logging_parses() -> (Arc<Mutex<Vec<String>>>, Options) {
    let log: Arc<Mutex<Vec<String>>> = Arc::default();
    let sink = log.clone();
    let options = Options {
        debug_requests: true,
        salsa_events: Some(Box::new(move |event| {
            if let salsa::EventKind::WillExecute { database_key } = event.kind {
                let key = format!("{database_key:?}");
                if key.starts_with("file_index") {
                    sink.lock().unwrap().push(key);
                }
            }
        })),
        ..Options::default()
    };
    (log, options)
}

pub fn git(dir: &Path, args: &[&str]) -> String {
    let output = Command::new("git")
        .current_dir(dir)
        .args(args)
        // Independent of the machine's git configuration, and reproducible.
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_CONFIG_SYSTEM", "/dev/null")
        .env("GIT_AUTHOR_NAME", "Test")
        .env("GIT_AUTHOR_EMAIL", "test@example.com")
        .env("GIT_AUTHOR_DATE", "2024-01-01T00:00:00Z")
        .env("GIT_COMMITTER_NAME", "Test")
        .env("GIT_COMMITTER_EMAIL", "test@example.com")
        .env("GIT_COMMITTER_DATE", "2024-01-01T00:00:00Z")
        .output()
        .expect("git is installed");
    assert!(output.status.success(), "git {args:?} failed: {}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8(output.stdout).unwrap()
}

fn write(root: &Path, path: &str, text: &str) {
    let file = root.join(path);
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    std::fs::write(file, text).unwrap();
}

pub struct TestServer {
    _dir: tempfile::TempDir,
    pub root: PathBuf,
    client: Connection,
    server: Option<JoinHandle<Result<(), String>>>,
    next_id: i32,
    pub notifications: Vec<Notification>,
    /// Methods of the requests the server sent to the client, in order.
    pub server_requests: Vec<String>,
    responses: HashMap<RequestId, Response>,
    pub cursor: Option<Cursor>,
    /// What the client answers `workspace/configuration` with.
    pub configuration: Value,
    /// The text of each open document, as the server should see it.
    buffers: HashMap<String, (String, i32)>,
}

impl TestServer {
    /// A server on the fixture's repository, initialized, not yet done indexing.
    pub fn start(fixture: &str, init: Value) -> TestServer {
        TestServer::start_with(fixture, init, Options { debug_requests: true, ..Options::default() })
    }

    /// [`TestServer::start`], then waits for indexing to finish.
    pub fn ready(fixture: &str, init: Value) -> TestServer {
        let mut server = TestServer::start(fixture, init);
        server.wait_for_indexing();
        server
    }

    pub fn start_with(fixture: &str, init: Value, options: Options) -> TestServer {
        TestServer::start_prepared(fixture, init, options, |_| {})
    }

    /// [`TestServer::start_with`], with `prepare` run on the work tree before the server starts
    /// (to stage a change, or remove git's index).
    pub fn start_prepared(fixture: &str, init: Value, options: Options, prepare: impl FnOnce(&Path)) -> TestServer {
        let fixture = Fixture::parse(fixture);
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().to_owned();
        git(&root, &["init", "-q", "-b", "main", "."]);
        for (path, text) in &fixture.base {
            write(&root, path, text);
        }
        git(&root, &["add", "-A"]);
        git(&root, &["commit", "-q", "--allow-empty", "-m", "base"]);
        for path in fixture.base.keys().filter(|p| !fixture.work.contains_key(*p)) {
            std::fs::remove_file(root.join(path)).unwrap();
        }
        // Only what changed: an unchanged file stays as git indexed it.
        for (path, text) in fixture.work.iter().filter(|(path, text)| fixture.base.get(*path) != Some(*text)) {
            write(&root, path, text);
        }
        prepare(&root);

        let (server_side, client) = Connection::memory();
        let server = std::thread::spawn(move || hintlens_lsp::run(server_side, options).map_err(|e| e.to_string()));
        let mut this = TestServer {
            _dir: dir,
            root,
            client,
            server: Some(server),
            next_id: 0,
            notifications: Vec::new(),
            server_requests: Vec::new(),
            responses: HashMap::new(),
            cursor: fixture.cursor,
            configuration: Value::Null,
            buffers: HashMap::new(),
        };
        let params = json!({
            "processId": null,
            "rootUri": this.uri(""),
            "capabilities": {
                "window": { "workDoneProgress": true },
                "workspace": {
                    "codeLens": { "refreshSupport": true },
                    "configuration": true,
                    "didChangeWatchedFiles": { "dynamicRegistration": true },
                },
            },
            "initializationOptions": init,
        });
        this.request("initialize", params).expect("initialize succeeds");
        this.notify("initialized", json!({}));
        this
    }

    pub fn uri(&self, path: &str) -> String {
        let file = if path.is_empty() { self.root.clone() } else { self.root.join(path) };
        format!("file://{}", file.display())
    }

    pub fn notify(&self, method: &str, params: Value) {
        self.client.sender.send(Notification::new(method.to_owned(), params).into()).unwrap();
    }

    /// Sends a request without waiting for its answer.
    pub fn send_request(&mut self, method: &str, params: Value) -> RequestId {
        self.next_id += 1;
        let id = RequestId::from(self.next_id);
        self.client.sender.send(Request::new(id.clone(), method.to_owned(), params).into()).unwrap();
        id
    }

    pub fn response(&mut self, id: RequestId) -> Result<Value, ResponseError> {
        loop {
            if let Some(response) = self.responses.remove(&id) {
                return response.response_result;
            }
            self.pump();
        }
    }

    pub fn request(&mut self, method: &str, params: Value) -> Result<Value, ResponseError> {
        let id = self.send_request(method, params);
        self.response(id)
    }

    /// Handles one message from the server: records it, answers its requests.
    fn pump(&mut self) {
        assert!(self.pump_until(Instant::now() + TIMEOUT), "no message from the server in {TIMEOUT:?}");
    }

    /// [`TestServer::pump`], or `false` if no message comes before `deadline`.
    fn pump_until(&mut self, deadline: Instant) -> bool {
        let message = match self.client.receiver.recv_deadline(deadline) {
            Ok(message) => message,
            Err(RecvTimeoutError::Timeout) => return false,
            Err(RecvTimeoutError::Disconnected) => {
                panic!("the server stopped: {:?}", self.server.take().map(|s| s.join()))
            }
        };
        match message {
            Message::Request(request) => {
                let result = match request.method.as_str() {
                    "workspace/configuration" => json!([self.configuration]),
                    _ => Value::Null,
                };
                self.server_requests.push(request.method);
                self.client.sender.send(Response::new_ok(request.id, result).into()).unwrap();
            }
            Message::Notification(notification) => self.notifications.push(notification),
            Message::Response(response) => {
                self.responses.insert(response.id.clone(), response);
            }
        }
        true
    }

    /// Pumps until `done` holds for what has been received, or fails after a while.
    pub fn wait_until(&mut self, what: &str, mut done: impl FnMut(&TestServer) -> bool) {
        let deadline = Instant::now() + TIMEOUT;
        while !done(self) {
            assert!(self.pump_until(deadline), "timed out waiting for {what}");
        }
    }

    pub fn wait_for_indexing(&mut self) {
        self.wait_for_indexing_runs(1);
    }

    /// Waits until `runs` indexing runs have ended since the server started.
    pub fn wait_for_indexing_runs(&mut self, runs: usize) {
        let ended = |s: &TestServer| {
            s.notifications.iter().filter(|n| n.method == "$/progress" && n.params["value"]["kind"] == "end").count()
                >= runs
        };
        self.wait_until("indexing to finish", ended);
    }

    /// Tells the server that files changed on disk (1 created, 2 changed, 3 deleted).
    pub fn files_changed(&self, changes: &[(&str, u8)]) {
        let changes: Vec<Value> =
            changes.iter().map(|(path, kind)| json!({"uri": self.uri(path), "type": kind})).collect();
        self.notify("workspace/didChangeWatchedFiles", json!({"changes": changes}));
    }

    // ----- documents -----

    pub fn open(&mut self, path: &str) {
        let text = std::fs::read_to_string(self.root.join(path)).unwrap_or_default();
        let language = if path.ends_with(".java") { "java" } else { "python" };
        self.notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": self.uri(path), "languageId": language, "version": 1, "text": text}}),
        );
        self.buffers.insert(path.to_owned(), (text, 1));
    }

    /// Replaces the first occurrence of `old` in the open buffer with `new`, as an incremental
    /// change whose range the client computes in UTF-16.
    pub fn replace(&mut self, path: &str, old: &str, new: &str) {
        let (text, version) = self.buffers.get_mut(path).expect("the document is open");
        let start = text.find(old).unwrap_or_else(|| panic!("{old:?} not in {path}"));
        let position = |offset: usize| {
            let before = &text[..offset];
            let line = before.matches('\n').count();
            let character = before.rsplit('\n').next().unwrap_or_default().encode_utf16().count();
            json!({"line": line, "character": character})
        };
        let range = json!({"start": position(start), "end": position(start + old.len())});
        text.replace_range(start..start + old.len(), new);
        *version += 1;
        let version = *version;
        self.notify(
            "textDocument/didChange",
            json!({
                "textDocument": {"uri": self.uri(path), "version": version},
                "contentChanges": [{"range": range, "text": new}],
            }),
        );
    }

    pub fn close(&mut self, path: &str) {
        self.buffers.remove(path);
        self.notify("textDocument/didClose", json!({"textDocument": {"uri": self.uri(path)}}));
    }

    // ----- features -----

    fn position_params(&self, path: &str, line: u32, character: u32) -> Value {
        json!({"textDocument": {"uri": self.uri(path)}, "position": {"line": line, "character": character}})
    }

    /// The hover markdown at the fixture's cursor, with the root written `$ROOT`.
    pub fn hover(&mut self) -> String {
        let cursor = self.cursor.clone().expect("the fixture has a $0 cursor");
        self.hover_at(&cursor.path, cursor.line, cursor.character)
    }

    pub fn hover_at(&mut self, path: &str, line: u32, character: u32) -> String {
        let result = self.request("textDocument/hover", self.position_params(path, line, character)).unwrap();
        self.redact(result["contents"]["value"].as_str().unwrap_or("<no hover>"))
    }

    /// The hover markdown at the start of the first occurrence of `needle` in a work tree file.
    pub fn hover_on(&mut self, path: &str, needle: &str) -> String {
        let (line, character) = self.position_of(path, needle);
        self.hover_at(path, line, character)
    }

    /// The LSP position of the first occurrence of `needle` in a file of the work tree.
    pub fn position_of(&self, path: &str, needle: &str) -> (u32, u32) {
        let text = std::fs::read_to_string(self.root.join(path)).unwrap();
        let at = text.find(needle).unwrap_or_else(|| panic!("{needle:?} not in {path}"));
        let before = &text[..at];
        let line = before.matches('\n').count() as u32;
        (line, before.rsplit('\n').next().unwrap_or_default().encode_utf16().count() as u32)
    }

    pub fn hover_raw(&mut self, path: &str, line: u32, character: u32) -> Result<Value, ResponseError> {
        self.request("textDocument/hover", self.position_params(path, line, character))
    }

    pub fn redact(&self, text: &str) -> String {
        text.replace(&self.uri(""), "file://$ROOT")
    }

    /// The code lenses of a document, as `line: title` with one-based lines.
    pub fn lenses(&mut self, path: &str) -> Vec<String> {
        let result = self.request("textDocument/codeLens", json!({"textDocument": {"uri": self.uri(path)}})).unwrap();
        result
            .as_array()
            .unwrap()
            .iter()
            .map(|lens| {
                assert_eq!(lens["command"]["command"], "hintlens.showHints", "{lens}");
                format!(
                    "{}: {}",
                    lens["range"]["start"]["line"].as_u64().unwrap() + 1,
                    lens["command"]["title"].as_str().unwrap()
                )
            })
            .collect()
    }

    /// The latest diagnostics published for a document, as `line:start-end: message` (one-based
    /// lines, UTF-16 columns), sorted.
    pub fn diagnostics(&self, path: &str) -> Option<Vec<String>> {
        let uri = self.uri(path);
        let latest = self.notifications.iter().rev().find(|n| {
            n.method == "textDocument/publishDiagnostics" && n.params["uri"].as_str() == Some(uri.as_str())
        })?;
        let diagnostics = latest.params["diagnostics"].as_array().unwrap();
        let mut lines: Vec<String> = diagnostics
            .iter()
            .map(|d| {
                assert_eq!((d["severity"].as_u64(), d["source"].as_str()), (Some(3), Some("hintlens")), "{d}");
                let range = &d["range"];
                format!(
                    "{}:{}-{}: {}",
                    range["start"]["line"].as_u64().unwrap() + 1,
                    range["start"]["character"],
                    range["end"]["character"],
                    d["message"].as_str().unwrap()
                )
            })
            .collect();
        lines.sort();
        Some(lines)
    }

    pub fn wait_for_diagnostics(&mut self, path: &str, expected: &[&str]) {
        let what = format!("diagnostics {expected:#?} of {path}");
        let mut expected: Vec<String> = expected.iter().map(|s| s.to_string()).collect();
        expected.sort();
        let deadline = Instant::now() + Duration::from_secs(10);
        while self.diagnostics(path).as_ref() != Some(&expected) {
            assert!(self.pump_until(deadline), "timed out waiting for {what}; last: {:#?}", self.diagnostics(path));
        }
    }
}

impl Drop for TestServer {
    fn drop(&mut self) {
        let id = self.send_request("shutdown", Value::Null);
        if std::thread::panicking() {
            return;
        }
        self.response(id).expect("shutdown succeeds");
        self.notify("exit", Value::Null);
        let result = self.server.take().unwrap().join().expect("the server thread does not panic");
        assert_eq!(result, Ok(()), "the server stops cleanly");
    }
}
