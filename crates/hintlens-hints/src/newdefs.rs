//! What a change set made new: its files as they are in R with their counterparts in B, and
//! the definitions of R that B did not have.

use crate::Task;
use hintlens_db::{Db, SourceFile, file_index, qualified_name};
use hintlens_snapshot::{ChangeSet, FileChange, FileStatus};
use hintlens_syntax::{DefId, DefKind};
use std::collections::HashSet;

/// A source file a change touched, as it is in R.
pub(crate) struct ChangedFile<'t> {
    pub path: &'t str,
    pub change: &'t FileChange,
    pub file: SourceFile,
    /// The file at B, under its old path for renames; `None` for a file the change adds.
    pub base: Option<(&'t str, SourceFile)>,
    /// Whether B has no file at this path.
    pub is_new_file: bool,
}

/// The source files of `changes` that R holds (deleted files and files no frontend claims
/// are left out), in path order.
pub(crate) fn changed_files<'t>(task: &Task<'t>, changes: &'t ChangeSet) -> Vec<ChangedFile<'t>> {
    changes
        .files
        .iter()
        .filter(|(_, change)| change.status != FileStatus::Deleted)
        .filter_map(|(path, change)| {
            let file = task.reference.get(path)?;
            let base_path = change.old_path.as_deref().unwrap_or(path);
            let base = match change.status {
                FileStatus::Added => None,
                _ => task.base.get(base_path).map(|b| (base_path, b)),
            };
            Some(ChangedFile { path, change, file, base, is_new_file: task.base.get(path).is_none() })
        })
        .collect()
}

/// Definitions of the file in R with no definition of the same qualified name and kind in its
/// B counterpart, in source order. Parameters are left out: policies that want them (DefUse)
/// treat them apart.
pub(crate) fn new_definitions(db: &dyn Db, changed: &ChangedFile<'_>) -> Vec<DefId> {
    let at_base: HashSet<(String, DefKind)> = match changed.base {
        Some((path, b)) => {
            file_index(db, b).definitions.iter().map(|d| (qualified_name(db, path, b, &d.local_name), d.kind)).collect()
        }
        None => HashSet::new(),
    };
    file_index(db, changed.file)
        .definitions
        .iter()
        .enumerate()
        .filter(|(_, d)| d.kind != DefKind::Parameter)
        .filter(|(_, d)| !at_base.contains(&(qualified_name(db, changed.path, changed.file, &d.local_name), d.kind)))
        .map(|(i, _)| i as DefId)
        .collect()
}
