//! Reference snapshots: a base snapshot with a task's code and test patches applied in memory.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::Arc;

use crate::BlobSource;
use crate::changes::{diff_lines, is_binary};
use crate::error::{HunkRef, PatchError, PatchErrorKind, PatchRole};
use crate::patch::{FilePatch, FileStatus, Hunk, Line, Patch};
use crate::snapshot::{Entry, Mode, Snapshot};

/// The base snapshot with the code patch and then the test patch applied.
#[derive(Debug, Clone)]
pub struct Reference {
    pub snapshot: Snapshot,
    /// What the code patch did, in the coordinates of the final `snapshot`.
    pub code: ChangeSet,
    /// What the test patch did.
    pub test: ChangeSet,
    /// Parts of the patches that were not applied (binary files, submodules) and why.
    pub notes: Vec<String>,
}

/// The files one patch changed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ChangeSet {
    /// Keyed by the path in the reference snapshot, or the old path for deletions.
    pub files: BTreeMap<String, FileChange>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileChange {
    pub status: FileStatus,
    /// The path the file had before, when it differs from the key (renames, copies).
    pub old_path: Option<String>,
    /// Zero-based, ascending line numbers in the reference snapshot's file that this patch
    /// added (all lines for an added file).
    pub added_lines: Vec<u32>,
    /// The file is binary, so no lines are reported. From a patch, this means its content was
    /// not applied either; see [`Reference::notes`].
    pub binary: bool,
}

/// Applies `code_patch` to `base`, then `test_patch` to the result. Only the files the patches
/// touch are read from `source`.
///
/// Hunks apply exactly at the line numbers in their headers, without searching for an offset
/// or ignoring context: the patches of a task are made against its base commit, so a hunk
/// that does not match there means the base is wrong, and is reported rather than guessed.
pub fn build_reference(
    base: &Snapshot,
    source: &dyn BlobSource,
    code_patch: &[u8],
    test_patch: &[u8],
) -> Result<Reference, PatchError> {
    build_reference_reading(base, source, code_patch, test_patch, &|_| true)
}

/// [`build_reference`] for a reader that reads only the files at the paths `reads` accepts: the
/// others' diffs are not applied. Their entries in the reference exist, with the mode the patch
/// gives them and content never computed ([`Entry::is_unapplied`]); their added lines are the
/// hunks' own; their hunks are not checked against the base, and their base content is not
/// read. A batch so spares reading, patching and hashing the approval baselines and golden
/// files that test patches rewrite whole (Catch2's 400 KB `*.approved.txt`), which no frontend
/// reads. A file both patches change is applied whatever `reads` says: the test patch moves the
/// code patch's lines in it.
pub fn build_reference_reading(
    base: &Snapshot,
    source: &dyn BlobSource,
    code_patch: &[u8],
    test_patch: &[u8],
    reads: &dyn Fn(&str) -> bool,
) -> Result<Reference, PatchError> {
    let parse = |text, role| Patch::parse(text).map_err(|e: PatchError| e.in_patch(role));
    let code_patch = parse(code_patch, PatchRole::Code)?;
    let test_patch = parse(test_patch, PatchRole::Test)?;
    let in_both: HashSet<&str> =
        code_patch.touched_paths().intersection(&test_patch.touched_paths()).copied().collect();
    let reads = |path: &str| in_both.contains(path) || reads(path);

    let code = apply(base, source, &code_patch, PatchRole::Code, &reads)?;
    let test = apply(&code.snapshot, source, &test_patch, PatchRole::Test, &reads)?;

    let mut notes = code.notes;
    notes.extend(test.notes);
    let mut code_files = BTreeMap::new();
    for (path, mut change) in code.changes.files {
        let fate = match change.status {
            // A deleted file is not in the test patch's pre-image, so nothing can move it.
            FileStatus::Deleted => None,
            _ => test.fates.get(&path),
        };
        let key = match fate {
            None => path,
            Some(Fate::Removed) => {
                notes.push(format!(
                    "test patch deletes {path}, which the code patch changed; the code patch's lines for it are not in the reference"
                ));
                change.added_lines.clear();
                path
            }
            Some(Fate::Moved { to, lines }) => {
                if let Some(lines) = lines {
                    change.added_lines = change
                        .added_lines
                        .iter()
                        .filter_map(|&line| lines.get(line as usize).copied().flatten())
                        .collect();
                }
                if *to != path && change.old_path.is_none() && change.status != FileStatus::Added {
                    change.old_path = Some(path);
                }
                to.clone()
            }
        };
        code_files.insert(key, change);
    }

    Ok(Reference { snapshot: test.snapshot, code: ChangeSet { files: code_files }, test: test.changes, notes })
}

