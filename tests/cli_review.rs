//! `hintlens review` end to end on the example benchmark: the server a designer starts (loopback,
//! Host and Origin checked, a fixed table of paths), the decisions file it writes and reads back
//! after a kill, and the commands that read that file (`augment --decisions`, `stats`).

use hintlens_tests::{example, hintlens, succeed};
use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Stdio};
use std::time::Duration;

/// The example's results, computed once per test into its own directory.
struct Review {
    dir: tempfile::TempDir,
    results: PathBuf,
}

impl Review {
    fn new() -> Review {
        let dir = tempfile::tempdir().unwrap();
        let results = dir.path().join("results.jsonl");
        succeed(
            hintlens()
                .args(["batch"])
                .arg(example().join("tasks.jsonl"))
                .arg("--repos")
                .arg(example().join("repos"))
                .arg("--out")
                .arg(&results),
        );
        Review { dir, results }
    }

    fn decisions(&self) -> PathBuf {
        hintlens_review_default(&self.results)
    }

    /// Starts the server and reads its address from the first line of its standard output.
    fn serve(&self) -> Server {
        self.serve_with(&[])
    }

    fn serve_with(&self, extra: &[&str]) -> Server {
        let mut child = hintlens()
            .arg("review")
            .args(extra)
            .arg(&self.results)
            .arg("--dataset")
            .arg(example().join("tasks.jsonl"))
            .arg("--repos")
            .arg(example().join("repos"))
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("hintlens review starts");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
        let url = line.trim().strip_prefix("Serving on ").unwrap_or_else(|| panic!("first line: {line:?}")).to_owned();
        let host = url.trim_start_matches("http://").trim_end_matches('/').to_owned();
        assert!(host.starts_with("127.0.0.1:"), "{url}");
        Server { child, host }
    }
}

/// The decisions file beside the results (what `review` uses when none is named).
fn hintlens_review_default(results: &Path) -> PathBuf {
    results.with_file_name(format!("{}.decisions.jsonl", results.file_name().unwrap().to_string_lossy()))
}

struct Server {
    child: Child,
    host: String,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// What the server answered: status and body.
struct Answer {
    status: u16,
    body: String,
}

impl Answer {
    fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("{e}: {}", self.body))
    }
}

impl Server {
    /// Sends a raw request (the request line and headers as given, `Connection: close` added).
    fn raw(&self, head: &str, body: &str) -> Answer {
        let mut stream = TcpStream::connect(&self.host).unwrap();
        stream.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
        let length = if body.is_empty() { String::new() } else { format!("Content-Length: {}\r\n", body.len()) };
        write!(stream, "{head}\r\n{length}Connection: close\r\n\r\n{body}").unwrap();
        let mut text = String::new();
        stream.read_to_string(&mut text).unwrap();
        let status = text.split(' ').nth(1).and_then(|s| s.parse().ok()).unwrap_or_else(|| panic!("{text}"));
        let body = text.split_once("\r\n\r\n").map(|(_, b)| b.to_owned()).unwrap_or_default();
        Answer { status, body }
    }

    fn get(&self, path: &str) -> Answer {
        self.raw(&format!("GET {path} HTTP/1.1\r\nHost: {}", self.host), "")
    }

    fn post(&self, decision: &Value, origin: Option<&str>) -> Answer {
        let origin = origin.map(|o| format!("\r\nOrigin: {o}")).unwrap_or_default();
        self.raw(
            &format!("POST /api/decision HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json{origin}", self.host),
            &decision.to_string(),
        )
    }

    fn origin(&self) -> String {
        format!("http://{}", self.host)
    }
}

fn drop_truncate_slug(note: &str) -> Value {
    json!({
        "target": "identifier",
        "instance_id": "acme__textkit-1",
        "identifier": {"qualified_name": "textkit.slug.truncate_slug", "kind": "function", "path": "textkit/slug.py"},
        "verdict": "drop",
        "note": note,
    })
}

fn lines(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect()
}

