//! Latency and memory of the language server on a real repository, driven as an editor drives
//! it: a `hintlens lsp` process over stdio.
//!
//! ```text
//! cargo build --release -p hintlens-cli
//! cargo run --release -p hintlens-lsp --example latency -- REPO [REV] [--base BASE] [--in-place]
//!     [--server PATH] [--runs N] [--edit PATH]
//! ```
//!
//! Clones REPO (bare or not) with `git clone --shared` into a temporary directory (the source
//! is only read) and checks out REV (default: its HEAD); `--in-place` takes REPO as the work
//! tree as it is (a monorepo built by `scripts/make-monorepo.sh`, whose checkout takes longer
//! than a run). The server (`--server`, default `target/release/hintlens`) starts with BASE
//! (default `REV~1`). Each of the `--runs` runs (default 3) starts a new server and measures:
//! - **first real lens**: from `initialized` to the first lens that is an answer (`uses N new
//!   identifiers`, `hint · …`; not the notice `hintlens is still indexing…`) in the edited file —
//!   `--edit PATH`, else the changed test file the task adds most lines to — asked again as
//!   soon as the server answers, as an editor does on each refresh;
//! - **background end**: from `initialized` to the end of the server's `$/progress`;
//! - **hover**: on identifiers of 80 files (the changed ones and an even spread of the others),
//!   each opened first and its lenses asked, as an editor does on opening: while background
//!   indexing runs (as many as fit), and after it (300);
//! - **didChange → lenses**: 50 edits of the changed test file, each a line added or removed,
//!   timed to the answer of the code lens request sent right after it; then the **first
//!   hover after each edit** (which computes every selection policy anew);
//! - **peak RSS**: the server process's `VmHWM` at the end.
//!
//! It prints each run's figures, then the median of each figure over the runs, and the
//! latencies against a baseline measured in the same run: the bare extraction
//! (`Frontend::extract`, no database) of the edited file.

