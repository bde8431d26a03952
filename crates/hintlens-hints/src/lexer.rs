//! Just enough lexing of Python and Java source to answer two questions the file index does
//! not: where a Python `def`/`class` header ends (FEA-Bench spells signatures by source line),
//! and which string literals sit in an error context (NoCode-bench's `error_msg` entities).
//!
//! The lexer knows strings, comments and brackets, nothing else; it never fails, and on
//! malformed input it answers what it can.

use std::collections::HashSet;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Lang {
    Python,
    Java,
}

impl Lang {
    pub fn of(path: &str) -> Option<Lang> {
        if path.ends_with(".py") || path.ends_with(".pyi") {
            Some(Lang::Python)
        } else if path.ends_with(".java") {
            Some(Lang::Java)
        } else {
            None
        }
    }
}

fn is_ident(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b >= 0x80
}

struct Cursor<'a> {
    text: &'a [u8],
    pos: usize,
    lang: Lang,
}

impl Cursor<'_> {
    fn peek(&self, ahead: usize) -> Option<u8> {
        self.text.get(self.pos + ahead).copied()
    }

    fn starts_with(&self, s: &[u8]) -> bool {
        self.text[self.pos..].starts_with(s)
    }

    /// Skips a comment if one starts here.
    fn skip_comment(&mut self) -> bool {
        let line_comment = match self.lang {
            Lang::Python => self.starts_with(b"#"),
            Lang::Java => self.starts_with(b"//"),
        };
        if line_comment {
            while self.peek(0).is_some_and(|b| b != b'\n') {
                self.pos += 1;
            }
            return true;
        }
        if self.lang == Lang::Java && self.starts_with(b"/*") {
            self.pos += 2;
            while self.pos < self.text.len() && !self.starts_with(b"*/") {
                self.pos += 1;
            }
            self.pos = (self.pos + 2).min(self.text.len());
            return true;
        }
        false
    }

    /// The length of a Python string prefix (`r`, `f`, `rb`, …) followed by a quote at `pos`.
    fn string_prefix(&self) -> Option<usize> {
        if self.lang == Lang::Java {
            return matches!(self.peek(0), Some(b'"' | b'\'')).then_some(0);
        }
        let mut n = 0;
        while n < 2 && self.peek(n).is_some_and(|b| b"rRbBuUfFtT".contains(&b)) {
            n += 1;
        }
        // Callers stand at the start of a token, so `r"` is a prefix, never a name's end.
        matches!(self.peek(n), Some(b'"' | b'\'')).then_some(n)
    }

    /// Skips a string literal if one starts here; returns its prefix.
    fn skip_string(&mut self) -> Option<&[u8]> {
        let start = self.pos;
        let prefix = self.string_prefix()?;
        self.pos += prefix;
        let quote = self.peek(0)?;
        let triple = self.peek(1) == Some(quote) && self.peek(2) == Some(quote);
        let closing: &[u8] =
            if triple { &self.text[self.pos..self.pos + 3] } else { &self.text[self.pos..self.pos + 1] };
        let closing = closing.to_vec();
        self.pos += closing.len();
        while self.pos < self.text.len() {
            match self.peek(0) {
                // A backslash escapes the next byte, in raw strings too (`r"\""` is one string).
                Some(b'\\') => self.pos += 2,
                Some(b'\n') if !triple => break,
                _ if self.starts_with(&closing) => {
                    self.pos += closing.len();
                    break;
                }
                _ => self.pos += 1,
            }
        }
        self.pos = self.pos.min(self.text.len());
        Some(&self.text[start..start + prefix])
    }
}

/// Where a Python `def`/`class` header ends: the byte after its colon, and where the body's
/// first statement starts (`None` if the file ends first).
pub(crate) struct HeaderEnd {
    /// Zero-based line of the body's first token.
    pub body_line: u32,
    /// The prefix of the body's first token if it is a string literal (a docstring): `""`,
    /// `"r"`, `"u"`…
    pub docstring_prefix: Option<String>,
}

/// Scans from `from` (a byte inside the header, after the name) to the colon that ends the
/// header, then to the body's first token.
pub(crate) fn python_header_end(text: &[u8], from: usize) -> Option<HeaderEnd> {
    let mut c = Cursor { text, pos: from, lang: Lang::Python };
    let mut depth = 0usize;
    while c.pos < text.len() {
        if c.skip_comment() || c.skip_string().is_some() {
            continue;
        }
        match c.peek(0)? {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth = depth.saturating_sub(1),
            b':' if depth == 0 => {
                c.pos += 1;
                break;
            }
            _ => {}
        }
        c.pos += 1;
    }
    // The body: the first token after the colon that is no whitespace, comment or line joint.
    loop {
        match c.peek(0)? {
            b' ' | b'\t' | b'\r' | b'\n' | b'\x0c' => c.pos += 1,
            b'\\' if matches!(c.peek(1), Some(b'\n' | b'\r')) => c.pos += 2,
            _ if c.skip_comment() => {}
            _ => break,
        }
    }
    let body_line = text[..c.pos].iter().filter(|&&b| b == b'\n').count() as u32;
    let docstring_prefix = c.skip_string().map(|p| String::from_utf8_lossy(p).into_owned());
    Some(HeaderEnd { body_line, docstring_prefix })
}

