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
//! - Two blobs told to be versions of one file ([`Database::relate_versions`]) are indexed as
//!   if apart, but the second one read is parsed from the first's tree ([`Frontend::extract_reusing`]);
//!   a blob read at a path whose other version is not at hand is parsed from the last tree a task
//!   of the batch left for that path (the `Shelf`). [`file_index`] reads those trees beside
//!   salsa's inputs, which is sound because they change how fast the index is built, never what
//!   it is.

use dashmap::{DashMap, DashSet};
use hintlens_snapshot::{BlobSource, Entry, ObjectId, Snapshot};
use hintlens_syntax::reuse::{Earlier, Parse, text_edits};
use hintlens_syntax::{Directives, FileIndex, Frontend, Lines};
use rayon::prelude::*;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex};

mod words;
pub use words::Words;

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

/// Reads a blob's bytes, once asked.
pub type Load<'a> = dyn Fn() -> Result<Arc<[u8]>, hintlens_snapshot::Error> + 'a;

#[salsa::db]
pub trait Db: salsa::Database {
    fn frontend(&self, language: LanguageId) -> &dyn Frontend;

    /// The input for a blob of known id, created (by reading it with `load`) on first sight.
    /// `path` is where the blob was found: a later version of the path is parsed from this
    /// one's tree ([`Db::keep_parse`]).
    fn intern_blob(
        &self,
        id: ObjectId,
        language: LanguageId,
        path: &str,
        load: &Load<'_>,
    ) -> Result<SourceFile, hintlens_snapshot::Error>;

    /// The words of a blob ([`Words`]), computed (by reading it with `load`) on first sight and
    /// kept while a task at hand holds the blob ([`Database::forget_words_before`]).
    fn blob_words(
        &self,
        id: ObjectId,
        language: LanguageId,
        load: &Load<'_>,
    ) -> Result<Arc<Words>, hintlens_snapshot::Error>;

    /// The parse to start `file`'s from, with the edits from its text to `file`'s: the other
    /// version's, when that was read first ([`Database::relate_versions`]), else the last one
    /// kept of the path `file` was found at (`Shelf`). Taken: it is given once.
    fn earlier_parse(&self, file: SourceFile) -> Option<Earlier>;

    /// Keeps `file`'s parse: for the other version of it when that is still to be read, else
    /// for the next version of its path that a task of the batch reads (`Shelf`).
    fn keep_parse(&self, file: SourceFile, parse: Parse);

    /// How much of `file` has been asked for ([`Read`]): [`file_definitions`] reads its index
    /// or the outline read, rather than walking the file again for an outline, and a file whose
    /// definitions are read is not glanced at to learn whether it may define a name.
    fn read(&self, file: SourceFile) -> Option<Read>;

    /// Notes that `file` is read so far ([`file_index`] and [`file_outline`] note themselves).
    fn note_read(&self, file: SourceFile, read: Read);
}

/// How much of a file a database has read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Read {
    /// Its [`file_outline`] keeping these lines (the first one read, when several were).
    Outline(Lines),
    /// Its [`file_index`].
    Index,
}

/// Definitions and uses of one file: the expensive query, run once per distinct content.
#[salsa::tracked(returns(ref))]
pub fn file_index(db: &dyn Db, file: SourceFile) -> FileIndex {
    db.note_read(file, Read::Index);
    let read = db.frontend(file.language(db)).extract_reusing(file.text(db), db.earlier_parse(file));
    keeping_parse(db, file, read)
}

/// What of a file a question about its definitions reads ([`Frontend::outline_reusing`]: its
/// definitions, and the uses of the `kept` lines and no other): a file of a base that is read only for whether a definition is new is
/// walked once, not its function bodies too; a changed file read for what its change adds,
/// not the bodies the change left alone.
#[salsa::tracked(returns(ref))]
pub fn file_outline(db: &dyn Db, file: SourceFile, kept: Lines) -> FileIndex {
    db.note_read(file, Read::Outline(kept.clone()));
    let read = db.frontend(file.language(db)).outline_reusing(file.text(db), db.earlier_parse(file), &kept);
    keeping_parse(db, file, read)
}

/// The index a frontend read of `file`, parsed from the tree an earlier version left
/// ([`Db::earlier_parse`]), with its own tree kept for a later one.
fn keeping_parse(db: &dyn Db, file: SourceFile, (index, parse): (FileIndex, Option<Parse>)) -> FileIndex {
    if let Some(parse) = parse {
        db.keep_parse(file, parse);
    }
    index
}

/// What [`file_outline`] holds of `file`, read from its [`file_index`] when that has been asked
/// for (or when the language has no outline), else from the outline read already, else from
/// an outline keeping no line: every definition, as the index has it, and perhaps no use.
/// So a file read whole for one question and for its definitions for another is walked once.
pub fn file_definitions(db: &dyn Db, file: SourceFile) -> &FileIndex {
    // Most languages have no outline: they are spared the lookup.
    if !db.frontend(file.language(db)).has_outline() {
        return file_index(db, file);
    }
    match db.read(file) {
        Some(Read::Index) => file_index(db, file),
        Some(Read::Outline(kept)) => file_outline(db, file, kept),
        None => file_outline(db, file, Lines::none()),
    }
}

/// What of `file` a question about its definitions and the uses on `lines` reads: its
/// [`file_index`] when that has been asked for (or when the language has no outline), else its
/// outline keeping `lines` ([`file_outline`]). A changed file is read so for the uses its
/// change adds: a change of a few lines in a 25,000-line amalgamated header walks the bodies
/// holding them, not every body.
pub fn file_uses_on<'db>(db: &'db dyn Db, file: SourceFile, lines: &Lines) -> &'db FileIndex {
    if !db.frontend(file.language(db)).has_outline() || db.read(file) == Some(Read::Index) {
        file_index(db, file)
    } else {
        file_outline(db, file, lines.clone())
    }
}

/// What the preprocessor reads of a file ([`Frontend::directives`]): its includes and scope
/// macros, read from its text without a parse; for a language without a preprocessor, its
/// imports and scope macros as its index has them.
#[salsa::tracked(returns(ref))]
pub fn file_directives(db: &dyn Db, file: SourceFile) -> Directives {
    db.frontend(file.language(db)).directives(file.text(db)).unwrap_or_else(|| {
        let index = file_index(db, file);
        Directives { includes: index.imports.clone(), scope_macros: index.scope_macros.clone(), macros: Vec::new() }
    })
}

/// Every name the file defines or uses: a small projection of [`file_index`] that answers
/// "in how many files does this name occur" without touching the full index.
#[salsa::tracked(returns(ref))]
pub fn file_names(db: &dyn Db, file: SourceFile) -> Names {
    let index = file_index(db, file);
    let names = index.definitions.iter().map(|d| d.name.as_str()).chain(index.uses.iter().map(|u| u.name.as_str()));
    Names::new(names)
}

