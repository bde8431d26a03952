//! What the preprocessor reads of a file without a parse ([`Frontend::directives`]): its
//! `#include`s and its scope macros. The walk's imports and scope macros are these, so that a
//! chain of includes is followed through files read, never parsed, with the same answer.
//!
//! [`Frontend::directives`]: hintlens_syntax::Frontend::directives

use crate::scan::literal_end;
use hintlens_syntax::{Directives, Import};

pub(crate) fn directives(text: &[u8]) -> Directives {
    Directives { includes: includes(text), scope_macros: crate::macro_lines::scope_macros(text), macros: macros(text) }
}

/// The names `text`'s `#define` lines define, in order, those inside block comments and on a
/// line a `\` continues (the body of the directive before) left out, and include guards as
/// the walk leaves them out: a `#define X` with no body in the first branch of `#ifndef X` (or
/// `#ifdef X`), however deep in it.
fn macros(text: &[u8]) -> Vec<String> {
    let mut out = Vec::new();
    let (mut in_comment, mut continued) = (false, false);
    // The conditionals open, innermost last: the name an `#ifdef`/`#ifndef` tests, until its
    // `#else` or `#elif`.
    let mut open: Vec<Option<&[u8]>> = Vec::new();
    for line in crate::scan::lines(text) {
        let mut at = 0;
        let spliced = std::mem::replace(&mut continued, line.trim_ascii_end().ends_with(b"\\"));
        if in_comment {
            match crate::scan::find2(line, b"*/") {
                Some(end) => at = end + 2,
                None => continue,
            }
        } else if !spliced && let Some(rest) = blanks(line).strip_prefix(b"#") {
            let rest = blanks(rest);
            let word = |text: &[u8]| text.iter().take_while(|b| b.is_ascii_alphanumeric() || **b == b'_').count();
            let directive = &rest[..word(rest)];
            let after = blanks(&rest[directive.len()..]);
            let name = &after[..word(after)];
            if directive == b"define" && !name.is_empty() && !name[0].is_ascii_digit() {
                let mut body = blanks(&after[name.len()..]);
                while let Some(comment) = body.strip_prefix(b"/*") {
                    let end = crate::scan::find2(comment, b"*/").map_or(comment.len(), |e| e + 2);
                    body = blanks(&comment[end..]);
                }
                let bodiless = body.is_empty() || body.starts_with(b"//");
                if !(bodiless && open.last() == Some(&Some(name))) {
                    out.push(String::from_utf8_lossy(name).into_owned());
                }
            }
            match directive {
                b"ifdef" | b"ifndef" => open.push(Some(name).filter(|n| !n.is_empty())),
                b"if" => open.push(None),
                b"else" | b"elif" | b"elifdef" | b"elifndef" => {
                    if let Some(top) = open.last_mut() {
                        *top = None;
                    }
                }
                b"endif" => {
                    open.pop();
                }
                _ => {}
            }
        }
        in_comment = opens_comment(&line[at..]);
    }
    out
}

/// The `#include "path"` and `#include <path>` lines of `text`, in order, those inside block
/// comments left out; an `#include MACRO` names no file until expanded, and is left out too.
/// Every conditional branch's count: which one a build takes is not known here.
pub(crate) fn includes(text: &[u8]) -> Vec<Import> {
    let mut out = Vec::new();
    let mut in_comment = false;
    for (row, line) in crate::scan::lines(text).enumerate() {
        let mut at = 0;
        if in_comment {
            match crate::scan::find2(line, b"*/") {
                Some(end) => at = end + 2,
                None => continue,
            }
        } else if let Some(module) = include(line) {
            out.push(Import { module, name: None, alias: None, wildcard: false, line: row as u32 });
        }
        in_comment = opens_comment(&line[at..]);
    }
    out
}

