//! The start of every analysis: the base commit's tree, and how the work tree differs from it.
//!
//! Demand first: nothing is parsed here. The scan reads each claimed file of the work tree
//! once, to tell by blob id whether it differs from the base. An unchanged file leaves only its
//! words behind ([`BlobWords`]: the compact repository-wide fact that name questions need, a
//! few kilobytes where its syntax tree and index would be a hundred times that); a changed one
//! leaves its bytes, which the main thread makes an input of. Base files are read from git and
//! parsed when a request first needs them ([`Database::snapshot_on_demand`]).
//!
//! Runs on its own thread, reading in parallel on rayon's pool, and holds no database handle
//! (an edit's write would wait for it): an edit during the scan is applied again when the scan
//! lands. A newer job (the base moved) stops it through [`Job::cancel`]. Only the reference
//! mode [`crate::Options::full_index`] parses the whole base up front, with a database handle
//! an edit cancels.

use crate::paths::Root;
use crate::scan;
use hintlens_db::{BlobWords, Database, Frontends, Holdings, LanguageId, SnapshotIndex};
use hintlens_snapshot::{Mode, ObjectId, Repository, Snapshot, blob_id};
use rayon::prelude::*;
use std::collections::HashSet;
use std::convert::Infallible;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// Files between two progress reports.
const REPORT_EVERY: usize = 256;

pub(crate) struct Job {
    pub repository: Repository,
    pub root: Root,
    pub base: String,
    pub frontends: Frontends,
    pub words: BlobWords,
    /// Set when a newer job makes this one moot.
    pub cancel: Arc<AtomicBool>,
    /// Index the whole base up front with this handle ([`crate::Options::full_index`]).
    pub full_index: Option<Database>,
}

/// A claimed work tree file whose content the base does not have at its path.
pub(crate) struct WorkFile {
    pub path: String,
    pub language: LanguageId,
    pub id: ObjectId,
    pub text: Arc<[u8]>,
}

pub(crate) struct Indexed {
    pub commit: ObjectId,
    pub snapshot: Snapshot,
    pub holdings: Holdings,
    /// Claimed work tree files that differ from the base (or that it lacks), in path order.
    pub changed: Vec<WorkFile>,
    /// Claimed base files the work tree lacks.
    pub deleted: Vec<String>,
    /// How many claimed work tree files the scan read.
    pub scanned: usize,
    /// The base, indexed up front ([`crate::Options::full_index`]).
    pub full: Option<SnapshotIndex>,
}

pub(crate) enum Outcome {
    Done(Indexed),
    Failed(String),
    Cancelled,
}

/// Runs `job` on a new thread, once `hold` (if any) is signalled or dropped;
/// `progress(done, total)` is called as files are read and `finish` once with the outcome.
pub(crate) fn spawn(
    job: Job,
    hold: Option<crossbeam_channel::Receiver<()>>,
    progress: impl Fn(usize, usize) + Send + Sync + 'static,
    finish: impl FnOnce(Outcome) + Send + 'static,
) {
    std::thread::Builder::new()
        .name("hintlens-indexer".to_owned())
        .spawn(move || {
            if let Some(hold) = hold {
                let _ = hold.recv();
            }
            let outcome = match catch_unwind(AssertUnwindSafe(|| run(&job, &progress))) {
                Ok(Ok(Some(indexed))) => Outcome::Done(indexed),
                Ok(Ok(None)) => Outcome::Cancelled,
                Ok(Err(message)) => Outcome::Failed(message),
                Err(payload) if payload.is::<salsa::Cancelled>() => Outcome::Cancelled,
                Err(payload) => Outcome::Failed(format!(
                    "hintlens crashed while indexing: {} (please report it)",
                    crate::dispatch::panic_message(&*payload)
                )),
            };
            // Let a waiting edit go ahead before the main thread hears about the outcome.
            drop(job);
            finish(outcome);
        })
        .expect("the operating system can start a thread");
}

/// The job's answer; `None` when it was cancelled.
fn run(job: &Job, progress: &(dyn Fn(usize, usize) + Sync)) -> Result<Option<Indexed>, String> {
    let repository = &job.repository;
    let commit =
        repository.resolve_commit(&job.base).map_err(|e| format!("cannot resolve the base `{}`: {e}", job.base))?;
    let snapshot = repository.snapshot(commit).map_err(|e| e.to_string())?;
    // What the base holds decides the language of an ending two languages share, in the base
    // and in the work tree alike.
    let holdings = job.frontends.holdings(&snapshot);
    let claimed: Vec<(String, PathBuf, LanguageId)> = scan::walk(job.root.path())
        .into_iter()
        .filter_map(|file| {
            let path = job.root.relative(&file)?;
            let language = job.frontends.language_in(&path, &holdings)?;
            Some((path, file, language))
        })
        .collect();

    let total = claimed.len();
    let done = AtomicUsize::new(0);
    // Not `job` itself: its database handle (reference mode) cannot be shared between threads.
    let (words, cancel) = (&job.words, &job.cancel);
    let changed: Option<Vec<WorkFile>> = claimed
        .par_iter()
        .map(|(path, file, language)| {
            if cancel.load(Ordering::Relaxed) {
                return None;
            }
            let read = read_work_file(words, &snapshot, path, file, *language);
            let n = done.fetch_add(1, Ordering::Relaxed) + 1;
            if n.is_multiple_of(REPORT_EVERY) || n == total {
                progress(n, total);
            }
            Some(read)
        })
        .collect::<Option<Vec<_>>>()
        .map(|files| files.into_iter().flatten().collect());
    let Some(changed) = changed else { return Ok(None) };

    let present: HashSet<&str> = claimed.iter().map(|(path, _, _)| path.as_str()).collect();
    let deleted = snapshot
        .iter()
        .filter(|(path, entry)| {
            entry.mode != Mode::Symlink
                && job.frontends.language_in(path, &holdings).is_some()
                && !present.contains(*path)
        })
        .map(|(path, _)| path.to_owned())
        .collect();
    let full = match &job.full_index {
        Some(db) => Some(db.index_snapshot(&snapshot, || repository.reader()).map_err(|e| e.to_string())?),
        None => None,
    };
    Ok(Some(Indexed { commit, snapshot, holdings, changed, deleted, scanned: total, full }))
}

/// The work tree file at `path`, when its content is not the base's there; else its words are
/// kept. A file that vanished since the walk is simply not there (the file watcher tells).
fn read_work_file(
    words: &BlobWords,
    snapshot: &Snapshot,
    path: &str,
    file: &PathBuf,
    language: LanguageId,
) -> Option<WorkFile> {
    let bytes = std::fs::read(file).ok()?;
    let id = blob_id(&bytes);
    match snapshot.get(path) {
        Some(entry) if entry.id == id && entry.mode != Mode::Symlink => {
            let _ = words.read(id, language, || Ok::<_, Infallible>(Arc::from(bytes)));
            None
        }
        _ => Some(WorkFile { path: path.to_owned(), language, id, text: Arc::from(bytes) }),
    }
}
