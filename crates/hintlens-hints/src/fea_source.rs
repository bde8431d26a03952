//! Just enough lexing of Python source for FEA-Bench's compatibility rendering, which spells
//! signatures by source line as FEA-Bench does (FEA-Bench only knows Python): where a
//! `def`/`class` header ends, a line without its comment, a literal's escapes evaluated.
//!
//! The lexer knows strings, comments and brackets, nothing else; it never fails, and on
//! malformed input it answers what it can.

struct Cursor<'a> {
    text: &'a [u8],
    pos: usize,
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
        if !self.starts_with(b"#") {
            return false;
        }
        while self.peek(0).is_some_and(|b| b != b'\n') {
            self.pos += 1;
        }
        true
    }

    /// The length of a string prefix (`r`, `f`, `rb`, …) followed by a quote at `pos`.
    fn string_prefix(&self) -> Option<usize> {
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
    let mut c = Cursor { text, pos: from };
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
    let mut c = Cursor { text: line.as_bytes(), pos: 0 };
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
    fn unescape_matches_python() {
        assert_eq!(python_unescape(r#"Defaults to "\\\\n"."#), r#"Defaults to "\\n"."#);
        assert_eq!(python_unescape(r"a\tb\nc\x41\101\u00e9\q"), "a\tb\ncAA\u{e9}\\q");
        assert_eq!(python_unescape("line\\\ncontinued"), "linecontinued");
    }
}