/// A Python source line without its comment (a `#` outside strings) and surrounding
/// whitespace.
pub(crate) fn strip_python_comment(line: &str) -> &str {
    let mut c = Cursor { text: line.as_bytes(), pos: 0, lang: Lang::Python };
    while c.pos < line.len() {
        if c.peek(0) == Some(b'#') {
            return line[..c.pos].trim();
        }
        if c.skip_string().is_none() {
            c.pos += 1;
        }
    }
    line.trim()
}

/// Callees whose string arguments are error messages (the last component of the callee).
const MESSAGE_CALLEES: &[&str] = &[
    "raises",
    "assertRaisesRegex",
    "assertRaisesRegexp",
    "assertRaisesMessage",
    "expectMessage",
    "hasMessage",
    "hasMessageContaining",
    "hasMessageStartingWith",
    "hasMessageEndingWith",
    "withMessage",
    "withMessageContaining",
];

/// An open bracket and what it calls.
struct Frame {
    /// `raise E(`, `throw new E(`, `pytest.raises(`.
    error: bool,
    /// `assertEquals(`, `assertThat(`: an error message only when the line reads the
    /// exception's message.
    assertion: bool,
}

/// The start bytes of the string literals that sit in an error context: anywhere inside the
/// arguments of `raise E(…)` / `throw new E(…)` or of a call that matches exception messages
/// (`pytest.raises(…, match=…)`, `assertRaisesRegex`, AssertJ `hasMessage`, JUnit's
/// `expectMessage`), or in an assertion on a line that reads `getMessage()`.
pub(crate) fn error_strings(text: &[u8], lang: Lang) -> HashSet<u32> {
    let mut c = Cursor { text, pos: 0, lang };
    let mut out = HashSet::new();
    let mut frames: Vec<Frame> = Vec::new();
    // Consecutive words (dotted chains merged) since the last punctuation.
    let mut words: Vec<String> = Vec::new();
    let mut after_dot = false;
    let mut after_word = false;
    while c.pos < text.len() {
        let start = c.pos;
        if c.skip_comment() {
            continue;
        }
        if c.skip_string().is_some() {
            let line = line_around(text, start);
            let message_assertion =
                frames.last().is_some_and(|f| f.assertion) && line.windows(12).any(|w| w == b"getMessage()");
            if frames.iter().any(|f| f.error) || message_assertion {
                out.insert(start as u32);
            }
            words.clear();
            (after_dot, after_word) = (false, false);
            continue;
        }
        let b = text[c.pos];
        if is_ident(b) {
            while c.peek(0).is_some_and(is_ident) {
                c.pos += 1;
            }
            let word = String::from_utf8_lossy(&text[start..c.pos]).into_owned();
            match words.last_mut() {
                Some(last) if after_dot => {
                    last.push('.');
                    last.push_str(&word);
                }
                _ => words.push(word),
            }
            (after_dot, after_word) = (false, true);
            continue;
        }
        c.pos += 1;
        match b {
            b'.' => after_dot = true,
            b' ' | b'\t' | b'\r' => {}
            b'\n' if !frames.is_empty() => {}
            b'(' | b'[' | b'{' => {
                let callee = if after_word && b == b'(' { words.last().map(String::as_str) } else { None };
                let last = callee.map(|c| c.rsplit('.').next().unwrap_or(c));
                let before: Vec<&str> = words.iter().rev().skip(1).map(String::as_str).collect();
                let error = callee.is_some()
                    && match lang {
                        Lang::Python => before.first() == Some(&"raise"),
                        Lang::Java => before.first() == Some(&"new") && before.get(1) == Some(&"throw"),
                    }
                    || last.is_some_and(|l| MESSAGE_CALLEES.contains(&l));
                let assertion = last.is_some_and(|l| l.starts_with("assert"));
                frames.push(Frame { error, assertion });
                words.clear();
                (after_dot, after_word) = (false, false);
            }
            b')' | b']' | b'}' => {
                frames.pop();
                words.clear();
                (after_dot, after_word) = (false, false);
            }
            _ => {
                words.clear();
                (after_dot, after_word) = (false, false);
            }
        }
    }
    out
}

/// The line of `text` that holds byte `at`.
fn line_around(text: &[u8], at: usize) -> &[u8] {
    let start = text[..at].iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    let end = text[at..].iter().position(|&b| b == b'\n').map_or(text.len(), |i| at + i);
    &text[start..end]
}

