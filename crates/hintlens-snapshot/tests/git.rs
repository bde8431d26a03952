//! Repositories made with the `git` CLI, read back through `Repository`.
#![cfg(unix)]

use std::collections::BTreeMap;
use std::fs;
use std::os::unix::fs::{PermissionsExt, symlink};
use std::path::Path;
use std::process::Command;

use hintlens_snapshot::{
    BlobSource, FileStatus, Mode, ObjectId, Repository, Snapshot, build_reference, changes_between,
};

fn git(dir: &Path, args: &[&str]) -> String {
    let output = Command::new("git")
        .current_dir(dir)
        .args(args)
        // Independent of the machine's git configuration, and reproducible.
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_CONFIG_SYSTEM", "/dev/null")
        .env("GIT_AUTHOR_NAME", "Test")
        .env("GIT_AUTHOR_EMAIL", "test@example.com")
        .env("GIT_AUTHOR_DATE", "2024-01-01T00:00:00Z")
        .env("GIT_COMMITTER_NAME", "Test")
        .env("GIT_COMMITTER_EMAIL", "test@example.com")
        .env("GIT_COMMITTER_DATE", "2024-01-01T00:00:00Z")
        .output()
        .expect("git is installed");
    assert!(output.status.success(), "git {args:?} failed: {}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8(output.stdout).unwrap()
}

fn write(dir: &Path, path: &str, content: &[u8]) {
    let path = dir.join(path);
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, content).unwrap();
}

fn set_executable(dir: &Path, path: &str) {
    fs::set_permissions(dir.join(path), fs::Permissions::from_mode(0o755)).unwrap();
}

fn init(dir: &Path) {
    git(dir, &["init", "-q", "-b", "main", "."]);
}

fn commit(dir: &Path, message: &str) -> String {
    git(dir, &["add", "-A"]);
    git(dir, &["commit", "-q", "-m", message]);
    git(dir, &["rev-parse", "HEAD"]).trim().to_owned()
}

/// A repository with a file in a subdirectory, an executable, a symlink and a submodule.
fn sample_repo(dir: &Path) -> String {
    init(dir);
    write(dir, "README.md", b"hello\n");
    write(dir, "src/pkg/mod.py", b"def f():\n    return 1\n");
    write(dir, "bin/run", b"#!/bin/sh\n");
    set_executable(dir, "bin/run");
    symlink("README.md", dir.join("link")).unwrap();
    // A gitlink need not name a commit this repository has.
    git(dir, &["update-index", "--add", "--cacheinfo", "160000,1111111111111111111111111111111111111111,vendor/sub"]);
    commit(dir, "initial")
}

fn listing(snapshot: &Snapshot) -> Vec<(String, Mode)> {
    snapshot.iter().map(|(path, entry)| (path.to_owned(), entry.mode)).collect()
}

fn text(snapshot: &Snapshot, path: &str, source: &dyn BlobSource) -> String {
    String::from_utf8(snapshot.read(path, source).unwrap().to_vec()).unwrap()
}

#[test]
fn snapshot_lists_files_modes_and_symlinks_but_not_submodules() {
    let dir = tempfile::tempdir().unwrap();
    sample_repo(dir.path());
    let repo = Repository::open(dir.path()).unwrap();
    let snapshot = repo.snapshot(repo.resolve_commit("HEAD").unwrap()).unwrap();
    assert_eq!(
        listing(&snapshot),
        [
            ("README.md".to_owned(), Mode::File),
            ("bin/run".to_owned(), Mode::Executable),
            ("link".to_owned(), Mode::Symlink),
            ("src/pkg/mod.py".to_owned(), Mode::File),
        ]
    );
    let reader = repo.reader();
    assert_eq!(text(&snapshot, "src/pkg/mod.py", &reader), "def f():\n    return 1\n");
    assert_eq!(text(&snapshot, "link", &reader), "README.md");
    let expected_id = git(dir.path(), &["rev-parse", "HEAD:README.md"]);
    assert_eq!(snapshot.get("README.md").unwrap().id.to_string(), expected_id.trim());
}

