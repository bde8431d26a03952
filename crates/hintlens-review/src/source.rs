//! The evidence beside a hint, read from git objects: the source of each identifier's
//! definition at R and the line of each use site that selected it. R is built as the batch
//! built it (B with the dataset's patches applied in memory, or the reference commit); nothing
//! is read from a work tree.

use crate::benchmark::Task;
use hintlens_batch::RepoLocator;
use hintlens_hints::Identifier;
use hintlens_snapshot::{BlobSource, Reader, Repository, Snapshot, build_reference};
use hintlens_syntax::Frontend;
use serde::Serialize;
use std::collections::HashMap;
use std::path::PathBuf;

/// At most this many lines of a definition are shown; the rest is cut (and said to be).
const MAX_DEFINITION_LINES: usize = 80;
/// Lines shown around a line that is no definition's (a string literal, an interface entry).
const CONTEXT_LINES: u32 = 3;

/// A stretch of a file at R.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Excerpt {
    pub path: String,
    /// One-based line of `lines[0]`.
    pub start: u32,
    pub lines: Vec<String>,
    /// Lines of the definition left out after `lines`.
    pub cut: usize,
}

/// One snapshot of a task, with what it is and how to read it.
pub struct Snapshots {
    /// What `reference` is: R, or only B when R cannot be built here.
    pub label: String,
    /// Why R is not shown, when it is not.
    pub problem: Option<String>,
    snapshot: Option<Snapshot>,
    reader: Option<Reader>,
}

/// Opened repositories, by path: a repository is opened once per server.
#[derive(Default)]
pub struct Repositories {
    open: HashMap<PathBuf, Repository>,
}

impl Repositories {
    /// R for a task, as the batch built it: the patches applied to B, or the reference commit
    /// when the record says it was read from there (or the task has no code patch). Without the
    /// dataset's record of the task, only B is known.
    pub fn snapshots(&mut self, locator: &RepoLocator, task: &Task) -> Snapshots {
        let failed = |label: &str, problem: String| Snapshots {
            label: label.to_owned(),
            problem: Some(problem),
            snapshot: None,
            reader: None,
        };
        let path = match locator.locate(&task.repo) {
            Ok(p) => p,
            Err(e) => return failed("none", e),
        };
        let repository = match self.open.entry(path.clone()) {
            std::collections::hash_map::Entry::Occupied(o) => o.into_mut(),
            std::collections::hash_map::Entry::Vacant(v) => match Repository::open(&path) {
                Ok(r) => v.insert(r),
                Err(e) => return failed("none", e.to_string()),
            },
        };
        let reader = repository.reader();
        let base_commit = task
            .row
            .as_ref()
            .map(|r| r.base_commit.clone())
            .or_else(|| task.record.get("base_commit").and_then(|v| v.as_str()).map(str::to_owned));
        let Some(base_commit) = base_commit else {
            return failed("none", "neither the record nor the dataset names the base commit".into());
        };
        let snapshot_of = |rev: &str| -> Result<Snapshot, String> {
            let id = repository.resolve_commit(rev).map_err(|e| e.to_string())?;
            repository.snapshot(id).map_err(|e| e.to_string())
        };
        let base = match snapshot_of(&base_commit) {
            Ok(s) => s,
            Err(e) => return failed("none", e),
        };
        let Some(row) = &task.row else {
            return Snapshots {
                label: format!("B ({})", short(&base_commit)),
                problem: Some(
                    "the dataset is not loaded (--dataset), so R cannot be built: the definitions and use sites below are read at B, where new ones are missing"
                        .into(),
                ),
                snapshot: Some(base),
                reader: Some(reader),
            };
        };
        let notes = task.record.get("notes").and_then(|n| n.as_array()).cloned().unwrap_or_default();
        let read_commit =
            notes.iter().any(|n| n.as_str().is_some_and(|n| n.starts_with("reference snapshot read from commit")));
        let built = match (&row.patch, read_commit, &row.reference_commit) {
            (Some(patch), false, _) => build_reference(&base, &reader, patch.as_bytes(), row.test_patch.as_bytes())
                .map(|r| (r.snapshot, "R (B + patches)".to_owned()))
                .map_err(|e| e.to_string()),
            (_, _, Some(commit)) => snapshot_of(commit).map(|s| (s, format!("R ({})", short(commit)))),
            (Some(_), true, None) => {
                Err("the record was read from a reference commit the dataset does not name".into())
            }
            (None, _, None) => Err("the task has neither a code patch nor a reference commit".into()),
        };
        match built {
            Ok((snapshot, label)) => Snapshots { label, problem: None, snapshot: Some(snapshot), reader: Some(reader) },
            Err(e) => Snapshots {
                label: format!("B ({})", short(&base_commit)),
                problem: Some(format!("R cannot be built ({e}): read at B instead")),
                snapshot: Some(base),
                reader: Some(reader),
            },
        }
    }
}

