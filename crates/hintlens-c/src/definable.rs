//! Whether C++ text may define a name, read without a parse ([`Frontend::may_define`]).
//!
//! The walk names a definition by where its name stands: the namespaces enclosing it, the
//! classes (or enum, or template) between them and it, and for an out-of-line `a::b::f` the
//! qualifier as well; a method or constructor defined out of line under a qualifier whose last
//! name is a type of the file (`T::m`) takes that type's local name instead. A macro's name
//! stands in a directive. So a definition of `ns::T::f` can only be where the text spells `f`
//! in code under namespaces its qualified name starts with, or after any qualifier ending in
//! `T` for a method — or anywhere in a directive. (The qualifier is not asked to end the name:
//! a tree in error may leave it out.) The namespaces are those the text's braces open
//! ([`crate::namespaces`]): the walk takes them where the tree has errors, and the tree's are
//! theirs where it has none.
//!
//! An identity ([`hintlens_syntax::scoping::identity`]) is the qualified name unless the file
//! opens an inline namespace or marks a scope with a macro that opens one: such a file may
//! define anything.
//!
//! [`Frontend::may_define`]: hintlens_syntax::Frontend::may_define

use crate::namespaces::Reader;
use crate::scan::{Token, scan};
use hintlens_syntax::DefKind;
use std::collections::HashSet;

pub(crate) fn may_define(
    text: &[u8],
    wanted: &[(&str, DefKind)],
    is_scope_macro: &mut dyn FnMut(&str) -> bool,
) -> bool {
    let wanted: Vec<(Vec<&str>, DefKind)> = wanted.iter().map(|(q, k)| (q.split("::").collect(), *k)).collect();
    // A name the scan does not read as one word (`$` in it) is not looked for.
    let word = |name: &&str| !name.is_empty() && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_');
    if wanted.iter().any(|(parts, _)| !parts.last().is_some_and(word)) {
        return true;
    }
    // Nor is a text that is no source (NULs, bytes that are no UTF-8), where tree-sitter's
    // recovery lexes what this reading skips.
    if memchr::memchr(0, text).is_some() || std::str::from_utf8(text).is_err() {
        return true;
    }
    let names = Names::new(wanted.iter().filter_map(|(parts, _)| parts.last().copied()));
    // The walk defines only names it reads, as do identities: a text spelling none of them
    // holds none.
    if !names.names.iter().any(|name| memchr::memmem::find(text, name.as_bytes()).is_some()) {
        return false;
    }
    let (found, opens_inline) = defined_where_spelled(text, &wanted, &names);
    if found || opens_inline {
        return true;
    }
    let marks = crate::macro_lines::stray_lines(text).into_iter().map(|stray| &text[stray.range]);
    // As the walk takes a scope mark: a macro's name alone on its line.
    let mut marks = marks.filter(|alone| alone.iter().all(|b| b.is_ascii_alphanumeric() || *b == b'_'));
    marks.any(|mark| is_scope_macro(std::str::from_utf8(mark).unwrap_or_default()))
}

/// The last names of what is wanted, told apart from the text's other words at little cost:
/// most words differ in length or first byte from every one of them.
struct Names<'a> {
    names: HashSet<&'a str>,
    /// Bit `n` for a name `n` bytes long (the longest in the last bit).
    lengths: u64,
    /// Bit `b % 64` for a name starting with byte `b`.
    starts: u64,
}

