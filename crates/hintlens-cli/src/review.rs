//! `hintlens review`: loads the results, replays the decisions file and serves the page.

use hintlens_batch::RepoLocator;
use hintlens_review::{App, Benchmark, DecisionLog, ReviewServer, Sources, default_path};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

pub(crate) struct ReviewArgs {
    pub results: PathBuf,
    pub dataset: Option<PathBuf>,
    pub locator: RepoLocator,
    pub port: u16,
    pub decisions: Option<PathBuf>,
    pub judged: Vec<PathBuf>,
    pub told: Vec<String>,
}

pub(crate) fn run(args: ReviewArgs) -> ExitCode {
    let sources = Sources { results: args.results.clone(), dataset: args.dataset, judged: args.judged };
    let benchmark = match Benchmark::load(&sources) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let decisions = args.decisions.unwrap_or_else(|| default_path(&args.results));
    let (log, replay) = match DecisionLog::open(&decisions) {
        Ok(opened) => opened,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let tasks = benchmark.tasks.len();
    let app = match App::new(benchmark, log, args.locator).told(&args.told) {
        Ok(app) => app,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let server = match ReviewServer::bind(app, args.port) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    // The first line on standard output is the address, for whatever started the server.
    let mut stdout = std::io::stdout().lock();
    let _ = writeln!(stdout, "Serving on {}", server.url());
    let _ = stdout.flush();
    drop(stdout);
    let torn = if replay.torn { "; a torn last line (never acknowledged) was dropped" } else { "" };
    eprintln!(
        "hintlens: reviewing {tasks} tasks of {}; decisions in {} ({} read back{torn}). Stop with Ctrl-C: every acknowledged decision is already on disk.",
        args.results.display(),
        decisions.display(),
        replay.applied
    );
    server.serve();
    ExitCode::SUCCESS
}
