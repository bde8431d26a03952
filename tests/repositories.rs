//! Repositories as users keep them: blobless partial clones, served by `file://` and by a `git
//! daemon` on 127.0.0.1 (`uploadpack.allowFilter`), brought by `hintlens fetch`; objects missing
//! for good; patches written with `git diff --binary`. Each gives the records a complete clone
//! gives, or says what it could not read.

use hintlens_tests::{hintlens, succeed};
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

/// `git ARGS` in `dir`, isolated from the user's configuration; its standard output.
fn git(dir: &Path, args: &[&str]) -> String {
    let output = Command::new("git")
        .args(["-c", "user.name=t", "-c", "user.email=t@t", "-c", "init.defaultBranch=main"])
        .args(args)
        .current_dir(dir)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .output()
        .unwrap();
    assert!(output.status.success(), "git {args:?} in {}: {}", dir.display(), String::from_utf8_lossy(&output.stderr));
    String::from_utf8(output.stdout).unwrap()
}

fn write(dir: &Path, path: &str, text: &[u8]) {
    let path = dir.join(path);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// A Python project with a C extension, three commits: each later commit is a task whose code
/// change adds a function and whose test change calls it; the second task's base is reachable
/// from a pull request's ref only. Returns the work tree and the tasks.
struct Upstream {
    dir: tempfile::TempDir,
    tasks: Vec<Value>,
}

impl Upstream {
    fn new(owner_name: &str) -> Upstream {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        git(root, &["init", "-q"]);
        write(root, "shop/cart.py", b"def total(items):\n    return sum(items)\n");
        write(root, "shop/native/fast.c", b"int total_fast(int *xs, int n) { return n; }\n");
        write(
            root,
            "tests/test_cart.py",
            b"from shop.cart import total\n\n\ndef test_total():\n    assert total([1]) == 1\n",
        );
        git(root, &["add", "-A"]);
        git(root, &["commit", "-q", "-m", "base"]);
        let mut tasks = Vec::new();
        let steps: [(&str, &str); 2] = [("discount", "apply_discount"), ("tax", "apply_tax")];
        for (i, (module, function)) in steps.into_iter().enumerate() {
            let base = git(root, &["rev-parse", "HEAD"]).trim().to_owned();
            let code = format!("def {function}(price, rate):\n    return price * (1 - rate)\n");
            write(root, &format!("shop/{module}.py"), code.as_bytes());
            git(root, &["add", "-A"]);
            let patch = git(root, &["diff", "--cached"]);
            git(root, &["commit", "-q", "-m", "code"]);
            let test = format!(
                "from shop.{module} import {function}\n\n\ndef test_{module}():\n    assert {function}(10, 0) == 10\n"
            );
            write(root, &format!("tests/test_{module}.py"), test.as_bytes());
            git(root, &["add", "-A"]);
            let test_patch = git(root, &["diff", "--cached"]);
            git(root, &["commit", "-q", "-m", "test"]);
            let solution = git(root, &["rev-parse", "HEAD"]).trim().to_owned();
            tasks.push(json!({
                "instance_id": format!("{}-{i}", owner_name.replace('/', "__")),
                "repo": owner_name,
                "base_commit": base,
                "solution_commit": solution,
                "patch": patch,
                "test_patch": test_patch,
                "problem_statement": "Prices need adjusting.",
            }));
        }
        // Only the first commit is on a branch; the others live on a pull request's ref, as
        // many a benchmark's bases do.
        let head = git(root, &["rev-parse", "HEAD"]).trim().to_owned();
        git(root, &["update-ref", "refs/pull/7/head", &head]);
        git(root, &["reset", "-q", "--hard", "HEAD~4"]);
        // What a server must allow for partial clones and for fetching objects by id.
        git(root, &["config", "uploadpack.allowFilter", "true"]);
        git(root, &["config", "uploadpack.allowAnySHA1InWant", "true"]);
        Upstream { dir, tasks }
    }

    fn path(&self) -> &Path {
        self.dir.path()
    }

    /// A bare clone of this repository at `into`, over `file://` (as from a server) with git's
    /// `flags` (`--filter=blob:none`, `--depth 1`…); with the pull request's ref too unless it
    /// is shallow.
    fn clone_to(&self, into: &Path, flags: &[&str]) -> PathBuf {
        let url = format!("file://{}", self.path().display());
        std::fs::create_dir_all(into.parent().unwrap()).unwrap();
        git(into.parent().unwrap(), &[&["clone", "-q", "--bare"], flags, &[&url, into.to_str().unwrap()]].concat());
        if !flags.contains(&"--depth") {
            git(into, &["fetch", "-q", "origin", "refs/pull/7/head:refs/pull/7/head"]);
        }
        into.to_owned()
    }

    fn dataset(&self, dir: &Path) -> PathBuf {
        let path = dir.join("tasks.jsonl");
        let lines: Vec<String> = self.tasks.iter().map(Value::to_string).collect();
        std::fs::write(&path, lines.join("\n") + "\n").unwrap();
        path
    }
}

/// `hintlens`, with git's global and system configuration out of the way (the git it runs
/// sees the repository's own only).
fn isolated_hintlens() -> Command {
    let mut command = hintlens();
    command.env("GIT_CONFIG_NOSYSTEM", "1").env("GIT_CONFIG_GLOBAL", "/dev/null");
    command
}

/// The records of a batch, by instance id, and its standard error.
fn batch(dataset: &Path, args: &[&str]) -> (BTreeMap<String, Value>, String) {
    let output = isolated_hintlens().arg("batch").arg(dataset).args(args).output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert!(output.status.success(), "{stderr}");
    let records = String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .map(|r| (r["instance_id"].as_str().unwrap().to_owned(), r))
        .collect();
    (records, stderr)
}

fn names(record: &Value) -> Vec<&str> {
    record["selections"]["defuse"].as_array().unwrap().iter().map(|i| i["name"].as_str().unwrap()).collect()
}

/// Whether the repository at `git_dir` holds object `id` (without fetching it).
fn has_object(git_dir: &Path, id: &str) -> bool {
    Command::new("git")
        .args(["--git-dir"])
        .arg(git_dir)
        .args(["cat-file", "-e", id])
        .env("GIT_NO_LAZY_FETCH", "1")
        .status()
        .unwrap()
        .success()
}

#[test]
fn a_blobless_partial_clone_gives_the_records_of_the_full_repository() {
    let upstream = Upstream::new("acme/shop");
    let work = tempfile::tempdir().unwrap();
    let dataset = upstream.dataset(work.path());
    let full = format!("acme/shop={}", upstream.path().display());
    let (expected, _) = batch(&dataset, &["--repo", &full]);
    assert_eq!(names(&expected["acme__shop-0"]), ["discount", "apply_discount"]);
    assert_eq!(names(&expected["acme__shop-1"]), ["tax", "apply_tax"]);

    let clone = upstream.clone_to(&work.path().join("shop.git"), &["--filter=blob:none"]);
    let c_blob = git(upstream.path(), &["rev-parse", "HEAD:shop/native/fast.c"]);
    assert!(!has_object(&clone, c_blob.trim()), "a blobless clone has no blobs yet");

    let partial = format!("acme/shop={}", clone.display());
    let (records, stderr) = batch(&dataset, &["--repo", &partial]);
    assert_eq!(records, expected, "the records of the full repository");
    // Every blob the tasks read, fetched ahead in one `git fetch` for the repository.
    assert!(stderr.contains("missing objects of partial clones from their promisor remotes in 1 fetches"), "{stderr}");
    assert!(has_object(&clone, c_blob.trim()), "the C file's words are read for base_occurrences");
    // A second run finds them there.
    let (again, stderr) = batch(&dataset, &["--repo", &partial]);
    assert_eq!(again, expected);
    assert!(!stderr.contains("fetched"), "{stderr}");

    // The reference read from its commit: both versions of what the commit changed, fetched
    // ahead as well.
    let (expected, _) = batch(&dataset, &["--repo", &full, "--reference", "commit"]);
    let fresh = upstream.clone_to(&work.path().join("fresh.git"), &["--filter=blob:none"]);
    let fresh = format!("acme/shop={}", fresh.display());
    let (records, stderr) = batch(&dataset, &["--repo", &fresh, "--reference", "commit"]);
    assert_eq!(records, expected, "the records of the full repository");
    assert!(stderr.contains("in 1 fetches"), "{stderr}");
}

/// A `git daemon` on 127.0.0.1, serving a base path, stopped when dropped.
struct Daemon {
    child: Child,
    port: u16,
    _config: tempfile::TempDir,
}

impl Daemon {
    fn serve(base: &Path) -> Daemon {
        // The daemon's upload-pack reads this as its global configuration: what GitHub allows.
        let config = tempfile::tempdir().unwrap();
        let gitconfig = config.path().join("gitconfig");
        std::fs::write(&gitconfig, "[uploadpack]\n\tallowFilter = true\n\tallowAnySHA1InWant = true\n").unwrap();
        let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let child = Command::new("git")
            .args(["daemon", "--reuseaddr", "--export-all", "--listen=127.0.0.1", &format!("--port={port}")])
            .arg(format!("--base-path={}", base.display()))
            .arg(base)
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("GIT_CONFIG_GLOBAL", &gitconfig)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("git daemon runs");
        let daemon = Daemon { child, port, _config: config };
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(std::time::Instant::now() < deadline, "git daemon did not listen on 127.0.0.1:{port}");
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        daemon
    }
}

impl Drop for Daemon {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Every file under `dir` with its size and modification time: what "changes nothing" means.
fn tree_state(dir: &Path) -> BTreeMap<PathBuf, (u64, std::time::SystemTime)> {
    let mut state = BTreeMap::new();
    let mut stack = vec![dir.to_owned()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let entry = entry.unwrap();
            let meta = entry.metadata().unwrap();
            if meta.is_dir() {
                stack.push(entry.path());
            } else {
                state.insert(entry.path(), (meta.len(), meta.modified().unwrap()));
            }
        }
    }
    state
}

#[test]
fn fetch_brings_a_dataset_from_a_git_daemon_and_the_batch_reads_it() {
    let served = tempfile::tempdir().unwrap();
    let upstream = Upstream::new("acme/shop");
    // Served as acme/shop.git, bare, as a forge keeps it.
    upstream.clone_to(&served.path().join("acme/shop.git"), &["--no-local"]);
    let daemon = Daemon::serve(served.path());

    let work = tempfile::tempdir().unwrap();
    let dataset = upstream.dataset(work.path());
    let repos = work.path().join("repos");
    let from = format!("git://127.0.0.1:{}/{{owner}}/{{name}}.git", daemon.port);
    let output =
        succeed(isolated_hintlens().arg("fetch").arg(&dataset).arg("--repos").arg(&repos).args(["--from", &from]));
    let stderr = String::from_utf8_lossy(&output.stderr);
    // The pull request's commits are on no branch: fetched by id after the clone.
    assert!(stderr.contains("acme/shop: cloned, and 2 commits on no branch fetched"), "{stderr}");
    assert!(stderr.contains("1 repositories in") && stderr.contains("1 cloned"), "{stderr}");
    let clone = repos.join("acme__shop.git");
    assert_eq!(git(&clone, &["config", "remote.origin.promisor"]).trim(), "true", "a partial clone");
    assert_eq!(git(&clone, &["config", "remote.origin.partialclonefilter"]).trim(), "blob:none");

    let full = format!("acme/shop={}", upstream.path().display());
    let (expected, _) = batch(&dataset, &["--repo", &full]);
    let (records, stderr) = batch(&dataset, &["--repos", repos.to_str().unwrap()]);
    assert_eq!(records, expected, "the records of the full repository");
    assert!(stderr.contains("in 1 fetches"), "{stderr}");

    // Again: every commit is there, nothing is run, nothing changes.
    let before = tree_state(&repos);
    let output =
        succeed(isolated_hintlens().arg("fetch").arg(&dataset).arg("--repos").arg(&repos).args(["--from", &from]));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("acme/shop: already has every commit"), "{stderr}");
    assert!(stderr.contains("0 cloned, 0 updated, 1 already complete, 0 failed"), "{stderr}");
    assert_eq!(tree_state(&repos), before);

    // A repository the server lacks is named, and the exit status says so; the others are
    // brought all the same.
    let mut tasks = upstream.tasks.clone();
    tasks.push(json!({"instance_id": "gone-1", "repo": "acme/gone", "base_commit": "0123456789abcdef0123456789abcdef01234567", "patch": "", "test_patch": ""}));
    let lines: Vec<String> = tasks.iter().map(Value::to_string).collect();
    let with_missing = work.path().join("with-missing.jsonl");
    std::fs::write(&with_missing, lines.join("\n") + "\n").unwrap();
    let output =
        isolated_hintlens().arg("fetch").arg(&with_missing).arg("--repos").arg(&repos).args(["--from", &from]).output();
    let output = output.unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("could not bring 1 repositories: acme/gone ("), "{stderr}");
    assert!(!repos.join("acme__gone.git").exists() && !repos.join("acme__gone.git.partial").exists());
    assert_eq!(tree_state(&repos), before, "the complete repository is not touched");
}

