//! What unit tests of reading on demand share.

use std::sync::{Arc, Mutex};

/// A Go database counting the files it parses (salsa's executions of `file_index`).
pub(crate) fn go_database_counting_parses() -> (hintlens_db::Database, Arc<Mutex<usize>>) {
    database_counting_parses(vec![Box::new(hintlens_go::Go)])
}

/// A database of `frontends` counting the files it parses (salsa's executions of `file_index`
/// and `file_outline`).
pub(crate) fn database_counting_parses(
    frontends: Vec<Box<dyn hintlens_syntax::Frontend>>,
) -> (hintlens_db::Database, Arc<Mutex<usize>>) {
    let parsed = Arc::new(Mutex::new(0));
    let count = parsed.clone();
    let db = hintlens_db::Database::with_events(
        frontends,
        Some(Box::new(move |event: salsa::Event| {
            if let salsa::EventKind::WillExecute { database_key } = event.kind
                && ["file_index", "file_outline"].iter().any(|q| format!("{database_key:?}").starts_with(q))
            {
                *count.lock().unwrap() += 1;
            }
        })),
    );
    (db, parsed)
}

/// A snapshot in memory.
pub(crate) fn snapshot(files: &[(&str, &str)]) -> hintlens_snapshot::Snapshot {
    hintlens_snapshot::Snapshot::from_files(files.iter().map(|(p, t)| (p.to_string(), t.as_bytes().to_vec())))
}
