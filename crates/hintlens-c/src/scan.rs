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
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Token<'t> {
    /// `{` at this byte.
    Open(usize),
    /// `}` at this byte.
    Close(usize),
    Word(&'t [u8]),
    /// Any other byte of code but blanks (`;`, `=`, `:`…).
    Punct(u8),
    /// A directive line, its continued lines and any comment opened on it taken in, at these
    /// bytes: the conditional it is, if one.
    Directive(Option<Directive>, std::ops::Range<usize>),
    /// A block comment, string or character literal the text does not close, before it is
    /// read to the text's end (a comment) or its line's (a literal); or a block comment holding
    /// a line that starts with `#`: a grammar may read code (a directive) where this reading
    /// reads none.
    Unsure,
}

/// Hands `out` the code of `text`, first to last, while it answers `true`.
pub(crate) fn scan<'t>(text: &'t [u8], mut out: impl FnMut(Token<'t>) -> bool) {
    scan_wanting(text, &[], Want::All, |token| if out(token) { Want::All } else { Want::Stop });
}

/// What a reader of [`scan_wanting`] wants after a token.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Want {
    Stop,
    /// Every token.
    All,
    /// Braces, directives, `Unsure` and the words it names only: a reader waiting for a
    /// keyword (`namespace`) is handed no other word and no punctuation, and the bytes between
    /// are passed over without being read as tokens.
    Sparse,
}

/// [`scan`], handing `out` only what it wants: from `start` on, then what it answers. A sparse
/// scan's tokens are a full scan's without the words not in `words` and the punctuation.
pub(crate) fn scan_wanting<'t>(text: &'t [u8], words: &[&[u8]], start: Want, mut out: impl FnMut(Token<'t>) -> Want) {
    // The bytes a sparse scan stops at: those the tokens it hands out start with, and a line's
    // end (where a directive may follow).
    let mut stops = [false; 256];
    for b in [b'\n', b'#', b'/', b'"', b'\'', b'{', b'}'] {
        stops[usize::from(b)] = true;
    }
    for word in words {
        if let Some(&first) = word.first() {
            stops[usize::from(first)] = true;
        }
    }
    let mut want = start;
    let mut line_start = true;
    let mut i = 0;
    while i < text.len() {
        if want == Want::Stop {
            return;
        }
        let c = text[i];
        if want == Want::Sparse && !stops[usize::from(c)] {
            line_start &= matches!(c, b' ' | b'\t' | b'\r' | b'\x0c');
            i += 1;
            continue;
        }
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
                want = out(Token::Directive(directive(&text[i..end]), i..end));
                i = end;
                continue;
            }
            _ => {}
        }
        line_start = false;
        // The token at `i`, if any, and where the next one may start.
        let (token, next) = match c {
            b'/' if text.get(i + 1) == Some(&b'/') => {
                (None, memchr::memchr(b'\n', &text[i..]).map_or(text.len(), |p| i + p))
            }
            b'/' if text.get(i + 1) == Some(&b'*') => {
                let (end, closed) = comment_end(text, i + 2);
                ending((end, closed && !holds_directive(&text[i..end])))
            }
            b'"' if i > 0 && text[i - 1] == b'R' => ending(raw_string_end(text, i + 1)),
            b'"' => ending(literal_end(text, i + 1, b'"')),
            // After a digit, C++14's digit separator (`1'000`).
            b'\'' if i > 0 && text[i - 1].is_ascii_digit() => (None, i + 1),
            b'\'' => ending(literal_end(text, i + 1, b'\'')),
            b'{' => (Some(Token::Open(i)), i + 1),
            b'}' => (Some(Token::Close(i)), i + 1),
            // A sparse scan stops inside a word at a byte a wanted word starts with.
            c if (c.is_ascii_alphanumeric() || c == b'_')
                && want == Want::Sparse
                && i > 0
                && (text[i - 1].is_ascii_alphanumeric() || text[i - 1] == b'_') =>
            {
                (None, i + 1)
            }
            c if c.is_ascii_alphanumeric() || c == b'_' => {
                let end = i + text[i..].iter().take_while(|b| b.is_ascii_alphanumeric() || **b == b'_').count();
                let word = &text[i..end];
                let wanted = want == Want::All || words.contains(&word);
                (wanted.then_some(Token::Word(word)), end)
            }
            c => ((want == Want::All).then_some(Token::Punct(c)), i + 1),
        };
        if let Some(token) = token {
            want = out(token);
        }
        i = next;
    }
}

/// A comment's or literal's end (and whether this reading is sure of it) as a token and the
/// next token's start: `Unsure` where it is not.
fn ending<'t>((end, sure): (usize, bool)) -> (Option<Token<'t>>, usize) {
    ((!sure).then_some(Token::Unsure), end)
}

/// Whether a block comment holds a line starting with `#`.
fn holds_directive(comment: &[u8]) -> bool {
    memchr::memchr_iter(b'\n', comment).any(|at| comment[at + 1..].trim_ascii_start().first() == Some(&b'#'))
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
            b'/' if text.get(i + 1) == Some(&b'*') => i = comment_end(text, i + 2).0,
            b'/' if text.get(i + 1) == Some(&b'/') => {
                return memchr::memchr(b'\n', &text[i..]).map_or(text.len(), |p| i + p);
            }
            _ => i += 1,
        }
    }
    text.len()
}

