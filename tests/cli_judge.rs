//! `hintlens judge` end to end on the shipped example: batch (with a stand-in description
//! provider, so the semantic attributes exist) → export → run against a loopback stand-in judge
//! answering by a fixed rule (one overload to retry, one attribute answered in prose) → import →
//! report, checked against the figures the rule must give.

use hintlens_judge::standin::{Reply, StandIn, fixed_rule, rated};
use hintlens_judge::{Attribute, Call};
use hintlens_tests::{example, hintlens, succeed};
use serde_json::{Value, json};
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

fn lines(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect()
}

/// The example's DefUse identifiers, with descriptions from a stand-in provider.
fn results(dir: &Path) -> std::path::PathBuf {
    let config = dir.join("describe.toml");
    let script = r#"cat >/dev/null; printf '{"doc": "Stand-in doc.", "behaviour": "Stand-in behaviour paragraph."}'"#;
    std::fs::write(&config, format!("[provider]\ncommand = [\"sh\", \"-c\", {}]\n", json!(script))).unwrap();
    let out = dir.join("results.jsonl");
    succeed(
        hintlens()
            .arg("batch")
            .arg(example().join("tasks.jsonl"))
            .arg("--repos")
            .arg(example().join("repos"))
            .args(["--projection", "pro", "--config"])
            .arg(&config)
            .arg("--out")
            .arg(&out),
    );
    out
}

#[test]
fn export_run_import_report() {
    let dir = tempfile::tempdir().unwrap();
    let results = results(dir.path());
    let records = lines(&results);
    let identifiers: Vec<&Value> = records.iter().flat_map(|r| r["selections"]["defuse"].as_array().unwrap()).collect();
    assert!(identifiers.len() >= 3, "the example selects a few identifiers");
    assert!(identifiers.iter().all(|id| id["description"]["behaviour"] == "Stand-in behaviour paragraph."));

    // Export: seven attributes (every identifier is described), two calls, three samples.
    let prompts = dir.path().join("prompts.jsonl");
    let export = succeed(
        hintlens()
            .args(["judge", "export"])
            .arg(&results)
            .arg("--dataset")
            .arg(example().join("tasks.jsonl"))
            .arg("--out")
            .arg(&prompts),
    );
    let with_signature = identifiers.iter().filter(|id| id["signature"] != "").count();
    let pairs = identifiers.len() * 6 + with_signature;
    let exported = lines(&prompts);
    assert_eq!(exported.len(), pairs * 2 * 3);
    let stderr = String::from_utf8_lossy(&export.stderr);
    assert!(stderr.contains(&format!("{} calls (3 samples each)", pairs * 6)), "{stderr}");

    // The stand-in: overloaded once, then the fixed rule, except that it answers the necessity
    // of is_new_file in prose.
    let first = Arc::new(AtomicUsize::new(0));
    let seen = first.clone();
    let server = StandIn::start(move |request: &Value| {
        if seen.fetch_add(1, Ordering::SeqCst) == 0 {
            return Reply { status: 503, body: "overloaded".into() };
        }
        match rated(request) {
            Some((Call::Necessity, Attribute::IsNewFile, _)) => Reply::content("It depends on the layout, really."),
            _ => fixed_rule(request),
        }
    })
    .unwrap();

    // Nothing is sent without a [judge] table.
    let bad = dir.path().join("bad.toml");
    std::fs::write(&bad, "[provider]\ncommand = [\"true\"]\n").unwrap();
    let answers = dir.path().join("answers.jsonl");
    let refused = hintlens()
        .args(["judge", "run"])
        .arg(&prompts)
        .arg("--config")
        .arg(&bad)
        .arg("--out")
        .arg(&answers)
        .output()
        .unwrap();
    assert_eq!(refused.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("no [judge] table"), "{refused:?}");
    let no_config = hintlens().args(["judge", "run"]).arg(&prompts).arg("--out").arg(&answers).output().unwrap();
    assert_eq!(no_config.status.code(), Some(2));
    assert_eq!(server.requests(), 0);

    let config = dir.path().join("judge.toml");
    std::fs::write(
        &config,
        format!("[judge]\nurl = \"{}\"\nmodel = \"stand-in\"\nbackoff_seconds = 0.01\n", server.url()),
    )
    .unwrap();
    let judge_run = |out: &Path| {
        succeed(
            hintlens()
                .args(["judge", "run"])
                .arg(&prompts)
                .arg("--config")
                .arg(&config)
                .arg("--out")
                .arg(out)
                .args(["--concurrency", "3"]),
        )
    };
    judge_run(&answers);
    assert_eq!(lines(&answers).len(), exported.len());
    assert_eq!(server.requests(), exported.len() + 1, "one retry, then each call once");
    // Resumed: nothing left to ask.
    let again = judge_run(&answers);
    assert_eq!(server.requests(), exported.len() + 1);
    assert!(
        String::from_utf8_lossy(&again.stderr)
            .contains(&format!("0 answered, 0 failed, {} already answered", exported.len()))
    );

    let judged = dir.path().join("judged.jsonl");
    let import = succeed(hintlens().args(["judge", "import"]).arg(&prompts).arg(&answers).arg("--out").arg(&judged));
    let unparsable = identifiers.len() * 3;
    assert!(
        String::from_utf8_lossy(&import.stderr)
            .contains(&format!("{} answers read, {unparsable} unparsable, 0 prompts unanswered", exported.len())),
        "{}",
        String::from_utf8_lossy(&import.stderr)
    );

    let report = succeed(
        hintlens()
            .args(["judge", "report"])
            .arg(&judged)
            .args(["--format", "json", "--bootstrap", "2000", "--seed", "3"]),
    );
    let table: Value = serde_json::from_slice(&report.stdout).unwrap();
    assert_eq!(table["unparsable"], unparsable);
    assert_eq!(
        table["instances"],
        records.iter().filter(|r| !r["selections"]["defuse"].as_array().unwrap().is_empty()).count()
    );
    let row =
        |name: &str| table["attributes"].as_array().unwrap().iter().find(|r| r["attribute"] == name).unwrap().clone();
    let n = identifiers.len();
    // name: LOAD-BEARING (3) where the name is in no base file, else SEARCH-SAVING (1).
    let absent = identifiers.iter().filter(|id| id["base_occurrences"] == 0).count();
    let name = row("name");
    assert_eq!(name["identifiers"], n);
    let expected = (3 * absent + (n - absent)) as f64 / n as f64;
    assert!((name["N"]["mean"].as_f64().unwrap() - expected).abs() < 1e-9, "{name}");
    assert_eq!(name["HVM"]["mean"], name["N"]["mean"]);
    assert_eq!(name["unanimity"], json!({"N": 1.0, "D": 1.0, "G": 1.0}));
    // The others are constant: their intervals collapse onto the means.
    for (attribute, count, [en, ed, eg, ehvm]) in [
        ("entity_type", n, [0.0, 0.0, 0.0, 0.0]),
        ("path", n, [2.0, 0.0, 1.0, 1.0]),
        ("signature", with_signature, [0.0, 0.0, 0.0, 0.0]),
        ("weak_semantics", n, [0.0, 1.0, 1.0, -1.0]),
        ("strong_semantics", n, [0.0, 2.0, 2.0, -2.0]),
    ] {
        let r = row(attribute);
        assert_eq!(r["identifiers"], count, "{r}");
        for (scale, e) in [("N", en), ("D", ed), ("G", eg), ("HVM", ehvm)] {
            assert_eq!(r[scale], json!({"mean": e, "ci": [e, e]}), "{attribute} {scale}");
        }
    }
    // is_new_file: every necessity answer was prose, so no identifier is judged on it.
    let new_file = row("is_new_file");
    assert_eq!(new_file["identifiers"], 0);
    assert_eq!(new_file["HVM"], json!({"mean": null, "ci": null}));

    let markdown = succeed(hintlens().args(["judge", "report"]).arg(&judged).args(["--bootstrap", "500"]));
    let markdown = String::from_utf8(markdown.stdout).unwrap();
    assert!(markdown.contains("| entity_type | "), "{markdown}");
    assert!(
        markdown.lines().any(|l| l.starts_with("| entity_type |") && l.contains("0.00 [0.00, 0.00] ∗")),
        "{markdown}"
    );
    assert!(markdown.lines().any(|l| l.starts_with("| path |") && !l.contains('∗')), "{markdown}");
    let svg =
        succeed(hintlens().args(["judge", "report"]).arg(&judged).args(["--format", "svg", "--bootstrap", "500"]));
    let svg = String::from_utf8(svg.stdout).unwrap();
    assert!(
        svg.starts_with("<svg ") && svg.trim_end().ends_with("</svg>") && svg.contains("strong_semantics"),
        "{svg}"
    );
}

