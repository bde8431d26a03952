//! `hintlens-bench demand`: the batch on demand against the two figures issue 14 names, measured
//! in the same run, every side on one thread:
//!
//! - the baseline: a per-task pipeline of FEA-Bench's and NoCode-bench's shape (check the base
//!   out, `git apply` both patches, parse the touched files with Python's `ast`), written in
//!   `baselines/ast_pipeline.py`; or, for languages `ast` cannot read, Universal Ctags over
//!   each task's changed files at B and at R (`baselines/ctags_pipeline.py`);
//! - the limit: reading the unique blobs the tasks touch from git — the files they change (at
//!   B and R) and every source file of their bases, which exact repository-wide name facts
//!   (`base_occurrences`) must look at — and bare-parsing the changed files with tree-sitter:
//!   what any exact answer must cost, however it scans the bases. The narrower figure without
//!   the bases' blobs is printed too.
//!
//! Then the batch's peak memory for the first 10, 40 and all tasks, each in its own process, with
//! its own (anonymous) part apart from the git pack pages it maps, and the own memory of the
//! largest task run alone.

use hintlens_batch::{BatchOptions, IndexMode, ReferenceFrom, RepoLocator, TaskRecord, read_dataset, run_batch};
use hintlens_hints::Selection;
use hintlens_projection::Projection;
use hintlens_snapshot::{BlobSource, ObjectId};
use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use crate::{Blob, bare_parse, frontends, median, time};

/// The per-task pipeline the batch is timed against.
#[derive(Clone, Copy, Debug, clap::ValueEnum)]
pub enum Baseline {
    /// Check out, `git apply`, Python's `ast` over the touched files.
    Ast,
    /// Universal Ctags over the changed files at B and at R.
    Ctags,
}

impl Baseline {
    fn script(self) -> &'static str {
        match self {
            Baseline::Ast => "baselines/ast_pipeline.py",
            Baseline::Ctags => "baselines/ctags_pipeline.py",
        }
    }

    fn describe(self) -> &'static str {
        match self {
            Baseline::Ast => "ast pipeline (checkout, git apply, ast.parse), 1 process:     ",
            Baseline::Ctags => "ctags pipeline (changed files at B and R), 1 process:         ",
        }
    }

    fn target(self) -> &'static str {
        match self {
            Baseline::Ast => ">= 10",
            Baseline::Ctags => ">= 3",
        }
    }
}

/// What one dataset's run ends with, for the table [`demand_all`] prints.
struct Summary {
    dataset: String,
    tasks: usize,
    baseline: Option<Ratio>,
    limit: Ratio,
    peak: f64,
}

/// [`demand`] of each dataset, its repository `repo` (one dataset) or found under `repos` by
/// the name its tasks give; then, for several, their ratios side by side.
pub fn demand_all(
    datasets: &[PathBuf],
    repo: Option<&Path>,
    repos: Option<PathBuf>,
    repeat: usize,
    with_full: bool,
    baseline: Option<Baseline>,
) -> Result<(), String> {
    if repo.is_some() && datasets.len() > 1 {
        return Err(format!(
            "--repo gives the repository of one dataset, and {} are given: use --repos DIR",
            datasets.len()
        ));
    }
    let locator = RepoLocator::new(repos);
    let mut summaries = Vec::new();
    for (i, dataset) in datasets.iter().enumerate() {
        if i > 0 {
            println!();
        }
        let repo_path = match repo {
            Some(path) => path.to_owned(),
            None => repository_of(dataset, &locator)?,
        };
        summaries.push(demand(dataset, &repo_path, repeat, with_full, baseline)?);
    }
    if summaries.len() > 1 {
        let name = baseline.map_or("baseline".to_owned(), |b| format!("{b:?}").to_lowercase());
        println!("\nmedian ratios (min-max of {repeat}), each within one repetition:");
        println!(
            "{:<40} {:>5}  {:<22} {:<22} {:>8}",
            "dataset",
            "tasks",
            format!("{name} / batch"),
            "batch / limit",
            "peak MB"
        );
        for s in &summaries {
            let baseline = s.baseline.as_ref().map_or("-".to_owned(), Ratio::to_string);
            println!("{:<40} {:>5}  {baseline:<22} {:<22} {:>8.1}", s.dataset, s.tasks, s.limit.to_string(), s.peak);
        }
    }
    Ok(())
}

