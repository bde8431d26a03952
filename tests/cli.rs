//! The `hintlens` command line, run as a user would: every error path of `batch` yields a
//! record saying what and where, the run goes on, and the exit status tells.

use serde_json::{Value, json};

use hintlens_tests::{example, hintlens};
use std::process::Output;

fn example_tasks() -> Vec<Value> {
    std::fs::read_to_string(example().join("tasks.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn records(output: &[u8]) -> Vec<Value> {
    String::from_utf8_lossy(output)
        .lines()
        .map(|l| serde_json::from_str(l).expect("every output line is JSON"))
        .collect()
}

fn by_id<'a>(records: &'a [Value], id: &str) -> &'a Value {
    records.iter().find(|r| r["instance_id"] == id).unwrap_or_else(|| panic!("no record for {id}: {records:#?}"))
}

fn run_batch(dataset_lines: &[String], extra: &[&str]) -> (Output, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let dataset = dir.path().join("tasks.jsonl");
    std::fs::write(&dataset, dataset_lines.join("\n") + "\n").unwrap();
    let output =
        hintlens().arg("batch").arg(&dataset).arg("--repos").arg(example().join("repos")).args(extra).output().unwrap();
    (output, dir)
}

#[test]
fn the_example_runs_clean() {
    let lines: Vec<String> = example_tasks().iter().map(|t| t.to_string()).collect();
    let (output, _dir) = run_batch(&lines, &[]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    let records = records(&output.stdout);
    assert_eq!(records.len(), 5);
    assert!(records.iter().all(|r| r["status"] == "ok"), "{records:#?}");
    let first = by_id(&records, "acme__textkit-1");
    let names: Vec<&str> =
        first["selections"]["defuse"].as_array().unwrap().iter().map(|i| i["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["separator", "truncate_slug"]);
    assert!(
        first["hints"]["defuse+declaration"]
            .as_str()
            .unwrap()
            .contains("def truncate_slug(slug: str, max_length: int = 20) -> str")
    );
    // Not a terminal: plain progress lines, then a summary.
    assert!(stderr.contains("[5/5]"), "{stderr}");
    assert!(stderr.contains("5 tasks, 5 ok, 0 unsupported, 0 failed"), "{stderr}");
}

#[test]
fn every_failing_task_gets_an_error_record_and_the_run_goes_on() {
    let good = example_tasks()[0].clone();
    let mut missing_repo = good.clone();
    missing_repo["instance_id"] = json!("missing-repo");
    missing_repo["repo"] = json!("acme/nothere");
    let mut missing_commit = good.clone();
    missing_commit["instance_id"] = json!("missing-commit");
    missing_commit["base_commit"] = json!("0123456789abcdef0123456789abcdef01234567");
    let mut bad_patch = good.clone();
    bad_patch["instance_id"] = json!("bad-patch");
    bad_patch["patch"] = json!(
        "diff --git a/textkit/slug.py b/textkit/slug.py\n--- a/textkit/slug.py\n+++ b/textkit/slug.py\n@@ -1,2 +1,2 @@\n-def nothing_like_this():\n+def x():\n     pass\n"
    );
    let no_repo_field = json!({"instance_id": "no-repo", "base_commit": "abc", "patch": ""});
    let lines = vec![
        good.to_string(),
        missing_repo.to_string(),
        missing_commit.to_string(),
        bad_patch.to_string(),
        no_repo_field.to_string(),
        "{ this is not json".to_owned(),
    ];
    let (output, _dir) = run_batch(&lines, &[]);
    assert_eq!(output.status.code(), Some(1), "any failed task makes the exit status 1");
    let records = records(&output.stdout);
    assert_eq!(records.len(), 6, "one record per task, failures included");

    assert_eq!(by_id(&records, "acme__textkit-1")["status"], "ok");

    let error = |r: &Value| {
        (r["error"]["kind"].as_str().unwrap().to_owned(), r["error"]["message"].as_str().unwrap().to_owned())
    };
    let (kind, message) = error(by_id(&records, "missing-repo"));
    assert_eq!(kind, "repository_not_found");
    assert!(message.contains("acme/nothere") && message.contains("acme__nothere"), "{message}");

    let (kind, message) = error(by_id(&records, "missing-commit"));
    assert_eq!(kind, "commit_not_found");
    assert!(message.contains("0123456789abcdef0123456789abcdef01234567"), "{message}");

    let (kind, message) = error(by_id(&records, "bad-patch"));
    assert_eq!(kind, "patch_does_not_apply");
    assert!(
        message.contains("textkit/slug.py") && message.contains("@@ -1,2 +1,2 @@"),
        "names the file and the hunk: {message}"
    );

    let (kind, message) = error(by_id(&records, "no-repo"));
    assert_eq!(kind, "malformed_record");
    assert!(message.contains("no repository"), "{message}");

    let unparsable = records.iter().find(|r| r["instance_id"].is_null()).expect("the unparsable line has a record too");
    let (kind, message) = error(unparsable);
    assert_eq!(kind, "malformed_record");
    assert!(message.contains("line 6 is not valid JSON"), "{message}");

    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("6 tasks, 1 ok, 0 unsupported, 5 failed"), "{stderr}");
}

#[test]
fn out_file_selection_and_projection_options() {
    let lines: Vec<String> = example_tasks().iter().take(1).map(|t| t.to_string()).collect();
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("results.jsonl");
    let (output, _d) = run_batch(
        &lines,
        &["--out", out.to_str().unwrap(), "--projection", "name", "--projection", "declaration", "--jobs", "1"],
    );
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    assert!(output.stdout.is_empty(), "records go to --out, not standard output");
    let records = records(&std::fs::read(&out).unwrap());
    let hints = records[0]["hints"].as_object().unwrap();
    assert_eq!(hints["defuse+name"], "- `separator`\n- `truncate_slug`\n");
    assert!(hints.contains_key("defuse+declaration"));
}

#[test]
fn unreadable_inputs_are_usage_errors() {
    let output = hintlens().args(["batch", "/nonexistent/tasks.jsonl", "--repos", "."]).output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("cannot read dataset /nonexistent/tasks.jsonl"), "{stderr}");

    let output = hintlens().args(["batch", "x.jsonl", "--selection", "bogus"]).output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("unknown selection `bogus`"));

    let output = hintlens().args(["batch", "x.jsonl", "--repo", "no-equals-sign"]).output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("expected OWNER/NAME=PATH"));
}

