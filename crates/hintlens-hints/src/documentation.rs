//! The documentation part of a change, as text: what Doc2Feat checks names against.

use hintlens_snapshot::{Line, Patch};

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_added_lines_of_documentation_files() {
        let diff = "diff --git a/docs/usage.md b/docs/usage.md\n--- a/docs/usage.md\n+++ b/docs/usage.md\n@@ -1,2 +1,2 @@\n-old words\n+Call `fetch_all` now.\n same\ndiff --git a/pkg/api.py b/pkg/api.py\n--- a/pkg/api.py\n+++ b/pkg/api.py\n@@ -1 +1 @@\n-x = 1\n+hidden = 2\n";
        assert_eq!(documentation_text(diff, |p| !p.ends_with(".py")), "Call `fetch_all` now.\n");
        assert_eq!(documentation_text("not a diff", |_| true), "");
    }
}