/// The path an `#include` line names, as written between its quotes or angle brackets.
fn include(line: &[u8]) -> Option<String> {
    let rest = blanks(line).strip_prefix(b"#")?;
    let rest = blanks(rest).strip_prefix(b"include")?;
    // `#include_next`, `#includes`: another directive.
    if rest.first().is_some_and(|b| b.is_ascii_alphanumeric() || *b == b'_') {
        return None;
    }
    let rest = blanks(rest);
    let close = match rest.first()? {
        b'"' => b'"',
        b'<' => b'>',
        _ => return None,
    };
    let inner = &rest[1..];
    let end = memchr::memchr(close, inner)?;
    Some(String::from_utf8_lossy(&inner[..end]).into_owned())
}

fn blanks(text: &[u8]) -> &[u8] {
    let n = text.iter().take_while(|b| matches!(b, b' ' | b'\t' | b'\r')).count();
    &text[n..]
}

/// Whether `line` ends inside a block comment: one opened on it outside strings, characters
/// and line comments, and not closed on it.
fn opens_comment(line: &[u8]) -> bool {
    // Most lines hold no `/*`: those open nothing, whatever their strings.
    if crate::scan::find2(line, b"/*").is_none() {
        return false;
    }
    let mut i = 0;
    while i < line.len() {
        match line[i] {
            b'"' => i = literal_end(line, i + 1, b'"').0,
            // A quote after a digit or letter is C++14's digit separator (`1'000`) or a
            // prefix's (`u8'a'`: a character either way, skipped alike); after anything else it
            // opens a character.
            b'\'' if i > 0 && line[i - 1].is_ascii_digit() => i += 1,
            b'\'' => i = literal_end(line, i + 1, b'\'').0,
            b'/' if line.get(i + 1) == Some(&b'/') => return false,
            b'/' if line.get(i + 1) == Some(&b'*') => match crate::scan::find2(&line[i + 2..], b"*/") {
                Some(end) => i += 2 + end + 2,
                None => return true,
            },
            _ => i += 1,
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::{includes, macros};

    #[test]
    fn macros_are_read_from_define_lines_as_the_preprocessor_reads_them() {
        let text = "#ifndef A_H\n#define A_H\n#define LIMIT 10\n  #  define  MAX(a, b) ((a) > (b) ? (a) : (b))\n\
                    /* #define COMMENTED 1\n#define STILL_COMMENTED */\n#define BODY \\\n#define NOT_A_DIRECTIVE\n\
                    #ifndef FMT_API\n#include <a.h>\n#define FMT_API\n#else\n#define FMT_API\n#endif\n#ifndef X\n#define Y\n#endif\n\
                    int x; // #define NO\n#define 5LX\n#undef LIMIT\n#ifndef YY_BREAK\n#define YY_BREAK /*LINTED*/break;\n#endif\n";
        assert_eq!(macros(text.as_bytes()), ["LIMIT", "MAX", "BODY", "FMT_API", "Y", "YY_BREAK"]);
    }

    fn written(text: &str) -> Vec<(String, u32)> {
        includes(text.as_bytes()).into_iter().map(|i| (i.module, i.line)).collect()
    }

    #[test]
    fn includes_are_read_from_directive_lines() {
        let text = "#include \"a.h\"\n  #  include <fmt/core.h> // why\n#include\t\"b/c.hpp\"\n#include MACRO\n\
                    #include_next <d.h>\nint x; // #include \"no.h\"\n";
        let expect = [("a.h", 0), ("fmt/core.h", 1), ("b/c.hpp", 2)];
        assert_eq!(written(text), expect.map(|(m, l)| (m.to_owned(), l)));
    }

    #[test]
    fn includes_inside_block_comments_are_none() {
        let text = "/* a comment\n#include \"no.h\"\n*/\n#include \"yes.h\"\nint a = '\"'; /* one */ int b; /*\n\
                    #include \"no2.h\" */\nconst char *s = \"/*\";\n#include \"yes2.h\"\nint n = 1'000; /* x */\n\
                    #include <yes3.h>\n";
        let modules: Vec<String> = written(text).into_iter().map(|(m, _)| m).collect();
        assert_eq!(modules, ["yes.h", "yes2.h", "yes3.h"]);
    }
}
