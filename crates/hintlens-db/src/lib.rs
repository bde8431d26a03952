//! The hintlens database: every source file's contents as a salsa input, its [`FileIndex`] as
//! a memoized query, and snapshots as plain maps from paths to those inputs.
//!
//! Invariants:
//! - In batch mode a [`SourceFile`] is keyed by its content (git blob id) and language, so a file
//!   identical in two snapshots — or in the base commits of many tasks — is parsed and indexed
//!   once ([`Database::intern_file`]). Its text never changes (durability `NEVER_CHANGE`).
//! - In the editor a [`SourceFile`] may instead stand for a path whose text is set on every
//!   edit; [`file_index`] is then re-run for that file only, and the small projections
//!   ([`file_names`]) are backdated when an edit leaves them equal.
//! - Nothing here reads git or the disk: callers hand over bytes (or a [`BlobSource`] to read
//!   them from).

use dashmap::DashMap;
use hintlens_snapshot::{BlobSource, ObjectId, Snapshot};
use hintlens_syntax::{FileIndex, Frontend};
use rayon::prelude::*;
use std::collections::{BTreeMap, HashSet};
use std::sync::Arc;

/// Index of a frontend in the database's list.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct LanguageId(pub u16);

/// One source file's text, in one language.
#[salsa::input(debug)]
pub struct SourceFile {
    #[returns(ref)]
    pub text: Arc<[u8]>,
    #[returns(copy)]
    pub language: LanguageId,
}

#[salsa::db]
pub trait Db: salsa::Database {
    fn frontend(&self, language: LanguageId) -> &dyn Frontend;
}

/// Definitions and uses of one file: the expensive query, run once per distinct content.
#[salsa::tracked(returns(ref))]
pub fn file_index(db: &dyn Db, file: SourceFile) -> FileIndex {
    db.frontend(file.language(db)).extract(file.text(db))
}

/// Every name the file defines or uses: a small projection of [`file_index`] that answers
/// "in how many files does this name occur" without touching the full index.
#[salsa::tracked(returns(ref))]
pub fn file_names(db: &dyn Db, file: SourceFile) -> Names {
    let index = file_index(db, file);
    let names = index.definitions.iter().map(|d| d.name.as_str()).chain(index.uses.iter().map(|u| u.name.as_str()));
    Names::new(names)
}

/// A set of identifier names, kept as sorted 64-bit hashes: built for every file of every
/// snapshot, so it must cost no allocation per name (a collision would only overcount an
/// occurrence, at odds of about one in 2⁶⁴ per lookup).
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Names(Box<[u64]>);