#[test]
fn the_page_and_its_api_answer_from_the_results_and_git() {
    let review = Review::new();
    let server = review.serve();
    let page = server.get("/");
    assert_eq!(page.status, 200);
    assert!(page.body.contains("<script src=\"/app.js\""), "{}", page.body);
    assert_eq!(server.get("/app.js").status, 200);
    assert_eq!(server.get("/app.css").status, 200);
    let list = server.get("/api/tasks").json();
    let tasks = list["tasks"].as_array().unwrap();
    assert_eq!(tasks.len(), 5);
    assert!(tasks.iter().all(|t| t["status"] == "ok" && t["reviewed"] == false));
    let task = server.get("/api/task?id=acme__textkit-1&selection=defuse&projection=declaration").json();
    assert_eq!(task["snapshot"]["label"], "R (B + patches)");
    assert_eq!(
        task["problem_statement"],
        "Allow a custom separator in slugify, and add a way to shorten long slugs.\n"
    );
    assert_eq!(task["hint"]["all"], task["hint"]["batch"]);
    let truncate = task["identifiers"].as_array().unwrap().iter().find(|i| i["name"] == "truncate_slug").unwrap();
    // The definition at R, read from the bare repository with the patch applied in memory.
    assert_eq!(truncate["definition"]["start"], 6);
    assert_eq!(truncate["definition"]["lines"][0], "def truncate_slug(slug: str, max_length: int = 20) -> str:");
    assert_eq!(truncate["evidence"][0]["text"], "from textkit.slug import slugify, truncate_slug");
    assert_eq!(truncate["necessity"], 3);
    assert!(truncate["entry"].as_str().unwrap().contains("function `truncate_slug`"));
    // Any projection renders from the record's identifiers.
    let names = server.get("/api/task?id=acme__textkit-1&projection=name").json();
    assert_eq!(names["hint"]["curated"], "- `separator`\n- `truncate_slug`\n");
    assert_eq!(server.get("/api/task?id=nope").status, 404);
    assert_eq!(server.get("/api/task?id=acme__textkit-1&projection=nope").status, 400);
    drop(server);

    // With the judge's scores (`judge import`'s records): medians per attribute, HVM.
    let judged = review.dir.path().join("judged.jsonl");
    let record = |attribute: &str, call: &str, sample: u32, scores: Value| {
        let mut r = json!({"id": format!("{attribute}{call}{sample}"), "instance_id": "acme__textkit-1",
            "identifier": "textkit.slug.truncate_slug", "entry": "textkit.slug.truncate_slug",
            "attribute": attribute, "call": call, "sample": sample, "status": "ok"});
        r.as_object_mut().unwrap().extend(scores.as_object().unwrap().clone());
        format!("{r}\n")
    };
    let text = [
        record("name", "necessity", 0, json!({"N": 3})),
        record("name", "necessity", 1, json!({"N": 2})),
        record("name", "necessity", 2, json!({"N": 3})),
        record("name", "disclosure_guidance", 0, json!({"D": 1, "G": 0})),
        record("signature", "necessity", 0, json!({"N": 1})),
        record("signature", "disclosure_guidance", 0, json!({"D": 2, "G": 3})),
    ]
    .concat();
    std::fs::write(&judged, text).unwrap();
    let server = review.serve_with(&["--judged", judged.to_str().unwrap()]);
    let list = server.get("/api/tasks").json();
    assert_eq!(list["judged"], true);
    let hvm = |id: &str| list["tasks"].as_array().unwrap().iter().find(|t| t["id"] == id).unwrap()["hvm"].clone();
    assert_eq!(hvm("acme__textkit-1"), json!(0.0), "the mean of name's 3 − 1 and signature's 1 − 3");
    assert_eq!(hvm("acme__textkit-2"), Value::Null);
    let task = server.get("/api/task?id=acme__textkit-1").json();
    let truncate = task["identifiers"].as_array().unwrap().iter().find(|i| i["name"] == "truncate_slug").unwrap();
    assert_eq!(
        truncate["judge"][0],
        json!({"attribute": "name", "N": 3.0, "D": 1.0, "G": 0.0, "HVM": 2.0, "unparsable": 0})
    );
}