/// The position after the `*/` closing a block comment whose text starts at `from`, and
/// whether there is one (else the text's end).
fn comment_end(text: &[u8], from: usize) -> (usize, bool) {
    find2(&text[from..], b"*/").map_or((text.len(), false), |p| (from + p + 2, true))
}

/// The position after the `quote` closing a literal whose text starts at `from`, and whether
/// there is one: a literal never spans a line, so an unclosed one ends at its line's end.
pub(crate) fn literal_end(text: &[u8], mut from: usize, quote: u8) -> (usize, bool) {
    while from < text.len() {
        match text[from] {
            b'\\' => from += 2,
            b'\n' => return (from, false),
            b if b == quote => return (from + 1, true),
            _ => from += 1,
        }
    }
    (text.len(), false)
}

/// The position after a raw string whose delimiter starts at `from` (`R"x(…)x"`), and whether
/// the text closes it.
fn raw_string_end(text: &[u8], from: usize) -> (usize, bool) {
    let Some(open) = memchr::memchr(b'(', &text[from..]).filter(|&p| p <= 16) else {
        return literal_end(text, from, b'"');
    };
    let mut close = Vec::with_capacity(open + 2);
    close.push(b')');
    close.extend_from_slice(&text[from..from + open]);
    close.push(b'"');
    let body = from + open + 1;
    memchr::memmem::find(&text[body..], &close).map_or((text.len(), false), |p| (body + p + close.len(), true))
}

/// The lines of `text`, their newlines left out, as `text.split(|&b| b == b'\n')` gives them (a
/// last empty line after a final newline included), found with `memchr`: the rules that read
/// a file line by line spent a third of their time looking for newlines a byte at a time.
pub(crate) fn lines(text: &[u8]) -> impl Iterator<Item = &[u8]> {
    let mut start = 0;
    memchr::memchr_iter(b'\n', text).chain(std::iter::once(text.len())).map(move |end| {
        let line = &text[start..end];
        start = end + 1;
        line
    })
}

/// Where the two bytes `pair` first stand in `text`: `memmem::find` for a needle of two bytes,
/// without the searcher it builds for each call (the line readers ask for `/*`, `*/`, `//`
/// and `::` on every line).
pub(crate) fn find2(text: &[u8], pair: &[u8; 2]) -> Option<usize> {
    memchr::memchr_iter(pair[0], text).find(|&i| text.get(i + 1) == Some(&pair[1]))
}

#[cfg(test)]
mod tests {
    use super::{Directive, Token, Want, directive, find2, lines, scan, scan_wanting};

    #[test]
    fn find2_is_memmem_for_two_bytes() {
        for (text, pair) in
            [("a*/b", b"*/"), ("***/", b"*/"), ("/", b"/*"), ("", b"::"), ("a:b::c", b"::"), ("//x//", b"//")]
        {
            assert_eq!(find2(text.as_bytes(), pair), memchr::memmem::find(text.as_bytes(), pair), "{text:?}");
        }
    }

    #[test]
    fn lines_are_the_split_at_newlines() {
        for text in ["", "\n", "a", "a\n", "a\nb", "a\n\nb\n", "\n\n", "a\r\nb"] {
            let split: Vec<&[u8]> = text.as_bytes().split(|&b| b == b'\n').collect();
            assert_eq!(lines(text.as_bytes()).collect::<Vec<_>>(), split, "{text:?}");
        }
    }

    fn braces(text: &str) -> String {
        let mut out = String::new();
        scan(text.as_bytes(), |t| {
            match t {
                Token::Open(_) => out.push('{'),
                Token::Close(_) => out.push('}'),
                Token::Directive(Some(d), _) => out.push_str(&format!("{d:?}")),
                _ => {}
            }
            true
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

    /// A sparse scan hands out what a full one does, less the punctuation and the words it
    /// does not name: whatever stands inside words, literals, comments and directives.
    #[test]
    fn a_sparse_scan_is_a_full_scan_less_what_it_does_not_want() {
        let words: &[&[u8]] = &[b"namespace", b"inline"];
        for text in [
            "namespace a::b { inline namespace v1 { } }",
            "xnamespace namespace1 a_inline inline_ ninline in i n {}",
            "n = 1'000; c = 'n'; d = '{'; u8'x' '}'",
            "r = R\"x(namespace {)x\"; s = u8R\"(})\"; t = \"in{\"",
            "  # if X\n{\n a # b {\n/* x\n */ #if Y\n}\n#endif",
            "#define OPEN \\\n  { namespace\n// namespace {\n/* { */ }",
            "\"unclosed { \n namespace q {\n'x\n}",
            "/* never closed namespace {",
            "\tinline\n\x0cnamespace\r\n{ }",
        ] {
            let mut full = Vec::new();
            scan(text.as_bytes(), |t| {
                full.push(t);
                true
            });
            full.retain(|t| match t {
                Token::Punct(_) => false,
                Token::Word(w) => words.contains(w),
                _ => true,
            });
            let mut sparse = Vec::new();
            scan_wanting(text.as_bytes(), words, Want::Sparse, |t| {
                sparse.push(t);
                Want::Sparse
            });
            assert_eq!(sparse, full, "{text:?}");
        }
    }
}