#[test]
fn resolves_full_and_short_shas_refs_and_tags() {
    let dir = tempfile::tempdir().unwrap();
    let first = sample_repo(dir.path());
    git(dir.path(), &["tag", "-a", "v1", "-m", "release"]);
    write(dir.path(), "README.md", b"hello again\n");
    let second = commit(dir.path(), "second");
    let repo = Repository::open(dir.path()).unwrap();
    let resolve = |rev: &str| repo.resolve_commit(rev).unwrap().to_string();

    assert_eq!(resolve(&first), first);
    assert_eq!(resolve(&first[..8]), first);
    assert_eq!(resolve("HEAD"), second);
    assert_eq!(resolve("main"), second);
    assert_eq!(resolve("HEAD~1"), first);
    assert_eq!(resolve("v1"), first, "annotated tags peel to their commit");

    let error = repo.resolve_commit("no-such-branch").unwrap_err().to_string();
    let expected = format!("commit no-such-branch not found in {}", dir.path().display());
    assert!(error.starts_with(&expected), "{error}");
    let blob = git(dir.path(), &["rev-parse", "HEAD:README.md"]);
    assert!(repo.resolve_commit(blob.trim()).is_err(), "a blob is not a commit");
}

#[test]
fn the_work_tree_and_index_are_neither_read_nor_written() {
    let dir = tempfile::tempdir().unwrap();
    sample_repo(dir.path());
    write(dir.path(), "README.md", b"dirty\n");
    write(dir.path(), "src/pkg/mod.py", b"staged\n");
    git(dir.path(), &["add", "src/pkg/mod.py"]);
    write(dir.path(), "untracked.py", b"new\n");
    let status = git(dir.path(), &["status", "--porcelain"]);
    let index_path = dir.path().join(".git/index");
    let index = fs::read(&index_path).unwrap();
    let index_modified = fs::metadata(&index_path).unwrap().modified().unwrap();

    let repo = Repository::open(dir.path()).unwrap();
    let snapshot = repo.snapshot(repo.resolve_commit("HEAD").unwrap()).unwrap();
    let reader = repo.reader();
    assert_eq!(text(&snapshot, "README.md", &reader), "hello\n");
    assert_eq!(text(&snapshot, "src/pkg/mod.py", &reader), "def f():\n    return 1\n");
    assert!(snapshot.get("untracked.py").is_none());

    assert_eq!(fs::read(dir.path().join("README.md")).unwrap(), b"dirty\n");
    assert_eq!(fs::read(&index_path).unwrap(), index);
    assert_eq!(fs::metadata(&index_path).unwrap().modified().unwrap(), index_modified);
    assert_eq!(git(dir.path(), &["status", "--porcelain"]), status);
}

/// Git's index vouches only for files whose stat data it recorded and that have not changed
/// since: an edited, a staged, an untracked or a rewritten file is for the caller to read.
#[test]
fn the_stat_cache_vouches_only_for_files_git_has_seen_unchanged() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    sample_repo(root);
    write(root, "src/untouched.py", b"x = 1\n");
    write(root, "src/edited.py", b"y = 1\n");
    write(root, "src/rewritten.py", b"z = 1\n");
    // Git vouches for no file written in the instant it writes its index ("racily clean"):
    // the files are made older than the index first (file times are coarser than a jiffy).
    let settle = || std::thread::sleep(std::time::Duration::from_millis(50));
    settle();
    let head = commit(root, "more");
    write(root, "src/staged.py", b"staged\n");
    settle();
    git(root, &["add", "src/staged.py"]);
    write(root, "src/untracked.py", b"new\n");
    // After git wrote its index: the same size, other bytes; and the same bytes written anew.
    settle();
    write(root, "src/edited.py", b"y = 2\n");
    write(root, "src/rewritten.py", b"z = 1\n");

    let repo = Repository::open(root).unwrap();
    let cache = repo.stat_cache().expect("a work tree with an index");
    let snapshot = repo.snapshot(repo.resolve_commit(&head).unwrap()).unwrap();
    let blob = |path: &str| cache.blob(path, &root.join(path));
    assert_eq!(blob("src/untouched.py"), Some(snapshot.get("src/untouched.py").unwrap().id));
    assert_eq!(blob("README.md"), Some(snapshot.get("README.md").unwrap().id));
    assert_eq!(blob("src/edited.py"), None, "edited after the index was written");
    assert_eq!(blob("src/rewritten.py"), None, "its stat data changed, whatever its bytes");
    assert_eq!(blob("src/untracked.py"), None);
    assert_eq!(blob("link"), None, "a symbolic link is no file");
    // A staged file holds the staged blob, which is not the commit's.
    let staged = blob("src/staged.py").expect("git add recorded its stat data");
    assert!(snapshot.get("src/staged.py").is_none());
    assert_eq!(staged, hintlens_snapshot::blob_id(b"staged\n"));

    let bare = tempfile::tempdir().unwrap();
    git(bare.path(), &["clone", "-q", "--bare", root.to_str().unwrap(), "bare.git"]);
    assert!(Repository::open(&bare.path().join("bare.git")).unwrap().stat_cache().is_none());
}