/// The words of a file's text ([`Words`]): how an indexed file answers the name questions an
/// on-demand snapshot answers from its blobs, so both give the same answers.
#[salsa::tracked(returns(ref))]
pub fn file_words(db: &dyn Db, file: SourceFile) -> Arc<Words> {
    Arc::new(Words::of(file.text(db), db.frontend(file.language(db)).lexical()))
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
type Claimed<'a> = (&'a Arc<str>, &'a hintlens_snapshot::Entry, LanguageId);

/// How many files of each language a snapshot holds by that language's own endings
/// ([`Frontend::claims`]), the endings two languages share left out: what decides whose such an
/// ending is ([`Database::language_in`]: a `.h` header is C++ in a snapshot holding more C++
/// sources than C sources).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Holdings(Vec<u32>);

impl Holdings {
    /// How many files of `language`'s own endings the snapshot holds.
    pub fn count(&self, language: LanguageId) -> u32 {
        self.0.get(usize::from(language.0)).copied().unwrap_or(0)
    }

    fn add(&mut self, language: LanguageId, files: i64) {
        let at = usize::from(language.0);
        if self.0.len() <= at {
            self.0.resize(at + 1, 0);
        }
        self.0[at] = (i64::from(self.0[at]) + files).max(0) as u32;
    }
}

type EventCallback = Box<dyn Fn(salsa::Event) + Send + Sync + 'static>;

/// The database. `Clone` gives another handle onto the same storage for another thread.
#[salsa::db]
#[derive(Clone)]
pub struct Database {
    storage: salsa::Storage<Self>,
    frontends: Frontends,
    by_content: Arc<DashMap<(ObjectId, LanguageId), SourceFile>>,
    /// The words of every blob an on-demand snapshot looked into ([`Db::blob_words`]), shared
    /// by a batch's task databases ([`Database::for_task`]).
    words: Arc<DashMap<BlobKey, KeptWords>>,
    /// The batch's number for the task this database serves (0 outside a batch): the words of
    /// the blobs its snapshots hold are marked with it, for [`Database::forget_words_before`].
    task: u32,
    versions: Arc<Versions>,
    /// How much of each file has been asked for ([`Db::read`]).
    read: Arc<DashMap<SourceFile, Read>>,
    /// Shared by a batch's task databases ([`Database::for_task`]).
    shelf: Arc<Shelf>,
}

/// A blob's words and the highest task number whose snapshot held the blob: set when the words
/// are read, raised when a later task's snapshot is built ([`Database::snapshot_on_demand`]),
/// not on every lookup.
struct KeptWords {
    words: Arc<Words>,
    last_task: AtomicU32,
}

/// A blob in one language.
type BlobKey = (ObjectId, LanguageId);

/// The words of blobs a database keeps ([`Database::blob_words_table`]), shared with it: what
/// the editor's start fills in from the work tree's unchanged files, so that repository-wide
/// name questions find every blob's words read, without holding a database handle that a write
/// would wait for.
#[derive(Clone)]
pub struct BlobWords {
    words: Arc<DashMap<BlobKey, KeptWords>>,
    frontends: Frontends,
    task: u32,
}

/// The database's frontends, as a handle that is no database handle (see [`BlobWords`]).
#[derive(Clone)]
pub struct Frontends(Arc<[Box<dyn Frontend>]>);

impl std::ops::Deref for Frontends {
    type Target = [Box<dyn Frontend>];

    fn deref(&self) -> &Self::Target {
        &self.0
    }
}

impl Frontends {
    /// The frontend that claims `path` by its own endings, if any (the first one registered
    /// wins).
    pub fn language_of(&self, path: &str) -> Option<LanguageId> {
        self.0.iter().position(|f| f.claims(path)).map(|i| LanguageId(i as u16))
    }

    /// The language of `path` in a snapshot holding `holdings`: the frontend sharing its ending
    /// ([`Frontend::claims_shared`]) when the snapshot holds more files of that frontend's own
    /// endings than of its owner's ([`Frontends::language_of`]), else the owner. A C project with
    /// two C++ fuzz harnesses (jq) keeps its headers C; fmt's are C++.
    pub fn language_in(&self, path: &str, holdings: &Holdings) -> Option<LanguageId> {
        let owner = self.language_of(path);
        let owned = owner.map_or(0, |o| holdings.count(o));
        let shared = self.0.iter().enumerate().find_map(|(i, f)| {
            let language = LanguageId(i as u16);
            (f.claims_shared(path) && holdings.count(language) > owned).then_some(language)
        });
        shared.or(owner)
    }

    /// The ending of `path` that a frontend shares with its owner (`.h`), if it has one: then
    /// the path counts for nobody's [`Holdings`].
    pub fn shared_ending(&self, path: &str) -> Option<&'static str> {
        self.0.iter().flat_map(|f| f.spec().shared_extensions.iter().copied()).find(|e| path.ends_with(e))
    }

    /// The language whose [`Holdings`] the file at `path` counts for: its owner's, unless its
    /// ending is shared or it is a symbolic link (no source, whatever its name).
    fn counted(&self, path: &str, entry: &Entry) -> Option<LanguageId> {
        if entry.mode == hintlens_snapshot::Mode::Symlink || self.shared_ending(path).is_some() {
            return None;
        }
        self.language_of(path)
    }

    /// What `snapshot` holds ([`Holdings`]): one pass over its paths.
    pub fn holdings(&self, snapshot: &Snapshot) -> Holdings {
        let mut holdings = Holdings::default();
        for (path, entry) in snapshot.entries() {
            if let Some(language) = self.counted(path, entry) {
                holdings.add(language, 1);
            }
        }
        holdings
    }

    pub fn get(&self, language: LanguageId) -> &dyn Frontend {
        &*self.0[language.0 as usize]
    }
}

impl BlobWords {
    /// The words of a blob, computed (by reading it with `load`) on first sight.
    pub fn read<E>(
        &self,
        id: ObjectId,
        language: LanguageId,
        load: impl FnOnce() -> Result<Arc<[u8]>, E>,
    ) -> Result<Arc<Words>, E> {
        if let Some(kept) = self.words.get(&(id, language)) {
            return Ok(kept.words.clone());
        }
        let words = Arc::new(Words::of(&load()?, self.frontends.get(language).lexical()));
        let kept = KeptWords { words, last_task: AtomicU32::new(self.task) };
        Ok(self.words.entry((id, language)).or_insert(kept).words.clone())
    }

    /// Whether the blob's words are kept already.
    pub fn contains(&self, id: ObjectId, language: LanguageId) -> bool {
        self.words.contains_key(&(id, language))
    }
}

/// Which blobs are two versions of one file, and the parse the first one read left for the
/// other ([`Database::relate_versions`]).
#[derive(Default)]
struct Versions {
    other: DashMap<BlobKey, BlobKey>,
    kept: DashMap<BlobKey, Kept>,
    blob_of: DashMap<SourceFile, BlobKey>,
    /// The related blobs whose index has been asked for: the other version of one of these
    /// has no one left to hand its parse to in the task.
    read: DashSet<BlobKey>,
    /// Where each blob read from a snapshot that the shelf may keep was found (the first path,
    /// if at several).
    path_of: DashMap<SourceFile, Arc<str>>,
    /// Where the parses no other version claimed go when the task's last handle is dropped.
    shelf: Option<Arc<Shelf>>,
    /// The batch's number for the task (as [`Database`]'s).
    task: u32,
}

/// A parse left for the other version of its file, with what the shelf needs to keep it for a
/// later task when that version is never read (a test file's base, which only its uses at the
/// reference are asked about).
struct Kept {
    parse: Parse,
    shelved: Option<(Arc<str>, LanguageId, Arc<[u8]>)>,
}

impl Versions {
    fn with_shelf(shelf: &Arc<Shelf>, task: u32) -> Versions {
        let mut versions = Versions::default();
        versions.shelf = Some(shelf.clone());
        versions.task = task;
        versions
    }
}

