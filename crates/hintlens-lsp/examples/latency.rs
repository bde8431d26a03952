//! Latency of the language server on a real repository.
//!
//! ```text
//! cargo run --release -p hintlens-lsp --example latency -- REPO [REV] [--base BASE]
//! ```
//!
//! Clones REPO (bare or not) with `git clone --shared` into a temporary directory (the source
//! is only read), checks out REV (default: its HEAD), starts the server in-process with BASE
//! (default `REV~1`) and waits for indexing. Then it measures, on identifiers of the work
//! tree: hover and code lens latency (200+ requests each, after 10 unmeasured warm-up
//! requests), the time from a `didChange` of one file to that file's updated code lenses
//! (50 edits), and of the first hover after each of those edits (which computes every
//! selection policy anew, where lenses need only the configured one). Every distribution is compared with a baseline measured in the same run: the
//! bare extraction (`Frontend::extract`, no database) of the edited file.

use hintlens_lsp::Options;
use hintlens_syntax::Frontend;
use lsp_server::{Connection, Message, Notification, Request, RequestId, Response};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

const WARM_UP: usize = 10;
const REQUESTS: usize = 300;
const EDITS: usize = 50;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut positional = Vec::new();
    let mut base = None;
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        match arg.as_str() {
            "--base" => base = rest.next().cloned(),
            _ => positional.push(arg.clone()),
        }
    }
    let Some(repo) = positional.first() else {
        eprintln!("usage: latency REPO [REV] [--base BASE]");
        std::process::exit(2);
    };
    let rev = positional.get(1).cloned().unwrap_or_else(|| "HEAD".to_owned());
    let base = base.unwrap_or_else(|| format!("{rev}~1"));

    let dir = tempfile::tempdir().expect("a temporary directory");
    let root = dir.path().join("work");
    git(dir.path(), &["clone", "--quiet", "--shared", "--no-checkout", repo, root.to_str().unwrap()]);
    git(&root, &["checkout", "--quiet", "--detach", &rev]);
    // The base as a commit id: `REV~1` must not move when nothing else does.
    let base = git(&root, &["rev-parse", &base]).trim().to_owned();
    println!("repository {repo} at {rev}, base {base}");

    let mut client = Client::start(&root, json!({"base": base}));
    let started = Instant::now();
    client.wait_for_indexing();
    println!("indexing: {:.2} s", started.elapsed().as_secs_f64());

    let frontends = hintlens_batch::frontends();
    let files = source_files(&root, &frontends);
    let changed: Vec<String> = git(&root, &["diff", "--name-only", &base, "HEAD"])
        .lines()
        .filter(|path| files.iter().any(|f| f == path))
        .map(str::to_owned)
        .collect();
    println!("{} source files, {} changed since the base", files.len(), changed.len());
    let sample = sample_files(&files, &changed, 80);
    let positions = identifier_positions(&root, &sample, &frontends, REQUESTS + WARM_UP);

    let mut found = 0;
    let hover = measure(&positions, |(path, line, character)| {
        let position = json!({"line": line, "character": character});
        let params = json!({"textDocument": {"uri": uri(&root, path)}, "position": position});
        found += usize::from(!client.request("textDocument/hover", params).is_null());
    });
    let lens_files: Vec<&String> = sample.iter().cycle().take(REQUESTS + WARM_UP).collect();
    let mut lensed = 0;
    let lenses = measure(&lens_files, |path| {
        let lenses = client.request("textDocument/codeLens", json!({"textDocument": {"uri": uri(&root, path)}}));
        lensed += lenses.as_array().map_or(0, Vec::len);
    });
    println!("{found} of {} hovers found an identifier; lens requests returned {lensed} lenses", positions.len());

    let test_paths = hintlens_db::Database::new(hintlens_batch::frontends()).test_paths();
    let edited = changed
        .iter()
        .find(|path| test_paths.is_test(path))
        .or(changed.first())
        .or(files.first())
        .expect("the repository has source files")
        .clone();
    let hover_at = identifier_positions(&root, std::slice::from_ref(&edited), &frontends, 1).remove(0);
    let (edit, hover_after_edit, baseline) = edits(&mut client, &root, &edited, hover_at, &frontends);

    println!("\nbaseline: bare extraction of {edited}: p50 {}", ms(baseline));
    report("hover", &hover, baseline, 20.0);
    report("code lens", &lenses, baseline, 20.0);
    report("didChange → code lenses", &edit, baseline, 100.0);
    report("first hover after an edit", &hover_after_edit, baseline, 20.0);
    client.shutdown();
}