impl<'a> Names<'a> {
    fn new(names: impl Iterator<Item = &'a str>) -> Names<'a> {
        let names: HashSet<&str> = names.collect();
        let bit = |n: usize| 1u64 << n.min(63);
        let lengths = names.iter().fold(0, |bits, n| bits | bit(n.len()));
        let starts = names.iter().fold(0, |bits, n| bits | bit(usize::from(n.as_bytes()[0] % 64)));
        Names { names, lengths, starts }
    }

    fn contains(&self, word: &str) -> bool {
        let bit = |n: usize| 1u64 << n.min(63);
        self.lengths & bit(word.len()) != 0
            && self.starts & bit(usize::from(word.as_bytes()[0] % 64)) != 0
            && self.names.contains(word)
    }
}

/// Whether a code occurrence of one of `names`, the last names of `wanted` (its parts, and
/// kind), stands where the walk could define it, or a directive spells one; and, read as far
/// as that, whether the text opens an inline namespace.
fn defined_where_spelled(text: &[u8], wanted: &[(Vec<&str>, DefKind)], names: &Names<'_>) -> (bool, bool) {
    let mut namespaces = Reader::default();
    let mut found = false;
    // The name before the `:`s since the last word (`T` of `a::T::`), and how many there are.
    let mut owner: Option<&str> = None;
    let mut colons = 0;
    // The last word was `template` after a `::` (`T::template f`): what follows it is qualified
    // by a chain read no further.
    let mut qualified_template = false;
    scan(text, |token| {
        let after_template = std::mem::take(&mut qualified_template);
        match token {
            Token::Word(w) => {
                let w = std::str::from_utf8(w).unwrap_or_default();
                // A name a number runs into may be defined.
                if w.as_bytes()[0].is_ascii_digit() {
                    found = in_number(names, w);
                } else if names.contains(w) {
                    // The qualifier's last name: `Some(None)` for none, `None` for one this reading
                    // does not follow (`T<int>::f`, `::f`, `T::template f`).
                    let qualifier = match (colons, owner) {
                        (2, owner) => owner.map(Some),
                        _ if after_template => None,
                        _ => Some(None),
                    };
                    let enclosing: Vec<&str> = namespaces.names().map(String::as_str).collect();
                    found = wanted
                        .iter()
                        .filter(|(parts, _)| parts.last() == Some(&w))
                        .any(|(parts, kind)| qualifier.is_none_or(|owner| definable(parts, *kind, &enclosing, owner)));
                }
                qualified_template = w == "template" && colons == 2;
                // A keyword is no scope: `void ::f()` is qualified by the global namespace.
                owner = (!crate::CPP_SPEC.keywords.contains(&w)).then_some(w);
                colons = 0;
            }
            Token::Punct(b':') => colons += 1,
            // A backslash in code splices lines, which a grammar may read otherwise (a comment
            // after it left unread).
            Token::Punct(b'\\') => found = true,
            // What follows may be code to the grammar: anything may be defined.
            Token::Unsure => found = true,
            Token::Directive(_, ref range) => {
                let words = text[range.clone()].split(|b| !(b.is_ascii_alphanumeric() || *b == b'_'));
                let mut words = words.filter(|w| !w.is_empty()).map(|w| std::str::from_utf8(w).unwrap_or_default());
                found = words.any(|w| names.contains(w) || in_number(names, w));
                (owner, colons) = (None, 0);
            }
            _ => (owner, colons) = (None, 0),
        }
        namespaces.read(&token);
        !found
    });
    (found, namespaces.opens_inline)
}

/// Whether a word of this reading that starts with a digit ends in one of `names`: a number
/// runs into a name for this reading, not for the grammar's (`0t00` is `0` and `t00`, `5LX` is
/// `5L` and `X`).
fn in_number(names: &Names<'_>, word: &str) -> bool {
    let starts = word.char_indices().skip(1).filter(|(_, c)| !c.is_ascii_digit());
    word.as_bytes()[0].is_ascii_digit() && starts.map(|(at, _)| &word[at..]).any(|suffix| names.contains(suffix))
}

/// Whether the walk could give a definition the qualified name `parts` (its own name last) and
/// `kind` where its name stands under the namespaces `enclosing` after a qualifier whose last
/// name is `owner` (if any).
fn definable(parts: &[&str], kind: DefKind, enclosing: &[&str], owner: Option<&str>) -> bool {
    // A macro is no namespace's; its `#define` may stand where this reading saw none (after
    // code on its line).
    if kind == DefKind::Macro && parts.len() == 1 {
        return true;
    }
    let own = parts.len() - 1;
    // The qualifier is not asked to end the name: a tree in error may not take it for the
    // name's (`} vae : std::false_type {};` names a typedef'd struct `false_type`).
    let under = parts.len() >= enclosing.len() && parts.iter().zip(enclosing).all(|(p, e)| p == e);
    // A method of a type of the file, out of line: the type's name, wherever it stands.
    let of_a_type = matches!(kind, DefKind::Method | DefKind::Constructor)
        && owner.is_some_and(|owner| own > 0 && parts[own - 1] == owner);
    under || of_a_type
}

#[cfg(test)]
mod tests {
    use super::may_define;
    use hintlens_syntax::DefKind;

    fn may(text: &str, qualified: &str, kind: DefKind) -> bool {
        may_define(text.as_bytes(), &[(qualified, kind)], &mut |_| false)
    }

