//! `hintlens audit` end to end: inline results and datasets as fixtures, the markdown and JSON
//! reports (snapshots), the told fields by default and by `--told`, the `--hint` counts, every
//! refusal (with nothing written), and `batch --told` agreeing with the audit on the example.

use hintlens_tests::{example, hintlens, succeed};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

/// A DefUse identifier as `hintlens batch` writes it.
fn ident(name: &str, qualified: &str, kind: &str, direction: &str, base: usize, uses: &[(&str, u32)]) -> Value {
    let path = format!("{}.py", qualified.rsplit_once('.').map_or(qualified, |(m, _)| m).replace('.', "/"));
    json!({
        "name": name, "qualified_name": qualified, "kind": kind, "path": path, "line": 4,
        "is_new_file": false, "signature": format!("def {name}()"), "parent": null, "direction": direction,
        "resolution": "import",
        "evidence": uses.iter().map(|(p, l)| json!({"path": p, "line": l, "rule": "import"})).collect::<Vec<_>>(),
        "base_occurrences": base, "in_problem_statement": false, "necessity": if base > 0 { 1 } else { 3 },
        "doc": null, "entity": "definition", "local_name": name,
    })
}

fn ok(id: &str, repo: &str, defuse: Vec<Value>) -> Value {
    json!({"instance_id": id, "repo": repo, "status": "ok", "selections": {"defuse": defuse}, "hints": {}})
}

/// Four tasks of two repositories (one failed) and the dataset they came from, in SWE-bench
/// Pro's shape, with a hinted dataset's `hint` field.
fn fixture(dir: &Path) -> (PathBuf, PathBuf) {
    let results = [
        ok(
            "acme__shop-1",
            "acme/shop",
            vec![
                ident(
                    "apply_coupon",
                    "shop.cart.apply_coupon",
                    "function",
                    "code->test",
                    0,
                    &[("tests/test_cart.py", 3), ("tests/test_cart.py", 9)],
                ),
                ident("total", "shop.cart.total", "function", "code->test", 5, &[("tests/test_cart.py", 10)]),
                ident("Coupon", "shop.coupons.Coupon", "class", "code->test", 0, &[("tests/test_cart.py", 2)]),
            ],
        ),
        ok(
            "acme__shop-2",
            "acme/shop",
            vec![ident("refund", "shop.orders.refund", "function", "code->test", 0, &[("tests/test_orders.py", 12)])],
        ),
        json!({"instance_id": "acme__shop-3", "repo": "acme/shop", "status": "error", "error": {"kind": "git", "message": "m"}}),
        ok(
            "acme__cli-1",
            "acme/cli",
            vec![
                ident("parse_flags", "cli.args.parse_flags", "function", "code->test", 0, &[("tests/test_args.py", 5)]),
                ident("on_flag", "tests.fakes.on_flag", "function", "test->code", 0, &[("cli/args.py", 8)]),
            ],
        ),
    ];
    let rows = [
        json!({"instance_id": "acme__shop-1", "repo": "acme/shop", "problem_statement": "Carts should take a Coupon.",
               "requirements": "The cart must apply a coupon code.", "interface": "",
               "hint": ["apply_coupon", "total"]}),
        json!({"instance_id": "acme__shop-2", "repo": "acme/shop", "problem_statement": "Orders cannot be refunded.",
               "requirements": "", "interface": "Name: refund\nType: Function\nPath: shop/orders.py",
               "hint": []}),
        json!({"instance_id": "acme__shop-3", "repo": "acme/shop", "problem_statement": "x", "requirements": "", "interface": ""}),
        json!({"instance_id": "acme__cli-1", "repo": "acme/cli", "problem_statement": "Parse the flags.",
               "requirements": "", "interface": "", "hint": {"names": ["on_flag"]}}),
    ];
    let write = |name: &str, lines: &[Value]| {
        let path = dir.join(name);
        std::fs::write(&path, lines.iter().map(|l| format!("{l}\n")).collect::<String>()).unwrap();
        path
    };
    (write("results.jsonl", &results), write("dataset.jsonl", &rows))
}

fn audit(results: &Path, dataset: &Path, args: &[&str]) -> std::process::Output {
    hintlens().arg("audit").arg(results).arg("--dataset").arg(dataset).args(args).output().unwrap()
}

fn stdout(output: &std::process::Output) -> String {
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8(output.stdout.clone()).unwrap()
}

#[test]
fn markdown_names_each_hidden_contract_with_its_uses() {
    let dir = tempfile::tempdir().unwrap();
    let (results, dataset) = fixture(dir.path());
    let output = audit(&results, &dataset, &["--hint", "hint", "--hint", "defuse+declaration"]);
    let text = stdout(&output);
    insta::assert_snapshot!("audit_markdown", text);
    // The told fields are SWE-bench Pro's, read from the rows' shape, and said so.
    assert!(
        text.starts_with("Told: `problem_statement`, `requirements`, `interface` (the defaults for SWE-bench Pro"),
        "{text}"
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("audited 3 tasks (2 with a hidden contract)"), "{stderr}");
}

