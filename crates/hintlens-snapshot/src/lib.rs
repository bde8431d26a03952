//! Repository snapshots read from git objects, and reference snapshots built by applying a
//! task's patches in memory.
//!
//! A [`Snapshot`] maps paths to [`Entry`]s that name their content by git blob id; content is
//! read lazily through a [`BlobSource`] (a per-thread [`Reader`] of a [`Repository`]), except
//! for files produced by a patch or built in memory, which carry it inline.
//! [`build_reference`] applies a code patch and a test patch to a base snapshot and reports
//! which lines each patch added, in the coordinates of the final snapshot. Where no patches
//! exist (the editor, a reference commit), [`changes_between`] diffs two snapshots instead and a
//! [`TestPaths`] classifier splits the changes into code and test.

mod binary;
mod changes;
mod error;
pub mod git;
mod patch;
mod reference;
mod repo;
mod snapshot;
mod source;
mod stat;
mod test_paths;
#[cfg(test)]
mod tests;

pub use binary::BinaryHunk;
pub use changes::{added_lines, changes_between};
pub use error::{HunkRef, PatchError, PatchErrorKind, PatchRole};
pub use patch::{FilePatch, FileStatus, Hunk, Line, Patch};
pub use reference::{ChangeSet, FileChange, Reference, build_reference, build_reference_reading};
pub use repo::{BlobSource, Error, Fetched, NoBlobs, Reader, Repository};
pub use snapshot::{Entry, Mode, Snapshot, blob_id};
pub use source::{SOURCE_EXTENSIONS, script_extension, source_extension};
pub use stat::StatCache;
pub use test_paths::{GENERIC_TEST_PATTERNS, PatternError, TestPaths};

/// A git object id; the content id of a file is its git blob id.
pub type ObjectId = gix::ObjectId;
