//! The result record of one task (SPEC §7.2).

use crate::TaskRecord;
use hintlens_hints::{Identifier, Selection};
use serde_json::{Map, Value, json};
use std::fmt;

/// Why a task failed, as a stable machine-readable word.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorKind {
    MalformedRecord,
    RepositoryNotFound,
    CommitNotFound,
    PatchDoesNotApply,
    /// A patch names a path outside the repository (absolute, or `..` leaving the root).
    UnsafePath,
    Git,
    Internal,
}

impl ErrorKind {
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorKind::MalformedRecord => "malformed_record",
            ErrorKind::RepositoryNotFound => "repository_not_found",
            ErrorKind::CommitNotFound => "commit_not_found",
            ErrorKind::PatchDoesNotApply => "patch_does_not_apply",
            ErrorKind::UnsafePath => "unsafe_path",
            ErrorKind::Git => "git",
            ErrorKind::Internal => "internal",
        }
    }
}

#[derive(Debug, Clone)]
pub struct TaskError {
    pub kind: ErrorKind,
    pub message: String,
}

impl TaskError {
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> TaskError {
        TaskError { kind, message: message.into() }
    }
}

impl fmt::Display for TaskError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.kind.as_str(), self.message)
    }
}

impl std::error::Error for TaskError {}

/// What a successful task produced.
#[derive(Debug, Clone, Default)]
pub struct TaskOutput {
    pub selections: Vec<(Selection, Vec<Identifier>)>,
    /// `"<selection>+<projection>"` → rendered hint.
    pub hints: Vec<(String, String)>,
    /// Things the run skipped or noticed (binary hunks, …).
    pub notes: Vec<String>,
    /// Indexed source files in B and R.
    pub base_files: usize,
    pub reference_files: usize,
}

impl TaskOutput {
    pub fn selection(&self, policy: Selection) -> &[Identifier] {
        self.selections.iter().find(|(p, _)| *p == policy).map(|(_, ids)| ids.as_slice()).unwrap_or_default()
    }
}

/// The benchmarks' released hint fields, copied into each result record so that agreement
/// can be measured from the results alone (`hintlens agree`).
pub const RELEASED_FIELDS: &[&str] =
    &["new_components", "definitions_brief", "interface", "augmentations", "augmentations_approx"];

pub fn ok_record(record: &TaskRecord, output: &TaskOutput) -> Value {
    let released: Map<String, Value> =
        RELEASED_FIELDS.iter().filter_map(|&k| Some((k.to_owned(), record.raw.get(k)?.clone()))).collect();
    let selections: Map<String, Value> = output
        .selections
        .iter()
        .map(|(policy, ids)| (policy.as_str().to_owned(), serde_json::to_value(ids).unwrap_or(Value::Null)))
        .collect();
    let hints: Map<String, Value> = output.hints.iter().map(|(k, v)| (k.clone(), Value::String(v.clone()))).collect();
    json!({
        "instance_id": record.instance_id,
        "repo": record.repo,
        "status": "ok",
        "base_commit": record.base_commit,
        "selections": selections,
        "hints": hints,
        "notes": output.notes,
        "files_indexed": {"base": output.base_files, "reference": output.reference_files},
        "released": released,
    })
}

pub fn error_record(instance_id: Option<&str>, repo: Option<&str>, error: &TaskError) -> Value {
    json!({
        "instance_id": instance_id,
        "repo": repo,
        "status": "error",
        "error": {"kind": error.kind.as_str(), "message": error.message},
        "selections": {},
        "hints": {},
    })
}
