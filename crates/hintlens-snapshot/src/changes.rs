//! Change sets computed by diffing two snapshots, for when no patches exist: the editor's work
//! tree against a base commit, or a reference commit read from git.

use std::collections::{BTreeMap, HashMap};
use std::time::{Duration, Instant};

use similar::{Algorithm, DiffOp};

use crate::patch::FileStatus;
use crate::reference::{ChangeSet, FileChange};
use crate::snapshot::{Entry, Mode, Snapshot};
use crate::{BlobSource, Error};

/// How long one file's line diff may search for a minimal answer; past it the diff is coarser
/// (more lines count as added) but still correct, so a pathological file cannot stall a caller.
const DIFF_DEADLINE: Duration = Duration::from_millis(500);

/// The changes that turn `base` into `reference`, split into code and test changes by
/// `is_test(path)`. Only files whose content or mode differ are read.
///
/// Like `git diff` without similarity detection, a file is added, deleted or modified; a
/// deletion and an addition of the same content are one rename.
pub fn changes_between(
    base: &Snapshot,
    reference: &Snapshot,
    source: &dyn BlobSource,
    is_test: impl Fn(&str) -> bool,
) -> Result<(ChangeSet, ChangeSet), Error> {
    let mut files: BTreeMap<String, FileChange> = BTreeMap::new();
    let mut deleted: HashMap<crate::ObjectId, Vec<String>> = HashMap::new();
    for (path, old) in base.iter() {
        if reference.get(path).is_none() {
            deleted.entry(old.id).or_default().push(path.to_owned());
        }
    }
    for (path, new) in reference.iter() {
        let change = match base.get(path) {
            Some(old) if old.id == new.id && old.mode == new.mode => continue,
            // Git records a file becoming a symlink (or back) as a deletion plus a creation; the
            // creation describes the result.
            Some(old) if (old.mode == Mode::Symlink) != (new.mode == Mode::Symlink) => added(path, new, source)?,
            // A mode change alone adds no lines.
            Some(old) if old.id == new.id => modified(),
            Some(old) => {
                let (old, new) = (old.read(source)?, new.read(source)?);
                if is_binary(path, &old) || is_binary(path, &new) {
                    FileChange { binary: true, ..modified() }
                } else {
                    FileChange { added_lines: added_lines(&old, &new), ..modified() }
                }
            }
            None => match deleted.get_mut(&new.id).and_then(Vec::pop) {
                Some(old_path) => FileChange { status: FileStatus::Renamed, old_path: Some(old_path), ..modified() },
                None => added(path, new, source)?,
            },
        };
        files.insert(path.to_owned(), change);
    }
    for path in deleted.into_values().flatten() {
        files.insert(path, FileChange { status: FileStatus::Deleted, ..modified() });
    }
    let (test, code): (BTreeMap<_, _>, BTreeMap<_, _>) = files.into_iter().partition(|(path, _)| is_test(path));
    Ok((ChangeSet { files: code }, ChangeSet { files: test }))
}

fn modified() -> FileChange {
    FileChange { status: FileStatus::Modified, old_path: None, added_lines: Vec::new(), binary: false }
}

fn added(path: &str, entry: &Entry, source: &dyn BlobSource) -> Result<FileChange, Error> {
    let content = entry.read(source)?;
    if is_binary(path, &content) {
        return Ok(FileChange { status: FileStatus::Added, binary: true, ..modified() });
    }
    let lines = lines(&content).len() as u32;
    Ok(FileChange { status: FileStatus::Added, added_lines: (0..lines).collect(), ..modified() })
}

/// Git's test (a NUL byte in the first 8000 bytes), except for source files: a NUL byte in one is
/// a syntax error the frontends read past, and its lines are still the change (a test file
/// taken for binary would add no uses). Binary files have no lines to report.
pub(crate) fn is_binary(path: &str, content: &[u8]) -> bool {
    crate::source_extension(path).is_none() && content[..content.len().min(8000)].contains(&0)
}

/// Zero-based, ascending numbers of the lines of `new` that a line diff from `old` adds
/// (inserted or replacing other lines), as `git diff` would mark them with `+`.
pub fn added_lines(old: &[u8], new: &[u8]) -> Vec<u32> {
    let old = lines(old);
    let new = lines(new);
    let deadline = Instant::now() + DIFF_DEADLINE;
    let mut added = Vec::new();
    for op in similar::capture_diff_slices_deadline(Algorithm::Myers, &old, &new, Some(deadline)) {
        match op {
            DiffOp::Insert { new_index, new_len, .. } | DiffOp::Replace { new_index, new_len, .. } => {
                added.extend(new_index as u32..(new_index + new_len) as u32);
            }
            DiffOp::Equal { .. } | DiffOp::Delete { .. } => {}
        }
    }
    added
}

