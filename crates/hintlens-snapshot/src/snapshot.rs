use std::cmp::Ordering;
use std::collections::BTreeMap;
use std::collections::btree_map;
use std::iter::Peekable;
use std::slice;
use std::sync::Arc;

use crate::{BlobSource, Error, ObjectId};

/// The kind of a file in a snapshot, as git records it in a tree.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Mode {
    /// `100644`
    File,
    /// `100755`
    Executable,
    /// `120000`: the content is the link target, never followed.
    Symlink,
}

impl Mode {
    /// Parses git's octal mode; `None` for trees, gitlinks and anything unknown.
    pub(crate) fn from_git(octal: &str) -> Option<Mode> {
        match octal {
            // 100664 is what very old git versions wrote for group-writable files.
            "100644" | "100664" => Some(Mode::File),
            "100755" => Some(Mode::Executable),
            "120000" => Some(Mode::Symlink),
            _ => None,
        }
    }
}

/// One file of a [`Snapshot`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// The git blob id of the content, also for content that only exists in memory; the null
    /// id for content a patch changed without it being computed ([`Entry::is_unapplied`]).
    pub id: ObjectId,
    pub mode: Mode,
    content: Content,
}

/// Where an entry's content is.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Content {
    /// In the object database, as blob `id`.
    InGit,
    /// Produced by a patch or built in memory (not necessarily in the object database).
    InMemory(Arc<[u8]>),
    /// What a patch made of a file its caller said it would never read
    /// ([`crate::build_reference_reading`]): not computed, so there is none to read.
    Unapplied,
}

impl Entry {
    pub(crate) fn in_git(id: ObjectId, mode: Mode) -> Entry {
        Entry { id, mode, content: Content::InGit }
    }

    pub(crate) fn in_memory(data: Arc<[u8]>, mode: Mode) -> Entry {
        Entry { id: blob_id(&data), mode, content: Content::InMemory(data) }
    }

    pub(crate) fn unapplied(mode: Mode) -> Entry {
        Entry { id: ObjectId::null(gix::hash::Kind::Sha1), mode, content: Content::Unapplied }
    }

    pub(crate) fn with_mode(&self, mode: Mode) -> Entry {
        Entry { mode, ..self.clone() }
    }

    /// Whether the content is read from git (not produced by a patch or built in memory).
    pub fn is_in_git(&self) -> bool {
        self.content == Content::InGit
    }

    /// Whether the entry is what a patch made of a file nobody reads, its content never
    /// computed ([`crate::build_reference_reading`]): it exists, and [`Entry::read`] fails.
    pub fn is_unapplied(&self) -> bool {
        self.content == Content::Unapplied
    }

    /// The content: inline data if the entry has it, otherwise the blob from `source`.
    pub fn read(&self, source: &dyn BlobSource) -> Result<Arc<[u8]>, Error> {
        match &self.content {
            Content::InMemory(data) => Ok(data.clone()),
            Content::InGit => source.read_blob(self.id),
            Content::Unapplied => Err(Error::Unapplied),
        }
    }
}

/// An immutable set of files keyed by their repository-relative path (`/`-separated).
///
/// A snapshot derived from another one (by applying a patch) shares the original's base and
/// records only the differences, so deriving and cloning cost O(changed files), not
/// O(repository).
#[derive(Debug, Clone, Default)]
pub struct Snapshot {
    /// In strictly increasing path order, searched by bisection: built in one pass from a
    /// commit's trees, which list it in that order (a map would sort it again and allocate a
    /// node per few files, for each task's base).
    base: Arc<[(Arc<str>, Entry)]>,
    /// Changes on top of `base`; `None` removes the path.
    overlay: Arc<BTreeMap<Arc<str>, Option<Entry>>>,
    len: usize,
}

