//! The review page's server: loopback only, its own embedded assets and a small JSON API over
//! the loaded results, git objects and the decisions file.
//!
//! Every request is checked before it is routed:
//! - its `Host` must be the served address (`127.0.0.1:PORT`), which a page of another site
//!   reaching this port through a rebound DNS name cannot send (421 otherwise);
//! - a state-changing request (POST) must not come from another origin: an `Origin` other than
//!   the served one, or `Sec-Fetch-Site: cross-site`, is refused (403), and its body must be
//!   JSON (415), which no plain HTML form can send;
//! - the path is matched against a fixed table of names; no part of a URL is ever joined to a
//!   filesystem path (anything else is 404).

use crate::audit::Contracts;
use crate::benchmark::{Benchmark, Task};
use crate::curate::{identifiers, render};
use crate::decisions::{Decision, DecisionLog, IdentifierKey, Verdict};
use crate::source::Repositories;
use hintlens_batch::RepoLocator;
use hintlens_projection::Projection;
use hintlens_syntax::Frontend;
use serde_json::{Value, json};
use std::io::Read;
use std::net::{Ipv4Addr, SocketAddr};
use std::sync::Arc;

/// The page and its script and style, compiled in: nothing is read from disk to serve them.
const INDEX_HTML: &str = include_str!("assets/index.html");
const APP_JS: &str = include_str!("assets/app.js");
const APP_CSS: &str = include_str!("assets/app.css");
const FAVICON_SVG: &str = include_str!("assets/favicon.svg");

/// A decision larger than this is refused (a note is text a person types).
const MAX_BODY: usize = 64 * 1024;

/// What the server answers from.
pub struct App {
    pub benchmark: Benchmark,
    pub log: DecisionLog,
    pub locator: RepoLocator,
    /// Each task's hidden naming contracts.
    pub contracts: Contracts,
    repositories: Repositories,
    frontends: Vec<Box<dyn Frontend>>,
}

impl App {
    /// The app, with the hidden contracts told the defaults of the dataset's shape.
    pub fn new(benchmark: Benchmark, log: DecisionLog, locator: RepoLocator) -> App {
        let contracts = Contracts::compute(&benchmark, &[]).unwrap_or_default();
        App {
            benchmark,
            log,
            locator,
            contracts,
            repositories: Repositories::default(),
            frontends: hintlens_batch::frontends(),
        }
    }

    /// The hidden contracts told these fields instead (`--told`): an error names a field no
    /// row has.
    pub fn told(mut self, fields: &[String]) -> Result<App, String> {
        self.contracts = Contracts::compute(&self.benchmark, fields)?;
        Ok(self)
    }
}

/// The server, bound and not yet serving.
pub struct ReviewServer {
    server: Arc<tiny_http::Server>,
    addr: SocketAddr,
    app: App,
}

/// Stops a serving [`ReviewServer`] from another thread.
#[derive(Clone)]
pub struct Stopper(Arc<tiny_http::Server>);

impl Stopper {
    pub fn stop(&self) {
        self.0.unblock();
    }
}

/// An answer: status, type and body.
struct Reply {
    status: u16,
    content_type: &'static str,
    body: Vec<u8>,
}

impl Reply {
    fn json(status: u16, value: &Value) -> Reply {
        Reply { status, content_type: "application/json", body: serde_json::to_vec(value).unwrap_or_default() }
    }

    fn error(status: u16, message: impl Into<String>) -> Reply {
        Reply::json(status, &json!({"error": message.into()}))
    }

    fn asset(content_type: &'static str, text: &str) -> Reply {
        Reply { status: 200, content_type, body: text.as_bytes().to_vec() }
    }
}

impl ReviewServer {
    /// Binds 127.0.0.1:`port` (0: a free port). Never any other interface.
    pub fn bind(app: App, port: u16) -> Result<ReviewServer, String> {
        let server = tiny_http::Server::http((Ipv4Addr::LOCALHOST, port)).map_err(|e| {
            format!("cannot listen on 127.0.0.1:{port}: {e}; choose another --port, or 0 for a free one")
        })?;
        let addr =
            server.server_addr().to_ip().ok_or_else(|| "the server is not listening on an IP address".to_owned())?;
        Ok(ReviewServer { server: Arc::new(server), addr, app })
    }

    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// `http://127.0.0.1:PORT/`.
    pub fn url(&self) -> String {
        format!("http://{}/", self.addr)
    }