#[test]
fn bare_repositories_read_like_work_trees() {
    let dir = tempfile::tempdir().unwrap();
    let work = dir.path().join("work");
    fs::create_dir(&work).unwrap();
    let head = sample_repo(&work);
    git(dir.path(), &["clone", "-q", "--bare", "work", "bare.git"]);

    let bare = Repository::open(&dir.path().join("bare.git")).unwrap();
    let from_bare = bare.snapshot(bare.resolve_commit(&head[..10]).unwrap()).unwrap();
    let work = Repository::open(&work).unwrap();
    let from_work = work.snapshot(work.resolve_commit("HEAD").unwrap()).unwrap();
    assert_eq!(listing(&from_bare), listing(&from_work));
    assert_eq!(text(&from_bare, "README.md", &bare.reader()), "hello\n");
}

#[test]
fn opening_something_that_is_not_a_repository_says_where() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("missing");
    let error = Repository::open(&missing).unwrap_err().to_string();
    assert!(error.starts_with(&format!("cannot open git repository at {}: ", missing.display())), "{error}");
    let plain = dir.path().join("plain");
    fs::create_dir(&plain).unwrap();
    let error = Repository::open(&plain).unwrap_err().to_string();
    assert!(error.starts_with(&format!("cannot open git repository at {}: ", plain.display())), "{error}");
}

#[test]
fn readers_work_on_many_threads() {
    fn assert_shareable<T: Clone + Send + Sync>() {}
    assert_shareable::<Repository>();
    assert_shareable::<Snapshot>();

    let dir = tempfile::tempdir().unwrap();
    sample_repo(dir.path());
    let repo = Repository::open(dir.path()).unwrap();
    let snapshot = repo.snapshot(repo.resolve_commit("HEAD").unwrap()).unwrap();
    std::thread::scope(|scope| {
        for _ in 0..4 {
            scope.spawn(|| {
                let reader = repo.reader();
                assert_eq!(text(&snapshot, "README.md", &reader), "hello\n");
            });
        }
    });
}

/// Files of every kind `git diff` has special syntax for.
fn before_and_after(dir: &Path) -> (String, String) {
    init(dir);
    let lines: String = (1..=30).map(|i| format!("line {i}\n")).collect();
    write(dir, "src/edit.py", lines.as_bytes());
    write(dir, "src/move_me.py", lines.as_bytes());
    let other: String = (1..=30).map(|i| format!("other {i}\n")).collect();
    write(dir, "src/move_and_edit.py", other.as_bytes());
    write(dir, "src/delete_me.py", b"bye\n");
    write(dir, "src/crlf.txt", b"one\r\ntwo\r\nthree\r\n");
    write(dir, "src/no_eol.txt", b"a\nb");
    write(dir, "src/gets_eol_removed.txt", b"a\nb\n");
    write(dir, "src/with space.py", b"x = 1\n");
    write(dir, "src/café.py", b"x = 1\n");
    write(dir, "src/becomes_link", b"data\n");
    write(dir, "run.sh", b"echo\n");
    write(dir, "logo.png", b"\x89PNG\r\n\x1a\n\0\0old");
    write(dir, "tests/test_edit.py", lines.as_bytes());
    let before = commit(dir, "before");

    let mut edited: Vec<String> = lines.lines().map(str::to_owned).collect();
    edited[2] = "changed 3".into();
    edited.insert(20, "inserted".into());
    edited.remove(27);
    write(dir, "src/edit.py", (edited.join("\n") + "\n").as_bytes());
    fs::create_dir(dir.join("lib")).unwrap();
    fs::rename(dir.join("src/move_me.py"), dir.join("lib/moved.py")).unwrap();
    fs::remove_file(dir.join("src/move_and_edit.py")).unwrap();
    write(dir, "lib/moved_and_edited.py", (other + "other 31\n").as_bytes());
    fs::remove_file(dir.join("src/delete_me.py")).unwrap();
    write(dir, "src/crlf.txt", b"one\r\n2\r\nthree\r\n");
    write(dir, "src/no_eol.txt", b"a\nb\nc\n");
    write(dir, "src/gets_eol_removed.txt", b"a\nB");
    write(dir, "src/with space.py", b"x = 2\n");
    write(dir, "src/café.py", b"x = 2\n");
    write(dir, "src/new.py", b"new = True\n");
    write(dir, "src/empty.py", b"");
    fs::remove_file(dir.join("src/becomes_link")).unwrap();
    symlink("edit.py", dir.join("src/becomes_link")).unwrap();
    set_executable(dir, "run.sh");
    write(dir, "logo.png", b"\x89PNG\r\n\x1a\n\0\0new");
    write(dir, "tests/test_edit.py", (lines + "extra\n").as_bytes());
    let after = commit(dir, "after");
    (before, after)
}