#[test]
fn an_explicit_repo_path_overrides_the_directory() {
    let mut task = example_tasks()[0].clone();
    task["repo"] = json!("someone/else");
    let dir = tempfile::tempdir().unwrap();
    let dataset = dir.path().join("t.jsonl");
    std::fs::write(&dataset, task.to_string()).unwrap();
    let repo = example().join("repos/acme__textkit.git");
    let output = hintlens()
        .arg("batch")
        .arg(&dataset)
        .arg("--repo")
        .arg(format!("someone/else={}", repo.display()))
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    assert_eq!(records(&output.stdout)[0]["status"], "ok");
}

#[test]
fn show_prints_one_task() {
    let task = &example_tasks()[1];
    let dir = tempfile::tempdir().unwrap();
    let (patch, test_patch) = (dir.path().join("code.diff"), dir.path().join("test.diff"));
    std::fs::write(&patch, task["patch"].as_str().unwrap()).unwrap();
    std::fs::write(&test_patch, task["test_patch"].as_str().unwrap()).unwrap();
    let output = hintlens()
        .arg("show")
        .arg("--repo")
        .arg(example().join("repos/acme__textkit.git"))
        .args(["--base", task["base_commit"].as_str().unwrap()])
        .arg("--patch")
        .arg(&patch)
        .arg("--test-patch")
        .arg(&test_patch)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    assert!(stdout.contains("code->test class textkit.wrap.Wrapper (textkit/wrap.py, import)"), "{stdout}");
    assert!(stdout.contains("- `textkit/wrap.py` (new file)"), "{stdout}");

    let output = hintlens()
        .arg("show")
        .arg("--repo")
        .arg(example().join("repos/acme__textkit.git"))
        .args(["--base", task["base_commit"].as_str().unwrap(), "--format", "json"])
        .arg("--patch")
        .arg(&patch)
        .arg("--test-patch")
        .arg(&test_patch)
        .output()
        .unwrap();
    let value: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(value["selections"]["defuse"][1]["name"], "Wrapper");
}

