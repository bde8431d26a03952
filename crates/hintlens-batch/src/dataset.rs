//! Reading task records in any benchmark's field names.

use hintlens_formats::Row;
use serde_json::{Map, Value};
use std::fmt;
use std::path::{Path, PathBuf};

/// One task, in hintlens' own field names.
#[derive(Debug, Clone)]
pub struct TaskRecord {
    /// One-based position of the record in the dataset.
    pub position: usize,
    pub instance_id: String,
    /// `owner/name`.
    pub repo: String,
    pub base_commit: String,
    /// The code patch (`patch`, `fix_patch`, `feature_patch`); `None` when the record states
    /// its change only as a reference commit (SWE-bench Pro's `solution_commit`).
    pub patch: Option<String>,
    pub test_patch: String,
    pub problem_statement: String,
    /// The reference commit when the dataset names one (`solution_commit`, `head_commit`).
    pub reference_commit: Option<String>,
    /// The record as read, for policies that need benchmark-specific fields.
    pub raw: Map<String, Value>,
}

impl TaskRecord {
    /// A text field of the record as read (`interface`, `requirements`), if it is a non-empty
    /// string.
    pub fn text_field(&self, key: &str) -> Option<&str> {
        self.raw.get(key).and_then(Value::as_str).filter(|s| !s.trim().is_empty())
    }

    /// The text of the documentation change when the dataset ships it apart from the code
    /// patch: NoCode-bench's `doc_patch` (its added lines) or `doc_changes` (the `metadata` of
    /// each entry, joined as NoCode-bench joins them). `None` when the record has neither.
    pub fn documentation(&self) -> Option<String> {
        if let Some(diff) = self.text_field("doc_patch") {
            return Some(hintlens_hints::documentation_text(diff, |_| true));
        }
        let changes = self.raw.get("doc_changes")?.as_array()?;
        let parts: Vec<&str> = changes.iter().filter_map(|c| c.get("metadata")?.as_str()).collect();
        Some(parts.join("\n"))
    }
}

/// A record that cannot be turned into a task.
#[derive(Debug, Clone)]
pub struct RecordError {
    pub position: usize,
    pub instance_id: Option<String>,
    pub repo: Option<String>,
    pub message: String,
}

/// The dataset as a whole cannot be read.
#[derive(Debug)]
pub struct DatasetError {
    pub path: PathBuf,
    pub message: String,
}

impl fmt::Display for DatasetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "cannot read dataset {}: {}", self.path.display(), self.message)
    }
}

impl std::error::Error for DatasetError {}

/// Reads a dataset — JSON lines, a JSON array, or Parquet (one file, a directory of shards, a
/// `*` pattern; see `hintlens_formats::read`) — as task records. A malformed record becomes a
/// [`RecordError`] in its place; only an unreadable file (or a JSON array that does not parse)
/// fails as a whole.
pub fn read_dataset(path: &Path) -> Result<Vec<Result<TaskRecord, RecordError>>, DatasetError> {
    let dataset = hintlens_formats::read(path).map_err(|e| DatasetError { path: e.path, message: e.message })?;
    Ok(dataset.rows.into_iter().map(into_task_record).collect())
}

/// [`read_dataset`] on text already read (JSON lines or a JSON array).
pub fn parse_dataset(text: &str) -> Result<Vec<Result<TaskRecord, RecordError>>, String> {
    Ok(hintlens_formats::parse_json(text)?.1.into_iter().map(into_task_record).collect())
}

/// The task records of a dataset's rows, in order (the rows stay, e.g. to be written back).
pub fn task_records(rows: &[Row]) -> Vec<Result<TaskRecord, RecordError>> {
    rows.iter().cloned().map(into_task_record).collect()
}

fn into_task_record(row: Row) -> Result<TaskRecord, RecordError> {
    match row.value {
        Ok(value) => task_record(row.position, value),
        Err(malformed) => {
            Err(RecordError { position: row.position, instance_id: None, repo: None, message: malformed.message })
        }
    }
}

/// The instance id of a dataset row, under any benchmark's name for it.
pub fn instance_id_of(row: &Value) -> Option<&str> {
    ["instance_id", "id"].iter().find_map(|k| row.get(*k)?.as_str())
}

