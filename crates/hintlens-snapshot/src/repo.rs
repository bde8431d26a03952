use std::collections::HashMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use crate::git;

use gix::objs::tree::EntryKind;

use crate::ObjectId;
use crate::snapshot::{Entry, Mode, Snapshot};
use crate::stat::StatCache;

/// Something that can produce blob contents by id.
pub trait BlobSource {
    fn read_blob(&self, id: ObjectId) -> Result<Arc<[u8]>, Error>;
}

/// A [`BlobSource`] without any blobs, for snapshots built entirely in memory
/// ([`Snapshot::from_files`]), whose entries all carry their content.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoBlobs;

impl BlobSource for NoBlobs {
    fn read_blob(&self, id: ObjectId) -> Result<Arc<[u8]>, Error> {
        Err(Error::BlobNotFound { id, in_repository: false })
    }
}

/// Errors from reading repositories and snapshots.
#[derive(Debug)]
pub enum Error {
    Open {
        path: PathBuf,
        source: gix::Error,
    },
    CommitNotFound {
        rev: String,
        path: PathBuf,
        source: gix::Error,
    },
    ReadTree {
        commit: ObjectId,
        path: PathBuf,
        source: gix::Error,
    },
    ReadCommit {
        commit: ObjectId,
        path: PathBuf,
        source: gix::Error,
    },
    /// The object database lacks the blob (a partial clone's remote lacks it too).
    BlobNotFound {
        id: ObjectId,
        /// Whether a repository was asked (else the snapshot has none to read from).
        in_repository: bool,
    },
    /// The object database has the blob but cannot read it (a damaged pack).
    ReadBlob {
        id: ObjectId,
        path: PathBuf,
        source: gix::Error,
    },
    NoSuchFile {
        path: String,
    },
    /// The file's content is what a patch made of it, never computed: the patch was applied
    /// for a reader that said it would not read the file ([`crate::build_reference_reading`]).
    Unapplied,
    /// Objects a partial clone left out could not be fetched from its promisor remote.
    Fetch {
        path: PathBuf,
        remote: String,
        message: String,
    },
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Open { path, source } => write!(f, "cannot open git repository at {}: {source}", path.display()),
            Error::CommitNotFound { rev, path, source } => write!(
                f,
                "commit {rev} not found in {}: {source} (is the repository fetched up to that commit?)",
                path.display()
            ),
            Error::ReadTree { commit, path, source } => {
                write!(f, "cannot read the tree of commit {commit} in {}: {source}", path.display())
            }
            Error::ReadCommit { commit, path, source } => {
                write!(f, "cannot read commit {commit} in {}: {source}", path.display())
            }
            // No repository path: the same blob missing from two clones reads the same.
            Error::BlobNotFound { id, in_repository: true } => write!(f, "blob {id} is missing from the repository"),
            Error::BlobNotFound { id, in_repository: false } => {
                write!(f, "blob {id} not found (the snapshot has no repository to read it from)")
            }
            Error::ReadBlob { id, path, source } => write!(
                f,
                "cannot read blob {id} in {}: {source} (is the repository damaged? `git fsck` tells)",
                path.display()
            ),
            Error::NoSuchFile { path } => write!(f, "file {path} is not in the snapshot"),
            Error::Unapplied => f.write_str(
                "the file's content was not computed: its patch was applied for a reader that reads no such file (an internal error, please report it)",
            ),
            Error::Fetch { path, remote, message } => write!(
                f,
                "cannot fetch the objects the partial clone {} lacks from its promisor remote `{remote}`: {message}",
                path.display()
            ),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Open { source, .. }
            | Error::CommitNotFound { source, .. }
            | Error::ReadTree { source, .. }
            | Error::ReadCommit { source, .. }
            | Error::ReadBlob { source, .. } => Some(source),
            Error::BlobNotFound { .. } | Error::NoSuchFile { .. } | Error::Unapplied | Error::Fetch { .. } => None,
        }
    }
}

/// A git repository opened for reading objects only: snapshots never read the work tree or the
/// index, so a dirty checkout cannot leak into them ([`Repository::stat_cache`] only tells
/// which work tree files are unchanged).
#[derive(Clone)]
pub struct Repository {
    inner: gix::ThreadSafeRepository,
    path: PathBuf,
    /// What [`Repository::snapshot`] keeps from one call to the next, lent to one thread at a
    /// time: a batch's bases share most of their trees.
    trees: Arc<Mutex<Option<Trees>>>,
    /// Where a partial clone fetches the objects it left out, when it is one.
    promisor: Option<Arc<Promisor>>,
}