#[test]
fn show_reads_the_reference_from_a_commit() {
    let task = &example_tasks()[0];
    let output = hintlens()
        .arg("show")
        .arg("--repo")
        .arg(example().join("repos/acme__textkit.git"))
        .args([
            "--base",
            task["base_commit"].as_str().unwrap(),
            "--reference",
            task["solution_commit"].as_str().unwrap(),
        ])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    // The same answer as from the patches: the split comes from the default test-path rules.
    assert!(stdout.contains("code->test function textkit.slug.truncate_slug"), "{stdout}");
    assert!(stdout.contains("code->test parameter textkit.slug.slugify.separator"), "{stdout}");
    assert!(stdout.contains("note: reference snapshot read from commit"), "{stdout}");
}

#[test]
fn auto_reference_falls_back_to_the_commit_when_patches_do_not_apply() {
    let mut task = example_tasks()[0].clone();
    task["patch"] = json!(
        "diff --git a/textkit/slug.py b/textkit/slug.py\n--- a/textkit/slug.py\n+++ b/textkit/slug.py\n@@ -1,1 +1,1 @@\n-def nothing_like_this():\n+def x():\n"
    );
    let (strict, _d1) = run_batch(&[task.to_string()], &[]);
    assert_eq!(records(&strict.stdout)[0]["error"]["kind"], "patch_does_not_apply");
    let (auto, _d2) = run_batch(&[task.to_string()], &["--reference", "auto"]);
    assert!(auto.status.success(), "{}", String::from_utf8_lossy(&auto.stderr));
    let record = &records(&auto.stdout)[0];
    assert_eq!(record["status"], "ok");
    let notes = record["notes"].to_string();
    assert!(notes.contains("reference snapshot read from commit") && notes.contains("do not apply"), "{notes}");
    assert_eq!(record["selections"]["defuse"].as_array().unwrap().len(), 2);
}

#[test]
fn a_record_with_only_a_reference_commit_reads_it() {
    // SWE-bench Pro's official records state the change as `solution_commit`, with no patches:
    // the split comes from the default test-path rules, as `show --reference` does.
    let mut task = example_tasks()[0].clone();
    let expected = run_batch(&[task.to_string()], &[]).0;
    let object = task.as_object_mut().unwrap();
    object.remove("patch");
    object.remove("test_patch");
    let (output, _dir) = run_batch(&[task.to_string()], &[]);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let record = &records(&output.stdout)[0];
    assert_eq!(record["status"], "ok", "{record:#}");
    assert_eq!(record["selections"], records(&expected.stdout)[0]["selections"]);
    let notes = record["notes"].to_string();
    assert!(notes.contains("reference snapshot read from commit") && notes.contains("no code patch"), "{notes}");

    task.as_object_mut().unwrap().remove("solution_commit");
    let (output, _dir) = run_batch(&[task.to_string()], &[]);
    let record = &records(&output.stdout)[0];
    assert_eq!(record["status"], "error", "{record:#}");
    assert!(
        record["error"]["message"].as_str().unwrap().contains("no code patch and no reference commit"),
        "{record:#}"
    );
}

#[test]
fn patch_paths_outside_the_repository_are_refused_in_every_mode() {
    let good = example_tasks()[0].clone();
    let escape = "diff --git a/../../../tmp/x.py b/../../../tmp/x.py\nnew file mode 100644\n--- /dev/null\n+++ b/../../../tmp/x.py\n@@ -0,0 +1 @@\n+x = 1\n";
    let absolute = "--- /dev/null\n+++ /etc/x\n@@ -0,0 +1 @@\n+x\n";
    let mut code = good.clone();
    code["instance_id"] = json!("escape-in-code");
    code["patch"] = json!(escape);
    let mut test = good.clone();
    test["instance_id"] = json!("absolute-in-test");
    test["test_patch"] = json!(absolute);
    let lines = [code.to_string(), test.to_string()];
    // `--reference auto` would fall back to the commit for a patch that does not apply; an
    // unsafe one is refused instead.
    for extra in [&[][..], &["--reference", "auto"][..]] {
        let (output, _dir) = run_batch(&lines, extra);
        assert_eq!(output.status.code(), Some(1), "{}", String::from_utf8_lossy(&output.stderr));
        let records = records(&output.stdout);
        for (id, patch, path) in
            [("escape-in-code", "code patch", "../../../tmp/x.py"), ("absolute-in-test", "test patch", "/etc/x")]
        {
            let record = by_id(&records, id);
            assert_eq!(record["status"], "error", "{record:#}");
            assert_eq!(record["error"]["kind"], "unsafe_path", "{record:#}");
            let message = record["error"]["message"].as_str().unwrap();
            assert!(message.starts_with(patch) && message.contains(&format!("unsafe path `{path}`")), "{message}");
        }
    }
}