/// The time of each call of `run` after the warm-up.
fn measure<T>(inputs: &[T], mut run: impl FnMut(&T)) -> Vec<Duration> {
    let mut times = Vec::with_capacity(inputs.len());
    for (i, input) in inputs.iter().enumerate() {
        let start = Instant::now();
        run(input);
        if i >= WARM_UP {
            times.push(start.elapsed());
        }
    }
    times
}

/// Appends and removes a comment line in `path`, timing each `didChange` to the answer of
/// the code lens request sent right after it, then a hover at `hover_at`. Also returns the
/// baseline.
fn edits(
    client: &mut Client,
    root: &Path,
    path: &str,
    (_, line, character): (String, u32, u32),
    frontends: &[Box<dyn Frontend>],
) -> (Vec<Duration>, Vec<Duration>, Duration) {
    let mut text = std::fs::read_to_string(root.join(path)).expect("the edited file is text");
    if !text.ends_with('\n') {
        text.push('\n');
    }
    let document = json!({"uri": uri(root, path)});
    client.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": uri(root, path), "languageId": "python", "version": 0, "text": text}}),
    );
    client.request("textDocument/codeLens", json!({"textDocument": document}));
    let last = text.matches('\n').count();
    let mut times = Vec::with_capacity(EDITS);
    let mut hovers = Vec::with_capacity(EDITS);
    for version in 1..=EDITS as i32 {
        let (range, new_text) = if version % 2 == 1 {
            (
                json!({"start": {"line": last, "character": 0}, "end": {"line": last, "character": 0}}),
                format!("# latency edit {version}\n"),
            )
        } else {
            (json!({"start": {"line": last, "character": 0}, "end": {"line": last + 1, "character": 0}}), String::new())
        };
        let start = Instant::now();
        client.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": uri(root, path), "version": version}, "contentChanges": [{"range": range, "text": new_text}]}),
        );
        client.request("textDocument/codeLens", json!({"textDocument": document}));
        times.push(start.elapsed());
        let start = Instant::now();
        let position = json!({"line": line, "character": character});
        client.request("textDocument/hover", json!({"textDocument": document, "position": position}));
        hovers.push(start.elapsed());
    }

    let frontend = frontends.iter().find(|f| f.claims(path)).expect("a frontend claims the edited file");
    let mut extraction: Vec<Duration> = (0..EDITS)
        .map(|_| {
            let start = Instant::now();
            std::hint::black_box(frontend.extract(text.as_bytes()));
            start.elapsed()
        })
        .collect();
    extraction.sort();
    (times, hovers, extraction[extraction.len() / 2])
}

fn report(what: &str, times: &[Duration], baseline: Duration, target_ms: f64) {
    let mut sorted = times.to_vec();
    sorted.sort();
    let at = |q: f64| sorted[((sorted.len() as f64 * q).ceil() as usize).clamp(1, sorted.len()) - 1];
    let p99 = at(0.99).as_secs_f64() * 1000.0;
    println!(
        "{what} ({} samples): p50 {} · p90 {} · p99 {} · max {} · p50/baseline {:.1}× · target p99 < {target_ms} ms: {}",
        sorted.len(),
        ms(at(0.5)),
        ms(at(0.9)),
        ms(at(0.99)),
        ms(sorted[sorted.len() - 1]),
        at(0.5).as_secs_f64() / baseline.as_secs_f64().max(1e-9),
        if p99 < target_ms { "met" } else { "MISSED" },
    );
}

fn ms(d: Duration) -> String {
    format!("{:.2} ms", d.as_secs_f64() * 1000.0)
}

