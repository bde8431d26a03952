//! Macros the grammar cannot read where they stand: a line holding nothing but a macro's name
//! (`FMT_EXPORT`, `NLOHMANN_JSON_NAMESPACE_BEGIN`, `Q_OBJECT`) or nothing but a call of one
//! with no `;` (`NLOHMANN_DEFINE_TYPE_INTRUSIVE(person, age, name)`,
//! `FMT_PRAGMA_CLANG(diagnostic push)`), standing between declarations or statements. What
//! such a macro expands to is unknown (attributes, `export`, a namespace's braces, whole
//! function definitions); tree-sitter, which cannot expand it, reads the name as a type or a
//! call and the declaration after it as its declarator, or breaks the class around it. The
//! grammar reads these lines as blank ([`READING`]); the walk reads them as uses of the macro
//! ([`stray_lines`]). So are macro names among a declaration's specifiers, where the grammar
//! would read them as a type and the keyword or type after them as a second one
//! (`FMT_NORETURN FMT_API void assert_fail(…);`, `FMT_EXPORT template <…>`,
//! `FMT_CONSTEXPR20 inline auto f()`, `static FMT_CONSTEXPR20 void grow(…)`): an error that
//! tree-sitter re-reads on every incremental parse, and that, in a class, can lose the class's
//! end with the rest of the file ([`macro_prefix`]).
//!
//! A macro's name is spelled in capitals, digits and `_`, at least three characters long with a
//! capital among them. Such a line is a stray macro only when the line before it does not go
//! on in it (a directive continued with `\`, a list or an expression ending in `,`, `(`, `=` or
//! an operator) and the next line says that a declaration or statement follows, so that the
//! last line of a macro's body, the last enumerator of an enum (`GREEN` before `};`), an
//! element of an initializer or a line of an expression is never taken for one:
//! - a name alone: the next line is blank, a comment, the file's end, or starts with a keyword
//!   that begins a declaration or statement (`template`, `namespace`, `class`, `static`,
//!   `void`, `public` …), another such name, `[[` or `~`;
//! - a call alone: the same, or any name, a `}` (a class's end after
//!   `NLOHMANN_DEFINE_TYPE_INTRUSIVE(…)`) or a directive (`#endif`) — not a `{`, an operator or
//!   a `,`, `;`, `)`;
//! - a call of a macro taking a body, its `{` after it (Catch2's `TEST_CASE("…", "[…]") {`,
//!   `SECTION("…")`, perhaps over lines): one a string literal is an argument of, after a
//!   statement's end ([`body_macro`]). The grammar would read it as a statement lacking its
//!   `;`, an error it re-reads each body around on every parse.
//!
//! The walk reads a stray call's names as uses and its string literals as strings; a keyword
//! among its arguments (`float` of `TEMPLATE_TEST_CASE("…", "[…]", float)`) names nothing.

use crate::scan::{Directive, Token, Want, directive, literal_end, scan_wanting};
use hintlens_syntax::scoping::{ScopeMacro, scope_ops};
use hintlens_tree::{Blanked, Reading};
use std::ops::Range;

/// What the C and C++ grammars read of a file: its stray macro lines blanked, and the
/// directives of its short conditionals that open or close a brace ([`unbalanced_conditionals`]).
/// A stray line's decision reads the lines before and after it; a conditional's, the
/// [`CONDITIONAL_LINES`] around it.
pub(crate) const READING: Reading<Notes> =
    Reading { notes, blank, lines_before: LINES_BEFORE, lines_after: LINES_AFTER };

/// What [`READING`] blanks and respells, which the walk reads itself: a file's stray macro
/// lines and gtest headers, found once per parse ([`hintlens_tree::extract_reading`]).
#[derive(Debug, Default)]
pub(crate) struct Notes {
    pub stray: Vec<StrayLine>,
    pub gtest: Vec<GtestHeader>,
}

fn notes(text: &[u8]) -> Notes {
    Notes { stray: stray_lines(text), gtest: gtest_headers(text) }
}

/// How many lines before a stretch [`READING`] blanks decide it, counted from its last line
/// (an edit there grows forward over it all): a conditional's ([`CONDITIONAL_LINES`]), the
/// code a macro taking a body follows ([`LOOK_BACK_LINES`], and the line before that decides
/// whether a macro line there is stray) and the lines of its call ([`BODY_CALL_LINES`]).
const LINES_BEFORE: usize = max(CONDITIONAL_LINES, LOOK_BACK_LINES + 1 + BODY_CALL_LINES);

/// How many lines after a stretch's first line decide it: a conditional's, or a macro taking a
/// body's call and the line of its `{`.
const LINES_AFTER: usize = max(CONDITIONAL_LINES, BODY_CALL_LINES + 1);

const fn max(a: usize, b: usize) -> usize {
    if a > b { a } else { b }
}

fn blank(text: &[u8], notes: &Notes) -> Blanked {
    let mut spaces: Vec<Range<usize>> = notes.stray.iter().map(|line| line.range.clone()).collect();
    // The file's lines once, for the rules read line by line.
    let lines = line_ranges(text);
    spaces.extend(unbalanced_conditionals(text, &lines));
    spaces.extend(directive_comments(text, &lines));
    spaces.extend(if_macros(text));
    spaces.extend(scoped_conditions(text, &lines));
    spaces.extend(trailing_macros(text, &lines));
    spaces.extend(reference_arguments(text, &lines));
    // A gtest header is read as its suite, its test and `()`, its `) ` respelled.
    let mut bytes = Vec::new();
    for test in &notes.gtest {
        spaces.extend([test.name.start..test.suite.start, test.suite.end..test.test.start, test.test.end..test.close]);
        bytes.extend([(test.close, b'('), (test.close + 1, b')')]);
    }
    Blanked { spaces, bytes }
}

/// gtest's macros that open a test's body.
pub(crate) const GTEST_TESTS: &[&[u8]] = &[b"TEST", b"TEST_F", b"TEST_P", b"TYPED_TEST", b"TYPED_TEST_P"];

/// A gtest test's header ([`gtest_headers`]): `TEST(Suite, Name) {`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct GtestHeader {
    /// The macro's name (`TEST`, `TEST_F` …).
    pub name: Range<usize>,
    pub suite: Range<usize>,
    pub test: Range<usize>,
    /// The call's `)`.
    pub close: usize,
}