/// The example's tasks repeated under new ids: a dataset long enough to interrupt.
fn long_dataset(dir: &std::path::Path, copies: usize) -> std::path::PathBuf {
    let mut lines = Vec::new();
    for copy in 0..copies {
        for task in example_tasks() {
            let mut task = task.clone();
            task["instance_id"] = json!(format!("{}#{copy}", task["instance_id"].as_str().unwrap()));
            lines.push(task.to_string());
        }
    }
    let path = dir.join("long.jsonl");
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    path
}

/// Records by instance id, for comparing runs whatever order tasks finished in.
fn sorted_records(path: &std::path::Path) -> Vec<Value> {
    let mut records = records(&std::fs::read(path).unwrap());
    records.sort_by(|a, b| a["instance_id"].as_str().cmp(&b["instance_id"].as_str()));
    records
}

#[test]
fn an_interrupted_batch_resumes_to_the_uninterrupted_result() {
    let dir = tempfile::tempdir().unwrap();
    let dataset = long_dataset(dir.path(), 200);
    let total = 200 * example_tasks().len();
    let batch = |out: &std::path::Path, extra: &[&str]| {
        let mut command = hintlens();
        command.arg("batch").arg(&dataset).arg("--repos").arg(example().join("repos")).arg("--jobs").arg("1");
        command.arg("--out").arg(out).args(extra);
        command
    };

    let whole = dir.path().join("whole.jsonl");
    let output = batch(&whole, &[]).output().unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));

    // SIGTERM once some records are out: the run stops taking tasks, writes what it finished,
    // summarises and exits 143.
    let part = dir.path().join("part.jsonl");
    let child = batch(&part, &[]).stderr(std::process::Stdio::piped()).spawn().unwrap();
    let started = std::time::Instant::now();
    while std::fs::read(&part).map_or(0, |t| t.iter().filter(|&&b| b == b'\n').count()) < 10 {
        assert!(started.elapsed() < std::time::Duration::from_secs(60), "no records appeared");
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    let killed = std::process::Command::new("kill").arg("-TERM").arg(child.id().to_string()).status().unwrap();
    assert!(killed.success());
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(143), "{stderr}");
    assert!(stderr.contains("interrupted") && stderr.contains("--resume"), "{stderr}");
    let text = std::fs::read(&part).unwrap();
    assert!(text.ends_with(b"\n"), "every record is written whole");
    let written = records(&text).len();
    assert!(written >= 10 && written < total, "{written} of {total} records before the interruption");

    // A run killed outright can leave half a line: resuming drops it.
    let mut file = std::fs::OpenOptions::new().append(true).open(&part).unwrap();
    std::io::Write::write_all(&mut file, b"{\"instance_id\": \"acme__textkit-1#0\", \"sta").unwrap();
    drop(file);
    let output = batch(&part, &["--resume"]).output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    assert!(stderr.contains(&format!("{written} records kept, 1 incomplete or repeated lines dropped")), "{stderr}");
    assert!(stderr.contains(&format!("{written} already done")), "{stderr}");
    assert_eq!(sorted_records(&part), sorted_records(&whole), "one record per task, as an uninterrupted run writes");
}

/// A git repository holding `files` in one commit; returns its directory and the commit.
fn git_repository(files: &[(&str, &str)]) -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().unwrap();
    let git = |args: &[&str]| {
        let output = std::process::Command::new("git")
            .args(["-c", "user.name=t", "-c", "user.email=t@t", "-c", "init.defaultBranch=main"])
            .args(args)
            .current_dir(dir.path())
            .output()
            .unwrap();
        assert!(output.status.success(), "git {args:?}: {}", String::from_utf8_lossy(&output.stderr));
        String::from_utf8(output.stdout).unwrap()
    };
    git(&["init", "-q"]);
    for (path, text) in files {
        let path = dir.path().join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    git(&["add", "-A"]);
    git(&["commit", "-q", "-m", "base"]);
    let commit = git(&["rev-parse", "HEAD"]).trim().to_owned();
    (dir, commit)
}

