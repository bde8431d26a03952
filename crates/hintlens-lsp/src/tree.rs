//! The reference side: the work tree's source files with open buffers overlaid, as database
//! inputs, and how each differs from the base.
//!
//! A file as it was read from disk is a content-keyed input ([`Database::intern_file`]), so a
//! file unchanged since the base is the base's own input and is never parsed twice. The first
//! edit of a file gives it a path-keyed input; later edits set that input's text, so salsa
//! re-indexes that one file and nothing else.

use crate::world::Base;
use hintlens_db::{Database, SnapshotIndex, SourceFile};
use hintlens_snapshot::{ChangeSet, FileChange, FileStatus, ObjectId, TestPaths, added_lines, blob_id};
use salsa::{Database as _, Setter};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

/// A work tree file as the indexer read it.
pub(crate) struct ScannedFile {
    pub path: String,
    pub input: SourceFile,
    pub id: ObjectId,
}

struct TreeFile {
    input: SourceFile,
    /// The blob id of the current text, to compare with the base's without reading it.
    id: ObjectId,
    /// Whether `input` is content-keyed (shared with every path and snapshot holding the same
    /// text), so that an edit must replace it rather than set its text.
    shared: bool,
}

pub(crate) struct Tree {
    base: Arc<Base>,
    files: BTreeMap<String, TreeFile>,
    /// `files` as the selection policies read it; rebuilt when a path's input is replaced.
    index: SnapshotIndex,
    /// Every claimed path whose reference content differs from the base.
    changes: BTreeMap<String, FileChange>,
}

impl Tree {
    pub(crate) fn new(db: &Database, base: Arc<Base>, scanned: Vec<ScannedFile>) -> Tree {
        let files =
            scanned.into_iter().map(|f| (f.path, TreeFile { input: f.input, id: f.id, shared: true })).collect();
        let mut tree = Tree { base, files, index: SnapshotIndex::default(), changes: BTreeMap::new() };
        tree.rebase(db, tree.base.clone());
        tree
    }

    pub(crate) fn base(&self) -> &Arc<Base> {
        &self.base
    }

    pub(crate) fn index(&self) -> SnapshotIndex {
        self.index.clone()
    }

    /// Compares every file with a new base.
    pub(crate) fn rebase(&mut self, db: &Database, base: Arc<Base>) {
        self.base = base;
        let paths: BTreeSet<String> =
            self.base.index.paths(db).map(|(path, _)| path.to_owned()).chain(self.files.keys().cloned()).collect();
        self.changes.clear();
        for path in paths {
            self.refresh_change(db, &path);
        }
        self.reindex();
    }

    /// Sets the reference content of a claimed `path` (`None`: the file is gone). Returns
    /// whether anything changed.
    pub(crate) fn set_file(&mut self, db: &mut Database, path: &str, content: Option<Arc<[u8]>>) -> bool {
        let Some(language) = db.language_in(path, &self.base.holdings) else { return false };
        match content {
            None => {
                if self.files.remove(path).is_none() {
                    return false;
                }
                self.reindex();
                // Dropping a file writes no input; requests running on the old state must still
                // learn that it is gone.
                db.trigger_cancellation();
            }
            Some(text) => {
                let id = blob_id(&text);
                match self.files.get_mut(path) {
                    Some(file) if file.id == id => return false,
                    Some(file) if !file.shared => {
                        file.input.set_text(db).to(text);
                        file.id = id;
                    }
                    _ => {
                        let input = SourceFile::new(&*db, text, language);
                        self.files.insert(path.to_owned(), TreeFile { input, id, shared: false });
                        self.reindex();
                        // A new input is no write either: cancel what runs on the old state.
                        db.trigger_cancellation();
                    }
                }
            }
        }
        self.refresh_change(db, path);
        true
    }

    /// The paths of the files below directory `dir`.
    pub(crate) fn files_under(&self, dir: &str) -> Vec<String> {
        let prefix = format!("{}/", dir.trim_end_matches('/'));
        self.files
            .range(prefix.clone()..)
            .map(|(path, _)| path)
            .take_while(|p| p.starts_with(&prefix))
            .cloned()
            .collect()
    }

    /// The changes, split by the classifier into the code change and the test change.
    pub(crate) fn change_sets(&self, test_paths: &TestPaths) -> (ChangeSet, ChangeSet) {
        let (test, code) = self.changes.clone().into_iter().partition(|(path, _)| test_paths.is_test(path));
        (ChangeSet { files: code }, ChangeSet { files: test })
    }

    fn reindex(&mut self) {
        self.index = SnapshotIndex::from_files(self.files.iter().map(|(path, f)| (path.clone(), f.input)).collect());
    }

    fn refresh_change(&mut self, db: &Database, path: &str) {
        let base = self.base.index.get(db, path);
        let change = match (base, self.files.get(path)) {
            (None, None) => None,
            (Some(_), None) => Some(change(FileStatus::Deleted, Vec::new())),
            (None, Some(file)) => Some(change(FileStatus::Added, added_lines(b"", file.input.text(db)))),
            (Some(base), Some(file)) => {
                let base_id = self.base.snapshot.get(path).map(|entry| entry.id);
                (base_id != Some(file.id))
                    .then(|| change(FileStatus::Modified, added_lines(base.text(db), file.input.text(db))))
            }
        };
        match change {
            Some(change) => self.changes.insert(path.to_owned(), change),
            None => self.changes.remove(path),
        };
    }
}

fn change(status: FileStatus, added_lines: Vec<u32>) -> FileChange {
    FileChange { status, old_path: None, added_lines, binary: false }
}
