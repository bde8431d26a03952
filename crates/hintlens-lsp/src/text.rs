//! LSP positions (line, UTF-16 code unit) ↔ FileIndex positions (line, byte column), and
//! incremental edits of open documents.
//!
//! Lines end at `\n`, as tree-sitter counts them; a `\r` before it belongs to the line ending.
//! Text that is not valid UTF-8 counts one UTF-16 unit per invalid byte sequence, as the
//! replacement character an editor shows for it.

use hintlens_syntax::Position;

/// The bytes of line `line` without its line ending; `None` past the last line.
pub(crate) fn line(text: &[u8], line: u32) -> Option<&[u8]> {
    let mut rest = text;
    for _ in 0..line {
        let newline = rest.iter().position(|&b| b == b'\n')?;
        rest = &rest[newline + 1..];
    }
    let end = rest.iter().position(|&b| b == b'\n').unwrap_or(rest.len());
    let content = &rest[..end];
    Some(content.strip_suffix(b"\r").unwrap_or(content))
}

/// How many lines an LSP client sees in `text` (a final newline starts an empty last line).
pub(crate) fn line_count(text: &[u8]) -> u32 {
    text.iter().filter(|&&b| b == b'\n').count() as u32 + 1
}

/// The UTF-16 length of each character of `line`, with its byte length.
fn units(line: &[u8]) -> impl Iterator<Item = (usize, u32)> + '_ {
    line.utf8_chunks().flat_map(|chunk| {
        let valid = chunk.valid().chars().map(|c| (c.len_utf8(), c.len_utf16() as u32));
        let invalid = (!chunk.invalid().is_empty()).then_some((chunk.invalid().len(), 1));
        valid.chain(invalid)
    })
}

/// The UTF-16 column of byte column `column` of `line` (a column inside a character counts as
/// its start; past the end, as the end).
pub(crate) fn utf16_column(line: &[u8], column: u32) -> u32 {
    let mut bytes = 0;
    let mut utf16 = 0;
    for (len, width) in units(line) {
        if bytes + len > column as usize {
            break;
        }
        bytes += len;
        utf16 += width;
    }
    utf16
}

/// The byte column of UTF-16 column `column` of `line`. A column inside a surrogate pair
/// counts as the character's start; a column past the end is the end, as LSP prescribes.
pub(crate) fn byte_column(line: &[u8], column: u32) -> u32 {
    let mut bytes = 0;
    let mut utf16 = 0;
    for (len, width) in units(line) {
        if utf16 + width > column {
            break;
        }
        bytes += len;
        utf16 += width;
    }
    bytes as u32
}

/// The FileIndex position of an LSP position; `None` if its line is past the end of `text`.
pub(crate) fn to_index(text: &[u8], position: lsp_types::Position) -> Option<Position> {
    let content = line(text, position.line)?;
    Some(Position { line: position.line, column: byte_column(content, position.character) })
}

/// The LSP position of a FileIndex position.
pub(crate) fn to_lsp(text: &[u8], position: Position) -> lsp_types::Position {
    let column = line(text, position.line).map_or(0, |content| utf16_column(content, position.column));
    lsp_types::Position { line: position.line, character: column }
}

pub(crate) fn to_lsp_range(text: &[u8], span: &hintlens_syntax::Span) -> lsp_types::Range {
    lsp_types::Range { start: to_lsp(text, span.start), end: to_lsp(text, span.end) }
}

/// The byte offset of an LSP position in `text`, clamped to the end of its line, or to the end
/// of the text for a line past the end (clients are trusted to describe their own edits).
fn offset(text: &str, position: lsp_types::Position) -> usize {
    let mut start = 0;
    for _ in 0..position.line {
        match text[start..].find('\n') {
            Some(newline) => start += newline + 1,
            None => return text.len(),
        }
    }
    let content = line(&text.as_bytes()[start..], 0).unwrap_or_default();
    start + byte_column(content, position.character) as usize
}

/// Applies one `textDocument/didChange` content change.
pub(crate) fn apply_change(text: &mut String, change: &lsp_types::TextDocumentContentChangeEvent) {
    match change.range {
        None => text.clone_from(&change.text),
        Some(range) => {
            let start = offset(text, range.start);
            let end = offset(text, range.end).max(start);
            text.replace_range(start..end, &change.text);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lsp_types::{Range, TextDocumentContentChangeEvent};

    fn lsp(line: u32, character: u32) -> lsp_types::Position {
        lsp_types::Position { line, character }
    }

    #[test]
    fn lines_end_at_newlines_without_carriage_returns() {
        let text = b"a\r\nbc\n\nd";
        assert_eq!(line(text, 0), Some(&b"a"[..]));
        assert_eq!(line(text, 1), Some(&b"bc"[..]));
        assert_eq!(line(text, 2), Some(&b""[..]));
        assert_eq!(line(text, 3), Some(&b"d"[..]));
        assert_eq!(line(text, 4), None);
        assert_eq!(line_count(text), 4);
        assert_eq!(line(b"x\n", 1), Some(&b""[..]), "a final newline starts an empty line");
    }

    #[test]
    fn columns_convert_between_bytes_and_utf16() {
        // `é` is 2 bytes and 1 unit, `😀` 4 bytes and 2 units, `中` 3 bytes and 1 unit.
        let line = "é😀中x".as_bytes();
        for (byte, utf16) in [(0, 0), (2, 1), (6, 3), (9, 4), (10, 5)] {
            assert_eq!(utf16_column(line, byte), utf16, "byte {byte}");
            assert_eq!(byte_column(line, utf16), byte, "utf16 {utf16}");
        }
        assert_eq!(byte_column(line, 2), 2, "inside the surrogate pair: the emoji's start");
        assert_eq!(byte_column(line, 99), 10, "past the end: the end");
        assert_eq!(utf16_column(line, 4), 1, "inside a character: its start");
        assert_eq!(utf16_column(b"\xffx", 1), 1, "an invalid byte is one replacement character");
    }

    #[test]
    fn positions_convert_and_report_lines_past_the_end() {
        let text = "x = 'é'\ny = fetch()\n".as_bytes();
        assert_eq!(to_index(text, lsp(0, 6)), Some(Position { line: 0, column: 7 }));
        assert_eq!(to_lsp(text, Position { line: 0, column: 7 }), lsp(0, 6));
        assert_eq!(to_index(text, lsp(2, 0)), Some(Position { line: 2, column: 0 }));
        assert_eq!(to_index(text, lsp(3, 0)), None);
    }

    #[test]
    fn incremental_changes_apply_at_utf16_positions() {
        let mut text = String::from("a😀b\nsecond\n");
        let change = |range: Option<Range>, text: &str| TextDocumentContentChangeEvent {
            range,
            range_length: None,
            text: text.into(),
        };
        apply_change(&mut text, &change(Some(Range::new(lsp(0, 3), lsp(0, 4))), "B"));
        assert_eq!(text, "a😀B\nsecond\n");
        apply_change(&mut text, &change(Some(Range::new(lsp(0, 4), lsp(1, 3))), "+"));
        assert_eq!(text, "a😀B+ond\n");
        apply_change(&mut text, &change(Some(Range::new(lsp(1, 0), lsp(1, 0))), "third"));
        assert_eq!(text, "a😀B+ond\nthird");
        apply_change(&mut text, &change(Some(Range::new(lsp(0, 99), lsp(7, 0))), "!"));
        assert_eq!(text, "a😀B+ond!", "out-of-range positions clamp to line and text ends");
        apply_change(&mut text, &change(None, "whole"));
        assert_eq!(text, "whole");
    }
}
