//! One immutable state of the analysis — a *generation* — as read-only requests see it.
//!
//! The main thread builds a new [`World`] after every change; workers get an `Arc` of it and
//! their own database handle. Everything here is plain data except the selections, computed by
//! the first worker that needs them and shared by every later request of the generation.

use crate::config::Config;
use crate::dispatch::RequestError;
use crate::paths::Root;
use crate::target::Target;
use hintlens_db::{Database, Holdings, SnapshotIndex, SourceFile};
use hintlens_hints::{Identifier, Selection, Task, select};
use hintlens_snapshot::{ChangeSet, ObjectId, Snapshot};
use lsp_types::Uri;
use std::collections::HashSet;
use std::sync::{Arc, OnceLock};

/// The base revision: its files are read from git and parsed when a request first needs them
/// (or all up front, in [`crate::Options::full_index`]).
pub(crate) struct Base {
    pub commit: ObjectId,
    pub snapshot: Snapshot,
    pub index: SnapshotIndex,
    /// What the base holds, which decides the language of an ending two languages share (a
    /// `.h` is C++ in a repository holding C++ sources) for its files and the work tree's.
    pub holdings: Holdings,
}

/// The task statement file and its current text (`None`: the file does not exist).
#[derive(Clone)]
pub(crate) struct Statement {
    pub path: String,
    pub text: Option<Arc<str>>,
}

pub(crate) struct World {
    pub generation: u64,
    pub root: Root,
    pub base: Arc<Base>,
    pub reference: SnapshotIndex,
    /// The work tree's changes told apart by path; [`World::changes`] moves what lies in the
    /// test regions of source files to the test side.
    pub code: ChangeSet,
    pub test: ChangeSet,
    pub changes: OnceLock<(ChangeSet, ChangeSet)>,
    pub config: Arc<Config>,
    pub statement: Option<Statement>,
    /// Paths of open documents, so that a buffer no frontend claims is known (and empty)
    /// rather than unknown.
    pub open: HashSet<String>,
    /// Each policy's selection in [`Selection::ALL`] order, computed on first use: an edit
    /// recomputes only what the next requests ask for (lenses need only the configured policy).
    pub selections: [OnceLock<Arc<Vec<Identifier>>>; Selection::ALL.len()],
}

/// A document a request names.
pub(crate) struct Document {
    pub path: String,
    /// `None` for an open document that no frontend indexes (the statement, notes).
    pub file: Option<SourceFile>,
    /// The extension of a source file in a language no frontend reads (`go` while there is no
    /// Go frontend): the answer says so rather than nothing.
    pub unreadable: Option<String>,
}

impl Document {
    /// What hover and lenses say in a source file hintlens cannot read.
    pub(crate) fn unreadable_message(&self, db: &hintlens_db::Database) -> Option<String> {
        let extension = self.unreadable.as_deref()?;
        Some(format!(
            "hintlens cannot read `.{extension}` files: no frontend claims them (it reads {}), so nothing in {} is analysed",
            db.languages().join(", "),
            self.path
        ))
    }
}

impl World {
    /// The code and test changes, with what the code change adds inside `#[cfg(test)]` modules
    /// and `#[test]` functions counted as the tests'.
    pub(crate) fn changes(&self, db: &Database) -> &(ChangeSet, ChangeSet) {
        self.changes.get_or_init(|| {
            hintlens_hints::split_test_regions(db, &self.reference, self.code.clone(), self.test.clone())
        })
    }

    pub(crate) fn task(&self, db: &Database) -> Task<'_> {
        let (code, test) = self.changes(db);
        Task {
            base: &self.base.index,
            reference: &self.reference,
            code,
            test,
            problem_statement: self.statement.as_ref().and_then(|s| s.text.as_deref()).unwrap_or_default(),
            told: self.statement.as_ref().and_then(|s| s.text.as_deref()).unwrap_or_default(),
        }
    }

    /// One policy's selection, computed once per generation.
    pub(crate) fn selection(&self, db: &Database, policy: Selection) -> Arc<Vec<Identifier>> {
        let slot = Selection::ALL.iter().position(|&p| p == policy).expect("every policy is in Selection::ALL");
        self.selections[slot].get_or_init(|| Arc::new(select(db, &self.task(db), policy))).clone()
    }

    /// Every policy's selection.
    pub(crate) fn all_selections(&self, db: &Database) -> Selections {
        Selections(Selection::ALL.into_iter().map(|policy| (policy, self.selection(db, policy))).collect())
    }

    /// The document `uri` names; a file of the base no one asked about before is read from
    /// git now.
    pub(crate) fn document(&self, db: &Database, uri: &Uri) -> Result<Document, RequestError> {
        let Some(path) = self.root.relative_uri(uri) else {
            return Err(RequestError::invalid_params(format!(
                "unknown document {}: not a file in the workspace {}",
                uri.as_str(),
                self.root.path().display()
            )));
        };
        if self.reference.contains(&path) {
            return match self.reference.get(db, &path) {
                Some(file) => Ok(Document { path, file: Some(file), unreadable: None }),
                None => Err(RequestError::failed(format!(
                    "cannot read {path} from the base {}: {}; check the repository with `git fsck`",
                    self.base.commit,
                    self.reference.read_errors().join("; ")
                ))),
            };
        }
        match hintlens_snapshot::source_extension(&path) {
            // Source code, yet not indexed: no frontend claims its language.
            Some(extension) => Ok(Document { path, file: None, unreadable: Some(extension) }),
            None if self.open.contains(&path) => Ok(Document { path, file: None, unreadable: None }),
            None => Err(RequestError::invalid_params(format!(
                "unknown document {}: not a source file of the work tree that hintlens indexes",
                uri.as_str()
            ))),
        }
    }
}

/// What each policy selected.
pub(crate) struct Selections(Vec<(Selection, Arc<Vec<Identifier>>)>);

/// An identifier a hover target names, with every policy that selects it.
pub(crate) struct Found<'s> {
    /// DefUse's entry where DefUse selects it: it carries the crossing and its evidence.
    pub identifier: &'s Identifier,
    pub policies: Vec<Selection>,
}

impl Selections {
    /// The identifiers `target` (in the file at `path`) names: for a definition, that very
    /// definition; for a use, every selected definition of that simple name, as DefUse matches.
    pub(crate) fn matching(&self, path: &str, target: &Target<'_>) -> Vec<Found<'_>> {
        let mut found: Vec<Found<'_>> = Vec::new();
        for (policy, ids) in &self.0 {
            for id in ids.iter().filter(|id| target.names(path, id)) {
                let same = |f: &&mut Found<'_>| {
                    (&f.identifier.path, &f.identifier.qualified_name, f.identifier.kind)
                        == (&id.path, &id.qualified_name, id.kind)
                };
                match found.iter_mut().find(same) {
                    Some(f) => {
                        f.policies.push(*policy);
                        if *policy == Selection::DefUse {
                            f.identifier = id;
                        }
                    }
                    None => found.push(Found { identifier: id, policies: vec![*policy] }),
                }
            }
        }
        found
    }
}