/// A partial clone's promisor remote (`git clone --filter=blob:none`): objects the clone left
/// out are fetched from it, as git itself does when a command needs them.
struct Promisor {
    remote: String,
    git_dir: PathBuf,
    /// One fetch at a time (tasks running in parallel want the same blobs), and what came of
    /// the fetches so far.
    state: Mutex<PromisorState>,
}

#[derive(Default)]
struct PromisorState {
    fetched: Fetched,
    /// Objects the remote said it does not have: never asked for again.
    absent: std::collections::HashSet<ObjectId>,
    /// Why the remote cannot be fetched from at all (unreachable, refusing): no fetch is tried
    /// again in this run, each read of a missing object says this.
    broken: Option<String>,
}

/// What a partial clone fetched from its promisor remote: how many `git fetch` processes ran
/// for how many objects, and how many of those fetched one object that a batch did not ask for
/// ahead ([`Repository::fetch_missing`]) but a read met.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Fetched {
    pub fetches: usize,
    pub objects: usize,
    pub single: usize,
    /// Objects the remote does not have either: they stay missing.
    pub absent: usize,
}

impl std::ops::AddAssign for Fetched {
    fn add_assign(&mut self, other: Fetched) {
        self.fetches += other.fetches;
        self.objects += other.objects;
        self.single += other.single;
        self.absent += other.absent;
    }
}

impl Promisor {
    /// The promisor remote of `repo`: `extensions.partialClone`, else the first remote with
    /// `promisor = true` (git's own lookup).
    fn of(repo: &gix::Repository) -> Option<Promisor> {
        let config = repo.config_snapshot();
        let named = config.string("extensions.partialClone").map(|name| name.to_string());
        let remote = named.or_else(|| {
            repo.remote_names()
                .into_iter()
                .map(|name| name.to_string())
                .find(|name| config.boolean(format!("remote.{name}.promisor").as_str()) == Some(true))
        })?;
        Some(Promisor { remote, git_dir: repo.git_dir().to_owned(), state: Mutex::default() })
    }

    /// Fetches the objects of `ids` that `repo` lacks, in one `git fetch`, the way git fetches
    /// a partial clone's missing objects (`promisor-remote.c`): by id, from the promisor remote,
    /// negotiating nothing. An object the remote does not have fails the whole fetch, naming it
    /// (`not our ref <id>`): it is set aside and the rest fetched again. Returns how many
    /// objects arrived; `single` marks a fetch nobody asked for ahead.
    fn fetch(&self, repo: &gix::Repository, ids: &[ObjectId], single: bool) -> Result<usize, Error> {
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        let broken = |message: &str| Error::Fetch {
            path: self.git_dir.clone(),
            remote: self.remote.clone(),
            message: message.to_owned(),
        };
        // Under the lock: another thread may have fetched them meanwhile.
        let mut missing: Vec<ObjectId> =
            ids.iter().copied().filter(|id| !state.absent.contains(id) && !repo.has_object(id)).collect();
        while !missing.is_empty() {
            if let Some(message) = &state.broken {
                return Err(broken(message));
            }
            let stdin: String = missing.iter().map(|id| format!("{id}\n")).collect();
            let result = git::Git::new(&self.git_dir)
                .args(["-c", "fetch.negotiationAlgorithm=noop", "fetch", &self.remote])
                .args([
                    "--no-tags",
                    "--no-write-fetch-head",
                    "--recurse-submodules=no",
                    "--filter=blob:none",
                    "--stdin",
                    // No repacking behind the back of readers: other shards may be reading
                    // the same clone's packs.
                    "--no-auto-gc",
                ])
                .stdin(stdin.into_bytes())
                .run();
            state.fetched.fetches += 1;
            if single {
                state.fetched.single += 1;
            }
            let message = match result {
                Ok(_) => {
                    state.fetched.objects += missing.len();
                    return Ok(missing.len());
                }
                Err(message) => message,
            };
            let named: Vec<ObjectId> = missing.iter().copied().filter(|id| message.contains(&id.to_string())).collect();
            if named.is_empty() {
                state.broken = Some(message.clone());
                return Err(broken(&message));
            }
            missing.retain(|id| !named.contains(id));
            state.fetched.absent += named.len();
            state.absent.extend(named);
        }
        Ok(0)
    }
}