#[test]
fn fetch_brings_missing_commits_into_a_shallow_clone() {
    let upstream = Upstream::new("acme/shop");
    let work = tempfile::tempdir().unwrap();
    let dataset = upstream.dataset(work.path());
    // A user's shallow clone: the branch's last commit and nothing behind it, none of the pull
    // request's.
    let repos = work.path().join("repos");
    let clone = upstream.clone_to(&repos.join("acme__shop.git"), &["--depth", "1"]);
    assert!(clone.join("shallow").exists());
    // A repository there is fetched into from its own `origin`, not from `--from`.
    let from = "file:///nowhere/{owner}/{name}.git";
    let output =
        succeed(isolated_hintlens().arg("fetch").arg(&dataset).arg("--repos").arg(&repos).args(["--from", from]));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("acme/shop: 2 missing commits fetched"), "{stderr}");
    assert!(clone.join("shallow").exists(), "still shallow: only the commits were fetched");

    let full = format!("acme/shop={}", upstream.path().display());
    let (expected, _) = batch(&dataset, &["--repo", &full]);
    let (records, _) = batch(&dataset, &["--repos", repos.to_str().unwrap()]);
    assert_eq!(records, expected, "the records of the full repository");
}

#[test]
fn a_missing_object_the_task_does_not_need_is_a_note_and_one_it_needs_an_error() {
    let upstream = Upstream::new("acme/shop");
    let work = tempfile::tempdir().unwrap();
    let dataset = upstream.dataset(work.path());
    // A mirror without its largest blobs: the C file's object is gone, for good.
    let mirror = upstream.clone_to(&work.path().join("mirror.git"), &["--no-local"]);
    let c_blob = git(upstream.path(), &["rev-parse", "HEAD:shop/native/fast.c"]).trim().to_owned();
    remove_object(&mirror, &c_blob);

    let full = format!("acme/shop={}", upstream.path().display());
    let (expected, _) = batch(&dataset, &["--repo", &full]);
    let mirror_arg = format!("acme/shop={}", mirror.display());
    for index in ["demand", "full"] {
        let (records, _) = batch(&dataset, &["--repo", &mirror_arg, "--index", index]);
        for (id, record) in &records {
            assert_eq!(record["status"], "ok", "{record:#}");
            assert_eq!(record["selections"], lower_bound(&expected[id]["selections"]), "{index}");
            assert_eq!(record["coverage"]["unreadable_files"], 1, "{record:#}");
            let notes = record["notes"].as_array().unwrap();
            assert!(
                notes.iter().any(|n| n.as_str().unwrap().starts_with(&format!(
                    "1 file of the repository could not be read and was left out of the repository-wide facts, which are lower bounds (base_occurrences_lower_bound): shop/native/fast.c (blob {c_blob} is missing from the repository)"
                ))),
                "{notes:#?}"
            );
        }
    }

    // A file the task changes is needed whole: its task fails, naming it once.
    let cart = git(upstream.path(), &["rev-parse", "HEAD:shop/cart.py"]).trim().to_owned();
    remove_object(&mirror, &cart);
    let mut task = upstream.tasks[0].clone();
    task["patch"] = json!(
        "--- a/shop/cart.py\n+++ b/shop/cart.py\n@@ -1,2 +1,5 @@\n def total(items):\n     return sum(items)\n+\n+def apply_discount(p, r):\n+    return p\n"
    );
    let one = work.path().join("one.jsonl");
    std::fs::write(&one, format!("{task}\n")).unwrap();
    let output = isolated_hintlens().arg("batch").arg(&one).args(["--repo", &mirror_arg]).output().unwrap();
    assert_eq!(output.status.code(), Some(1));
    let record: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(record["error"]["kind"], "git", "{record:#}");
    let message = record["error"]["message"].as_str().unwrap();
    assert!(
        message.contains(&format!("cannot read shop/cart.py: blob {cart} is missing from the repository")),
        "{message}"
    );
    assert_eq!(message.matches("shop/cart.py").count(), 1, "{message}");
}

