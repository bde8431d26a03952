//! What re-runs when: proved from salsa's own execution events, not from timings.

use hintlens_db::Database;
use hintlens_snapshot::{NoBlobs, Snapshot};
use std::sync::{Arc, Mutex};

/// A database that records every `file_index` execution.
fn logging_database() -> (Database, Arc<Mutex<Vec<String>>>) {
    let log = Arc::new(Mutex::new(Vec::new()));
    let sink = log.clone();
    let db = Database::with_events(
        vec![Box::new(hintlens_python::Python)],
        Some(Box::new(move |event| {
            if let salsa::EventKind::WillExecute { database_key } = event.kind {
                let key = format!("{database_key:?}");
                if key.starts_with("file_index") {
                    sink.lock().unwrap().push(key);
                }
            }
        })),
    );
    (db, log)
}

fn snapshot(files: &[(&str, &str)]) -> Snapshot {
    Snapshot::from_files(files.iter().map(|(p, t)| (p.to_string(), t.as_bytes().to_vec())))
}

#[test]
fn a_second_snapshot_differing_in_one_file_reindexes_only_that_file() {
    let (db, log) = logging_database();
    let base =
        snapshot(&[("a.py", "def a(): pass\n"), ("b.py", "def b(): pass\n"), ("c.py", "X = 1\n"), ("README.md", "no")]);
    db.index_snapshot(&base, || NoBlobs);
    assert_eq!(log.lock().unwrap().len(), 3, "every Python file is indexed once: {:?}", log.lock().unwrap());
    log.lock().unwrap().clear();

    let reference = snapshot(&[
        ("a.py", "def a(): pass\n"),
        ("b.py", "def b(x): pass\n"),
        ("c.py", "X = 1\n"),
        ("README.md", "no"),
    ]);
    let index = db.index_snapshot(&reference, || NoBlobs);
    assert_eq!(log.lock().unwrap().len(), 1, "only b.py changed: {:?}", log.lock().unwrap());
    assert_eq!(index.len(), 3);
}

#[test]
fn one_blob_at_many_paths_is_indexed_once() {
    let (db, log) = logging_database();
    let same = "def shared(): pass\n";
    let s = snapshot(&[("x/a.py", same), ("y/a.py", same), ("z/b.py", same)]);
    db.index_snapshot(&s, || NoBlobs);
    assert_eq!(log.lock().unwrap().len(), 1, "{:?}", log.lock().unwrap());
    assert_eq!(db.interned_files(), 1);
}

#[test]
fn parallel_indexing_of_many_snapshots_indexes_each_blob_once() {
    let (db, log) = logging_database();
    let snapshots: Vec<Snapshot> = (0..8)
        .map(|i| {
            let files: Vec<(String, String)> = (0..40)
                .map(|f| {
                    (
                        format!("m{f}.py"),
                        if f == i { format!("def changed_{i}(): pass\n") } else { format!("def f{f}(): pass\n") },
                    )
                })
                .collect();
            Snapshot::from_files(files.into_iter().map(|(p, t)| (p, t.into_bytes())))
        })
        .collect();
    std::thread::scope(|scope| {
        for s in &snapshots {
            let db = db.clone();
            scope.spawn(move || db.index_snapshot(s, || NoBlobs));
        }
    });
    // 40 shared files, plus one changed file per snapshot (one of which replaces m0 … m7).
    assert_eq!(log.lock().unwrap().len(), 48, "{} executions", log.lock().unwrap().len());
}

