//! Writing a dataset back with each task's hint in it (`hintlens augment`): in the dataset's own
//! format, every original field and the row order as they were, the hint a new field or
//! appended to a text field. A task without a hint keeps its row as it was.

use crate::dataset::instance_id_of;
use hintlens_formats::{ColumnEdit, Dataset, Format};
use serde_json::{Value, json};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// The line put before a hint appended to a problem statement, in the words NoCode-bench uses
/// for its own suggested names ("If completing this task requires creating new files, classes,
/// fields, or error messages, you may consider using the following suggested entity names:").
pub const APPENDED_HEADER: &str = "If completing this task requires new code that the tests use, you may consider using the following suggested identifiers:";

/// Where the hint goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    /// A new field of this name (text; null in Parquet for a task without a hint).
    Field(String),
    /// The end of this text field, after a blank line and [`APPENDED_HEADER`]; an empty hint
    /// appends nothing.
    AppendTo(String),
}

/// A row that got no hint, and why: its result record (`error`, `unsupported`), or one made here
/// when there is none.
#[derive(Debug, Clone)]
pub struct Unhinted {
    pub record: Value,
}

impl Unhinted {
    /// `instance_id: status (kind): message`, for a line on standard error.
    pub fn summary(&self) -> String {
        let r = &self.record;
        let text = |v: &Value| v.as_str().map(str::to_owned).unwrap_or_else(|| v.to_string());
        format!(
            "{}: {} ({}): {}",
            text(&r["instance_id"]),
            text(&r["status"]),
            text(&r["error"]["kind"]),
            text(&r["error"]["message"])
        )
    }
}

/// What an augmentation did.
#[derive(Debug, Default)]
pub struct Augmented {
    /// Rows that got a hint (perhaps empty: nothing crosses).
    pub hinted: usize,
    /// Of those, rows whose hint is empty.
    pub empty: usize,
    /// Rows left as they were, with why.
    pub unhinted: Vec<Unhinted>,
    /// The files written (one, or the shards of a Parquet directory).
    pub written: Vec<PathBuf>,
}

/// Refuses a target the dataset cannot take before anything runs: a new field the rows already
/// have, or a field to append to that is not text.
pub fn check_target(dataset: &Dataset, target: &Target) -> Result<(), String> {
    for row in &dataset.rows {
        let Ok(value) = &row.value else { continue };
        match target {
            Target::Field(name) if value.get(name).is_some() => {
                return Err(format!(
                    "row {} already has a field `{name}`: choose another with --into, so that nothing of the dataset is overwritten",
                    row.position
                ));
            }
            Target::AppendTo(name) if value.get(name).is_some_and(|v| !v.is_string()) => {
                return Err(format!("row {}: `{name}` is not text, so a hint cannot be appended to it", row.position));
            }
            _ => {}
        }
    }
    Ok(())
}