use hintlens_syntax::Frontend;
use lsp_server::{Message, Notification, Request, RequestId, Response};
use serde_json::{Value, json};
use std::io::{BufReader, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

const WARM_UP: usize = 10;
const REQUESTS: usize = 300;
const EDITS: usize = 50;
const SAMPLE_FILES: usize = 80;

struct Args {
    repo: String,
    rev: String,
    base: Option<String>,
    in_place: bool,
    server: PathBuf,
    runs: usize,
    edit: Option<String>,
}

fn parse_args() -> Args {
    let mut positional = Vec::new();
    let mut args = Args {
        repo: String::new(),
        rev: "HEAD".to_owned(),
        base: None,
        in_place: false,
        server: PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../target/release/hintlens")),
        runs: 3,
        edit: None,
    };
    let mut rest = std::env::args().skip(1);
    while let Some(arg) = rest.next() {
        match arg.as_str() {
            "--base" => args.base = rest.next(),
            "--in-place" => args.in_place = true,
            "--edit" => args.edit = rest.next(),
            "--server" => args.server = rest.next().map(PathBuf::from).unwrap_or_default(),
            "--runs" => args.runs = rest.next().and_then(|n| n.parse().ok()).unwrap_or(3).max(1),
            _ => positional.push(arg),
        }
    }
    let Some(repo) = positional.first() else {
        eprintln!("usage: latency REPO [REV] [--base BASE] [--in-place] [--server PATH] [--runs N] [--edit PATH]");
        std::process::exit(2);
    };
    args.repo = repo.clone();
    if let Some(rev) = positional.get(1) {
        args.rev = rev.clone();
    }
    args
}

/// One run's figures.
#[derive(Default)]
struct Run {
    first_lens: Duration,
    background_end: Option<Duration>,
    background_message: String,
    hover_during: Vec<Duration>,
    hover_after: Vec<Duration>,
    edit: Vec<Duration>,
    hover_after_edit: Vec<Duration>,
    peak_rss_kb: u64,
}

fn main() {
    let args = parse_args();
    let dir = tempfile::tempdir().expect("a temporary directory");
    let root = if args.in_place {
        PathBuf::from(&args.repo).canonicalize().expect("REPO exists")
    } else {
        let root = dir.path().join("work");
        git(dir.path(), &["clone", "--quiet", "--shared", "--no-checkout", &args.repo, root.to_str().unwrap()]);
        git(&root, &["checkout", "--quiet", "--detach", &args.rev]);
        root
    };
    // The base as a commit id: `REV~1` must not move when nothing else does.
    let base = args.base.clone().unwrap_or_else(|| format!("{}~1", args.rev));
    let base = git(&root, &["rev-parse", &base]).trim().to_owned();
    println!("repository {} at {}, base {base}; server {}", args.repo, args.rev, args.server.display());

    let frontends = hintlens_batch::frontends();
    let files = source_files(&root, &frontends);
    let changed: Vec<String> = git(&root, &["diff", "--name-only", &base, "HEAD"])
        .lines()
        .filter(|path| files.iter().any(|f| f == path))
        .map(str::to_owned)
        .collect();
    println!("{} source files, {} changed since the base", files.len(), changed.len());
    let sample = sample_files(&files, &changed, SAMPLE_FILES);
    let positions = identifier_positions(&root, &sample, &frontends, REQUESTS + WARM_UP);
    let test_paths = hintlens_db::Database::new(hintlens_batch::frontends()).test_paths();
    // The test file the task adds most lines to: the one whose lenses answer (a test file the
    // task only shortens has none).
    let added = |path: &str| -> usize {
        let numstat = git(&root, &["diff", "--numstat", &base, "HEAD", "--", path]);
        numstat.split_whitespace().next().and_then(|n| n.parse().ok()).unwrap_or(0)
    };
    let edited = args.edit.clone().unwrap_or_else(|| {
        changed
            .iter()
            .filter(|path| test_paths.is_test(path))
            .max_by_key(|path| added(path))
            .or(changed.first())
            .or(files.first())
            .expect("the repository has source files")
            .clone()
    });
    let hover_at = identifier_positions(&root, std::slice::from_ref(&edited), &frontends, 1).remove(0);
    let baseline = extraction_baseline(&root, &edited, &frontends);
    println!("lenses awaited in {edited}; baseline: bare extraction of it: p50 {}", ms(baseline));

    let mut runs = Vec::new();
    for number in 1..=args.runs {
        let run = measure_run(&args.server, &root, &base, &edited, &sample, &positions, &hover_at);
        println!("\nrun {number}:");
        print_run(&run, baseline);
        runs.push(run);
    }
    if runs.len() > 1 {
        println!("\nmedians over {} runs (each figure's median, then its range):", runs.len());
        print_medians(&runs);
    }
}

fn measure_run(
    server: &Path,
    root: &Path,
    base: &str,
    edited: &str,
    sample: &[String],
    positions: &[(String, u32, u32)],
    hover_at: &(String, u32, u32),
) -> Run {
    let mut run = Run::default();
    let mut client = Client::start(server, root, json!({"base": base}));
    let started = client.initialized;

    // The first real lens of the edited test file.
    client.open(root, edited);
    loop {
        let lenses = client.request("textDocument/codeLens", json!({"textDocument": {"uri": uri(root, edited)}}));
        let real = lenses.as_array().is_some_and(|lenses| {
            lenses.iter().any(|l| {
                let title = l["command"]["title"].as_str().unwrap_or_default();
                title.starts_with("uses ") || title.starts_with("hint · ")
            })
        });
        if real {
            run.first_lens = started.elapsed();
            break;
        }
        if client.background_end.is_some_and(|end| end.elapsed() > Duration::from_secs(30)) {
            panic!("no real lens in {edited} 30 s after indexing ended: {lenses}");
        }
        std::thread::sleep(Duration::from_millis(5));
    }

    // The sample files opened, as an editor opens them: lenses are asked on opening.
    for path in sample {
        client.open(root, path);
        client.request("textDocument/codeLens", json!({"textDocument": {"uri": uri(root, path)}}));
    }
    let hover = |client: &mut Client, (path, line, character): &(String, u32, u32)| {
        let position = json!({"line": line, "character": character});
        let start = Instant::now();
        client.request("textDocument/hover", json!({"textDocument": {"uri": uri(root, path)}, "position": position}));
        start.elapsed()
    };
    for position in positions.iter().cycle() {
        client.drain();
        if client.background_end.is_some() {
            break;
        }
        run.hover_during.push(hover(&mut client, position));
    }
    client.wait_for_background();
    run.background_end = client.background_end.map(|at| at - started);
    run.background_message = std::mem::take(&mut client.background_message);
    for (i, position) in positions.iter().enumerate() {
        let time = hover(&mut client, position);
        if i >= WARM_UP {
            run.hover_after.push(time);
        }
    }

    // Edits of the test file: a comment line added, then removed.
    let mut text = std::fs::read_to_string(root.join(edited)).expect("the edited file is text");
    if !text.ends_with('\n') {
        text.push('\n');
    }
    let comment = if edited.ends_with(".py") { "#" } else { "//" };
    let last = text.matches('\n').count();
    for version in 2..=EDITS as i32 + 1 {
        let (range, new_text) = if version % 2 == 0 {
            (
                json!({"start": {"line": last, "character": 0}, "end": {"line": last, "character": 0}}),
                format!("{comment} latency edit {version}\n"),
            )
        } else {
            (json!({"start": {"line": last, "character": 0}, "end": {"line": last + 1, "character": 0}}), String::new())
        };
        let start = Instant::now();
        client.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": uri(root, edited), "version": version}, "contentChanges": [{"range": range, "text": new_text}]}),
        );
        client.request("textDocument/codeLens", json!({"textDocument": {"uri": uri(root, edited)}}));
        run.edit.push(start.elapsed());
        run.hover_after_edit.push(hover(&mut client, hover_at));
    }
    run.peak_rss_kb = client.peak_rss_kb();
    client.shutdown();
    run
}

