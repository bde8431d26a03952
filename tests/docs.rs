//! The book's generated reference pages (docs/src/reference/): each test fails when the
//! committed page is not what the code generates now, and rewrites it when `UPDATE_DOCS=1` is
//! set (review the diff, as with insta's snapshots). And the records `hintlens batch` writes
//! match the record schema the book and the wheel ship.

use hintlens_tests::{example, hintlens, succeed};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

fn repository_file(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(path)
}

/// Compares a generated page with its committed copy, or rewrites the copy under `UPDATE_DOCS=1`.
fn check_current(path: &str, generated: &str) {
    let file = repository_file(path);
    if std::env::var_os("UPDATE_DOCS").is_some_and(|v| v == "1") {
        std::fs::write(&file, generated).unwrap();
        return;
    }
    let committed = std::fs::read_to_string(&file).unwrap_or_default();
    if committed != generated {
        let first = committed.lines().zip(generated.lines()).position(|(a, b)| a != b);
        panic!(
            "{path} is stale (first difference at line {}): run `UPDATE_DOCS=1 cargo test -p hintlens-tests --test e2e docs` and review the diff",
            first.map_or_else(|| "the shorter one's end".to_owned(), |i| (i + 1).to_string())
        );
    }
}

#[test]
fn cli_reference_is_current() {
    let output = succeed(hintlens().args(["__reference", "cli"]));
    let markdown = String::from_utf8(output.stdout).unwrap();
    for command in ["batch", "fetch", "augment", "merge", "stats", "agree", "show", "review", "judge", "lsp"] {
        assert!(markdown.contains(&format!("## `hintlens {command}`")), "no section for {command}");
    }
    assert!(!markdown.contains("## `hintlens __reference"), "the hidden command is documented");
    check_current("docs/src/reference/cli.md", &markdown);
}

fn schema_text() -> String {
    serde_json::to_string_pretty(&hintlens_batch::record_schema()).unwrap() + "\n"
}

/// One schema, in the book and in the wheel (python/hintlens, read by `hintlens.record_schema()`),
/// and the one `hintlens __reference record-schema` prints.
#[test]
fn record_schema_is_current() {
    let schema = schema_text();
    let printed = succeed(hintlens().args(["__reference", "record-schema"]));
    assert_eq!(String::from_utf8(printed.stdout).unwrap(), schema);
    check_current("docs/src/reference/record.schema.json", &schema);
    check_current("python/hintlens/record.schema.json", &schema);
}

/// Every kind of record the batch writes — ok, error (with and without a repository) and
/// unsupported — validates against the committed schema, whose objects admit no unknown field.
#[test]
fn batch_records_match_the_schema() {
    let schema: Value = serde_json::from_str(
        &std::fs::read_to_string(repository_file("docs/src/reference/record.schema.json")).unwrap(),
    )
    .unwrap();
    let validator = jsonschema::validator_for(&schema).expect("the schema is a valid JSON Schema");

    let tasks = std::fs::read_to_string(example().join("tasks.jsonl")).unwrap();
    let mut lines: Vec<String> = tasks.lines().map(str::to_owned).collect();
    let good: Value = serde_json::from_str(&lines[0]).unwrap();
    let mut missing_repo = good.clone();
    missing_repo["instance_id"] = json!("missing-repo");
    missing_repo["repo"] = json!("acme/nothere");
    let mut unsupported = good.clone();
    unsupported["instance_id"] = json!("unsupported");
    unsupported["patch"] = json!(
        "diff --git a/tool.lua b/tool.lua\nnew file mode 100644\n--- /dev/null\n+++ b/tool.lua\n@@ -0,0 +1 @@\n+print(1)\n"
    );
    unsupported["test_patch"] = json!("");
    let no_id = json!({"repo": "acme/textkit"});
    lines.extend([missing_repo.to_string(), unsupported.to_string(), no_id.to_string()]);

    let dir = tempfile::tempdir().unwrap();
    let dataset = dir.path().join("tasks.jsonl");
    std::fs::write(&dataset, lines.join("\n") + "\n").unwrap();
    let output = hintlens()
        .arg("batch")
        .arg(&dataset)
        .arg("--repos")
        .arg(example().join("repos"))
        .args(["--selection", "defuse", "--selection", "fea", "--selection", "strings"])
        .args(["--told", "problem_statement"])
        .output()
        .unwrap();
    let records: Vec<Value> =
        String::from_utf8_lossy(&output.stdout).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let statuses: Vec<&str> = records.iter().map(|r| r["status"].as_str().unwrap()).collect();
    for status in ["ok", "error", "unsupported"] {
        assert!(statuses.contains(&status), "no {status} record among {statuses:?}");
    }
    assert!(records.iter().any(|r| r["told"] == json!(["problem_statement"])), "no record names what it was told");
    let answered = records
        .iter()
        .find(|r| r["selections"]["defuse"].as_array().is_some_and(|ids| !ids.is_empty()))
        .expect("some task selects identifiers");
    for record in &records {
        let errors: Vec<String> =
            validator.iter_errors(record).map(|e| format!("{} at {}", e, e.instance_path())).collect();
        assert!(errors.is_empty(), "{} does not match the schema:\n{}", record["instance_id"], errors.join("\n"));
    }
    // The schema is no blank cheque: a field the writer does not write is refused.
    let mut extra = answered.clone();
    extra["surprise"] = json!(1);
    assert!(!validator.is_valid(&extra));
    let mut extra = answered.clone();
    extra["selections"]["defuse"][0]["surprise"] = json!(1);
    assert!(!validator.is_valid(&extra), "an identifier admits unknown fields");
}
