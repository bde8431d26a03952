//! The reference side: the base with the work tree's changes and open buffers laid over it, as
//! database inputs, and how each differs from the base.
//!
//! Only what differs from the base (and what is open) is held here; every other file is the
//! base's own, read from git and parsed when a request needs it ([`SnapshotIndex::overlaid`]).
//! A file as it was read from disk is a content-keyed input ([`Database::intern_file`]), the
//! very input the base has for the same content. The first edit of a file gives it a path-keyed
//! input; later edits set that input's text, so salsa re-indexes that one file and nothing else.

use crate::indexer::WorkFile;
use crate::world::Base;
use hintlens_db::{Database, SnapshotIndex, SourceFile};
use hintlens_snapshot::{ChangeSet, FileChange, FileStatus, ObjectId, TestPaths, added_lines, blob_id};
use salsa::{Database as _, Setter};
use std::collections::BTreeMap;
use std::convert::Infallible;
use std::sync::Arc;

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
    /// The paths whose reference content is not the base's — or that have a path-keyed input
    /// (an edited buffer, even once its text is the base's again) — mapped to it; `None`: a base
    /// file the work tree lacks.
    overlay: BTreeMap<String, Option<TreeFile>>,
    /// The base with `overlay` over it, as the selection policies read it; rebuilt when the
    /// overlay's paths or inputs change.
    index: SnapshotIndex,
    /// Every claimed path whose reference content differs from the base.
    changes: BTreeMap<String, FileChange>,
}

impl Tree {
    pub(crate) fn new(db: &Database, base: Arc<Base>, changed: Vec<WorkFile>, deleted: Vec<String>) -> Tree {
        let mut overlay: BTreeMap<String, Option<TreeFile>> = deleted.into_iter().map(|path| (path, None)).collect();
        for file in changed {
            let input = db
                .intern_file(file.id, file.language, || Ok::<_, Infallible>(file.text))
                .unwrap_or_else(|never| match never {});
            overlay.insert(file.path, Some(TreeFile { input, id: file.id, shared: true }));
        }
        let mut tree = Tree { base, overlay, index: SnapshotIndex::default(), changes: BTreeMap::new() };
        let paths: Vec<String> = tree.overlay.keys().cloned().collect();
        for path in paths {
            tree.refresh_change(db, &path);
        }
        tree.reindex();
        tree
    }

    pub(crate) fn base(&self) -> &Arc<Base> {
        &self.base
    }

    pub(crate) fn index(&self) -> SnapshotIndex {
        self.index.clone()
    }

    /// Sets the reference content of a claimed `path` (`None`: the file is gone). Returns
    /// whether anything changed.
    pub(crate) fn set_file(&mut self, db: &mut Database, path: &str, content: Option<Arc<[u8]>>) -> bool {
        let Some(language) = db.language_in(path, &self.base.holdings) else { return false };
        let base_id = self.base_id(path);
        match content {
            None => {
                let was_there = match self.overlay.get(path) {
                    Some(file) => file.is_some(),
                    None => base_id.is_some(),
                };
                if !was_there {
                    return false;
                }
                if base_id.is_some() {
                    self.overlay.insert(path.to_owned(), None);
                } else {
                    self.overlay.remove(path);
                }
                self.reindex();
                // Dropping a file writes no input; requests running on the old state must still
                // learn that it is gone.
                db.trigger_cancellation();
            }
            Some(text) => {
                let id = blob_id(&text);
                match self.overlay.get_mut(path) {
                    Some(Some(file)) if file.id == id => return false,
                    Some(Some(file)) if !file.shared => {
                        file.input.set_text(db).to(text);
                        file.id = id;
                    }
                    // Back to the base's content (or never away from it): the base's input.
                    Some(Some(_)) | Some(None) if base_id == Some(id) => {
                        self.overlay.remove(path);
                        self.reindex();
                        db.trigger_cancellation();
                    }
                    None if base_id == Some(id) => return false,
                    _ => {
                        let input = SourceFile::new(&*db, text, language);
                        db.read_whole(input);
                        self.overlay.insert(path.to_owned(), Some(TreeFile { input, id, shared: false }));
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

    /// The paths of the reference's files below directory `dir`.
    pub(crate) fn files_under(&self, db: &Database, dir: &str) -> Vec<String> {
        let prefix = format!("{}/", dir.trim_end_matches('/'));
        self.index.paths(db).map(|(path, _)| path).filter(|p| p.starts_with(&prefix)).map(str::to_owned).collect()
    }

    /// The changes, split by the classifier into the code change and the test change.
    pub(crate) fn change_sets(&self, test_paths: &TestPaths) -> (ChangeSet, ChangeSet) {
        let (test, code) = self.changes.clone().into_iter().partition(|(path, _)| test_paths.is_test(path));
        (ChangeSet { files: code }, ChangeSet { files: test })
    }

    /// The blob id of the base's source file at `path`, if it has one.
    fn base_id(&self, path: &str) -> Option<ObjectId> {
        self.base.index.contains(path).then(|| self.base.snapshot.get(path).map(|entry| entry.id)).flatten()
    }

    fn reindex(&mut self) {
        let overlay = self.overlay.iter().map(|(path, file)| (path.clone(), file.as_ref().map(|f| f.input))).collect();
        self.index = self.base.index.overlaid(&overlay);
    }

    fn refresh_change(&mut self, db: &Database, path: &str) {
        let change = match self.overlay.get(path) {
            None => None,
            Some(None) => self.base.index.contains(path).then(|| change(FileStatus::Deleted, Vec::new())),
            Some(Some(file)) => match self.base_id(path) {
                None => Some(change(FileStatus::Added, added_lines(b"", file.input.text(db)))),
                Some(id) if id == file.id => None,
                Some(_) => {
                    // The one base file read here: the changed file's own earlier version.
                    let base_text = self.base.index.get(db, path).map(|f| f.text(db).clone()).unwrap_or_default();
                    Some(change(FileStatus::Modified, added_lines(&base_text, file.input.text(db))))
                }
            },
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