/// The one repository a dataset's tasks name, found by `locator`.
fn repository_of(dataset: &Path, locator: &RepoLocator) -> Result<PathBuf, String> {
    let records = read_dataset(dataset).map_err(|e| format!("{}: {e}", dataset.display()))?;
    let names: std::collections::BTreeSet<String> =
        records.into_iter().filter_map(Result::ok).map(|r| r.repo).collect();
    match names.len() {
        1 => locator.locate(names.first().expect("one")),
        0 => Err(format!("{}: no task names its repository", dataset.display())),
        n => Err(format!(
            "{}: its tasks name {n} repositories ({}); demand times one repository per dataset",
            dataset.display(),
            names.into_iter().collect::<Vec<_>>().join(", ")
        )),
    }
}

fn demand(
    dataset: &Path,
    repo_path: &Path,
    repeat: usize,
    with_full: bool,
    baseline_pipeline: Option<Baseline>,
) -> Result<Summary, String> {
    let (repo, records) = crate::open_dataset(dataset, repo_path)?;
    let fronts = frontends();
    let all = hintlens_db::Database::new(frontends());
    let reader = repo.reader();

    // The limit's input: the changed files' blobs at B and R, unique over all tasks.
    let mut changed: HashMap<ObjectId, usize> = HashMap::new();
    // Every claimed blob of every base: what an exact repository-wide fact (`base_occurrences`)
    // must look at once, whoever computes it.
    let mut base_blobs: HashMap<ObjectId, usize> = HashMap::new();
    let mut usable = Vec::new();
    for r in &records {
        let Some((base, reference)) = crate::patched(&repo, &reader, r)? else { continue };
        let holdings = all.holdings(&base);
        for (path, entry) in base.iter() {
            if let Some(language) = crate::reader_of(&all, &holdings, &fronts, path) {
                base_blobs.entry(entry.id).or_insert(language);
            }
        }
        let reference_holdings = all.holdings(&reference.snapshot);
        for (path, change) in reference.code.files.iter().chain(&reference.test.files) {
            let Some(language) = crate::reader_of(&all, &reference_holdings, &fronts, path) else { continue };
            let before = change.old_path.as_deref().unwrap_or(path);
            for entry in [base.get(before), reference.snapshot.get(path)].into_iter().flatten() {
                // Blobs a patch produced are not in git: the limit parses them from memory.
                changed.entry(entry.id).or_insert(language);
            }
        }
        usable.push(r.clone());
    }
    if usable.is_empty() {
        return Err(format!(
            "{}: no task can be timed (each needs its base commit in {}, a code patch, and patches that apply)",
            dataset.display(),
            repo_path.display()
        ));
    }
    let in_git: Vec<(ObjectId, usize)> =
        changed.iter().filter(|(id, _)| reader.read_blob(**id).is_ok()).map(|(id, l)| (*id, *l)).collect();
    let parse_changed = || {
        time(|| {
            let reader = repo.reader();
            for (id, language) in &in_git {
                let blob: Blob = (*language, reader.read_blob(*id).expect("read before"));
                bare_parse(&fronts, blob.0, &blob.1);
            }
        })
    };
    // The base blobs no task changes: read, not parsed.
    let unchanged: Vec<ObjectId> = base_blobs.keys().filter(|&id| !changed.contains_key(id)).copied().collect();
    let read_bases = || {
        time(|| {
            let reader = repo.reader();
            for id in &unchanged {
                if let Ok(text) = reader.read_blob(*id) {
                    std::hint::black_box(text.len());
                }
            }
        })
    };

    let words = || {
        time(|| {
            let reader = repo.reader();
            for (id, language) in &base_blobs {
                if let Ok(text) = reader.read_blob(*id) {
                    std::hint::black_box(hintlens_db::Words::of(&text, fronts[*language].lexical()));
                }
            }
        })
    };

    // The dataset as the baseline script reads it (plain field names), and the repository's git
    // directory.
    let dir = tempdir()?;
    let plain = dir.join("tasks.jsonl");
    write_plain(&plain, &usable)?;
    let git_dir = git_dir(repo_path)?;
    let pipeline = baseline_pipeline.unwrap_or(Baseline::Ast);
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join(pipeline.script());
    let baseline = || -> Result<Duration, String> {
        let mut out = None;
        let t = time(|| {
            out = Some(Command::new("python3").arg(&script).arg(&plain).arg(&git_dir).output());
        });
        match out.expect("ran") {
            Ok(o) if o.status.success() => Ok(t),
            Ok(o) => Err(format!("{} failed: {}", script.display(), String::from_utf8_lossy(&o.stderr))),
            Err(e) => Err(format!("cannot run python3 {}: {e}", script.display())),
        }
    };

    let mut locator = RepoLocator::new(None);
    for r in &usable {
        locator.add_override(&r.repo, repo_path.to_owned());
    }
    let options = |index| BatchOptions {
        dataset: plain.clone(),
        locator: locator.clone(),
        selections: vec![Selection::DefUse],
        projections: vec![Projection::Declaration],
        jobs: 1,
        reference_from: ReferenceFrom::Patches,
        index,
        select: Default::default(),
        provider: None,
        skip: Default::default(),
        stop: None,
        shard: None,
        told: Vec::new(),
    };
    let run = |index| {
        let options = options(index);
        time(|| {
            run_batch(&options, &mut std::io::sink(), &mut |_| {}).expect("the batch runs");
        })
    };

    println!(
        "{}: {} tasks ({} usable); the changed files are {} unique blobs ({} in git)",
        dataset.display(),
        records.len(),
        usable.len(),
        changed.len(),
        in_git.len()
    );
    let (mut a, mut p, mut r, mut w, mut d, mut f) = (vec![], vec![], vec![], vec![], vec![], vec![]);
    for _ in 0..repeat {
        if baseline_pipeline.is_some() {
            a.push(baseline()?);
        }
        p.push(parse_changed());
        r.push(read_bases());
        w.push(words());
        d.push(run(IndexMode::Demand));
        if with_full {
            f.push(run(IndexMode::Full));
        }
    }
    // Each ratio is taken within one repetition, whose measurements ran back to back, and the
    // median of those is printed with its spread: the machine's speed drifts between
    // repetitions, and a ratio of medians from different repetitions would carry that drift.
    let paired = |num: &[Duration], den: &dyn Fn(usize) -> Duration| -> Ratio {
        Ratio::of(num.iter().enumerate().map(|(i, n)| n.as_secs_f64() / den(i).as_secs_f64()).collect())
    };
    let ast_ratio = (!a.is_empty()).then(|| paired(&a, &|i| d[i]));
    let limit_ratio = paired(&d, &|i| p[i] + r[i]);
    let changed_ratio = paired(&d, &|i| p[i]);
    let a = (!a.is_empty()).then(|| median(a));
    let (p, r, w, d) = (median(p), median(r), median(w), median(d));
    let limit = p + r;
    if let Some(a) = a {
        println!("{} {a:>8.1?}", pipeline.describe());
    }
    println!("read + bare-parse the {:>4} changed blobs, 1 thread:           {p:>8.1?}", in_git.len());
    println!("read the {:>5} other base blobs, 1 thread:                    {r:>8.1?}", unchanged.len());
    println!("limit (the two above):                                         {limit:>8.1?}");
    println!("words (read + lex every base blob, {:>5} blobs), 1 thread:     {w:>8.1?}", base_blobs.len());
    println!("hintlens batch --index demand --jobs 1:                        {d:>8.1?}");
    if with_full {
        println!("hintlens batch --index full --jobs 1:                          {:>8.1?}", median(f));
    }
    println!("ratios, each within one repetition: median (min-max of {repeat})");
    if let Some(ratio) = &ast_ratio {
        let name = format!("{pipeline:?}").to_lowercase();
        println!("ratio  {name} pipeline / batch: {ratio}  (target {})", pipeline.target());
    }
    println!("ratio  batch / limit:          {limit_ratio}  (target <= 1.3)");
    println!("ratio  batch / changed blobs:  {changed_ratio}  (the limit without the bases' blobs)");

    // Peak memory, each size in a fresh process. The peak resident set counts the pages of the
    // repository's pack files that git maps and the batch touches: shared, reclaimable page
    // cache that grows with the distinct objects read, up to the packs' size. What the batch
    // itself keeps is its anonymous memory, sampled apart; that is the figure that must follow
    // the largest task, so the largest task alone is run too.
    let exe = hintlens_exe()?;
    let batch = |records: &[TaskRecord], name: &str| -> Result<Memory, String> {
        let part = dir.join(name);
        write_plain(&part, records)?;
        let mut child = Command::new(&exe);
        child.arg("batch").arg(&part).args(["--jobs", "1", "--index", "demand", "--out"]).arg(dir.join("out.jsonl"));
        child.arg("--repo").arg(format!("{}={}", records[0].repo, repo_path.display()));
        sample_memory(child, &dir.join("stderr.txt"))
    };
    let mut sizes: Vec<usize> = [10, 40].into_iter().filter(|&n| n < usable.len()).collect();
    sizes.push(usable.len());
    let mut peak = 0.0;
    for n in sizes {
        let m = batch(&usable[..n], &format!("first-{n}.jsonl"))?;
        peak = mb(m.peak);
        println!(
            "peak memory, {n:>3} tasks:  {:>6.1} MB  (target <= 150); own (anonymous) {:>5.1} MB, mapped git packs {:>5.1} MB",
            mb(m.peak),
            mb(m.anonymous),
            mb(m.file)
        );
    }
    let mut largest: Option<(Memory, &str)> = None;
    for (i, r) in usable.iter().enumerate() {
        let m = batch(std::slice::from_ref(r), &format!("task-{i}.jsonl"))?;
        if largest.as_ref().is_none_or(|(l, _)| m.anonymous > l.anonymous) {
            largest = Some((m, &r.instance_id));
        }
    }
    if let Some((m, id)) = largest {
        println!("own memory of the largest task alone: {:>5.1} MB  ({id})", mb(m.anonymous));
    }
    let _ = std::fs::remove_dir_all(&dir);
    let name = dataset.file_name().map_or_else(|| dataset.display().to_string(), |n| n.to_string_lossy().into_owned());
    Ok(Summary { dataset: name, tasks: usable.len(), baseline: ast_ratio, limit: limit_ratio, peak })
}

