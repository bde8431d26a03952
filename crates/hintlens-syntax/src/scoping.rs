//! Scopes a file opens through macros: C and C++ libraries spell their namespaces with a macro
//! of their own (`NLOHMANN_JSON_NAMESPACE_BEGIN`, `FMT_BEGIN_NAMESPACE`, `ABSL_NAMESPACE_BEGIN`),
//! defined in one header and used in all the others. The grammar cannot expand a macro, and
//! the file using one does not say what it expands to: the using file records where each such
//! line stands ([`ScopeMark`]), the defining file what the macro's body opens and closes
//! ([`ScopeMacro`]), and whoever holds the snapshot joins them ([`identity`]).
//!
//! A definition's *identity* across two snapshots is its local name with the scopes the macros
//! open put back, less every inline namespace: an inline namespace is an ABI tag
//! (`nlohmann::json_abi_v3_11_2`, `fmt::v10`), which its users never spell, so adding one or
//! bumping its version changes no definition under it.

use serde::{Deserialize, Serialize};

/// A line holding nothing but a macro's name, at namespace level (never inside a class or a
/// function): where a scope macro may open or close scopes.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ScopeMark {
    pub name: String,
    /// Zero-based.
    pub line: u32,
    /// How many namespace segments the file's own `namespace` blocks open around the line.
    pub depth: u32,
}

/// A macro whose body only opens and closes scopes (`#define FMT_BEGIN_NAMESPACE namespace fmt {
/// inline namespace v10 {`; `#define FMT_END_NAMESPACE } }`).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ScopeMacro {
    pub name: String,
    pub ops: Vec<ScopeOp>,
}

/// What a scope macro's body does, in order.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ScopeOp {
    /// `namespace a::b {` opens `a`, `b`; `export {`, `extern "C" {`, an anonymous namespace or
    /// one named by a macro (`inline namespace NLOHMANN_JSON_ABI_STRING {`) open no segment of
    /// a name.
    Open {
        segments: Vec<String>,
        inline: bool,
    },
    Close,
}

/// The ops of a macro body that only opens and closes scopes (`None` for any other body, and
/// for one that does neither). The body is the directive's text after the name and parameters,
/// line continuations and comments included.
pub fn scope_ops(body: &str) -> Option<Vec<ScopeOp>> {
    let tokens = tokens(body)?;
    let mut ops = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        match tokens[i] {
            Token::Close => {
                ops.push(ScopeOp::Close);
                i += 1;
            }
            Token::Word("inline") if tokens.get(i + 1) == Some(&Token::Word("namespace")) => {
                let (segments, next) = namespace(&tokens, i + 2)?;
                ops.push(ScopeOp::Open { segments, inline: true });
                i = next;
            }
            Token::Word("namespace") => {
                let (segments, next) = namespace(&tokens, i + 1)?;
                ops.push(ScopeOp::Open { segments, inline: false });
                i = next;
            }
            Token::Word("export") if tokens.get(i + 1) == Some(&Token::Open) => {
                ops.push(ScopeOp::Open { segments: Vec::new(), inline: false });
                i += 2;
            }
            Token::Word("extern")
                if tokens.get(i + 1) == Some(&Token::Text) && tokens.get(i + 2) == Some(&Token::Open) =>
            {
                ops.push(ScopeOp::Open { segments: Vec::new(), inline: false });
                i += 3;
            }
            _ => return None,
        }
    }
    (!ops.is_empty()).then_some(ops)
}