/// A program without an extension (`bin/tool`, told by its `#!` line) is source code: a change
/// to it alone is unsupported when no frontend reads its language, and unread beside one that is
/// read — never documentation, whose names Doc2Feat leaves out as documented.
#[test]
fn a_program_without_an_extension_is_source_not_documentation() {
    let (repo, base) = git_repository(&[
        ("bin/tool", "#!/usr/bin/env perl\nprint 1;\n"),
        ("pkg/api.py", "def get():\n    return 1\n"),
        ("NOTICE", "demo\n"),
    ]);
    let tool = "--- a/bin/tool\n+++ b/bin/tool\n@@ -1,2 +1,3 @@\n #!/usr/bin/env perl\n print 1;\n+print get_many();\n";
    let notice = "--- a/NOTICE\n+++ b/NOTICE\n@@ -1 +1,2 @@\n demo\n+Call put_all.\n";
    let py_change = "--- a/pkg/api.py\n+++ b/pkg/api.py\n@@ -1,2 +1,8 @@\n def get():\n     return 1\n+\n+\n+def put_all():\n+    return 2\n+def get_many():\n+    return 3\n";
    let py_test = "--- /dev/null\n+++ b/tests/test_api.py\n@@ -0,0 +1,5 @@\n+from pkg.api import put_all, get_many\n+\n+def test_all():\n+    put_all()\n+    get_many()\n";
    let task = |id: &str, patch: String, test_patch: &str| {
        json!({"instance_id": id, "repo": "acme/tool", "base_commit": base, "patch": patch, "test_patch": test_patch})
            .to_string()
    };
    let lines =
        [task("script-only", tool.to_owned(), ""), task("mixed", format!("{py_change}{tool}{notice}"), py_test)];
    let dir = tempfile::tempdir().unwrap();
    let dataset = dir.path().join("tasks.jsonl");
    std::fs::write(&dataset, lines.join("\n") + "\n").unwrap();
    let repo_arg = format!("acme/tool={}", repo.path().display());
    let output =
        hintlens().arg("batch").arg(&dataset).args(["--repo", &repo_arg, "--selection", "doc2feat"]).output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    let records = records(&output.stdout);

    let script = by_id(&records, "script-only");
    assert_eq!(script["status"], "unsupported", "{script:#}");
    let message = script["error"]["message"].as_str().unwrap();
    assert!(
        message.contains(
            "which hintlens cannot read: 1 without an extension (programs told by their #! line: bin/tool), which no frontend reads"
        ),
        "{message}"
    );
    assert_eq!(script["coverage"], json!({"languages": [], "unread_source_files": 1, "unread_extensions": ["pl"]}));

    let mixed = by_id(&records, "mixed");
    assert_eq!(mixed["status"], "ok", "{mixed:#}");
    assert_eq!(
        mixed["coverage"],
        json!({"languages": ["python"], "unread_source_files": 1, "unread_extensions": ["pl"]})
    );
    assert!(
        mixed["notes"].to_string().contains(
            "1 changed source files were not read (.pl): 1 without an extension (programs told by their #! line: bin/tool), which no frontend reads"
        ),
        "{mixed:#}"
    );
    // The NOTICE documents `put_all`; the script's line naming `get_many` documents nothing.
    let selected: Vec<&str> =
        mixed["selections"]["doc2feat"].as_array().unwrap().iter().filter_map(|i| i["name"].as_str()).collect();
    assert_eq!(selected, ["get_many"], "{mixed:#}");
}

