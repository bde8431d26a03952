//! The result record of one task (SPEC §7.2).

use crate::TaskRecord;
use hintlens_hints::{Identifier, Selection};
use hintlens_projection::Descriptions;
use serde::Serialize;
use serde_json::{Map, Value, json};
use std::collections::{BTreeMap, BTreeSet};
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
    /// The changed source files are all in languages no frontend reads: the task is
    /// `unsupported`, not failed.
    UnsupportedLanguage,
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
            ErrorKind::UnsupportedLanguage => "unsupported_language",
            ErrorKind::Internal => "internal",
        }
    }
}

#[derive(Debug, Clone)]
pub struct TaskError {
    pub kind: ErrorKind,
    pub message: String,
    /// What the task's changes hold that hintlens could and could not read, when known.
    pub coverage: Option<Box<Coverage>>,
}

impl TaskError {
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> TaskError {
        TaskError { kind, message: message.into(), coverage: None }
    }

    /// Whether the task is `unsupported` rather than failed.
    pub fn is_unsupported(&self) -> bool {
        self.kind == ErrorKind::UnsupportedLanguage
    }
}

/// Which of the files a task's patches change hintlens read: the record's `coverage`, so that
/// an answer never hides what it did not look at.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Coverage {
    /// The languages of the changed files a frontend read.
    pub languages: BTreeSet<String>,
    /// Changed source files no frontend reads (see `hintlens_snapshot::SOURCE_EXTENSIONS`).
    pub unread_source_files: usize,
    /// Their extensions.
    pub unread_extensions: BTreeSet<String>,
    /// Changed files a frontend read.
    #[serde(skip)]
    pub read_files: usize,
    /// The unread changed files without an extension that are programs by their `#!` line
    /// (`exe/rubocop`): source code, not documentation.
    #[serde(skip)]
    pub scripts: BTreeSet<String>,
    /// The changed files' endings that two languages share (`.h`: C++ where the repository
    /// holds more C++ sources than C sources, else C), each with the language it was read as.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub read_as: BTreeMap<String, String>,
    /// Files of the snapshots that could not be read (a missing object, a damaged pack) and
    /// that no answer needed whole: they are left out of the repository-wide facts, which are
    /// then lower bounds (the record's notes name them).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub unreadable_files: usize,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

impl Coverage {
    /// The changes touch source code and none of it could be read.
    pub fn is_unsupported(&self) -> bool {
        self.read_files == 0 && self.unread_source_files > 0
    }

    /// Why the unread changed source files were not read: an ending no frontend reads (`.lua`),
    /// or no ending at all, for programs told by their `#!` line (`exe/rubocop` is Ruby, yet a
    /// frontend reads a file by its ending): `1 with an ending no frontend reads, 1 without an
    /// extension (a program told by its #! line: exe/rubocop), which no frontend reads`.
    pub fn unread_reason(&self) -> String {
        let scripts = self.scripts.len();
        let by_ending = self.unread_source_files.saturating_sub(scripts);
        let mut reasons = Vec::new();
        if by_ending > 0 {
            reasons.push(format!("{by_ending} with an ending no frontend reads"));
        }
        if scripts > 0 {
            let paths: Vec<&str> = self.scripts.iter().map(String::as_str).collect();
            reasons.push(format!(
                "{scripts} without an extension (programs told by their #! line: {}), which no frontend reads",
                paths.join(", ")
            ));
        }
        reasons.join(", ")
    }

    /// `.go (14 files)`, `.rs (2 files), .ts (1 file)`…
    pub fn unread_summary(&self) -> String {
        self.unread_extensions.iter().map(|e| format!(".{e}")).collect::<Vec<_>>().join(", ")
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
    pub coverage: Coverage,
    /// What the description provider said of the selected identifiers (empty without one).
    pub descriptions: Descriptions,
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
        .map(|(policy, ids)| (policy.as_str().to_owned(), identifiers_value(ids, &output.descriptions)))
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
        "coverage": output.coverage,
        "files_indexed": {"base": output.base_files, "reference": output.reference_files},
        "released": released,
    })
}

/// A selection as the record holds it: each identifier with the provider's `description`
/// (`doc`, `behaviour`) when it gave one, so the judge can rate what the hint showed.
fn identifiers_value(ids: &[Identifier], descriptions: &Descriptions) -> Value {
    let values = ids.iter().map(|id| {
        let mut value = serde_json::to_value(id).unwrap_or(Value::Null);
        if let (Value::Object(fields), Some(d)) = (&mut value, descriptions.get(id)) {
            fields.insert("description".into(), serde_json::to_value(d).unwrap_or(Value::Null));
        }
        value
    });
    Value::Array(values.collect())
}

/// The record of a task that produced no answer: `unsupported` when its language cannot be
/// read, `error` otherwise.
pub fn error_record(instance_id: Option<&str>, repo: Option<&str>, error: &TaskError) -> Value {
    let mut record = json!({
        "instance_id": instance_id,
        "repo": repo,
        "status": if error.is_unsupported() { "unsupported" } else { "error" },
        "error": {"kind": error.kind.as_str(), "message": error.message},
        "selections": {},
        "hints": {},
    });
    if let Some(coverage) = &error.coverage {
        record["coverage"] = serde_json::to_value(coverage).unwrap_or(Value::Null);
    }
    record
}
