//! Running tasks: one at a time ([`run_task`]) or a whole dataset ([`run_batch`]).

use crate::dataset::{DatasetError, RecordError, TaskRecord, read_dataset};
use crate::hints::{TaskExtras, compute};
use crate::record::{Coverage, ErrorKind, TaskError, TaskOutput, error_record, ok_record};
use crate::repos::RepoLocator;
use crate::shard::Shard;
use hintlens_db::{Database, Holdings, SnapshotIndex};
use hintlens_hints::{
    SelectOptions, Selection, Task, TaskFields, documentation_of_changes, documentation_text, split_test_regions,
};
use hintlens_projection::{DescriptionProvider, Projection};
use hintlens_snapshot::{Patch, Reference, Repository, build_reference_reading, changes_between};
use serde_json::Value;
use std::collections::{HashMap, HashSet};
use std::io::Write;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, mpsc};
use std::time::{Duration, Instant};

/// One repository, opened once, with the database its tasks share.
pub struct RepoContext {
    pub repository: Repository,
    pub db: Database,
}

/// What to compute for one task.
pub struct TaskSpec<'a> {
    pub base_commit: &'a str,
    /// `None` when the task states its change only as a reference commit: R is then read from
    /// that commit whatever `reference_from` says.
    pub patch: Option<&'a str>,
    pub test_patch: &'a str,
    pub problem_statement: &'a str,
    /// What the agent is told (`--told`'s fields' text; the problem statement by default):
    /// `necessity` is 0 for a name it states.
    pub told: &'a str,
    pub selections: &'a [Selection],
    pub projections: &'a [Projection],
    /// The reference commit, when the dataset names one.
    pub reference_commit: Option<&'a str>,
    pub reference_from: ReferenceFrom,
    pub index: IndexMode,
}

/// How much of B and R a task reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum IndexMode {
    /// What the answers need: the changed files, the modules resolution looks into, and the
    /// files whose words hold a name a repository-wide fact asks about
    /// ([`hintlens_db::SnapshotIndex`]).
    #[default]
    Demand,
    /// Every source file of both snapshots, parsed up front (the editor's way; kept to check
    /// that both give the same records).
    Full,
}

/// Where the reference snapshot R comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ReferenceFrom {
    /// B with the code and test patches applied (the default: the task as the dataset states it).
    #[default]
    Patches,
    /// The dataset's reference commit (`solution_commit`, `head_commit`); the change sets are the
    /// line diff B → R, split into code and test by the paths the test patch touches.
    Commit,
    /// Patches, and the reference commit when they do not apply (reconstructed datasets whose
    /// patch was taken against another base); the record says so in a note.
    Auto,
}

/// Builds B and R, indexes both, runs every selection and renders every projection.
pub fn run_task(ctx: &RepoContext, spec: &TaskSpec<'_>) -> Result<TaskOutput, TaskError> {
    run_task_with(ctx, spec, &TaskExtras::default())
}