/// Writes `dataset` (read from `input`) to `out` with the hint `key` (`"<selection>+<projection>"`)
/// of each task's record in `results` (by instance id). A Parquet dataset of several files is
/// written as a directory holding the same files.
pub fn write_augmented(
    dataset: &Dataset,
    input: &Path,
    results: &HashMap<String, Value>,
    key: &str,
    target: &Target,
    out: &Path,
) -> Result<Augmented, hintlens_formats::Error> {
    let mut augmented = Augmented::default();
    // Per row: the new value of the target field, or None to leave the row as it was.
    let mut edits: Vec<Option<String>> = Vec::with_capacity(dataset.rows.len());
    for row in &dataset.rows {
        let id = row.value.as_ref().ok().and_then(instance_id_of);
        let record = id.and_then(|id| results.get(id));
        let hint = record.filter(|r| r["status"] == "ok").and_then(|r| r["hints"].get(key)).and_then(Value::as_str);
        let Some(hint) = hint else {
            let record = match (record, id) {
                (Some(record), _) => record.clone(),
                (None, Some(id)) => json!({"instance_id": id, "status": "error",
                    "error": {"kind": "no_result", "message": format!("no result record has the hint `{key}`")}}),
                (None, None) => json!({"instance_id": null, "status": "error", "position": row.position,
                    "error": {"kind": "malformed_record", "message": format!("row {} has no instance id", row.position)}}),
            };
            augmented.unhinted.push(Unhinted { record });
            edits.push(None);
            continue;
        };
        augmented.hinted += 1;
        if hint.is_empty() {
            augmented.empty += 1;
        }
        edits.push(match target {
            Target::Field(_) => Some(hint.to_owned()),
            Target::AppendTo(_) if hint.trim().is_empty() => None,
            Target::AppendTo(field) => {
                let old =
                    row.value.as_ref().ok().and_then(|v| v.get(field)).and_then(Value::as_str).unwrap_or_default();
                Some(append(old, hint))
            }
        });
    }
    match dataset.format {
        Format::JsonLines | Format::JsonArray => {
            let field = match target {
                Target::Field(name) | Target::AppendTo(name) => name,
            };
            let rows: Vec<Result<Value, &hintlens_formats::Malformed>> = dataset
                .rows
                .iter()
                .zip(&edits)
                .map(|(row, edit)| {
                    let mut value = row.value.as_ref()?.clone();
                    if let (Some(text), Value::Object(fields)) = (edit, &mut value) {
                        fields.insert(field.clone(), Value::String(text.clone()));
                    }
                    Ok(value)
                })
                .collect();
            hintlens_formats::write_json(out, dataset.format, rows.iter().map(|r| r.as_ref().map_err(|e| *e)))?;
            augmented.written.push(out.to_owned());
        }
        Format::Parquet => {
            let outputs = parquet_outputs(dataset, input, out)?;
            let mut at = 0;
            for ((file, n), output) in dataset.files.iter().zip(&dataset.rows_per_file).zip(outputs) {
                let values = &edits[at..at + n];
                at += n;
                let edit = match target {
                    Target::Field(name) => ColumnEdit::Add { name, values },
                    Target::AppendTo(name) => ColumnEdit::Replace { name, values },
                };
                if let Some(parent) = output.parent() {
                    std::fs::create_dir_all(parent)
                        .map_err(|e| hintlens_formats::Error { path: parent.to_owned(), message: e.to_string() })?;
                }
                hintlens_formats::rewrite_parquet(file, &output, edit)?;
                augmented.written.push(output);
            }
        }
    }
    Ok(augmented)
}

/// The text with the hint appended under its header.
pub fn append(text: &str, hint: &str) -> String {
    let hint = hint.trim_end_matches('\n');
    if text.trim().is_empty() {
        format!("{APPENDED_HEADER}\n{hint}\n")
    } else {
        format!("{}\n\n{APPENDED_HEADER}\n{hint}\n", text.trim_end_matches('\n'))
    }
}

/// Where each Parquet file of the dataset is written: `out` itself for a single file named as
/// such, else the same relative paths below the directory `out`.
fn parquet_outputs(dataset: &Dataset, input: &Path, out: &Path) -> Result<Vec<PathBuf>, hintlens_formats::Error> {
    if dataset.files.len() == 1 && input.is_file() {
        return Ok(vec![out.to_owned()]);
    }
    if out.extension().is_some_and(|e| e.eq_ignore_ascii_case("parquet")) {
        return Err(hintlens_formats::Error {
            path: out.to_owned(),
            message: format!(
                "the dataset is {} Parquet files, written back as the same files: name a directory for --out",
                dataset.files.len()
            ),
        });
    }
    let root = if input.is_dir() { input } else { input.parent().unwrap_or(Path::new("")) };
    Ok(dataset
        .files
        .iter()
        .map(|f| out.join(f.strip_prefix(root).unwrap_or_else(|_| Path::new(f.file_name().unwrap_or_default()))))
        .collect())
}

