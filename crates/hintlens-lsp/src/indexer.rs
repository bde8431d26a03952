//! The start of every analysis: the base commit's tree, and how the work tree differs from it.
//!
//! Demand first: nothing is parsed here, and files git's index vouches for are not even read.
//! The scan asks each claimed file of the work tree whether its stat data are those git's index
//! recorded with a blob id ([`StatCache`], what `git status` does); a file that passes and
//! holds the base's blob at its path is unchanged. Any other file is read once and told by its
//! blob id. A changed file leaves its bytes, which the main thread makes an input of, and the
//! scan's answer ([`Outcome`]) goes out as soon as every file is told: lenses need no more.
//! Base files are read from git and parsed when a request first needs them
//! ([`Database::snapshot_on_demand`]).
//!
//! Then, in the background, the words of the unchanged files nobody read yet ([`BlobWords`]:
//! the compact repository-wide fact that name questions need, a few kilobytes where a syntax
//! tree and index would be a hundred times that), in parallel: a lens's facts (in how many base
//! files a name occurs) ask every file's words, and a name question before the pass ends reads
//! the words of the blobs it needs from git.
//!
//! Runs on its own thread, the scan reading in parallel on rayon's pool, and holds no database
//! handle (an edit's write would wait for it): an edit during the scan is applied again when
//! the scan lands. A newer job (the base moved) stops it through [`Job::cancel`]. Only the
//! reference mode [`crate::Options::full_index`] parses the whole base up front, with a
//! database handle an edit cancels.

use crate::paths::Root;
use crate::progress::Stage;
use crate::scan;
use hintlens_db::{BlobWords, Database, Frontends, Holdings, LanguageId, SnapshotIndex};
use hintlens_snapshot::{Mode, ObjectId, Repository, Snapshot, StatCache, blob_id};
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

/// What the indexer tells the main thread, in this order: the scan's progress, its
/// [`Outcome`], then the background pass's progress and its end.
pub(crate) enum Report {
    /// `done` of `total` files of a stage.
    Progress(Stage, usize, usize),
    Scanned(Outcome),
    /// The background pass ended (or had nothing to do): how many unchanged files git's index
    /// vouched for, whose words are read now (by it, or by a request first).
    WordsRead(usize),
}

pub(crate) enum Outcome {
    Done(Indexed),
    Failed(String),
    Cancelled,
}

/// Runs `job` on a new thread, once `hold` (if any) is signalled or dropped, telling `report`
/// what it did ([`Report`]); a cancelled or failed scan ends the reports.
pub(crate) fn spawn(
    job: Job,
    hold: Option<crossbeam_channel::Receiver<()>>,
    report: impl Fn(Report) + Send + Sync + 'static,
) {
    std::thread::Builder::new()
        .name("hintlens-indexer".to_owned())
        .spawn(move || {
            if let Some(hold) = hold {
                let _ = hold.recv();
            }
            let progress = |done, total| report(Report::Progress(Stage::Scanning, done, total));
            let (outcome, unread) = match catch_unwind(AssertUnwindSafe(|| run(&job, &progress))) {
                Ok(Ok(Some((indexed, unread)))) => (Outcome::Done(indexed), unread),
                Ok(Ok(None)) => (Outcome::Cancelled, None),
                Ok(Err(message)) => (Outcome::Failed(message), None),
                Err(payload) if payload.is::<salsa::Cancelled>() => (Outcome::Cancelled, None),
                Err(payload) => (
                    Outcome::Failed(format!(
                        "hintlens crashed while indexing: {} (please report it)",
                        crate::dispatch::panic_message(&*payload)
                    )),
                    None,
                ),
            };
            let Job { words, cancel, full_index, .. } = job;
            // Let a waiting edit go ahead before the main thread hears about the outcome.
            drop(full_index);
            let done = matches!(outcome, Outcome::Done(_));
            report(Report::Scanned(outcome));
            if done {
                let vouched = unread.map_or(0, |unread| {
                    let progress = |done, total| report(Report::Progress(Stage::ReadingWords, done, total));
                    // Only a pass that ran to its end read them; a crash leaves them to be read
                    // from git on demand, and the progress still ends.
                    match catch_unwind(AssertUnwindSafe(|| read_words(&words, &unread, &cancel, &progress))) {
                        Ok(()) if !cancel.load(Ordering::Relaxed) => unread.files.len(),
                        _ => 0,
                    }
                });
                report(Report::WordsRead(vouched));
            }
        })
        .expect("the operating system can start a thread");
}