fn ids(snapshot: &Snapshot) -> BTreeMap<String, (ObjectId, Mode)> {
    snapshot.iter().map(|(path, entry)| (path.to_owned(), (entry.id, entry.mode))).collect()
}

#[test]
fn git_diff_output_rebuilds_the_later_commit() {
    let dir = tempfile::tempdir().unwrap();
    let (before, after) = before_and_after(dir.path());
    let code = git(dir.path(), &["diff", &before, &after, "--", ".", ":!tests"]);
    let test = git(dir.path(), &["diff", &before, &after, "--", "tests"]);
    for feature in [
        "similarity index 100%\nrename from src/move_me.py",
        "rename from src/move_and_edit.py",
        "old mode 100644\nnew mode 100755",
        "new file mode 120000",
        "deleted file mode 100644",
        "new file mode 100644\nindex 0000000..e69de29\n",
        "\\ No newline at end of file",
        "+2\r\n",
        "--- a/src/with space.py\t\n",
        "--- \"a/src/caf\\303\\251.py\"",
        "Binary files a/logo.png and b/logo.png differ",
    ] {
        assert!(code.contains(feature), "{feature:?} not in {code}");
    }

    let repo = Repository::open(dir.path()).unwrap();
    let reader = repo.reader();
    let base = repo.snapshot(repo.resolve_commit(&before).unwrap()).unwrap();
    let reference =
        build_reference(&base, &reader, code.as_bytes(), test.as_bytes()).unwrap_or_else(|error| panic!("{error}"));
    let mut expected = ids(&repo.snapshot(repo.resolve_commit(&after).unwrap()).unwrap());
    // Without `--binary` the image's new content is not in the patch.
    expected.insert("logo.png".into(), ids(&base)["logo.png"]);
    assert_eq!(ids(&reference.snapshot), expected);
    assert_eq!(
        reference.notes,
        ["code patch: binary patch for logo.png skipped: the reference snapshot keeps its previous content"]
    );

    let numstat = git(dir.path(), &["diff", "--numstat", &before, &after]);
    let mut checked = 0;
    for line in numstat.lines() {
        let [added, _, path] = line.splitn(3, '\t').collect::<Vec<_>>()[..] else { panic!("{line}") };
        let Ok(added) = added.parse::<usize>() else {
            continue;
        };
        // Renames print as `src/{move_me.py => ../lib/moved.py}`; they are checked below.
        if path.contains("=>") {
            continue;
        }
        let path = path.trim_matches('"').replace("\\303\\251", "é");
        let changes = if path.starts_with("tests/") { &reference.test } else { &reference.code };
        let change = changes.files.get(&path).unwrap_or_else(|| panic!("{path} not in {changes:?}"));
        assert_eq!(change.added_lines.len(), added, "{path}");
        checked += 1;
    }
    assert!(checked >= 10, "{numstat}");
    let edit = &reference.code.files["src/edit.py"];
    assert_eq!(edit.added_lines, [2, 20]);
    let moved = &reference.code.files["lib/moved_and_edited.py"];
    assert_eq!(
        (moved.status, moved.old_path.as_deref(), moved.added_lines.as_slice()),
        (FileStatus::Renamed, Some("src/move_and_edit.py"), &[30][..])
    );
    assert_eq!(reference.code.files["lib/moved.py"].status, FileStatus::Renamed);
    assert_eq!(reference.test.files["tests/test_edit.py"].added_lines, [30]);
}