/// Where a pre-image file ended up after a patch.
enum Fate {
    Removed,
    Moved {
        to: String,
        /// Pre-image line → post-image line (`None`: deleted). `None` when unchanged.
        lines: Option<Vec<Option<u32>>>,
    },
}

struct Applied {
    snapshot: Snapshot,
    changes: ChangeSet,
    /// Keyed by pre-image path; only files the patch removed, moved or edited.
    fates: HashMap<String, Fate>,
    notes: Vec<String>,
}

/// Applies all diffs of `patch` to `pre` as one step, as `git apply` does: every diff reads
/// its file from `pre`, so a patch may, e.g., delete a path and create it again.
fn apply(
    pre: &Snapshot,
    source: &dyn BlobSource,
    patch: &Patch,
    role: PatchRole,
    reads: &dyn Fn(&str) -> bool,
) -> Result<Applied, PatchError> {
    let error = |path: &str, kind| PatchError::new(kind).in_patch(role).at_path(Some(path));
    let mut notes = Vec::new();
    let files: Vec<&FilePatch> = patch
        .files
        .iter()
        .filter(|file| {
            if file.submodule {
                notes.push(format!(
                    "{role} patch: submodule change for {} skipped (snapshots do not contain submodules)",
                    file.path()
                ));
            }
            !file.submodule
        })
        .collect();

    // Each pre-image file may be edited, deleted or renamed away by one diff only; the paths
    // deleted or renamed away may be created again.
    let mut consumed = HashSet::new();
    let mut removed = HashSet::new();
    for file in &files {
        let Some(old) = &file.old_path else { continue };
        if file.status == FileStatus::Copied {
            continue;
        }
        if !consumed.insert(old.as_str()) {
            return Err(error(old, PatchErrorKind::ChangedTwice));
        }
        if matches!(file.status, FileStatus::Deleted | FileStatus::Renamed) {
            removed.insert(old.as_str());
        }
    }
    let mut written = HashSet::new();
    for file in &files {
        if let Some(old) = &file.old_path
            && pre.get(old).is_none()
        {
            return Err(error(old, PatchErrorKind::MissingFile));
        }
        if let Some(new) = &file.new_path {
            let creates = file.old_path.as_ref() != Some(new);
            if creates && pre.get(new).is_some() && !removed.contains(new.as_str()) {
                return Err(error(new, PatchErrorKind::AlreadyExists));
            }
            if !written.insert(new.as_str()) {
                return Err(error(new, PatchErrorKind::ChangedTwice));
            }
        }
    }

    let mut removals = Vec::new();
    let mut writes = Vec::new();
    let mut changes = ChangeSet::default();
    let mut fates = HashMap::new();
    for file in files {
        let old_entry = file.old_path.as_deref().and_then(|old| pre.get(old));
        let mut binary = file.binary;
        let (new_entry, added_lines, line_map) = if file.binary {
            match apply_binary(file, old_entry, source).map_err(|e| e.in_patch(role))? {
                Binary::Applied { entry, lines } => {
                    binary = lines.is_none();
                    let (added, map) = lines.map_or((Vec::new(), None), |(added, map)| (added, Some(map)));
                    (entry, added, map)
                }
                Binary::Skipped => {
                    notes.push(binary_note(file, role));
                    let entry = old_entry.map(|entry| entry.with_mode(file.new_mode.unwrap_or(entry.mode)));
                    (entry, Vec::new(), None)
                }
            }
        } else if !file.old_path.iter().chain(&file.new_path).any(|path| reads(path)) {
            unapplied(file, old_entry)
        } else {
            let (entry, added, map, eol) = apply_file(file, old_entry, source).map_err(|e| e.in_patch(role))?;
            if eol == EolMatch::IgnoringCr {
                notes.push(format!(
                    "{role} patch: {} uses CRLF line endings and the patch LF; applied ignoring line endings (added lines keep CRLF)",
                    file.path()
                ));
            }
            (entry, added, map)
        };

        if let Some(old) = &file.old_path {
            match file.status {
                FileStatus::Deleted | FileStatus::Renamed => {
                    removals.push((Arc::from(old.as_str()), None));
                }
                FileStatus::Copied | FileStatus::Added | FileStatus::Modified => {}
            }
            if file.status != FileStatus::Copied && (file.status != FileStatus::Modified || line_map.is_some()) {
                let fate = match &file.new_path {
                    None => Fate::Removed,
                    Some(new) => Fate::Moved { to: new.clone(), lines: line_map },
                };
                fates.insert(old.clone(), fate);
            }
        }
        if let (Some(new), Some(entry)) = (&file.new_path, new_entry) {
            writes.push((Arc::from(new.as_str()), Some(entry)));
        }

        let key = file.new_path.clone().or_else(|| file.old_path.clone()).unwrap_or_default();
        let change = FileChange {
            status: file.status,
            old_path: file.old_path.clone().filter(|old| *old != key),
            added_lines,
            binary,
        };
        // A type change (file to symlink) is a deletion plus a creation of the same path;
        // the creation describes the result.
        if change.status != FileStatus::Deleted || !changes.files.contains_key(&key) {
            changes.files.insert(key, change);
        }
    }

    Ok(Applied { snapshot: pre.with_changes(removals.into_iter().chain(writes)), changes, fates, notes })
}