/// On demand, nothing is parsed until asked; a name is looked for in the words of the files'
/// code (not comments or strings), so answering parses nothing; a string literal, in the files
/// whose words hold it, parsed to confirm. The answers are those of the snapshot indexed up
/// front.
#[test]
fn on_demand_names_are_answered_by_words_and_strings_parse_only_candidates() {
    let files = [
        ("pkg/fetch.py", "def fetch_all(url):\n    return url\n"),
        ("pkg/use.py", "from pkg.fetch import fetch_all\nfetch_all('x')\n"),
        ("pkg/comment.py", "# fetch_all is elsewhere\nX = 1\n"),
        ("pkg/string.py", "MESSAGE = 'call fetch_all first'\n"),
        ("pkg/other.py", "def unrelated(): pass\n"),
        ("README.md", "fetch_all"),
    ];
    let (full_db, _) = logging_database();
    let full = full_db.index_snapshot(&snapshot(&files), || NoBlobs);

    let (db, log) = logging_database();
    let demand = db.snapshot_on_demand(&snapshot(&files), Box::new(NoBlobs));
    assert_eq!(demand.len(), 5, "the claimed files, none read");
    assert!(demand.contains("pkg/other.py") && !demand.contains("README.md"));
    assert!(log.lock().unwrap().is_empty(), "listing the snapshot parses nothing");

    let names = |index: &hintlens_db::SnapshotIndex, db: &Database| -> Vec<String> {
        index.files_naming(db, "fetch_all").into_iter().map(|(p, _)| p.to_owned()).collect()
    };
    assert_eq!(names(&demand, &db), ["pkg/fetch.py", "pkg/use.py"]);
    assert_eq!(names(&demand, &db), names(&full, &full_db));
    assert_eq!(demand.occurrences(&db, "fetch_all"), 2);
    assert!(log.lock().unwrap().is_empty(), "{:?}", log.lock().unwrap());

    assert_eq!(demand.string_occurrences(&db, "call fetch_all first"), 1);
    assert_eq!(demand.string_occurrences(&db, "call fetch_all"), 0);
    assert_eq!(full.string_occurrences(&full_db, "call fetch_all first"), 1);
    assert_eq!(log.lock().unwrap().len(), 1, "only the file holding the words: {:?}", log.lock().unwrap());
    assert_eq!(demand.occurrences(&db, "nowhere"), 0);
    assert!(demand.get(&db, "pkg/other.py").is_some() && demand.read_errors().is_empty());
    assert_eq!(db.blobs_with_words(), 5);
}

#[test]
fn files_directly_in_a_directory() {
    let (db, _) = logging_database();
    let files = snapshot(&[
        ("top.py", ""),
        ("config.py", ""),
        ("config-x/a.py", ""),
        ("config/a.py", ""),
        ("config/b.py", ""),
        ("config/sub/c.py", ""),
        ("configs/d.py", ""),
    ]);
    let index = db.index_snapshot(&files, || NoBlobs);
    let python = db.language_of("a.py").unwrap();
    let names = |dir| index.in_directory(&db, dir, python).into_iter().map(|(p, _)| p.to_owned()).collect::<Vec<_>>();
    assert_eq!(names("config"), ["config/a.py", "config/b.py"]);
    assert_eq!(names("config/sub"), ["config/sub/c.py"]);
    assert_eq!(names(""), ["config.py", "top.py"]);
    assert!(names("missing").is_empty());
}

#[test]
fn directory_files_naming_every_part_of_a_name_are_the_only_ones_parsed() {
    let files = [
        ("pkg/store.py", "class Store:\n    def set_limit(self): pass\n"),
        ("pkg/calls.py", "def f(s):\n    s.set_limit()\n"),
        ("pkg/mention.py", "# Store.set_limit moved\nclass Store: pass\n"),
        ("pkg/other.py", "def unrelated(): pass\n"),
        ("pkg/sub/store.py", "class Store:\n    def set_limit(self): pass\n"),
    ];
    let (db, log) = logging_database();
    let demand = db.snapshot_on_demand(&snapshot(&files), Box::new(NoBlobs));
    let python = db.language_of("a.py").unwrap();
    let names = |names: &[Vec<&str>]| -> Vec<String> {
        demand.in_directory_naming(&db, "pkg", python, names).into_iter().map(str::to_owned).collect()
    };
    assert_eq!(names(&[vec!["Store", "set_limit"]]), ["pkg/store.py"], "a comment names nothing");
    assert!(log.lock().unwrap().is_empty(), "the words answer; only what is returned is ever parsed");
    assert_eq!(names(&[vec!["Store", "set_limit"], vec!["f"]]), ["pkg/calls.py", "pkg/store.py"]);
    assert!(names(&[vec!["aria-label"]]).is_empty(), "a part that is no word is found by its word runs");
    assert_eq!(names(&[vec!["Store", "set_limit?"]]), ["pkg/store.py"], "`set_limit?` spells `set_limit`");
    assert_eq!(names(&[vec!["[]"]]).len(), 4, "a part without words keeps every file");
    assert!(names(&[]).is_empty());
    // One file at a time: whether its code can name a name, from its words alone.
    assert!(demand.may_name(&db, "pkg/calls.py", "set_limit") && !demand.may_name(&db, "pkg/other.py", "set_limit"));
    assert!(!demand.may_name(&db, "pkg/mention.py", "set_limit"), "a comment names nothing");
    assert!(demand.may_name(&db, "pkg/other.py", "a.b"), "a name of several words may be named anywhere");
    assert!(demand.may_name(&db, "pkg/calls.py", "set_limit?") && !demand.may_name(&db, "pkg/other.py", "set_limit?"));
    assert!(!demand.may_name(&db, "pkg/missing.py", "f"));
    assert!(log.lock().unwrap().is_empty(), "nothing is parsed: {:?}", log.lock().unwrap());
}