#[test]
fn tasks_in_languages_no_frontend_reads_are_unsupported_not_ok() {
    let (repo, base) = git_repository(&[
        ("store/store.lua", "class Store\n  def get = 1\nend\n"),
        ("pkg/api.py", "def get():\n    return 1\n"),
        ("README.md", "# demo\n"),
    ]);
    let go_change = "--- a/store/store.lua\n+++ b/store/store.lua\n@@ -1,3 +1,4 @@\n class Store\n   def get = 1\n+  def set_limit(n) = n\n end\n";
    let go_test = "--- /dev/null\n+++ b/spec/store_spec.lua\n@@ -0,0 +1,3 @@\n+describe Store do\n+  it { Store.new.set_limit(3) }\n+end\n";
    let py_change =
        "--- a/pkg/api.py\n+++ b/pkg/api.py\n@@ -1,2 +1,5 @@\n def get():\n     return 1\n+\n+\n+def put():\n";
    let py_test = "--- /dev/null\n+++ b/tests/test_api.py\n@@ -0,0 +1,4 @@\n+from pkg.api import put\n+\n+def test_put():\n+    put()\n";
    let docs = "--- a/README.md\n+++ b/README.md\n@@ -1 +1,2 @@\n # demo\n+More words.\n";
    let task = |id: &str, patch: String, test_patch: &str| {
        json!({"instance_id": id, "repo": "acme/mixed", "base_commit": base, "patch": patch, "test_patch": test_patch})
            .to_string()
    };
    let lines = [
        task("go-only", go_change.to_owned(), go_test),
        task("mixed", format!("{py_change}{go_change}"), py_test),
        task("docs-only", docs.to_owned(), ""),
    ];
    let dir = tempfile::tempdir().unwrap();
    let dataset = dir.path().join("tasks.jsonl");
    std::fs::write(&dataset, lines.join("\n") + "\n").unwrap();
    let repo_arg = format!("acme/mixed={}", repo.path().display());
    let output = hintlens().arg("batch").arg(&dataset).args(["--repo", &repo_arg]).output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    // Unsupported alone is no failure.
    assert!(output.status.success(), "{stderr}");
    assert!(stderr.contains("3 tasks, 2 ok, 1 unsupported, 0 failed"), "{stderr}");
    assert!(stderr.contains("go-only unsupported: unsupported_language"), "{stderr}");
    let records = records(&output.stdout);

    let go = by_id(&records, "go-only");
    assert_eq!(go["status"], "unsupported", "{go:#}");
    assert_eq!(go["error"]["kind"], "unsupported_language");
    let message = go["error"]["message"].as_str().unwrap();
    assert!(message.contains(".lua (2 files)") && message.contains("python, java, go"), "{message}");
    assert_eq!(go["coverage"], json!({"languages": [], "unread_source_files": 2, "unread_extensions": ["lua"]}));

    let mixed = by_id(&records, "mixed");
    assert_eq!(mixed["status"], "ok", "{mixed:#}");
    assert_eq!(
        mixed["coverage"],
        json!({"languages": ["python"], "unread_source_files": 1, "unread_extensions": ["lua"]})
    );
    assert!(
        mixed["notes"]
            .to_string()
            .contains("1 changed source files were not read (.lua): 1 with an ending no frontend reads"),
        "{mixed:#}"
    );
    assert_eq!(mixed["selections"]["defuse"][0]["name"], "put");

    let docs = by_id(&records, "docs-only");
    assert_eq!(docs["status"], "ok", "{docs:#}");
    assert_eq!(docs["coverage"], json!({"languages": [], "unread_source_files": 0, "unread_extensions": []}));

    // The report counts them apart.
    let results = dir.path().join("results.jsonl");
    std::fs::write(&results, &output.stdout).unwrap();
    let report = hintlens().arg("stats").arg(&results).output().unwrap();
    let report = String::from_utf8_lossy(&report.stdout);
    assert!(report.starts_with("3 records, 1 unsupported and 0 errors (left out)"), "{report}");
}

/// `--index demand` (the default) reads what the answers need; `--index full` parses every
/// source file of both snapshots. Every policy and projection gives the same records either way.
#[test]
fn demand_and_full_indexing_give_the_same_records() {
    let dir = tempfile::tempdir().unwrap();
    let mut outputs = Vec::new();
    for mode in ["demand", "full"] {
        let out = dir.path().join(format!("{mode}.jsonl"));
        let mut command = hintlens();
        command.arg("batch").arg(example().join("tasks.jsonl")).arg("--repos").arg(example().join("repos"));
        for selection in ["defuse", "doc2feat", "fea", "pro", "all-new", "strings"] {
            command.args(["--selection", selection]);
        }
        for projection in ["name-kind", "declaration", "pro", "fea-detailed", "nocode", "pro-interface"] {
            command.args(["--projection", projection]);
        }
        let output = command.args(["--index", mode, "--out"]).arg(&out).output().unwrap();
        assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
        outputs.push(sorted_records(&out));
    }
    assert_eq!(outputs[0].len(), 5);
    assert!(
        outputs[0].iter().any(|r| r["selections"]["doc2feat"]
            .as_array()
            .unwrap()
            .iter()
            .any(|i| i["base_occurrences"] != 0))
    );
    assert_eq!(outputs[0], outputs[1]);
}