/// The unchanged work tree files git's index vouched for, whose words nobody has read yet.
pub(crate) struct Unread {
    files: Vec<CleanFile>,
}

struct CleanFile {
    path: String,
    file: PathBuf,
    language: LanguageId,
    id: ObjectId,
}

/// Reads the words of the `unread` files, in parallel. A file whose bytes are not its blob's
/// is passed over (its words are read from git when asked): it changed since the scan (the
/// file watcher tells), or git's filters made the blob from other bytes (`autocrlf`, LFS).
fn read_words(words: &BlobWords, unread: &Unread, cancel: &AtomicBool, progress: &(dyn Fn(usize, usize) + Sync)) {
    let (done, total) = (AtomicUsize::new(0), unread.files.len());
    unread.files.par_iter().for_each(|file| {
        if cancel.load(Ordering::Relaxed) {
            return;
        }
        if !words.contains(file.id, file.language)
            && let Ok(text) = std::fs::read(&file.file)
            && blob_id(&text) == file.id
        {
            let _ = words.read(file.id, file.language, || Ok::<_, Infallible>(Arc::from(text)));
        }
        let n = done.fetch_add(1, Ordering::Relaxed) + 1;
        if n.is_multiple_of(REPORT_EVERY) || n == total {
            progress(n, total);
        }
    });
}

/// The job's answer, and the unchanged files whose words are still to read; `None` when it
/// was cancelled.
fn run(job: &Job, progress: &(dyn Fn(usize, usize) + Sync)) -> Result<Option<(Indexed, Option<Unread>)>, String> {
    let repository = &job.repository;
    let commit =
        repository.resolve_commit(&job.base).map_err(|e| format!("cannot resolve the base `{}`: {e}", job.base))?;
    // The base's trees from git and the work tree's directories: both wait on the disk.
    let root = job.root.path();
    let (snapshot, files) = std::thread::scope(|scope| {
        let walk = scope.spawn(|| scan::walk(root));
        (repository.snapshot(commit), walk.join())
    });
    // A panic in the walk is the job's, caught by `spawn`.
    let files = files.unwrap_or_else(|payload| std::panic::resume_unwind(payload))?;
    let snapshot = snapshot.map_err(|e| e.to_string())?;
    // What the base holds decides the language of an ending two languages share, in the base
    // and in the work tree alike.
    let holdings = job.frontends.holdings(&snapshot);
    let claimed: Vec<(String, PathBuf, LanguageId)> = files
        .into_iter()
        .filter_map(|file| {
            let path = job.root.relative(&file)?;
            let language = job.frontends.language_in(&path, &holdings)?;
            Some((path, file, language))
        })
        .collect();
    let stat_cache = repository.stat_cache();

    let total = claimed.len();
    let done = AtomicUsize::new(0);
    // Not `job` itself: its database handle (reference mode) cannot be shared between threads.
    let (words, cancel) = (&job.words, &job.cancel);
    let told: Option<Result<Vec<Told>, String>> = claimed
        .into_par_iter()
        .map(|(path, file, language)| {
            if cancel.load(Ordering::Relaxed) {
                return None;
            }
            let told = tell(words, stat_cache.as_ref(), &snapshot, path, file, language);
            let n = done.fetch_add(1, Ordering::Relaxed) + 1;
            if n.is_multiple_of(REPORT_EVERY) || n == total {
                progress(n, total);
            }
            Some(told)
        })
        .collect();
    let Some(told) = told else { return Ok(None) };
    let told = told?;

    // A file that vanished since the walk is deleted, as the file watcher will say.
    let present: HashSet<&str> = told
        .iter()
        .filter_map(|told| match told {
            Told::Changed(file) => Some(file.path.as_str()),
            Told::Clean(file) => Some(file.path.as_str()),
            Told::Unchanged(path) => Some(path.as_str()),
            Told::Gone => None,
        })
        .collect();
    let deleted = snapshot
        .iter()
        .filter(|(path, entry)| {
            !present.contains(*path)
                && entry.mode != Mode::Symlink
                && job.frontends.language_in(path, &holdings).is_some()
        })
        .map(|(path, _)| path.to_owned())
        .collect();
    let (mut changed, mut clean) = (Vec::new(), Vec::new());
    for told in told {
        match told {
            Told::Changed(file) => changed.push(file),
            // Only the reference mode's index has every file's words without them.
            Told::Clean(file) if job.full_index.is_none() => clean.push(file),
            Told::Clean(_) | Told::Unchanged(_) | Told::Gone => {}
        }
    }
    let full = job.full_index.as_ref().map(|db| db.index_snapshot(&snapshot, || repository.reader()));
    let unread = stat_cache.is_some().then_some(Unread { files: clean });
    Ok(Some((Indexed { commit, snapshot, holdings, changed, deleted, scanned: total, full }, unread)))
}