/// What a text diff does to a file nobody reads ([`build_reference_reading`]): its new entry, of
/// content never computed (`None` if deleted), the lines its hunks add, and no line map (nothing
/// moves lines of a file only one patch changes).
fn unapplied(file: &FilePatch, old_entry: Option<&Entry>) -> (Option<Entry>, Vec<u32>, Option<Vec<Option<u32>>>) {
    if file.status == FileStatus::Deleted {
        return (None, Vec::new(), None);
    }
    let mode = file.new_mode.or(old_entry.map(|entry| entry.mode)).unwrap_or(Mode::File);
    if file.hunks.is_empty() && file.status != FileStatus::Added {
        // A pure rename, copy or mode change keeps the content, which is still there to read.
        return (old_entry.map(|entry| entry.with_mode(mode)), Vec::new(), None);
    }
    let mut added = Vec::new();
    for hunk in &file.hunks {
        // Zero-based; with no new lines, the start names the line after which nothing is left.
        let mut line = hunk.new_start.saturating_sub(1);
        for hunk_line in &hunk.lines {
            match hunk_line {
                Line::Insert(_) => {
                    added.push(line);
                    line += 1;
                }
                Line::Context(_) => line += 1,
                Line::Delete(_) => {}
            }
        }
    }
    (Some(Entry::unapplied(mode)), added, None)
}

/// What a binary diff did to its file.
enum Binary {
    /// The new entry (`None`: deleted) and, unless the new content is binary, its added lines
    /// and the line map from the old content, as a text diff would give them.
    Applied { entry: Option<Entry>, lines: Option<(Vec<u32>, Vec<Option<u32>>)> },
    /// `Binary files … differ` for a file that is no source code: its content is unknown, and
    /// nothing reads it.
    Skipped,
}

/// Applies a binary diff: a `GIT binary patch`'s literal or delta, checked against the blob ids
/// of its `index` line. `Binary files … differ` carries no content: a deletion still applies,
/// a source file's new content is an error (an answer would silently read the old one), any
/// other file keeps its previous content, with a note.
fn apply_binary(file: &FilePatch, old_entry: Option<&Entry>, source: &dyn BlobSource) -> Result<Binary, PatchError> {
    let path = file.path();
    let error = |kind| PatchError::new(kind).at_path(Some(path));
    let does_not_apply = |reason: String| error(PatchErrorKind::BinaryDoesNotApply(reason));
    if file.status == FileStatus::Deleted {
        return Ok(Binary::Applied { entry: None, lines: None });
    }
    let Some(hunk) = &file.binary_hunk else {
        return match crate::source_extension(path) {
            Some(_) => Err(error(PatchErrorKind::BinaryWithoutContent)),
            None => Ok(Binary::Skipped),
        };
    };
    // An id of zeros stands for no file (`index 0000000..abc` of an added file).
    let named = |id: &str| !id.is_empty() && id.bytes().any(|b| b != b'0');
    let (old_id, new_id) = file.index.clone().unwrap_or_default();
    if let (Some(entry), true) = (old_entry, named(&old_id))
        && !entry.id.to_string().starts_with(&old_id)
    {
        return Err(does_not_apply(format!(
            "it was made against blob {old_id}, and the file is blob {} (is the snapshot at the patch's base commit?)",
            entry.id
        )));
    }
    let old = match old_entry {
        Some(entry) => read(file, entry, source)?,
        None => Arc::from(&b""[..]),
    };
    let new = hunk.apply(&old).map_err(does_not_apply)?;
    let id = crate::blob_id(&new);
    if named(&new_id) && !id.to_string().starts_with(&new_id) {
        return Err(does_not_apply(format!("its result is blob {id}, the patch's index line names {new_id}")));
    }
    let lines = (!is_binary(path, &old) && !is_binary(path, &new)).then(|| diff_lines(&old, &new));
    let mode = file.new_mode.or(old_entry.map(|entry| entry.mode)).unwrap_or(Mode::File);
    Ok(Binary::Applied { entry: Some(Entry::in_memory(new.into(), mode)), lines })
}

