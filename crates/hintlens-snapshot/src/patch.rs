//! Parsing of git-style unified diffs (`git diff`, `git format-patch`, SWE-bench patches).

use std::collections::BTreeSet;

use crate::binary::{self, BinaryHunk};
use crate::error::{HunkRef, PatchError, PatchErrorKind};
use crate::snapshot::Mode;

/// A multi-file unified diff.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Patch {
    pub files: Vec<FilePatch>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FileStatus {
    Added,
    Deleted,
    Modified,
    Renamed,
    Copied,
}

/// The diff of one file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FilePatch {
    /// `None` for added files.
    pub old_path: Option<String>,
    /// `None` for deleted files.
    pub new_path: Option<String>,
    pub status: FileStatus,
    /// From `old mode` / `deleted file mode`; the `index` line's mode is not used, so a
    /// modification without a mode header keeps the file's current mode.
    pub old_mode: Option<Mode>,
    /// From `new mode` / `new file mode`.
    pub new_mode: Option<Mode>,
    /// `Binary files … differ` or `GIT binary patch`: no text hunks.
    pub binary: bool,
    /// A `GIT binary patch`'s forward hunk: the content change. `None` for `Binary files …
    /// differ`, which does not carry it.
    pub binary_hunk: Option<BinaryHunk>,
    /// The blob ids of the `index <old>..<new>` line, as written (abbreviated, or in full as
    /// `git diff --binary` writes them): what a binary patch's result is checked against.
    pub index: Option<(String, String)>,
    /// A gitlink (mode 160000) change, i.e. a submodule pointer rather than a file.
    pub submodule: bool,
    pub hunks: Vec<Hunk>,
    /// 1-based line of this file's first header line in the patch text.
    pub line: u32,
}

impl FilePatch {
    /// The path to name this file by in messages: the new path, or the old one for deletions.
    pub fn path(&self) -> &str {
        self.new_path.as_deref().or(self.old_path.as_deref()).unwrap_or_default()
    }
}

/// One `@@ … @@` section. Starts are 1-based as in the header; a count of 0 means the
/// start is the line *after which* the hunk applies.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hunk {
    pub old_start: u32,
    pub old_len: u32,
    pub new_start: u32,
    pub new_len: u32,
    /// The header up to the closing `@@`, as written (e.g. `@@ -1 +1,2 @@`).
    pub header: String,
    pub lines: Vec<Line>,
    /// 1-based line of the header in the patch text.
    pub line: u32,
}

/// A hunk line without its ` `/`-`/`+` marker, with its line terminator (`\n` or `\r\n`)
/// unless `\ No newline at end of file` followed it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Line {
    Context(Vec<u8>),
    Delete(Vec<u8>),
    Insert(Vec<u8>),
}

impl Patch {
    /// Parses `text`, ignoring anything before the first file header (a commit message, an
    /// email header) and non-diff lines between files (a `format-patch` signature).
    /// Empty text is an empty patch.
    pub fn parse(text: &[u8]) -> Result<Patch, PatchError> {
        let mut lines = Lines { text, pos: 0, number: 0 };
        let mut files = Vec::new();
        while let Some(line) = lines.peek() {
            let starts_plain_diff =
                line.starts_with(b"--- ") && lines.peek_second().is_some_and(|next| next.starts_with(b"+++ "));
            if line.starts_with(b"diff --git ") || starts_plain_diff {
                files.push(parse_file(&mut lines)?);
            } else if line.starts_with(b"@@ ") {
                // Like `git apply`: junk is skipped, but a hunk header in it means a hunk
                // would be lost, typically after a hunk whose header undercounts its lines.
                let previous = files.last().map(FilePatch::path);
                return Err(malformed(
                    lines.next_number(),
                    previous,
                    format!(
                        "hunk header `{}` outside of a file's diff (does the hunk before it have more lines than its header declares?)",
                        String::from_utf8_lossy(trim_eol(line))
                    ),
                ));
            } else {
                lines.next();
            }
        }
        Ok(Patch { files })
    }