/// The sidecar report beside an augmented dataset: `OUT.report.jsonl`.
pub fn report_path(out: &Path) -> PathBuf {
    let mut name = out.file_name().unwrap_or_default().to_owned();
    name.push(".report.jsonl");
    out.with_file_name(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn results() -> HashMap<String, Value> {
        [
            ("a", json!({"instance_id": "a", "status": "ok", "hints": {"defuse+name": "- `f`\n"}})),
            ("b", json!({"instance_id": "b", "status": "ok", "hints": {"defuse+name": ""}})),
            ("c", json!({"instance_id": "c", "status": "error", "error": {"kind": "git", "message": "boom"}})),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_owned(), v))
        .collect()
    }

    #[test]
    fn json_lines_keep_every_row_and_field() {
        let dir = tempfile::tempdir().unwrap();
        let input = dir.path().join("d.jsonl");
        let text = "{\"instance_id\":\"a\",\"problem_statement\":\"Fix it.\",\"z\":1}\n{\"instance_id\":\"b\",\"problem_statement\":\"P\"}\n{\"instance_id\":\"c\"}\n{\"instance_id\":\"d\"}\nbroken\n";
        std::fs::write(&input, text).unwrap();
        let dataset = hintlens_formats::read(&input).unwrap();
        let out = dir.path().join("out.jsonl");
        let target = Target::Field("hints".into());
        check_target(&dataset, &target).unwrap();
        let done = write_augmented(&dataset, &input, &results(), "defuse+name", &target, &out).unwrap();
        assert_eq!((done.hinted, done.empty, done.unhinted.len()), (2, 1, 3));
        assert_eq!(done.unhinted[0].summary(), "c: error (git): boom");
        assert_eq!(done.unhinted[1].summary(), "d: error (no_result): no result record has the hint `defuse+name`");
        assert_eq!(
            std::fs::read_to_string(&out).unwrap(),
            concat!(
                "{\"instance_id\":\"a\",\"problem_statement\":\"Fix it.\",\"z\":1,\"hints\":\"- `f`\\n\"}\n",
                "{\"instance_id\":\"b\",\"problem_statement\":\"P\",\"hints\":\"\"}\n",
                "{\"instance_id\":\"c\"}\n{\"instance_id\":\"d\"}\nbroken\n"
            )
        );
        let target = Target::AppendTo("problem_statement".into());
        write_augmented(&dataset, &input, &results(), "defuse+name", &target, &out).unwrap();
        let rows = hintlens_formats::read(&out).unwrap().rows;
        let first = rows[0].value.as_ref().unwrap();
        assert_eq!(first["problem_statement"], format!("Fix it.\n\n{APPENDED_HEADER}\n- `f`\n"));
        // An empty hint appends nothing.
        assert_eq!(rows[1].value.as_ref().unwrap()["problem_statement"], "P");
        let written = write_augmented(&dataset, &input, &results(), "defuse+name", &Target::Field("z".into()), &out);
        assert!(written.is_ok(), "write_augmented does not check; check_target does");
        assert!(check_target(&dataset, &Target::Field("z".into())).unwrap_err().contains("already has a field `z`"));
    }

    #[test]
    fn parquet_shards_are_written_back_as_the_same_files() {
        let dir = tempfile::tempdir().unwrap();
        let data = dir.path().join("in/data");
        std::fs::create_dir_all(&data).unwrap();
        let rows = |ids: &[&str]| -> Vec<Value> {
            ids.iter().map(|id| json!({"instance_id": id, "problem_statement": format!("P{id}")})).collect()
        };
        hintlens_formats::write(&data.join("test-00000-of-00002.parquet"), Format::Parquet, &rows(&["a", "c"]))
            .unwrap();
        hintlens_formats::write(&data.join("test-00001-of-00002.parquet"), Format::Parquet, &rows(&["b"])).unwrap();
        let input = dir.path().join("in");
        let dataset = hintlens_formats::read(&input).unwrap();
        let single = dir.path().join("out.parquet");
        let target = Target::AppendTo("problem_statement".into());
        let refused = write_augmented(&dataset, &input, &results(), "defuse+name", &target, &single);
        assert!(refused.unwrap_err().message.contains("name a directory for --out"));
        let out = dir.path().join("out");
        let done = write_augmented(&dataset, &input, &results(), "defuse+name", &target, &out).unwrap();
        assert_eq!(
            done.written,
            [out.join("data/test-00000-of-00002.parquet"), out.join("data/test-00001-of-00002.parquet")]
        );
        let back = hintlens_formats::read(&out).unwrap();
        let statements: Vec<&str> =
            back.rows.iter().map(|r| r.value.as_ref().unwrap()["problem_statement"].as_str().unwrap()).collect();
        assert_eq!(statements, [append("Pa", "- `f`\n").as_str(), "Pc", "Pb"]);
        assert_eq!(report_path(&out), dir.path().join("out.report.jsonl"));
    }
}