/// [`added_lines`], and where each line of `old` went in `new` (`None`: deleted), as a patch's
/// hunks would say: for content a binary patch gives whole.
pub(crate) fn diff_lines(old: &[u8], new: &[u8]) -> (Vec<u32>, Vec<Option<u32>>) {
    let (old, new) = (lines(old), lines(new));
    let deadline = Instant::now() + DIFF_DEADLINE;
    let (mut added, mut map) = (Vec::new(), vec![None; old.len()]);
    for op in similar::capture_diff_slices_deadline(Algorithm::Myers, &old, &new, Some(deadline)) {
        match op {
            DiffOp::Equal { old_index, new_index, len } => {
                for i in 0..len {
                    map[old_index + i] = Some((new_index + i) as u32);
                }
            }
            DiffOp::Insert { new_index, new_len, .. } | DiffOp::Replace { new_index, new_len, .. } => {
                added.extend(new_index as u32..(new_index + new_len) as u32);
            }
            DiffOp::Delete { .. } => {}
        }
    }
    (added, map)
}

/// Lines with their terminators, so that a last line gaining or losing its newline is a change,
/// as it is for git.
fn lines(content: &[u8]) -> Vec<&[u8]> {
    content.split_inclusive(|&b| b == b'\n').collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::NoBlobs;

    fn snapshot(files: &[(&str, &str)]) -> Snapshot {
        Snapshot::from_files(files.iter().map(|(path, text)| (path.to_string(), text.as_bytes().to_vec())))
    }

    fn summary(changes: &ChangeSet) -> Vec<String> {
        changes
            .files
            .iter()
            .map(|(path, c)| {
                let from = c.old_path.as_deref().map(|p| format!(" from {p}")).unwrap_or_default();
                format!("{path} {:?}{from} {:?}", c.status, c.added_lines)
            })
            .collect()
    }

    #[test]
    fn added_lines_are_the_inserted_and_replaced_lines_of_the_new_text() {
        assert_eq!(added_lines(b"a\nb\nc\n", b"a\nb\nc\n"), Vec::<u32>::new());
        assert_eq!(added_lines(b"a\nb\nc\n", b"a\nx\nb\nc\ny\n"), [1, 4]);
        assert_eq!(added_lines(b"a\nb\nc\n", b"a\nB\nc\n"), [1]);
        assert_eq!(added_lines(b"a\nb\nc\n", b"c\n"), Vec::<u32>::new());
        assert_eq!(added_lines(b"", b"a\nb"), [0, 1]);
        assert_eq!(added_lines(b"a\nb", b"a\nb\n"), [1], "the last line gained its newline");
    }

    #[test]
    fn changes_between_splits_code_and_test_files() {
        let base = snapshot(&[
            ("pkg/api.py", "def a():\n    pass\n"),
            ("pkg/gone.py", "x = 1\n"),
            ("pkg/old_name.py", "moved = True\n"),
            ("pkg/same.py", "same = 1\n"),
            ("tests/test_api.py", "def test_a():\n    a()\n"),
        ]);
        let reference = snapshot(&[
            ("pkg/api.py", "def a():\n    pass\n\ndef b():\n    pass\n"),
            ("pkg/new.py", "n = 1\nm = 2\n"),
            ("pkg/new_name.py", "moved = True\n"),
            ("pkg/same.py", "same = 1\n"),
            ("tests/test_api.py", "def test_a():\n    a()\n\ndef test_b():\n    b()\n"),
        ]);
        let (code, test) = changes_between(&base, &reference, &NoBlobs, |path| path.starts_with("tests/")).unwrap();
        assert_eq!(
            summary(&code),
            [
                "pkg/api.py Modified [2, 3, 4]",
                "pkg/gone.py Deleted []",
                "pkg/new.py Added [0, 1]",
                "pkg/new_name.py Renamed from pkg/old_name.py []",
            ]
        );
        assert_eq!(summary(&test), ["tests/test_api.py Modified [2, 3, 4]"]);
    }
}