    /// Every path the patch reads or writes (old and new paths).
    pub fn touched_paths(&self) -> BTreeSet<&str> {
        self.files.iter().flat_map(|file| [file.old_path.as_deref(), file.new_path.as_deref()]).flatten().collect()
    }
}

struct Lines<'a> {
    text: &'a [u8],
    pos: usize,
    /// 1-based number of the line last returned by `next`.
    number: u32,
}

impl<'a> Lines<'a> {
    fn line_at(&self, pos: usize) -> Option<&'a [u8]> {
        let rest = self.text.get(pos..).filter(|rest| !rest.is_empty())?;
        let end = rest.iter().position(|&b| b == b'\n').map_or(rest.len(), |i| i + 1);
        Some(&rest[..end])
    }

    fn peek(&self) -> Option<&'a [u8]> {
        self.line_at(self.pos)
    }

    fn peek_second(&self) -> Option<&'a [u8]> {
        let first = self.peek()?;
        self.line_at(self.pos + first.len())
    }

    fn next(&mut self) -> Option<&'a [u8]> {
        let line = self.peek()?;
        self.pos += line.len();
        self.number += 1;
        Some(line)
    }

    fn next_number(&self) -> u32 {
        self.number + 1
    }
}

/// A header line without its terminator.
fn trim_eol(line: &[u8]) -> &[u8] {
    let line = line.strip_suffix(b"\n").unwrap_or(line);
    line.strip_suffix(b"\r").unwrap_or(line)
}

fn malformed(line: u32, path: Option<&str>, reason: String) -> PatchError {
    PatchError::new(PatchErrorKind::Malformed(reason)).at_path(path).at_patch_line(line)
}

#[derive(Default)]
struct Header {
    git_names: Option<Vec<u8>>,
    rename_from: Option<String>,
    rename_to: Option<String>,
    copy_from: Option<String>,
    copy_to: Option<String>,
    old_mode: Option<Mode>,
    new_mode: Option<Mode>,
    new_file: bool,
    deleted_file: bool,
    binary: bool,
    binary_hunk: Option<BinaryHunk>,
    index: Option<(String, String)>,
    submodule: bool,
}

fn parse_file(lines: &mut Lines<'_>) -> Result<FilePatch, PatchError> {
    let first_line = lines.next_number();
    let mut header = Header::default();
    if let Some(names) = lines.peek().and_then(|l| trim_eol(l).strip_prefix(b"diff --git ")) {
        header.git_names = Some(names.to_vec());
        lines.next();
        parse_extended_header(lines, &mut header)?;
    }

    let mut minus_plus = None;
    if let Some(old) = lines.peek().and_then(|l| trim_eol(l).strip_prefix(b"--- ")) {
        let number = lines.next_number();
        lines.next();
        let Some(new) = lines.peek().and_then(|l| trim_eol(l).strip_prefix(b"+++ ")) else {
            return Err(malformed(
                number + 1,
                None,
                "a `--- <old>` file header must be followed by `+++ <new>`".into(),
            ));
        };
        lines.next();
        let old = header_path(old, true).map_err(|e| malformed(number, None, e))?;
        let new = header_path(new, true).map_err(|e| malformed(number + 1, None, e))?;
        minus_plus = Some((old, new));
    }

    let (old_path, new_path, status) =
        file_paths(&header, minus_plus).map_err(|reason| malformed(first_line, None, reason))?;
    let safe = |path: Option<String>| -> Result<Option<String>, PatchError> {
        path.map(|p| {
            inside_repository(&p).ok_or_else(|| {
                PatchError::new(PatchErrorKind::UnsafePath { path: p.clone() })
                    .at_path(Some(&p))
                    .at_patch_line(first_line)
            })
        })
        .transpose()
    };
    let (old_path, new_path) = (safe(old_path)?, safe(new_path)?);
    let display_path = new_path.as_deref().or(old_path.as_deref()).map(str::to_owned);

    let mut hunks: Vec<Hunk> = Vec::new();
    while lines.peek().is_some_and(|l| l.starts_with(b"@@ ")) {
        let hunk = parse_hunk(lines, hunks.len() + 1, display_path.as_deref())?;
        if let Some(previous) = hunks.last() {
            let previous_end = previous.old_start + previous.old_len;
            if hunk.old_start < previous_end {
                return Err(malformed(
                    hunk.line,
                    display_path.as_deref(),
                    format!(
                        "hunk #{} `{}` starts before the end of hunk #{} `{}`: hunks must be in file order and must not overlap",
                        hunks.len() + 1,
                        hunk.header,
                        hunks.len(),
                        previous.header
                    ),
                ));
            }
        }
        hunks.push(hunk);
    }

    Ok(FilePatch {
        old_path,
        new_path,
        status,
        old_mode: header.old_mode,
        new_mode: header.new_mode,
        binary: header.binary,
        binary_hunk: header.binary_hunk,
        index: header.index,
        submodule: header.submodule,
        hunks,
        line: first_line,
    })
}