#[test]
fn git_binary_patches_apply_as_git_applies_them() {
    let dir = tempfile::tempdir().unwrap();
    let (before, after) = before_and_after(dir.path());
    let code = git(dir.path(), &["diff", "--binary", &before, &after]);
    assert!(code.contains("GIT binary patch"), "{code}");

    let repo = Repository::open(dir.path()).unwrap();
    let reader = repo.reader();
    let base = repo.snapshot(repo.resolve_commit(&before).unwrap()).unwrap();
    let reference = build_reference(&base, &reader, code.as_bytes(), b"").unwrap_or_else(|error| panic!("{error}"));
    // The binary image's delta too: every blob is the one git committed.
    assert_eq!(ids(&reference.snapshot), ids(&repo.snapshot(repo.resolve_commit(&after).unwrap()).unwrap()));
    assert!(reference.notes.is_empty(), "{:?}", reference.notes);
}

#[test]
fn changes_between_two_commits_agrees_with_their_git_diff() {
    let dir = tempfile::tempdir().unwrap();
    let (before, after) = before_and_after(dir.path());
    let repo = Repository::open(dir.path()).unwrap();
    let reader = repo.reader();
    let base = repo.snapshot(repo.resolve_commit(&before).unwrap()).unwrap();
    let later = repo.snapshot(repo.resolve_commit(&after).unwrap()).unwrap();
    let is_test = |path: &str| path.starts_with("tests/");
    let (code, test) = changes_between(&base, &later, &reader, is_test).unwrap();

    let diff = |pathspec: &[&str]| git(dir.path(), &[&["diff", "--binary", &before, &after, "--"], pathspec].concat());
    let patched = build_reference(&base, &reader, diff(&[".", ":!tests"]).as_bytes(), diff(&["tests"]).as_bytes())
        .unwrap_or_else(|error| panic!("{error}"));
    for (mine, git) in [(&code, &patched.code), (&test, &patched.test)] {
        for (path, expected) in &git.files {
            // Without similarity detection an edited move is a deletion plus an addition.
            if path == "lib/moved_and_edited.py" {
                assert_eq!(mine.files[path].status, FileStatus::Added);
                assert_eq!(mine.files["src/move_and_edit.py"].status, FileStatus::Deleted);
                continue;
            }
            let change = mine.files.get(path).unwrap_or_else(|| panic!("{path} missing from {mine:?}"));
            assert_eq!(
                (change.status, &change.old_path, &change.added_lines),
                (expected.status, &expected.old_path, &expected.added_lines),
                "{path}"
            );
        }
    }
    assert_eq!(code.files.len(), patched.code.files.len() + 1, "{code:?}");
    assert_eq!(test.files.keys().collect::<Vec<_>>(), ["tests/test_edit.py"]);
}

/// Snapshots of commits sharing trees, read one after the other (the cached tree handle) and
/// from several threads at once (a fresh handle for all but one), are each the commit's own.
#[test]
fn snapshots_read_again_and_at_once_are_the_commits_own() {
    let dir = tempfile::tempdir().unwrap();
    let first = sample_repo(dir.path());
    write(dir.path(), "src/pkg/mod.py", b"def f():\n    return 2\n");
    write(dir.path(), "src/pkg/new.py", b"x = 1\n");
    let second = commit(dir.path(), "second");
    let repo = Repository::open(dir.path()).unwrap();
    let ids = [repo.resolve_commit(&first).unwrap(), repo.resolve_commit(&second).unwrap()];
    let expected: Vec<Vec<(String, String)>> = ids
        .iter()
        .map(|&id| {
            let snapshot = repo.snapshot(id).unwrap();
            snapshot.iter().map(|(p, e)| (p.to_owned(), e.id.to_string())).collect()
        })
        .collect();
    assert_eq!(expected[0].len() + 1, expected[1].len());
    assert_ne!(expected[0], expected[1]);
    std::thread::scope(|scope| {
        for round in 0..8 {
            let (repo, expected) = (&repo, &expected);
            scope.spawn(move || {
                for (i, &id) in ids.iter().enumerate().cycle().skip(round % 2).take(6) {
                    let snapshot = repo.snapshot(id).unwrap();
                    let listing: Vec<(String, String)> =
                        snapshot.iter().map(|(p, e)| (p.to_owned(), e.id.to_string())).collect();
                    assert_eq!(listing, expected[i]);
                }
            });
        }
    });
    // Both commits were made at the date the test's git is given.
    assert_eq!(repo.commit_time(ids[0]).unwrap(), 1_704_067_200);
}