/// gtest's tests, `TEST(Suite, Name) {` first on their line. The grammar reads such a header as
/// a function without a type, which only a constructor may be: it cannot tell until the body,
/// and the parse it keeps leaves no subtree of the file reusable after an edit (a line added to
/// fmt's `format-test.cc` re-read 35% of a parse from nothing, 10% read as below). So the header
/// is read as `     Suite  Name() {`, a function like any other, whose body the grammar reads as
/// it did; the walk defines the test `Name` of `Suite` from the text. Only where both names are
/// words no keyword spells (`TEST(format_test, enum)` stays as it is), the `)` is followed by a
/// blank and the `{` on its line, and the call spans at most [`BODY_CALL_LINES`] lines.
pub(crate) fn gtest_headers(text: &[u8]) -> Vec<GtestHeader> {
    let is_word = |b: &u8| b.is_ascii_alphanumeric() || *b == b'_';
    // The name starting at `at`, if it is one no keyword spells.
    let word = |at: usize| {
        let word = word_at(text, at).filter(|w| !w[0].is_ascii_digit())?;
        (!crate::CPP_SPEC.keywords.iter().any(|k| k.as_bytes() == word)).then_some(at..at + word.len())
    };
    let blanks = |mut at: usize| {
        while text.get(at).is_some_and(u8::is_ascii_whitespace) {
            at += 1;
        }
        at
    };
    let mut out: Vec<GtestHeader> = Vec::new();
    for found in memchr::memmem::find_iter(text, b"TEST") {
        let start = text[..found].iter().rposition(|b| !is_word(b)).map_or(0, |p| p + 1);
        let end = found + text[found..].iter().take_while(|b| is_word(b)).count();
        let line_start = text[..start].iter().rposition(|&b| b == b'\n').map_or(0, |p| p + 1);
        if !GTEST_TESTS.contains(&&text[start..end])
            || out.last().is_some_and(|last| last.name.start == start)
            || !text[line_start..start].iter().all(|b| matches!(b, b' ' | b'\t'))
        {
            continue;
        }
        let open = skip_blanks(text, end);
        if text.get(open) != Some(&b'(') {
            continue;
        }
        let Some(close) = closing_paren(text, open, BODY_CALL_LINES) else { continue };
        let Some(suite) = word(blanks(open + 1)) else { continue };
        let comma = blanks(suite.end);
        if text.get(comma) != Some(&b',') {
            continue;
        }
        let Some(test) = word(blanks(comma + 1)) else { continue };
        if blanks(test.end) != close
            || !matches!(text.get(close + 1), Some(b' ' | b'\t'))
            || text.get(skip_blanks(text, close + 1)) != Some(&b'{')
        {
            continue;
        }
        out.push(GtestHeader { name: start..end, suite, test, close });
    }
    out
}

/// Each line's bytes in `text`, its newline left out.
pub(crate) fn line_ranges(text: &[u8]) -> Vec<Range<usize>> {
    let mut lines = Vec::new();
    let mut at = 0;
    for line in crate::scan::lines(text) {
        lines.push(at..at + line.len());
        at += line.len() + 1;
    }
    lines
}

/// A macro name between a declarator's `)` and the `;` that ends the line (`int (*Module_Free)(void
/// *ptr) REDISMODULE_ATTR;`, an attribute such as `__attribute__((weak))`): C's grammar takes
/// no name there, and loses the declaration. Read as blank.
pub(crate) fn trailing_macros(text: &[u8], lines: &[Range<usize>]) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    for range in lines {
        let (start, line) = (range.start, &text[range.clone()]);
        let code = trim_end(line, line.len());
        let Some(semicolon) = code.checked_sub(1).filter(|&i| line[i] == b';') else { continue };
        let end = trim_end(line, semicolon);
        let name = line[..end].iter().rev().take_while(|b| b.is_ascii_alphanumeric() || **b == b'_').count();
        let before = trim_end(line, end - name);
        if name > 0 && is_macro_name(&line[end - name..end]) && before > 0 && line[before - 1] == b')' {
            out.push(start + end - name..start + end);
        }
    }
    out
}

/// A reference type as the last argument of a macro's call alone on its line, `&` or `&&`
/// before its `)` (doctest's and Catch2's `CHECK_THROWS_AS(f(), json::parse_error&);`): the
/// grammar reads the arguments as expressions, and `x&` lacking its right operand as an error
/// that it re-reads on every parse (nlohmann's tests hold 900). The `&` is read as blank, so
/// the argument is the type's name; what the walk reads of it, a use of that name, is the same.
/// Not after `operator` (`&T::operator&`), and not in a call the line does not end.
pub(crate) fn reference_arguments(text: &[u8], lines: &[Range<usize>]) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    for range in lines {
        let (start, line) = (range.start, &text[range.clone()]);
        let Some(from) = line.iter().position(|b| !matches!(b, b' ' | b'\t')) else { continue };
        let Some(name) = word_at(line, from) else { continue };
        let open = from + name.len();
        if !is_macro_name(name) || line.get(open) != Some(&b'(') {
            continue;
        }
        let Some(close) = closing_paren(line, open, 1) else { continue };
        let after = skip_blanks(line, close + 1);
        let rest = trim(line.get(after + 1..).unwrap_or_default());
        if line.get(after) != Some(&b';') || !(rest.is_empty() || rest.starts_with(b"//")) {
            continue;
        }
        let end = trim_end(line, close);
        let ampersands = line[..end].iter().rev().take_while(|&&b| b == b'&').count();
        let before = trim_end(line, end - ampersands);
        if !(1..=2).contains(&ampersands)
            || before == 0
            || !(line[before - 1].is_ascii_alphanumeric() || matches!(line[before - 1], b'_' | b'>'))
            || line[..before].ends_with(b"operator")
        {
            continue;
        }
        out.push(start + end - ampersands..start + end);
    }
    out
}

/// The arguments of a call in an `#if` or `#elif` condition that hold `::`
/// (`#if FMT_HAS_CPP_ATTRIBUTE(clang::lifetimebound)`): the grammar's preprocessor expressions
/// have no `::`, and the conditional breaks the file around it. Read as an empty call.
pub(crate) fn scoped_conditions(text: &[u8], lines: &[Range<usize>]) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    for range in lines {
        let (start, line) = (range.start, &text[range.clone()]);
        if !matches!(directive(line), Some(Directive::If | Directive::Else))
            || crate::scan::find2(line, b"::").is_none()
        {
            continue;
        }
        let mut i = 0;
        while let Some(open) = line[i..].iter().position(|&b| b == b'(') {
            let open = i + open;
            let Some(close) = closing_paren(line, open, 1) else { break };
            if crate::scan::find2(&line[open..close], b"::").is_some() {
                out.push(start + open + 1..start + close);
            }
            i = close + 1;
        }
    }
    out
}

/// A macro standing for `constexpr` after `if` (`if FMT_CONSTEXPR20 (a == b)`): the grammar
/// reads `if` with no condition, and the function around it breaks. Read as blank.
pub(crate) fn if_macros(text: &[u8]) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut at = 0;
    while let Some(found) = memchr::memmem::find(&text[at..], b"if ") {
        let start = at + found;
        at = start + 3;
        if start > 0 && (text[start - 1].is_ascii_alphanumeric() || text[start - 1] == b'_') {
            continue;
        }
        let from = skip_blanks(text, at);
        let name = text[from..].iter().take_while(|b| b.is_ascii_alphanumeric() || **b == b'_').count();
        if is_macro_name(&text[from..from + name]) && text.get(skip_blanks(text, from + name)) == Some(&b'(') {
            out.push(from..from + name);
        }
    }
    out
}