impl Drop for Versions {
    fn drop(&mut self) {
        let Some(shelf) = &self.shelf else { return };
        for (_, kept) in std::mem::take(&mut self.kept) {
            if let Some((path, language, text)) = kept.shelved {
                shelf.keep(path, language, text, kept.parse, self.task);
            }
        }
    }
}

/// The last parse of each path that a batch's tasks read, kept for the next task that reads
/// another version of the path (shared by [`Database::for_task`]). A batch takes its tasks in
/// the order of their bases' age, so the next version is likely a few commits away: its parse
/// re-reads the lines that differ rather than the whole file, which for a single-header
/// library is most of a task's time. Bounded by the bytes of the texts whose parses it holds
/// (a tree costs a small multiple of its text), the least recently kept forgotten first.
struct Shelf {
    state: Mutex<ShelfState>,
    budget: usize,
    /// The last task number that reads each path, when the batch has said
    /// ([`Database::plan_shelf`]): a parse no later task can take is not kept.
    plan: std::sync::OnceLock<HashMap<Box<str>, u32>>,
}

#[derive(Default)]
struct ShelfState {
    parses: HashMap<(Arc<str>, LanguageId), Shelved>,
    bytes: usize,
    clock: u64,
}

struct Shelved {
    text: Arc<[u8]>,
    parse: Parse,
    kept_at: u64,
}

/// A file smaller than this parses from nothing in well under a millisecond: its tree (some ten
/// times its text) is not worth keeping. Measured on fmt's history set, whose test files of
/// 10–60 KB change task after task: at 64 KB, 87 of its 188 parses were from nothing; at 4 KB,
/// with unclaimed parses shelved ([`Versions`]' drop), 26 (one per path), for a batch 12–24%
/// faster and 6 MiB more peak. The shelf's plan ([`Database::plan_shelf`]) keeps the small
/// ones a later task will not take from filling the budget.
const SHELVED_MIN_BYTES: usize = 4 << 10;

/// The texts whose parses a [`Shelf`] holds, in bytes. Measured on the C++ history sets
/// (`--jobs 2`): 2 MiB keeps the versions of nlohmann/json's single header and fmt's headers
/// for the next task (batch 15–25% faster, peak 5–30 MiB higher); 4 MiB gained little more
/// time for 35 MiB more.
const SHELF_BUDGET_BYTES: usize = 2 << 20;

impl Default for Shelf {
    fn default() -> Shelf {
        Shelf { state: Mutex::default(), budget: SHELF_BUDGET_BYTES, plan: Default::default() }
    }
}

impl Shelf {
    fn take(&self, path: &Arc<str>, language: LanguageId) -> Option<(Arc<[u8]>, Parse)> {
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        let shelved = state.parses.remove(&(path.clone(), language))?;
        state.bytes -= shelved.text.len();
        Some((shelved.text, shelved.parse))
    }

    /// Keeps the parse of `path` that task `task` read, for a later task.
    fn keep(&self, path: Arc<str>, language: LanguageId, text: Arc<[u8]>, parse: Parse, task: u32) {
        if text.len() < SHELVED_MIN_BYTES || text.len() > self.budget {
            return;
        }
        if let Some(plan) = self.plan.get()
            && plan.get(&*path).is_none_or(|&last| last <= task)
        {
            return;
        }
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        state.clock += 1;
        let kept_at = state.clock;
        state.bytes += text.len();
        if let Some(older) = state.parses.insert((path, language), Shelved { text, parse, kept_at }) {
            state.bytes -= older.text.len();
        }
        while state.bytes > self.budget {
            let Some(oldest) = state.parses.iter().min_by_key(|(_, s)| s.kept_at).map(|(k, _)| k.clone()) else {
                break;
            };
            if let Some(gone) = state.parses.remove(&oldest) {
                state.bytes -= gone.text.len();
            }
        }
    }
}

#[salsa::db]
impl salsa::Database for Database {}

#[salsa::db]
impl Db for Database {
    fn frontend(&self, language: LanguageId) -> &dyn Frontend {
        self.frontends.get(language)
    }

    fn intern_blob(
        &self,
        id: ObjectId,
        language: LanguageId,
        path: &str,
        load: &Load<'_>,
    ) -> Result<SourceFile, hintlens_snapshot::Error> {
        let file = self.intern_file(id, language, || {
            let text = load()?;
            // Read anyway: the words cost a scan, and spare a second read when a name is asked.
            let dialect = self.frontend(language).lexical();
            self.words.entry((id, language)).or_insert_with(|| KeptWords {
                words: Arc::new(Words::of(&text, dialect)),
                last_task: AtomicU32::new(self.task),
            });
            Ok(text)
        })?;
        // Only a file big enough to be shelved needs its way back to a path.
        if file.text(self).len() >= SHELVED_MIN_BYTES && !self.versions.path_of.contains_key(&file) {
            self.versions.path_of.entry(file).or_insert_with(|| path.into());
        }
        Ok(file)
    }

    fn blob_words(
        &self,
        id: ObjectId,
        language: LanguageId,
        load: &Load<'_>,
    ) -> Result<Arc<Words>, hintlens_snapshot::Error> {
        self.blob_words_table().read(id, language, load)
    }

    fn earlier_parse(&self, file: SourceFile) -> Option<Earlier> {
        let versions = &self.versions;
        if let Some(key) = versions.blob_of.get(&file).map(|k| *k) {
            versions.read.insert(key);
            let other = versions.other.get(&key).map(|o| *o);
            if let Some((_, Kept { parse, .. })) = other.and_then(|other| versions.kept.remove(&other))
                && let Some(other_text) = other.and_then(|other| self.by_content.get(&other))
            {
                return Some(Earlier { parse, edits: text_edits(other_text.text(self), file.text(self)) });
            }
        }
        let path = versions.path_of.get(&file)?.clone();
        let (text, parse) = self.shelf.take(&path, file.language(self))?;
        Some(Earlier { parse, edits: text_edits(&text, file.text(self)) })
    }

    fn read(&self, file: SourceFile) -> Option<Read> {
        self.read.get(&file).map(|r| r.clone())
    }

    fn note_read(&self, file: SourceFile, read: Read) {
        let mut entry = self.read.entry(file).or_insert_with(|| read.clone());
        if read == Read::Index {
            *entry = read;
        }
    }

    fn keep_parse(&self, file: SourceFile, parse: Parse) {
        let versions = &self.versions;
        let other = versions.blob_of.get(&file).and_then(|key| versions.other.get(&key).map(|o| (*key, *o)));
        if let Some((key, other)) = other
            && !versions.read.contains(&other)
        {
            let shelved =
                versions.path_of.get(&file).map(|path| (path.clone(), file.language(self), file.text(self).clone()));
            versions.kept.insert(key, Kept { parse, shelved });
        } else if let Some(path) = versions.path_of.get(&file).map(|p| p.clone()) {
            self.shelf.keep(path, file.language(self), file.text(self).clone(), parse, self.task);
        }
    }
}

impl Database {
    pub fn new(frontends: Vec<Box<dyn Frontend>>) -> Database {
        Database::with_events(frontends, None)
    }

    /// A database that reports salsa's execution events (tests use it to prove what re-ran).
    pub fn with_events(frontends: Vec<Box<dyn Frontend>>, on_event: Option<EventCallback>) -> Database {
        Database {
            storage: salsa::Storage::new(on_event),
            frontends: Frontends(frontends.into()),
            by_content: Arc::default(),
            words: Arc::default(),
            task: 0,
            versions: Arc::default(),
            read: Arc::default(),
            shelf: Arc::default(),
        }
    }

