//! The policy, projection, provider and report commands of `hintlens`, run as a user would on
//! the shipped example: every selection × projection lands in a record, a configured stand-in
//! provider fills `declaration-doc`, and `stats` and `agree` read the results back.

use hintlens_tests::{example, hintlens, succeed};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

const SELECTIONS: [&str; 7] = ["defuse", "doc2feat", "fea", "pro", "all-new", "strings", "empty"];
const PROJECTIONS: [&str; 9] = [
    "name",
    "name-kind",
    "declaration",
    "declaration-doc",
    "pro",
    "fea-brief",
    "fea-detailed",
    "nocode",
    "pro-interface",
];

/// Runs the whole example through every policy and projection, with a stand-in provider.
fn batch_everything(dir: &Path) -> PathBuf {
    let config = dir.join("hintlens.toml");
    // The stand-in answers from the request it reads: the identifier's name comes back.
    let script = r#"input=$(cat); name=$(printf %s "$input" | sed -n 's/.*"name":"\([^"]*\)".*/\1/p'); printf '{"doc": "Stand-in doc of %s.", "behaviour": "Stand-in behaviour."}' "$name""#;
    std::fs::write(&config, format!("[provider]\ncommand = [\"sh\", \"-c\", {}]\n", json!(script))).unwrap();
    let out = dir.join("results.jsonl");
    let mut cmd = hintlens();
    cmd.arg("batch").arg(example().join("tasks.jsonl")).arg("--repos").arg(example().join("repos"));
    for s in SELECTIONS {
        cmd.args(["--selection", s]);
    }
    for p in PROJECTIONS {
        cmd.args(["--projection", p]);
    }
    cmd.arg("--config").arg(&config).arg("--out").arg(&out);
    succeed(&mut cmd);
    out
}

fn records(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect()
}

#[test]
fn every_selection_and_projection_with_a_configured_provider() {
    let dir = tempfile::tempdir().unwrap();
    let results = records(&batch_everything(dir.path()));
    assert_eq!(results.len(), 5);
    for r in &results {
        assert_eq!(r["status"], "ok", "{r:#}");
        for s in SELECTIONS {
            assert!(r["selections"][s].is_array(), "{s} in {r:#}");
            for p in PROJECTIONS {
                assert!(r["hints"][format!("{s}+{p}")].is_string(), "{s}+{p}");
            }
        }
        assert!(r["released"].is_object());
    }
    let first = results.iter().find(|r| r["instance_id"] == "acme__textkit-1").unwrap();
    let doc = first["hints"]["defuse+declaration-doc"].as_str().unwrap();
    assert!(doc.contains("Stand-in doc of truncate_slug."), "{doc}");
    let pro = first["hints"]["defuse+pro"].as_str().unwrap();
    assert!(pro.contains("Stand-in behaviour."), "{pro}");
    // The record keeps what the provider said of each identifier, for the judge to rate.
    let truncate =
        first["selections"]["defuse"].as_array().unwrap().iter().find(|i| i["name"] == "truncate_slug").unwrap();
    assert_eq!(
        truncate["description"],
        json!({"doc": "Stand-in doc of truncate_slug.", "behaviour": "Stand-in behaviour."})
    );
    let interface = first["hints"]["defuse+pro-interface"].as_str().unwrap();
    assert!(interface.contains("Name: truncate_slug\nType: Function\nPath: textkit/slug.py\n"), "{interface}");
    assert!(interface.contains("Description: Stand-in doc of truncate_slug."), "{interface}");
    // No interface in the record: `pro` selects as `all-new` does.
    assert_eq!(first["selections"]["pro"], first["selections"]["all-new"]);
    let nocode: Value = serde_json::from_str(first["hints"]["doc2feat+nocode"].as_str().unwrap()).unwrap();
    assert!(nocode["header"].as_str().unwrap().starts_with("If completing this task requires"));
    assert_eq!(first["hints"]["empty+declaration"], "");
    // Every identifier carries the repository facts, whichever policy selected it.
    for s in SELECTIONS {
        for id in first["selections"][s].as_array().unwrap() {
            assert!(id["necessity"].is_u64() && id["base_occurrences"].is_u64(), "{s}: {id:#}");
        }
    }
}

#[test]
fn stats_and_agree_read_the_results_back() {
    let dir = tempfile::tempdir().unwrap();
    let results = batch_everything(dir.path());
    let stats = succeed(hintlens().arg("stats").arg(&results));
    let table = String::from_utf8(stats.stdout).unwrap();
    assert!(table.contains("| selection | tasks | non-empty | total | mean | mean per non-empty |"), "{table}");
    assert!(table.contains("| empty | 5 | 0 | 0 | 0.00 | 0.00 |"), "{table}");
    assert!(table.contains("| defuse+declaration | 5 |"), "{table}");
    let json_stats: Value =
        serde_json::from_slice(&succeed(hintlens().arg("stats").arg(&results).args(["--format", "json"])).stdout)
            .unwrap();
    assert_eq!(json_stats["records"], 5);

    // A released FEA-style field, joined from a dataset on instance_id.
    let dataset = dir.path().join("released.jsonl");
    let line = json!({"instance_id": "acme__textkit-1", "new_components": [
        {"file": "textkit/slug.py", "components": [{"type": "function", "name": "truncate_slug"}, {"type": "function", "name": "shorten"}]}
    ]});
    std::fs::write(&dataset, format!("{line}\n")).unwrap();
    let agree = succeed(
        hintlens()
            .arg("agree")
            .arg(&results)
            .args(["--selection", "fea", "--reference", "new_components", "--format", "json", "--dataset"])
            .arg(&dataset),
    );
    let report: Value = serde_json::from_slice(&agree.stdout).unwrap();
    assert_eq!(report["overall"]["tasks"], 1);
    assert_eq!(report["tasks"][0]["only_released"], json!(["textkit/slug.py::shorten"]));
    assert_eq!(report["missing_reference"].as_array().unwrap().len(), 4);
    // Without any released field, agree says so and fails.
    let none =
        hintlens().arg("agree").arg(&results).args(["--selection", "fea", "--field", "interface"]).output().unwrap();
    assert_eq!(none.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&none.stderr).contains("no task has both"), "{none:?}");
}

#[test]
fn a_broken_configuration_is_a_usage_error() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("bad.toml");
    std::fs::write(&config, "[provider]\nurl = \"http://127.0.0.1:9/\"\n").unwrap();
    let output = hintlens()
        .arg("batch")
        .arg(example().join("tasks.jsonl"))
        .arg("--repos")
        .arg(example().join("repos"))
        .arg("--config")
        .arg(&config)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("needs `model`"), "{output:?}");
}