/// What the scan learnt of one claimed work tree file.
enum Told {
    /// Its content is not the base's there.
    Changed(WorkFile),
    /// It holds the base's blob, and was read (its words are kept).
    Unchanged(String),
    /// Git's index vouches that it holds the base's blob; it was not read.
    Clean(CleanFile),
    /// It vanished since the walk.
    Gone,
}

/// Whether the work tree file at `path` holds the base's content there: by git's index when it
/// vouches for the file, else by reading it (then an unchanged file's words are kept, since
/// its bytes are at hand). A file that cannot be read fails the scan: taking it for the base's
/// content, or for deleted, would be an answer about a file nobody read.
fn tell(
    words: &BlobWords,
    stat_cache: Option<&StatCache>,
    snapshot: &Snapshot,
    path: String,
    file: PathBuf,
    language: LanguageId,
) -> Result<Told, String> {
    let base = snapshot.get(&path).filter(|entry| entry.mode != Mode::Symlink).map(|entry| entry.id);
    if let Some(id) = stat_cache.and_then(|cache| cache.blob(&path, &file)).filter(|&id| Some(id) == base) {
        return Ok(match words.contains(id, language) {
            true => Told::Unchanged(path),
            false => Told::Clean(CleanFile { path, file, language, id }),
        });
    }
    let bytes = match std::fs::read(&file) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Told::Gone),
        Err(e) => {
            return Err(format!("cannot read {}: {e} (hintlens compares every file with the base)", file.display()));
        }
    };
    let id = blob_id(&bytes);
    if Some(id) == base {
        let _ = words.read(id, language, || Ok::<_, Infallible>(Arc::from(bytes)));
        return Ok(Told::Unchanged(path));
    }
    Ok(Told::Changed(WorkFile { path, language, id, text: Arc::from(bytes) }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use hintlens_db::Database;

    /// A file the scan cannot read is no answer: not the base's content, not deleted. (As root a
    /// permission is no obstacle, so the file is one below a path that is a file.)
    #[test]
    fn a_file_that_cannot_be_read_fails_the_scan_and_a_vanished_one_is_gone() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("app.py"), "x = 1\n").unwrap();
        let db = Database::new(hintlens_batch::frontends());
        let words = db.blob_words_table();
        let python = db.frontends().language_of("app.py").unwrap();
        let base = Snapshot::from_files([("app.py".to_owned(), b"x = 1\n".to_vec())]);
        let told = |file: PathBuf| tell(&words, None, &base, "app.py".to_owned(), file, python);

        let unreadable = told(dir.path().join("app.py").join("inner.py"));
        assert!(matches!(&unreadable, Err(message) if message.contains("cannot read")), "{:?}", unreadable.is_ok());
        assert!(matches!(told(dir.path().join("gone.py")), Ok(Told::Gone)));
        assert!(matches!(told(dir.path().join("app.py")), Ok(Told::Unchanged(_))));
    }
}
