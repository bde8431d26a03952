//! `hintlens-bench`: hintlens' speed as ratios against tree-sitter's bare parse of the same
//! bytes, measured in the same run (these machines are noisy; absolute times drift, ratios hold).
//!
//! - `index`: every source file at one commit (or one language's, `--language`) — extraction
//!   throughput against bare-parse throughput on one thread, and the speed-up of indexing on N
//!   threads over one.
//! - `batch`: all tasks of one repository through the real batch pipeline against the bare parse
//!   of the unique blobs their snapshots contain.
//! - `demand`: the batch on demand against a per-task `ast` pipeline and against the limit
//!   (reading and bare-parsing the changed files), and its peak memory ([`demand`]).
//! - `shards`: `--shard K/N`'s balance of work against whole repositories dealt by task count
//!   ([`shards`]).
//! - `read`: reading datasets into task records, each against the first (e.g. Parquet against
//!   the same dataset's JSON lines).

mod demand;
mod reuse;
mod shards;

use clap::{Parser, Subcommand};
use hintlens_batch::{BatchOptions, ReferenceFrom, RepoLocator, TaskRecord, read_dataset, run_batch};
use hintlens_hints::Selection;
use hintlens_projection::Projection;
use hintlens_snapshot::{BlobSource, ObjectId, Reader, Reference, Repository, Snapshot, build_reference};
use hintlens_syntax::Frontend;
use rayon::prelude::*;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

#[derive(Parser)]
#[command(about = "hintlens speed, as ratios against tree-sitter's bare parse measured in the same run")]
struct Cli {
    #[command(subcommand)]
    command: Command,
    /// Repetitions of each measurement (the median is reported).
    #[arg(long, default_value_t = 3, global = true, value_parser = clap::value_parser!(u16).range(1..))]
    repeat: u16,
}

#[derive(Subcommand)]
enum Command {
    /// Index every source file at one commit.
    Index {
        #[arg(long)]
        repo: PathBuf,
        #[arg(long, default_value = "HEAD")]
        rev: String,
        /// Threads for the parallel measurement.
        #[arg(long, default_value_t = 2)]
        threads: usize,
        /// Only the files of this language (`go`, `python`…); every frontend's by default.
        #[arg(long)]
        language: Option<String>,
    },
    /// Run every task of a dataset on one repository.
    Batch {
        dataset: PathBuf,
        #[arg(long)]
        repo: PathBuf,
        #[arg(long, default_value_t = 2)]
        threads: usize,
    },
    /// Run every task of each dataset (one repository each) on demand, against a per-task `ast`
    /// pipeline and the changed files' read-and-parse limit, single process each; then peak
    /// memory for 10, 40 and all tasks. Given several datasets, a table of their ratios ends it.
    Demand {
        #[arg(required = true)]
        datasets: Vec<PathBuf>,
        /// The repository of the one dataset given.
        #[arg(long, conflicts_with = "repos", required_unless_present = "repos")]
        repo: Option<PathBuf>,
        /// Where each dataset's repository is found by the name its tasks give (`DIR/owner__name`
        /// and the other places `hintlens batch --repos` looks).
        #[arg(long)]
        repos: Option<PathBuf>,
        /// Also time `--index full`.
        #[arg(long)]
        with_full: bool,
        /// The per-task pipeline the batch is timed against: Python's `ast` over the checked-out
        /// files (FEA-Bench's shape), or Universal Ctags over the changed files at B and R (a
        /// definition pipeline for languages `ast` cannot read: C, C++).
        #[arg(long, value_enum, default_value_t = demand::Baseline::Ast)]
        baseline: demand::Baseline,
        /// Leave the baseline pipeline out (it takes minutes; the other figures do not need it).
        #[arg(long)]
        no_baseline: bool,
    },
    /// How `--shard K/N` balances a dataset's work against whole repositories dealt by task
    /// count: what predicts a task's time, each plan's shards run one by one (tasks, seconds,
    /// largest against mean), and the merged shards against one process. Needs `cargo build
    /// --release -p hintlens-cli` first.
    Shards {
        dataset: PathBuf,
        #[arg(long)]
        repos: PathBuf,
        #[arg(long, default_value_t = 4)]
        shards: usize,
    },
    /// Read datasets into task records; each is timed against the first.
    Read {
        #[arg(required = true)]
        datasets: Vec<PathBuf>,
    },
    /// Check that a parse from another version's tree gives the index a parse from nothing
    /// gives, on a dataset's changed files (each version from the other's tree, and with
    /// --edits, from its own under seeded line edits); exits 1 when an index differs
    Reuse {
        dataset: PathBuf,
        #[arg(long)]
        repo: PathBuf,
        /// Seeded line edits of each changed file's R version, each parsed from R's tree
        #[arg(long, default_value_t = 0)]
        edits: usize,
    },
}