/// The segments of the namespace named from `tokens[at]` to its `{`, and the token after it.
/// A name that is a macro (spelled in capitals, or called) names no segment.
fn namespace(tokens: &[Token<'_>], mut at: usize) -> Option<(Vec<String>, usize)> {
    let mut segments = Vec::new();
    loop {
        match tokens.get(at)? {
            Token::Open => return Some((segments, at + 1)),
            Token::Word(word) if is_macro_name(word) => at += 1,
            Token::Word(word) => {
                segments.push((*word).to_owned());
                at += 1;
            }
            Token::Scope | Token::Call => at += 1,
            _ => return None,
        }
    }
}

fn is_macro_name(word: &str) -> bool {
    word.bytes().all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_')
        && word.bytes().any(|b| b.is_ascii_uppercase())
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Token<'a> {
    Word(&'a str),
    Open,
    Close,
    /// `::`
    Scope,
    /// A parenthesized argument list.
    Call,
    /// A string literal (`"C"`).
    Text,
}

fn tokens(body: &str) -> Option<Vec<Token<'_>>> {
    let b = body.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            c if c.is_ascii_whitespace() || c == b'\\' => i += 1,
            b'/' if b.get(i + 1) == Some(&b'/') => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                let end = body[i + 2..].find("*/")?;
                i += 2 + end + 2;
            }
            b'{' => {
                out.push(Token::Open);
                i += 1;
            }
            b'}' => {
                out.push(Token::Close);
                i += 1;
            }
            b':' if b.get(i + 1) == Some(&b':') => {
                out.push(Token::Scope);
                i += 2;
            }
            b'(' => {
                let mut depth = 0;
                while i < b.len() {
                    match b[i] {
                        b'(' => depth += 1,
                        b')' => depth -= 1,
                        _ => {}
                    }
                    i += 1;
                    if depth == 0 {
                        break;
                    }
                }
                out.push(Token::Call);
            }
            b'"' => {
                let end = body[i + 1..].find('"')?;
                i += 1 + end + 1;
                out.push(Token::Text);
            }
            c if c.is_ascii_alphabetic() || c == b'_' => {
                let start = i;
                while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                    i += 1;
                }
                out.push(Token::Word(&body[start..i]));
            }
            _ => return None,
        }
    }
    Some(out)
}