impl Snapshot {
    /// A snapshot of `entries`; of two entries with the same path, the later one counts.
    /// Entries already in path order (a commit's, from its trees) are taken as they are.
    pub(crate) fn from_entries(mut entries: Vec<(Arc<str>, Entry)>) -> Snapshot {
        if !entries.windows(2).all(|w| w[0].0 < w[1].0) {
            // Stable, so that among equal paths the last comes last and is the one kept.
            entries.sort_by(|a, b| a.0.cmp(&b.0));
            let mut kept: Vec<(Arc<str>, Entry)> = Vec::with_capacity(entries.len());
            for entry in entries {
                match kept.last_mut() {
                    Some(last) if last.0 == entry.0 => *last = entry,
                    _ => kept.push(entry),
                }
            }
            entries = kept;
        }
        Snapshot { len: entries.len(), base: entries.into(), overlay: Arc::default() }
    }

    fn in_base(&self, path: &str) -> Option<&Entry> {
        let at = self.base.binary_search_by(|(p, _)| (**p).cmp(path)).ok()?;
        Some(&self.base[at].1)
    }

    /// A snapshot that exists only in memory (tests, editor buffers). All files get
    /// [`Mode::File`]; a later duplicate path replaces an earlier one.
    pub fn from_files(files: impl IntoIterator<Item = (String, Vec<u8>)>) -> Snapshot {
        Snapshot::from_entries(
            files
                .into_iter()
                .map(|(path, data)| (Arc::from(path), Entry::in_memory(data.into(), Mode::File)))
                .collect(),
        )
    }

    pub fn get(&self, path: &str) -> Option<&Entry> {
        match self.overlay.get(path) {
            Some(change) => change.as_ref(),
            None => self.in_base(path),
        }
    }

    /// All files in path order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &Entry)> {
        self.entries().map(|(path, entry)| (&**path, entry))
    }

    /// [`Snapshot::iter`] with the paths as the snapshot holds them, so that an index keyed by
    /// path can share them instead of copying each.
    pub fn entries(&self) -> impl Iterator<Item = (&Arc<str>, &Entry)> {
        Merge { base: self.base.iter().peekable(), overlay: self.overlay.iter().peekable() }
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The content of `path`: inline data if present, else the blob from `source`.
    pub fn read(&self, path: &str, source: &dyn BlobSource) -> Result<Arc<[u8]>, Error> {
        self.get(path).ok_or_else(|| Error::NoSuchFile { path: path.to_owned() })?.read(source)
    }

    /// Where this snapshot differs from `earlier`, when it was derived from it (a reference
    /// from its base, by applying patches): each changed path with its entry here (`None`:
    /// removed), in path order. `None` when it was not, and the two share nothing to compare.
    pub fn changes_since<'s>(
        &'s self,
        earlier: &Snapshot,
    ) -> Option<impl Iterator<Item = (&'s Arc<str>, Option<&'s Entry>)> + use<'s>> {
        let derived = Arc::ptr_eq(&self.base, &earlier.base) && earlier.overlay.is_empty();
        derived.then(|| self.overlay.iter().map(|(path, change)| (path, change.as_ref())))
    }

    /// A new snapshot with `changes` applied in order (`None` removes a path).
    pub(crate) fn with_changes(&self, changes: impl IntoIterator<Item = (Arc<str>, Option<Entry>)>) -> Snapshot {
        let mut overlay = (*self.overlay).clone();
        let mut len = self.len;
        for (path, change) in changes {
            let existed = self.get_in(&overlay, &path).is_some();
            match (existed, change.is_some()) {
                (false, true) => len += 1,
                (true, false) => len -= 1,
                _ => {}
            }
            overlay.insert(path, change);
        }
        Snapshot { base: self.base.clone(), overlay: Arc::new(overlay), len }
    }

    fn get_in<'a>(&'a self, overlay: &'a BTreeMap<Arc<str>, Option<Entry>>, path: &str) -> Option<&'a Entry> {
        match overlay.get(path) {
            Some(change) => change.as_ref(),
            None => self.in_base(path),
        }
    }
}