    pub fn stopper(&self) -> Stopper {
        Stopper(self.server.clone())
    }

    /// Answers requests one at a time until stopped. One at a time keeps the decisions file's
    /// lines in the order their requests were acknowledged.
    pub fn serve(mut self) {
        let host = self.addr.to_string();
        let origin = format!("http://{host}");
        while let Ok(mut request) = self.server.recv() {
            let reply = match check(&request, &host, &origin) {
                Err(reply) => reply,
                Ok(()) => route(&mut self.app, &mut request),
            };
            respond(request, reply);
        }
    }
}

fn header<'r>(request: &'r tiny_http::Request, name: &str) -> Option<&'r str> {
    request.headers().iter().find(|h| h.field.as_str().as_str().eq_ignore_ascii_case(name)).map(|h| h.value.as_str())
}

/// The checks every request passes before it is routed (see the module's documentation).
fn check(request: &tiny_http::Request, host: &str, origin: &str) -> Result<(), Reply> {
    match header(request, "Host") {
        Some(h) if h == host => {}
        other => {
            return Err(Reply::error(
                421,
                format!(
                    "this server answers only requests for {host} (the Host header says {}): open http://{host}/",
                    other.unwrap_or("nothing")
                ),
            ));
        }
    }
    if *request.method() == tiny_http::Method::Post {
        if let Some(o) = header(request, "Origin")
            && o != origin
        {
            return Err(Reply::error(
                403,
                format!("a change from the origin {o} is refused: only {origin} may change decisions"),
            ));
        }
        if header(request, "Sec-Fetch-Site").is_some_and(|s| s == "cross-site") {
            return Err(Reply::error(403, "a cross-site change is refused"));
        }
        let json = header(request, "Content-Type")
            .is_some_and(|t| t.trim().to_ascii_lowercase().starts_with("application/json"));
        if !json {
            return Err(Reply::error(415, "a change must be sent as application/json"));
        }
    }
    Ok(())
}

fn respond(request: tiny_http::Request, reply: Reply) {
    let mut response = tiny_http::Response::from_data(reply.body).with_status_code(reply.status);
    let headers: [(&str, &str); 6] = [
        ("Content-Type", reply.content_type),
        ("Cache-Control", "no-store"),
        ("X-Content-Type-Options", "nosniff"),
        ("X-Frame-Options", "DENY"),
        ("Referrer-Policy", "no-referrer"),
        (
            "Content-Security-Policy",
            "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
        ),
    ];
    for (name, value) in headers {
        if let Ok(h) = tiny_http::Header::from_bytes(name.as_bytes(), value.as_bytes()) {
            response.add_header(h);
        }
    }
    // A client gone away is no failure of the server.
    let _ = request.respond(response);
}

/// The fixed table of what is served. The path is compared whole; a query string is parsed
/// into values looked up in the loaded data, never used as a path.
fn route(app: &mut App, request: &mut tiny_http::Request) -> Reply {
    let url = request.url().to_owned();
    let (path, query) = url.split_once('?').unwrap_or((&url, ""));
    let query = parse_query(query);
    let get = |name: &str| query.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str());
    let method = request.method().clone();
    match (&method, path) {
        (tiny_http::Method::Get | tiny_http::Method::Head, "/" | "/index.html") => {
            Reply::asset("text/html; charset=utf-8", INDEX_HTML)
        }
        (tiny_http::Method::Get | tiny_http::Method::Head, "/app.js") => {
            Reply::asset("text/javascript; charset=utf-8", APP_JS)
        }
        (tiny_http::Method::Get | tiny_http::Method::Head, "/app.css") => {
            Reply::asset("text/css; charset=utf-8", APP_CSS)
        }
        (tiny_http::Method::Get | tiny_http::Method::Head, "/favicon.svg") => {
            Reply::asset("image/svg+xml", FAVICON_SVG)
        }
        (tiny_http::Method::Get, "/api/tasks") => Reply::json(200, &task_list(app)),
        (tiny_http::Method::Get, "/api/task") => match get("id") {
            Some(id) => task_view(app, id, get("selection"), get("projection")),
            None => Reply::error(400, "name the task: /api/task?id=INSTANCE_ID"),
        },
        (tiny_http::Method::Post, "/api/decision") => {
            let mut body = Vec::new();
            let read = request.as_reader().take(MAX_BODY as u64 + 1).read_to_end(&mut body);
            match read {
                Err(e) => Reply::error(400, format!("cannot read the request body: {e}")),
                Ok(n) if n > MAX_BODY => Reply::error(413, format!("a decision is at most {MAX_BODY} bytes")),
                Ok(_) => decide(app, &body),
            }
        }
        (
            _,
            "/" | "/index.html" | "/app.js" | "/app.css" | "/favicon.svg" | "/api/tasks" | "/api/task"
            | "/api/decision",
        ) => Reply::error(405, format!("{method} is not allowed on {path}")),
        _ => Reply::error(404, "no such page: the review serves /, /app.js, /app.css, /favicon.svg and /api/…"),
    }
}