/// The identity of the definition with local name `local_name` (dotted) whose name stands on
/// `line` of a file with these `marks` and `inline_scopes` (the inline namespaces its own
/// `inline namespace` blocks open): its local name with the segments the scope macros before
/// it leave open inserted where they stand, less inline namespaces (the definition's own name
/// always kept). `ops` says what a mark's macro does; a macro it does not know opens nothing.
pub fn identity<'m>(
    local_name: &str,
    line: u32,
    marks: &[ScopeMark],
    ops: impl Fn(&str) -> Option<&'m [ScopeOp]>,
    inline_scopes: &[String],
) -> String {
    // The open scopes the marks before the line leave: (depth, segments, inline).
    let mut open: Vec<(u32, &[String], bool)> = Vec::new();
    for mark in marks.iter().take_while(|m| m.line < line) {
        for op in ops(&mark.name).unwrap_or_default() {
            match op {
                ScopeOp::Open { segments, inline } => open.push((mark.depth, segments, *inline)),
                ScopeOp::Close => {
                    open.pop();
                }
            }
        }
    }
    let parts: Vec<&str> = local_name.split('.').collect();
    let (own, prefix) = parts.split_last().expect("split yields one part at least");
    let mut out: Vec<&str> = Vec::with_capacity(parts.len() + open.len());
    let mut pending = open.iter().peekable();
    for (depth, part) in prefix.iter().enumerate() {
        while let Some((_, segments, inline)) = pending.next_if(|(d, _, _)| *d as usize <= depth) {
            if !inline {
                out.extend(segments.iter().map(String::as_str));
            }
        }
        if !inline_scopes.iter().any(|s| s == part) {
            out.push(part);
        }
    }
    for (_, segments, inline) in pending {
        if !inline {
            out.extend(segments.iter().map(String::as_str));
        }
    }
    out.push(own);
    out.join(".")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn open(segments: &[&str], inline: bool) -> ScopeOp {
        ScopeOp::Open { segments: segments.iter().map(|s| s.to_string()).collect(), inline }
    }

    #[test]
    fn bodies_that_only_open_and_close_scopes_are_scope_macros() {
        let nlohmann = "\\\n    namespace nlohmann                        \\\n    {                                         \\\n    inline namespace NLOHMANN_JSON_ABI_STRING \\\n    {";
        assert_eq!(scope_ops(nlohmann), Some(vec![open(&["nlohmann"], false), open(&[], true)]));
        let end = "\\\n    }  /* namespace (abi_string) */ \\\n    }  /* namespace nlohmann */";
        assert_eq!(scope_ops(end), Some(vec![ScopeOp::Close, ScopeOp::Close]));
        assert_eq!(
            scope_ops("namespace fmt { inline namespace v10 {"),
            Some(vec![open(&["fmt"], false), open(&["v10"], true)])
        );
        assert_eq!(scope_ops("namespace a::b {"), Some(vec![open(&["a", "b"], false)]));
        assert_eq!(scope_ops("inline namespace ABSL_CONCAT(lts_, 2023) {"), Some(vec![open(&[], true)]));
        assert_eq!(scope_ops("extern \"C\" {"), Some(vec![open(&[], false)]));
        assert_eq!(scope_ops("export {"), Some(vec![open(&[], false)]));
        for other in [
            "",
            "export",
            "__attribute__((visibility(\"default\")))",
            "do { x(); } while (0)",
            "{ int x; }",
            "namespace",
        ] {
            assert_eq!(scope_ops(other), None, "{other:?}");
        }
    }

    #[test]
    fn identity_puts_macro_scopes_back_and_drops_inline_namespaces() {
        let begin = [open(&["nlohmann"], false), open(&[], true)];
        let ops = |name: &str| (name == "NLOHMANN_JSON_NAMESPACE_BEGIN").then_some(&begin[..]);
        let marks = [ScopeMark { name: "NLOHMANN_JSON_NAMESPACE_BEGIN".into(), line: 3, depth: 0 }];
        assert_eq!(identity("detail.from_json_fn", 10, &marks, ops, &[]), "nlohmann.detail.from_json_fn");
        assert_eq!(identity("adl_serializer", 10, &marks, ops, &[]), "nlohmann.adl_serializer");
        // Before the mark, nothing is open.
        assert_eq!(identity("detail.x", 1, &marks, ops, &[]), "detail.x");
        // The keyword spelling with its inline namespace: the same identity.
        let v = ["json_abi_v3_11_2".to_string()];
        assert_eq!(identity("nlohmann.json_abi_v3_11_2.detail.x", 10, &[], ops, &v), "nlohmann.detail.x");
        // A namespace is its own name even when inline.
        assert_eq!(identity("nlohmann.json_abi_v3_11_2", 10, &[], ops, &v), "nlohmann.json_abi_v3_11_2");
        // A mark inside the file's own namespace (`namespace fmt { FMT_BEGIN_EXPORT …`).
        let export = [open(&[], false)];
        let marks = [ScopeMark { name: "FMT_BEGIN_EXPORT".into(), line: 1, depth: 1 }];
        assert_eq!(identity("fmt.format", 5, &marks, |_| Some(&export[..]), &[]), "fmt.format");
        let inner = [open(&["detail"], false)];
        assert_eq!(identity("fmt.format", 5, &marks, |_| Some(&inner[..]), &[]), "fmt.detail.format");
        let close = [ScopeOp::Close];
        let marks = [
            ScopeMark { name: "BEGIN".into(), line: 1, depth: 0 },
            ScopeMark { name: "END".into(), line: 4, depth: 0 },
        ];
        let ops = |name: &str| match name {
            "BEGIN" => Some(&inner[..]),
            _ => Some(&close[..]),
        };
        assert_eq!(identity("f", 2, &marks, ops, &[]), "detail.f");
        assert_eq!(identity("f", 6, &marks, ops, &[]), "f");
    }
}