fn parse_extended_header(lines: &mut Lines<'_>, header: &mut Header) -> Result<(), PatchError> {
    while let Some(raw) = lines.peek() {
        let number = lines.next_number();
        let line = trim_eol(raw);
        let text = String::from_utf8_lossy(line);
        let bad = |reason: String| malformed(number, None, reason);
        let mut mode = |value: &str| -> Result<Option<Mode>, PatchError> {
            if value == "160000" {
                header.submodule = true;
                return Ok(None);
            }
            Mode::from_git(value).map(Some).ok_or_else(|| bad(format!("unknown file mode `{value}` in `{text}`")))
        };
        let path = |value: &str| header_path(value.as_bytes(), false).map_err(&bad);
        if let Some(value) = text.strip_prefix("old mode ") {
            header.old_mode = mode(value)?;
        } else if let Some(value) = text.strip_prefix("new mode ") {
            header.new_mode = mode(value)?;
        } else if let Some(value) = text.strip_prefix("deleted file mode ") {
            header.old_mode = mode(value)?;
            header.deleted_file = true;
        } else if let Some(value) = text.strip_prefix("new file mode ") {
            header.new_mode = mode(value)?;
            header.new_file = true;
        } else if let Some(value) = text.strip_prefix("rename from ") {
            header.rename_from = path(value)?;
        } else if let Some(value) = text.strip_prefix("rename to ") {
            header.rename_to = path(value)?;
        } else if let Some(value) = text.strip_prefix("copy from ") {
            header.copy_from = path(value)?;
        } else if let Some(value) = text.strip_prefix("copy to ") {
            header.copy_to = path(value)?;
        } else if let Some(value) = text.strip_prefix("index ") {
            // A gitlink's `index` line is its only mode evidence.
            let mut parts = value.split(' ');
            if let Some((old, new)) = parts.next().and_then(|ids| ids.split_once("..")) {
                header.index = Some((old.to_owned(), new.to_owned()));
            }
            if parts.next() == Some("160000") {
                header.submodule = true;
            }
        } else if text.starts_with("similarity index ") || text.starts_with("dissimilarity index ") {
            // Informational: the rename or copy lines carry what matters.
        } else if text.starts_with("Binary files ") && text.ends_with(" differ") {
            header.binary = true;
        } else if text == "GIT binary patch" {
            header.binary = true;
            lines.next();
            header.binary_hunk = Some(parse_binary_hunk(lines)?);
            // The reverse hunk (what `git apply -R` reads), when there is one.
            if lines.peek().is_some_and(|l| l.starts_with(b"literal ") || l.starts_with(b"delta ")) {
                parse_binary_hunk(lines)?;
            }
            return Ok(());
        } else {
            return Ok(());
        }
        lines.next();
    }
    Ok(())
}