#[test]
fn json_counts_per_task_repository_and_hint() {
    let dir = tempfile::tempdir().unwrap();
    let (results, dataset) = fixture(dir.path());
    let output = audit(
        &results,
        &dataset,
        &["--told", "problem_statement", "--hint", "hint", "--hint", "defuse+name", "--format", "json"],
    );
    let report: Value = serde_json::from_str(&stdout(&output)).unwrap();
    insta::assert_snapshot!("audit_json_problem_statement_only", serde_json::to_string_pretty(&report).unwrap());
    assert_eq!(report["told"], json!(["problem_statement"]));
    assert_eq!(report["told_from"], "--told");
    // Told the problem statement alone: `Coupon` is stated; apply_coupon, refund and
    // parse_flags are hidden; `total` occurs at the base and is no contract; the test's own
    // `on_flag` (test->code) is none either.
    assert_eq!(
        report["overall"],
        json!({"repo": "overall", "tasks": 3, "with_hidden": 3, "hidden": 3, "contracts": 4})
    );
    assert_eq!(report["left_out"], json!({"errors": 1, "unsupported": 0, "not_in_dataset": []}));
    let repos: Vec<(&str, u64)> = report["repositories"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["repo"].as_str().unwrap(), r["hidden"].as_u64().unwrap()))
        .collect();
    assert_eq!(repos, [("acme/cli", 1), ("acme/shop", 2)]);
    // The hint field closes apply_coupon and spoils `total` (shop-1) and on_flag (cli-1).
    assert_eq!(report["hints"][0], json!({"hint": "hint", "closes": 1, "leaves": 2, "tasks_left": 2, "spoils": 2}));
    // hintlens' own names hint closes every hidden contract, and names `total` and `on_flag` too.
    assert_eq!(
        report["hints"][1],
        json!({"hint": "defuse+name", "closes": 3, "leaves": 0, "tasks_left": 0, "spoils": 2})
    );
    let shop1 = &report["tasks"][0];
    assert_eq!(shop1["hidden"][0]["uses"], json!(["tests/test_cart.py:3", "tests/test_cart.py:9"]));
    assert_eq!(shop1["hints"][0]["spoils"], json!(["total"]));

    // Told requirements and interface too (the default here): `refund` is in the interface,
    // `apply_coupon` is not a word of "apply a coupon".
    let all = audit(&results, &dataset, &["--format", "json"]);
    let report: Value = serde_json::from_str(&stdout(&all)).unwrap();
    let hidden: Vec<&str> = report["tasks"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|t| t["hidden"].as_array().unwrap().iter().map(|c| c["name"].as_str().unwrap()))
        .collect();
    assert_eq!(hidden, ["apply_coupon", "parse_flags"]);
    // A told field that states more is the same as a hint: told `hint`, apply_coupon is told.
    let told_hint = audit(&results, &dataset, &["--told", "problem_statement", "--told", "hint", "--format", "json"]);
    let report: Value = serde_json::from_str(&stdout(&told_hint)).unwrap();
    assert_eq!(report["overall"]["hidden"], 2);
}

#[test]
fn bad_input_is_refused_and_nothing_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let (results, dataset) = fixture(dir.path());
    let out = dir.path().join("audit.md");
    let refused = |args: &[&str], dataset: &Path| {
        let mut all = args.to_vec();
        all.extend(["--out", out.to_str().unwrap()]);
        let output = audit(&results, dataset, &all);
        assert_eq!(output.status.code(), Some(2), "{output:?}");
        assert!(output.stdout.is_empty());
        assert!(!out.exists(), "nothing is written");
        assert!(!dir.path().join(".audit.md.tmp").exists(), "no temporary file is left");
        String::from_utf8(output.stderr).unwrap()
    };
    // A told field the dataset lacks: which, and which fields it has.
    let e = refused(&["--told", "problem_statment"], &dataset);
    assert_eq!(
        e.trim(),
        "error: told field `problem_statment` is not a field of the dataset (its rows have: instance_id, repo, \
         problem_statement, requirements, interface, hint)"
    );
    let e = refused(&["--hint", "hints"], &dataset);
    assert!(e.contains("hint field `hints` is not a field of the dataset"), "{e}");
    let e = refused(&["--hint", "fea+declaration"], &dataset);
    assert!(e.contains("no record carries the `fea` selection"), "{e}");
    let e = refused(&["--hint", "defuse+prose"], &dataset);
    assert!(e.contains("unknown projection `prose`"), "{e}");

    // Results and a dataset that share no instance id.
    let other = dir.path().join("other.jsonl");
    std::fs::write(&other, "{\"instance_id\": \"django__django-1\", \"problem_statement\": \"p\"}\n").unwrap();
    let e = refused(&[], &other);
    assert!(e.contains("the results and the dataset share no instance id (results: 4 ids, e.g. `acme__shop-1`"), "{e}");
    // Results of another dataset: most of their ids are not in it.
    std::fs::write(&other, "{\"instance_id\": \"acme__shop-1\", \"problem_statement\": \"p\"}\n").unwrap();
    let e = refused(&[], &other);
    assert!(e.contains("3 of the 4 result records are of tasks the dataset lacks"), "{e}");
    assert!(e.contains("another dataset"), "{e}");
    std::fs::remove_file(&other).unwrap();

    // A few missing ids are left out, said on standard error and in the report.
    let rows = std::fs::read_to_string(&dataset).unwrap();
    let fewer = dir.path().join("fewer.jsonl");
    std::fs::write(
        &fewer,
        rows.lines().filter(|l| !l.contains("acme__cli-1")).map(|l| format!("{l}\n")).collect::<String>(),
    )
    .unwrap();
    let output = audit(&results, &fewer, &["--format", "json"]);
    let report: Value = serde_json::from_str(&stdout(&output)).unwrap();
    assert_eq!(report["left_out"]["not_in_dataset"], json!(["acme__cli-1"]));
    assert!(String::from_utf8_lossy(&output.stderr).contains("1 result records are of tasks the dataset lacks"));
    std::fs::remove_file(&fewer).unwrap();

    // And once every check passes, --out holds the report.
    succeed(hintlens().arg("audit").arg(&results).arg("--dataset").arg(&dataset).arg("--out").arg(&out));
    assert!(std::fs::read_to_string(&out).unwrap().contains("## Per repository"));
}

