//! Words of source text, told apart by where they stand: in code, or in a comment or string
//! literal. A lexer, not a parser: it knows each language's comment and string syntax and
//! nothing else, so it reads a file at memory speed. It is what "the name occurs as an
//! identifier in the base" means for repository-wide facts (`base_occurrences`): a word outside
//! comments and strings.
//!
//! Known approximations, all about what counts as string text: interpolations of Python
//! f-strings are string text; a JavaScript regular-expression literal is code; a Rust `'a'`
//! is a character and `'a` a lifetime, told apart by the closing quote; a PHP string, like
//! most here, ends at its line's end unless closed on it (one stray quote in inline HTML or a
//! `#` comment must not swallow the rest of a file), and a heredoc's body is code.

/// The comment and string syntax of a language family.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dialect {
    /// `#` comments; `'`/`"` strings, tripled or not, after any prefix (`r`, `b`, `f`, `rb`…).
    Python,
    /// `//` and `/* */` comments and `"` strings, plus what [`CStyle`] adds.
    C(CStyle),
    /// `#` comments; `'` strings, and `"` strings and `` ` `` commands whose `#{…}` is code
    /// (Ruby: `"#{cart.total} left"` uses `cart` and `total`).
    Ruby,
}

/// What a C-family language adds to `//`, `/* */` and `"…"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct CStyle {
    /// `'…'` is a string (JavaScript) rather than a character (Java, Go, Rust).
    pub single_quote_strings: bool,
    /// `` `…` `` is a raw string (Go) or a template whose `${…}` is code (JavaScript).
    pub backtick: Backtick,
    /// Block comments nest (Rust).
    pub nested_comments: bool,
    /// `r"…"`, `r#"…"#`, `br"…"` raw strings and `'a` lifetimes (Rust).
    pub rust: bool,
    /// `"""…"""` text blocks (Java).
    pub text_blocks: bool,
    /// `"…"` interpolates (PHP): `{$…}` and `${…}` are code, and so are a `$name` and the
    /// `->property` after it (`"$user->name"` uses `user` and `name`).
    pub php: bool,
}

impl CStyle {
    /// `//`, `/* */` and `"…"` alone (Java's family), written where a constant is wanted:
    /// `CStyle { rust: true, ..CStyle::PLAIN }`.
    pub const PLAIN: CStyle = CStyle {
        single_quote_strings: false,
        backtick: Backtick::Code,
        nested_comments: false,
        rust: false,
        text_blocks: false,
        php: false,
    };
}

impl Dialect {
    /// Whether the comments this lexer sees are the language's own. Not in JavaScript, whose
    /// regular-expression literals it reads as code: a `//` or `/*` inside one opens a comment
    /// that is not there, and may hide the code and strings after it. Nor in Ruby, whose
    /// heredocs, `%q(…)` and regular expressions it does not know: a `#` in one is no comment.
    pub fn comments_are_exact(self) -> bool {
        !matches!(self, Dialect::C(CStyle { backtick: Backtick::Template, .. }) | Dialect::Ruby)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Backtick {
    #[default]
    Code,
    Raw,
    Template,
}

/// Where a word stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place {
    Code,
    /// In a comment or a string literal.
    Text,
}

/// Identifier bytes: ASCII letters, digits, `_`, `$` (Java's and JavaScript's), and every byte
/// of a multi-byte UTF-8 sequence.
pub fn is_word_byte(b: u8) -> bool {
    WORD[b as usize]
}

/// [`is_word_byte`] as a table: the lexer asks it of every byte it reads.
static WORD: [bool; 256] = {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        table[b] = c.is_ascii_alphanumeric() || c == b'_' || c == b'$' || c >= 0x80;
        b += 1;
    }
    table
};

/// The bytes code stops at in `dialect`: word bytes, and those at which code may turn into
/// something else (a comment, a string, the end of a template interpolation). Every other byte
/// is skipped with one table lookup (measured against a word-byte lookup then an opener lookup:
/// lexing 11% faster on qutebrowser's and jackson-databind's sources).
fn stops(dialect: Dialect) -> [bool; 256] {
    let mut table = WORD;
    let bytes: &[u8] = match dialect {
        Dialect::Python => b"#\"'{}",
        Dialect::Ruby => b"#\"'`{}",
        Dialect::C(_) => b"/\"'`{}",
    };
    for &b in bytes {
        table[b as usize] = true;
    }
    table
}