/// The `/* … */` comments inside a directive continued past them (`if (a) /* NOLINT */ \`,
/// on a line of a macro's body): the grammar reads a directive's text only up to a `/*`, and
/// the continued lines after the comment as code — a macro's body of statements spills into
/// the class around it, which loses the rest of its members. A comment is read as blank where
/// its line goes on with `\` and is a directive's, its own `#` or the line before going on.
pub(crate) fn directive_comments(text: &[u8], lines: &[Range<usize>]) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut previous_continues = false;
    for range in lines {
        let (start, line) = (range.start, &text[range.clone()]);
        let trimmed = trim(line);
        let continues = trimmed.ends_with(b"\\");
        if continues && (previous_continues || trimmed.starts_with(b"#")) {
            let mut i = 0;
            while let Some(open) = crate::scan::find2(&line[i..], b"/*") {
                let from = i + open;
                let Some(close) = crate::scan::find2(&line[from + 2..], b"*/") else { break };
                let to = from + 2 + close + 2;
                out.push(start + from..start + to);
                i = to;
            }
        }
        previous_continues = continues;
    }
    out
}

/// The most lines a conditional read by [`unbalanced_conditionals`] spans, `#if` to `#endif`.
pub(crate) const CONDITIONAL_LINES: usize = 12;

/// A conditional whose first branch opens a brace it does not close, or closes one it did not
/// open — `#ifndef JSON_HAS_CPP_17` / `namespace {` / `#endif`, and later the same around its
/// `}`; C headers' `#ifdef __cplusplus` / `extern "C" {` / `#endif` — leaves the grammar a
/// `{` without its `}` inside the conditional's node: error recovery then nests the rest of
/// the file under the scope it opened (`nlohmann::nlohmann::detail`), or ends a namespace
/// early. So does one whose first branch ends with a function's head, its body after the
/// `#endif` ([`heads_body`]). Such a conditional is read as its first branch alone: its
/// directives and its other branches are blanked, so the braces meet as they do when it holds
/// (and one head meets its body). Only conditionals of at
/// most [`CONDITIONAL_LINES`] lines with none nested are read so (include guards and feature
/// blocks balance their braces, and a decision stays within a few lines of what it blanks).
pub(crate) fn unbalanced_conditionals(text: &[u8], lines: &[Range<usize>]) -> Vec<Range<usize>> {
    let directive = |n: usize| directive(&text[lines[n].clone()]);
    let mut out = Vec::new();
    let mut n = 0;
    while n < lines.len() {
        if directive(n) != Some(Directive::If) {
            n += 1;
            continue;
        }
        // The group's directives: `#if`, any `#elif`/`#else`, its `#endif`.
        let mut marks = vec![n];
        let mut end = None;
        for m in n + 1..lines.len().min(n + CONDITIONAL_LINES) {
            match directive(m) {
                Some(Directive::If) => break,
                Some(Directive::Else) => marks.push(m),
                Some(Directive::Endif) => {
                    end = Some(m);
                    break;
                }
                None => {}
            }
        }
        let Some(end) = end else {
            n += 1;
            continue;
        };
        marks.push(end);
        let first_branch = lines[n].end..lines[marks[1]].start;
        if brace_balance(&text[first_branch.clone()]) != 0 || heads_body(text, lines, first_branch, end) {
            out.extend(marks.iter().map(|&m| lines[m].clone()));
            // The other branches, `#else` to `#endif`.
            if marks.len() > 2 {
                out.push(lines[marks[1]].start..lines[end].start);
            }
        }
        n = end + 1;
    }
    out
}

/// Whether a conditional's first branch (`branch`) ends with the head of a function (its `)`)
/// whose body opens on the line after its `#endif` (line `end`): nlohmann's `#if …` / `inline json
/// operator ""_json(…)` / `#else` / `inline json operator "" _json(…)` / `#endif` / `{`. Each
/// branch holds the head, and the grammar, reading both, lost the whole file in one error.
fn heads_body(text: &[u8], lines: &[Range<usize>], branch: Range<usize>, end: usize) -> bool {
    trim(&text[branch]).ends_with(b")")
        && lines.get(end + 1).is_some_and(|next| trim(&text[next.clone()]).starts_with(b"{"))
}

/// The macros `text` defines whose bodies only open and close scopes
/// ([`hintlens_syntax::scoping::scope_ops`]), first definition of each name that is one.
pub(crate) fn scope_macros(text: &[u8]) -> Vec<ScopeMacro> {
    let mut out: Vec<ScopeMacro> = Vec::new();
    let mut at = 0;
    while let Some(found) = memchr::memmem::find(&text[at..], b"define") {
        let start = at + found;
        at = start + 6;
        let line_start = text[..start].iter().rposition(|&b| b == b'\n').map_or(0, |p| p + 1);
        let before = trim(&text[line_start..start]);
        if !(before.first() == Some(&b'#') && trim(&before[1..]).is_empty()) {
            continue;
        }
        // To the end of the last continued line.
        let mut end = at;
        while end < text.len() && !(text[end] == b'\n' && text[end - 1] != b'\\') {
            end += 1;
        }
        let rest = &text[at..end];
        let name_from = skip_blanks(rest, 0);
        let name_len = rest[name_from..].iter().take_while(|b| b.is_ascii_alphanumeric() || **b == b'_').count();
        if name_len == 0 || rest.get(name_from + name_len) == Some(&b'(') {
            continue;
        }
        let name = String::from_utf8_lossy(&rest[name_from..name_from + name_len]);
        if out.iter().any(|m| m.name == name) {
            continue;
        }
        if let Some(ops) = scope_ops(&String::from_utf8_lossy(&rest[name_from + name_len..])) {
            out.push(ScopeMacro { name: name.into_owned(), ops });
        }
        at = end;
    }
    out
}

/// `{` less `}` in `text` ([`crate::scan`]: comments, literals and directives hold none).
fn brace_balance(text: &[u8]) -> i64 {
    let mut balance = 0;
    scan_wanting(text, &[], Want::Sparse, |token| {
        match token {
            Token::Open(_) => balance += 1,
            Token::Close(_) => balance -= 1,
            _ => {}
        }
        Want::Sparse
    });
    balance
}

/// A stray macro line: the bytes of its macro (name and arguments) and its zero-based line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct StrayLine {
    pub range: Range<usize>,
    pub line: usize,
}

/// Keywords that begin a declaration or a statement (C's and C++'s).
const STARTS: &[&str] = &[
    "auto", "bool", "break", "case", "char", "class", "const", "consteval", "constexpr", "constinit", "continue",
    "default", "do", "double", "enum", "explicit", "export", "extern", "float", "for", "friend", "goto", "if",
    "inline", "int", "long", "namespace", "private", "protected", "public", "return", "short", "signed", "static",
    "static_assert", "struct", "switch", "template", "throw", "try", "typedef", "union", "unsigned", "using",
    "virtual", "void", "volatile", "while",
];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Shape {
    Name,
    Call,
    /// A name and a `:`, as an access specifier stands.
    Label,
}