fn git(dir: &Path, args: &[&str]) -> String {
    let output = Command::new("git").current_dir(dir).args(args).output().expect("git is installed");
    assert!(output.status.success(), "git {args:?}: {}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8(output.stdout).expect("git prints UTF-8 here")
}

fn uri(root: &Path, path: &str) -> String {
    format!("file://{}", root.join(path).display())
}

fn source_files(root: &Path, frontends: &[Box<dyn Frontend>]) -> Vec<String> {
    git(root, &["ls-files"]).lines().filter(|p| frontends.iter().any(|f| f.claims(p))).map(str::to_owned).collect()
}

/// The changed files and an even spread of the others, `count` in all.
fn sample_files(files: &[String], changed: &[String], count: usize) -> Vec<String> {
    let mut sample: Vec<String> = changed.to_vec();
    let step = (files.len() / count.max(1)).max(1);
    sample.extend(files.iter().step_by(step).filter(|f| !changed.contains(f)).cloned());
    sample.truncate(count.max(changed.len()));
    sample
}

/// `count` positions (path, line, UTF-16 column) of definition names and uses, spread over
/// the files.
fn identifier_positions(
    root: &Path,
    files: &[String],
    frontends: &[Box<dyn Frontend>],
    count: usize,
) -> Vec<(String, u32, u32)> {
    let per_file = count.div_ceil(files.len().max(1)).max(1) * 3;
    let mut candidates = Vec::new();
    for path in files {
        let Ok(text) = std::fs::read_to_string(root.join(path)) else { continue };
        let Some(frontend) = frontends.iter().find(|f| f.claims(path)) else { continue };
        let index = frontend.extract(text.as_bytes());
        let starts: Vec<_> = index
            .definitions
            .iter()
            .map(|d| d.name_span.start)
            .chain(index.uses.iter().map(|u| u.span.start))
            .collect();
        let lines: Vec<&str> = text.split('\n').collect();
        let step = (starts.len() / per_file).max(1);
        for start in starts.iter().step_by(step).take(per_file) {
            let line = lines[start.line as usize];
            let column = line.get(..start.column as usize).map_or(0, |s| s.encode_utf16().count());
            candidates.push((path.clone(), start.line, column as u32));
        }
    }
    assert!(candidates.len() >= count, "only {} identifier positions found", candidates.len());
    let step = candidates.len() as f64 / count as f64;
    (0..count).map(|i| candidates[(i as f64 * step) as usize].clone()).collect()
}

/// A minimal client over an in-process connection.
struct Client {
    connection: Connection,
    server: Option<std::thread::JoinHandle<()>>,
    next_id: i32,
}

impl Client {
    fn start(root: &Path, init: Value) -> Client {
        let (server_side, connection) = Connection::memory();
        let server = std::thread::spawn(move || {
            hintlens_lsp::run(server_side, Options::default()).expect("the server runs");
        });
        let mut client = Client { connection, server: Some(server), next_id: 0 };
        let root = PathBuf::from(root);
        client.request(
            "initialize",
            json!({
                "processId": null,
                "rootUri": format!("file://{}", root.display()),
                "capabilities": {"window": {"workDoneProgress": true}},
                "initializationOptions": init,
            }),
        );
        client.notify("initialized", json!({}));
        client
    }

    fn notify(&self, method: &str, params: Value) {
        self.connection.sender.send(Notification::new(method.to_owned(), params).into()).unwrap();
    }

    fn request(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = RequestId::from(self.next_id);
        self.connection.sender.send(Request::new(id.clone(), method.to_owned(), params).into()).unwrap();
        loop {
            match self.next() {
                Message::Response(response) if response.id == id => match response.response_result {
                    Ok(value) => return value,
                    Err(error) => panic!("{method} failed: {}", error.message),
                },
                _ => {}
            }
        }
    }

    /// The next message, answering the server's own requests on the way.
    fn next(&mut self) -> Message {
        let message = self.connection.receiver.recv_timeout(Duration::from_secs(600)).expect("the server answers");
        if let Message::Request(request) = &message {
            self.connection.sender.send(Response::new_ok(request.id.clone(), Value::Null).into()).unwrap();
        }
        message
    }

    fn wait_for_indexing(&mut self) {
        loop {
            if let Message::Notification(n) = self.next()
                && n.method == "$/progress"
                && n.params["value"]["kind"] == "end"
            {
                return;
            }
        }
    }

    fn shutdown(mut self) {
        self.request("shutdown", Value::Null);
        self.notify("exit", Value::Null);
        if let Some(server) = self.server.take() {
            server.join().expect("the server stops cleanly");
        }
    }
}
