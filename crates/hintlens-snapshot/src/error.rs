use std::fmt;

/// Which of a task's two patches an error or note is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PatchRole {
    Code,
    Test,
}

impl fmt::Display for PatchRole {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            PatchRole::Code => "code",
            PatchRole::Test => "test",
        })
    }
}

/// A hunk, by its 1-based position in the file's diff and its header.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HunkRef {
    pub number: usize,
    pub header: String,
}

/// A patch that cannot be parsed or applied, with everything needed to find the problem.
#[derive(Debug)]
pub struct PatchError(Box<Details>);

#[derive(Debug)]
struct Details {
    patch: Option<PatchRole>,
    path: Option<String>,
    hunk: Option<HunkRef>,
    patch_line: Option<u32>,
    kind: PatchErrorKind,
}

#[derive(Debug)]
pub enum PatchErrorKind {
    /// The text is not a well-formed diff.
    Malformed(String),
    /// A hunk's context or removed lines differ from the file. `line` is 1-based in the file
    /// the hunk applies to; `None` stands for the end of the file.
    ContextMismatch { line: u32, expected: Option<Vec<u8>>, found: Option<Vec<u8>> },
    /// The patch changes, deletes, renames or copies a file the snapshot lacks.
    MissingFile,
    /// The patch creates (or renames or copies onto) a file the snapshot already has.
    AlreadyExists,
    /// Two diffs of the same patch remove or write the same path.
    ChangedTwice,
    /// A `GIT binary patch` cannot be applied: its data is corrupt, or it was made against other
    /// content (the reason says which).
    BinaryDoesNotApply(String),
    /// `Binary files … differ` for a source file: the patch does not carry its new content.
    BinaryWithoutContent,
    /// The file's content could not be read from the repository.
    Read(crate::Error),
    /// The patch names a path outside the repository: absolute, or leaving the root through
    /// `..` components. `path` is the name as the patch writes it.
    UnsafePath { path: String },
}

impl PatchError {
    pub(crate) fn new(kind: PatchErrorKind) -> PatchError {
        PatchError(Box::new(Details { patch: None, path: None, hunk: None, patch_line: None, kind }))
    }

    pub(crate) fn in_patch(mut self, role: PatchRole) -> PatchError {
        self.0.patch = Some(role);
        self
    }

    pub(crate) fn at_path(mut self, path: Option<&str>) -> PatchError {
        self.0.path = path.map(str::to_owned);
        self
    }

    pub(crate) fn at_hunk(mut self, hunk: HunkRef) -> PatchError {
        self.0.hunk = Some(hunk);
        self
    }

    pub(crate) fn at_patch_line(mut self, line: u32) -> PatchError {
        self.0.patch_line = Some(line);
        self
    }

    /// `None` when the patch was parsed on its own rather than as part of a task.
    pub fn role(&self) -> Option<PatchRole> {
        self.0.patch
    }

    /// The file concerned, as named in the patch.
    pub fn path(&self) -> Option<&str> {
        self.0.path.as_deref()
    }

    pub fn hunk(&self) -> Option<&HunkRef> {
        self.0.hunk.as_ref()
    }

    /// 1-based line in the patch text, for parse errors.
    pub fn patch_line(&self) -> Option<u32> {
        self.0.patch_line
    }

    pub fn kind(&self) -> &PatchErrorKind {
        &self.0.kind
    }

    fn snapshot_name(&self) -> &'static str {
        match self.0.patch {
            Some(PatchRole::Code) => "the base snapshot",
            Some(PatchRole::Test) => "the base snapshot with the code patch applied",
            None => "the snapshot",
        }
    }
}

/// A line of file content for messages: quoted so that `\r`, tabs and trailing spaces show.
fn quoted(line: Option<&[u8]>) -> String {
    const MAX: usize = 120;
    match line {
        None => "end of file".to_owned(),
        Some(bytes) => {
            let text = String::from_utf8_lossy(bytes);
            match text.char_indices().nth(MAX) {
                Some((cut, _)) => format!("{:?}…", &text[..cut]),
                None => format!("{text:?}"),
            }
        }
    }
}

impl fmt::Display for PatchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let details = &self.0;
        match details.patch {
            Some(role) => write!(f, "{role} patch")?,
            None => f.write_str("patch")?,
        }
        if let Some(line) = details.patch_line {
            write!(f, ", line {line}")?;
        }
        f.write_str(": ")?;
        let path = details.path.as_deref().unwrap_or("<unnamed file>");
        let snapshot = self.snapshot_name();
        match &details.kind {
            PatchErrorKind::Malformed(reason) => {
                if let Some(path) = &details.path {
                    write!(f, "diff of {path}: ")?;
                }
                if let Some(hunk) = &details.hunk {
                    write!(f, "hunk #{} `{}`: ", hunk.number, hunk.header)?;
                }
                write!(f, "{reason}")
            }
            PatchErrorKind::ContextMismatch { line, expected, found } => {
                if let Some(hunk) = &details.hunk {
                    write!(f, "hunk #{} `{}` does not apply: ", hunk.number, hunk.header)?;
                }
                write!(
                    f,
                    "context does not match at line {line} of {path}: the patch expects {}, {snapshot} has {}; the patch was made against different contents of {path} (is the snapshot at the patch's base commit?)",
                    quoted(expected.as_deref()),
                    quoted(found.as_deref()),
                )
            }
            PatchErrorKind::MissingFile => write!(
                f,
                "file {path} does not exist in {snapshot}, but the patch changes it (is the snapshot at the patch's base commit?)"
            ),
            PatchErrorKind::AlreadyExists => write!(
                f,
                "file {path} already exists in {snapshot}, but the patch creates it (is the snapshot at the patch's base commit, or was the patch applied twice?)"
            ),
            PatchErrorKind::ChangedTwice => {
                write!(f, "file {path} is removed or written by more than one diff of the patch")
            }
            PatchErrorKind::BinaryDoesNotApply(reason) => {
                write!(f, "the binary patch of {path} does not apply to {snapshot}: {reason}")
            }
            PatchErrorKind::BinaryWithoutContent => write!(
                f,
                "the patch says only `Binary files … differ` for {path}, a source file, so its new content is unknown (make the patch with `git diff --binary`, or read the reference commit with `--reference commit`)"
            ),
            PatchErrorKind::Read(error) => write!(f, "cannot read {path}: {error}"),
            PatchErrorKind::UnsafePath { path } => write!(
                f,
                "unsafe path `{path}`: a patch may only name files inside the repository (no absolute paths, no `..` leaving its root)"
            ),
        }
    }
}

impl std::error::Error for PatchError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.0.kind {
            PatchErrorKind::Read(error) => Some(error),
            _ => None,
        }
    }
}