/// Which words of comments and string literals [`words`] reads. What it does not read it skips
/// unread: it still finds where each comment or string ends, but at `memchr` speed, and hashes
/// nothing of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct TextWords {
    pub strings: bool,
    pub comments: bool,
}

impl TextWords {
    /// Code words only.
    pub const NONE: TextWords = TextWords { strings: false, comments: false };
    pub const ALL: TextWords = TextWords { strings: true, comments: true };
}

/// Calls `out` with every maximal run of identifier bytes of `text` and where it stands: every
/// word of the code, and those of the comments and strings `read` asks for.
pub fn words(text: &[u8], dialect: Dialect, read: TextWords, out: impl FnMut(&[u8], Place)) {
    let mut lexer = Lexer { text, at: 0, dialect, stops: stops(dialect), read, out };
    lexer.code(None);
}

struct Lexer<'t, F> {
    text: &'t [u8],
    at: usize,
    dialect: Dialect,
    stops: [bool; 256],
    read: TextWords,
    out: F,
}

impl<F: FnMut(&[u8], Place)> Lexer<'_, F> {
    fn peek(&self, offset: usize) -> u8 {
        self.text.get(self.at + offset).copied().unwrap_or(0)
    }

    fn starts_with(&self, s: &[u8]) -> bool {
        self.text[self.at..].starts_with(s)
    }

    /// Emits the words of the string literal `text[from..to]`, if they are read.
    fn string_words(&mut self, from: usize, to: usize) {
        if self.read.strings {
            self.text_words(from, to);
        }
    }

    /// Emits the words of the comment `text[from..to]`, if they are read.
    fn comment_words(&mut self, from: usize, to: usize) {
        if self.read.comments {
            self.text_words(from, to);
        }
    }

    /// Emits the words of `text[from..to]` as text (comment or string content).
    fn text_words(&mut self, from: usize, to: usize) {
        let text = &self.text[..to];
        let mut i = from;
        while i < to {
            if !WORD[text[i] as usize] {
                i += 1;
                continue;
            }
            let start = i;
            while i < to && WORD[text[i] as usize] {
                i += 1;
            }
            (self.out)(&text[start..i], Place::Text);
        }
    }

    /// Code until the end, or until the `}` closing a template interpolation when `close` is
    /// set (braces opened inside are counted).
    fn code(&mut self, close: Option<u8>) {
        let mut depth = 0usize;
        let text = self.text;
        let len = text.len();
        loop {
            let mut at = self.at;
            // Skip what is neither a word nor an opener, one table lookup a byte.
            while let Some(&c) = text.get(at) {
                if self.stops[c as usize] {
                    break;
                }
                at += 1;
            }
            if at >= len {
                self.at = len;
                return;
            }
            let b = text[at];
            if WORD[b as usize] {
                let start = at;
                at += 1;
                while let Some(&c) = text.get(at) {
                    if !WORD[c as usize] {
                        break;
                    }
                    at += 1;
                }
                self.at = at;
                let word = &text[start..at];
                if self.string_prefix(word) {
                    continue;
                }
                (self.out)(word, Place::Code);
                continue;
            }
            self.at = at;
            match (self.dialect, b) {
                (_, b'{') if close.is_some() => depth += 1,
                (_, b'}') if close.is_some() => {
                    if depth == 0 {
                        self.at += 1;
                        return;
                    }
                    depth -= 1;
                }
                (Dialect::Python, b'#') => {
                    self.line_comment();
                    continue;
                }
                (Dialect::Python, b'"' | b'\'') => {
                    self.python_string();
                    continue;
                }
                // An interpolation where the lexer sees no string (a heredoc's body, a regular
                // expression, `%Q(…)`): code, not a comment. One word too many, never too few.
                (Dialect::Ruby, b'#') if self.peek(1) == b'{' => {
                    self.at += 1;
                    continue;
                }
                (Dialect::Ruby, b'#') => {
                    self.line_comment();
                    continue;
                }
                (Dialect::Ruby, b'\'') => {
                    self.quoted(b'\'', false);
                    continue;
                }
                (Dialect::Ruby, b'"' | b'`') => {
                    self.interpolated(b, b'#', false);
                    continue;
                }
                (Dialect::C(_), b'/') if self.peek(1) == b'/' => {
                    self.line_comment();
                    continue;
                }
                (Dialect::C(style), b'/') if self.peek(1) == b'*' => {
                    self.block_comment(style.nested_comments);
                    continue;
                }
                (Dialect::C(CStyle { php: true, .. }), b'"') => {
                    self.php_quoted();
                    continue;
                }
                (Dialect::C(style), b'"') => {
                    if style.text_blocks && self.starts_with(b"\"\"\"") {
                        self.delimited(3, b"\"\"\"");
                    } else {
                        self.quoted(b'"', style.rust);
                    }
                    continue;
                }
                (Dialect::C(style), b'\'') => {
                    if style.single_quote_strings {
                        self.quoted(b'\'', false);
                    } else {
                        self.character(style.rust);
                    }
                    continue;
                }
                (Dialect::C(style), b'`') => match style.backtick {
                    Backtick::Code => {}
                    Backtick::Raw => {
                        self.delimited(1, b"`");
                        continue;
                    }
                    Backtick::Template => {
                        self.interpolated(b'`', b'$', true);
                        continue;
                    }
                },
                _ => {}
            }
            self.at += 1;
        }
    }

    /// A word that opens a string right after it (`f"…"`, `rb'…'`, Rust's `r#"…"#`, `b"…"`):
    /// lexes the string and says so; the prefix is no word of the code.
    fn string_prefix(&mut self, word: &[u8]) -> bool {
        let next = self.peek(0);
        match self.dialect {
            Dialect::Python => {
                let prefix =
                    word.len() <= 2 && word.iter().all(|c| matches!(c.to_ascii_lowercase(), b'r' | b'b' | b'u' | b'f'));
                if prefix && matches!(next, b'"' | b'\'') {
                    self.python_string();
                    return true;
                }
                false
            }
            Dialect::C(style) if style.rust => match word {
                b"r" | b"br" | b"cr" if next == b'"' || next == b'#' => {
                    let hashes = self.text[self.at..].iter().take_while(|&&c| c == b'#').count();
                    if self.peek(hashes) != b'"' {
                        return false;
                    }
                    let mut closing = vec![b'"'];
                    closing.extend(std::iter::repeat_n(b'#', hashes));
                    self.delimited(hashes + 1, &closing);
                    true
                }
                b"b" | b"c" if next == b'"' => {
                    self.quoted(b'"', true);
                    true
                }
                b"b" if next == b'\'' => {
                    self.character(false);
                    true
                }
                _ => false,
            },
            Dialect::C(_) | Dialect::Ruby => false,
        }
    }

    fn line_comment(&mut self) {
        let end = memchr_from(self.text, self.at, b'\n');
        self.comment_words(self.at, end);
        self.at = end;
    }

    fn block_comment(&mut self, nested: bool) {
        let start = self.at;
        self.at += 2;
        let mut depth = 1;
        while self.at < self.text.len() {
            if self.starts_with(b"*/") {
                self.at += 2;
                depth -= 1;
                if depth == 0 {
                    break;
                }
            } else if nested && self.starts_with(b"/*") {
                self.at += 2;
                depth += 1;
            } else {
                self.at += 1;
            }
        }
        self.comment_words(start, self.at);
    }

    /// A string closed by `quote`, with backslash escapes. Unless the language lets it span
    /// lines (Rust), an unclosed one ends at the line's end: a lexer must not swallow the rest
    /// of a file over one stray quote.
    fn quoted(&mut self, quote: u8, multiline: bool) {
        let start = self.at;
        self.at += 1;
        while self.at < self.text.len() {
            let Some(skip) = memchr::memchr3(quote, b'\\', b'\n', &self.text[self.at..]) else {
                self.at = self.text.len();
                break;
            };
            self.at += skip;
            match self.text[self.at] {
                b'\\' => self.at += 2,
                b'\n' if !multiline => break,
                b'\n' => self.at += 1,
                _ => {
                    self.at += 1;
                    break;
                }
            }
        }
        self.at = self.at.min(self.text.len());
        self.string_words(start, self.at);
    }

    /// Text opened by `open_len` bytes and closed by `closing` (raw strings, text blocks):
    /// no escapes end it early. Unclosed, it runs to the end.
    fn delimited(&mut self, open_len: usize, closing: &[u8]) {
        let start = self.at;
        self.at += open_len;
        while self.at < self.text.len() && !self.starts_with(closing) {
            // Text blocks have escapes; a raw string's backslash is just a byte, and skipping
            // the next one only matters before a closing quote, which raw strings cannot hold.
            if self.text[self.at] == b'\\' && closing == b"\"\"\"" {
                self.at += 1;
            }
            self.at += 1;
        }
        self.at = (self.at + closing.len()).min(self.text.len());
        self.string_words(start, self.at);
    }

    /// `'x'`, `'\n'`, `'\u{1F600}'` — or, in Rust, a lifetime `'a` (no closing quote).
    fn character(&mut self, rust: bool) {
        let rest = &self.text[self.at + 1..];
        let close = if rest.first() == Some(&b'\\') {
            // Past the backslash and the byte it escapes (`'\''`).
            rest.iter().skip(2).take(11).position(|&c| c == b'\'').map(|p| p + 2)
        } else {
            // One character, up to four UTF-8 bytes.
            rest.iter().take(5).position(|&c| c == b'\'').filter(|&p| p >= 1)
        };
        match close {
            Some(p) => {
                let end = self.at + 1 + p + 1;
                self.string_words(self.at, end);
                self.at = end;
            }
            // A lifetime or label: the quote is punctuation, the name a word of the code.
            None if rust => self.at += 1,
            None => self.quoted(b'\'', false),
        }
    }

    /// A string closed by `quote` whose `<sigil>{…}` interpolations are code: JavaScript's
    /// template (`` `a ${b} c` ``, spanning lines), a Ruby string or command (`"a #{b} c"`,
    /// which ends at the line's end when unclosed, as [`Lexer::quoted`] does).
    fn interpolated(&mut self, quote: u8, sigil: u8, multiline: bool) {
        self.at += 1;
        let mut start = self.at;
        while self.at < self.text.len() {
            match self.text[self.at] {
                b'\\' => self.at += 2,
                b'\n' if !multiline => break,
                c if c == quote => break,
                c if c == sigil && self.peek(1) == b'{' => start = self.interpolation(start, 2),
                _ => self.at += 1,
            }
        }
        self.string_end(start);
    }

    /// Within an interpolating string: its text since `start`, then the code of the
    /// interpolation opened `open_len` bytes on, up to its closing brace. Where the text resumes.
    fn interpolation(&mut self, start: usize, open_len: usize) -> usize {
        self.string_words(start, self.at);
        self.at += open_len;
        self.code(Some(b'}'));
        self.at
    }

    /// An interpolating string's last stretch of text, from `start` to its closing quote (or the
    /// line's or text's end), and the quote.
    fn string_end(&mut self, start: usize) {
        let end = self.at.min(self.text.len());
        self.string_words(start.min(end), end);
        self.at = (end + 1).min(self.text.len());
    }

    /// A PHP `"…"` string: [`Lexer::quoted`] whose interpolations are code ([`CStyle::php`]).
    fn php_quoted(&mut self) {
        self.at += 1;
        let mut start = self.at;
        while self.at < self.text.len() {
            match self.text[self.at] {
                b'\\' => self.at += 2,
                b'\n' | b'"' => break,
                // `{$user->name()}` and `${name}`: code up to the brace closing them.
                b'{' if self.peek(1) == b'$' => start = self.interpolation(start, 1),
                b'$' if self.peek(1) == b'{' => start = self.interpolation(start, 2),
                // `$user` and `$user->name` (or `?->name`): PHP's simple interpolation reads one
                // property, no call. The variable keeps its `$`, as it does in code.
                b'$' if WORD[self.peek(1) as usize] && !self.peek(1).is_ascii_digit() => {
                    self.string_words(start, self.at);
                    self.code_word();
                    let arrow = [b"->".as_slice(), b"?->"].into_iter().find(|a| self.starts_with(a));
                    if let Some(arrow) = arrow
                        && WORD[self.peek(arrow.len()) as usize]
                    {
                        self.at += arrow.len();
                        self.code_word();
                    }
                    start = self.at;
                }
                _ => self.at += 1,
            }
        }
        self.string_end(start);
    }

    /// The word at `self.at`, as code.
    fn code_word(&mut self) {
        let start = self.at;
        while self.at < self.text.len() && WORD[self.text[self.at] as usize] {
            self.at += 1;
        }
        (self.out)(&self.text[start..self.at], Place::Code);
    }

    /// A Python string at a quote (its prefix already read): tripled or not.
    fn python_string(&mut self) {
        let quote = self.text[self.at];
        let triple = [quote; 3];
        if self.starts_with(&triple) {
            let start = self.at;
            self.at += 3;
            while self.at < self.text.len() {
                let Some(skip) = memchr::memchr2(quote, b'\\', &self.text[self.at..]) else {
                    self.at = self.text.len();
                    break;
                };
                self.at += skip;
                if self.text[self.at] == b'\\' {
                    self.at += 2;
                } else if self.starts_with(&triple) {
                    break;
                } else {
                    self.at += 1;
                }
            }
            self.at = (self.at + 3).min(self.text.len());
            self.string_words(start, self.at);
        } else {
            self.quoted(quote, false);
        }
    }
}