/// A handle, and the directories the last snapshot read, each as its files with their full
/// paths: a later snapshot reads only the trees that changed, and shares the paths of the
/// others. Measured on jackson-databind's tasks (perf samples of `batch --jobs 1`), reading
/// snapshots took 14% of the batch with a fresh handle per snapshot and 8% this way; an object
/// cache on the handle as well saved about 1% more for several MB, and was left out.
struct Trees {
    repo: gix::Repository,
    /// By directory path and tree id.
    dirs: HashMap<(Arc<str>, ObjectId), Arc<[Item]>>,
}

/// A directory's entry, in git's order (which is path order).
enum Item {
    File(Arc<str>, Entry),
    Dir(Arc<[Item]>),
}

impl Trees {
    fn snapshot(&mut self, commit: ObjectId) -> Result<Snapshot, gix::Error> {
        let root = self.repo.find_commit(commit)?.tree_id()?.detach();
        let mut read = HashMap::new();
        let top = self.dir("", root, &mut read)?;
        // Only the directories of the latest snapshot are kept: the next base is its neighbour.
        self.dirs = read;
        let mut files = Vec::new();
        flatten(&top, &mut files);
        Ok(Snapshot::from_entries(files))
    }

    fn dir(
        &self,
        path: &str,
        id: ObjectId,
        read: &mut HashMap<(Arc<str>, ObjectId), Arc<[Item]>>,
    ) -> Result<Arc<[Item]>, gix::Error> {
        let key = (Arc::<str>::from(path), id);
        if let Some(items) = self.dirs.get(&key) {
            read.insert(key, items.clone());
            return Ok(items.clone());
        }
        let tree = self.repo.find_tree(id)?;
        let mut items = Vec::new();
        for entry in tree.iter() {
            let entry = entry?;
            // Lossy, like patch paths, so a non-UTF-8 path still matches the same patch path.
            let name = String::from_utf8_lossy(entry.filename());
            let full = if path.is_empty() { name.into_owned() } else { format!("{path}/{name}") };
            let mode = match entry.mode().kind() {
                EntryKind::Tree => {
                    items.push(Item::Dir(self.dir(&full, entry.object_id(), read)?));
                    continue;
                }
                EntryKind::Blob => Mode::File,
                EntryKind::BlobExecutable => Mode::Executable,
                EntryKind::Link => Mode::Symlink,
                EntryKind::Commit => continue,
            };
            items.push(Item::File(Arc::from(full), Entry::in_git(entry.object_id(), mode)));
        }
        let items: Arc<[Item]> = items.into();
        read.insert(key, items.clone());
        Ok(items)
    }
}

fn flatten(items: &[Item], out: &mut Vec<(Arc<str>, Entry)>) {
    for item in items {
        match item {
            Item::File(path, entry) => out.push((path.clone(), entry.clone())),
            Item::Dir(items) => flatten(items, out),
        }
    }
}

impl fmt::Debug for Repository {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Repository").field("path", &self.path).finish()
    }
}

impl Repository {
    /// Opens the repository at `path`: a bare repository, a `.git` directory, or a work tree
    /// containing `.git`. Parent directories are not searched.
    pub fn open(path: &Path) -> Result<Repository, Error> {
        // Isolated: only the repository's own config counts, so the results don't depend on
        // the user's global git config or on GIT_* environment variables.
        let inner = gix::ThreadSafeRepository::open_opts(path, gix::open::Options::isolated())
            .map_err(|source| Error::Open { path: path.to_owned(), source })?;
        let promisor = Promisor::of(&inner.to_thread_local()).map(Arc::new);
        Ok(Repository { inner, path: path.to_owned(), trees: Arc::default(), promisor })
    }

    /// Whether the repository is a partial clone, which fetches the objects it lacks from its
    /// promisor remote ([`Repository::fetch_missing`]; a [`Reader`] fetches one it meets).
    pub fn is_partial(&self) -> bool {
        self.promisor.is_some()
    }

    /// Fetches, in one `git fetch` from the promisor remote, the objects of `ids` a partial
    /// clone lacks; nothing for a repository that is no partial clone (a missing object is then
    /// missing). Returns how many objects were fetched. What a task will read is fetched this
    /// way before it reads: one process per task, not one per blob.
    pub fn fetch_missing(&self, ids: impl IntoIterator<Item = ObjectId>) -> Result<usize, Error> {
        let Some(promisor) = &self.promisor else { return Ok(0) };
        let repo = self.inner.to_thread_local();
        let mut seen = std::collections::HashSet::new();
        let missing: Vec<ObjectId> = ids.into_iter().filter(|id| seen.insert(*id) && !repo.has_object(id)).collect();
        if missing.is_empty() {
            return Ok(0);
        }
        promisor.fetch(&repo, &missing, false)
    }