/// [`run_task`] with the task's dataset fields, selection options and a description provider.
pub fn run_task_with(ctx: &RepoContext, spec: &TaskSpec<'_>, extras: &TaskExtras<'_>) -> Result<TaskOutput, TaskError> {
    let repo = &ctx.repository;
    let db = &ctx.db;
    let base_id =
        repo.resolve_commit(spec.base_commit).map_err(|e| TaskError::new(ErrorKind::CommitNotFound, e.to_string()))?;
    let base = repo.snapshot(base_id).map_err(|e| TaskError::new(ErrorKind::Git, e.to_string()))?;
    // A partial clone fetches what the task may read in one go, before anything reads it.
    if repo.is_partial() {
        fetch_ahead(repo, db, &base, spec);
    }
    let reader = repo.reader();
    let from_commit = |why: Option<String>| -> Result<Reference, TaskError> {
        let Some(rev) = spec.reference_commit else {
            return Err(TaskError::new(
                ErrorKind::MalformedRecord,
                why.unwrap_or_else(|| "the record names no reference commit (`solution_commit`, `head_commit`)".into()),
            ));
        };
        let id = repo.resolve_commit(rev).map_err(|e| TaskError::new(ErrorKind::CommitNotFound, e.to_string()))?;
        let snapshot = repo.snapshot(id).map_err(|e| TaskError::new(ErrorKind::Git, e.to_string()))?;
        if repo.is_partial() {
            // A fetch that fails is met again by the reads that need it, which report it.
            let _ = repo.fetch_missing(changed_blobs(&base, &snapshot));
        }
        let test_patch = Patch::parse(spec.test_patch.as_bytes()).map_err(patch_error)?;
        let touched = test_patch.touched_paths();
        // Without a test patch, the default path classifier says which files are tests.
        let classifier = db.test_paths();
        let is_test = |p: &str| if touched.is_empty() { classifier.is_test(p) } else { touched.contains(p) };
        let (code, test) = changes_between(&base, &snapshot, &reader, is_test)
            .map_err(|e| TaskError::new(ErrorKind::Git, e.to_string()))?;
        let mut notes = vec![format!("reference snapshot read from commit {rev}")];
        notes.extend(why);
        Ok(Reference { snapshot, code, test, notes })
    };
    // What the patches do to files no task reads (approval baselines, golden files, docs) is
    // not computed.
    let reads = |path: &str| reads_in_reference(db, path);
    let patched = |patch: &str| {
        build_reference_reading(&base, &reader, patch.as_bytes(), spec.test_patch.as_bytes(), &reads)
            .map_err(patch_error)
    };
    // Whether code and test were told apart by path (a commit's diff), which cannot see the test
    // regions of source files.
    let (reference, by_path) = match (spec.patch, spec.reference_from) {
        (None, _) => (from_commit(Some("the record carries no code patch, only a reference commit".into()))?, true),
        (Some(patch), ReferenceFrom::Patches) => (patched(patch)?, false),
        (Some(_), ReferenceFrom::Commit) => (from_commit(None)?, true),
        (Some(patch), ReferenceFrom::Auto) => match patched(patch) {
            Ok(r) => (r, false),
            // A record naming paths outside the repository is refused, not worked around.
            Err(e) if spec.reference_commit.is_some() && e.kind != ErrorKind::UnsafePath => {
                (from_commit(Some(format!("the patches do not apply at the base commit ({})", e.message)))?, true)
            }
            Err(e) => return Err(e),
        },
    };
    // Whose the endings two languages share are (`.h`: C++ where R holds more C++ sources than C sources).
    let holdings = db.holdings(&reference.snapshot);
    let coverage = coverage(db, &holdings, [&reference.code, &reference.test], &reference.snapshot, &reader)
        .map_err(|e| TaskError::new(ErrorKind::Git, e.to_string()))?;
    if coverage.is_unsupported() {
        let message = format!(
            "the changed source files are {} ({} files), which hintlens cannot read: {} (it reads {})",
            coverage.unread_summary(),
            coverage.unread_source_files,
            coverage.unread_reason(),
            db.languages().join(", ")
        );
        return Err(TaskError {
            coverage: Some(Box::new(coverage)),
            ..TaskError::new(ErrorKind::UnsupportedLanguage, message)
        });
    }
    let git = |e: hintlens_snapshot::Error| TaskError::new(ErrorKind::Git, e.to_string());
    let (base_index, reference_index) = match spec.index {
        IndexMode::Full => {
            (db.index_snapshot(&base, || repo.reader()), db.index_snapshot(&reference.snapshot, || repo.reader()))
        }
        IndexMode::Demand => {
            let base_index = db.snapshot_on_demand(&base, Box::new(repo.reader()));
            let reference_index = db.derive_on_demand(&base, &base_index, &reference.snapshot, Box::new(repo.reader()));
            // Before anything is read: listing a snapshot reads no blob.
            relate_versions(db, &base, &reference, (&base_index, &reference_index));
            (base_index, reference_index)
        }
    };
    let Reference { snapshot: reference_snapshot, code, test, notes: reference_notes } = reference;
    let (code, test) = if by_path { split_test_regions(db, &reference_index, code, test) } else { (code, test) };
    let task = Task {
        base: &base_index,
        reference: &reference_index,
        code: &code,
        test: &test,
        problem_statement: spec.problem_statement,
        told: spec.told,
    };
    let mut notes = reference_notes;
    if coverage.unread_source_files > 0 {
        notes.push(format!(
            "{} changed source files were not read ({}): {}",
            coverage.unread_source_files,
            coverage.unread_summary(),
            coverage.unread_reason()
        ));
    }
    let mut output = TaskOutput {
        notes,
        coverage,
        base_files: base_index.len(),
        reference_files: reference_index.len(),
        ..TaskOutput::default()
    };
    // Documentation is what the code change adds to files that are no source code (source no
    // frontend reads is unread code, not documentation).
    let scripts = output.coverage.scripts.clone();
    let is_documentation = |path: &str| {
        db.language_in(path, &holdings).is_none()
            && hintlens_snapshot::source_extension(path).is_none()
            && !scripts.contains(path)
    };
    let change_documentation = match (extras.fields.documentation, spec.patch) {
        (Some(_), _) => String::new(),
        (None, Some(patch)) => documentation_text(patch, is_documentation),
        (None, None) => documentation_of_changes(&code, &reference_snapshot, &reader, is_documentation).map_err(git)?,
    };
    compute(db, &task, &change_documentation, spec.selections, spec.projections, extras, &mut output);
    // An answer built without a file it needed is no answer.
    // Once each: the two snapshots share their unchanged blobs, and a blob is asked for again.
    let unread: Vec<String> = base_index
        .read_errors()
        .into_iter()
        .chain(reference_index.read_errors())
        .collect::<std::collections::BTreeSet<String>>()
        .into_iter()
        .collect();
    if !unread.is_empty() {
        return Err(TaskError::new(
            ErrorKind::Git,
            format!("cannot read {} files from git ({}); is the repository complete?", unread.len(), unread.join("; ")),
        ));
    }
    // Files only looked through for names (every file of B, for `base_occurrences`) that could
    // not be read: the answer stands, its repository-wide facts are lower bounds, and it says so.
    let unscanned: std::collections::BTreeMap<String, String> =
        base_index.unscanned().into_iter().chain(reference_index.unscanned()).collect();
    if !unscanned.is_empty() {
        output.coverage.unreadable_files = unscanned.len();
        let listed: Vec<String> = unscanned.iter().map(|(path, error)| format!("{path} ({error})")).collect();
        let files = match unscanned.len() {
            1 => "1 file of the repository could not be read and was".to_owned(),
            n => format!("{n} files of the repository could not be read and were"),
        };
        output.notes.push(format!(
            "{files} left out of the repository-wide facts, which are lower bounds (base_occurrences_lower_bound): {}",
            listed.join("; ")
        ));
    }
    Ok(output)
}

