//! Reading a file again after an edit: the parse of one version of a file, kept so that the
//! next version's parse reuses what the edit left alone (tree-sitter's incremental parsing).
//!
//! A task reads each changed file twice, at the base and at the reference, and the two differ
//! by a few hunks: the second parse, started from the first's tree and told where the texts
//! differ, re-reads only those hunks. The index is the same either way
//! ([`crate::Frontend::extract_reusing`]); only the time differs.

use imara_diff::{Algorithm, Diff, InternedInput, sources::byte_lines};
use std::any::Any;

/// A frontend's parse of one version of a file, opaque to everyone but that frontend (a
/// tree-sitter frontend keeps its syntax tree here).
pub struct Parse(Box<dyn Any + Send + Sync>);

impl Parse {
    pub fn new<T: Any + Send + Sync>(parse: T) -> Parse {
        Parse(Box::new(parse))
    }

    /// The parse, if it is of type `T` (a frontend is only ever handed its own parses, but a
    /// parse of another kind is ignored rather than trusted).
    pub fn into_inner<T: Any>(self) -> Option<T> {
        self.0.downcast::<T>().ok().map(|b| *b)
    }
}

impl std::fmt::Debug for Parse {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Parse")
    }
}

/// The parse of an earlier version of a file, and the edits that turn that version's text into
/// the one about to be read.
#[derive(Debug)]
pub struct Earlier {
    pub parse: Parse,
    pub edits: Vec<TextEdit>,
}

/// One replaced stretch of text, in tree-sitter's terms: byte offsets and (row, byte column)
/// points of where it starts, where the replaced text ended and where its replacement ends.
/// Edits are listed first to last, each in the coordinates of the text after the ones before
/// it (the order tree-sitter applies them in).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TextEdit {
    pub start_byte: usize,
    pub old_end_byte: usize,
    pub new_end_byte: usize,
    pub start: (usize, usize),
    pub old_end: (usize, usize),
    pub new_end: (usize, usize),
}

/// The edits that turn `old` into `new`, one per changed run of lines.
///
/// The line diff is git's histogram diff, which falls back on Myers' with git's heuristics
/// where lines repeat: any diff gives a correct parse, a coarser one only re-reads more, so
/// what counts is that it stays near-linear on generated files whose every hunk moved (bison's
/// `#line` directives), where a minimal Myers diff searched for tens of milliseconds.
pub fn text_edits(old: &[u8], new: &[u8]) -> Vec<TextEdit> {
    // The lines both texts start and end with are compared as bytes, not interned: a task's
    // two versions of a large file most often differ in a few lines.
    let prefix = old.iter().zip(new).take_while(|(a, b)| a == b).count();
    let prefix = memchr::memrchr(b'\n', &old[..prefix]).map_or(0, |newline| newline + 1);
    let (old_rest, new_rest) = (&old[prefix..], &new[prefix..]);
    let suffix = old_rest.iter().rev().zip(new_rest.iter().rev()).take_while(|(a, b)| a == b).count();
    let suffix = memchr::memchr(b'\n', &old_rest[old_rest.len() - suffix..]).map_or(0, |newline| suffix - newline - 1);
    let (row, edits) = (
        memchr::memchr_iter(b'\n', &old[..prefix]).count(),
        middle_edits(&old_rest[..old_rest.len() - suffix], &new_rest[..new_rest.len() - suffix]),
    );
    edits
        .into_iter()
        .map(|e| TextEdit {
            start_byte: e.start_byte + prefix,
            old_end_byte: e.old_end_byte + prefix,
            new_end_byte: e.new_end_byte + prefix,
            start: (e.start.0 + row, e.start.1),
            old_end: (e.old_end.0 + row, e.old_end.1),
            new_end: (e.new_end.0 + row, e.new_end.1),
        })
        .collect()
}

