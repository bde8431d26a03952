//! The code of C and C++ text read without a parse: its braces, words and other bytes, and its
//! directive lines, with comments and string and character literals (raw ones too) skipped.
//! What the readers that work beside the grammar share: the brace balance of a conditional's
//! branch ([`crate::macro_lines`]) and the namespaces the braces open ([`crate::namespaces`]).

/// A conditional directive.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Directive {
    /// `#if`, `#ifdef`, `#ifndef`.
    If,
    /// `#elif`, `#elifdef`, `#elifndef`, `#else`.
    Else,
    Endif,
}

/// The conditional directive `line` is, if it is one.
pub(crate) fn directive(line: &[u8]) -> Option<Directive> {
    let rest = blanks(blanks(line).strip_prefix(b"#")?);
    match &rest[..rest.iter().take_while(|b| b.is_ascii_alphabetic()).count()] {
        b"if" | b"ifdef" | b"ifndef" => Some(Directive::If),
        b"elif" | b"elifdef" | b"elifndef" | b"else" => Some(Directive::Else),
        b"endif" => Some(Directive::Endif),
        _ => None,
    }
}

fn blanks(text: &[u8]) -> &[u8] {
    &text[text.iter().take_while(|b| b.is_ascii_whitespace()).count()..]
}

/// One piece of code, as [`scan`] hands it out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Token<'t> {
    /// `{` at this byte.
    Open(usize),
    /// `}` at this byte.
    Close(usize),
    Word(&'t [u8]),
    /// Any other byte of code but blanks (`;`, `=`, `:`…).
    Punct(u8),
    /// A directive line, its continued lines and any comment opened on it taken in, ending at
    /// this byte: the conditional it is, if one.
    Directive(Option<Directive>, usize),
}

/// Hands `out` the code of `text`, first to last.
pub(crate) fn scan(text: &[u8], mut out: impl FnMut(Token<'_>)) {
    let mut line_start = true;
    let mut i = 0;
    while i < text.len() {
        let c = text[i];
        match c {
            b'\n' => {
                line_start = true;
                i += 1;
                continue;
            }
            b' ' | b'\t' | b'\r' | b'\x0c' => {
                i += 1;
                continue;
            }
            b'#' if line_start => {
                let end = directive_end(text, i);
                out(Token::Directive(directive(&text[i..end]), end));
                i = end;
                continue;
            }
            _ => {}
        }
        line_start = false;
        match c {
            b'/' if text.get(i + 1) == Some(&b'/') => {
                i = memchr::memchr(b'\n', &text[i..]).map_or(text.len(), |p| i + p);
            }
            b'/' if text.get(i + 1) == Some(&b'*') => i = comment_end(text, i + 2),
            b'"' if i > 0 && text[i - 1] == b'R' => i = raw_string_end(text, i + 1),
            b'"' => i = literal_end(text, i + 1, b'"'),
            // After a digit, C++14's digit separator (`1'000`).
            b'\'' if i > 0 && text[i - 1].is_ascii_digit() => i += 1,
            b'\'' => i = literal_end(text, i + 1, b'\''),
            b'{' => {
                out(Token::Open(i));
                i += 1;
            }
            b'}' => {
                out(Token::Close(i));
                i += 1;
            }
            c if c.is_ascii_alphanumeric() || c == b'_' => {
                let end = i + text[i..].iter().take_while(|b| b.is_ascii_alphanumeric() || **b == b'_').count();
                out(Token::Word(&text[i..end]));
                i = end;
            }
            c => {
                out(Token::Punct(c));
                i += 1;
            }
        }
    }
}

/// The end of the directive starting at `from` (its `#`): the end of its last line, its
/// continuation lines and any block comment opened on it taken in.
fn directive_end(text: &[u8], from: usize) -> usize {
    let mut i = from;
    while i < text.len() {
        match text[i] {
            b'\n' if i > 0 && text[i - 1] == b'\\' => i += 1,
            b'\n' if i > 1 && text[i - 1] == b'\r' && text[i - 2] == b'\\' => i += 1,
            b'\n' => return i,
            b'/' if text.get(i + 1) == Some(&b'*') => i = comment_end(text, i + 2),
            b'/' if text.get(i + 1) == Some(&b'/') => {
                return memchr::memchr(b'\n', &text[i..]).map_or(text.len(), |p| i + p);
            }
            _ => i += 1,
        }
    }
    text.len()
}

/// The position after the `*/` closing a block comment whose text starts at `from`.
fn comment_end(text: &[u8], from: usize) -> usize {
    memchr::memmem::find(&text[from..], b"*/").map_or(text.len(), |p| from + p + 2)
}

/// The position after the `quote` closing a literal whose text starts at `from`; a literal
/// never spans a line, so an unclosed one ends at its line's end.
fn literal_end(text: &[u8], mut from: usize, quote: u8) -> usize {
    while from < text.len() {
        match text[from] {
            b'\\' => from += 2,
            b'\n' => return from,
            b if b == quote => return from + 1,
            _ => from += 1,
        }
    }
    text.len()
}

/// The position after a raw string whose delimiter starts at `from` (`R"x(…)x"`).
fn raw_string_end(text: &[u8], from: usize) -> usize {
    let Some(open) = memchr::memchr(b'(', &text[from..]).filter(|&p| p <= 16) else {
        return literal_end(text, from, b'"');
    };
    let mut close = Vec::with_capacity(open + 2);
    close.push(b')');
    close.extend_from_slice(&text[from..from + open]);
    close.push(b'"');
    let body = from + open + 1;
    memchr::memmem::find(&text[body..], &close).map_or(text.len(), |p| body + p + close.len())
}

#[cfg(test)]
mod tests {
    use super::{Directive, Token, directive, scan};

    fn braces(text: &str) -> String {
        let mut out = String::new();
        scan(text.as_bytes(), |t| match t {
            Token::Open(_) => out.push('{'),
            Token::Close(_) => out.push('}'),
            Token::Directive(Some(d), _) => out.push_str(&format!("{d:?}")),
            _ => {}
        });
        out
    }

    #[test]
    fn comments_literals_and_directive_lines_hold_no_braces() {
        let text = "{ // }\n/* } */ s = \"}\"; c = '}'; n = 1'000; r = R\"x(})x\";\n#define OPEN {\n\
                    #define TWO \\\n  }\n# /* {\n} */ if X\n}";
        assert_eq!(braces(text), "{}");
    }

    #[test]
    fn conditionals_are_told_apart() {
        assert_eq!(braces("#if A\n{\n#elif B\n#else\n  #  endif\n#include <x>\n"), "If{ElseElseEndif");
        assert_eq!(directive(b"  #  ifndef X_H"), Some(Directive::If));
        assert_eq!(directive(b"#elifdef X"), Some(Directive::Else));
        assert_eq!(directive(b"#include <if>"), None);
    }
}