    /// A database for the batch's task number `task`, with the same frontends, blob words and
    /// shelf of parses and nothing else: no inputs, no memos. A batch starts one per task, so that
    /// what it keeps is bounded by the task at hand, not by all the repository's tasks, while
    /// the words (small, and read from every blob of every base) are read once for the tasks
    /// that share the blob ([`Database::forget_words_before`]), and the shelf (bounded) hands a
    /// large file's last tree to the next task that reads its path.
    pub fn for_task(&self, task: u32) -> Database {
        Database {
            storage: salsa::Storage::new(None),
            frontends: self.frontends.clone(),
            by_content: Arc::default(),
            words: self.words.clone(),
            task,
            versions: Arc::new(Versions::with_shelf(&self.shelf, task)),
            read: Arc::default(),
            shelf: self.shelf.clone(),
        }
    }

    /// Says which paths the batch's tasks read, each with the number of the last task that reads
    /// it (a task reads the paths its patches touch), before the tasks run: the shelf then keeps
    /// a parse only for a later task that will take it, so that its budget goes to those, and
    /// files too small to be worth a guess are worth keeping. Said once; later calls are ignored.
    pub fn plan_shelf(&self, last_reads: HashMap<Box<str>, u32>) {
        let _ = self.shelf.plan.set(last_reads);
    }

    /// Forgets the words of the blobs that no snapshot of a task numbered `task` or higher has
    /// held. A batch that numbers its tasks by their bases' age calls it as tasks finish, so
    /// that the words kept follow the bases at hand, not every base the batch has seen: a blob
    /// that returns in a later base is read again, which costs time, never an answer.
    pub fn forget_words_before(&self, task: u32) {
        self.words.retain(|_, kept| kept.last_task.load(Ordering::Relaxed) >= task);
    }

    /// Says that two blobs are versions of one file (a changed file at the base and at the
    /// reference): whichever is indexed second is parsed from the first's tree, re-reading only
    /// the lines that differ. The first one's tree is kept until then, so relate only files
    /// both of whose versions will be read, only in a database that lives as long as they are
    /// needed (a task's), and before either is read.
    pub fn relate_versions(&self, a: (ObjectId, LanguageId), b: (ObjectId, LanguageId)) {
        if a != b {
            self.versions.other.entry(a).or_insert(b);
            self.versions.other.entry(b).or_insert(a);
        }
    }

    /// The frontend that claims `path` by its own endings, if any (the first one registered
    /// wins): the language of a path wherever it is. An ending two languages share (`.h`) is
    /// decided by the snapshot that holds the path ([`Database::language_in`]).
    pub fn language_of(&self, path: &str) -> Option<LanguageId> {
        self.frontends.language_of(path)
    }

    /// The frontends, as a handle that is no database handle.
    pub fn frontends(&self) -> Frontends {
        self.frontends.clone()
    }

    /// The language of `path` in a snapshot holding `holdings` ([`Frontends::language_in`]).
    pub fn language_in(&self, path: &str, holdings: &Holdings) -> Option<LanguageId> {
        self.frontends.language_in(path, holdings)
    }

    /// What `snapshot` holds ([`Frontends::holdings`]).
    pub fn holdings(&self, snapshot: &Snapshot) -> Holdings {
        self.frontends.holdings(snapshot)
    }