/// Merges the base with the overlay, both sorted by path; the overlay wins on equal keys.
struct Merge<'a> {
    base: Peekable<slice::Iter<'a, (Arc<str>, Entry)>>,
    overlay: Peekable<btree_map::Iter<'a, Arc<str>, Option<Entry>>>,
}

impl<'a> Iterator for Merge<'a> {
    type Item = (&'a Arc<str>, &'a Entry);

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            let order = match (self.base.peek(), self.overlay.peek()) {
                (None, None) => return None,
                (Some(_), None) => Ordering::Less,
                (None, Some(_)) => Ordering::Greater,
                (Some((base, _)), Some((overlay, _))) => base.cmp(overlay),
            };
            match order {
                Ordering::Less => return self.base.next().map(|(path, entry)| (path, entry)),
                Ordering::Equal => {
                    self.base.next();
                }
                Ordering::Greater => {}
            }
            if let (path, Some(entry)) = self.overlay.next()? {
                return Some((path, entry));
            }
        }
    }
}

/// Git's blob id for `data` (`git hash-object`), so content produced in memory that equals a
/// committed file gets the committed file's id.
///
/// # Panics
///
/// If `data` is a SHA-1 collision attack (git's collision detection fires). Git refuses to
/// store such content, so it cannot come from a repository or from a `git diff` text patch.
pub fn blob_id(data: &[u8]) -> ObjectId {
    gix::objs::compute_hash(gix::hash::Kind::Sha1, gix::objs::Kind::Blob, data)
        .expect("SHA-1 collision attack detected in in-memory content")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn derived_snapshots_share_the_base_and_merge_in_order() {
        let base = Snapshot::from_files([("a", "1"), ("c", "3"), ("e", "5")].map(|(p, d)| (p.into(), d.into())));
        let entry = |data: &[u8]| Some(Entry::in_memory(data.into(), Mode::File));
        let derived = base.with_changes([
            (Arc::from("b"), entry(b"2")),
            (Arc::from("c"), None),
            (Arc::from("e"), entry(b"five")),
            (Arc::from("f"), entry(b"6")),
        ]);
        assert!(Arc::ptr_eq(&base.base, &derived.base));
        let listed: Vec<_> = derived.iter().map(|(path, entry)| (path, entry.id)).collect();
        let expected: Vec<_> = [("a", "1"), ("b", "2"), ("e", "five"), ("f", "6")]
            .map(|(path, data)| (path, blob_id(data.as_bytes())))
            .into();
        assert_eq!(listed, expected);
        assert_eq!(derived.len(), 4);
        assert_eq!(derived.get("c"), None);
        assert_eq!(base.len(), 3);

        let again = derived.with_changes([(Arc::from("c"), entry(b"3")), (Arc::from("a"), None)]);
        assert_eq!(again.iter().map(|(path, _)| path).collect::<Vec<_>>(), ["b", "c", "e", "f"]);
        assert_eq!(again.len(), 4);
    }

    #[test]
    fn files_given_out_of_order_are_sorted_and_a_later_duplicate_wins() {
        let files = [("b/x", "1"), ("a", "2"), ("b.c", "3"), ("a", "4"), ("b/x", "5"), ("a", "6")];
        let snapshot = Snapshot::from_files(files.map(|(p, d)| (p.into(), d.into())));
        let listed: Vec<_> = snapshot.iter().map(|(path, entry)| (path, entry.id)).collect();
        let expected: Vec<_> =
            [("a", "6"), ("b.c", "3"), ("b/x", "5")].map(|(path, data)| (path, blob_id(data.as_bytes()))).into();
        assert_eq!(listed, expected);
        assert_eq!(snapshot.len(), 3);
        assert_eq!(snapshot.get("b.c").map(|e| e.id), Some(blob_id(b"3")));
        assert_eq!(snapshot.get("b"), None);
    }
}