fn task_record(position: usize, value: Value) -> Result<TaskRecord, RecordError> {
    let Value::Object(raw) = value else {
        return Err(RecordError {
            position,
            instance_id: None,
            repo: None,
            message: format!("record {position} is not a JSON object"),
        });
    };
    let text = |keys: &[&str]| keys.iter().find_map(|k| raw.get(*k).and_then(Value::as_str)).map(str::to_owned);
    let nested =
        |outer: &str, inner: &str| raw.get(outer).and_then(|o| o.get(inner)).and_then(Value::as_str).map(str::to_owned);
    let instance_id = text(&["instance_id", "id"]);
    let repo = match (text(&["repo"]), text(&["org", "owner"])) {
        (Some(repo), _) if repo.contains('/') => Some(repo),
        (Some(repo), Some(org)) => Some(format!("{org}/{repo}")),
        (Some(repo), None) => Some(repo),
        (None, _) => None,
    };
    let fail =
        |message: String| RecordError { position, instance_id: instance_id.clone(), repo: repo.clone(), message };
    let missing = |what: &str, keys: &str| fail(format!("record {position} has no {what} (looked for {keys})"));
    let Some(id) = instance_id.clone() else {
        return Err(missing("instance id", "`instance_id`"));
    };
    let Some(repo_name) = repo.clone() else {
        return Err(missing("repository", "`repo` as owner/name, or `org` + `repo`"));
    };
    if !repo_name.contains('/') {
        return Err(fail(format!(
            "record {position}: repository `{repo_name}` is not of the form owner/name and no `org` is given"
        )));
    }
    let Some(base_commit) = text(&["base_commit"]).or_else(|| nested("base", "sha")) else {
        return Err(missing("base commit", "`base_commit`, `base.sha`"));
    };
    let patch = text(&["patch", "fix_patch", "feature_patch", "gold_patch"]);
    let reference_commit = text(&["solution_commit", "head_commit"]).or_else(|| nested("head", "sha"));
    if patch.is_none() && reference_commit.is_none() {
        return Err(missing(
            "code patch and no reference commit",
            "`patch`, `fix_patch`, `feature_patch`, `solution_commit`, `head_commit`",
        ));
    }
    let test_patch = text(&["test_patch"]).unwrap_or_default();
    let problem_statement = text(&["problem_statement", "problem", "issue", "body"])
        .or_else(|| {
            let issues = raw.get("resolved_issues")?.as_array()?;
            let parts: Vec<String> = issues
                .iter()
                .map(|i| {
                    let title = i.get("title").and_then(Value::as_str).unwrap_or_default();
                    let body = i.get("body").and_then(Value::as_str).unwrap_or_default();
                    format!("{title}\n{body}")
                })
                .collect();
            Some(parts.join("\n\n"))
        })
        .unwrap_or_default();
    Ok(TaskRecord {
        position,
        instance_id: id,
        repo: repo_name,
        base_commit,
        patch,
        test_patch,
        problem_statement,
        reference_commit,
        raw,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_every_benchmarks_field_names() {
        let text = r#"
{"instance_id": "a-1", "repo": "o/a", "base_commit": "abc", "patch": "p", "test_patch": "t", "problem_statement": "s"}
{"instance_id": "b-2", "org": "o", "repo": "b", "base": {"sha": "def"}, "fix_patch": "p", "test_patch": "t", "resolved_issues": [{"title": "T", "body": "B"}]}
{"instance_id": "c-3", "repo": "o/c", "base_commit": "abc", "feature_patch": "p", "test_patch": "t", "head_commit": "fff"}
"#;
        let records: Vec<TaskRecord> = parse_dataset(text).unwrap().into_iter().map(Result::unwrap).collect();
        assert_eq!(records[0].repo, "o/a");
        assert_eq!(records[1].repo, "o/b");
        assert_eq!(records[1].base_commit, "def");
        assert_eq!(records[1].problem_statement, "T\nB");
        assert_eq!(records[2].patch.as_deref(), Some("p"));
        assert_eq!(records[2].reference_commit.as_deref(), Some("fff"));
        assert_eq!(records[2].position, 4);
    }

    #[test]
    fn dataset_fields_for_the_benchmark_policies() {
        let text = r#"
{"instance_id": "p", "repo": "o/p", "base_commit": "x", "patch": "", "interface": "Name: f", "requirements": "  "}
{"instance_id": "n", "repo": "o/n", "base_commit": "x", "feature_patch": "", "doc_patch": "diff --git a/d.md b/d.md\n--- a/d.md\n+++ b/d.md\n@@ -0,0 +1 @@\n+Use `frob`.\n"}
{"instance_id": "m", "repo": "o/m", "base_commit": "x", "patch": "", "doc_changes": [{"metadata": "one"}, {"metadata": "two"}]}
"#;
        let records: Vec<TaskRecord> = parse_dataset(text).unwrap().into_iter().map(Result::unwrap).collect();
        assert_eq!(records[0].text_field("interface"), Some("Name: f"));
        assert_eq!(records[0].text_field("requirements"), None);
        assert_eq!(records[0].documentation(), None);
        assert_eq!(records[1].documentation().as_deref(), Some("Use `frob`.\n"));
        assert_eq!(records[2].documentation().as_deref(), Some("one\ntwo"));
    }

    #[test]
    fn a_json_array_is_a_dataset_too() {
        let text = r#"[{"instance_id": "a", "repo": "o/a", "base_commit": "x", "patch": ""}]"#;
        let records = parse_dataset(text).unwrap();
        assert_eq!(records.len(), 1);
        assert!(records[0].is_ok());
    }

    #[test]
    fn malformed_records_are_reported_in_place() {
        let text = "{\"instance_id\": \"a\"}\nnot json\n[1]\n{\"instance_id\": \"d\", \"repo\": \"name-only\", \"base_commit\": \"x\", \"patch\": \"\"}\n";
        let records = parse_dataset(text).unwrap();
        let errors: Vec<String> = records.into_iter().map(|r| r.unwrap_err().message).collect();
        assert_eq!(errors[0], "record 1 has no repository (looked for `repo` as owner/name, or `org` + `repo`)");
        assert!(errors[1].starts_with("line 2 is not valid JSON"), "{}", errors[1]);
        assert_eq!(errors[2], "record 3 is not a JSON object");
        assert!(errors[3].contains("not of the form owner/name"), "{}", errors[3]);
    }

    #[test]
    fn a_reference_commit_stands_in_for_a_missing_patch() {
        let text = r#"
{"instance_id": "pro", "repo": "o/p", "base_commit": "abc", "solution_commit": "fff"}
{"instance_id": "none", "repo": "o/p", "base_commit": "abc"}
"#;
        let mut records = parse_dataset(text).unwrap().into_iter();
        let pro = records.next().unwrap().unwrap();
        assert_eq!((pro.patch, pro.reference_commit.as_deref()), (None, Some("fff")));
        assert_eq!(
            records.next().unwrap().unwrap_err().message,
            "record 3 has no code patch and no reference commit (looked for `patch`, `fix_patch`, \
             `feature_patch`, `solution_commit`, `head_commit`)"
        );
    }

    #[test]
    fn a_broken_array_fails_as_a_whole() {
        assert!(parse_dataset("[{").unwrap_err().contains("not a valid JSON array"));
    }
}