fn binary_note(file: &FilePatch, role: PatchRole) -> String {
    let path = file.path();
    let outcome = match file.status {
        FileStatus::Added => "the file is not in the reference snapshot".to_owned(),
        FileStatus::Deleted => "the file is deleted".to_owned(),
        FileStatus::Modified => "the reference snapshot keeps its previous content".to_owned(),
        FileStatus::Renamed | FileStatus::Copied => {
            format!("it has the previous content of {}", file.old_path.as_deref().unwrap_or_default())
        }
    };
    format!("{role} patch: binary patch for {path} skipped: {outcome}")
}

type FileResult = (Option<Entry>, Vec<u32>, Option<Vec<Option<u32>>>, EolMatch);

/// How hunk lines were matched against the file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum EolMatch {
    Exact,
    /// The file has CRLF line endings and the patch text lost its `\r`s (datasets that went
    /// through text-mode tools do this); lines match if equal up to the `\r`.
    IgnoringCr,
}

/// The new entry (`None` if deleted), the added lines, and the line map (`None` if the
/// content is unchanged).
fn apply_file(file: &FilePatch, old_entry: Option<&Entry>, source: &dyn BlobSource) -> Result<FileResult, PatchError> {
    let mode = file.new_mode.or(old_entry.map(|entry| entry.mode)).unwrap_or(Mode::File);
    if file.hunks.is_empty() && file.status != FileStatus::Added {
        // Pure renames, copies and mode changes keep the entry, so its content need not be read.
        let entry = old_entry.map(|entry| entry.with_mode(mode));
        return match file.status {
            FileStatus::Deleted => {
                let old = old_entry.expect("checked by apply");
                if old.id != crate::blob_id(b"") {
                    let content = read(file, old, source)?;
                    return Err(mismatch(file, None, 1, None, first_line(&content)));
                }
                Ok((None, Vec::new(), None, EolMatch::Exact))
            }
            _ => Ok((entry, Vec::new(), None, EolMatch::Exact)),
        };
    }

    let old_content = match old_entry {
        Some(entry) => read(file, entry, source)?,
        None => Arc::from(&b""[..]),
    };
    let (patched, eol) = match apply_hunks(&old_content, &file.hunks, EolMatch::Exact) {
        Ok(patched) => (patched, EolMatch::Exact),
        // Retry only for the one known corruption, and report the exact failure otherwise.
        Err(failure) => match old_content.windows(2).any(|w| w == b"\r\n") {
            true => match apply_hunks(&old_content, &file.hunks, EolMatch::IgnoringCr) {
                Ok(patched) => (patched, EolMatch::IgnoringCr),
                Err(_) => {
                    return Err(mismatch(file, Some(failure.hunk), failure.line, failure.expected, failure.found));
                }
            },
            false => return Err(mismatch(file, Some(failure.hunk), failure.line, failure.expected, failure.found)),
        },
    };
    if file.status == FileStatus::Deleted {
        if !patched.content.is_empty() {
            // The first line the hunks kept is where the base has more than the patch removes.
            let line = patched.map.iter().position(Option::is_some).map_or(1, |i| i as u32 + 1);
            let rest = first_line(&patched.content);
            return Err(mismatch(file, None, line, None, rest));
        }
        return Ok((None, Vec::new(), Some(patched.map), eol));
    }
    let entry = Entry::in_memory(patched.content.into(), mode);
    Ok((Some(entry), patched.added, Some(patched.map), eol))
}

fn read(file: &FilePatch, entry: &Entry, source: &dyn BlobSource) -> Result<Arc<[u8]>, PatchError> {
    entry.read(source).map_err(|e| PatchError::new(PatchErrorKind::Read(e)).at_path(file.old_path.as_deref()))
}

fn first_line(content: &[u8]) -> Option<Vec<u8>> {
    split_lines(content).next().map(<[u8]>::to_vec)
}

fn mismatch(
    file: &FilePatch,
    hunk: Option<usize>,
    line: u32,
    expected: Option<Vec<u8>>,
    found: Option<Vec<u8>>,
) -> PatchError {
    let error =
        PatchError::new(PatchErrorKind::ContextMismatch { line, expected, found }).at_path(file.old_path.as_deref());
    match hunk {
        Some(index) => error.at_hunk(HunkRef { number: index + 1, header: file.hunks[index].header.clone() }),
        None => error,
    }
}

