//! The namespaces enclosing each point of a file, read from its text by matching braces, for
//! files whose syntax tree has errors.
//!
//! tree-sitter-cpp recovers from what it cannot read (a macro before a constructor, an
//! attribute it does not know) by closing or opening blocks where the text does not: after such
//! an error in fmt's `base.h`, everything of `namespace detail` from `class buffer` on (600
//! lines) stood at the top level, so a trait moved out of `detail` looked unmoved. The braces of
//! the text stay balanced where the grammar's reading does not, so the namespaces a definition
//! stands in are the text's: `namespace a::b {` opens `a` and `b` at its brace, any other brace
//! opens a block of no name, and `}` closes the innermost.
//!
//! Comments, string and character literals (raw ones too) and directive lines hold no braces. A
//! conditional's branches each start from the state before it (`#if A namespace x { #else
//! namespace y { #endif`), and after `#endif` the first branch's state holds, as the
//! preprocessor takes one branch.

/// The namespace names enclosing each stretch of a file: `(from, names)` in byte order, each
/// holding up to the next.
#[derive(Debug, Default)]
pub(crate) struct Namespaces {
    changes: Vec<(usize, Vec<String>)>,
}

impl Namespaces {
    /// The namespaces enclosing byte `at`, outermost first (anonymous ones spell nothing).
    pub(crate) fn at(&self, at: usize) -> &[String] {
        let i = self.changes.partition_point(|(from, _)| *from <= at);
        if i == 0 { &[] } else { &self.changes[i - 1].1 }
    }
}

/// One open brace: the names it opens (none for a block that is no namespace).
type Frame = Vec<String>;

pub(crate) fn namespaces(text: &[u8]) -> Namespaces {
    let mut out = Namespaces::default();
    let mut stack: Vec<Frame> = Vec::new();
    // Per open conditional: the state before it, and its first branch's state at its end.
    let mut conditionals: Vec<(Vec<Frame>, Option<Vec<Frame>>)> = Vec::new();
    // After `namespace`: the names read so far, until its `{` (or anything else: an alias).
    let mut pending: Option<Vec<String>> = None;
    let mut line_start = true;
    let mut i = 0;
    let record = |out: &mut Namespaces, at: usize, stack: &[Frame]| {
        let names: Vec<String> = stack.iter().flatten().cloned().collect();
        if out.changes.last().is_none_or(|(_, last)| *last != names) {
            out.changes.push((at, names));
        }
    };
    while i < text.len() {
        let c = text[i];
        if c == b'\n' {
            line_start = true;
            i += 1;
            continue;
        }
        if c == b' ' || c == b'\t' || c == b'\r' || c == b'\x0c' {
            i += 1;
            continue;
        }
        if c == b'#' && line_start {
            let end = directive_end(text, i);
            let word = directive_word(&text[i + 1..end]);
            match word {
                b"if" | b"ifdef" | b"ifndef" => conditionals.push((stack.clone(), None)),
                b"elif" | b"else" | b"elifdef" | b"elifndef" => {
                    if let Some((before, first)) = conditionals.last_mut() {
                        if first.is_none() {
                            *first = Some(std::mem::replace(&mut stack, before.clone()));
                        } else {
                            stack = before.clone();
                        }
                        record(&mut out, end, &stack);
                    }
                }
                b"endif" => {
                    if let Some((_, Some(first))) = conditionals.pop() {
                        stack = first;
                        record(&mut out, end, &stack);
                    }
                }
                _ => {}
            }
            i = end;
            continue;
        }
        line_start = false;
        match c {
            b'/' if text.get(i + 1) == Some(&b'/') => {
                i = memchr::memchr(b'\n', &text[i..]).map_or(text.len(), |p| i + p);
            }
            b'/' if text.get(i + 1) == Some(&b'*') => {
                i = memchr::memmem::find(&text[i + 2..], b"*/").map_or(text.len(), |p| i + 2 + p + 2);
            }
            b'"' if i > 0 && text[i - 1] == b'R' => i = raw_string_end(text, i + 1),
            b'"' => i = literal_end(text, i + 1, b'"'),
            // After a digit, C++14's digit separator (`1'000`).
            b'\'' if i > 0 && text[i - 1].is_ascii_digit() => i += 1,
            b'\'' => i = literal_end(text, i + 1, b'\''),
            // Only a named namespace's brace changes the names: the others are not recorded.
            b'{' => {
                let frame = pending.take().unwrap_or_default();
                let names = !frame.is_empty();
                stack.push(frame);
                if names {
                    record(&mut out, i + 1, &stack);
                }
                i += 1;
            }
            b'}' => {
                pending = None;
                if stack.pop().is_some_and(|frame| !frame.is_empty()) {
                    record(&mut out, i, &stack);
                }
                i += 1;
            }
            b':' if text.get(i + 1) == Some(&b':') => i += 2,
            c if c.is_ascii_alphabetic() || c == b'_' => {
                let end = i + text[i..].iter().take_while(|b| b.is_ascii_alphanumeric() || **b == b'_').count();
                let word = &text[i..end];
                match (&mut pending, word) {
                    (_, b"namespace") => pending = Some(Vec::new()),
                    (Some(_), b"inline") => {}
                    (Some(names), name) => names.push(String::from_utf8_lossy(name).into_owned()),
                    (None, _) => {}
                }
                i = end;
            }
            _ => {
                pending = None;
                i += 1;
            }
        }
    }
    out
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
            b'/' if text.get(i + 1) == Some(&b'*') => {
                i = memchr::memmem::find(&text[i + 2..], b"*/").map_or(text.len(), |p| i + 2 + p + 2);
            }
            b'/' if text.get(i + 1) == Some(&b'/') => {
                return memchr::memchr(b'\n', &text[i..]).map_or(text.len(), |p| i + p);
            }
            _ => i += 1,
        }
    }
    text.len()
}

/// The directive's name (`ifdef` of `#  ifdef X`).
fn directive_word(rest: &[u8]) -> &[u8] {
    let start = rest.iter().take_while(|b| matches!(b, b' ' | b'\t')).count();
    let len = rest[start..].iter().take_while(|b| b.is_ascii_alphabetic()).count();
    &rest[start..start + len]
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
    use super::namespaces;

    /// The namespaces at each `@` of `text`, joined by `::`.
    fn at_marks(text: &str) -> Vec<String> {
        let ns = namespaces(text.as_bytes());
        text.match_indices('@').map(|(at, _)| ns.at(at).join("::")).collect()
    }

    #[test]
    fn braces_open_and_close_namespaces() {
        let text = "@ namespace a { @ namespace b::c { struct s { @ }; @ } @ inline namespace v1 { @ } }\n\
                    namespace { @ } namespace x = y; @ namespace d {\n@";
        assert_eq!(at_marks(text), ["", "a", "a::b::c", "a::b::c", "a", "a::v1", "", "", "d"]);
    }

    #[test]
    fn comments_literals_and_directives_hold_no_braces() {
        let text = "namespace a { // }\n/* } */ const char* s = \"}\"; char c = '}'; int n = 1'000;\n\
                    auto r = R\"x(})x\"; #define OPEN {\n#define TWO \\\n  }\n@ }";
        assert_eq!(at_marks(text), ["a"]);
    }

    #[test]
    fn each_branch_starts_from_the_state_before_its_conditional() {
        let text = "#if A\nnamespace x {\n#elif B\nnamespace y {\n#else\n@\n#endif\n@ }\n@";
        assert_eq!(at_marks(text), ["", "x", ""]);
    }
}
