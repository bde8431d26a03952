//! The result record of one task (SPEC §7.2).

use crate::TaskRecord;
use crate::schema;
use hintlens_hints::{Identifier, Selection};
use hintlens_projection::{Description, Descriptions};
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::{Map, Value};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

/// Why a task failed, as a stable machine-readable word.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
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
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
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

/// The record of an answered task. `told`: the dataset fields `necessity` was computed against
/// (`batch --told`), named in the record when given.
pub fn ok_record(record: &TaskRecord, output: &TaskOutput, told: &[String]) -> Value {
    let released: Map<String, Value> =
        RELEASED_FIELDS.iter().filter_map(|&k| Some((k.to_owned(), record.raw.get(k)?.clone()))).collect();
    let selections = output
        .selections
        .iter()
        .map(|(policy, ids)| {
            let ids =
                ids.iter().map(|id| RecordIdentifier { identifier: id, description: output.descriptions.get(id) });
            (policy.as_str(), ids.collect())
        })
        .collect();
    let hints = output.hints.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    to_value(&ResultRecord {
        instance_id: Some(&record.instance_id),
        repo: Some(&record.repo),
        status: Status::Ok,
        error: None,
        base_commit: Some(&record.base_commit),
        selections,
        hints,
        notes: Some(&output.notes),
        coverage: Some(&output.coverage),
        files_indexed: Some(FilesIndexed { base: output.base_files, reference: output.reference_files }),
        released: Some(released),
        told: (!told.is_empty()).then_some(told),
    })
}

/// The record of a task that produced no answer: `unsupported` when its language cannot be
/// read, `error` otherwise.
pub fn error_record(instance_id: Option<&str>, repo: Option<&str>, error: &TaskError) -> Value {
    to_value(&ResultRecord {
        instance_id,
        repo,
        status: if error.is_unsupported() { Status::Unsupported } else { Status::Error },
        error: Some(ErrorField { kind: error.kind, message: &error.message }),
        base_commit: None,
        selections: IndexMap::new(),
        hints: IndexMap::new(),
        notes: None,
        coverage: error.coverage.as_deref(),
        files_indexed: None,
        released: None,
        told: None,
    })
}

fn to_value(record: &ResultRecord<'_>) -> Value {
    serde_json::to_value(record).expect("a result record is plain data")
}

/// The JSON Schema of the records `hintlens batch` writes (the book's
/// `docs/src/reference/record.schema.json`), generated from the types that write them.
pub fn record_schema() -> Value {
    let schema =
        schemars::generate::SchemaSettings::draft2020_12().into_generator().into_root_schema_for::<ResultRecord<'_>>();
    serde_json::to_value(schema).expect("a schema is plain data")
}

/// Keys in the order they were inserted (policies and hints in the order asked for).
type IndexMap<K, V> = Vec<(K, V)>;

/// One line of `hintlens batch`'s output: the result of one task (SPEC §7.2). Fields are
/// written in this order; the ones an `error` or `unsupported` record lacks are left out.
#[derive(Serialize, JsonSchema)]
#[schemars(title = "hintlens result record", deny_unknown_fields)]
struct ResultRecord<'a> {
    /// The task's `instance_id`; null when the dataset's record has none.
    instance_id: Option<&'a str>,
    /// `owner/name`; null when the dataset's record names none.
    repo: Option<&'a str>,
    status: Status,
    /// Why the task gave no answer (`error` and `unsupported` records only).
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<ErrorField<'a>>,
    /// The base commit B (`ok` records only).
    #[serde(skip_serializing_if = "Option::is_none")]
    base_commit: Option<&'a str>,
    /// Selection policy (`defuse`, `doc2feat`, `fea`, `pro`, `all-new`, `strings`, `empty`) →
    /// the identifiers it selected, in the order asked for; empty without an answer.
    #[serde(serialize_with = "ordered_map")]
    #[schemars(with = "BTreeMap<String, Vec<RecordIdentifier<'static>>>")]
    selections: IndexMap<&'a str, Vec<RecordIdentifier<'a>>>,
    /// `"<selection>+<projection>"` → the rendered hint text (empty when nothing crosses).
    #[serde(serialize_with = "ordered_map")]
    #[schemars(with = "BTreeMap<String, String>")]
    hints: IndexMap<&'a str, &'a str>,
    /// What the run skipped or noticed (binary hunks, unreadable files, how R was built…).
    #[serde(skip_serializing_if = "Option::is_none")]
    notes: Option<&'a [String]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    coverage: Option<&'a Coverage>,
    #[serde(skip_serializing_if = "Option::is_none")]
    files_indexed: Option<FilesIndexed>,
    /// The benchmark's released hint fields the task record carries (`new_components`,
    /// `definitions_brief`, `interface`, `augmentations`, `augmentations_approx`), as read, for
    /// `hintlens agree`.
    #[serde(skip_serializing_if = "Option::is_none")]
    released: Option<Map<String, Value>>,
    /// The dataset fields the agent is told, against which `necessity` was computed, when `batch
    /// --told` named them (without it: the problem statement).
    #[serde(skip_serializing_if = "Option::is_none")]
    told: Option<&'a [String]>,
}

fn ordered_map<K: Serialize, V: Serialize, S: serde::Serializer>(entries: &[(K, V)], s: S) -> Result<S::Ok, S::Error> {
    s.collect_map(entries.iter().map(|(k, v)| (k, v)))
}

/// `ok`: the task was answered; `unsupported`: its changed source files are all in languages no
/// frontend reads; `error`: it could not run.
#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
enum Status {
    Ok,
    Error,
    Unsupported,
}

#[derive(Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
struct ErrorField<'a> {
    kind: ErrorKind,
    message: &'a str,
}

/// Source files indexed in the base snapshot B and the reference snapshot R.
#[derive(Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
struct FilesIndexed {
    base: usize,
    reference: usize,
}

/// A selected identifier as the record holds it: its fields, and the provider's
/// `description` (`doc`, `behaviour`) when one gave it, so the judge can rate what the hint
/// showed.
#[derive(Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
struct RecordIdentifier<'a> {
    #[serde(flatten)]
    #[schemars(with = "schema::Identifier")]
    identifier: &'a Identifier,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Option<schema::Description>")]
    description: Option<&'a Description>,
}
