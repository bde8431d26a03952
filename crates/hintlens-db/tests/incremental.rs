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
    db.index_snapshot(&base, || NoBlobs).unwrap();
    assert_eq!(log.lock().unwrap().len(), 3, "every Python file is indexed once: {:?}", log.lock().unwrap());
    log.lock().unwrap().clear();

    let reference = snapshot(&[
        ("a.py", "def a(): pass\n"),
        ("b.py", "def b(x): pass\n"),
        ("c.py", "X = 1\n"),
        ("README.md", "no"),
    ]);
    let index = db.index_snapshot(&reference, || NoBlobs).unwrap();
    assert_eq!(log.lock().unwrap().len(), 1, "only b.py changed: {:?}", log.lock().unwrap());
    assert_eq!(index.len(), 3);
}

#[test]
fn one_blob_at_many_paths_is_indexed_once() {
    let (db, log) = logging_database();
    let same = "def shared(): pass\n";
    let s = snapshot(&[("x/a.py", same), ("y/a.py", same), ("z/b.py", same)]);
    db.index_snapshot(&s, || NoBlobs).unwrap();
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
            scope.spawn(move || db.index_snapshot(s, || NoBlobs).unwrap());
        }
    });
    // 40 shared files, plus one changed file per snapshot (one of which replaces m0 … m7).
    assert_eq!(log.lock().unwrap().len(), 48, "{} executions", log.lock().unwrap().len());
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
    let index = db.index_snapshot(&files, || NoBlobs).unwrap();
    let names = |dir| index.in_directory(dir).map(|(p, _)| p.to_owned()).collect::<Vec<_>>();
    assert_eq!(names("config"), ["config/a.py", "config/b.py"]);
    assert_eq!(names("config/sub"), ["config/sub/c.py"]);
    assert_eq!(names(""), ["config.py", "top.py"]);
    assert!(names("missing").is_empty());
}