    /// The ending of `path` that two languages share (`.h`), if it has one.
    pub fn shared_ending(&self, path: &str) -> Option<&'static str> {
        self.frontends.shared_ending(path)
    }

    /// Whether some frontend shares an ending with another (so that a path's language can
    /// depend on its snapshot).
    fn shares_endings(&self) -> bool {
        self.frontends.iter().any(|f| !f.spec().shared_extensions.is_empty())
    }

    pub fn language_name(&self, language: LanguageId) -> &'static str {
        self.frontend(language).language()
    }

    /// The registered languages, in registration order.
    pub fn languages(&self) -> Vec<&'static str> {
        // Dialects of one language (TypeScript's `.ts` and `.tsx`) are one language here.
        let mut languages: Vec<&'static str> = Vec::new();
        for language in self.frontends.iter().map(|f| f.language()) {
            if !languages.contains(&language) {
                languages.push(language);
            }
        }
        languages
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

    /// Has `file` read whole whenever it is read: [`file_uses_on`] and [`file_definitions`]
    /// answer from its [`file_index`]. For an input whose text is set on every edit (the
    /// editor's), whose outlines, one for each edit's added lines, would each be kept.
    pub fn read_whole(&self, file: SourceFile) {
        self.note_read(file, Read::Index);
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
        let file = *self.by_content.entry((id, language)).or_insert_with(|| {
            SourceFile::builder(text, language).durability(salsa::Durability::NEVER_CHANGE).new(self)
        });
        // Only a related blob's parse is looked for or kept: the others need no way back.
        if self.versions.other.contains_key(&(id, language)) {
            self.versions.blob_of.insert(file, (id, language));
        }
        Ok(file)
    }

    /// How many distinct (content, language) inputs exist: the number of files ever indexed.
    pub fn interned_files(&self) -> usize {
        self.by_content.len()
    }

    /// Indexes every file of `snapshot` some frontend claims, in parallel on the current rayon
    /// pool. Files already seen (same blob) are not read or parsed again.
    ///
    /// `open_source` gives each worker thread its own blob reader (git readers are not `Sync`).
    /// A file that cannot be read (a missing object, a damaged pack) is kept as such: a query
    /// that needs it reports it ([`SnapshotIndex::read_errors`], [`SnapshotIndex::unscanned`]),
    /// as an on-demand snapshot's would.
    pub fn index_snapshot<S: BlobSource>(
        &self,
        snapshot: &Snapshot,
        open_source: impl Fn() -> S + Sync,
    ) -> SnapshotIndex {
        let (claimed, holdings) = self.claimed(snapshot);
        let files = self.index_claimed(&claimed, open_source);
        SnapshotIndex {
            files: Arc::new(Files::in_path_order(files)),
            blobs: None,
            unread: Arc::default(),
            holdings,
            counts: None,
        }
    }

    /// The blobs of the files of `snapshot` a frontend claims: what a task on it may read (their
    /// words for repository-wide facts, a file to parse), for fetching ahead what a partial
    /// clone lacks. Nothing is read.
    pub fn claimed_blobs(&self, snapshot: &Snapshot) -> Vec<ObjectId> {
        self.claimed(snapshot).0.into_iter().filter(|(_, entry, _)| entry.is_in_git()).map(|(_, e, _)| e.id).collect()
    }

    /// The claimed files of `snapshot`, read and indexed only when a query needs them (see
    /// [`SnapshotIndex`]): what a batch answering a few questions about a few files wants.
    pub fn snapshot_on_demand(&self, snapshot: &Snapshot, source: Box<dyn BlobSource + Send>) -> SnapshotIndex {
        let (claimed, holdings) = self.claimed(snapshot);
        let files = claimed.into_iter().map(|(path, entry, language)| self.blob_slot(path, entry, language)).collect();
        on_demand_index(files, source, holdings)
    }

    /// [`Database::snapshot_on_demand`] of `snapshot`, derived from `earlier` (its base) whose
    /// on-demand index `earlier_index` is at hand ([`Snapshot::changes_since`]): the earlier
    /// files with only the changed paths claimed again, one merge instead of a second pass over
    /// every path of the repository. The same index either way; a snapshot not derived from
    /// `earlier` is indexed from scratch.
    pub fn derive_on_demand(
        &self,
        earlier: &Snapshot,
        earlier_index: &SnapshotIndex,
        snapshot: &Snapshot,
        source: Box<dyn BlobSource + Send>,
    ) -> SnapshotIndex {
        let Some(changes) = snapshot.changes_since(earlier) else { return self.snapshot_on_demand(snapshot, source) };
        let changes: Vec<(&Arc<str>, Option<&Entry>)> = changes.collect();
        // What the snapshot holds, from what the earlier one held and the changes.
        let mut holdings = earlier_index.holdings.clone();
        for (path, entry) in &changes {
            if let Some(earlier) = earlier.get(path)
                && let Some(language) = self.frontends.counted(path, earlier)
            {
                holdings.add(language, -1);
            }
            if let Some(language) = entry.and_then(|entry| self.frontends.counted(path, entry)) {
                holdings.add(language, 1);
            }
        }
        // A shared ending changed hands (C++ sources outnumber C sources now): every file of
        // that ending is another language's.
        let decides = |h: &Holdings| {
            let shared = self.frontends.iter().flat_map(|f| f.spec().shared_extensions.iter());
            shared.map(|ending| self.language_in(ending, h)).collect::<Vec<_>>()
        };
        if decides(&holdings) != decides(&earlier_index.holdings) {
            return self.snapshot_on_demand(snapshot, source);
        }
        let claim = |path: &Arc<str>, entry: Option<&Entry>| {
            let entry = entry.filter(|e| e.mode != hintlens_snapshot::Mode::Symlink)?;
            Some(self.blob_slot(path, entry, self.language_in(path, &holdings)?))
        };
        let mut files = Vec::with_capacity(earlier_index.len());
        let mut unchanged = earlier_index.files.iter().peekable();
        for (path, entry) in changes {
            while let Some((p, slot)) = unchanged.next_if(|(p, _)| *p < path) {
                files.push((p.clone(), slot.clone()));
            }
            unchanged.next_if(|(p, _)| *p == path);
            files.extend(claim(path, entry));
        }
        files.extend(unchanged.map(|(p, slot)| (p.clone(), slot.clone())));
        on_demand_index(files, source, holdings)
    }

    /// An on-demand snapshot's slot for a claimed blob. The blob's words, if kept, are now
    /// held by this task too.
    fn blob_slot(&self, path: &Arc<str>, entry: &Entry, language: LanguageId) -> (Arc<str>, Slot) {
        if let Some(kept) = self.words.get(&(entry.id, language)) {
            kept.last_task.fetch_max(self.task, Ordering::Relaxed);
        }
        (path.clone(), Slot::Blob { entry: entry.clone(), language })
    }

    /// How many blobs' words are kept ([`Db::blob_words`]).
    pub fn blobs_with_words(&self) -> usize {
        self.words.len()
    }

    /// The words of blobs this database keeps ([`Db::blob_words`]), as a handle that is no
    /// database handle: filling them in on another thread never holds up a write.
    pub fn blob_words_table(&self) -> BlobWords {
        BlobWords { words: self.words.clone(), frontends: self.frontends.clone(), task: self.task }
    }

    /// Indexes the distinct files of many snapshots in one parallel pass: the base commits of a
    /// repository's tasks share most of their files, and tasks indexing them concurrently would
    /// make one worker wait while another parses the file both need.
    /// A file that cannot be read is left for the snapshot that needs it to report.
    pub fn index_snapshots<S: BlobSource>(&self, snapshots: &[Snapshot], open_source: impl Fn() -> S + Sync) {
        let mut seen = HashSet::new();
        let claimed: Vec<Claimed<'_>> = snapshots
            .iter()
            .flat_map(|s| self.claimed(s).0)
            .filter(|&(_, entry, language)| {
                seen.insert((entry.id, language)) && !self.by_content.contains_key(&(entry.id, language))
            })
            .collect();
        self.index_claimed(&claimed, open_source);
    }

    /// The files of `snapshot` some frontend claims, in path order, each in its language there,
    /// and what the snapshot holds. One pass over the paths; a path of a shared ending waits for
    /// the end of it, which decides whose it is.
    fn claimed<'s>(&'s self, snapshot: &'s Snapshot) -> (Vec<Claimed<'s>>, Holdings) {
        let mut holdings = Holdings::default();
        let mut claimed: Vec<(&Arc<str>, &Entry, Option<LanguageId>)> = Vec::new();
        let shares = self.shares_endings();
        for (path, entry) in snapshot.entries() {
            if entry.mode == hintlens_snapshot::Mode::Symlink {
                continue;
            }
            let own = self.language_of(path);
            let shared = shares && self.frontends.shared_ending(path).is_some();
            if let Some(language) = self.frontends.counted(path, entry) {
                holdings.add(language, 1);
            }
            if shared {
                claimed.push((path, entry, None));
            } else if own.is_some() {
                claimed.push((path, entry, own));
            }
        }
        let claimed = claimed
            .into_iter()
            .filter_map(|(path, entry, language)| {
                Some((path, entry, language.or_else(|| self.language_in(path, &holdings))?))
            })
            .collect();
        (claimed, holdings)
    }

    fn index_claimed<S: BlobSource>(
        &self,
        claimed: &[Claimed<'_>],
        open_source: impl Fn() -> S + Sync,
    ) -> Vec<(Arc<str>, Slot)> {
        // A database handle is `Send` but not `Sync`, and a git reader is not `Sync` either:
        // each piece of work rayon splits off gets its own of both (`map_init`), so that files
        // are handed out one by one and the threads finish together.
        let prototype = Mutex::new(self.clone());
        claimed
            .par_iter()
            .map_init(
                || (prototype.lock().unwrap_or_else(|e| e.into_inner()).clone(), None),
                |(db, source), &(path, entry, language)| {
                    // The reader is opened on the first blob not yet interned: most files of a
                    // later snapshot are, and opening one costs more than finding a file indexed.
                    let read =
                        db.intern_file(entry.id, language, || entry.read(source.get_or_insert_with(&open_source)));
                    let file = match read {
                        Ok(file) => file,
                        Err(error) => {
                            return (path.clone(), Slot::Unreadable { language, error: error.to_string().into() });
                        }
                    };
                    // Index now, on this worker, so the whole snapshot is parsed in parallel.
                    file_index(db, file);
                    file_names(db, file);
                    (path.clone(), Slot::Ready(file))
                },
            )
            .collect()
    }
}

/// The source files of one snapshot: path → input. Cheap to clone.
///
/// Built two ways, answering the same queries: indexed up front ([`Database::index_snapshot`],
/// the language server's work tree, `batch --index full`), or on demand
/// ([`Database::snapshot_on_demand`]), where a file is read from git and parsed when a query
/// first needs it, and repository-wide name questions ([`SnapshotIndex::files_naming`]) read the
/// words of every blob once per database but parse only the files whose words hold the name.
#[derive(Clone, Default)]
pub struct SnapshotIndex {
    /// Keyed by the snapshot's own path strings, shared, not copied.
    files: Arc<Files>,
    blobs: Option<Arc<Blobs>>,
    /// What could not be read, by what needed it.
    unread: Arc<Unread>,
    /// What languages the snapshot holds files of ([`Database::language_in`]).
    holdings: Holdings,
    /// The repository-wide counts answered so far, for a snapshot whose files never change
    /// ([`SnapshotIndex::remembering_counts`]).
    counts: Option<Arc<Counts>>,
}