#[test]
fn the_api_gives_each_tasks_hidden_contracts_and_their_summary_per_repository() {
    let review = Review::new();
    let server = review.serve();
    let list = server.get("/api/tasks").json();
    assert_eq!(list["audit"]["told"], json!(["problem_statement"]));
    assert_eq!(
        list["audit"]["overall"],
        json!({"repo": "overall", "tasks": 5, "with_hidden": 4, "hidden": 10, "contracts": 11})
    );
    assert_eq!(list["audit"]["repositories"][0]["repo"], "acme/jsonlite");
    let hidden = |id: &str| list["tasks"].as_array().unwrap().iter().find(|t| t["id"] == id).unwrap()["hidden"].clone();
    assert_eq!((hidden("acme__textkit-1"), hidden("acme__textkit-3")), (json!(1), json!(0)));
    let task = server.get("/api/task?id=acme__textkit-1").json();
    assert_eq!(
        task["hidden_contracts"],
        json!([{"name": "truncate_slug", "qualified_name": "textkit.slug.truncate_slug", "kind": "function",
                "path": "textkit/slug.py", "line": 6, "uses": ["tests/test_slug.py:1", "tests/test_slug.py:13"]}])
    );
    drop(server);
    // Told more fields, fewer are hidden; a told field the dataset lacks is refused at start.
    let server = review.serve_with(&["--told", "problem_statement", "--told", "patch"]);
    assert_eq!(server.get("/api/tasks").json()["audit"]["overall"]["with_hidden"], 0);
    drop(server);
    let output = hintlens()
        .arg("review")
        .arg(&review.results)
        .arg("--dataset")
        .arg(example().join("tasks.jsonl"))
        .args(["--told", "interface"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("told field `interface` is not a field of the dataset (its rows have: instance_id"),
        "{stderr}"
    );
    assert!(output.stdout.is_empty(), "nothing is served");
}

#[test]
fn a_foreign_host_or_origin_is_refused() {
    let review = Review::new();
    let server = review.serve();
    let port = server.host.rsplit(':').next().unwrap().to_owned();
    // DNS rebinding: a page of another site reaching the port under its own name.
    for host in ["evil.example".to_owned(), format!("evil.example:{port}"), format!("localhost:{port}")] {
        let answer = server.raw(&format!("GET /api/tasks HTTP/1.1\r\nHost: {host}"), "");
        assert_eq!(answer.status, 421, "Host: {host}: {}", answer.body);
        assert!(!answer.body.contains("acme__textkit"), "{}", answer.body);
    }
    assert_eq!(server.raw("GET /api/tasks HTTP/1.0", "").status, 421, "no Host at all");
    // Cross-site changes: another origin, a cross-site fetch, a form's content type.
    assert_eq!(server.post(&drop_truncate_slug("x"), Some("http://evil.example")).status, 403);
    assert_eq!(server.post(&drop_truncate_slug("x"), Some(&format!("http://localhost:{port}"))).status, 403);
    let cross = server.raw(
        &format!(
            "POST /api/decision HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nSec-Fetch-Site: cross-site",
            server.host
        ),
        &drop_truncate_slug("x").to_string(),
    );
    assert_eq!(cross.status, 403);
    let form = server.raw(
        &format!("POST /api/decision HTTP/1.1\r\nHost: {}\r\nContent-Type: text/plain", server.host),
        &drop_truncate_slug("x").to_string(),
    );
    assert_eq!(form.status, 415);
    assert_eq!(std::fs::read_to_string(review.decisions()).unwrap(), "", "nothing refused was written");
    // Decisions about what the results do not hold are refused too.
    let mut unknown = drop_truncate_slug("x");
    unknown["identifier"]["qualified_name"] = json!("textkit.slug.nothing");
    assert_eq!(server.post(&unknown, Some(&server.origin())).status, 404);
    assert_eq!(
        server.post(&json!({"target": "task", "instance_id": "nope", "reviewed": true, "flagged": false}), None).status,
        404
    );
    assert_eq!(server.post(&json!({"target": "whatever"}), None).status, 400);
    assert_eq!(server.raw(&format!("PUT /api/decision HTTP/1.1\r\nHost: {}", server.host), "").status, 405);
    // The page's own origin (and a client that sends none, like curl) may.
    assert_eq!(server.post(&drop_truncate_slug("x"), Some(&server.origin())).status, 200);
    assert_eq!(server.post(&drop_truncate_slug("y"), None).status, 200);
    assert_eq!(lines(&review.decisions()).len(), 2);
}

#[test]
fn no_part_of_a_url_reaches_the_filesystem() {
    let review = Review::new();
    // Files a traversal could aim at: beside the results, and the repository's own.
    std::fs::write(review.dir.path().join("secret.txt"), "SECRET-CONTENT").unwrap();
    let server = review.serve();
    let results = review.results.display().to_string();
    let paths = [
        "/../secret.txt",
        "/..%2fsecret.txt",
        "/%2e%2e/%2e%2e/etc/passwd",
        "/app.js/../../../../etc/passwd",
        "/api/../../Cargo.toml",
        "//etc/passwd",
        "/secret.txt",
        "/results.jsonl",
        "/results.jsonl.decisions.jsonl",
        "/assets/app.js",
        "/src/lib.rs",
        "/index.html%00.txt",
        "/Cargo.toml",
        &format!("/{results}"),
        &format!("/file://{results}"),
    ];
    for path in paths {
        let answer = server.get(path);
        assert_eq!(answer.status, 404, "{path}: {}", answer.body);
        for leaked in ["SECRET-CONTENT", "[package]", "root:", "acme__textkit"] {
            assert!(!answer.body.contains(leaked), "{path} leaked {leaked}: {}", answer.body);
        }
    }
    // Values of the query are looked up in the loaded results, never opened.
    for id in ["../secret.txt", "%2e%2e%2fsecret.txt", "/etc/passwd"] {
        let answer = server.get(&format!("/api/task?id={id}"));
        assert_eq!(answer.status, 404, "{id}");
        assert!(!answer.body.contains("SECRET-CONTENT") && !answer.body.contains("root:"));
    }
}

#[test]
fn decisions_survive_a_killed_server_and_a_torn_line() {
    let review = Review::new();
    let mut server = review.serve();
    assert_eq!(server.post(&drop_truncate_slug("the name is the answer"), Some(&server.origin())).status, 200);
    let task = json!({"target": "task", "instance_id": "acme__textkit-1", "reviewed": true, "flagged": true, "note": "look again"});
    assert_eq!(server.post(&task, Some(&server.origin())).status, 200);
    // SIGKILL: no chance to flush anything it had not already written.
    server.child.kill().unwrap();
    server.child.wait().unwrap();
    drop(server);
    // A server killed while writing a third line leaves it torn.
    let mut file = std::fs::OpenOptions::new().append(true).open(review.decisions()).unwrap();
    file.write_all(br#"{"time_ms":1,"target":"task","instance_id":"acme__jsonlite-1","revi"#).unwrap();
    drop(file);
    let server = review.serve();
    let view = server.get("/api/task?id=acme__textkit-1").json();
    let truncate = view["identifiers"].as_array().unwrap().iter().find(|i| i["name"] == "truncate_slug").unwrap();
    assert_eq!(truncate["decision"]["verdict"], "drop");
    assert_eq!(truncate["decision"]["note"], "the name is the answer");
    assert_eq!(view["task_decision"]["reviewed"], true);
    assert_eq!(view["task_decision"]["note"], "look again");
    assert!(!view["hint"]["curated"].as_str().unwrap().contains("truncate_slug"));
    assert!(view["hint"]["all"].as_str().unwrap().contains("truncate_slug"));
    let list = server.get("/api/tasks").json();
    let jsonlite = list["tasks"].as_array().unwrap().iter().find(|t| t["id"] == "acme__jsonlite-1").unwrap();
    assert_eq!(jsonlite["reviewed"], false, "the torn line was never acknowledged");
    // The torn line was cut off on start: the next decision is a line of its own.
    assert_eq!(server.post(&drop_truncate_slug("again"), None).status, 200);
    let written = lines(&review.decisions());
    assert_eq!(written.len(), 3);
    assert_eq!(written[2]["note"], "again");
}

#[test]
fn augment_with_decisions_drops_the_identifiers_and_stats_reports_progress() {
    let review = Review::new();
    let decisions = review.dir.path().join("curated.jsonl");
    let entries = [
        drop_truncate_slug("names the answer"),
        json!({"target": "task", "instance_id": "acme__textkit-1", "reviewed": true, "flagged": false, "note": ""}),
        json!({"target": "task", "instance_id": "acme__jsonlite-1", "reviewed": true, "flagged": true, "note": ""}),
    ];
    let text: String = entries
        .iter()
        .map(|e| {
            let mut e = e.clone();
            e["time_ms"] = json!(1);
            format!("{e}\n")
        })
        .collect();
    std::fs::write(&decisions, text).unwrap();
    let dataset = example().join("tasks.jsonl");
    let out = review.dir.path().join("hinted.jsonl");
    let augment = |extra: &[&str]| {
        succeed(
            hintlens()
                .arg("augment")
                .arg(&dataset)
                .arg("--results")
                .arg(&review.results)
                .arg("--decisions")
                .arg(&decisions)
                .args(extra)
                .arg("--out")
                .arg(&out),
        )
    };
    let output = augment(&[]);
    assert!(String::from_utf8_lossy(&output.stderr).contains("1 identifiers dropped from the selections of 1 tasks"));
    let rows = lines(&out);
    let hint = |id: &str| rows.iter().find(|r| r["instance_id"] == id).unwrap()["hints"].as_str().unwrap().to_owned();
    assert_eq!(
        hint("acme__textkit-1"),
        "- `textkit/slug.py`\n  - in function `slugify`:\n    - parameter `separator`: `separator=\"-\"`\n"
    );
    // Other tasks keep the batch's hint byte for byte.
    let results = lines(&review.results);
    for r in results.iter().filter(|r| r["instance_id"] != "acme__textkit-1") {
        assert_eq!(hint(r["instance_id"].as_str().unwrap()), r["hints"]["defuse+declaration"]);
    }
    augment(&["--append-to", "problem_statement"]);
    let rows = lines(&out);
    let statement =
        rows.iter().find(|r| r["instance_id"] == "acme__textkit-1").unwrap()["problem_statement"].as_str().unwrap();
    assert!(statement.ends_with("identifiers:\n- `textkit/slug.py`\n  - in function `slugify`:\n    - parameter `separator`: `separator=\"-\"`\n"), "{statement}");
    // A decisions file that is not there is an error, not an augment without decisions.
    let missing = hintlens()
        .arg("augment")
        .arg(&dataset)
        .arg("--results")
        .arg(&review.results)
        .arg("--decisions")
        .arg(review.dir.path().join("absent.jsonl"))
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(missing.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&missing.stderr).contains("does not exist"));

    // stats: the named file, and the one beside the results by default.
    let stats = succeed(hintlens().arg("stats").arg(&review.results).arg("--decisions").arg(&decisions));
    let table = String::from_utf8_lossy(&stats.stdout);
    assert!(table.contains("| decisions | 5 | 2 | 1 | 12 | 0 | 1 | 11 |"), "{table}");
    let plain = succeed(hintlens().arg("stats").arg(&review.results));
    assert!(!String::from_utf8_lossy(&plain.stdout).contains("| review |"));
    std::fs::copy(&decisions, review.decisions()).unwrap();
    let json = succeed(hintlens().arg("stats").arg(&review.results).args(["--format", "json"]));
    let value: Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(value["review"]["reviewed"], 2);
    assert_eq!(value["review"]["dropped"], 1);
    assert_eq!(value["selections"][0]["selection"], "defuse");
}