fn print_run(run: &Run, baseline: Duration) {
    println!("  first real lens: {:.2} s after `initialized`", run.first_lens.as_secs_f64());
    match run.background_end {
        Some(end) => println!(
            "  background indexing ended: {:.2} s after `initialized` ({})",
            end.as_secs_f64(),
            run.background_message
        ),
        None => println!("  background indexing: no end reported"),
    }
    report("  hover during background indexing", &run.hover_during, baseline);
    report("  hover after background indexing", &run.hover_after, baseline);
    report("  didChange → code lenses", &run.edit, baseline);
    report("  first hover after an edit", &run.hover_after_edit, baseline);
    println!("  peak RSS: {} MB", run.peak_rss_kb / 1024);
}

fn print_medians(runs: &[Run]) {
    let line = |what: &str, mut values: Vec<f64>, unit: &str| {
        values.sort_by(f64::total_cmp);
        println!("  {what}: {:.2} {unit} ({:.2}–{:.2})", values[values.len() / 2], values[0], values[values.len() - 1]);
    };
    let seconds = |f: &dyn Fn(&Run) -> Option<Duration>| -> Vec<f64> {
        runs.iter().filter_map(|r| f(r).map(|d| d.as_secs_f64())).collect()
    };
    let quantile = |f: &dyn Fn(&Run) -> &Vec<Duration>, q: f64| -> Vec<f64> {
        runs.iter().filter(|r| !f(r).is_empty()).map(|r| percentile(f(r), q).as_secs_f64() * 1000.0).collect()
    };
    line("first real lens", seconds(&|r| Some(r.first_lens)), "s");
    let ends = seconds(&|r| r.background_end);
    if !ends.is_empty() {
        line("background indexing end", ends, "s");
    }
    let during = quantile(&|r| &r.hover_during, 0.99);
    if !during.is_empty() {
        line("hover during background p50", quantile(&|r| &r.hover_during, 0.5), "ms");
        line("hover during background p99", during, "ms");
    }
    line("hover after background p50", quantile(&|r| &r.hover_after, 0.5), "ms");
    line("hover after background p99", quantile(&|r| &r.hover_after, 0.99), "ms");
    line("didChange → lenses p99", quantile(&|r| &r.edit, 0.99), "ms");
    line("first hover after an edit p99", quantile(&|r| &r.hover_after_edit, 0.99), "ms");
    line("peak RSS", runs.iter().map(|r| r.peak_rss_kb as f64 / 1024.0).collect(), "MB");
}

fn percentile(times: &[Duration], q: f64) -> Duration {
    let mut sorted = times.to_vec();
    sorted.sort();
    sorted[((sorted.len() as f64 * q).ceil() as usize).clamp(1, sorted.len()) - 1]
}

fn report(what: &str, times: &[Duration], baseline: Duration) {
    if times.is_empty() {
        println!("{what}: no samples (it ended before the first lens was answered)");
        return;
    }
    let at = |q: f64| percentile(times, q);
    println!(
        "{what} ({} samples): p50 {} · p90 {} · p99 {} · max {} · p50/baseline {:.2}×",
        times.len(),
        ms(at(0.5)),
        ms(at(0.9)),
        ms(at(0.99)),
        ms(at(1.0)),
        at(0.5).as_secs_f64() / baseline.as_secs_f64().max(1e-9),
    );
}