fn main() {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Index { repo, rev, threads, language } => {
            index(&repo, &rev, threads, language.as_deref(), cli.repeat.into())
        }
        Command::Batch { dataset, repo, threads } => batch(&dataset, &repo, threads, cli.repeat.into()),
        Command::Demand { datasets, repo, repos, with_full, baseline, no_baseline } => {
            let baseline = (!no_baseline).then_some(baseline);
            demand::demand_all(&datasets, repo.as_deref(), repos, cli.repeat.into(), with_full, baseline)
        }
        Command::Read { datasets } => read(&datasets, cli.repeat.into()),
        Command::Reuse { dataset, repo, edits } => match reuse::reuse(&dataset, &repo, edits) {
            Ok(true) => Ok(()),
            Ok(false) => std::process::exit(1),
            Err(e) => Err(e),
        },
        Command::Shards { dataset, repos, shards } => {
            shards::shards(&dataset, &repos, shards.max(1), cli.repeat.into())
        }
    };
    if let Err(e) = result {
        eprintln!("error: {e}");
        std::process::exit(2);
    }
}

type Blob = (usize, Arc<[u8]>);

fn frontends() -> Vec<Box<dyn Frontend>> {
    hintlens_batch::frontends()
}

/// The frontend of `fronts` that reads `path` in a snapshot holding `holdings`: by its ending,
/// or for an ending two languages share (`.h`) by what the snapshot holds, as a batch decides.
/// A dataset's tasks, those it holds whole, and the repository they are of.
fn open_dataset(dataset: &Path, repo_path: &Path) -> Result<(Repository, Vec<TaskRecord>), String> {
    let repo = Repository::open(repo_path).map_err(|e| e.to_string())?;
    let records = read_dataset(dataset).map_err(|e| e.to_string())?.into_iter().filter_map(Result::ok).collect();
    Ok((repo, records))
}

/// A task's base and its reference, built from its patches; `None` for a task the benchmarks
/// leave out: its base not in the repository, no code patch (one stated only as a reference
/// commit: the benchmarks time patches), or patches that do not apply.
fn patched(repo: &Repository, reader: &Reader, r: &TaskRecord) -> Result<Option<(Snapshot, Reference)>, String> {
    let Ok(base_id) = repo.resolve_commit(&r.base_commit) else { return Ok(None) };
    let base = repo.snapshot(base_id).map_err(|e| e.to_string())?;
    let Some(patch) = &r.patch else { return Ok(None) };
    let Ok(reference) = build_reference(&base, reader, patch.as_bytes(), r.test_patch.as_bytes()) else {
        return Ok(None);
    };
    Ok(Some((base, reference)))
}

fn reader_of(
    db: &hintlens_db::Database,
    holdings: &hintlens_db::Holdings,
    fronts: &[Box<dyn Frontend>],
    path: &str,
) -> Option<usize> {
    let name = db.language_name(db.language_in(path, holdings)?);
    fronts.iter().position(|f| f.language() == name)
}

/// The baseline: the language's tree-sitter parse and nothing else.
fn bare_parse(frontends: &[Box<dyn Frontend>], language: usize, text: &[u8]) {
    std::hint::black_box(frontends[language].bare_parse(text));
}

fn pool(threads: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new().num_threads(threads).build().expect("a thread pool")
}

fn median(mut runs: Vec<Duration>) -> Duration {
    runs.sort();
    runs[runs.len() / 2]
}

fn mb_per_s(bytes: usize, t: Duration) -> f64 {
    bytes as f64 / 1e6 / t.as_secs_f64()
}

/// Times `f` `repeat` times, interleaving with the other measurements' repetitions by the caller.
fn time(f: impl FnOnce()) -> Duration {
    let start = Instant::now();
    f();
    start.elapsed()
}

