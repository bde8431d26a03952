//! The documentation part of a change, as text: what Doc2Feat checks names against.

use hintlens_snapshot::{BlobSource, ChangeSet, Line, Patch, Snapshot};

/// The lines a diff adds to the files `is_documentation` accepts, joined by newlines. A diff
/// that does not parse yields what could be read before the error: nothing.
///
/// NoCode-bench ships the documentation change apart (`doc_patch`): pass it with a predicate
/// that accepts every file. Other benchmarks mix it into the code patch: pass that with a
/// predicate that accepts the files no language frontend claims.
pub fn documentation_text(diff: &str, is_documentation: impl Fn(&str) -> bool) -> String {
    let Ok(patch) = Patch::parse(diff.as_bytes()) else { return String::new() };
    let mut out = String::new();
    for file in patch.files.iter().filter(|f| is_documentation(f.path())) {
        for line in file.hunks.iter().flat_map(|h| &h.lines) {
            if let Line::Insert(text) = line {
                out.push_str(String::from_utf8_lossy(text).trim_end_matches(['\n', '\r']));
                out.push('\n');
            }
        }
    }
    out
}

/// [`documentation_text`] for a change that exists only as two snapshots (a reference commit):
/// the lines `changes` marks as added in the files `is_documentation` accepts, read from
/// `reference`. A file that cannot be read is an error: the names it would remove would stay.
pub fn documentation_of_changes(
    changes: &ChangeSet,
    reference: &Snapshot,
    source: &dyn BlobSource,
    is_documentation: impl Fn(&str) -> bool,
) -> Result<String, hintlens_snapshot::Error> {
    let mut out = String::new();
    for (path, change) in changes.files.iter().filter(|(path, c)| is_documentation(path) && !c.binary) {
        if change.added_lines.is_empty() {
            continue;
        }
        let content = reference.read(path, source)?;
        let lines: Vec<&[u8]> = content.split_inclusive(|&b| b == b'\n').collect();
        for &n in &change.added_lines {
            if let Some(line) = lines.get(n as usize) {
                out.push_str(String::from_utf8_lossy(line).trim_end_matches(['\n', '\r']));
                out.push('\n');
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_added_lines_of_documentation_files() {
        let diff = "diff --git a/docs/usage.md b/docs/usage.md\n--- a/docs/usage.md\n+++ b/docs/usage.md\n@@ -1,2 +1,2 @@\n-old words\n+Call `fetch_all` now.\n same\ndiff --git a/pkg/api.py b/pkg/api.py\n--- a/pkg/api.py\n+++ b/pkg/api.py\n@@ -1 +1 @@\n-x = 1\n+hidden = 2\n";
        assert_eq!(documentation_text(diff, |p| !p.ends_with(".py")), "Call `fetch_all` now.\n");
        assert_eq!(documentation_text("not a diff", |_| true), "");
    }

    #[test]
    fn added_lines_of_a_reference_commit() {
        let base = Snapshot::from_files([("README.md".to_string(), b"old words\nsame\n".to_vec())]);
        let reference = Snapshot::from_files([
            ("README.md".to_string(), b"Call `fetch_all` now.\nsame\n".to_vec()),
            ("pkg/api.py".to_string(), b"hidden = 2\n".to_vec()),
        ]);
        let (code, _) =
            hintlens_snapshot::changes_between(&base, &reference, &hintlens_snapshot::NoBlobs, |_| false).unwrap();
        let text =
            documentation_of_changes(&code, &reference, &hintlens_snapshot::NoBlobs, |p| p.ends_with(".md")).unwrap();
        assert_eq!(text, "Call `fetch_all` now.\n");
    }
}
