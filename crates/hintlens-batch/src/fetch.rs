//! `hintlens fetch`: bringing the repositories a dataset names into the `--repos` layout, as
//! blobless partial clones (`git clone --bare --filter=blob:none`), and the commits its tasks
//! name into the repositories already there. The batch then fetches the blobs a repository's
//! tasks read from the clone's promisor remote, in one `git fetch` before its first task.

use crate::dataset::{RecordError, TaskRecord};
use crate::repos::RepoLocator;
use hintlens_snapshot::Repository;
use hintlens_snapshot::git::Git;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// Where a repository is cloned from when no `--from` is given.
pub const DEFAULT_SOURCE: &str = "https://github.com/{owner}/{name}.git";

/// One repository of a dataset: its `owner/name` as the dataset spells it, and every commit its
/// tasks name (bases and reference commits).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Wanted {
    pub repo: String,
    pub commits: BTreeSet<String>,
}

/// The repositories of `records`, in the order they first appear, each with its commits.
/// Records no task could be made of are left out (the batch reports them).
pub fn wanted(records: &[Result<TaskRecord, RecordError>]) -> Vec<Wanted> {
    let mut wanted: Vec<Wanted> = Vec::new();
    for record in records.iter().flatten() {
        let index = match wanted.iter().position(|w| w.repo.eq_ignore_ascii_case(&record.repo)) {
            Some(index) => index,
            None => {
                wanted.push(Wanted { repo: record.repo.clone(), commits: BTreeSet::new() });
                wanted.len() - 1
            }
        };
        let commits = &mut wanted[index].commits;
        commits.insert(record.base_commit.clone());
        commits.extend(record.reference_commit.clone());
    }
    wanted
}

/// What was done for one repository.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// It was there with every commit: nothing was run.
    Complete,
    /// It was cloned; `commits` more were fetched by id (not on any branch or tag).
    Cloned { commits: usize },
    /// It was there; `commits` were fetched into it.
    Updated { commits: usize },
    /// It could not be brought, or lacks commits still: why.
    Failed(String),
}

/// A repository's outcome and where it is.
#[derive(Debug, Clone)]
pub struct Brought {
    pub repo: String,
    pub path: PathBuf,
    pub outcome: Outcome,
}

/// What `fetch` tells as it goes.
pub enum FetchEvent<'a> {
    /// Work on a repository starts: `action` is what will be run (`cloning URL`).
    Started {
        index: usize,
        total: usize,
        repo: &'a str,
        action: String,
    },
    Finished {
        index: usize,
        total: usize,
        brought: &'a Brought,
    },
}

/// How `fetch` runs git.
pub struct FetchOptions {
    /// The `--repos` directory: a new repository goes to `DIR/owner__name.git`.
    pub dir: PathBuf,
    /// The source URL, `{owner}` and `{name}` replaced ([`DEFAULT_SOURCE`]).
    pub source: String,
    /// Let git show its progress on this process's standard error (a terminal).
    pub progress: bool,
}

/// The source of `repo` by `template`.
pub fn source_url(template: &str, repo: &str) -> Result<String, String> {
    let Some((owner, name)) = repo.split_once('/').filter(|(o, n)| !o.is_empty() && !n.is_empty()) else {
        return Err(format!("the dataset names the repository `{repo}`, not `owner/name`: no source URL can be made"));
    };
    Ok(template.replace("{owner}", owner).replace("{name}", name))
}