/// Occurrence counts by name and by string value ([`SnapshotIndex::occurrences`],
/// [`SnapshotIndex::string_occurrences`]).
#[derive(Default)]
struct Counts {
    names: DashMap<String, usize>,
    strings: DashMap<String, usize>,
}

impl std::fmt::Debug for SnapshotIndex {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SnapshotIndex").field("files", &self.files.len()).finish()
    }
}

/// An on-demand snapshot of `files` (in path order), reading its blobs from `source`.
fn on_demand_index(
    files: Vec<(Arc<str>, Slot)>,
    source: Box<dyn BlobSource + Send>,
    holdings: Holdings,
) -> SnapshotIndex {
    SnapshotIndex {
        files: Arc::new(Files::in_path_order(files)),
        blobs: Some(Arc::new(Blobs { reader: Mutex::new(source) })),
        unread: Arc::default(),
        holdings,
        counts: None,
    }
}

/// A snapshot's source files in path order, searched by bisection. Built in one pass from a
/// snapshot's entries, which come in path order: a map would sort them again and allocate a
/// node per few files, for every snapshot of every task.
#[derive(Default)]
struct Files(Box<[(Arc<str>, Slot)]>);

impl Files {
    /// `files` must be in strictly increasing path order, as a snapshot's entries are.
    fn in_path_order(files: Vec<(Arc<str>, Slot)>) -> Files {
        debug_assert!(files.windows(2).all(|w| w[0].0 < w[1].0), "files out of path order");
        Files(files.into())
    }

    fn get(&self, path: &str) -> Option<&Slot> {
        let at = self.0.binary_search_by(|(p, _)| (**p).cmp(path)).ok()?;
        Some(&self.0[at].1)
    }

    fn iter(&self) -> impl Iterator<Item = (&Arc<str>, &Slot)> {
        self.0.iter().map(|(path, slot)| (path, slot))
    }

    /// The files from the first path at or after `path` on, in path order.
    fn from<'s>(&'s self, path: &str) -> impl Iterator<Item = (&'s Arc<str>, &'s Slot)> + use<'s> {
        let start = self.0.partition_point(|(p, _)| **p < *path);
        self.0[start..].iter().map(|(path, slot)| (path, slot))
    }

    fn len(&self) -> usize {
        self.0.len()
    }

    fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// One claimed file: an input already, a blob to read on first need, or a blob that could not
/// be read when the snapshot was indexed up front.
#[derive(Debug, Clone)]
enum Slot {
    Ready(SourceFile),
    Blob { entry: Entry, language: LanguageId },
    Unreadable { language: LanguageId, error: Arc<str> },
}

/// Where an on-demand snapshot reads its blobs.
struct Blobs {
    reader: Mutex<Box<dyn BlobSource + Send>>,
}

impl Blobs {
    fn read(&self, entry: &Entry) -> Result<Arc<[u8]>, hintlens_snapshot::Error> {
        entry.read(&**self.reader.lock().unwrap_or_else(|e| e.into_inner()))
    }
}

/// What a query wanted of a file it could not read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Need {
    /// The file itself: an answer was to be read from it, and is no answer without it.
    Whole,
    /// Its words, as one of the many files a repository-wide fact or a search for candidates
    /// looks through: what is computed without it is a lower bound.
    Words,
}

/// The files a snapshot could not read, by what needed them.
#[derive(Default)]
struct Unread {
    needed: Mutex<BTreeMap<String, String>>,
    scanned: Mutex<BTreeMap<String, String>>,
}

impl Unread {
    /// What was read for the file at `path`; an error is kept, by `need`.
    fn answer<T, E: std::fmt::Display>(&self, need: Need, path: &str, read: Result<T, E>) -> Option<T> {
        read.map_err(|e| self.record(need, path, &e)).ok()
    }

    fn record(&self, need: Need, path: &str, error: &dyn std::fmt::Display) {
        let list = match need {
            Need::Whole => &self.needed,
            Need::Words => &self.scanned,
        };
        list.lock().unwrap_or_else(|e| e.into_inner()).entry(path.to_owned()).or_insert_with(|| error.to_string());
    }
}

impl SnapshotIndex {
    pub fn from_files(files: BTreeMap<String, SourceFile>) -> SnapshotIndex {
        SnapshotIndex {
            files: Arc::new(Files::in_path_order(
                files.into_iter().map(|(p, f)| (Arc::from(p), Slot::Ready(f))).collect(),
            )),
            blobs: None,
            unread: Arc::default(),
            holdings: Holdings::default(),
            counts: None,
        }
    }

    /// This snapshot with `overlay` laid over it: a path mapped to an input has that input
    /// (added, or in place of this snapshot's file), a path mapped to `None` is gone. The other
    /// files stay as they are, read on demand from this snapshot's source: the editor's
    /// reference, the base with the work tree's changes and open buffers over it. One merge in
    /// path order.
    pub fn overlaid(&self, overlay: &BTreeMap<String, Option<SourceFile>>) -> SnapshotIndex {
        let mut files = Vec::with_capacity(self.files.len() + overlay.len());
        let mut below = self.files.iter().peekable();
        for (path, file) in overlay {
            while let Some((p, slot)) = below.next_if(|(p, _)| ***p < **path) {
                files.push((p.clone(), slot.clone()));
            }
            let replaced = below.next_if(|(p, _)| ***p == **path);
            if let Some(file) = file {
                let path = replaced.map_or_else(|| Arc::from(path.as_str()), |(p, _)| p.clone());
                files.push((path, Slot::Ready(*file)));
            }
        }
        files.extend(below.map(|(p, slot)| (p.clone(), slot.clone())));
        // What decides a shared ending stays the snapshot's below, as the editor decides by its base.
        SnapshotIndex {
            files: Arc::new(Files::in_path_order(files)),
            blobs: self.blobs.clone(),
            unread: self.unread.clone(),
            holdings: self.holdings.clone(),
            // Its files may be edited: it counts anew.
            counts: None,
        }
    }

    /// This snapshot, remembering each name's and string's count once answered: for a snapshot
    /// whose every file is a blob or a content-keyed input (none an edited buffer), so that a
    /// count never changes — the editor's base, asked the same counts after every edit.
    pub fn remembering_counts(mut self) -> SnapshotIndex {
        self.counts = Some(Arc::default());
        self
    }

    /// The input of `path`, read (and interned) on first need. `None` when the snapshot has no
    /// such source file — or when reading it failed, which [`SnapshotIndex::read_errors`] then
    /// reports, so that no answer built without the file passes for a whole one.
    pub fn get(&self, db: &dyn Db, path: &str) -> Option<SourceFile> {
        self.file(db, path, self.files.get(path)?, Need::Whole)
    }

    /// The language the snapshot reads the file at `path` in, if it holds one (nothing is read).
    pub fn language_at(&self, db: &dyn Db, path: &str) -> Option<LanguageId> {
        self.files.get(path).map(|slot| self.language(db, slot))
    }

    /// Whether the snapshot holds a source file at `path` (nothing is read).
    pub fn contains(&self, path: &str) -> bool {
        self.files.get(path).is_some()
    }