#[test]
fn go_tasks_are_read_and_report_their_coverage() {
    let (repo, base) = git_repository(&[
        ("go.mod", "module example.com/store\n\ngo 1.22\n"),
        ("store/store.go", "package store\n\ntype Store struct{}\n"),
        ("native/store.lua", "def get = 1\n"),
    ]);
    let code = "--- a/store/store.go\n+++ b/store/store.go\n@@ -1,3 +1,6 @@\n package store\n \n type Store struct{}\n+\n+// SetLimit bounds the store.\n+func (s *Store) SetLimit(n int) {}\n";
    let test = "--- /dev/null\n+++ b/store/store_test.go\n@@ -0,0 +1,7 @@\n+package store_test\n+\n+import \"example.com/store/store\"\n+\n+func ExampleStore_SetLimit() {\n+\tnew(store.Store).SetLimit(3)\n+}\n";
    let lua = "--- a/native/store.lua\n+++ b/native/store.lua\n@@ -1 +1,2 @@\n def get = 1\n+def put = 2\n";
    let go_mod = "--- a/go.mod\n+++ b/go.mod\n@@ -1,3 +1,5 @@\n module example.com/store\n \n go 1.22\n+\n+require example.com/dep v1.0.0\n";
    let task = |id: &str, patch: String, test_patch: &str| {
        json!({"instance_id": id, "repo": "acme/store", "base_commit": base, "patch": patch, "test_patch": test_patch})
            .to_string()
    };
    let lines = [task("go", format!("{go_mod}{code}{lua}"), test), task("lua-only", lua.to_owned(), "")];
    let dir = tempfile::tempdir().unwrap();
    let dataset = dir.path().join("tasks.jsonl");
    std::fs::write(&dataset, lines.join("\n") + "\n").unwrap();
    let repo_arg = format!("acme/store={}", repo.path().display());
    let output = hintlens().arg("batch").arg(&dataset).args(["--repo", &repo_arg]).output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    assert!(stderr.contains("2 tasks, 1 ok, 1 unsupported, 0 failed"), "{stderr}");
    let records = records(&output.stdout);

    let go = by_id(&records, "go");
    assert_eq!(go["status"], "ok", "{go:#}");
    // The go.mod is read (for its module path) with the Go sources; the Lua file is not.
    assert_eq!(go["coverage"], json!({"languages": ["go"], "unread_source_files": 1, "unread_extensions": ["lua"]}));
    let selected = &go["selections"]["defuse"];
    assert_eq!(selected.as_array().map(Vec::len), Some(1), "{selected:#}");
    let set_limit = &selected[0];
    assert_eq!(set_limit["qualified_name"], "store.Store.SetLimit");
    assert_eq!(set_limit["kind"], "method");
    assert_eq!(set_limit["signature"], "func (s *Store) SetLimit(n int)");
    assert_eq!(set_limit["parent"], "store.Store");
    assert_eq!(set_limit["evidence"], json!([{"path": "store/store_test.go", "line": 6, "rule": "member"}]));
    assert_eq!(
        go["hints"]["defuse+declaration"],
        "- `store/store.go`\n  - in struct `Store`:\n    - method `SetLimit`: `func (s *Store) SetLimit(n int)`\n"
    );

    let lua_only = by_id(&records, "lua-only");
    assert_eq!(lua_only["status"], "unsupported", "{lua_only:#}");
    assert_eq!(lua_only["error"]["kind"], "unsupported_language");
    assert_eq!(lua_only["coverage"], json!({"languages": [], "unread_source_files": 1, "unread_extensions": ["lua"]}));
}

