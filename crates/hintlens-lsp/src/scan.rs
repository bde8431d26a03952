//! Which files of the work tree belong to the reference: everything git would not ignore,
//! below the root, outside `.git`.

use ignore::{IncrementalIgnore, WalkBuilder, WalkState};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The same rules for the initial walk and for files created later.
fn builder(root: &Path) -> WalkBuilder {
    let mut builder = WalkBuilder::new(root);
    // Dot files are tracked like any other (`.github/scripts/x.py`); ignore files above the
    // repository root do not apply to it, as in git.
    builder.hidden(false).parents(false).follow_links(false);
    builder
}

/// Threads reading directories: the walk waits on the disk more than on a core (a cold page
/// cache), so more requests in flight than cores pay.
const WALK_THREADS: usize = 8;

/// Every regular file of the work tree that git would not ignore, in path order. A directory
/// that cannot be read fails the walk: its files would pass for deleted. (A file that vanished
/// meanwhile is simply not there.)
pub(crate) fn walk(root: &Path) -> Result<Vec<PathBuf>, String> {
    let files = Mutex::new(Vec::new());
    let failure = Mutex::new(None);
    builder(root).threads(WALK_THREADS).filter_entry(|entry| entry.file_name() != ".git").build_parallel().run(|| {
        let (files, failure) = (&files, &failure);
        Box::new(move |entry| match entry {
            Ok(entry) => {
                if entry.file_type().is_some_and(|t| t.is_file()) {
                    files.lock().unwrap_or_else(|e| e.into_inner()).push(entry.into_path());
                }
                WalkState::Continue
            }
            Err(e) if e.io_error().is_some_and(|io| io.kind() != std::io::ErrorKind::NotFound) => {
                failure.lock().unwrap_or_else(|e| e.into_inner()).get_or_insert_with(|| e.to_string());
                WalkState::Quit
            }
            // An ignore file's bad pattern: git skips it too.
            Err(_) => WalkState::Continue,
        })
    });
    if let Some(e) = failure.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return Err(format!("cannot read the work tree: {e}"));
    }
    let mut files = files.into_inner().unwrap_or_else(|e| e.into_inner());
    files.sort_unstable();
    Ok(files)
}

/// Decides about single paths the way [`walk`] does, for files that appear later.
pub(crate) struct Ignores {
    root: PathBuf,
    matcher: IncrementalIgnore,
}

impl Ignores {
    pub(crate) fn new(root: &Path) -> Ignores {
        let matcher = builder(root).build_matchers().pop().expect("one matcher per root");
        Ignores { root: root.to_owned(), matcher }
    }

    /// Whether the repository path `path` is outside the reference (ignored, or git's own).
    pub(crate) fn is_ignored(&mut self, path: &str) -> bool {
        path == ".git" || path.starts_with(".git/") || self.matcher.matched(path, false).is_ignore()
    }

    /// Forgets the ignore files read so far; called when one of them changes.
    pub(crate) fn reload(&mut self) {
        *self = Ignores::new(&self.root);
    }
}