/// `selections` with every identifier's `base_occurrences` marked a lower bound, as a record
/// computed without a file of the repository says it is.
fn lower_bound(selections: &Value) -> Value {
    let mut selections = selections.clone();
    for identifiers in selections.as_object_mut().unwrap().values_mut() {
        for identifier in identifiers.as_array_mut().unwrap() {
            identifier["base_occurrences_lower_bound"] = json!(true);
        }
    }
    selections
}

/// Packs the objects of `git_dir` again without object `id`: a repository that lost it.
fn remove_object(git_dir: &Path, id: &str) {
    let listed = git(git_dir, &["cat-file", "--batch-all-objects", "--batch-check=%(objectname)"]);
    let kept: String = listed.lines().filter(|l| *l != id).map(|l| format!("{l}\n")).collect();
    assert_ne!(kept.len(), listed.len(), "{id} is in {}", git_dir.display());
    let scratch = tempfile::tempdir_in(git_dir.parent().unwrap()).unwrap();
    let mut pack = Command::new("git")
        .arg("--git-dir")
        .arg(git_dir)
        .args(["pack-objects", "-q"])
        .arg(scratch.path().join("pack"))
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    std::io::Write::write_all(&mut pack.stdin.take().unwrap(), kept.as_bytes()).unwrap();
    assert!(pack.wait().unwrap().success());
    let objects = git_dir.join("objects");
    for entry in std::fs::read_dir(&objects).unwrap() {
        let path = entry.unwrap().path();
        if path.file_name().unwrap() != "info" {
            std::fs::remove_dir_all(&path).unwrap();
        }
    }
    std::fs::create_dir(objects.join("pack")).unwrap();
    for entry in std::fs::read_dir(scratch.path()).unwrap() {
        let path = entry.unwrap().path();
        std::fs::rename(&path, objects.join("pack").join(path.file_name().unwrap())).unwrap();
    }
    assert!(!has_object(git_dir, id));
}