fn extraction_baseline(root: &Path, path: &str, frontends: &[Box<dyn Frontend>]) -> Duration {
    let text = std::fs::read(root.join(path)).expect("the edited file is readable");
    let frontend = frontends.iter().find(|f| f.claims(path)).expect("a frontend claims the edited file");
    let mut times: Vec<Duration> = (0..EDITS)
        .map(|_| {
            let start = Instant::now();
            std::hint::black_box(frontend.extract(&text));
            start.elapsed()
        })
        .collect();
    times.sort();
    times[times.len() / 2]
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

/// A minimal client of a server process over its standard input and output.
struct Client {
    process: Child,
    input: BufWriter<ChildStdin>,
    messages: mpsc::Receiver<Message>,
    next_id: i32,
    initialized: Instant,
    background_end: Option<Instant>,
    /// What the server said when its progress ended.
    background_message: String,
}

impl Client {
    fn start(server: &Path, root: &Path, init: Value) -> Client {
        let mut process = Command::new(server)
            .arg("lsp")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {}: {e}", server.display()));
        let input = BufWriter::new(process.stdin.take().unwrap());
        let mut output = BufReader::new(process.stdout.take().unwrap());
        let (sender, messages) = mpsc::channel();
        std::thread::spawn(move || {
            while let Ok(Some(message)) = Message::read(&mut output) {
                if sender.send(message).is_err() {
                    break;
                }
            }
        });
        let mut client = Client {
            process,
            input,
            messages,
            next_id: 0,
            initialized: Instant::now(),
            background_end: None,
            background_message: String::new(),
        };
        client.request(
            "initialize",
            json!({
                "processId": null,
                "rootUri": format!("file://{}", root.display()),
                "capabilities": {
                    "window": {"workDoneProgress": true},
                    "workspace": {"codeLens": {"refreshSupport": true}},
                },
                "initializationOptions": init,
            }),
        );
        client.notify("initialized", json!({}));
        client.initialized = Instant::now();
        client
    }

    fn send(&mut self, message: Message) {
        message.write(&mut self.input).expect("the server reads its input");
        self.input.flush().expect("the server reads its input");
    }

    fn notify(&mut self, method: &str, params: Value) {
        self.send(Notification::new(method.to_owned(), params).into());
    }

    fn open(&mut self, root: &Path, path: &str) {
        let text = std::fs::read_to_string(root.join(path)).unwrap_or_default();
        let document = json!({"uri": uri(root, path), "languageId": "plaintext", "version": 1, "text": text});
        self.notify("textDocument/didOpen", json!({"textDocument": document}));
    }

    fn request(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = RequestId::from(self.next_id);
        self.send(Request::new(id.clone(), method.to_owned(), params).into());
        loop {
            let message = self.messages.recv_timeout(Duration::from_secs(600)).expect("the server answers");
            match self.handle(message) {
                Some(response) if response.id == id => match response.response_result {
                    Ok(value) => return value,
                    Err(error) => panic!("{method} failed: {}", error.message),
                },
                _ => {}
            }
        }
    }

    /// Notes the end of background indexing, answers the server's requests, and hands back a
    /// response.
    fn handle(&mut self, message: Message) -> Option<Response> {
        match message {
            Message::Request(request) => {
                self.send(Response::new_ok(request.id, Value::Null).into());
                None
            }
            Message::Notification(n) => {
                if n.method == "$/progress" && n.params["value"]["kind"] == "end" && self.background_end.is_none() {
                    self.background_end = Some(Instant::now());
                    self.background_message = n.params["value"]["message"].as_str().unwrap_or_default().to_owned();
                }
                None
            }
            Message::Response(response) => Some(response),
        }
    }

    /// Handles whatever the server sent meanwhile.
    fn drain(&mut self) {
        while let Ok(message) = self.messages.try_recv() {
            self.handle(message);
        }
    }

    fn wait_for_background(&mut self) {
        while self.background_end.is_none() {
            let message = self.messages.recv_timeout(Duration::from_secs(600)).expect("the server ends its progress");
            self.handle(message);
        }
    }

    fn peak_rss_kb(&self) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.process.id())).unwrap_or_default();
        status
            .lines()
            .find_map(|line| line.strip_prefix("VmHWM:"))
            .and_then(|value| value.trim().trim_end_matches("kB").trim().parse().ok())
            .unwrap_or(0)
    }

    fn shutdown(mut self) {
        self.request("shutdown", Value::Null);
        self.notify("exit", Value::Null);
        let status = self.process.wait().expect("the server exits");
        assert!(status.success(), "the server exited with {status}");
    }
}