/// Fetches, in one `git fetch` from a partial clone's promisor remote, the blobs of `base` the
/// task may read and the clone lacks: every file a frontend reads (their words answer the
/// repository-wide facts) and every file the patches touch. What this misses is fetched when
/// read, one blob at a time; a fetch that fails is reported by the reads that need it.
fn fetch_ahead(repo: &Repository, db: &Database, base: &hintlens_snapshot::Snapshot, spec: &TaskSpec<'_>) {
    let _ = repo.fetch_missing(blobs_ahead(db, base, spec.patch, spec.test_patch));
}

/// The blobs of the files that differ between `base` and `reference`, in both: what the line
/// diff between them reads.
fn changed_blobs(
    base: &hintlens_snapshot::Snapshot,
    reference: &hintlens_snapshot::Snapshot,
) -> Vec<hintlens_snapshot::ObjectId> {
    let changed = reference.iter().filter(|(path, entry)| base.get(path).is_none_or(|old| old.id != entry.id));
    changed.flat_map(|(path, entry)| [Some(entry.id), base.get(path).map(|old| old.id)]).flatten().collect()
}

/// Whether a task reads the file at `path` of its reference: a source file or manifest a
/// frontend claims, a source file of another language (counted as unread by its name), or a
/// file without an extension (read for its `#!` line, [`coverage`]). The patches' changes to
/// the others are not applied ([`build_reference_reading`]).
fn reads_in_reference(db: &Database, path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    db.language_of(path).is_some() || hintlens_snapshot::source_extension(path).is_some() || !name.contains('.')
}