/// Every stray macro line of `text`, first to last.
pub(crate) fn stray_lines(text: &[u8]) -> Vec<StrayLine> {
    let mut out = Vec::new();
    let mut lines = crate::scan::lines(text).enumerate().peekable();
    let mut at = 0;
    let mut previous: &[u8] = b"";
    // The line of the last stray macro line its neighbours decide.
    let mut last_stray = None;
    while let Some((n, line)) = lines.next() {
        let start = at;
        at += line.len() + 1;
        let before = std::mem::replace(&mut previous, line);
        if continues(trim(before)) || !may_hold_macro(line) {
            continue;
        }
        let next = lines.peek().map(|(_, next)| trim(next));
        let stray = if let Some((from, to, shape)) = macro_line(line) {
            let alone = follows(next, shape) || (shape == Shape::Name && closes_before_directive(trim(before), next));
            alone.then_some((from, to))
        } else {
            macro_prefix(line, &text[start..])
        };
        if let Some((from, to)) = stray {
            out.push(StrayLine { range: start + from..start + to, line: n });
            last_stray = Some(n);
        } else if let Some((from, to)) = body_macro(&text[start..])
            && !trim(before).ends_with(b":")
            && ends_statement(&text[..start], n, last_stray)
        {
            out.push(StrayLine { range: start + from..start + to, line: n });
        }
    }
    let calls = template_macros(text);
    if !calls.is_empty() {
        out.extend(calls);
        out.sort_by_key(|stray| stray.range.start);
    }
    out
}

/// Whether a line can be a stray macro line or start with one ([`macro_line`], [`macro_prefix`],
/// [`body_macro`]): its first word is a macro's name, or a specifier one may follow. Most lines
/// are neither, and are passed over at the cost of their first byte.
fn may_hold_macro(line: &[u8]) -> bool {
    let Some(from) = line.iter().position(|b| !matches!(b, b' ' | b'\t')) else { return false };
    match line[from] {
        b'A'..=b'Z' | b'_' => true,
        b'a'..=b'z' => word_at(line, from).is_some_and(|word| SPECIFIERS.contains(&word)),
        _ => false,
    }
}

/// A macro's call standing as a template's last parameter, with the `,` before it
/// (`template <typename T, FMT_ENABLE_IF(!is_integer<T>::value)>`): the grammar reads the call
/// as a parameter's type and declarator, and an operator in its argument as an error that it
/// re-reads on every parse. The call ends with `>`, after blanks on its line, which a call in an
/// expression (`f(a, G(x)) > y`) does not; it spans at most [`BODY_CALL_LINES`] lines, after
/// at most one line break after the `,`.
fn template_macros(text: &[u8]) -> Vec<StrayLine> {
    let mut out = Vec::new();
    let mut at = 0;
    // The lines counted so far, up to `counted`.
    let (mut counted, mut line) = (0, 0);
    while let Some(found) = memchr::memchr(b',', &text[at..]) {
        let comma = at + found;
        at = comma + 1;
        let mut from = comma + 1;
        let mut newlines = 0;
        while let Some(&b) = text.get(from).filter(|b| b.is_ascii_whitespace()) {
            newlines += usize::from(b == b'\n');
            from += 1;
        }
        if newlines > 1 || !text.get(from).is_some_and(u8::is_ascii_uppercase) {
            continue;
        }
        let Some(name) = word_at(text, from) else { continue };
        let open = skip_blanks(text, from + name.len());
        if !is_macro_name(name) || text.get(open) != Some(&b'(') {
            continue;
        }
        let Some(close) = closing_paren(text, open, BODY_CALL_LINES) else { continue };
        if text.get(skip_blanks(text, close + 1)) != Some(&b'>') {
            continue;
        }
        line += memchr::memchr_iter(b'\n', &text[counted..comma]).count();
        counted = comma;
        out.push(StrayLine { range: comma..close + 1, line });
        at = close + 1;
    }
    out
}

/// A line's code: the line without its indentation and a comment ending it, if any is left
/// and the line is not a comment's (`//`, or `/*` or `*` starting it: a block comment's).
fn code_of(line: &[u8]) -> Option<&[u8]> {
    let line = trim(line);
    if line.is_empty() || line.starts_with(b"//") || line.starts_with(b"/*") || line.starts_with(b"*") {
        return None;
    }
    let line = match crate::scan::find2(line, b"//") {
        Some(comment) => trim(&line[..comment]),
        None => line,
    };
    let line = match line.strip_suffix(b"*/").and_then(|l| memchr::memmem::rfind(l, b"/*")) {
        Some(comment) => trim(&line[..comment]),
        None => line,
    };
    (!line.is_empty()).then_some(line)
}

/// Whether what stands before a macro taking a body on line `n` (`before` is the text before
/// its line) is done, the last line of code (at most [`LOOK_BACK_LINES`] back) ending a
/// declaration or statement (`;`, `{`, `}`), a directive, or a stray macro line its neighbours
/// decide (`last_stray`, so that no decision reads further back than they do); or nothing, at
/// the file's start. A call before it that ends with no `;` (`CATCH_REGISTER_ENUM(…)` over
/// lines) would take the body for its own: a function's.
fn ends_statement(before: &[u8], n: usize, last_stray: Option<usize>) -> bool {
    let mut end = before.len().saturating_sub(1);
    for back in 1..=LOOK_BACK_LINES.min(n) {
        let start = memchr::memrchr(b'\n', &before[..end]).map_or(0, |p| p + 1);
        if let Some(code) = code_of(&before[start..end]) {
            return last_stray == Some(n - back)
                || code.starts_with(b"#")
                || matches!(code.last(), Some(b';' | b'{' | b'}'));
        }
        end = start.saturating_sub(1);
    }
    n <= LOOK_BACK_LINES
}

/// How far back [`ends_statement`] looks for the line of code before a macro taking a body.
const LOOK_BACK_LINES: usize = 8;

/// Where the call of a macro taking a body stands at the start of `text` (a line and those
/// after it), its `{` after it on its last line or starting the next (Catch2's and doctest's
/// `TEST_CASE("parses", "[json]") {`, `SECTION("empty")`): the grammar reads the call as a
/// statement that lacks its `;`, an error around which it re-reads every such body on each
/// parse, where a block standing alone is a statement it keeps (a test file of Catch2 parsed
/// again after an edit: 4.5 ms of its 6.2 ms from nothing, 0.5 ms with its calls blank).
/// Only a call no declaration can be taken for: a string literal is one of its arguments,
/// which a parameter never is (gtest's `TEST(Suite, Name) {` is the grammar's function, and
/// the walk's test). Its other arguments are names, and only at the file's first column: the
/// walk reads them where the file's names are bound, which a body's locals are not
/// (`DYNAMIC_SECTION("n" << i)` stays the grammar's). The call spans at most
/// [`BODY_CALL_LINES`] lines. A line before ending with `:` goes on in it (`Derived() :` /
/// `Base("name") {`), as one ending with `,` does; so may a line of code before it
/// ([`ends_statement`]).
fn body_macro(text: &[u8]) -> Option<(usize, usize)> {
    let from = text.iter().position(|b| !matches!(b, b' ' | b'\t'))?;
    let rest = &text[from..];
    let name = rest.iter().take_while(|b| b.is_ascii_alphanumeric() || **b == b'_').count();
    let open = skip_blanks(rest, name);
    if !is_macro_name(&rest[..name]) || rest.get(open) != Some(&b'(') {
        return None;
    }
    let close = closing_paren(rest, open, BODY_CALL_LINES)?;
    let after = skip_blanks(rest, close + 1);
    let line_end = memchr::memchr(b'\n', &rest[after..]).map_or(rest.len(), |p| after + p);
    let tail = &rest[after..line_end];
    let next = rest.get(line_end + 1..).map(|next| trim(&next[..memchr::memchr(b'\n', next).unwrap_or(next.len())]));
    let body_follows = tail.starts_with(b"{")
        || ((tail.is_empty() || tail == b"\r" || tail.starts_with(b"//")) && next.is_some_and(|n| n.starts_with(b"{")));
    if !body_follows {
        return None;
    }
    let mut strings = 0;
    for argument in arguments(&rest[open + 1..close]) {
        let argument = trim(argument);
        if argument.first() == Some(&b'"') && argument.last() == Some(&b'"') {
            strings += 1;
        } else if from > 0 || argument.is_empty() || !argument.iter().all(|&b| is_type_byte(b)) {
            return None;
        }
    }
    (strings > 0).then_some((from, from + close + 1))
}