/// Python, recording for every extraction whether it was handed an earlier version's parse.
struct Recording(Arc<Mutex<Vec<(String, bool)>>>);

impl hintlens_syntax::Frontend for Recording {
    fn spec(&self) -> &'static hintlens_syntax::LanguageSpec {
        hintlens_python::Python.spec()
    }
    fn extract_source(
        &self,
        text: &[u8],
        earlier: Option<hintlens_syntax::reuse::Earlier>,
    ) -> (hintlens_syntax::FileIndex, Option<hintlens_syntax::reuse::Parse>) {
        let first_line = String::from_utf8_lossy(text).lines().next().unwrap_or_default().to_owned();
        self.0.lock().unwrap().push((first_line, earlier.is_some()));
        hintlens_python::Python.extract_reusing(text, earlier)
    }
    fn source_module_name(&self, path: &str, index: &hintlens_syntax::FileIndex) -> String {
        hintlens_python::Python.module_name(path, index)
    }
    fn bare_parse(&self, text: &[u8]) -> usize {
        hintlens_python::Python.bare_parse(text)
    }
}

#[test]
fn the_second_version_of_a_related_file_is_parsed_from_the_first() {
    use hintlens_db::{LanguageId, file_index};
    use hintlens_syntax::Frontend;
    let log = Arc::new(Mutex::new(Vec::new()));
    let db = Database::new(vec![Box::new(Recording(log.clone()))]);
    let base = snapshot(&[("a.py", "# a, base\ndef f():\n    return 1\n"), ("b.py", "# b\nX = 1\n")]);
    let reference = snapshot(&[
        ("a.py", "# a, reference\ndef f():\n    return 2\n\ndef g():\n    pass\n"),
        ("b.py", "# b\nX = 1\n"),
    ]);
    let python = LanguageId(0);
    db.relate_versions((base.get("a.py").unwrap().id, python), (reference.get("a.py").unwrap().id, python));
    let (at_base, at_reference) =
        (db.snapshot_on_demand(&base, Box::new(NoBlobs)), db.snapshot_on_demand(&reference, Box::new(NoBlobs)));

    // The reference first, then the base: whichever comes second starts from the other's tree.
    let later = file_index(&db, at_reference.get(&db, "a.py").unwrap()).clone();
    let earlier = file_index(&db, at_base.get(&db, "a.py").unwrap()).clone();
    file_index(&db, at_base.get(&db, "b.py").unwrap());
    assert_eq!(
        *log.lock().unwrap(),
        [("# a, reference".to_owned(), false), ("# a, base".to_owned(), true), ("# b".to_owned(), false)]
    );
    let python = hintlens_python::Python;
    assert_eq!(later, python.extract(reference.read("a.py", &NoBlobs).unwrap().as_ref()));
    assert_eq!(earlier, python.extract(base.read("a.py", &NoBlobs).unwrap().as_ref()));
    assert_eq!(later.definitions.iter().map(|d| d.name.as_str()).collect::<Vec<_>>(), ["f", "g"]);
}

/// A file big enough for its parse to be kept for a later task: `first_line`, then `functions`
/// definitions (`f0`, `f1`, ...) of about 30 bytes each.
fn big_file(first_line: &str, functions: usize) -> String {
    let mut text = format!("{first_line}\n");
    for i in 0..functions {
        text.push_str(&format!("def f{i}():\n    return {i}\n\n"));
    }
    text
}