/// Evaluates Python's string escapes, as the compiler does for a non-raw literal (unknown
/// escapes stay as written, as CPython keeps them).
pub(crate) fn python_unescape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars().peekable();
    while let Some(ch) = chars.next() {
        if ch != '\\' {
            out.push(ch);
            continue;
        }
        let Some(next) = chars.next() else {
            out.push('\\');
            break;
        };
        let simple = match next {
            '\n' => Some(None),
            '\\' => Some(Some('\\')),
            '\'' => Some(Some('\'')),
            '"' => Some(Some('"')),
            'a' => Some(Some('\x07')),
            'b' => Some(Some('\x08')),
            'f' => Some(Some('\x0c')),
            'n' => Some(Some('\n')),
            'r' => Some(Some('\r')),
            't' => Some(Some('\t')),
            'v' => Some(Some('\x0b')),
            _ => None,
        };
        if let Some(replacement) = simple {
            out.extend(replacement);
            continue;
        }
        let (radix, len) = match next {
            '0'..='7' => (8, 3),
            'x' => (16, 2),
            'u' => (16, 4),
            'U' => (16, 8),
            _ => (0, 0),
        };
        let mut digits = String::new();
        if radix == 8 {
            digits.push(next);
        }
        while digits.len() < len && chars.peek().is_some_and(|c| c.is_digit(radix.max(2))) {
            digits.extend(chars.next());
        }
        match (radix, u32::from_str_radix(&digits, radix.max(2)).ok().and_then(char::from_u32)) {
            (8, Some(c)) => out.push(c),
            (16, Some(c)) if digits.len() == len => out.push(c),
            _ => {
                out.push('\\');
                out.push(next);
                if radix != 8 {
                    out.push_str(&digits);
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header(src: &str, name: &str) -> (u32, Option<String>) {
        let at = src.find(name).unwrap() + name.len();
        let end = python_header_end(src.as_bytes(), at).unwrap();
        (end.body_line, end.docstring_prefix)
    }

    #[test]
    fn header_end_skips_brackets_strings_and_comments() {
        let src = "def f(a: dict = {'k': 1},  # c: d\n      b=\")\") -> 'X:Y':\n    # lead\n    r\"\"\"Doc.\"\"\"\n";
        assert_eq!(header(src, "def f"), (3, Some("r".into())));
        assert_eq!(header("def f(): return 1\n", "def f"), (0, None));
        assert_eq!(header("class A(B):\n\n    x = 1\n", "class A"), (2, None));
        assert_eq!(header("def f[T](x: T) -> T:\n    '''d'''\n", "def f"), (1, Some(String::new())));
    }

    #[test]
    fn comments_are_stripped_outside_strings() {
        assert_eq!(strip_python_comment("  def f(a,  # the a"), "def f(a,");
        assert_eq!(strip_python_comment("sep: str = \"#\") -> None:  # x"), "sep: str = \"#\") -> None:");
        assert_eq!(strip_python_comment("    # only a comment"), "");
    }

    #[test]
    fn error_contexts_in_python() {
        let src = r#"
raise ValueError("bad width")
raise ValueError(fmt("nested %s", x))
msg = "plain"
with pytest.raises(ValueError, match="bad width"):
    f(key="not an error")
self.assertRaisesRegex(KeyError, "missing", g)
"#;
        let flagged = error_strings(src.as_bytes(), Lang::Python);
        let at = |s: &str| src.find(s).unwrap() as u32;
        assert!(flagged.contains(&at("\"bad width\")")));
        assert!(flagged.contains(&at("\"nested %s\"")));
        assert!(!flagged.contains(&at("\"plain\"")));
        assert!(flagged.contains(&at("\"bad width\"):")));
        assert!(!flagged.contains(&at("\"not an error\"")));
        assert!(flagged.contains(&at("\"missing\"")));
    }

    #[test]
    fn error_contexts_in_java() {
        let src = r#"
if (x < 0) throw new IllegalArgumentException("negative: " + x); // "comment"
String s = "plain";
assertEquals("negative: -1", e.getMessage());
assertEquals("other", value);
assertThat(e).hasMessage("boom");
"#;
        let flagged = error_strings(src.as_bytes(), Lang::Java);
        let at = |s: &str| src.find(s).unwrap() as u32;
        assert!(flagged.contains(&at("\"negative: \"")));
        assert!(!flagged.contains(&at("\"plain\"")));
        assert!(flagged.contains(&at("\"negative: -1\"")));
        assert!(!flagged.contains(&at("\"other\"")));
        assert!(flagged.contains(&at("\"boom\"")));
        assert_eq!(flagged.len(), 3);
    }

    #[test]
    fn unescape_matches_python() {
        assert_eq!(python_unescape(r#"Defaults to "\\\\n"."#), r#"Defaults to "\\n"."#);
        assert_eq!(python_unescape(r"a\tb\nc\x41\101\u00e9\q"), "a\tb\ncAA\u{e9}\\q");
        assert_eq!(python_unescape("line\\\ncontinued"), "linecontinued");
    }
}
