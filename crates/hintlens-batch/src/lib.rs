//! Batch mode: a benchmark dataset in, one result record per task out.
//!
//! Invariants:
//! - A task that cannot be run (malformed record, repository or commit missing, patch that does
//!   not apply, even a panic) yields an error record naming what and where; the run goes on.
//! - Tasks of one repository share one [`Database`]: its blob words on demand (each task has
//!   its own memos, and tasks run oldest base first so that the words kept are those of the
//!   bases at hand), its whole index with `--index full` (every blob common to their snapshots
//!   is indexed once).
//! - Records are emitted as tasks finish, never buffered to the end.

mod augment;
mod dataset;
mod fetch;
mod hints;
mod merge;
mod record;
mod repos;
mod resume;
mod run;
mod schema;
mod shard;

pub use augment::{APPENDED_HEADER, Augmented, Target, Unhinted, append, check_target, report_path, write_augmented};
pub use dataset::{DatasetError, RecordError, TaskRecord, instance_id_of, parse_dataset, read_dataset, task_records};
pub use fetch::{Brought, DEFAULT_SOURCE, FetchEvent, FetchOptions, Outcome, Wanted, fetch, source_url, wanted};
pub use hints::TaskExtras;
pub use merge::{Merged, merge};
pub use record::{ErrorKind, RELEASED_FIELDS, TaskError, TaskOutput, error_record, ok_record, record_schema};
pub use repos::RepoLocator;
pub use resume::{Resumed, resume_results};
pub use run::{
    BatchError, BatchOptions, BatchSummary, IndexMode, Progress, ReferenceFrom, RepoContext, TaskSpec, run_batch,
    run_records, run_task, run_task_with,
};
pub use shard::{LINES_PER_TASK, SPLIT_TASKS, Shard};

use hintlens_db::Database;
use hintlens_syntax::Frontend;

/// The languages hintlens knows. Registering a frontend here is all a new language needs.
pub fn frontends() -> Vec<Box<dyn Frontend>> {
    let mut frontends: Vec<Box<dyn Frontend>> =
        vec![Box::new(hintlens_python::Python), Box::new(hintlens_java::Java), Box::new(hintlens_go::Go)];
    frontends.extend(hintlens_ts::frontends());
    frontends.push(Box::new(hintlens_rust::Rust));
    frontends.extend(hintlens_c::frontends());
    frontends.push(Box::new(hintlens_php::Php));
    frontends.push(Box::new(hintlens_ruby::Ruby));
    frontends
}

/// A fresh database with every frontend registered.
pub fn new_database() -> Database {
    Database::new(frontends())
}

#[cfg(test)]
mod tests {
    /// Reserved words are looked up by binary search.
    #[test]
    fn every_frontends_keywords_are_sorted_and_words() {
        for frontend in super::frontends() {
            let keywords = frontend.keywords();
            assert!(keywords.is_sorted(), "{}", frontend.language());
            assert!(keywords.iter().all(|k| k.bytes().all(hintlens_syntax::lexical::is_word_byte)));
        }
    }

    /// Whatever a frontend reads is source code, also where no frontend would read it: the one
    /// table that tells an unread change from documentation knows every registered ending.
    #[test]
    fn every_ending_a_frontend_claims_is_source() {
        for frontend in super::frontends() {
            let spec = frontend.spec();
            for ending in spec.extensions.iter().chain(spec.shared_extensions) {
                let path = format!("src/file{ending}");
                assert!(hintlens_snapshot::source_extension(&path).is_some(), "{} {ending}", spec.name);
            }
        }
    }

    /// The "hintlens reads …" lists of errors name each language once, dialects included.
    #[test]
    fn each_language_is_listed_once() {
        let languages = super::new_database().languages();
        let mut unique = languages.clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(languages.len(), unique.len(), "{languages:?}");
        assert!(languages.contains(&"typescript") && languages.contains(&"cpp"), "{languages:?}");
    }
}