#[test]
fn a_later_task_parses_another_version_of_a_path_from_the_tree_an_earlier_task_kept() {
    use hintlens_db::file_index;
    use hintlens_syntax::Frontend;
    let log = Arc::new(Mutex::new(Vec::new()));
    let batch = Database::new(vec![Box::new(Recording(log.clone()))]);
    let (v1, v2, v3) = (big_file("# v1", 3000), big_file("# v2", 3001), big_file("# v3", 2999));
    assert!(v1.len() > 64 << 10, "big enough to be kept");
    let small = |tag: &str| format!("# {tag}\nX = 1\n");
    let snapshots = [
        snapshot(&[("big.py", &v1), ("small.py", &small("small 1"))]),
        snapshot(&[("big.py", &v2), ("small.py", &small("small 2"))]),
        // Moved: another path's tree is no start.
        snapshot(&[("moved/big.py", &v3)]),
        snapshot(&[("big.py", &v3)]),
    ];
    let mut indexes = Vec::new();
    for (task, files) in snapshots.iter().enumerate() {
        // Each task has its own database; only what the batch shares outlives it.
        let db = batch.for_task(task as u32);
        let at = db.snapshot_on_demand(files, Box::new(NoBlobs));
        for path in ["big.py", "small.py", "moved/big.py"] {
            if let Some(file) = at.get(&db, path) {
                indexes.push((files.read(path, &NoBlobs).unwrap(), file_index(&db, file).clone()));
            }
        }
    }
    let seen: Vec<(String, bool)> = log.lock().unwrap().clone();
    let expected =
        [("# v1", false), ("# small 1", false), ("# v2", true), ("# small 2", false), ("# v3", false), ("# v3", true)];
    assert_eq!(seen, expected.map(|(line, reused)| (line.to_owned(), reused)));
    // Parsed from another version's tree or from nothing, the index is the same.
    for (text, index) in indexes {
        assert_eq!(index, hintlens_python::Python.extract(&text));
    }
}

#[test]
fn a_parse_no_version_of_its_task_claimed_is_kept_for_the_later_task_the_plan_names_and_no_other() {
    use hintlens_db::{LanguageId, file_index};
    let log = Arc::new(Mutex::new(Vec::new()));
    let batch = Database::new(vec![Box::new(Recording(log.clone()))]);
    // `test.py` is changed by tasks 0 and 2, `once.py` by task 0 alone (task 1 reads a version of
    // it all the same, which the plan did not foresee).
    batch.plan_shelf([("test.py".into(), 2), ("once.py".into(), 0)].into_iter().collect());
    let version = |tag: &str| big_file(&format!("# {tag}"), 300);
    let python = LanguageId(0);
    let tasks = [
        (snapshot(&[("test.py", &version("t base")), ("once.py", &version("o1"))]), version("t0")),
        (snapshot(&[("test.py", &version("t0")), ("once.py", &version("o2"))]), version("t1")),
        (snapshot(&[("test.py", &version("t1"))]), version("t2")),
    ];
    for (task, (base, test_at_reference)) in tasks.iter().enumerate() {
        let db = batch.for_task(task as u32);
        let reference = snapshot(&[("test.py", test_at_reference)]);
        let id = |s: &Snapshot| (s.get("test.py").unwrap().id, python);
        // A test file: its base is related, never read.
        db.relate_versions(id(base), id(&reference));
        let at = db.snapshot_on_demand(&reference, Box::new(NoBlobs));
        file_index(&db, at.get(&db, "test.py").unwrap());
        if task < 2 {
            let at_base = db.snapshot_on_demand(base, Box::new(NoBlobs));
            file_index(&db, at_base.get(&db, "once.py").unwrap());
        }
    }
    let seen: Vec<(String, bool)> = log.lock().unwrap().clone();
    // Task 0's reference parse, which its base never claimed, starts task 1's; task 1's once.py
    // starts from nothing, since the plan said no later task reads it after task 0.
    let expected = [("# t0", false), ("# o1", false), ("# t1", true), ("# o2", false), ("# t2", true)];
    assert_eq!(seen, expected.map(|(line, reused)| (line.to_owned(), reused)));
}