    /// Every source file's path and language, in path order (nothing is read).
    pub fn paths<'s>(&'s self, db: &'s dyn Db) -> impl Iterator<Item = (&'s str, LanguageId)> + 's {
        self.files.iter().map(move |(path, slot)| (&**path, self.language(db, slot)))
    }

    pub fn len(&self) -> usize {
        self.files.len()
    }

    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }

    /// The files of `language` directly in directory `dir` (`""` for the top), in path order,
    /// read on demand.
    pub fn in_directory<'s>(&'s self, db: &dyn Db, dir: &str, language: LanguageId) -> Vec<(&'s str, SourceFile)> {
        self.directory(db, dir, language)
            .filter_map(|(path, slot)| Some((path, self.file(db, path, slot, Need::Whole)?)))
            .collect()
    }

    /// The paths of [`SnapshotIndex::in_directory`] whose files name every part of one of `names`
    /// as an identifier (a word of their code, as for [`SnapshotIndex::files_naming`]), in path
    /// order: only their words are read, and the caller reads the files it wants
    /// ([`SnapshotIndex::get`]). A part that is not one word keeps every file.
    pub fn in_directory_naming<'s>(
        &'s self,
        db: &dyn Db,
        dir: &str,
        language: LanguageId,
        names: &[Vec<&str>],
    ) -> Vec<&'s str> {
        self.naming_every_part(db, self.directory(db, dir, language), names)
    }

    /// [`SnapshotIndex::in_directory_naming`] over every directory: where a namespace's files
    /// lie anywhere (Ruby's constants, a class reopened in any file).
    pub fn of_language_naming<'s>(&'s self, db: &dyn Db, language: LanguageId, names: &[Vec<&str>]) -> Vec<&'s str> {
        let files = self.files.iter().filter(|(_, slot)| self.language(db, slot) == language);
        self.naming_every_part(db, files.map(|(path, slot)| (&**path, slot)), names)
    }

    fn naming_every_part<'s>(
        &'s self,
        db: &dyn Db,
        files: impl Iterator<Item = (&'s str, &'s Slot)>,
        names: &[Vec<&str>],
    ) -> Vec<&'s str> {
        // Each name's words: a part that is no single word (`empty?`) holds its word runs.
        let words: Vec<Vec<u32>> = names
            .iter()
            .map(|parts| {
                parts.iter().flat_map(|part| words::word_of(part).map_or_else(|| words::name_words(part), |w| vec![w]))
            })
            .map(Iterator::collect)
            .collect();
        files
            .filter(|(path, slot)| {
                self.words(db, path, slot)
                    .is_some_and(|w| words.iter().any(|parts| parts.iter().all(|&word| w.in_code(word))))
            })
            .map(|(path, _)| path)
            .collect()
    }

    fn directory<'s, 'd>(
        &'s self,
        db: &'d dyn Db,
        dir: &str,
        language: LanguageId,
    ) -> impl Iterator<Item = (&'s str, &'s Slot)> + use<'s, 'd> {
        let prefix = if dir.is_empty() { String::new() } else { format!("{dir}/") };
        let depth = prefix.len();
        self.files
            .from(&prefix)
            .take_while(move |(path, _)| path.starts_with(&prefix))
            .filter(move |(path, slot)| !path[depth..].contains('/') && self.language(db, slot) == language)
            .map(|(path, slot)| (&**path, slot))
    }

    /// Whether the file at `path` can name `name` as an identifier: a word of its code holds it
    /// ([`Words`]; always, for a name of more than one word). Nothing is parsed.
    pub fn may_name(&self, db: &dyn Db, path: &str, name: &str) -> bool {
        let Some(slot) = self.files.get(path) else { return false };
        match words::word_of(name) {
            Some(word) => self.words(db, path, slot).is_some_and(|w| w.in_code(word)),
            None => self.may_spell(db, path, slot, &spelled_words(name)),
        }
    }

    /// Whether the file can spell a name of the word runs `runs` ([`words::name_words`]) in
    /// its code or a string: what a name that is no single word must pass before a file is
    /// parsed to tell. Always, for a name without word runs.
    fn may_spell(&self, db: &dyn Db, path: &str, slot: &Slot, runs: &[u32]) -> bool {
        runs.is_empty()
            || self.words(db, path, slot).is_some_and(|w| w.contains_all(runs, || self.text(db, path, slot)))
    }

    /// The files that name `name` as an identifier — a word of their code, not of a comment or
    /// string ([`Words`]) — in path order, read on demand.
    pub fn files_naming(&self, db: &dyn Db, name: &str) -> Vec<(&str, SourceFile)> {
        self.naming(db, name)
            .into_iter()
            .filter_map(|(path, slot)| Some((path, self.file(db, path, slot, Need::Whole)?)))
            .collect()
    }

    /// In how many files `name` occurs as an identifier ([`SnapshotIndex::files_naming`]). On
    /// demand, no file is parsed or kept for it: the words answer.
    pub fn occurrences(&self, db: &dyn Db, name: &str) -> usize {
        let Some(counts) = &self.counts else { return self.naming(db, name).len() };
        if let Some(count) = counts.names.get(name) {
            return *count;
        }
        let count = self.naming(db, name).len();
        counts.names.insert(name.to_owned(), count);
        count
    }

    fn naming<'s>(&'s self, db: &dyn Db, name: &str) -> Vec<(&'s str, &'s Slot)> {
        let Some(word) = words::word_of(name) else {
            // Not one word (`aria-label`, Ruby's `empty?`): only the frontends' own names can
            // tell, in the files that hold its words.
            let runs = spelled_words(name);
            return self
                .files
                .iter()
                .filter(|(path, slot)| {
                    db.unwind_if_revision_cancelled();
                    self.may_spell(db, path, slot, &runs)
                        && self.file(db, path, slot, Need::Words).is_some_and(|f| file_names(db, f).contains(name))
                })
                .map(|(path, slot)| (&**path, slot))
                .collect();
        };
        // In a language that reserves the word, it is no identifier.
        let mut reserved: HashMap<LanguageId, bool> = HashMap::new();
        self.files
            .iter()
            .filter(|(path, slot)| {
                // A loop over the whole repository reads no salsa query for blobs: let a write
                // waiting for this handle cancel it.
                db.unwind_if_revision_cancelled();
                let language = self.language(db, slot);
                let keyword = *reserved
                    .entry(language)
                    .or_insert_with(|| db.frontend(language).keywords().binary_search(&name).is_ok());
                !keyword && self.words(db, path, slot).is_some_and(|w| w.in_code(word))
            })
            .map(|(path, slot)| (&**path, slot))
            .collect()
    }

    /// In how many files a string literal has the value `value`: the files whose words hold the
    /// value's are parsed to tell. The strings' words of a file are read the first time a
    /// value's word is not one of its code ([`Words::contains_all`]).
    pub fn string_occurrences(&self, db: &dyn Db, value: &str) -> usize {
        let Some(counts) = &self.counts else { return self.count_strings(db, value) };
        if let Some(count) = counts.strings.get(value) {
            return *count;
        }
        let count = self.count_strings(db, value);
        counts.strings.insert(value.to_owned(), count);
        count
    }

    fn count_strings(&self, db: &dyn Db, value: &str) -> usize {
        let parts = words::string_parts(value);
        self.files
            .iter()
            .filter(|(path, slot)| {
                db.unwind_if_revision_cancelled();
                match &parts {
                    Some(parts) => {
                        self.words(db, path, slot).is_some_and(|w| w.contains_all(parts, || self.text(db, path, slot)))
                    }
                    None => true,
                }
            })
            .filter_map(|(path, slot)| self.file(db, path, slot, Need::Words))
            .filter(|&file| file_index(db, file).strings.iter().any(|s| s.value == value))
            .count()
    }

    fn language(&self, db: &dyn Db, slot: &Slot) -> LanguageId {
        match slot {
            Slot::Ready(file) => file.language(db),
            Slot::Blob { language, .. } | Slot::Unreadable { language, .. } => *language,
        }
    }

    /// A file's input, read (and interned) on first need; a failure is kept by `need`.
    fn file(&self, db: &dyn Db, path: &str, slot: &Slot, need: Need) -> Option<SourceFile> {
        match slot {
            Slot::Ready(file) => Some(*file),
            Slot::Blob { entry, language } => {
                let blobs = self.blobs.as_ref()?;
                self.unread.answer(need, path, db.intern_blob(entry.id, *language, path, &|| blobs.read(entry)))
            }
            Slot::Unreadable { error, .. } => self.unread.answer(need, path, Err::<SourceFile, _>(error)),
        }
    }

    /// A file's words: of its text when it is an input, else of its blob, read once per
    /// database family ([`Db::blob_words`]). A file whose words cannot be read is left out of
    /// the scan asking, which [`SnapshotIndex::unscanned`] reports.
    fn words(&self, db: &dyn Db, path: &str, slot: &Slot) -> Option<Arc<Words>> {
        match slot {
            Slot::Ready(file) => Some(file_words(db, *file).clone()),
            Slot::Blob { entry, language } => {
                let blobs = self.blobs.as_ref()?;
                self.unread.answer(Need::Words, path, db.blob_words(entry.id, *language, &|| blobs.read(entry)))
            }
            Slot::Unreadable { error, .. } => self.unread.answer(Need::Words, path, Err::<Arc<Words>, _>(error)),
        }
    }

    /// A file's text, read again from its blob (not kept) when it is not an input: for scans.
    fn text(&self, db: &dyn Db, path: &str, slot: &Slot) -> Option<Arc<[u8]>> {
        match slot {
            Slot::Ready(file) => Some(file.text(db).clone()),
            Slot::Blob { entry, .. } => {
                let blobs = self.blobs.as_ref()?;
                self.unread.answer(Need::Words, path, blobs.read(entry))
            }
            Slot::Unreadable { error, .. } => self.unread.answer(Need::Words, path, Err::<Arc<[u8]>, _>(error)),
        }
    }

    /// The files an answer needed and the snapshot could not read, as `path: error`: an answer
    /// computed without any of them is no answer.
    pub fn read_errors(&self) -> Vec<String> {
        let needed = self.unread.needed.lock().unwrap_or_else(|e| e.into_inner());
        needed.iter().map(|(path, error)| format!("{path}: {error}")).collect()
    }

    /// Whether some file only scanned for its words could not be read
    /// ([`SnapshotIndex::unscanned`]).
    pub fn has_unscanned(&self) -> bool {
        !self.unread.scanned.lock().unwrap_or_else(|e| e.into_inner()).is_empty()
    }

    /// The files only scanned for their words (a repository-wide fact, a search for the files
    /// to parse) that the snapshot could not read, each with why: what was computed without
    /// them is a lower bound (`base_occurrences`), and a file they would have led to may be
    /// missing. In path order.
    pub fn unscanned(&self) -> Vec<(String, String)> {
        let needed = self.unread.needed.lock().unwrap_or_else(|e| e.into_inner());
        let scanned = self.unread.scanned.lock().unwrap_or_else(|e| e.into_inner());
        scanned.iter().filter(|(path, _)| !needed.contains_key(*path)).map(|(p, e)| (p.clone(), e.clone())).collect()
    }
}