fn short(commit: &str) -> &str {
    &commit[..commit.len().min(10)]
}

impl Snapshots {
    /// The file's text at this snapshot, if it holds the file.
    fn text(&self, path: &str) -> Option<String> {
        let (snapshot, reader) = (self.snapshot.as_ref()?, self.reader.as_ref()?);
        let bytes = snapshot.read(path, reader as &dyn BlobSource).ok()?;
        Some(String::from_utf8_lossy(&bytes).into_owned())
    }

    /// The source of an identifier's definition: the declaration's whole span when the file's
    /// frontend finds it at the identifier's line, else the lines around that line.
    pub fn definition(&self, frontends: &[Box<dyn Frontend>], id: &Identifier) -> Option<Excerpt> {
        if id.line == 0 {
            return None;
        }
        let text = self.text(&id.path)?;
        let lines: Vec<&str> = text.lines().collect();
        // A header (`.h`) is C's or C++'s by its repository: the frontend that finds the
        // definition by its name is the one that read it.
        let indexes: Vec<_> = frontends
            .iter()
            .filter(|f| f.claims(&id.path) || f.claims_shared(&id.path))
            .map(|f| f.extract(text.as_bytes()))
            .collect();
        let at_line = |d: &&hintlens_syntax::Definition| d.name_span.start.line + 1 == id.line;
        let named =
            |d: &&hintlens_syntax::Definition| at_line(d) && (d.local_name == id.local_name || d.name == id.name);
        let found = indexes
            .iter()
            .find_map(|index| index.definitions.iter().find(named))
            .or_else(|| indexes.iter().find_map(|index| index.definitions.iter().find(at_line)));
        let span = found.map(|found| (found.span.start.line + 1, found.span.end.line + 1));
        let (start, end) = span.unwrap_or((id.line.saturating_sub(CONTEXT_LINES).max(1), id.line + CONTEXT_LINES));
        let end = end.min(lines.len() as u32);
        let wanted = (end + 1).saturating_sub(start) as usize;
        let shown: Vec<String> = lines
            .iter()
            .skip(start as usize - 1)
            .take(wanted.min(MAX_DEFINITION_LINES))
            .map(|l| (*l).to_owned())
            .collect();
        Some(Excerpt { path: id.path.clone(), start, cut: wanted.saturating_sub(shown.len()), lines: shown })
    }

    /// The text of each (path, one-based line), `None` where the snapshot lacks it.
    pub fn lines(&self, sites: &[(String, u32)]) -> Vec<Option<String>> {
        let mut files: HashMap<&str, Option<String>> = HashMap::new();
        sites
            .iter()
            .map(|(path, line)| {
                let text = files.entry(path.as_str()).or_insert_with(|| self.text(path));
                text.as_deref()?.lines().nth((*line as usize).checked_sub(1)?).map(str::to_owned)
            })
            .collect()
    }
}