/// The most lines the call of a macro taking a body spans ([`body_macro`]): Catch2's
/// `TEMPLATE_TEST_CASE` lists a type a line.
const BODY_CALL_LINES: usize = 16;

/// What a type or a name as a macro's argument is spelled with (`Fixture`, `std::vector<int>`,
/// `const char*`): no operator that would make it an expression.
fn is_type_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'_' | b':' | b'<' | b'>' | b'*' | b'&' | b' ' | b'\t')
}

/// The arguments of a call, split at the commas outside brackets, strings and characters.
fn arguments(inside: &[u8]) -> Vec<&[u8]> {
    let mut out = Vec::new();
    let (mut depth, mut start, mut i) = (0usize, 0, 0);
    while i < inside.len() {
        match inside[i] {
            b'(' | b'[' | b'{' | b'<' => depth += 1,
            b')' | b']' | b'}' | b'>' => depth = depth.saturating_sub(1),
            b',' if depth == 0 => {
                out.push(&inside[start..i]);
                start = i + 1;
            }
            quote @ (b'"' | b'\'') => i = literal_end(inside, i + 1, quote).0 - 1,
            _ => {}
        }
        i += 1;
    }
    out.push(&inside[start..]);
    out
}

/// Keywords a declaration starts with, which an attribute-like macro may stand before
/// (`FMT_NORETURN FMT_API void f();`): not `const` or `volatile`, which may follow a type's
/// macro name.
const DECLARATION_STARTS: &[&[u8]] = &[
    b"auto", b"bool", b"char", b"class", b"consteval", b"constexpr", b"constinit", b"double", b"enum", b"explicit",
    b"export", b"extern", b"float", b"friend", b"inline", b"int", b"long", b"namespace", b"short", b"signed",
    b"static", b"struct", b"template", b"typedef", b"union", b"unsigned", b"using", b"virtual", b"void",
];

/// Where macro names stand at the start of `line` in a declaration's specifiers, where the
/// grammar cannot read them: before a keyword that starts a declaration
/// (`FMT_NORETURN FMT_API void f();`, `FMT_EXPORT template <…>`, `FMT_CONSTEXPR20 inline auto
/// f()`), before a destructor's `~`, one before a type and a declarator's name
/// (`FMT_NO_UNIQUE_ADDRESS Allocator alloc_;`), or one after the specifier keywords starting the
/// line (`static FMT_CONSTEXPR20 void grow(…)`, `constexpr FMT_INLINE_VARIABLE uint32_t x`).
/// Read as a type, such a name makes the keyword or type after it a second type: an error the
/// parse re-reads on every edit, and where it breaks a class, the class's end is lost with the
/// rest of the file. A macro spelled like a type stays one where a type may stand
/// (`MY_TYPE const x`, `BOOL WINAPI DllMain(void)`, `static FILE* f;`).
fn macro_prefix(line: &[u8], text: &[u8]) -> Option<(usize, usize)> {
    let mut at = line.iter().position(|b| !matches!(b, b' ' | b'\t'))?;
    // The specifier keywords that may stand before such a name.
    while let Some(word) = word_at(line, at)
        && SPECIFIERS.contains(&word)
    {
        let after = skip_blanks(line, at + word.len());
        if after == at + word.len() {
            return None;
        }
        at = after;
    }
    let from = at;
    let mut names = 0;
    loop {
        let Some(spelled) = word_at(line, at) else {
            return (names >= 1 && line.get(at) == Some(&b'~')).then(|| (from, trim_end(line, at)));
        };
        // Most lines: no macro name first, so nothing to read as blank.
        if names == 0 && !is_macro_name(spelled) {
            return None;
        }
        if DECLARATION_STARTS.contains(&spelled) {
            return (names >= 1).then(|| (from, trim_end(line, at)));
        }
        if !is_macro_name(spelled) {
            let qualifies = || type_and_name(&line[at..]) || initializes(text, at, spelled);
            return (names == 1 && qualifies()).then(|| (from, trim_end(line, at)));
        }
        let after = skip_blanks(line, at + spelled.len());
        if after == at + spelled.len() {
            return None;
        }
        names += 1;
        at = after;
    }
}

/// The specifier keywords a declaration may start with before an attribute-like macro.
const SPECIFIERS: &[&[u8]] =
    &[b"static", b"inline", b"constexpr", b"friend", b"virtual", b"explicit", b"extern", b"template"];

/// Whether the name `name` at `at` in `text` (a line and those after it) is a constructor's, its
/// parameters followed by a member initializer list (`FMT_CONSTEXPR20 basic_memory_buffer(…)
/// noexcept : buffer<T>(grow)`), which no function with a return type has. The `:` is on the
/// line of the `)` or the next, so that the decision reads no further than [`LINES_AFTER`].
fn initializes(text: &[u8], at: usize, name: &[u8]) -> bool {
    let open = skip_blanks(text, at + name.len());
    if text.get(open) != Some(&b'(') {
        return false;
    }
    let Some(close) = closing_paren(text, open, BODY_CALL_LINES) else { return false };
    let mut after = close + 1;
    let mut newlines = 0;
    loop {
        while text.get(after).is_some_and(u8::is_ascii_whitespace) {
            newlines += usize::from(text[after] == b'\n');
            if newlines > 1 {
                return false;
            }
            after += 1;
        }
        match word_at(text, after) {
            Some(word @ (b"noexcept" | b"const")) => after += word.len(),
            _ => break,
        }
    }
    text.get(after) == Some(&b':') && text.get(after + 1) != Some(&b':')
}

/// The name (letters, digits, `_`) starting at `at` in `line`, if one does.
fn word_at(line: &[u8], at: usize) -> Option<&[u8]> {
    let len = line[at..].iter().take_while(|b| b.is_ascii_alphanumeric() || **b == b'_').count();
    (len > 0).then(|| &line[at..at + len])
}

/// Whether `rest` starts with a type that is no keyword and no macro's name (`Allocator`,
/// `std::string`), then a declarator's name and what follows one (`;`, `=`, `(`, `{`, `[`):
/// the declaration a macro before it qualifies.
fn type_and_name(rest: &[u8]) -> bool {
    let ty = rest.iter().take_while(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b':')).count();
    let spelled = &rest[..ty];
    if ty == 0
        || is_macro_name(spelled)
        || rest[0].is_ascii_digit()
        || crate::CPP_SPEC.keywords.iter().any(|k| k.as_bytes() == spelled)
    {
        return false;
    }
    let mut at = ty;
    while rest.get(at).is_some_and(|b| matches!(b, b' ' | b'\t' | b'*' | b'&')) {
        at += 1;
    }
    let Some(name) = word_at(rest, at) else { return false };
    if name[0].is_ascii_digit() || crate::CPP_SPEC.keywords.iter().any(|k| k.as_bytes() == name) {
        return false;
    }
    let after = skip_blanks(rest, at + name.len());
    matches!(rest.get(after), Some(b';' | b'=' | b'(' | b'{' | b'['))
}