#[test]
fn export_names_what_it_cannot_find() {
    let dir = tempfile::tempdir().unwrap();
    let results = dir.path().join("results.jsonl");
    let identifier = json!({"name": "f", "qualified_name": "m.f", "kind": "function", "path": "m.py", "is_new_file": false, "signature": "def f()", "base_occurrences": 0});
    std::fs::write(
        &results,
        format!("{}\n", json!({"instance_id": "x-1", "status": "ok", "selections": {"defuse": [identifier]}})),
    )
    .unwrap();
    // The dataset has the instance without its patches: the record is named, nothing written.
    let dataset = dir.path().join("instances.jsonl");
    std::fs::write(
        &dataset,
        format!(
            "{}\n",
            json!({"instance_id": "x-1", "repo": "o/x", "base_commit": "abc", "problem_statement": "Fix it."})
        ),
    )
    .unwrap();
    let out = dir.path().join("prompts.jsonl");
    let fail = hintlens()
        .args(["judge", "export"])
        .arg(&results)
        .arg("--dataset")
        .arg(&dataset)
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(fail.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&fail.stderr);
    assert!(stderr.contains("x-1: record 1 has no code patch") && stderr.contains("another --dataset"), "{stderr}");
    assert!(!out.exists());
    // A second file with the patches completes it.
    let patches = dir.path().join("patches.jsonl");
    std::fs::write(&patches, format!("{}\n", json!({"instance_id": "x-1", "patch": "diff --git a/m.py b/m.py\n", "test_patch": "diff --git a/t.py b/t.py\n"}))).unwrap();
    succeed(
        hintlens()
            .args(["judge", "export"])
            .arg(&results)
            .arg("--dataset")
            .arg(&dataset)
            .arg("--dataset")
            .arg(&patches)
            .args(["--samples", "1"])
            .arg("--out")
            .arg(&out),
    );
    let prompts = lines(&out);
    assert_eq!(prompts.len(), 5 * 2, "name, entity_type, path, is_new_file, signature; two calls");
    let user = prompts[1]["messages"][1]["content"].as_str().unwrap();
    assert!(user.contains("```diff\ndiff --git a/m.py b/m.py\n```") && user.contains("Fix it."), "{user}");
}