#[test]
fn a_git_binary_patch_of_a_source_file_is_applied_and_its_new_function_selected() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    git(root, &["init", "-q"]);
    // A NUL byte makes git take the file for binary: `git diff --binary` writes its change as a
    // delta, not as hunks.
    write(root, "shop/codec.py", b"SEPARATOR = \"\0\"\n\n\ndef encode(parts):\n    return SEPARATOR.join(parts)\n");
    git(root, &["add", "-A"]);
    git(root, &["commit", "-q", "-m", "base"]);
    let base = git(root, &["rev-parse", "HEAD"]).trim().to_owned();
    write(
        root,
        "shop/codec.py",
        b"SEPARATOR = \"\0\"\n\n\ndef encode(parts):\n    return SEPARATOR.join(parts)\n\n\ndef decode_frame(frame):\n    return frame.split(SEPARATOR)\n",
    );
    git(root, &["add", "-A"]);
    let patch = git(root, &["diff", "--cached", "--binary"]);
    assert!(patch.contains("GIT binary patch\ndelta "), "{patch}");
    git(root, &["commit", "-q", "-m", "code"]);
    write(
        root,
        "tests/test_codec.py",
        b"from shop.codec import decode_frame\n\n\ndef test_decode():\n    assert decode_frame('a') == ['a']\n",
    );
    git(root, &["add", "-A"]);
    let test_patch = git(root, &["diff", "--cached", "--binary"]);

    let work = tempfile::tempdir().unwrap();
    let dataset = work.path().join("tasks.jsonl");
    let task = json!({"instance_id": "codec", "repo": "acme/codec", "base_commit": base, "patch": patch, "test_patch": test_patch});
    std::fs::write(&dataset, format!("{task}\n")).unwrap();
    let repo = format!("acme/codec={}", root.display());
    let (records, _) = batch(&dataset, &["--repo", &repo]);
    let record = &records["codec"];
    assert_eq!(record["status"], "ok", "{record:#}");
    assert_eq!(names(record), ["decode_frame"], "{record:#}");
    assert_eq!(record["selections"]["defuse"][0]["signature"], "def decode_frame(frame)");
    assert!(record.get("notes").is_none_or(|n| n.as_array().unwrap().is_empty()), "{record:#}");
}

