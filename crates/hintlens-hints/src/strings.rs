//! `strings` (our extension, reported apart from DefUse): string literals the code change adds
//! that the test change's added lines contain too — error messages, dict/JSON keys,
//! command-line flags, config keys. Like new names, they are contracts the reference author
//! chose and the tests enforce.
//!
//! A code literal is a candidate when it starts on a line the code change adds, its value was
//! no literal of the file at B, and it is no trivial token (fewer than three characters, or
//! no letter or digit). It is selected when a literal on an added test line equals it, or —
//! for values of eight characters or more, long enough not to match by chance — contains it
//! (`assert "Error: bad width" in out`), or when an error-message literal of the tests
//! (`pytest.raises(match=…)`, `hasMessage(…)`) of eight characters or more is part of it.

use crate::newdefs::changed_files;
use crate::{Entity, Evidence, Identifier, Task, ident};
use hintlens_db::{Db, file_index};
use hintlens_syntax::DefKind;
use std::collections::HashSet;

/// A literal on a line the test change adds.
struct TestLiteral {
    value: String,
    /// Regex escapes of punctuation removed (`bad \(x\)` → `bad (x)`), when it matches errors.
    error_pattern: Option<String>,
    evidence: Evidence,
}

pub(crate) fn select(db: &dyn Db, task: &Task<'_>) -> Vec<Identifier> {
    let tests = test_literals(db, task);
    if tests.is_empty() {
        return Vec::new();
    }
    let mut out = Vec::new();
    for changed in changed_files(db, task, task.code) {
        let added: HashSet<u32> = changed.change.added_lines.iter().copied().collect();
        let before: HashSet<&str> = match changed.base {
            Some((_, b)) => file_index(db, b).strings.iter().map(|s| s.value.as_str()).collect(),
            None => HashSet::new(),
        };
        let mut seen = HashSet::new();
        for s in &file_index(db, changed.file).strings {
            let value = s.value.as_str();
            if !added.contains(&s.span.start.line) || before.contains(value) || trivial(value) || !seen.insert(value) {
                continue;
            }
            let mut evidence: Vec<Evidence> = tests
                .iter()
                .filter(|t| {
                    t.value == value
                        || (long(value) && t.value.contains(value))
                        || t.error_pattern.as_deref().is_some_and(|p| long(p) && value.contains(p))
                })
                .map(|t| t.evidence.clone())
                .collect();
            if evidence.is_empty() {
                continue;
            }
            evidence.sort();
            evidence.dedup();
            let entity = if s.error_context { Entity::ErrorMessage } else { Entity::String };
            let mut id = Identifier::new(value, DefKind::Constant, entity, changed.path, changed.is_new_file);
            id.line = s.span.start.line + 1;
            id.evidence = evidence;
            out.push(id);
        }
    }
    ident::sort(&mut out);
    out
}

fn test_literals(db: &dyn Db, task: &Task<'_>) -> Vec<TestLiteral> {
    let mut out = Vec::new();
    for changed in changed_files(db, task, task.test) {
        let added: HashSet<u32> = changed.change.added_lines.iter().copied().collect();
        for s in file_index(db, changed.file).strings.iter().filter(|s| added.contains(&s.span.start.line)) {
            out.push(TestLiteral {
                value: s.value.clone(),
                error_pattern: s.error_context.then(|| unregex(&s.value)),
                evidence: Evidence { path: changed.path.to_owned(), line: s.span.start.line + 1, rule: None },
            });
        }
    }
    out
}

/// Long enough that finding it inside another literal is no coincidence (`"size"` is inside
/// many messages; `"must not be negative"` is inside one).
fn long(text: &str) -> bool {
    text.chars().count() >= 8
}

/// Too short or too bland to be a contract: `""`, `"w"`, `", "`, `"utf"`.
fn trivial(value: &str) -> bool {
    value.trim().chars().count() < 3 || !value.chars().any(char::is_alphanumeric)
}

/// A message pattern as plain text: regex escapes of punctuation dropped, anchors trimmed.
fn unregex(pattern: &str) -> String {
    let mut out = String::with_capacity(pattern.len());
    let mut chars = pattern.trim_start_matches('^').trim_end_matches('$').chars();
    while let Some(c) = chars.next() {
        match (c, chars.clone().next()) {
            ('\\', Some(next)) if next.is_ascii_punctuation() => {
                out.push(next);
                chars.next();
            }
            _ => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bland_literals_are_trivial() {
        assert!(trivial(""));
        assert!(trivial("w"));
        assert!(trivial(", "));
        assert!(trivial("---"));
        assert!(!trivial("--strict"));
        assert!(!trivial("retry_count"));
    }

    #[test]
    fn regex_escapes_are_dropped() {
        assert_eq!(unregex(r"^width must be \(positive\)\.$"), "width must be (positive).");
        assert_eq!(unregex(r"\d+ items"), r"\d+ items");
    }
}