/// The blobs of `base` a task with these patches may read: every file a frontend reads, and
/// every file the patches touch that the reference is built from ([`reads_in_reference`], or
/// touched by both patches).
fn blobs_ahead(
    db: &Database,
    base: &hintlens_snapshot::Snapshot,
    patch: Option<&str>,
    test_patch: &str,
) -> Vec<hintlens_snapshot::ObjectId> {
    let mut ids = db.claimed_blobs(base);
    // A patch that does not parse is reported when the reference is built.
    let patches: Vec<Patch> =
        patch.into_iter().chain([test_patch]).filter_map(|p| Patch::parse(p.as_bytes()).ok()).collect();
    let touched: Vec<_> = patches.iter().map(Patch::touched_paths).collect();
    let in_both = |path: &str| touched.iter().filter(|paths| paths.contains(path)).count() > 1;
    let read = touched.iter().flatten().filter(|path| reads_in_reference(db, path) || in_both(path));
    let entries = read.filter_map(|path| base.get(path)).filter(|entry| entry.is_in_git());
    ids.extend(entries.map(|entry| entry.id));
    ids
}

/// Tells the task's database which blobs are the base and reference versions of each changed
/// file, so that the second one parsed starts from the first's tree (on demand only: indexed up
/// front, both are parsed before the task could say so).
fn relate_versions(
    db: &Database,
    base: &hintlens_snapshot::Snapshot,
    reference: &Reference,
    (base_index, reference_index): (&SnapshotIndex, &SnapshotIndex),
) {
    for (path, change) in reference.code.files.iter().chain(&reference.test.files) {
        let before = change.old_path.as_deref().unwrap_or(path);
        let (Some(old), Some(new)) = (base.get(before), reference.snapshot.get(path)) else { continue };
        if let (Some(a), Some(b)) = (base_index.language_at(db, before), reference_index.language_at(db, path))
            && a == b
        {
            db.relate_versions((old.id, a), (new.id, b));
        }
    }
}

/// Which changed files (code and test) a frontend reads, and which source files none does (by
/// extension, or for a file without one by its `#!` line in `reference`); and which language
/// read the changed files of an ending two languages share (`.h`), in a snapshot holding
/// `holdings`.
fn coverage<'c>(
    db: &Database,
    holdings: &Holdings,
    changes: impl IntoIterator<Item = &'c hintlens_snapshot::ChangeSet>,
    reference: &hintlens_snapshot::Snapshot,
    source: &dyn hintlens_snapshot::BlobSource,
) -> Result<Coverage, hintlens_snapshot::Error> {
    let mut coverage = Coverage::default();
    for path in changes.into_iter().flat_map(|c| c.files.keys()) {
        match db.language_in(path, holdings) {
            Some(language) => {
                coverage.read_files += 1;
                let name = db.language_name(language);
                coverage.languages.insert(name.to_owned());
                if let Some(ending) = db.shared_ending(path) {
                    coverage.read_as.insert(ending.to_owned(), name.to_owned());
                }
            }
            None => {
                let name = path.rsplit('/').next().unwrap_or(path);
                let extension = match hintlens_snapshot::source_extension(path) {
                    Some(extension) => Some(extension),
                    // Only a file without an extension is read, for its `#!` line.
                    None if !name.contains('.') => match reference.get(path) {
                        // Deleted: nothing of it is read, as documentation or otherwise.
                        None => None,
                        Some(entry) => {
                            let extension = hintlens_snapshot::script_extension(&entry.read(source)?);
                            if extension.is_some() {
                                coverage.scripts.insert(path.to_owned());
                            }
                            extension
                        }
                    },
                    None => None,
                };
                if let Some(extension) = extension {
                    coverage.unread_source_files += 1;
                    coverage.unread_extensions.insert(extension);
                }
            }
        }
    }
    Ok(coverage)
}