/// An approval baseline a test patch rewrites (Catch2's `*.approved.txt`, a Go golden file) is
/// read by nothing: its patch is not applied, so a blobless clone never fetches its base, and a
/// hunk of it that does not match the base fails no task.
#[test]
fn a_baseline_the_test_patch_rewrites_is_neither_fetched_nor_read() {
    let work = tempfile::tempdir().unwrap();
    let root = work.path().join("upstream");
    std::fs::create_dir_all(&root).unwrap();
    git(&root, &["init", "-q"]);
    let baseline: String = (0..2000).map(|i| format!("line {i} of the report\n")).collect();
    write(&root, "shop/cart.py", b"def total(items):\n    return sum(items)\n");
    write(&root, "tests/baselines/report.approved.txt", baseline.as_bytes());
    git(&root, &["add", "-A"]);
    git(&root, &["commit", "-q", "-m", "base"]);
    let base = git(&root, &["rev-parse", "HEAD"]).trim().to_owned();
    let old_blob = git(&root, &["rev-parse", "HEAD:tests/baselines/report.approved.txt"]).trim().to_owned();
    write(&root, "shop/cart.py", b"def total(items):\n    return sum(items)\n\n\ndef average(items):\n    return 0\n");
    git(&root, &["add", "-A"]);
    let patch = git(&root, &["diff", "--cached"]);
    git(&root, &["commit", "-q", "-m", "code"]);
    write(
        &root,
        "tests/test_cart.py",
        b"from shop.cart import average\n\n\ndef test_average():\n    assert average([]) == 0\n",
    );
    write(&root, "tests/baselines/report.approved.txt", baseline.replace("line 7 ", "line seven ").as_bytes());
    git(&root, &["add", "-A"]);
    let test_patch = git(&root, &["diff", "--cached"]);
    git(&root, &["commit", "-q", "-m", "test"]);
    git(&root, &["config", "uploadpack.allowFilter", "true"]);
    git(&root, &["config", "uploadpack.allowAnySHA1InWant", "true"]);
    let task = |test_patch: &str| {
        json!({"instance_id": "acme__shop-9", "repo": "acme/shop", "base_commit": base, "patch": patch,
               "test_patch": test_patch, "problem_statement": "Carts need an average."})
    };
    let dataset = work.path().join("tasks.jsonl");
    std::fs::write(&dataset, format!("{}\n", task(&test_patch))).unwrap();

    let clone = work.path().join("shop.git");
    let url = format!("file://{}", root.display());
    git(work.path(), &["clone", "-q", "--bare", "--filter=blob:none", &url, clone.to_str().unwrap()]);
    assert!(!has_object(&clone, &old_blob), "a blobless clone has no blobs yet");
    let (records, _) = batch(&dataset, &["--repo", &format!("acme/shop={}", clone.display())]);
    let record = &records["acme__shop-9"];
    assert_eq!(record["status"], "ok", "{record:#}");
    assert_eq!(names(record), ["average"]);
    assert!(!has_object(&clone, &old_blob), "the baseline's base version was fetched");
    assert!(has_object(&clone, git(&root, &["rev-parse", &format!("{base}:shop/cart.py")]).trim()));

    // The baseline's hunk made against another version of it: the task's answer is the same.
    let stale = test_patch.replace("-line 7 of the report", "-line 7 of an older report");
    assert_ne!(stale, test_patch);
    std::fs::write(&dataset, format!("{}\n", task(&stale))).unwrap();
    let (records, _) = batch(&dataset, &["--repo", &format!("acme/shop={}", root.display())]);
    assert_eq!(records["acme__shop-9"]["status"], "ok", "{:#}", records["acme__shop-9"]);
    assert_eq!(names(&records["acme__shop-9"]), ["average"]);
}
