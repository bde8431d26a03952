//! Whole-repository indexing in the background: the base commit from git, and (on the first
//! run) the work tree from disk.
//!
//! Runs on its own thread with its own database handle and parses in parallel on rayon's pool.
//! An edit on the main thread cancels it (salsa unwinds every handle before a write); it then
//! reports [`Outcome::Cancelled`] so that the main thread starts it again with a fresh handle,
//! and everything already parsed stays memoized.

use crate::paths::Root;
use crate::scan;
use crate::tree::ScannedFile;
use crate::world::Base;
use crossbeam_channel::Receiver;
use hintlens_db::{Database, LanguageId, SnapshotIndex, SourceFile, file_index, file_names};
use hintlens_snapshot::{BlobSource, Entry, Mode, Repository, blob_id};
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Files per parallel work item (and per progress report).
const CHUNK: usize = 16;

pub(crate) struct Job {
    pub repository: Repository,
    pub root: Root,
    pub base: String,
    /// Read the work tree too (the first run); later runs only re-read the base.
    pub scan: bool,
}

pub(crate) struct Indexed {
    pub base: Arc<Base>,
    /// The work tree's source files, when the job scanned it.
    pub scanned: Option<Vec<ScannedFile>>,
}

pub(crate) enum Outcome {
    Done(Indexed),
    Failed(String),
    Cancelled,
}

/// Runs `job` on a new thread, once `hold` (if any) is signalled or dropped;
/// `progress(done, total)` is called as files are indexed and `finish` once with the outcome.
pub(crate) fn spawn(
    job: Job,
    db: Database,
    hold: Option<Receiver<()>>,
    progress: impl Fn(usize, usize) + Send + Sync + 'static,
    finish: impl FnOnce(Outcome) + Send + 'static,
) {
    std::thread::Builder::new()
        .name("hintlens-indexer".to_owned())
        .spawn(move || {
            if let Some(hold) = hold {
                let _ = hold.recv();
            }
            let outcome = match catch_unwind(AssertUnwindSafe(|| run(&job, &db, &progress))) {
                Ok(Ok(indexed)) => Outcome::Done(indexed),
                Ok(Err(message)) => Outcome::Failed(message),
                Err(payload) if payload.is::<salsa::Cancelled>() => Outcome::Cancelled,
                Err(payload) => Outcome::Failed(format!(
                    "hintlens crashed while indexing: {} (please report it)",
                    crate::dispatch::panic_message(&*payload)
                )),
            };
            // Let a waiting edit go ahead before the main thread hears about the outcome.
            drop(db);
            finish(outcome);
        })
        .expect("the operating system can start a thread");
}

/// A file to index: where its content comes from.
enum Source<'a> {
    Git(&'a Entry),
    Disk(PathBuf),
}

/// A file some frontend claims: its repository path, content and language.
type Claimed<'a> = (String, Source<'a>, LanguageId);

fn run(job: &Job, db: &Database, progress: &(dyn Fn(usize, usize) + Sync)) -> Result<Indexed, String> {
    let repository = &job.repository;
    let commit =
        repository.resolve_commit(&job.base).map_err(|e| format!("cannot resolve the base `{}`: {e}", job.base))?;
    let snapshot = repository.snapshot(commit).map_err(|e| e.to_string())?;
    let holdings = db.holdings(&snapshot);
    let claimed = |path: &str| db.language_in(path, &holdings);
    let base_files: Vec<Claimed<'_>> = snapshot
        .iter()
        .filter(|(_, entry)| entry.mode != Mode::Symlink)
        .filter_map(|(path, entry)| Some((path.to_owned(), Source::Git(entry), claimed(path)?)))
        .collect();
    let work_files: Vec<Claimed<'_>> = if job.scan {
        scan::walk(job.root.path())
            .into_iter()
            .filter_map(|file| {
                let path = job.root.relative(&file)?;
                let language = claimed(&path)?;
                Some((path, Source::Disk(file), language))
            })
            .collect()
    } else {
        Vec::new()
    };

    let total = base_files.len() + work_files.len();
    let done = AtomicUsize::new(0);
    let index = |files: &[Claimed<'_>]| -> Result<Vec<(String, SourceFile, _)>, String> {
        // A database handle is `Send` but not `Sync`: one clone per chunk, made on this thread.
        let jobs: Vec<(Database, &[Claimed<'_>])> = files.chunks(CHUNK).map(|chunk| (db.clone(), chunk)).collect();
        let indexed = jobs
            .into_par_iter()
            .map(|(db, chunk)| {
                let reader = repository.reader();
                let mut out = Vec::with_capacity(chunk.len());
                for (path, source, language) in chunk {
                    // A work tree file that vanished since the walk is simply not there.
                    let Some((file, id)) = load(&db, &reader, source, *language)? else { continue };
                    // Index now, on this worker, so that the whole repository parses in parallel.
                    file_index(&db, file);
                    file_names(&db, file);
                    out.push((path.clone(), file, id));
                }
                progress(done.fetch_add(chunk.len(), Ordering::Relaxed) + chunk.len(), total);
                Ok(out)
            })
            .collect::<Result<Vec<_>, String>>()?;
        Ok(indexed.into_iter().flatten().collect())
    };

    let base_index: BTreeMap<String, SourceFile> = index(&base_files)?.into_iter().map(|(p, f, _)| (p, f)).collect();
    let base = Arc::new(Base { commit, snapshot, index: SnapshotIndex::from_files(base_index), holdings });
    let scanned = job
        .scan
        .then(|| index(&work_files))
        .transpose()?
        .map(|files| files.into_iter().map(|(path, input, id)| ScannedFile { path, input, id }).collect());
    Ok(Indexed { base, scanned })
}

/// The content-keyed input of one file, reading it only if its content is new to the database.
fn load(
    db: &Database,
    reader: &dyn BlobSource,
    source: &Source<'_>,
    language: LanguageId,
) -> Result<Option<(SourceFile, hintlens_snapshot::ObjectId)>, String> {
    match source {
        Source::Git(entry) => {
            let file = db.intern_file(entry.id, language, || entry.read(reader)).map_err(|e| e.to_string())?;
            Ok(Some((file, entry.id)))
        }
        Source::Disk(path) => {
            let Ok(bytes) = std::fs::read(path) else { return Ok(None) };
            let id = blob_id(&bytes);
            let file = db.intern_file(id, language, || Ok::<_, String>(Arc::from(bytes)))?;
            Ok(Some((file, id)))
        }
    }
}