/// The words a file must hold to name `name` where it is no single word
/// ([`words::name_words`]: Ruby's `empty?`, JSX's `aria-label`). None for a dotted name, which
/// a file may reach without spelling its every part (`from . import x`).
fn spelled_words(name: &str) -> Vec<u32> {
    if name.contains('.') { Vec::new() } else { words::name_words(name) }
}

/// The module name of an indexed file (`pkg.formatting`, `com.google.gson.JsonWriter`).
pub fn module_name(db: &dyn Db, path: &str, file: SourceFile) -> String {
    let language = file.language(db);
    match path_module_name(db, language, path) {
        Some(name) => name,
        None => db.frontend(language).module_name(path, file_definitions(db, file)),
    }
}

/// The module name of a file of `language` at `path`, when the path alone decides it
/// ([`Frontend::module_name_reads_file`]): found without reading the file.
pub fn path_module_name(db: &dyn Db, language: LanguageId, path: &str) -> Option<String> {
    let frontend = db.frontend(language);
    (!frontend.module_name_reads_file()).then(|| frontend.module_name(path, &FileIndex::default()))
}

/// The repository-wide qualified name of a definition of `file` with the given local name.
pub fn qualified_name(db: &dyn Db, path: &str, file: SourceFile, local_name: &str) -> String {
    db.frontend(file.language(db)).qualified_name(path, file_definitions(db, file), local_name)
}

#[cfg(test)]
mod tests {
    use super::{LanguageId, Names, SHELVED_MIN_BYTES, Shelf};
    use hintlens_syntax::reuse::Parse;
    use std::sync::Arc;

    #[test]
    fn a_shelf_holds_no_more_text_than_its_budget_forgetting_the_least_recently_kept() {
        let shelf = Shelf { state: Default::default(), budget: 3 * SHELVED_MIN_BYTES, plan: Default::default() };
        let text = |n: usize| -> Arc<[u8]> { vec![b'x'; n].into() };
        let keep = |path: &str, n: usize| shelf.keep(path.into(), LanguageId(0), text(n), Parse::new(n), 0);
        let taken =
            |path: &str| shelf.take(&Arc::from(path), LanguageId(0)).map(|(t, p)| (t.len(), p.into_inner::<usize>()));
        keep("small", SHELVED_MIN_BYTES - 1);
        keep("huge", 3 * SHELVED_MIN_BYTES + 1);
        assert_eq!((taken("small"), taken("huge")), (None, None), "too small to keep, or past the whole budget");
        let n = SHELVED_MIN_BYTES;
        keep("a", n);
        keep("b", n);
        keep("c", n);
        // A newer version of `a` replaces the older one and is now the newest: past the budget,
        // `b` goes; with `d`, `c` goes.
        keep("a", n + 1);
        keep("d", n);
        assert_eq!((taken("b"), taken("c")), (None, None), "the least recently kept go first");
        assert_eq!(taken("a"), Some((n + 1, Some(n + 1))));
        assert_eq!(taken("a"), None, "a parse is given once");
        assert_eq!(shelf.state.lock().unwrap().bytes, n, "only `d` is left");
        assert!(shelf.take(&Arc::from("d"), LanguageId(1)).is_none(), "another language's parse is no start");
    }

    #[test]
    fn names_answer_membership_without_storing_strings() {
        let names = Names::new(["fetch", "strict", "fetch", "Widget"]);
        assert_eq!(names.len(), 3);
        assert!(names.contains("fetch") && names.contains("strict") && names.contains("Widget"));
        assert!(!names.contains("widget") && !names.contains("") && !names.contains("fetc"));
        assert!(Names::new([]).is_empty());
    }
}