struct Patched {
    content: Vec<u8>,
    added: Vec<u32>,
    /// Old line → new line, `None` for deleted lines.
    map: Vec<Option<u32>>,
    lines: u32,
}

impl Patched {
    fn keep(&mut self, line: &[u8]) {
        self.content.extend_from_slice(line);
        self.map.push(Some(self.lines));
        self.lines += 1;
    }

    /// Keeps `count` consecutive lines of the old content, `bytes`, in one copy.
    fn keep_run(&mut self, bytes: &[u8], count: usize) {
        self.content.extend_from_slice(bytes);
        self.map.extend((self.lines..self.lines + count as u32).map(Some));
        self.lines += count as u32;
    }

    fn insert(&mut self, line: &[u8]) {
        self.content.extend_from_slice(line);
        self.added.push(self.lines);
        self.lines += 1;
    }
}

struct HunkFailure {
    /// 0-based index of the hunk.
    hunk: usize,
    /// 1-based line in the old content.
    line: u32,
    expected: Option<Vec<u8>>,
    found: Option<Vec<u8>>,
}

/// Lines including their terminator; the last one may lack it.
fn split_lines(content: &[u8]) -> impl Iterator<Item = &[u8]> {
    content.split_inclusive(|&b| b == b'\n')
}

/// A line without its terminator (`\n` or `\r\n`).
fn without_eol(line: &[u8]) -> &[u8] {
    let line = line.strip_suffix(b"\n").unwrap_or(line);
    line.strip_suffix(b"\r").unwrap_or(line)
}

fn apply_hunks(content: &[u8], hunks: &[Hunk], eol: EolMatch) -> Result<Patched, HunkFailure> {
    let same = |a: &[u8], b: &[u8]| match eol {
        EolMatch::Exact => a == b,
        EolMatch::IgnoringCr => without_eol(a) == without_eol(b) && a.ends_with(b"\n") == b.ends_with(b"\n"),
    };
    // Where each old line starts, and the end: the unchanged runs between hunks are copied
    // whole (most of a large file a task changes in a few places).
    let mut starts: Vec<usize> =
        std::iter::once(0).chain(memchr::memchr_iter(b'\n', content).map(|at| at + 1)).collect();
    if starts.last() != Some(&content.len()) {
        starts.push(content.len());
    }
    let lines = starts.len() - 1;
    let old = |i: usize| (i < lines).then(|| &content[starts[i]..starts[i + 1]]);
    let run = |from: usize, to: usize| &content[starts[from]..starts[to]];
    let mut out = Patched {
        content: Vec::with_capacity(content.len()),
        added: Vec::new(),
        map: Vec::with_capacity(lines),
        lines: 0,
    };
    let mut pos = 0;
    for (index, hunk) in hunks.iter().enumerate() {
        // With no old lines, the start names the line after which to insert.
        let start = if hunk.old_len == 0 { hunk.old_start } else { hunk.old_start - 1 } as usize;
        if start > lines {
            return Err(HunkFailure {
                hunk: index,
                line: lines as u32 + 1,
                expected: hunk.lines.iter().find_map(|line| match line {
                    Line::Context(text) | Line::Delete(text) => Some(text.clone()),
                    Line::Insert(_) => None,
                }),
                found: None,
            });
        }
        out.keep_run(run(pos, start), start - pos);
        pos = start;
        for line in &hunk.lines {
            match line {
                Line::Context(text) | Line::Delete(text) => {
                    let Some(found) = old(pos).filter(|line| same(line, text)) else {
                        return Err(HunkFailure {
                            hunk: index,
                            line: pos as u32 + 1,
                            expected: Some(text.clone()),
                            found: old(pos).map(|line| line.to_vec()),
                        });
                    };
                    match line {
                        // Keep the file's own bytes, which differ from the patch's when ignoring CRs.
                        Line::Context(_) => out.keep(found),
                        _ => out.map.push(None),
                    }
                    pos += 1;
                }
                Line::Insert(text)
                    if eol == EolMatch::IgnoringCr && text.ends_with(b"\n") && !text.ends_with(b"\r\n") =>
                {
                    let mut crlf = text[..text.len() - 1].to_vec();
                    crlf.extend_from_slice(b"\r\n");
                    out.insert(&crlf);
                }
                Line::Insert(text) => out.insert(text),
            }
        }
    }
    out.keep_run(run(pos, lines), lines - pos);
    Ok(out)
}
