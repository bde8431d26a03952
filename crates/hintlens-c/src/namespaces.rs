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
//! preprocessor takes one branch. The text is read by [`crate::scan`].

use crate::scan::{Directive, Token, scan};

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
    let record = |out: &mut Namespaces, at: usize, stack: &[Frame]| {
        let names: Vec<String> = stack.iter().flatten().cloned().collect();
        if out.changes.last().is_none_or(|(_, last)| *last != names) {
            out.changes.push((at, names));
        }
    };
    scan(text, |token| match token {
        Token::Directive(Some(Directive::If), _) => conditionals.push((stack.clone(), None)),
        Token::Directive(Some(Directive::Else), end) => {
            if let Some((before, first)) = conditionals.last_mut() {
                if first.is_none() {
                    *first = Some(std::mem::replace(&mut stack, before.clone()));
                } else {
                    stack = before.clone();
                }
                record(&mut out, end, &stack);
            }
        }
        Token::Directive(Some(Directive::Endif), end) => {
            if let Some((_, Some(first))) = conditionals.pop() {
                stack = first;
                record(&mut out, end, &stack);
            }
        }
        Token::Directive(None, _) => {}
        // Only a named namespace's brace changes the names: the others are not recorded.
        Token::Open(at) => {
            let frame = pending.take().unwrap_or_default();
            let names = !frame.is_empty();
            stack.push(frame);
            if names {
                record(&mut out, at + 1, &stack);
            }
        }
        Token::Close(at) => {
            pending = None;
            if stack.pop().is_some_and(|frame| !frame.is_empty()) {
                record(&mut out, at, &stack);
            }
        }
        Token::Word(b"namespace") => pending = Some(Vec::new()),
        Token::Word(b"inline") => {}
        Token::Word(word) => {
            if let Some(names) = &mut pending {
                if word[0].is_ascii_digit() {
                    pending = None;
                } else {
                    names.push(String::from_utf8_lossy(word).into_owned());
                }
            }
        }
        // `a::b`: the names go on.
        Token::Punct(b':') => {}
        Token::Punct(_) => pending = None,
    });
    out
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