/// `at` moved back over the blanks before it.
fn trim_end(line: &[u8], mut at: usize) -> usize {
    while at > 0 && matches!(line[at - 1], b' ' | b'\t') {
        at -= 1;
    }
    at
}

/// The line without its indentation and trailing blanks.
fn trim(line: &[u8]) -> &[u8] {
    let from = line.iter().position(|b| !b.is_ascii_whitespace()).unwrap_or(line.len());
    let to = line.iter().rposition(|b| !b.is_ascii_whitespace()).map_or(from, |p| p + 1);
    &line[from..to.max(from)]
}

/// Where in `line` a macro standing alone is (its name, and its arguments when called), and
/// how; a trailing `//` comment may follow it.
fn macro_line(line: &[u8]) -> Option<(usize, usize, Shape)> {
    let from = line.iter().position(|b| !matches!(b, b' ' | b'\t'))?;
    let rest = &line[from..];
    let name = rest.iter().take_while(|b| b.is_ascii_alphanumeric() || **b == b'_').count();
    if !is_macro_name(&rest[..name]) {
        return None;
    }
    let mut end = name;
    let mut shape = Shape::Name;
    let after = skip_blanks(rest, end);
    if rest.get(after) == Some(&b'(') {
        end = closing_paren(rest, after, 1)? + 1;
        shape = Shape::Call;
    }
    let mut tail = skip_blanks(rest, end);
    // `JSON_PRIVATE_UNLESS_TESTED:`, a macro standing for an access specifier.
    if shape == Shape::Name && rest.get(tail) == Some(&b':') && rest.get(tail + 1) != Some(&b':') {
        end = tail + 1;
        shape = Shape::Label;
        tail = skip_blanks(rest, end);
    }
    let tail = &rest[tail..];
    (tail.is_empty() || tail == b"\r" || tail.starts_with(b"//")).then_some((from, from + end, shape))
}

fn skip_blanks(text: &[u8], mut at: usize) -> usize {
    while text.get(at).is_some_and(|b| matches!(b, b' ' | b'\t')) {
        at += 1;
    }
    at
}

/// The `)` closing the `(` at `open`, within `lines` lines of it (1: on its line), strings and
/// characters skipped (neither goes on past its line).
fn closing_paren(text: &[u8], open: usize, lines: usize) -> Option<usize> {
    let (mut depth, mut newlines, mut i) = (0usize, 0, open);
    while i < text.len() {
        match text[i] {
            b'(' => depth += 1,
            b')' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
            }
            b'\n' => {
                newlines += 1;
                if newlines >= lines {
                    return None;
                }
            }
            quote @ (b'"' | b'\'') => match literal_end(text, i + 1, quote) {
                (end, true) => i = end - 1,
                (_, false) => return None,
            },
            _ => {}
        }
        i += 1;
    }
    None
}

/// `FMT_EXPORT`, `Q_OBJECT`, `NLOHMANN_JSON_NAMESPACE_BEGIN`: capitals, digits and `_`, at least
/// three long, a capital among them, not starting with a digit.
fn is_macro_name(word: &[u8]) -> bool {
    word.len() >= 3
        && !word[0].is_ascii_digit()
        && word.iter().all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || *b == b'_')
        && word.iter().any(u8::is_ascii_uppercase)
}

/// Whether the (trimmed) line before a macro line goes on in it: a directive continued with
/// `\` (the macro line is the end of a macro's body), an element list or an expression.
fn continues(before: &[u8]) -> bool {
    before.last().is_some_and(|b| matches!(b, b'\\' | b',' | b'(' | b'=' | b'|' | b'&' | b'+' | b'-' | b'?'))
}

/// Whether a name alone stands between the end of a declaration (the line before ends with `;`
/// or `}`, a `//` comment aside) and a directive: `}  // namespace detail` /
/// `NLOHMANN_JSON_NAMESPACE_END` / `#elif JSON_HAS_FILESYSTEM`. An enumerator before `#endif`
/// follows a `,` or a directive, never these.
fn closes_before_directive(before: &[u8], next: Option<&[u8]>) -> bool {
    let code = match crate::scan::find2(before, b"//") {
        Some(comment) => trim(&before[..comment]),
        None => before,
    };
    matches!(code.last(), Some(b';' | b'}')) && next.is_some_and(|n| n.starts_with(b"#"))
}