/// `a=1&b=x%20y` → [("a", "1"), ("b", "x y")]; `+` is a space, as forms and URLSearchParams
/// write it.
fn parse_query(query: &str) -> Vec<(String, String)> {
    let decode = |s: &str| percent_encoding::percent_decode_str(&s.replace('+', " ")).decode_utf8_lossy().into_owned();
    query
        .split('&')
        .filter(|p| !p.is_empty())
        .map(|p| {
            let (k, v) = p.split_once('=').unwrap_or((p, ""));
            (decode(k), decode(v))
        })
        .collect()
}

/// The number of identifiers of each selection of a record.
fn counts(record: &Value) -> serde_json::Map<String, Value> {
    record
        .get("selections")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
        .map(|(name, ids)| (name.clone(), json!(ids.as_array().map_or(0, Vec::len))))
        .collect()
}

fn task_summary(app: &App, task: &Task) -> Value {
    let decisions = app.log.decisions();
    let state = decisions.task(&task.instance_id);
    let (mut dropped, mut kept) = (0, 0);
    for (_, s) in decisions.identifiers(&task.instance_id) {
        match s.verdict {
            Some(Verdict::Drop) => dropped += 1,
            Some(Verdict::Keep) => kept += 1,
            None => {}
        }
    }
    json!({
        "id": task.instance_id,
        "repo": task.repo,
        "status": task.status,
        "counts": counts(&task.record),
        "hvm": task.hvm(),
        "reviewed": state.is_some_and(|s| s.reviewed),
        "flagged": state.is_some_and(|s| s.flagged),
        "dropped": dropped,
        "kept": kept,
        "hidden": app.contracts.of(&task.instance_id).map(<[_]>::len),
    })
}

fn task_list(app: &App) -> Value {
    let tasks: Vec<Value> = app.benchmark.tasks.iter().map(|t| task_summary(app, t)).collect();
    json!({
        "results": app.benchmark.results.display().to_string(),
        "decisions": app.log.path().display().to_string(),
        "selections": app.benchmark.selections(),
        "projections": Projection::ALL.iter().map(|p| p.as_str()).collect::<Vec<_>>(),
        "judged": app.benchmark.judged,
        "audit": app.contracts,
        "tasks": tasks,
    })
}