/// [`text_edits`] of texts that start at a line's start.
fn middle_edits(old: &[u8], new: &[u8]) -> Vec<TextEdit> {
    let input = InternedInput::new(byte_lines(old), byte_lines(new));
    let diff = Diff::compute(Algorithm::Histogram, &input);
    let offsets = |text: &[u8], lines: usize| {
        let mut at = Vec::with_capacity(lines + 1);
        at.push(0);
        at.extend(memchr::memchr_iter(b'\n', text).map(|newline| newline + 1));
        if at.len() <= lines {
            at.push(text.len());
        }
        at
    };
    let old_at = offsets(old, input.before.len());
    let new_at = offsets(new, input.after.len());
    // What the edits so far added to the text's length and line count: each edit is placed in
    // the text the ones before it left.
    let (mut bytes_added, mut rows_added) = (0isize, 0isize);
    let mut edits = Vec::new();
    for hunk in diff.hunks() {
        let (old_lines, new_lines) = (hunk.before, hunk.after);
        let replaced = &old[old_at[old_lines.start as usize]..old_at[old_lines.end as usize]];
        let replacement = &new[new_at[new_lines.start as usize]..new_at[new_lines.end as usize]];
        let start_byte = old_at[old_lines.start as usize].saturating_add_signed(bytes_added);
        let row = (old_lines.start as usize).saturating_add_signed(rows_added);
        edits.push(TextEdit {
            start_byte,
            old_end_byte: start_byte + replaced.len(),
            new_end_byte: start_byte + replacement.len(),
            start: (row, 0),
            old_end: end_point(row, replaced),
            new_end: end_point(row, replacement),
        });
        bytes_added += replacement.len() as isize - replaced.len() as isize;
        rows_added += new_lines.len() as isize - old_lines.len() as isize;
    }
    edits
}

/// The point after `text` when it starts at column 0 of `row`.
fn end_point(row: usize, text: &[u8]) -> (usize, usize) {
    let lines = text.iter().filter(|&&b| b == b'\n').count();
    let column = match text.iter().rposition(|&b| b == b'\n') {
        Some(last) => text.len() - last - 1,
        None => text.len(),
    };
    (row + lines, column)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Applies the edits to `old` as tree-sitter does: in order, each on the text the ones
    /// before it left, checking that every point agrees with its byte offset.
    fn apply(old: &[u8], new: &[u8], edits: &[TextEdit]) -> Vec<u8> {
        let mut text = old.to_vec();
        for e in edits {
            let point = |t: &[u8], at: usize| end_point(0, &t[..at]);
            assert_eq!(point(&text, e.start_byte), e.start, "{e:?}");
            assert_eq!(point(&text, e.old_end_byte), e.old_end, "{e:?}");
            let replacement = &new[e.start_byte..e.new_end_byte];
            text.splice(e.start_byte..e.old_end_byte, replacement.iter().copied());
            assert_eq!(point(&text, e.new_end_byte), e.new_end, "{e:?}");
        }
        text
    }

    #[test]
    fn edits_turn_the_old_text_into_the_new() {
        let cases: [(&str, &str); 13] = [
            ("head\na\nb\ntail", "head\nb\ntail"),
            ("same\nend", "same\nend\n"),
            ("a\na\n", "a\n"),
            ("one line", "one lime"),
            ("package a;\n\nclass U {}\n", "package a;\nclass U {}\nclass U {}\n\n"),
            ("def f(s):\n    return s\n", "    return s\n    return s\n"),
            ("a\nb\nc\nd\n", "b\nx\nd\na\n"),
            ("a\nb\nc\n", "a\nB\nc\n"),
            ("a\nb\nc\n", "a\nc\n"),
            ("a\nb\nc\n", "x\na\nb\ny\nz\nc\nw"),
            ("def f():\n    return 1", "def f():\n    return 2\n"),
            ("", "new file\n"),
            ("gone\n", ""),
        ];
        for (old, new) in cases {
            let edits = text_edits(old.as_bytes(), new.as_bytes());
            assert_eq!(apply(old.as_bytes(), new.as_bytes(), &edits), new.as_bytes(), "{old:?} → {new:?}");
        }
        assert!(text_edits(b"same\n", b"same\n").is_empty());
        assert_eq!(text_edits(b"a\nb\nc\nd\n", b"A\nb\nc\nD\n").len(), 2, "one edit per changed run");
    }

    #[test]
    fn a_parse_is_given_back_only_as_what_it_is() {
        assert_eq!(Parse::new(7u32).into_inner::<u32>(), Some(7));
        assert_eq!(Parse::new(7u32).into_inner::<String>(), None);
    }
}