#[test]
fn blob_words_are_kept_while_a_task_at_hand_holds_the_blob() {
    let (db, _) = logging_database();
    let older = snapshot(&[("a.py", "def a(): pass\n"), ("b.py", "def b(): pass\n")]);
    let newer = snapshot(&[("a.py", "def a(): pass\n"), ("b.py", "def b2(): pass\n")]);
    let first = db.for_task(0);
    let at_first = first.snapshot_on_demand(&older, Box::new(NoBlobs));
    assert_eq!(at_first.occurrences(&first, "a"), 1);
    assert_eq!(db.blobs_with_words(), 2);
    // The second task's snapshot holds `a.py`'s blob too, not `b.py`'s older one.
    let second = db.for_task(1);
    let at_second = second.snapshot_on_demand(&newer, Box::new(NoBlobs));
    first.forget_words_before(1);
    assert_eq!(db.blobs_with_words(), 1, "only the words of the blob a task at hand holds");
    assert_eq!(at_second.occurrences(&second, "b2"), 1);
    assert_eq!(db.blobs_with_words(), 2);
    // Forgotten words are read again when asked: the answer does not change.
    assert_eq!(at_first.occurrences(&first, "b"), 1);
    second.forget_words_before(2);
    assert_eq!(db.blobs_with_words(), 0);
}

#[test]
fn a_reference_index_derived_from_its_base_lists_what_indexing_it_afresh_lists() {
    let (db, _) = logging_database();
    let base = snapshot(&[
        ("a.py", "def a(): pass\n"),
        ("b.py", "def b(): pass\n"),
        ("gone.py", "X = 1\n"),
        ("z/last.py", "Z = 1\n"),
        ("README.md", "no\n"),
    ]);
    let patch = "\
diff --git a/b.py b/b.py
--- a/b.py
+++ b/b.py
@@ -1 +1 @@
-def b(): pass
+def b(x): pass
diff --git a/gone.py b/gone.py
deleted file mode 100644
--- a/gone.py
+++ /dev/null
@@ -1 +0,0 @@
-X = 1
diff --git a/new.py b/new.py
new file mode 100644
--- /dev/null
+++ b/new.py
@@ -0,0 +1 @@
+def n(): pass
diff --git a/README.md b/README.md
--- a/README.md
+++ b/README.md
@@ -1 +1 @@
-no
+yes
";
    let reference = hintlens_snapshot::build_reference(&base, &NoBlobs, patch.as_bytes(), b"").unwrap().snapshot;
    assert!(reference.changes_since(&base).is_some(), "a reference built by patching is derived from its base");
    let base_index = db.snapshot_on_demand(&base, Box::new(NoBlobs));
    let derived = db.derive_on_demand(&base, &base_index, &reference, Box::new(NoBlobs));
    let afresh = db.snapshot_on_demand(&reference, Box::new(NoBlobs));
    let paths = |index: &hintlens_db::SnapshotIndex| index.paths(&db).map(|(p, _)| p.to_owned()).collect::<Vec<_>>();
    assert_eq!(paths(&derived), ["a.py", "b.py", "new.py", "z/last.py"]);
    assert_eq!(paths(&derived), paths(&afresh));
    let id = |index: &hintlens_db::SnapshotIndex, path| index.get(&db, path).map(|f| f.text(&db).clone());
    for path in ["a.py", "b.py", "new.py", "z/last.py"] {
        assert_eq!(id(&derived, path), id(&afresh, path), "{path}");
    }
    // Not derived from it: indexed afresh, the same files.
    let other = db.derive_on_demand(&reference, &base_index, &base, Box::new(NoBlobs));
    assert_eq!(paths(&other), paths(&base_index));
}

/// A database over `frontends` that logs each run of `file_index` and `file_outline`.
fn logging_reads(frontends: Vec<Box<dyn hintlens_syntax::Frontend>>) -> (Database, Arc<Mutex<Vec<&'static str>>>) {
    let log = Arc::new(Mutex::new(Vec::new()));
    let sink = log.clone();
    let db = Database::with_events(
        frontends,
        Some(Box::new(move |event| {
            if let salsa::EventKind::WillExecute { database_key } = event.kind {
                let key = format!("{database_key:?}");
                if let Some(query) = ["file_index", "file_outline"].into_iter().find(|q| key.starts_with(q)) {
                    sink.lock().unwrap().push(query);
                }
            }
        })),
    );
    (db, log)
}