fn memchr_from(text: &[u8], from: usize, byte: u8) -> usize {
    memchr::memchr(byte, &text[from..]).map_or(text.len(), |p| from + p)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn code_words(text: &str, dialect: Dialect) -> Vec<String> {
        let mut out = Vec::new();
        words(text.as_bytes(), dialect, TextWords::ALL, |w, place| {
            if place == Place::Code {
                out.push(String::from_utf8_lossy(w).into_owned());
            }
        });
        out
    }

    #[test]
    fn python_comments_and_strings_are_text() {
        let text = "def fetch(url):  # fetch it\n    s = f'{url} ok' + rb\"raw\" + '''doc\nmore'''\n    return größe\n";
        assert_eq!(code_words(text, Dialect::Python), ["def", "fetch", "url", "s", "return", "größe"]);
    }

    #[test]
    fn c_family_comments_strings_characters_templates() {
        let java = CStyle { text_blocks: true, ..CStyle::default() };
        let text = "int a = 'x'; /* b */ String c = \"d\\\"e\"; // f\nString g = \"\"\"\nh\"\"\";";
        assert_eq!(code_words(text, Dialect::C(java)), ["int", "a", "String", "c", "String", "g"]);

        let go = CStyle { backtick: Backtick::Raw, ..CStyle::default() };
        assert_eq!(code_words("x := `raw ${y}` + z", Dialect::C(go)), ["x", "z"]);

        let js = CStyle { single_quote_strings: true, backtick: Backtick::Template, ..CStyle::default() };
        assert_eq!(code_words("const s = `a ${b({c: 1})} d` + 'e';", Dialect::C(js)), ["const", "s", "b", "c", "1"]);

        let rust = CStyle { nested_comments: true, rust: true, ..CStyle::default() };
        let text = "fn f<'a>(x: &'a str) -> char { /* a /* nested */ still */ let r = r#\"raw \"q\" \"#; 'y' }";
        assert_eq!(code_words(text, Dialect::C(rust)), ["fn", "f", "a", "x", "a", "str", "char", "let", "r"]);
    }

    #[test]
    fn an_escaped_character_ends_at_its_closing_quote() {
        let c = Dialect::C(CStyle::default());
        assert_eq!(code_words("f('\\n')x", c), ["f", "x"], "the byte after the quote is code");
        assert_eq!(code_words("f('\\'', y)", c), ["f", "y"], "an escaped quote does not close it");
        assert_eq!(code_words("c = '\\u{1F600}'z", c), ["c", "z"]);
        // At the very end of the text (found by the java fuzz target: it read past the end).
        let java = CStyle { text_blocks: true, ..CStyle::default() };
        assert_eq!(code_words("pa?'\\g\\{Age'", Dialect::C(java)), ["pa"]);
    }

    #[test]
    fn strings_end_at_their_own_unescaped_quote() {
        let py = Dialect::Python;
        assert_eq!(code_words("a = 'it\\'s' + b\n", py), ["a", "b"]);
        assert_eq!(code_words("a = '''x ' '' \\''' y''' + b\n", py), ["a", "b"]);
        assert_eq!(code_words("a = \"\"\"never closed\nc = 1\n", py), ["a"]);
        assert_eq!(code_words("a = 'x\\\\' + b\n", py), ["a", "b"], "an escaped backslash, then the quote");
        let rust = CStyle { nested_comments: true, rust: true, ..CStyle::default() };
        assert_eq!(code_words("let s = \"two\nlines\\\"\"; t", Dialect::C(rust)), ["let", "s", "t"]);
    }

    #[test]
    fn comments_and_strings_are_skipped_unread_when_their_words_are_not_wanted() {
        let text = "a = 'in string'  # in comment\nb = f'''{c}\n''' + d\n";
        let read = |read: TextWords| {
            let mut all = Vec::new();
            words(text.as_bytes(), Dialect::Python, read, |w, place| {
                all.push((String::from_utf8_lossy(w).into_owned(), place))
            });
            let of = |place| all.iter().filter(|(_, p)| *p == place).map(|(w, _)| w.clone()).collect::<Vec<_>>();
            (of(Place::Code), of(Place::Text))
        };
        let code = ["a", "b", "d"];
        assert_eq!(
            read(TextWords::ALL),
            (code.map(String::from).to_vec(), ["in", "string", "in", "comment", "c"].map(String::from).to_vec())
        );
        assert_eq!(read(TextWords { strings: true, comments: false }).1, ["in", "string", "c"]);
        assert_eq!(read(TextWords { strings: false, comments: true }).1, ["in", "comment"]);
        assert_eq!(read(TextWords::NONE), (code.map(String::from).to_vec(), vec![]));
        let java = CStyle { text_blocks: true, ..CStyle::default() };
        assert!(Dialect::Python.comments_are_exact() && Dialect::C(java).comments_are_exact());
        let js = CStyle { single_quote_strings: true, backtick: Backtick::Template, ..CStyle::default() };
        assert!(!Dialect::C(js).comments_are_exact(), "a regular expression can hold `//`");
    }

    #[test]
    fn php_interpolations_are_code() {
        let php =
            Dialect::C(CStyle { single_quote_strings: true, backtick: Backtick::Raw, php: true, ..CStyle::PLAIN });
        let text = "echo \"Hi {$user->fullName()}, ${count} of $cart->items and $order?->total[$i] $5\" . 'no $plain';";
        assert_eq!(
            code_words(text, php),
            ["echo", "$user", "fullName", "count", "$cart", "items", "$order", "total", "$i"]
        );
        // Braces in the interpolated code nest; a quote in it is the code's string, not the end.
        let text = "$s = \"{$map[\"k\"]->get(fn() => {})} x\" . $rest;";
        assert_eq!(code_words(text, php), ["$s", "$map", "get", "fn", "$rest"]);
        // Escaped, `\$name` is text; unclosed, the string ends at the line.
        assert_eq!(code_words("$a = \"\\$not {$yes}\n$b = 1;", php), ["$a", "$yes", "$b", "1"]);
    }

    #[test]
    fn an_unclosed_quote_ends_at_the_line() {
        assert_eq!(code_words("x = 'oops\ny = 1\n", Dialect::Python), ["x", "y", "1"]);
    }

    #[test]
    fn ruby_interpolations_are_code() {
        let text = "puts \"#{cart.total} left, #{h[\"k\"]}\" # total\n'#{no}' `ls #{dir}`\nx = \"oops\ny\n";
        assert_eq!(code_words(text, Dialect::Ruby), ["puts", "cart", "total", "h", "dir", "x", "y"]);
        // Where no string is seen (a heredoc's body, a regular expression), `#{…}` is no comment.
        let text = "msg = <<~MSG\n  left: #{cart.total_price}\nMSG\nok = /#{Cart::PATTERN}/ # why\n";
        assert_eq!(
            code_words(text, Dialect::Ruby),
            ["msg", "MSG", "left", "cart", "total_price", "MSG", "ok", "Cart", "PATTERN"]
        );
    }
}