    /// The name of the remote a partial clone fetches the objects it lacks from.
    pub fn promisor_remote(&self) -> Option<String> {
        self.promisor.as_ref().map(|p| p.remote.clone())
    }

    /// Whether a remote of that name is configured.
    pub fn has_remote(&self, name: &str) -> bool {
        self.inner.to_thread_local().remote_names().iter().any(|n| *n == name)
    }

    /// The git directory (the repository itself when bare, its `.git` otherwise).
    pub fn git_dir(&self) -> &Path {
        self.inner.git_dir()
    }

    /// What this repository (and every clone of its handle) fetched from its promisor remote.
    pub fn fetched(&self) -> Fetched {
        self.promisor.as_ref().map(|p| p.state.lock().unwrap_or_else(|e| e.into_inner()).fetched).unwrap_or_default()
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Resolves a full or abbreviated commit id, a ref name, or any revspec git understands
    /// (`HEAD`, `main~2`), peeling tags to the commit.
    pub fn resolve_commit(&self, rev: &str) -> Result<ObjectId, Error> {
        let repo = self.inner.to_thread_local();
        let not_found = |source| Error::CommitNotFound { rev: rev.to_owned(), path: self.path.clone(), source };
        let object = repo.rev_parse_single(rev).and_then(|id| id.object()).map_err(not_found)?;
        Ok(object.peel_to_commit().map_err(not_found)?.id)
    }

    /// All files of `commit`'s tree. Submodules (gitlinks) are skipped; symlinks are recorded
    /// with [`Mode::Symlink`] and their target as content.
    pub fn snapshot(&self, commit: ObjectId) -> Result<Snapshot, Error> {
        // What the last snapshot kept if no other thread has it (then it is put back after),
        // else a fresh start.
        let kept = self.trees.lock().unwrap_or_else(|e| e.into_inner()).take();
        let mut trees = kept.unwrap_or_else(|| Trees { repo: self.inner.to_thread_local(), dirs: HashMap::new() });
        let snapshot =
            trees.snapshot(commit).map_err(|source| Error::ReadTree { commit, path: self.path.clone(), source });
        self.trees.lock().unwrap_or_else(|e| e.into_inner()).get_or_insert(trees);
        snapshot
    }

    /// When `commit` was committed, in seconds since the Unix epoch (what orders a batch's
    /// tasks by their bases' age).
    pub fn commit_time(&self, commit: ObjectId) -> Result<i64, Error> {
        let repo = self.inner.to_thread_local();
        let read_error = |source| Error::ReadCommit { commit, path: self.path.clone(), source };
        let time = repo.find_commit(commit).map_err(read_error)?.time().map_err(read_error)?;
        Ok(time.seconds)
    }

    /// What git's index records of the work tree's files ([`StatCache`]); `None` for a bare
    /// repository, or one without a readable index.
    pub fn stat_cache(&self) -> Option<StatCache> {
        let repo = self.inner.to_thread_local();
        repo.workdir()?;
        StatCache::read(&repo.index_path(), repo.object_hash())
    }

    /// A handle for reading blobs, meant to be created once per worker thread.
    pub fn reader(&self) -> Reader {
        Reader { repo: self.inner.to_thread_local(), path: self.path.clone(), promisor: self.promisor.clone() }
    }
}

/// A single-threaded [`BlobSource`] reading from a [`Repository`]'s object database.
pub struct Reader {
    repo: gix::Repository,
    path: PathBuf,
    promisor: Option<Arc<Promisor>>,
}

impl BlobSource for Reader {
    fn read_blob(&self, id: ObjectId) -> Result<Arc<[u8]>, Error> {
        let error = match self.repo.find_blob(id) {
            Ok(blob) => return Ok(Arc::from(&*blob.data)),
            Err(error) => error,
        };
        // There, but unreadable: a damaged pack, which no fetch mends.
        if self.repo.has_object(id) {
            return Err(Error::ReadBlob { id, path: self.path.clone(), source: error });
        }
        // A partial clone's blob nobody fetched ahead: fetched alone, as git would.
        if let Some(promisor) = &self.promisor
            && promisor.fetch(&self.repo, &[id], true)? > 0
        {
            let blob =
                self.repo.find_blob(id).map_err(|source| Error::ReadBlob { id, path: self.path.clone(), source })?;
            return Ok(Arc::from(&*blob.data));
        }
        Err(Error::BlobNotFound { id, in_repository: true })
    }
}