/// A patch that cannot be used: `unsafe_path` when it names a path outside the repository,
/// `git` when a file it changes cannot be read from the repository (the patch is not to blame),
/// else `patch_does_not_apply`.
fn patch_error(e: hintlens_snapshot::PatchError) -> TaskError {
    let kind = match e.kind() {
        hintlens_snapshot::PatchErrorKind::UnsafePath { .. } => ErrorKind::UnsafePath,
        hintlens_snapshot::PatchErrorKind::Read(_) => ErrorKind::Git,
        _ => ErrorKind::PatchDoesNotApply,
    };
    TaskError::new(kind, e.to_string())
}

/// The command line's `batch` options.
pub struct BatchOptions {
    pub dataset: PathBuf,
    pub locator: RepoLocator,
    pub selections: Vec<Selection>,
    pub projections: Vec<Projection>,
    pub jobs: usize,
    pub reference_from: ReferenceFrom,
    pub index: IndexMode,
    pub select: SelectOptions,
    /// A configured description provider (see `hintlens_projection::DescriptionProvider`).
    pub provider: Option<Arc<dyn DescriptionProvider>>,
    /// Instance ids that already have a record (`--resume`): not run again.
    pub skip: HashSet<String>,
    /// Set to a non-zero value (the signal's number) to stop taking tasks: the running ones
    /// finish and are written, the others are left for `--resume`.
    pub stop: Option<Arc<AtomicUsize>>,
    /// Run only this shard's tasks (`--shard`; see [`Shard`]).
    pub shard: Option<Shard>,
    /// The dataset fields the agent is told (`--told`), against which `necessity` is computed
    /// (`hintlens_formats::told`); empty: the problem statement, as always. Records name them
    /// (`told`) when given.
    pub told: Vec<String>,
}

impl BatchOptions {
    fn stopped(&self) -> bool {
        self.stop.as_ref().is_some_and(|s| s.load(Ordering::SeqCst) != 0)
    }
}

/// One finished task, for progress reporting.
pub struct Progress<'a> {
    pub instance_id: &'a str,
    /// Why the task has no answer (failed, or `unsupported`), if it has none.
    pub error: Option<&'a str>,
    /// The task is `unsupported` (its language cannot be read), not failed.
    pub unsupported: bool,
    pub done: usize,
    pub total: usize,
    pub failed: usize,
    pub unsupported_so_far: usize,
}

#[derive(Debug, Clone, Default)]
pub struct BatchSummary {
    /// Tasks in the dataset.
    pub total: usize,
    /// Records written by this run.
    pub done: usize,
    /// Tasks that failed (`error` records).
    pub failed: usize,
    /// Tasks in languages no frontend reads (`unsupported` records): no failure.
    pub unsupported: usize,
    /// Tasks skipped because the output already had their record (`--resume`).
    pub resumed: usize,
    /// The run stopped taking tasks (`BatchOptions::stop`) before all were done.
    pub interrupted: bool,
    /// What partial clones fetched from their promisor remotes for the tasks.
    pub fetched: hintlens_snapshot::Fetched,
    pub elapsed: Duration,
}

struct Finished {
    instance_id: String,
    record: Value,
    error: Option<String>,
    unsupported: bool,
}