fn index(repo_path: &Path, rev: &str, threads: usize, language: Option<&str>, repeat: usize) -> Result<(), String> {
    let repo = Repository::open(repo_path).map_err(|e| e.to_string())?;
    let commit = repo.resolve_commit(rev).map_err(|e| e.to_string())?;
    let snapshot = repo.snapshot(commit).map_err(|e| e.to_string())?;
    // Every frontend, or only the one asked for (the database then claims only its files).
    let chosen = || {
        let mut fronts = frontends();
        fronts.retain(|f| language.is_none_or(|l| f.language() == l));
        fronts
    };
    let fronts = chosen();
    if fronts.is_empty() {
        return Err(format!("no frontend reads `{}`", language.unwrap_or_default()));
    }
    let reader = repo.reader();
    let mut blobs: Vec<Blob> = Vec::new();
    let all = hintlens_db::Database::new(frontends());
    let holdings = all.holdings(&snapshot);
    for (path, entry) in snapshot.iter() {
        if entry.mode == hintlens_snapshot::Mode::Symlink {
            continue;
        }
        if let Some(lang) = reader_of(&all, &holdings, &fronts, path) {
            blobs.push((lang, entry.read(&reader).map_err(|e| e.to_string())?));
        }
    }
    let bytes: usize = blobs.iter().map(|(_, b)| b.len()).sum();
    println!("{} at {rev}: {} source files, {:.1} MB", repo_path.display(), blobs.len(), bytes as f64 / 1e6);

    let one = pool(1);
    let many = pool(threads);
    let parse =
        |p: &rayon::ThreadPool| time(|| p.install(|| blobs.par_iter().for_each(|(l, b)| bare_parse(&fronts, *l, b))));
    let extract = |p: &rayon::ThreadPool| {
        time(|| {
            p.install(|| {
                blobs.par_iter().for_each(|(l, b)| {
                    std::hint::black_box(fronts[*l].extract(b));
                })
            })
        })
    };
    // The whole indexing path: git reads, interning, salsa, per-file name sets — fresh database.
    let db_index = |p: &rayon::ThreadPool| {
        let db = hintlens_db::Database::new(chosen());
        let (snapshot, repo) = (&snapshot, &repo);
        time(move || {
            p.install(move || db.index_snapshot(snapshot, || repo.reader()));
        })
    };
    let (mut p1, mut e1, mut d1, mut pn, mut dn) = (vec![], vec![], vec![], vec![], vec![]);
    for _ in 0..repeat {
        p1.push(parse(&one));
        e1.push(extract(&one));
        d1.push(db_index(&one));
        pn.push(parse(&many));
        dn.push(db_index(&many));
    }
    let (p1, e1, d1, pn, dn) = (median(p1), median(e1), median(d1), median(pn), median(dn));
    println!("bare parse, 1 thread:          {:>8.1?}  {:>6.2} MB/s", p1, mb_per_s(bytes, p1));
    println!("extraction, 1 thread:          {:>8.1?}  {:>6.2} MB/s", e1, mb_per_s(bytes, e1));
    println!("indexing (db, git), 1 thread:  {:>8.1?}  {:>6.2} MB/s", d1, mb_per_s(bytes, d1));
    println!("bare parse, {threads} threads:         {:>8.1?}  {:>6.2} MB/s", pn, mb_per_s(bytes, pn));
    println!("indexing (db, git), {threads} threads: {:>8.1?}  {:>6.2} MB/s", dn, mb_per_s(bytes, dn));
    println!(
        "ratio  extraction / bare parse throughput, 1 thread:  {:.2}  (target >= 0.75)",
        p1.as_secs_f64() / e1.as_secs_f64()
    );
    println!("ratio  indexing / bare parse throughput, 1 thread:    {:.2}", p1.as_secs_f64() / d1.as_secs_f64());
    println!(
        "ratio  indexing speed-up, {threads} threads over 1:       {:.2}x (target >= 1.7)",
        d1.as_secs_f64() / dn.as_secs_f64()
    );
    println!("ratio  bare parse speed-up, {threads} threads over 1:     {:.2}x", p1.as_secs_f64() / pn.as_secs_f64());
    Ok(())
}