/// One hunk of a `GIT binary patch`: `literal N` or `delta N` (N the inflated size), base85
/// data lines, and the blank line that ends them (or the end of the text).
fn parse_binary_hunk(lines: &mut Lines<'_>) -> Result<BinaryHunk, PatchError> {
    let number = lines.next_number();
    let header = lines.peek().map(|l| String::from_utf8_lossy(trim_eol(l)).into_owned()).unwrap_or_default();
    let bad = |line: u32, reason: String| malformed(line, None, format!("binary patch: {reason}"));
    let (kind, size) = header.split_once(' ').unwrap_or((header.as_str(), ""));
    let size: usize = size.parse().map_err(|_| {
        bad(number, format!("expected `literal <size>` or `delta <size>` after `GIT binary patch`, got `{header}`"))
    })?;
    let delta = match kind {
        "literal" => false,
        "delta" => true,
        _ => return Err(bad(number, format!("expected `literal <size>` or `delta <size>`, got `{header}`"))),
    };
    lines.next();
    let mut deflated = Vec::new();
    while let Some(line) = lines.peek() {
        let line = trim_eol(line);
        let number = lines.next_number();
        lines.next();
        if line.is_empty() {
            break;
        }
        binary::decode_line(line, &mut deflated).map_err(|reason| bad(number, reason))?;
    }
    let data = binary::inflate(&deflated, size).map_err(|reason| bad(number, format!("`{header}`: {reason}")))?;
    Ok(if delta { BinaryHunk::Delta(data) } else { BinaryHunk::Literal(data) })
}

/// Old path, new path and status, from whichever headers are authoritative: `rename`/`copy`
/// lines, then `---`/`+++`, then the `diff --git` line.
fn file_paths(
    header: &Header,
    minus_plus: Option<(Option<String>, Option<String>)>,
) -> Result<(Option<String>, Option<String>, FileStatus), String> {
    if let (Some(from), Some(to)) = (&header.rename_from, &header.rename_to) {
        return Ok((Some(from.clone()), Some(to.clone()), FileStatus::Renamed));
    }
    if let (Some(from), Some(to)) = (&header.copy_from, &header.copy_to) {
        return Ok((Some(from.clone()), Some(to.clone()), FileStatus::Copied));
    }
    let (old, new) = match minus_plus {
        Some(paths) => paths,
        None => {
            let names = header.git_names.as_deref().unwrap_or_default();
            let path = git_header_path(names).ok_or_else(|| {
                format!("cannot tell the file name from `diff --git {}`", String::from_utf8_lossy(names))
            })?;
            (Some(path.clone()), Some(path))
        }
    };
    match (old, new) {
        (None, None) => Err("both sides of the diff are /dev/null".into()),
        (old, Some(new)) if old.is_none() || header.new_file => Ok((None, Some(new), FileStatus::Added)),
        (Some(old), new) if new.is_none() || header.deleted_file => Ok((Some(old), None, FileStatus::Deleted)),
        (Some(old), Some(new)) if old != new => Ok((Some(old), Some(new), FileStatus::Renamed)),
        (old, new) => Ok((old, new, FileStatus::Modified)),
    }
}

/// A path from a `---`/`+++` (with `strip_prefix`: drops the `a/`/`b/` component, like
/// `git apply -p1`) or `rename`/`copy` header. `None` for `/dev/null`.
fn header_path(raw: &[u8], strip_prefix: bool) -> Result<Option<String>, String> {
    let name = if raw.starts_with(b"\"") {
        let (name, _) = unquote(raw)?;
        name
    } else {
        // git appends a tab to names containing spaces; other diff tools add a timestamp.
        let end = raw.iter().position(|&b| b == b'\t').unwrap_or(raw.len());
        raw[..end].to_vec()
    };
    if name == b"/dev/null" {
        return Ok(None);
    }
    // An absolute name keeps its leading `/`, so that it is refused as such rather than read as
    // a relative path once `-p1` drops its empty first component.
    let name = if strip_prefix && !name.starts_with(b"/") { strip_component(&name) } else { &name };
    if name.is_empty() {
        return Err(format!("empty file name in `{}`", String::from_utf8_lossy(raw)));
    }
    Ok(Some(String::from_utf8_lossy(name).into_owned()))
}

