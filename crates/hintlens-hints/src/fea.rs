//! FEA-Bench (the paper's "FEA"): every new function or class — methods are functions — of
//! the non-test source files the code patch touches, in new and existing files alike. Tests
//! never contribute, and whether a test uses a definition does not matter: internal helpers
//! are listed too.
//!
//! With [`Compat::Fea`] the policy reproduces FEA-Bench's released `new_components` exactly
//! (checked against its rule on real tasks): Python files only; a path containing `test`,
//! `tests`, `e2e`, `testing` or `check` is a test file; a definition is new when no function
//! or class of the same dotted file-local name existed in the file; async functions are
//! skipped (the rule visits `FunctionDef` nodes only); the signature is the header's source
//! lines from the `def` line (decorators excluded) to the line before the body's first
//! statement, each stripped of whitespace and comments, blank ones dropped, joined by one
//! space — so a body on the header's own line gives an empty signature; the docstring is
//! `ast.get_docstring`'s, escapes evaluated.

use crate::evidence::TestUses;
use crate::fea_source::{python_header_end, python_unescape, strip_python_comment};
use crate::newdefs::{ChangedFile, changed_files, new_definitions};
use crate::{Compat, Identifier, SelectOptions, Task, ident};
use hintlens_db::{Db, file_index};
use hintlens_syntax::{DefId, DefKind, Definition};
use std::collections::HashSet;

pub(crate) fn select(db: &dyn Db, task: &Task<'_>, options: &SelectOptions) -> Vec<Identifier> {
    let compat = options.compat == Some(Compat::Fea);
    let mut out = Vec::new();
    for changed in changed_files(db, task, task.code) {
        // FEA-Bench only knows Python.
        let python = db.frontend(changed.file.language(db)).language() == "python";
        if compat && (!python || is_fea_test_path(changed.path)) {
            continue;
        }
        let index = file_index(db, changed.file);
        let new: Vec<DefId> = if compat {
            fea_new(db, &changed)
        } else {
            new_definitions(db, &changed).into_iter().filter(|&id| is_component(index.definition(id).kind)).collect()
        };
        for id in new {
            let def = index.definition(id);
            if compat && def.signature.starts_with("async ") {
                continue;
            }
            let mut ident = ident::definition(db, changed.path, changed.file, changed.is_new_file, id);
            if compat {
                let text = changed.file.text(db);
                ident.signature = fea_signature(text, def);
                ident.doc = fea_doc(text, def);
            }
            out.push(ident);
        }
    }
    TestUses::of(db, task).attach(&mut out);
    ident::sort(&mut out);
    out
}

/// FEA-Bench's "functions or classes".
fn is_component(kind: DefKind) -> bool {
    kind.is_callable() || kind.is_type()
}

/// FEA-Bench's test-file rule: a substring of the path, whatever the directory layout.
pub(crate) fn is_fea_test_path(path: &str) -> bool {
    ["test", "tests", "e2e", "testing", "check"].iter().any(|w| path.contains(w))
}

/// Functions and classes whose file-local dotted name no function or class of B's file had.
fn fea_new(db: &dyn Db, changed: &ChangedFile<'_>) -> Vec<DefId> {
    let before: HashSet<&str> = match changed.base {
        Some((_, b)) => file_index(db, b)
            .definitions
            .iter()
            .filter(|d| is_component(d.kind))
            .map(|d| d.local_name.as_str())
            .collect(),
        None => HashSet::new(),
    };
    file_index(db, changed.file)
        .definitions
        .iter()
        .enumerate()
        .filter(|(_, d)| is_component(d.kind) && !before.contains(d.local_name.as_str()))
        .map(|(i, _)| i as DefId)
        .collect()
}

/// The header's source lines, stripped and joined (see the module documentation).
fn fea_signature(text: &[u8], def: &Definition) -> String {
    let Some(end) = python_header_end(text, def.name_span.end_byte as usize) else { return String::new() };
    let first = def.name_span.start.line as usize;
    let source = String::from_utf8_lossy(text);
    let lines: Vec<&str> = source
        .split('\n')
        .skip(first)
        .take((end.body_line as usize).saturating_sub(first))
        .map(strip_python_comment)
        .filter(|l| !l.is_empty())
        .collect();
    lines.join(" ")
}

/// The docstring as `ast.get_docstring` gives it: escapes evaluated unless it is raw.
fn fea_doc(text: &[u8], def: &Definition) -> Option<String> {
    let doc = def.doc.as_ref()?;
    let raw = python_header_end(text, def.name_span.end_byte as usize)
        .and_then(|end| end.docstring_prefix)
        .is_some_and(|prefix| prefix.contains(['r', 'R']));
    Some(if raw { doc.clone() } else { python_unescape(doc) })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fea_test_paths_are_substrings() {
        assert!(is_fea_test_path("tests/test_x.py"));
        assert!(is_fea_test_path("pkg/checks.py"));
        assert!(is_fea_test_path("pkg/contest.py"));
        assert!(!is_fea_test_path("pkg/core.py"));
    }
}
