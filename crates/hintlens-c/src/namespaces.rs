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

use crate::scan::{Directive, Token, Want, scan_wanting};

/// The namespace names enclosing each stretch of a file: `(from, names)` in byte order, each
/// holding up to the next.
#[derive(Debug, Default)]
pub(crate) struct Namespaces {
    changes: Vec<(usize, Vec<String>)>,
    /// Whether the text opens an `inline namespace` (an ABI tag a definition's identity leaves
    /// out, [`hintlens_syntax::scoping`]).
    pub(crate) opens_inline: bool,
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
    let mut reader = Reader::default();
    scan_wanting(text, Reader::WORDS, Want::Sparse, |token| {
        if let Some(at) = reader.read(&token) {
            let names: Vec<String> = reader.names().cloned().collect();
            if out.changes.last().is_none_or(|(_, last)| *last != names) {
                out.changes.push((at, names));
            }
        }
        reader.wants()
    });
    out.opens_inline = reader.opens_inline;
    out
}

/// The namespaces open at each point of a text, read token by token ([`scan`]'s): what
/// [`namespaces`] records, for a reader that wants them only where it stops.
#[derive(Debug, Default)]
pub(crate) struct Reader {
    stack: Vec<Frame>,
    /// Per open conditional: the state before it, and its first branch's state at its end.
    conditionals: Vec<(Vec<Frame>, Option<Vec<Frame>>)>,
    /// After `namespace`: the names read so far, until its `{` (or anything else: an alias).
    pending: Option<Vec<String>>,
    /// Whether the last word was `inline`.
    after_inline: bool,
    /// Whether the text read so far opens an `inline namespace`.
    pub(crate) opens_inline: bool,
}

impl Reader {
    /// The only words a reader waiting for a namespace reads ([`Reader::wants`]).
    pub(crate) const WORDS: &'static [&'static [u8]] = &[b"namespace", b"inline"];

    /// What the reader reads next: every token after `inline` and within a namespace's head,
    /// else only braces, directives and [`Reader::WORDS`] (the others change nothing then).
    pub(crate) fn wants(&self) -> Want {
        if self.pending.is_some() || self.after_inline { Want::All } else { Want::Sparse }
    }

    /// The names open after the tokens read, outermost first.
    pub(crate) fn names(&self) -> impl Iterator<Item = &String> {
        self.stack.iter().flatten()
    }

    /// Reads `token`; the byte from which the names may have changed, if they may.
    pub(crate) fn read(&mut self, token: &Token<'_>) -> Option<usize> {
        let inline = std::mem::take(&mut self.after_inline);
        match *token {
            Token::Directive(Some(Directive::If), _) => self.conditionals.push((self.stack.clone(), None)),
            Token::Directive(Some(Directive::Else), ref directive) => {
                let (before, first) = self.conditionals.last_mut()?;
                if first.is_none() {
                    *first = Some(std::mem::replace(&mut self.stack, before.clone()));
                } else {
                    self.stack = before.clone();
                }
                return Some(directive.end);
            }
            Token::Directive(Some(Directive::Endif), ref directive) => {
                if let Some((_, Some(first))) = self.conditionals.pop() {
                    self.stack = first;
                    return Some(directive.end);
                }
            }
            Token::Directive(None, _) | Token::Unsure => {}
            // Only a named namespace's brace changes the names.
            Token::Open(at) => {
                let frame = self.pending.take().unwrap_or_default();
                let names = !frame.is_empty();
                self.stack.push(frame);
                if names {
                    return Some(at + 1);
                }
            }
            Token::Close(at) => {
                self.pending = None;
                if self.stack.pop().is_some_and(|frame| !frame.is_empty()) {
                    return Some(at);
                }
            }
            Token::Word(b"namespace") => {
                self.opens_inline |= inline;
                self.pending = Some(Vec::new());
            }
            Token::Word(b"inline") => self.after_inline = true,
            Token::Word(word) => {
                if let Some(names) = &mut self.pending {
                    if word[0].is_ascii_digit() {
                        self.pending = None;
                    } else {
                        names.push(String::from_utf8_lossy(word).into_owned());
                    }
                }
            }
            // `a::b`: the names go on.
            Token::Punct(b':') => {}
            Token::Punct(_) => self.pending = None,
        }
        None
    }
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