/// The path normalised (`a/./b` → `a/b`, `a/../b` → `b`), or `None` when it is absolute or its
/// `..` components leave the repository's root: nothing outside the repository is ever read or
/// written, in any mode.
pub(crate) fn inside_repository(path: &str) -> Option<String> {
    let bytes = path.as_bytes();
    // `C:/x` or `C:\x`: absolute on Windows.
    let drive =
        bytes.len() > 2 && bytes[0].is_ascii_alphabetic() && bytes[1] == b':' && matches!(bytes[2], b'/' | b'\\');
    if path.starts_with(['/', '\\']) || drive || path.contains('\0') {
        return None;
    }
    let mut parts: Vec<&str> = Vec::new();
    for component in path.split('/') {
        match component {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            c => parts.push(c),
        }
    }
    (!parts.is_empty()).then(|| parts.join("/"))
}

fn strip_component(name: &[u8]) -> &[u8] {
    match name.iter().position(|&b| b == b'/') {
        Some(slash) => &name[slash + 1..],
        None => name,
    }
}

/// The path named by `a/<path> b/<path>` when there is no other header to take it from
/// (mode changes, binary files, empty files). Without quotes the two names are only
/// separable by being equal, as in `git apply`.
fn git_header_path(names: &[u8]) -> Option<String> {
    let name = if names.starts_with(b"\"") {
        let (old, rest) = unquote(names).ok()?;
        let rest = rest.strip_prefix(b" ")?;
        let new = if rest.starts_with(b"\"") { unquote(rest).ok()?.0 } else { rest.to_vec() };
        (strip_component(&old) == strip_component(&new)).then(|| strip_component(&new).to_vec())?
    } else if let Some(split) = find_subslice(names, b" \"") {
        let old = &names[..split];
        let new = unquote(&names[split + 1..]).ok()?.0;
        (strip_component(old) == strip_component(&new)).then(|| strip_component(&new).to_vec())?
    } else {
        names
            .iter()
            .enumerate()
            .filter(|&(_, &b)| b == b' ')
            .map(|(i, _)| (strip_component(&names[..i]), strip_component(&names[i + 1..])))
            .find(|(old, new)| old == new && !old.is_empty())?
            .1
            .to_vec()
    };
    Some(String::from_utf8_lossy(&name).into_owned())
}

