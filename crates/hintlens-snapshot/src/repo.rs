use std::collections::HashMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

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
        Err(Error::BlobNotFound { id, path: None, source: None })
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
    BlobNotFound {
        id: ObjectId,
        /// The repository that was asked, if any.
        path: Option<PathBuf>,
        source: Option<gix::Error>,
    },
    NoSuchFile {
        path: String,
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
            Error::BlobNotFound { id, path, source } => {
                write!(f, "blob {id} not found")?;
                match path {
                    Some(path) => write!(f, " in {}", path.display())?,
                    None => write!(f, " (the snapshot has no repository to read it from)")?,
                }
                match source {
                    Some(source) => write!(f, ": {source}"),
                    None => Ok(()),
                }
            }
            Error::NoSuchFile { path } => write!(f, "file {path} is not in the snapshot"),
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
            | Error::BlobNotFound { source: Some(source), .. } => Some(source),
            Error::BlobNotFound { source: None, .. } | Error::NoSuchFile { .. } => None,
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
        Ok(Repository { inner, path: path.to_owned(), trees: Arc::default() })
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
        Reader { repo: self.inner.to_thread_local(), path: self.path.clone() }
    }
}

/// A single-threaded [`BlobSource`] reading from a [`Repository`]'s object database.
pub struct Reader {
    repo: gix::Repository,
    path: PathBuf,
}

impl BlobSource for Reader {
    fn read_blob(&self, id: ObjectId) -> Result<Arc<[u8]>, Error> {
        let not_found = |source| Error::BlobNotFound { id, path: Some(self.path.clone()), source: Some(source) };
        let blob = self.repo.find_blob(id).map_err(not_found)?;
        Ok(Arc::from(&*blob.data))
    }
}