impl Names {
    pub fn new<'a>(names: impl IntoIterator<Item = &'a str>) -> Names {
        let mut hashes: Vec<u64> = names.into_iter().map(name_hash).collect();
        hashes.sort_unstable();
        hashes.dedup();
        Names(hashes.into())
    }

    pub fn contains(&self, name: &str) -> bool {
        self.0.binary_search(&name_hash(name)).is_ok()
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

fn name_hash(name: &str) -> u64 {
    hintlens_syntax::name_hash(name.as_bytes())
}

/// A snapshot file some frontend claims.
type Claimed<'a> = (&'a str, &'a hintlens_snapshot::Entry, LanguageId);

/// Files per parallel work item when indexing a snapshot.
const INDEX_CHUNK: usize = 16;

type EventCallback = Box<dyn Fn(salsa::Event) + Send + Sync + 'static>;

/// The database. `Clone` gives another handle onto the same storage for another thread.
#[salsa::db]
#[derive(Clone)]
pub struct Database {
    storage: salsa::Storage<Self>,
    frontends: Arc<[Box<dyn Frontend>]>,
    by_content: Arc<DashMap<(ObjectId, LanguageId), SourceFile>>,
}

#[salsa::db]
impl salsa::Database for Database {}

#[salsa::db]
impl Db for Database {
    fn frontend(&self, language: LanguageId) -> &dyn Frontend {
        &*self.frontends[language.0 as usize]
    }
}

impl Database {
    pub fn new(frontends: Vec<Box<dyn Frontend>>) -> Database {
        Database::with_events(frontends, None)
    }

    /// A database that reports salsa's execution events (tests use it to prove what re-ran).
    pub fn with_events(frontends: Vec<Box<dyn Frontend>>, on_event: Option<EventCallback>) -> Database {
        Database { storage: salsa::Storage::new(on_event), frontends: frontends.into(), by_content: Arc::default() }
    }

    /// The frontend that claims `path`, if any (the first one registered wins).
    pub fn language_of(&self, path: &str) -> Option<LanguageId> {
        self.frontends.iter().position(|f| f.claims(path)).map(|i| LanguageId(i as u16))
    }

    pub fn language_name(&self, language: LanguageId) -> &'static str {
        self.frontend(language).language()
    }

    /// The registered languages, in registration order.
    pub fn languages(&self) -> Vec<&'static str> {
        self.frontends.iter().map(|f| f.language()).collect()
    }

    /// The default test-file patterns: the generic test directories, then every registered
    /// language's own ([`Frontend::test_patterns`]).
    pub fn test_patterns(&self) -> Vec<&'static str> {
        let own = self.frontends.iter().flat_map(|f| f.test_patterns().iter().copied());
        hintlens_snapshot::GENERIC_TEST_PATTERNS.iter().copied().chain(own).collect()
    }

    /// The default test-path classifier ([`Database::test_patterns`]).
    pub fn test_paths(&self) -> hintlens_snapshot::TestPaths {
        hintlens_snapshot::TestPaths::new(self.test_patterns()).expect("the frontends' test patterns are valid")
    }

    /// The input for a blob of known id, created on first sight; `load` runs only then.
    pub fn intern_file<E>(
        &self,
        id: ObjectId,
        language: LanguageId,
        load: impl FnOnce() -> Result<Arc<[u8]>, E>,
    ) -> Result<SourceFile, E> {
        if let Some(file) = self.by_content.get(&(id, language)) {
            return Ok(*file);
        }
        let text = load()?;
        // `entry` holds the shard lock, so two threads racing on one blob create one input.
        Ok(*self.by_content.entry((id, language)).or_insert_with(|| {
            SourceFile::builder(text, language).durability(salsa::Durability::NEVER_CHANGE).new(self)
        }))
    }

    /// How many distinct (content, language) inputs exist: the number of files ever indexed.
    pub fn interned_files(&self) -> usize {
        self.by_content.len()
    }

    /// Indexes every file of `snapshot` some frontend claims, in parallel on the current rayon
    /// pool. Files already seen (same blob) are not read or parsed again.
    ///
    /// `open_source` gives each worker thread its own blob reader (git readers are not `Sync`).
    pub fn index_snapshot<S: BlobSource>(
        &self,
        snapshot: &Snapshot,
        open_source: impl Fn() -> S + Sync,
    ) -> Result<SnapshotIndex, hintlens_snapshot::Error> {
        let claimed: Vec<Claimed<'_>> = self.claimed(snapshot).collect();
        let files = self.index_claimed(&claimed, open_source)?.into_iter().collect();
        Ok(SnapshotIndex { files: Arc::new(files) })
    }

    /// Indexes the distinct files of many snapshots in one parallel pass: the base commits of a
    /// repository's tasks share most of their files, and tasks indexing them concurrently would
    /// make one worker wait while another parses the file both need.
    pub fn index_snapshots<S: BlobSource>(
        &self,
        snapshots: &[Snapshot],
        open_source: impl Fn() -> S + Sync,
    ) -> Result<(), hintlens_snapshot::Error> {
        let mut seen = HashSet::new();
        let claimed: Vec<Claimed<'_>> = snapshots
            .iter()
            .flat_map(|s| self.claimed(s))
            .filter(|&(_, entry, language)| {
                seen.insert((entry.id, language)) && !self.by_content.contains_key(&(entry.id, language))
            })
            .collect();
        self.index_claimed(&claimed, open_source)?;
        Ok(())
    }

    fn claimed<'s>(&'s self, snapshot: &'s Snapshot) -> impl Iterator<Item = Claimed<'s>> + 's {
        snapshot.iter().filter_map(|(path, entry)| {
            if entry.mode == hintlens_snapshot::Mode::Symlink {
                return None;
            }
            self.language_of(path).map(|lang| (path, entry, lang))
        })
    }

    fn index_claimed<S: BlobSource>(
        &self,
        claimed: &[Claimed<'_>],
        open_source: impl Fn() -> S + Sync,
    ) -> Result<Vec<(String, SourceFile)>, hintlens_snapshot::Error> {
        // A database handle is `Send` but not `Sync`: every chunk of work gets its own clone,
        // made here on the calling thread. Chunks are small so that rayon can balance them.
        let jobs: Vec<(Database, &[Claimed<'_>])> =
            claimed.chunks(INDEX_CHUNK).map(|chunk| (self.clone(), chunk)).collect();
        let files = jobs
            .into_par_iter()
            .map(|(db, chunk)| {
                // Opened on the first blob not yet interned: most files of a later snapshot are,
                // and opening a git reader costs more than finding a file already indexed.
                let mut source = None;
                chunk
                    .iter()
                    .map(|&(path, entry, language)| {
                        let file =
                            db.intern_file(entry.id, language, || entry.read(source.get_or_insert_with(&open_source)))?;
                        // Index now, on this worker, so the whole snapshot is parsed in parallel.
                        file_index(&db, file);
                        file_names(&db, file);
                        Ok((path.to_owned(), file))
                    })
                    .collect::<Result<Vec<_>, hintlens_snapshot::Error>>()
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(files.into_iter().flatten().collect())
    }
}

/// The indexed source files of one snapshot: path → input. Cheap to clone.
#[derive(Debug, Clone, Default)]
pub struct SnapshotIndex {
    files: Arc<BTreeMap<String, SourceFile>>,
}

impl SnapshotIndex {
    pub fn from_files(files: BTreeMap<String, SourceFile>) -> SnapshotIndex {
        SnapshotIndex { files: Arc::new(files) }
    }

    pub fn get(&self, path: &str) -> Option<SourceFile> {
        self.files.get(path).copied()
    }

    pub fn iter(&self) -> impl Iterator<Item = (&str, SourceFile)> + '_ {
        self.files.iter().map(|(p, f)| (p.as_str(), *f))
    }

    pub fn len(&self) -> usize {
        self.files.len()
    }

    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }

    /// The files directly in directory `dir` (`""` for the top), in path order.
    pub fn in_directory<'s>(&'s self, dir: &'s str) -> impl Iterator<Item = (&'s str, SourceFile)> + 's {
        let prefix = if dir.is_empty() { String::new() } else { format!("{dir}/") };
        let direct = move |path: &str| path.get(prefix.len()..).is_some_and(|name| !name.contains('/'));
        self.files
            .range::<str, _>((std::ops::Bound::Included(dir), std::ops::Bound::Unbounded))
            .take_while(move |(path, _)| path.starts_with(dir))
            .filter(move |(path, _)| direct(path) && (dir.is_empty() || path.as_bytes().get(dir.len()) == Some(&b'/')))
            .map(|(p, f)| (p.as_str(), *f))
    }

    /// In how many files the name occurs as an identifier (defined or used).
    pub fn occurrences(&self, db: &dyn Db, name: &str) -> usize {
        self.files.values().filter(|f| file_names(db, **f).contains(name)).count()
    }
}

/// The module name of an indexed file (`pkg.formatting`, `com.google.gson.JsonWriter`).
pub fn module_name(db: &dyn Db, path: &str, file: SourceFile) -> String {
    db.frontend(file.language(db)).module_name(path, file_index(db, file))
}

/// The repository-wide qualified name of a definition of `file` with the given local name.
pub fn qualified_name(db: &dyn Db, path: &str, file: SourceFile, local_name: &str) -> String {
    db.frontend(file.language(db)).qualified_name(path, file_index(db, file), local_name)
}

#[cfg(test)]
mod tests {
    use super::Names;

    #[test]
    fn names_answer_membership_without_storing_strings() {
        let names = Names::new(["fetch", "strict", "fetch", "Widget"]);
        assert_eq!(names.len(), 3);
        assert!(names.contains("fetch") && names.contains("strict") && names.contains("Widget"));
        assert!(!names.contains("widget") && !names.contains("") && !names.contains("fetc"));
        assert!(Names::new([]).is_empty());
    }
}