fn find_subslice(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

/// Decodes a C-style quoted name as git writes it (`"a/caf\303\251.txt"`); returns the bytes
/// and what follows the closing quote.
fn unquote(raw: &[u8]) -> Result<(Vec<u8>, &[u8]), String> {
    let bad = || format!("badly quoted file name `{}`", String::from_utf8_lossy(raw));
    let mut out = Vec::new();
    let mut i = 1;
    loop {
        let &b = raw.get(i).ok_or_else(bad)?;
        i += 1;
        match b {
            b'"' => return Ok((out, &raw[i..])),
            b'\\' => {
                let &escape = raw.get(i).ok_or_else(bad)?;
                i += 1;
                out.push(match escape {
                    b'a' => 0x07,
                    b'b' => 0x08,
                    b't' => b'\t',
                    b'n' => b'\n',
                    b'v' => 0x0b,
                    b'f' => 0x0c,
                    b'r' => b'\r',
                    b'"' | b'\\' => escape,
                    b'0'..=b'3' => {
                        let digits = raw.get(i..i + 2).ok_or_else(bad)?;
                        if !digits.iter().all(|d| (b'0'..=b'7').contains(d)) {
                            return Err(bad());
                        }
                        i += 2;
                        ((escape - b'0') << 6) | ((digits[0] - b'0') << 3) | (digits[1] - b'0')
                    }
                    _ => return Err(bad()),
                });
            }
            _ => out.push(b),
        }
    }
}

fn parse_hunk(lines: &mut Lines<'_>, number: usize, path: Option<&str>) -> Result<Hunk, PatchError> {
    let raw = lines.next().expect("caller peeked a hunk header");
    let line = lines.number;
    let text = String::from_utf8_lossy(trim_eol(raw)).into_owned();
    let (old_start, old_len, new_start, new_len, header) = parse_hunk_header(&text).ok_or_else(|| {
        malformed(
            line,
            path,
            format!("malformed hunk header `{text}`: expected `@@ -<start>[,<count>] +<start>[,<count>] @@`"),
        )
    })?;
    let hunk_error =
        |at: u32, reason: String| malformed(at, path, reason).at_hunk(HunkRef { number, header: header.clone() });
    if old_len > 0 && old_start == 0 {
        return Err(hunk_error(line, "a hunk with old lines cannot start at line 0".into()));
    }

    let mut body = Vec::new();
    let (mut old_seen, mut new_seen) = (0, 0);
    loop {
        let complete = old_seen == old_len && new_seen == new_len;
        let Some(raw) = lines.peek() else {
            if complete {
                break;
            }
            return Err(hunk_error(
                lines.next_number(),
                format!(
                    "the patch ends inside the hunk: its header declares {old_len} old and {new_len} new lines, found {old_seen} and {new_seen} (truncated patch?)"
                ),
            ));
        };
        if raw.starts_with(b"\\") {
            let previous = body.last_mut().ok_or_else(|| {
                hunk_error(lines.next_number(), "`\\ No newline at end of file` before any hunk line".into())
            })?;
            let (Line::Context(text) | Line::Delete(text) | Line::Insert(text)) = previous;
            if text.pop() != Some(b'\n') {
                return Err(hunk_error(lines.next_number(), "repeated `\\ No newline at end of file`".into()));
            }
            lines.next();
            continue;
        }
        if complete {
            break;
        }
        let body_line = match raw[0] {
            b' ' => Line::Context(raw[1..].to_vec()),
            b'-' => Line::Delete(raw[1..].to_vec()),
            b'+' => Line::Insert(raw[1..].to_vec()),
            // Editors and mail clients strip the lone space of an empty context line.
            b'\n' | b'\r' if trim_eol(raw).is_empty() => Line::Context(raw.to_vec()),
            _ => {
                return Err(hunk_error(
                    lines.next_number(),
                    format!(
                        "unexpected line `{}` inside the hunk (expected ' ', '-', '+' or '\\'); {old_seen} of {old_len} old and {new_seen} of {new_len} new lines were read",
                        String::from_utf8_lossy(trim_eol(raw))
                    ),
                ));
            }
        };
        match body_line {
            Line::Context(_) => (old_seen, new_seen) = (old_seen + 1, new_seen + 1),
            Line::Delete(_) => old_seen += 1,
            Line::Insert(_) => new_seen += 1,
        }
        if old_seen > old_len || new_seen > new_len {
            return Err(hunk_error(
                lines.next_number(),
                format!("the hunk has more lines than its header declares ({old_len} old, {new_len} new)"),
            ));
        }
        body.push(body_line);
        lines.next();
    }

    Ok(Hunk { old_start, old_len, new_start, new_len, header, lines: body, line })
}

/// `@@ -a[,b] +c[,d] @@[ context]` → (a, b, c, d, the header up to the closing `@@`).
fn parse_hunk_header(text: &str) -> Option<(u32, u32, u32, u32, String)> {
    let ranges = text.strip_prefix("@@ -")?;
    let close = ranges.find(" @@")?;
    let (old, new) = ranges[..close].split_once(" +")?;
    let range = |r: &str| -> Option<(u32, u32)> {
        match r.split_once(',') {
            Some((start, len)) => Some((start.parse().ok()?, len.parse().ok()?)),
            None => Some((r.parse().ok()?, 1)),
        }
    };
    let (old_start, old_len) = range(old)?;
    let (new_start, new_len) = range(new)?;
    let header_len = "@@ -".len() + close + " @@".len();
    Some((old_start, old_len, new_start, new_len, text[..header_len].to_owned()))
}