/// Brings every repository of `wanted` with the commits it names: clones the missing ones
/// (blobless, bare), fetches missing commits into the others. Idempotent: a repository with
/// every commit is not touched. One repository's failure does not stop the others.
pub fn fetch(wanted: &[Wanted], options: &FetchOptions, on_event: &mut dyn FnMut(FetchEvent<'_>)) -> Vec<Brought> {
    let locator = RepoLocator::new(Some(options.dir.clone()));
    let total = wanted.len();
    let mut brought = Vec::with_capacity(total);
    for (index, want) in wanted.iter().enumerate() {
        let found = locator.locate(&want.repo).ok();
        let path = found.clone().unwrap_or_else(|| options.dir.join(format!("{}.git", want.repo.replace('/', "__"))));
        let action = match &found {
            Some(path) => format!("checking {}", path.display()),
            None => match source_url(&options.source, &want.repo) {
                Ok(url) => format!("cloning {url} into {}", path.display()),
                Err(_) => "naming its source".to_owned(),
            },
        };
        on_event(FetchEvent::Started { index, total, repo: &want.repo, action });
        let outcome = match found {
            Some(path) => update(&path, want, options),
            None => clone(&path, want, options),
        }
        .unwrap_or_else(Outcome::Failed);
        brought.push(Brought { repo: want.repo.clone(), path, outcome });
        on_event(FetchEvent::Finished { index, total, brought: brought.last().expect("pushed") });
    }
    brought
}

/// The commits of `want` that `repository` lacks.
fn missing_commits(repository: &Repository, want: &Wanted) -> Vec<String> {
    want.commits.iter().filter(|c| repository.resolve_commit(c).is_err()).cloned().collect()
}

fn clone(path: &Path, want: &Wanted, options: &FetchOptions) -> Result<Outcome, String> {
    let url = source_url(&options.source, &want.repo)?;
    std::fs::create_dir_all(&options.dir).map_err(|e| format!("cannot create {}: {e}", options.dir.display()))?;
    // Cloned beside its place and moved there whole: an interrupted clone never passes for a
    // repository.
    let partial = path.with_extension("git.partial");
    let _ = std::fs::remove_dir_all(&partial);
    let mut git = Git::bare().args(["clone", "--bare", "--filter=blob:none"]);
    git = if options.progress { git.arg("--progress").inherit_stderr() } else { git.arg("--quiet") };
    let cloned = git.arg(&url).arg(&partial).run();
    if let Err(message) = cloned {
        let _ = std::fs::remove_dir_all(&partial);
        return Err(message);
    }
    std::fs::rename(&partial, path).map_err(|e| format!("cannot move the clone to {}: {e}", path.display()))?;
    let commits = fetch_commits(path, want, options)?;
    Ok(Outcome::Cloned { commits })
}

fn update(path: &Path, want: &Wanted, options: &FetchOptions) -> Result<Outcome, String> {
    match fetch_commits(path, want, options)? {
        0 => Ok(Outcome::Complete),
        commits => Ok(Outcome::Updated { commits }),
    }
}

/// Fetches by id the commits of `want` the repository lacks (a pull request's base is often on
/// no branch), each kept by a ref `refs/hintlens/<id>` so that no `git gc` prunes it. A partial
/// clone fetches them without blobs (its promisor remote's filter); a shallow one only them.
/// Returns how many were fetched (none run for a repository that has them all); a commit still
/// missing after is an error naming it.
fn fetch_commits(path: &Path, want: &Wanted, options: &FetchOptions) -> Result<usize, String> {
    let repository = Repository::open(path).map_err(|e| e.to_string())?;
    let missing = missing_commits(&repository, want);
    if missing.is_empty() {
        return Ok(0);
    }
    let abbreviated: Vec<&String> = missing.iter().filter(|c| c.len() != 40).collect();
    if !abbreviated.is_empty() {
        let names: Vec<&str> = abbreviated.iter().map(|c| c.as_str()).collect();
        return Err(format!("cannot fetch commits named by an abbreviated id or a ref name: {}", names.join(", ")));
    }
    let git_dir = repository.git_dir().to_owned();
    let remote = match repository.promisor_remote().or_else(|| repository.has_remote("origin").then(|| "origin".into()))
    {
        Some(remote) => remote,
        None => source_url(&options.source, &want.repo)?,
    };
    let mut git = Git::new(&git_dir).args(["fetch", "--no-tags", "--no-write-fetch-head"]);
    if repository.is_partial() {
        git = git.arg("--filter=blob:none");
    }
    if git_dir.join("shallow").exists() {
        git = git.arg("--depth=1");
    }
    git = if options.progress { git.arg("--progress").inherit_stderr() } else { git.arg("--quiet") };
    git.arg(&remote).args(missing.iter().map(|c| format!("{c}:refs/hintlens/{c}"))).run()?;
    // Opened again: the fetched pack is new to the handle above.
    let still = missing_commits(&Repository::open(path).map_err(|e| e.to_string())?, want);
    if !still.is_empty() {
        return Err(format!("{} still lacks {} after fetching from {remote}", path.display(), still.join(", ")));
    }
    Ok(missing.len())
}