/// Everything the task view shows, for one selection and projection.
fn task_view(app: &mut App, id: &str, selection: Option<&str>, projection: Option<&str>) -> Reply {
    let Some(task) = app.benchmark.task(id) else {
        return Reply::error(404, format!("no task {id} in {}", app.benchmark.results.display()));
    };
    let record = &task.record;
    let selections: Vec<String> =
        record.get("selections").and_then(Value::as_object).map(|m| m.keys().cloned().collect()).unwrap_or_default();
    let selection = selection
        .map(str::to_owned)
        .or_else(|| selections.iter().find(|s| *s == "defuse").or(selections.first()).cloned())
        .unwrap_or_else(|| "defuse".into());
    let projection: Projection = match projection.unwrap_or("declaration").parse() {
        Ok(p) => p,
        Err(e) => return Reply::error(400, e),
    };
    let ids = match identifiers(record, &selection) {
        Ok(ids) => ids,
        Err(e) => return Reply::error(422, format!("{id}: {e}")),
    };
    let requirements = task.row.as_ref().and_then(|r| r.text_field("requirements"));
    let decisions = app.log.decisions();
    let dropped = |v: &Value| decisions.is_dropped(id, &IdentifierKey::of(v));
    let key = format!("{selection}+{projection}");
    let batch = record.get("hints").and_then(|h| h.get(&key)).and_then(Value::as_str);
    // As `augment --decisions` does: a hint that lost nothing is the batch's own text (records
    // written before `parent_kind` render a member's parent as a class).
    let curated = match batch {
        Some(text) if !ids.iter().any(|(_, v)| dropped(v)) => text.to_owned(),
        _ => render(&ids, projection, requirements, &|v| !dropped(v)),
    };
    let hint = json!({
        "key": key,
        "batch": batch,
        "all": render(&ids, projection, requirements, &|_| true),
        "curated": curated,
    });
    let snapshots = app.repositories.snapshots(&app.locator, task);
    let decisions = app.log.decisions();
    let identifier_views: Vec<Value> = ids
        .iter()
        .map(|(ident, value)| {
            let key = IdentifierKey::of(value);
            let sites: Vec<(String, u32)> = ident.evidence.iter().map(|e| (e.path.clone(), e.line)).collect();
            let evidence: Vec<Value> = ident
                .evidence
                .iter()
                .zip(snapshots.lines(&sites))
                .map(|(e, text)| json!({"path": e.path, "line": e.line, "rule": e.rule.map(|r| r.as_str()), "text": text}))
                .collect();
            json!({
                "key": key,
                "name": ident.name,
                "qualified_name": ident.qualified_name,
                "kind": ident.kind,
                "entity": ident.entity,
                "path": ident.path,
                "line": ident.line,
                "is_new_file": ident.is_new_file,
                "signature": ident.signature,
                "direction": ident.direction,
                "resolution": ident.resolution,
                "entry": render(std::slice::from_ref(&(ident.clone(), *value)), Projection::Declaration, None, &|_| true),
                "base_occurrences": ident.base_occurrences,
                "necessity": ident.necessity,
                "in_problem_statement": ident.in_problem_statement,
                "definition": snapshots.definition(&app.frontends, ident),
                "evidence": evidence,
                "judge": task.judge.get(&ident.qualified_name),
                "decision": decisions.identifier(id, &key),
            })
        })
        .collect();
    let row = task.row.as_ref();
    Reply::json(
        200,
        &json!({
            "id": task.instance_id,
            "repo": task.repo,
            "status": task.status,
            "error": record.get("error"),
            "notes": record.get("notes"),
            "problem_statement": row.map(|r| r.problem_statement.as_str()),
            "base_commit": row.map(|r| r.base_commit.as_str()).or_else(|| record.get("base_commit").and_then(Value::as_str)),
            "snapshot": {"label": snapshots.label, "problem": snapshots.problem},
            "selection": selection,
            "selections": selections,
            "projection": projection.as_str(),
            "hint": hint,
            "identifiers": identifier_views,
            "hidden_contracts": app.contracts.of(id),
            "told": app.contracts.told,
            "task_decision": decisions.task(id),
            "summary": task_summary(app, task),
        }),
    )
}

/// Records a decision the page sent, once it names a task and identifier the results hold.
fn decide(app: &mut App, body: &[u8]) -> Reply {
    let decision: Decision = match serde_json::from_slice(body) {
        Ok(d) => d,
        Err(e) => return Reply::error(400, format!("not a decision: {e}")),
    };
    let Some(task) = app.benchmark.task(decision.instance_id()) else {
        return Reply::error(404, format!("no task {} in the results", decision.instance_id()));
    };
    if let Decision::Identifier { identifier, .. } = &decision {
        let known = IdentifierKey::selected(&task.record).any(|k| k == *identifier);
        if !known {
            return Reply::error(
                404,
                format!(
                    "task {} has no identifier {} ({}, {})",
                    task.instance_id, identifier.qualified_name, identifier.kind, identifier.path
                ),
            );
        }
    }
    let instance_id = decision.instance_id().to_owned();
    match app.log.record(decision) {
        Ok(entry) => {
            let task = app.benchmark.task(&instance_id).expect("checked above");
            Reply::json(200, &json!({"ok": true, "time_ms": entry.time_ms, "summary": task_summary(app, task)}))
        }
        Err(e) => Reply::error(500, format!("{e}: the decision was not recorded")),
    }
}

#[cfg(test)]
mod tests {
    use super::parse_query;

    #[test]
    fn queries_are_decoded() {
        assert_eq!(
            parse_query("id=a%2Fb+c&selection=defuse&&x"),
            [("id".into(), "a/b c".into()), ("selection".into(), "defuse".into()), ("x".into(), String::new())]
        );
    }
}