/// Ratios of paired measurements: their median and spread.
struct Ratio {
    median: f64,
    min: f64,
    max: f64,
}

impl Ratio {
    fn of(mut ratios: Vec<f64>) -> Ratio {
        ratios.sort_by(f64::total_cmp);
        Ratio { median: ratios[ratios.len() / 2], min: ratios[0], max: ratios[ratios.len() - 1] }
    }
}

impl std::fmt::Display for Ratio {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:.2} ({:.2}-{:.2})", self.median, self.min, self.max)
    }
}

/// A process's memory: its peak resident set as it reports it, and the most anonymous and
/// file-backed resident memory seen while sampling it.
struct Memory {
    peak: u64,
    anonymous: u64,
    file: u64,
}

fn mb(bytes: u64) -> f64 {
    bytes as f64 / 1e6
}

/// Runs `hintlens batch`, sampling its `/proc/PID/status` every 2 ms, and returns its memory:
/// the peak from its summary line (its own `VmHWM`: a child's `ru_maxrss` would count the pages
/// it shared with this process before `exec`), and the sampled maxima of `RssAnon` and
/// `RssFile` (a peak shorter than the interval can be missed).
fn sample_memory(mut command: Command, stderr: &Path) -> Result<Memory, String> {
    let log = std::fs::File::create(stderr).map_err(|e| format!("{}: {e}", stderr.display()))?;
    let mut child = command
        .stdout(std::process::Stdio::null())
        .stderr(log)
        .spawn()
        .map_err(|e| format!("cannot run hintlens: {e}"))?;
    let status_path = format!("/proc/{}/status", child.id());
    let (mut anonymous, mut file) = (0u64, 0u64);
    let status = loop {
        if let Ok(status) = std::fs::read_to_string(&status_path) {
            let kb = |key: &str| -> u64 {
                status
                    .lines()
                    .find_map(|l| l.strip_prefix(key))
                    .and_then(|rest| rest.split_whitespace().next()?.parse().ok())
                    .unwrap_or(0)
            };
            anonymous = anonymous.max(kb("RssAnon:") * 1024);
            file = file.max(kb("RssFile:") * 1024);
        }
        if let Some(status) = child.try_wait().map_err(|e| e.to_string())? {
            break status;
        }
        std::thread::sleep(Duration::from_millis(2));
    };
    let stderr = std::fs::read_to_string(stderr).unwrap_or_default();
    if !status.success() {
        return Err(format!("hintlens batch failed: {stderr}"));
    }
    let peak = stderr
        .rsplit_once("peak memory ")
        .and_then(|(_, rest)| rest.split_whitespace().next()?.parse::<u64>().ok())
        .ok_or_else(|| format!("hintlens reported no peak memory (not Linux?): {stderr}"))?;
    Ok(Memory { peak: peak * 1_000_000, anonymous, file })
}