/// Whether the (trimmed) line after a macro line says a declaration or statement follows it.
fn follows(next: Option<&[u8]>, shape: Shape) -> bool {
    let Some(next) = next else { return true };
    let Some(&first) = next.first() else { return true };
    if next.starts_with(b"//") || next.starts_with(b"/*") || next.starts_with(b"[[") || first == b'~' {
        return true;
    }
    let word = &next[..next.iter().take_while(|b| b.is_ascii_alphanumeric() || **b == b'_').count()];
    match shape {
        // A block (`JSON_TRY` / `{`, a macro standing for `try`) too.
        Shape::Name => {
            STARTS.iter().any(|k| k.as_bytes() == word)
                || (is_macro_name(word) && macro_line(next).is_some())
                || first == b'{'
        }
        Shape::Call => !word.is_empty() && !first.is_ascii_digit() || first == b'}' || first == b'#',
        // Whatever follows an access specifier.
        Shape::Label => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stray(text: &str) -> Vec<&str> {
        stray_lines(text.as_bytes()).into_iter().map(|l| &text[l.range]).collect()
    }

    /// What the grammar reads of `text` ([`READING`]).
    fn read(text: &str) -> String {
        let mut bytes = text.as_bytes().to_vec();
        let blanked = blank(text.as_bytes(), &notes(text.as_bytes()));
        for range in blanked.spaces {
            bytes[range].iter_mut().filter(|b| **b != b'\n').for_each(|b| *b = b' ');
        }
        for (at, byte) in blanked.bytes {
            bytes[at] = byte;
        }
        String::from_utf8(bytes).unwrap()
    }

    #[test]
    fn a_reference_type_ending_a_macro_call_is_read_without_its_ampersand() {
        assert_eq!(
            read("    CHECK_THROWS_AS(f(), json::parse_error&);"),
            "    CHECK_THROWS_AS(f(), json::parse_error );"
        );
        assert_eq!(
            read("REQUIRE_THROWS_AS(g(x), std::vector<int>&& );"),
            "REQUIRE_THROWS_AS(g(x), std::vector<int>   );"
        );
        assert_eq!(read("CHECK(a & ); // spaced"), "CHECK(a   ); // spaced");
        for alone in [
            "CHECK(&T::operator&);",
            "CHECK_THROWS_AS(f(), E&) + 1;",
            "x = CHECK(a&);",
            "void f(int&);",
            "CHECK(a &&&);",
            "CHECK((a&));",
        ] {
            assert_eq!(read(alone), alone);
        }
    }

    #[test]
    fn a_gtest_header_is_read_as_a_function_its_suite_returns() {
        assert_eq!(read("TEST(Suite, Name) {\n}\n"), "     Suite  Name(){\n}\n");
        assert_eq!(read("  TYPED_TEST( Suite , Name ) { f(); }"), "              Suite   Name (){ f(); }");
        assert_eq!(read("TEST_F(Fixture,\n       Name) {}"), "       Fixture \n       Name(){}");
        for alone in [
            // A keyword is no function's name.
            "TEST(format_test, enum) {}",
            // No blank to read as `)`, or no `{` on the line.
            "TEST(a, b){}",
            "TEST(a, b)\n{}",
            "FRIEND_TEST(a, b);",
            "// TEST(a, b) {",
            "x = TEST(a, b) {",
            "TEST(a, b, c) {",
            "TEST(a::b, c) {",
            "MY_TEST(a, b) {",
        ] {
            assert_eq!(read(alone), alone);
        }
        let headers = gtest_headers(b"TYPED_TEST(S, N) {}");
        assert_eq!(headers, [GtestHeader { name: 0..10, suite: 11..12, test: 14..15, close: 15 }]);
    }

    #[test]
    fn a_macro_alone_before_a_declaration_is_stray() {
        let text = "FMT_BEGIN_NAMESPACE\n\nFMT_EXPORT\ntemplate <typename T> struct is_container_adaptor {};\n\
                    FMT_PRAGMA_CLANG(diagnostic push)  // keep\n#if X\n#endif\nFMT_END_NAMESPACE";
        assert_eq!(
            stray(text),
            ["FMT_BEGIN_NAMESPACE", "FMT_EXPORT", "FMT_PRAGMA_CLANG(diagnostic push)", "FMT_END_NAMESPACE"]
        );
        let class = "class person {\n  int age;\n  NLOHMANN_DEFINE_TYPE_INTRUSIVE(person, age, \"x)\")\n};\n";
        assert_eq!(stray(class), ["NLOHMANN_DEFINE_TYPE_INTRUSIVE(person, age, \"x)\")"]);
        assert_eq!(stray("class W {\n  Q_OBJECT\n public:\n};"), ["Q_OBJECT"]);
        let label = "class basic_json {\n  JSON_PRIVATE_UNLESS_TESTED:\n    using lexer = int;\n};";
        assert_eq!(stray(label), ["JSON_PRIVATE_UNLESS_TESTED:"]);
        let block = "void f() {\n  JSON_TRY\n  {\n    g();\n  }\n  JSON_CATCH (std::out_of_range&)\n  {\n  }\n}";
        assert_eq!(stray(block), ["JSON_TRY"]);
        let branch = "#if A\nNS_BEGIN\nint a;\n}  // namespace detail\nNS_END\n#elif B\n#endif\n";
        assert_eq!(stray(branch), ["NS_BEGIN", "NS_END"]);
        let prefixed =
            "FMT_NORETURN FMT_API void assert_fail(const char* file);\nFMT_EXPORT template <typename T> struct a;\n";
        assert_eq!(stray(prefixed), ["FMT_NORETURN FMT_API", "FMT_EXPORT"]);
        assert_eq!(stray("FMT_CONSTEXPR void for_each(Tuple&& t) {\n}\n"), ["FMT_CONSTEXPR"]);
        // In a declaration's specifiers, where the grammar would read a second type.
        for (text, found) in [
            ("FMT_CONSTEXPR20 inline auto f(int n) -> int {\n}\n", "FMT_CONSTEXPR20"),
            ("  FMT_NO_UNIQUE_ADDRESS Allocator alloc_;\n", "FMT_NO_UNIQUE_ADDRESS"),
            ("  static FMT_CONSTEXPR20 void grow(buffer<T>& buf) {\n  }\n", "FMT_CONSTEXPR20"),
            ("  constexpr FMT_INLINE_VARIABLE uint32_t invalid = ~uint32_t();\n", "FMT_INLINE_VARIABLE"),
            ("  FMT_CONSTEXPR20 ~basic_memory_buffer() { deallocate(); }\n", "FMT_CONSTEXPR20"),
            (
                "  FMT_CONSTEXPR20 basic_memory_buffer(basic_memory_buffer&& other) noexcept\n      : buffer<T>(grow) {}\n",
                "FMT_CONSTEXPR20",
            ),
            ("template FMT_API auto thousands_sep_impl<char>(locale_ref) -> char;\n", "FMT_API"),
        ] {
            assert_eq!(stray(text), [found], "{text:?}");
        }
    }

    fn conditional(text: &str) -> Vec<&str> {
        unbalanced_conditionals(text.as_bytes(), &line_ranges(text.as_bytes())).into_iter().map(|r| &text[r]).collect()
    }

    #[test]
    fn a_conditional_heading_a_body_after_it_is_read_as_its_first_branch() {
        let c = "#if A\n    inline json operator \"\"_json(const char* s)\n#else\n    inline json operator \"\" _json(const char* s)\n#endif\n{\n}\n";
        assert_eq!(
            conditional(c),
            ["#if A", "#else", "#endif", "#else\n    inline json operator \"\" _json(const char* s)\n"]
        );
        let no_body = "#if A\nvoid f(int);\n#else\nvoid f(long);\n#endif\nint x;\n";
        assert!(conditional(no_body).is_empty());
    }

    #[test]
    fn a_macro_call_as_a_template_s_last_parameter_is_stray() {
        let text = "template <typename T, FMT_ENABLE_IF(!is_integer<T>::value)>\nauto f(T) -> int;\n\
                    template <typename OutputIt,\n          FMT_ENABLE_IF(is_back_insert<OutputIt>::value&&\n\
                    !has_append<OutputIt>::value)>\nvoid g();\n";
        assert_eq!(
            stray(text),
            [
                ", FMT_ENABLE_IF(!is_integer<T>::value)",
                ",\n          FMT_ENABLE_IF(is_back_insert<OutputIt>::value&&\n!has_append<OutputIt>::value)"
            ]
        );
        let lines: Vec<usize> = stray_lines(text.as_bytes()).iter().map(|s| s.line).collect();
        assert_eq!(lines, [0, 2]);
        for text in ["x = f(a, G_X(b)) > y;", "f(a, MAKE(b));", "int a[] = {1,\n\n  MAKE(2)>3};", "t<a, b(c)> x;"] {
            assert_eq!(stray(text), Vec::<&str>::new(), "{text:?}");
        }
    }

    #[test]
    fn a_conditional_opening_a_brace_is_read_as_its_first_branch() {
        let open = "#ifndef JSON_HAS_CPP_17\n/// the anonymous namespace\nnamespace\n{\n#endif\nint x;\n";
        assert_eq!(conditional(open), ["#ifndef JSON_HAS_CPP_17", "#endif"]);
        let close = "#ifndef JSON_HAS_CPP_17\n} // namespace\n#endif\n";
        assert_eq!(conditional(close), ["#ifndef JSON_HAS_CPP_17", "#endif"]);
        let branches = "#if A\nnamespace a {\n#else\nnamespace b {\n#endif\n";
        assert_eq!(conditional(branches), ["#if A", "#else", "#endif", "#else\nnamespace b {\n"]);
        let c = "#ifdef __cplusplus\nextern \"C\" {\n#endif\n";
        assert_eq!(conditional(c), ["#ifdef __cplusplus", "#endif"]);
        // The innermost conditional is the one read so.
        assert_eq!(conditional("#if A\n#if B\nnamespace a {\n#endif\n#endif\n"), ["#if B", "#endif"]);
    }

    #[test]
    fn a_macro_after_a_declarator_is_blank() {
        let text = "API unsigned int (*Module_KeySlot)(const char *key) MODULE_ATTR;\nint f(void) ;\nx = g(a) + MAX;\nint h(int) FMT_NOEXCEPT;\n";
        let found: Vec<&str> =
            trailing_macros(text.as_bytes(), &line_ranges(text.as_bytes())).into_iter().map(|r| &text[r]).collect();
        assert_eq!(found, ["MODULE_ATTR", "FMT_NOEXCEPT"]);
    }

    #[test]
    fn scoped_names_in_a_condition_are_blank() {
        let text = "#if FMT_HAS_CPP_ATTRIBUTE(clang::lifetimebound)\n#elif defined(A) && HAS(gnu::x)\nint a::b;\n";
        let found: Vec<&str> =
            scoped_conditions(text.as_bytes(), &line_ranges(text.as_bytes())).into_iter().map(|r| &text[r]).collect();
        assert_eq!(found, ["clang::lifetimebound", "gnu::x"]);
    }

    #[test]
    fn a_macro_for_constexpr_after_if_is_blank() {
        let text = "if FMT_CONSTEXPR20 (a == b) {}\nif (FLAG) {}\nelif X (y)\nif constexpr (a) {}\n";
        let found: Vec<&str> = if_macros(text.as_bytes()).into_iter().map(|r| &text[r]).collect();
        assert_eq!(found, ["FMT_CONSTEXPR20"]);
    }

    #[test]
    fn comments_inside_a_continued_directive_are_blank() {
        let text = "#define OP(op) \\\n  if (a) /* NOLINT */ \\\n  { return a op b; } /* x */\n/* kept */ \\\nint y; /* kept */\n";
        let found: Vec<&str> =
            directive_comments(text.as_bytes(), &line_ranges(text.as_bytes())).into_iter().map(|r| &text[r]).collect();
        assert_eq!(found, ["/* NOLINT */"]);
    }

    #[test]
    fn balanced_long_and_nested_conditionals_are_read_whole() {
        for text in [
            "#ifndef X_H\n#define X_H\nstruct a { int b; };\n#endif\n",
            "#if A\nint f() { return '{'; } // {\n/* { */\n#endif\n",
            "#if A\n#define OPEN {\\\n  {\n#endif\n",
            &format!("#if A\nnamespace a {{\n{}#endif\n", "int x;\n".repeat(CONDITIONAL_LINES)),
        ] {
            assert_eq!(conditional(text), Vec::<&str>::new(), "{text:?}");
        }
    }

    #[test]
    fn the_call_of_a_macro_taking_a_body_is_stray() {
        let text = "#include <catch2/catch_test_macros.hpp>\n\
                    TEST_CASE(\"parses\", \"[json]\") {\n  SECTION( \"empty\" ) {\n  }\n  SECTION(\"full\")\n  {\n  }\n}\n\
                    TEST_CASE_METHOD(Fixture, \"uses it\") { f(); }\n\
                    TEMPLATE_TEST_CASE( \"ranges\",\n                    \"[rng]\",\n                    unsigned char,\n                    std::int8_t ) {\n}\n";
        assert_eq!(
            stray(text),
            [
                "TEST_CASE(\"parses\", \"[json]\")",
                "SECTION( \"empty\" )",
                "SECTION(\"full\")",
                "TEST_CASE_METHOD(Fixture, \"uses it\")",
                "TEMPLATE_TEST_CASE( \"ranges\",\n                    \"[rng]\",\n                    unsigned char,\n                    std::int8_t )",
            ]
        );
        // At the file's start, and after a stray line.
        assert_eq!(stray("TEST_CASE(\"a\") {}"), ["TEST_CASE(\"a\")"]);
        assert_eq!(
            stray("CATCH_REGISTER_ENUM(E, E::A)\nTEST_CASE(\"a\") {}"),
            ["CATCH_REGISTER_ENUM(E, E::A)", "TEST_CASE(\"a\")"]
        );
    }

    #[test]
    fn a_call_a_declaration_may_be_or_that_goes_on_is_not_a_macro_taking_a_body() {
        let long = format!("TEMPLATE_TEST_CASE(\"many\",\n{}  int) {{\n}}\n", "  int,\n".repeat(BODY_CALL_LINES));
        for text in [
            // gtest's test is the grammar's function and the walk's.
            "TEST(Suite, Name) {\n}",
            // Its names are not the file's: a body's locals.
            "void f() {\n  int i = 0;\n  DYNAMIC_SECTION(\"n\" << i) {\n  }\n  SECTION_FOR(\"x\", i) {\n  }\n}",
            "  TEST_CASE_METHOD(Fixture, \"indented\") {\n  }",
            // Goes on from the line before: a constructor's initializers.
            "Derived::Derived() :\n    BASE(\"name\") {\n}",
            "Derived::Derived()\n    : a(1),\n      BASE(\"name\") {\n}",
            // A call over lines with no `;` before it would take the body for its own.
            "CATCH_REGISTER_ENUM( E,\n                     E::A )\n\nTEST_CASE(\"a\") {\n}",
            // A statement, not a body.
            "void f() {\n  REQUIRE(\"a\");\n  CHECK_THAT(\"b\", Equals(\"b\")) ;\n}",
            "TEST_CASE(L\"wide\") {\n}",
            &long,
        ] {
            assert_eq!(stray(text), Vec::<&str>::new(), "{text:?}");
        }
    }

    #[test]
    fn enumerators_elements_and_expressions_are_not() {
        for text in [
            "enum class color {\n  RED,\n  GREEN\n};",
            "enum { ONLY\n};",
            "int flags[] = {\n  FLAG_A,\n  FLAG_B\n};",
            "x = MAKE(a)\n    + 1;",
            "f(a,\n  FLAG(b)\n  );",
            "BOOL\nDllMain(void)",
            "FOO(a);\nint x;",
            "A_B\n  , C_D",
            "MY_TYPE const x = 1;",
            "FMT_API;",
            "BOOL WINAPI DllMain(void)",
            "static FILE* f;",
            "static FILE *f;",
            "HRESULT Query(int x);",
            "  FMT_CONSTEXPR20 basic_memory_buffer() {}",
            "template <typename T> struct a;",
            "#define X(...) \\\n  EXPAND(__VA_ARGS__)\n\n#endif",
            "enum {\n  A,\n  B_VALUE\n  int x;",
            "enum {\n  A,\n#if X\n  B_VALUE\n#endif\n};",
            "int x = a ||\n  FLAG(b)\n  y;",
        ] {
            assert_eq!(stray(text), Vec::<&str>::new(), "{text:?}");
        }
    }
}