    #[test]
    fn a_name_is_definable_where_its_namespaces_and_qualifier_lead_to_it() {
        let text = "namespace Catch { namespace Benchmark { namespace Detail {\n\
                    double directCompare(double a, double b);\n} }\n\
                    namespace Benchmark { double Detail::directCompare(double a, double b) { return a - b; }\n\
                    void use() { Catch::Benchmark::Detail::directCompare(1, 2); } } }";
        assert!(may(text, "Catch::Benchmark::Detail::directCompare", DefKind::Function));
        // Moved to `Catch::Detail`: nowhere under `Catch::Detail` (or `Catch` alone) is it spelled.
        assert!(!may(text, "Catch::Detail::directCompare", DefKind::Function));
        // Spelled under `Catch`, a qualifier before it is not trusted to lead elsewhere: a tree in
        // error may leave it out of the name.
        let under_catch = text.replace("void use()", "} void use()").replace("2); } } }", "2); } }");
        assert!(may(&under_catch, "Catch::Detail::directCompare", DefKind::Function));
        assert!(!may(text, "directCompare", DefKind::Function));
        // In a class under `Catch::Benchmark::Detail` (or `Catch::Benchmark`, where it is spelled
        // too), not under `Catch::Other`.
        assert!(may(text, "Catch::Benchmark::Detail::Stats::directCompare", DefKind::Method));
        assert!(!may(text, "Catch::Other::Stats::directCompare", DefKind::Method));
        // `Detail::directCompare` out of line: a method of a type `Detail` wherever it is.
        assert!(may(text, "Other::Detail::directCompare", DefKind::Method));
        assert!(!may(text, "Other::Detail::directCompare", DefKind::Function));
    }

    #[test]
    fn what_the_reading_does_not_follow_may_define_anything() {
        // A typedef's struct the tree names after a qualifier it drops (a fuzz target's find).
        let text = "namespace Catch {\ntypedef struct {\n  void* p;\n  } vae : std::false_type {};\n}\n";
        assert!(may(text, "Catch::false_type", DefKind::Struct));
        let f = |text: &str| may(text, "a::f", DefKind::Function);
        // A template's qualifier, a global one, `::template`, a directive, a name not spelled.
        assert!(f("namespace b { void T<int>::f() {} }"));
        assert!(f("namespace b { void ::f(); }"));
        assert!(f("namespace a { void ::f() {} }"));
        assert!(f("namespace b { x = T::template f<int>(); }"));
        assert!(f("#define f 1\n"));
        assert!(may("namespace a { int x; #define Y 1\n}", "Y", DefKind::Macro));
        // A name a number runs into (the fuzz target's `10)0t00`).
        assert!(may("namespace b { int a = 10)0t00; }", "a::t00", DefKind::Variable));
        assert!(may("#define\x015LX 1\n", "X", DefKind::Macro));
        // A line spliced in code.
        assert!(f("namespace b { \\\n void f(); }"));
        assert!(!may("namespace b { int a = 0x1f; }", "a::x", DefKind::Variable));
        // A text that is no source; a comment holding a directive's line.
        assert!(f("namespace b { void f(); }\0"));
        assert!(f("namespace b { /*\n#define X\n*/ void f(); }"));
        assert!(!f("namespace b { /* #define X */ void f(); }"));
        // An unclosed comment or literal, after which the grammar may read code.
        assert!(f("namespace b { /** doc\n void f(); }\n namespace a {}"));
        assert!(f("namespace b { const char* s = \"x\\\"; }\n namespace a { void f(); }"));
        assert!(!f("namespace b { void f(); } // a::f\n const char* s = \"a::f\";"));
        assert!(!may("namespace b { void f(); }", "a::g", DefKind::Function));
        assert!(may("void f$x();", "f$x", DefKind::Function));
    }

    #[test]
    fn a_file_whose_identities_differ_from_its_qualified_names_may_define_anything() {
        let text = "namespace b { inline namespace v1 { void f(); } }";
        assert!(may(text, "a::f", DefKind::Function));
        let text = "namespace b {\nMY_BEGIN\nvoid f();\nMY_END\n}\n";
        assert!(!may(text, "a::f", DefKind::Function));
        assert!(may_define(text.as_bytes(), &[("a::f", DefKind::Function)], &mut |m| m == "MY_BEGIN"));
    }
}