fn write_plain(path: &Path, records: &[TaskRecord]) -> Result<(), String> {
    let mut out = std::fs::File::create(path).map_err(|e| format!("{}: {e}", path.display()))?;
    for r in records {
        let line = serde_json::json!({
            "instance_id": r.instance_id,
            "repo": r.repo,
            "base_commit": r.base_commit,
            "patch": r.patch,
            "test_patch": r.test_patch,
            "problem_statement": r.problem_statement,
        });
        writeln!(out, "{line}").map_err(|e| e.to_string())?;
    }
    Ok(())
}

fn tempdir() -> Result<PathBuf, String> {
    let dir = std::env::temp_dir().join(format!("hintlens-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    Ok(dir)
}

/// The git directory of a repository path, bare or not.
fn git_dir(repo: &Path) -> Result<PathBuf, String> {
    let out = Command::new("git")
        .arg("-C")
        .arg(repo)
        .args(["rev-parse", "--absolute-git-dir"])
        .output()
        .map_err(|e| format!("cannot run git: {e}"))?;
    if !out.status.success() {
        return Err(format!("{} is no git repository", repo.display()));
    }
    Ok(PathBuf::from(String::from_utf8_lossy(&out.stdout).trim()))
}

/// The `hintlens` binary built beside this one.
pub(crate) fn hintlens_exe() -> Result<PathBuf, String> {
    let me = std::env::current_exe().map_err(|e| e.to_string())?;
    let exe = me.with_file_name(format!("hintlens{}", std::env::consts::EXE_SUFFIX));
    if exe.exists() {
        Ok(exe)
    } else {
        Err(format!("{} is missing: build it with `cargo build --release -p hintlens-cli`", exe.display()))
    }
}
