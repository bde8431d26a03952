//! `go.mod`: the one thing the Go frontend reads from it is the module path, the name its
//! directory's packages are imported under.

/// The module path a `go.mod` declares (`module go.flipt.io/flipt`, quoted or not), or `None`
/// when `text` does not start with a `module` directive (after comments): a Go source file
/// starts with its `package` clause, so the two never mix.
pub(crate) fn module_path(text: &[u8]) -> Option<String> {
    let rest = skip_comments(text);
    let rest = rest.strip_prefix(b"module")?;
    if !rest.first().is_some_and(|b| matches!(b, b' ' | b'\t' | b'(' | b'"' | b'`')) {
        return None;
    }
    // `module ( path )` is accepted by the go command too.
    let rest = skip_comments(rest);
    let rest = rest.strip_prefix(b"(").map_or(rest, skip_comments);
    let path = match rest.first() {
        Some(&quote @ (b'"' | b'`')) => {
            let inner = &rest[1..];
            let end = inner.iter().position(|&b| b == quote)?;
            &inner[..end]
        }
        _ => {
            let end = rest.iter().position(|b| b.is_ascii_whitespace() || *b == b')').unwrap_or(rest.len());
            &rest[..end]
        }
    };
    let path = std::str::from_utf8(path).ok()?.trim();
    (!path.is_empty() && !path.starts_with("//")).then(|| path.to_owned())
}

/// `text` after leading whitespace and `//` / `/* */` comments.
fn skip_comments(mut text: &[u8]) -> &[u8] {
    loop {
        let start = text.iter().position(|b| !b.is_ascii_whitespace()).unwrap_or(text.len());
        text = &text[start..];
        if let Some(rest) = text.strip_prefix(b"//") {
            text = rest.iter().position(|&b| b == b'\n').map_or(&[][..], |i| &rest[i + 1..]);
        } else if let Some(rest) = text.strip_prefix(b"/*") {
            text = rest.windows(2).position(|w| w == b"*/").map_or(&[][..], |i| &rest[i + 2..]);
        } else {
            return text;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn module_paths() {
        for (text, path) in [
            ("module go.flipt.io/flipt\n\ngo 1.21\n", Some("go.flipt.io/flipt")),
            ("// Deprecated: use v2.\nmodule example.com/m // trailing\n", Some("example.com/m")),
            ("/* header */ module \"example.com/quoted\"\n", Some("example.com/quoted")),
            ("module (\n\texample.com/block\n)\n", Some("example.com/block")),
            ("package main\n", None),
            ("modules x\n", None),
            ("module\n", None),
            ("", None),
        ] {
            assert_eq!(module_path(text.as_bytes()).as_deref(), path, "{text:?}");
        }
    }
}