/// A file read for its definitions alone is walked for its outline, not its index, unless its
/// index has been read already: then that index answers, and the file is walked once.
#[test]
fn definitions_come_from_the_outline_unless_the_index_was_read() {
    let (db, log) = logging_reads(vec![Box::new(hintlens_c::Cpp), Box::new(hintlens_python::Python)]);
    let body = "int twice(int x) {\n  int y = x + x;\n  return y;\n}\n";
    let files = snapshot(&[
        ("base.cpp", &format!("{body}int twice_base(int x) {{ return twice(x); }}\n")),
        ("read.cpp", &format!("{body}int twice_read(int x) {{ return twice(x); }}\n")),
        ("a.py", "def f(x):\n    return g(x)\n"),
    ]);
    let files = db.snapshot_on_demand(&files, Box::new(NoBlobs));
    let (base, read, python) =
        (files.get(&db, "base.cpp").unwrap(), files.get(&db, "read.cpp").unwrap(), files.get(&db, "a.py").unwrap());
    let taken = || std::mem::take(&mut *log.lock().unwrap());

    let outline = hintlens_db::file_definitions(&db, base);
    assert_eq!(taken(), ["file_outline"], "a file not indexed is outlined");
    let index = hintlens_db::file_index(&db, base);
    assert_eq!(outline.outlined(), index.outlined(), "every definition, as the index has it");
    assert!(outline.uses.len() < index.uses.len(), "the bodies' uses are left out: {:?}", outline.uses);
    taken();

    hintlens_db::file_index(&db, read);
    assert_eq!(taken(), ["file_index"]);
    let definitions = hintlens_db::file_definitions(&db, read);
    assert!(taken().is_empty(), "an indexed file's definitions are its index's");
    assert_eq!(definitions, hintlens_db::file_index(&db, read));

    hintlens_db::file_definitions(&db, python);
    assert_eq!(taken(), ["file_index"], "a language without an outline is indexed");
}

/// A changed file read for the uses its change adds ([`hintlens_db::file_uses_on`]) is walked
/// once, as an outline that keeps those lines: the bodies holding them are read, the others
/// are not, and its definitions are that outline's.
#[test]
fn a_changed_file_is_read_for_the_uses_of_its_added_lines() {
    let (db, log) = logging_reads(vec![Box::new(hintlens_c::Cpp)]);
    let text = "int twice(int x) {\n  return helper(x);\n}\nint thrice(int x) {\n  return other(x);\n}\n";
    let files = db.snapshot_on_demand(&snapshot(&[("a.cpp", text)]), Box::new(NoBlobs));
    let file = files.get(&db, "a.cpp").unwrap();
    let taken = || std::mem::take(&mut *log.lock().unwrap());
    let added = hintlens_syntax::Lines::new([4]);

    let read = hintlens_db::file_uses_on(&db, file, &added);
    assert_eq!(taken(), ["file_outline"]);
    let names: Vec<&str> = read.uses.iter().map(|u| u.name.as_str()).collect();
    assert!(names.contains(&"other") && !names.contains(&"helper"), "the added line's body alone: {names:?}");
    let definitions = hintlens_db::file_definitions(&db, file);
    assert!(taken().is_empty(), "its definitions are the outline read");
    assert!(std::ptr::eq(definitions, read));

    let index = hintlens_db::file_index(&db, file);
    assert_eq!(read.kept(&added), index.kept(&added), "the added line's uses, as the index has them");
    taken();
    hintlens_db::file_uses_on(&db, file, &hintlens_syntax::Lines::new([1]));
    assert!(taken().is_empty(), "once indexed, the index answers for any lines");

    // An input whose text each edit sets is read whole: an outline for each edit's added lines
    // would each be kept.
    let edited = hintlens_db::SourceFile::new(&db, Arc::from(text.as_bytes()), file.language(&db));
    db.read_whole(edited);
    hintlens_db::file_uses_on(&db, edited, &added);
    hintlens_db::file_definitions(&db, edited);
    assert_eq!(taken(), ["file_index"]);
}