fn batch(dataset: &Path, repo_path: &Path, threads: usize, repeat: usize) -> Result<(), String> {
    let (repo, records) = open_dataset(dataset, repo_path)?;
    let fronts = frontends();
    let all = hintlens_db::Database::new(frontends());
    // The unique claimed blobs of every task's B and R, read up front (outside the timing).
    let reader = repo.reader();
    let mut unique: HashMap<ObjectId, Blob> = HashMap::new();
    let mut usable = Vec::new();
    for r in &records {
        let Some((base, reference)) = patched(&repo, &reader, r)? else { continue };
        for snapshot in [&base, &reference.snapshot] {
            let holdings = all.holdings(snapshot);
            for (path, entry) in snapshot.iter() {
                if let Some(lang) = reader_of(&all, &holdings, &fronts, path)
                    && !unique.contains_key(&entry.id)
                {
                    unique.insert(entry.id, (lang, entry.read(&reader as &dyn BlobSource).map_err(|e| e.to_string())?));
                }
            }
        }
        usable.push(r);
    }
    let blobs: Vec<&Blob> = unique.values().collect();
    let bytes: usize = blobs.iter().map(|(_, b)| b.len()).sum();
    // Reading is part of the batch's work but not of the baseline; show what it costs.
    let ids: Vec<ObjectId> = unique.keys().copied().collect();
    let read = median(
        (0..repeat)
            .map(|_| {
                let reader = repo.reader();
                time(|| ids.iter().for_each(|id| drop(std::hint::black_box(reader.read_blob(*id)))))
            })
            .collect(),
    );
    println!(
        "{}: {} tasks ({} usable), {} unique source blobs, {:.1} MB",
        dataset.display(),
        records.len(),
        usable.len(),
        blobs.len(),
        bytes as f64 / 1e6
    );
    let pool = pool(threads);
    // The real batch pipeline, as `hintlens batch` runs it (fresh database each time).
    let mut locator = RepoLocator::new(None);
    for r in &usable {
        locator.add_override(&r.repo, repo_path.to_owned());
    }
    let options = BatchOptions {
        dataset: dataset.to_owned(),
        locator,
        selections: vec![Selection::DefUse],
        projections: vec![Projection::Declaration],
        jobs: threads,
        reference_from: ReferenceFrom::Patches,
        index: hintlens_batch::IndexMode::Demand,
        select: Default::default(),
        provider: None,
        skip: Default::default(),
        stop: None,
        shard: None,
        told: Vec::new(),
    };
    let run_all = || {
        time(|| {
            run_batch(&options, &mut std::io::sink(), &mut |_| {}).expect("the batch runs");
        })
    };
    let parse_all = || time(|| pool.install(|| blobs.par_iter().for_each(|(l, b)| bare_parse(&fronts, *l, b))));
    let (mut b, mut p) = (vec![], vec![]);
    for _ in 0..repeat {
        b.push(run_all());
        p.push(parse_all());
    }
    let (b, p) = (median(b), median(p));
    println!("batch of all tasks, {threads} threads:          {b:>8.1?}");
    println!("bare parse of the unique blobs, {threads} threads: {p:>8.1?}  {:.2} MB/s", mb_per_s(bytes, p));
    println!("reading the unique blobs from git, 1 thread: {read:>8.1?}  {:.2} MB/s", mb_per_s(bytes, read));
    println!("ratio  batch / bare parse of unique blobs:  {:.2}  (target <= 1.5)", b.as_secs_f64() / p.as_secs_f64());
    Ok(())
}

/// Reading datasets (file to task records), each against the first, in the same run.
fn read(datasets: &[PathBuf], repeat: usize) -> Result<(), String> {
    let mut baseline = None;
    println!("| dataset | bytes | records | median | records/s | MB/s (file) | time vs first |");
    println!("|---|---:|---:|---:|---:|---:|---:|");
    for path in datasets {
        let bytes = size_of(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let mut runs = Vec::with_capacity(repeat);
        let mut records = 0;
        for _ in 0..repeat.max(1) {
            let started = Instant::now();
            records = std::hint::black_box(read_dataset(path).map_err(|e| e.to_string())?).len();
            runs.push(started.elapsed());
        }
        let time = median(runs);
        let base = *baseline.get_or_insert(time);
        println!(
            "| {} | {bytes} | {records} | {:.1} ms | {:.0} | {:.1} | {:.2} |",
            path.display(),
            time.as_secs_f64() * 1e3,
            records as f64 / time.as_secs_f64(),
            bytes as f64 / 1e6 / time.as_secs_f64(),
            time.as_secs_f64() / base.as_secs_f64()
        );
    }
    Ok(())
}

/// A file's size, or the sum of a directory's files (Parquet shards).
fn size_of(path: &Path) -> std::io::Result<u64> {
    if !path.is_dir() {
        return Ok(std::fs::metadata(path)?.len());
    }
    let mut total = 0;
    for entry in std::fs::read_dir(path)? {
        total += size_of(&entry?.path())?;
    }
    Ok(total)
}