#[test]
fn batch_told_computes_necessity_as_the_audit_decides() {
    let dir = tempfile::tempdir().unwrap();
    // The example, with an interface naming truncate_slug.
    let text = std::fs::read_to_string(example().join("tasks.jsonl")).unwrap();
    let rows: Vec<Value> = text
        .lines()
        .map(|l| {
            let mut row: Value = serde_json::from_str(l).unwrap();
            if row["instance_id"] == "acme__textkit-1" {
                row["interface"] = json!("Function: textkit.slug.truncate_slug(slug, max_length)");
            }
            row
        })
        .collect();
    let dataset = dir.path().join("tasks.jsonl");
    std::fs::write(&dataset, rows.iter().map(|r| format!("{r}\n")).collect::<String>()).unwrap();
    let run = |told: &[&str], out: &Path| {
        let mut cmd = hintlens();
        cmd.arg("batch").arg(&dataset).arg("--repos").arg(example().join("repos")).arg("--out").arg(out);
        for t in told {
            cmd.args(["--told", t]);
        }
        succeed(&mut cmd);
        let text = std::fs::read_to_string(out).unwrap();
        text.lines().map(|l| serde_json::from_str::<Value>(l).unwrap()).collect::<Vec<_>>()
    };
    let necessity = |records: &[Value], name: &str| {
        let r = records.iter().find(|r| r["instance_id"] == "acme__textkit-1").unwrap();
        let id = r["selections"]["defuse"].as_array().unwrap().iter().find(|i| i["name"] == name).unwrap();
        (id["necessity"].as_u64().unwrap(), r.get("told").cloned())
    };
    // By default the problem statement alone, as before, and records say nothing new.
    let default = run(&[], &dir.path().join("default.jsonl"));
    assert_eq!(necessity(&default, "truncate_slug"), (3, None));
    assert_eq!(necessity(&default, "separator"), (0, None));
    let told = run(&["problem_statement", "interface"], &dir.path().join("told.jsonl"));
    assert_eq!(necessity(&told, "truncate_slug"), (0, Some(json!(["problem_statement", "interface"]))));
    assert_eq!(necessity(&told, "separator").0, 0);
    // The audit told the same fields agrees: a load-bearing name is hidden exactly where the
    // batch's necessity is 3.
    let output = audit(
        &dir.path().join("told.jsonl"),
        &dataset,
        &["--told", "problem_statement", "--told", "interface", "--format", "json"],
    );
    let report: Value = serde_json::from_str(&stdout(&output)).unwrap();
    for task in report["tasks"].as_array().unwrap() {
        let record = told.iter().find(|r| r["instance_id"] == task["instance_id"]).unwrap();
        let mut expected: Vec<&str> = record["selections"]["defuse"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|i| i["direction"] == "code->test" && i["necessity"] == 3)
            .map(|i| i["qualified_name"].as_str().unwrap())
            .collect();
        expected.dedup();
        let hidden: Vec<&str> =
            task["hidden"].as_array().unwrap().iter().map(|c| c["qualified_name"].as_str().unwrap()).collect();
        assert_eq!(hidden, expected, "{}", task["instance_id"]);
    }
    // A told field no row has is a usage error naming the fields there are.
    let output = hintlens()
        .arg("batch")
        .arg(&dataset)
        .arg("--repos")
        .arg(example().join("repos"))
        .args(["--told", "requirements"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("--told `requirements` is not a field of the dataset (its rows have: instance_id, repo"),
        "{stderr}"
    );
    assert!(output.stdout.is_empty(), "no record is written");
}