#[test]
fn a_file_missing_from_git_that_the_task_does_not_need_is_a_note() {
    let (repo, base) = git_repository(&[
        ("go.mod", "module example.com/store\n\ngo 1.22\n"),
        ("store/store.go", "package store\n\ntype Store struct{}\n"),
        ("native/store.c", "int SetLimit(int n) { return n; }\n"),
    ]);
    // A partial clone or a mirror without its largest blobs: the C file's object is gone.
    let blob = std::process::Command::new("git")
        .args(["rev-parse", &format!("{base}:native/store.c")])
        .current_dir(repo.path())
        .output()
        .unwrap();
    let blob = String::from_utf8(blob.stdout).unwrap().trim().to_owned();
    std::fs::remove_file(repo.path().join(".git/objects").join(&blob[..2]).join(&blob[2..])).unwrap();
    let code = "--- a/store/store.go\n+++ b/store/store.go\n@@ -1,3 +1,6 @@\n package store\n \n type Store struct{}\n+\n+// SetLimit bounds the store.\n+func (s *Store) SetLimit(n int) {}\n";
    let test = "--- /dev/null\n+++ b/store/store_test.go\n@@ -0,0 +1,7 @@\n+package store_test\n+\n+import \"example.com/store/store\"\n+\n+func ExampleStore_SetLimit() {\n+\tnew(store.Store).SetLimit(3)\n+}\n";
    let line =
        json!({"instance_id": "go", "repo": "acme/store", "base_commit": base, "patch": code, "test_patch": test});
    let dir = tempfile::tempdir().unwrap();
    let dataset = dir.path().join("tasks.jsonl");
    std::fs::write(&dataset, format!("{line}\n")).unwrap();
    let repo_arg = format!("acme/store={}", repo.path().display());
    let output = hintlens().arg("batch").arg(&dataset).args(["--repo", &repo_arg]).output().unwrap();
    let records = records(&output.stdout);
    let go = by_id(&records, "go");
    // The Go task needs the C file's words only, for base_occurrences: it is answered, and says
    // that the count is a lower bound.
    assert_eq!(go["status"], "ok", "{go:#}");
    assert_eq!(go["coverage"]["unreadable_files"], 1, "{go:#}");
    let set_limit = &go["selections"]["defuse"][0];
    assert_eq!((&set_limit["name"], &set_limit["base_occurrences_lower_bound"]), (&json!("SetLimit"), &json!(true)));
    let notes: Vec<&str> = go["notes"].as_array().unwrap().iter().map(|n| n.as_str().unwrap()).collect();
    assert_eq!(
        notes,
        [format!(
            "1 file of the repository could not be read and was left out of the repository-wide facts, which are lower bounds (base_occurrences_lower_bound): native/store.c (blob {blob} is missing from the repository)"
        )]
    );
}

/// `hintlens --version` names the workspace's version (the crates' and the wheel's: pyproject.toml
/// takes it from Cargo) and the commit the binary was built from.
#[test]
fn version_names_the_release_and_the_commit() {
    let output = hintlens().arg("--version").output().unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let stdout = String::from_utf8(output.stdout).unwrap();
    let rest = stdout
        .strip_prefix(concat!("hintlens ", env!("CARGO_PKG_VERSION"), " ("))
        .unwrap_or_else(|| panic!("{stdout:?} does not start with hintlens {} (", env!("CARGO_PKG_VERSION")));
    let commit = rest.strip_suffix(")\n").unwrap_or_else(|| panic!("{stdout:?} does not end with )"));
    // A commit of this checkout, as build.rs asked git when it built the binary (unless a
    // packager set it): not necessarily HEAD, which a commit after the build moves on.
    let git = |args: &[&str]| {
        std::process::Command::new("git")
            .args(args)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned())
    };
    match (std::env::var("HINTLENS_GIT_COMMIT").ok().filter(|c| !c.is_empty()), git(&["rev-parse", "--short", "HEAD"]))
    {
        (Some(set), _) => assert_eq!(commit, set),
        (None, Some(_)) => {
            assert!(
                commit.len() >= 7 && commit.bytes().all(|b| b.is_ascii_hexdigit()),
                "{commit:?} is no short commit id"
            );
            let verify = format!("{commit}^{{commit}}");
            assert!(
                git(&["rev-parse", "--verify", "--quiet", &verify]).is_some(),
                "{commit} is no commit of this checkout"
            );
        }
        (None, None) => assert_eq!(commit, "unknown"),
    }
    // One version: pyproject.toml reads it from Cargo (maturin's dynamic version), never its own.
    let pyproject = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../pyproject.toml")).unwrap();
    assert!(pyproject.contains(r#"dynamic = ["version"]"#), "pyproject.toml must take its version from Cargo");
    assert!(
        !pyproject.lines().any(|l| l.trim_start().starts_with("version")),
        "pyproject.toml sets a version of its own"
    );
}