/// Runs every task of the dataset (of its shard, with [`BatchOptions::shard`]) and writes one
/// JSON line per task to `out` as each finishes.
pub fn run_batch(
    options: &BatchOptions,
    out: &mut dyn Write,
    on_progress: &mut dyn FnMut(Progress<'_>),
) -> Result<BatchSummary, BatchError> {
    let started = Instant::now();
    let records = read_dataset(&options.dataset).map_err(BatchError::Dataset)?;
    let mut summary = run_records(options, records, out, on_progress)?;
    summary.elapsed = started.elapsed();
    Ok(summary)
}

/// [`run_batch`] on records already read (the dataset named in `options` is not read).
pub fn run_records(
    options: &BatchOptions,
    records: Vec<Result<TaskRecord, RecordError>>,
    out: &mut dyn Write,
    on_progress: &mut dyn FnMut(Progress<'_>),
) -> Result<BatchSummary, BatchError> {
    let started = Instant::now();
    if !options.told.is_empty() {
        let rows = records.iter().filter_map(|r| r.as_ref().ok()).map(|r| &r.raw);
        hintlens_formats::told::check_fields(rows, &options.told, "--told").map_err(BatchError::Usage)?;
    }
    let records = match options.shard {
        Some(shard) => shard.select(records),
        None => records,
    };
    let total = records.len();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(options.jobs)
        .build()
        .map_err(|e| BatchError::Io(std::io::Error::other(e)))?;

    let (tx, rx) = mpsc::channel::<Finished>();
    let mut groups: Vec<(String, Vec<TaskRecord>)> = Vec::new();
    let mut resumed = 0;
    for record in records {
        let id = match &record {
            Ok(r) => Some(r.instance_id.as_str()),
            Err(e) => e.instance_id.as_deref(),
        };
        if id.is_some_and(|id| options.skip.contains(id)) {
            resumed += 1;
            continue;
        }
        match record {
            Ok(r) => match groups.iter_mut().find(|(k, _)| k.eq_ignore_ascii_case(&r.repo)) {
                Some((_, tasks)) => tasks.push(r),
                None => groups.push((r.repo.clone(), vec![r])),
            },
            Err(e) => {
                let error = TaskError::new(ErrorKind::MalformedRecord, e.message);
                let label = e.instance_id.clone().unwrap_or_else(|| format!("record {}", e.position));
                let _ = tx.send(Finished {
                    record: error_record(e.instance_id.as_deref(), e.repo.as_deref(), &error),
                    error: Some(error.to_string()),
                    instance_id: label,
                    unsupported: false,
                });
            }
        }
    }

    let to_run = total - resumed;
    let mut summary = BatchSummary { total, resumed, ..BatchSummary::default() };
    std::thread::scope(|scope| -> Result<(), BatchError> {
        let running = scope.spawn(move || pool.install(|| run_groups(options, groups, tx)));
        for finished in rx {
            summary.done += 1;
            if finished.unsupported {
                summary.unsupported += 1;
            } else if finished.error.is_some() {
                summary.failed += 1;
            }
            // One write of the whole line: a run killed at any moment leaves complete records
            // and at most one torn last line, which `--resume` drops.
            let mut line = serde_json::to_vec(&finished.record).map_err(|e| BatchError::Io(e.into()))?;
            line.push(b'\n');
            out.write_all(&line).map_err(BatchError::Io)?;
            out.flush().map_err(BatchError::Io)?;
            on_progress(Progress {
                instance_id: &finished.instance_id,
                error: finished.error.as_deref(),
                unsupported: finished.unsupported,
                done: summary.done,
                total: to_run,
                failed: summary.failed,
                unsupported_so_far: summary.unsupported,
            });
        }
        // The channel closes when every task has finished.
        summary.fetched = running.join().unwrap_or_default();
        Ok(())
    })?;
    summary.interrupted = summary.done < to_run && options.stopped();
    summary.elapsed = started.elapsed();
    Ok(summary)
}

/// Runs each repository's tasks; returns what partial clones fetched for them.
fn run_groups(
    options: &BatchOptions,
    groups: Vec<(String, Vec<TaskRecord>)>,
    tx: mpsc::Sender<Finished>,
) -> hintlens_snapshot::Fetched {
    use rayon::prelude::*;
    let mut fetched = hintlens_snapshot::Fetched::default();
    for (repo_name, tasks) in groups {
        if options.stopped() {
            return fetched;
        }
        let opened =
            options.locator.locate(&repo_name).map_err(|m| TaskError::new(ErrorKind::RepositoryNotFound, m)).and_then(
                |path| {
                    Repository::open(&path).map_err(|e| TaskError::new(ErrorKind::RepositoryNotFound, e.to_string()))
                },
            );
        let ctx = match opened {
            Ok(repository) => RepoContext { repository, db: crate::new_database() },
            Err(error) => {
                for t in &tasks {
                    let _ = tx.send(Finished {
                        instance_id: t.instance_id.clone(),
                        record: error_record(Some(&t.instance_id), Some(&t.repo), &error),
                        error: Some(error.to_string()),
                        unsupported: false,
                    });
                }
                continue;
            }
        };
        // Index the distinct files of every base snapshot first, in one parallel pass, so that
        // the tasks below find them done instead of racing for them. A task whose base cannot be
        // read is skipped here and reports its error when it runs.
        if options.index == IndexMode::Full {
            let bases: Vec<_> = tasks
                .iter()
                .filter_map(|t| ctx.repository.resolve_commit(&t.base_commit).ok())
                .filter_map(|id| ctx.repository.snapshot(id).ok())
                .collect();
            ctx.db.index_snapshots(&bases, || ctx.repository.reader());
        }
        // Tasks run oldest base first, handed out in that order, so that tasks at hand have
        // neighbouring bases: the blob words they share are read once, and the words of blobs
        // only older bases held can be dropped (`forget_words_before`), which bounds memory by
        // the bases at hand rather than by the number of tasks. A base that cannot be read
        // sorts first and fails when its task runs.
        let mut tasks: Vec<(i64, &TaskRecord)> = tasks
            .iter()
            .map(|t| {
                let age = ctx.repository.resolve_commit(&t.base_commit).and_then(|id| ctx.repository.commit_time(id));
                (age.unwrap_or(i64::MIN), t)
            })
            .collect();
        tasks.sort_by_key(|&(age, _)| age);
        // A partial clone fetches what every task may read in one go, before any task reads:
        // one `git fetch` for the repository, not one per task (each task still fetches what
        // this one missed, as `run_task` alone does).
        if ctx.repository.is_partial() && !options.stopped() {
            let mut ids = HashSet::new();
            let snapshot = |rev: &str| ctx.repository.resolve_commit(rev).and_then(|id| ctx.repository.snapshot(id));
            for (_, t) in &tasks {
                let Ok(base) = snapshot(&t.base_commit) else { continue };
                ids.extend(blobs_ahead(&ctx.db, &base, t.patch.as_deref(), &t.test_patch));
                // A reference read from its commit (`--reference auto` reads it only if the
                // patches fail, which is not known yet).
                let from_commit = t.patch.is_none() || options.reference_from == ReferenceFrom::Commit;
                if let (true, Some(Ok(reference))) = (from_commit, t.reference_commit.as_deref().map(snapshot)) {
                    ids.extend(changed_blobs(&base, &reference));
                }
            }
            // What fails here is met again, task by task, by the reads that need it.
            let _ = ctx.repository.fetch_missing(ids);
        }
        // The shelf of parses keeps a changed file's parse only for a later task that changes
        // the file again.
        if options.index == IndexMode::Demand {
            let mut last_reads = HashMap::new();
            for (number, (_, t)) in tasks.iter().enumerate() {
                let patches = t.patch.as_deref().into_iter().chain([t.test_patch.as_str()]);
                for patch in patches.filter_map(|p| Patch::parse(p.as_bytes()).ok()) {
                    for path in patch.touched_paths() {
                        last_reads.insert(Box::from(path), number as u32);
                    }
                }
            }
            ctx.db.plan_shelf(last_reads);
        }
        // Task numbers still running, for `forget_words_before`.
        let running = std::sync::Mutex::new(std::collections::BTreeSet::new());
        let (repository, prototype) = (&ctx.repository, std::sync::Mutex::new(ctx.db.clone()));
        let ordered = tasks.into_iter().enumerate().map(|(number, (_, t))| (number as u32, t));
        ordered.par_bridge().for_each_with(tx.clone(), |tx, (number, t)| {
            // Database handles are `Send`, not `Sync`: each task gets its own. On demand, it is a
            // fresh database sharing only the blobs' words, so that memory follows the task at
            // hand: tasks of one repository have different bases, so the files they parse are
            // different blobs anyway (measured on qutebrowser's 79 tasks: the same time as one
            // shared database, 40% of the memory).
            let db = {
                let prototype = prototype.lock().unwrap_or_else(|e| e.into_inner());
                match options.index {
                    IndexMode::Demand => prototype.for_task(number),
                    IndexMode::Full => prototype.clone(),
                }
            };
            let ctx = RepoContext { repository: repository.clone(), db };
            // Asked to stop: take no new task (the running ones finish).
            if options.stopped() {
                return;
            }
            running.lock().unwrap_or_else(|e| e.into_inner()).insert(number);
            let told = match options.told.is_empty() {
                true => t.problem_statement.clone(),
                false => hintlens_formats::told::told_text(&t.raw, &options.told),
            };
            let spec = TaskSpec {
                base_commit: &t.base_commit,
                patch: t.patch.as_deref(),
                test_patch: &t.test_patch,
                problem_statement: &t.problem_statement,
                told: &told,
                selections: &options.selections,
                projections: &options.projections,
                reference_commit: t.reference_commit.as_deref(),
                reference_from: options.reference_from,
                index: options.index,
            };
            let documentation = t.documentation();
            let extras = TaskExtras {
                fields: TaskFields {
                    instance_id: &t.instance_id,
                    interface: t.text_field("interface"),
                    requirements: t.text_field("requirements"),
                    documentation: documentation.as_deref(),
                },
                options: options.select,
                provider: options.provider.as_deref(),
            };
            let result =
                catch_unwind(AssertUnwindSafe(|| run_task_with(&ctx, &spec, &extras))).unwrap_or_else(|panic| {
                    let message = panic
                        .downcast_ref::<String>()
                        .map(String::as_str)
                        .or_else(|| panic.downcast_ref::<&str>().copied())
                        .unwrap_or("unknown panic");
                    Err(TaskError::new(
                        ErrorKind::Internal,
                        format!("hintlens crashed on this task: {message} (please report it)"),
                    ))
                });
            let (record, error, unsupported) = match result {
                Ok(output) => (ok_record(t, &output, &options.told), None, false),
                Err(e) => {
                    (error_record(Some(&t.instance_id), Some(&t.repo), &e), Some(e.to_string()), e.is_unsupported())
                }
            };
            let _ = tx.send(Finished { instance_id: t.instance_id.clone(), record, error, unsupported });
            if options.index == IndexMode::Demand {
                let mut running = running.lock().unwrap_or_else(|e| e.into_inner());
                running.remove(&number);
                // Words this task's base held stay for the next task, whose base is likely to
                // hold them too.
                let oldest = running.first().map_or(number, |&r| r.min(number));
                ctx.db.forget_words_before(oldest);
            }
        });
        fetched += ctx.repository.fetched();
    }
    fetched
}

#[derive(Debug)]
pub enum BatchError {
    Dataset(DatasetError),
    Io(std::io::Error),
    /// The options do not fit the dataset (a `--told` field no row has).
    Usage(String),
}

impl std::fmt::Display for BatchError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BatchError::Dataset(e) => e.fmt(f),
            BatchError::Io(e) => write!(f, "cannot write results: {e}"),
            BatchError::Usage(message) => f.write_str(message),
        }
    }
}

impl std::error::Error for BatchError {}
