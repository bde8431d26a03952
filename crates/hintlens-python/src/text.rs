//! Text rules of Python that need no syntax tree.

/// Python's `inspect.cleandoc`: tabs expanded, the first line stripped, the common indentation
/// of the others removed, blank lines at either end dropped. Line ends are normalised first, as
/// Python's universal newlines would have done when reading the file.
pub(crate) fn cleandoc(raw: &str) -> String {
    let normalised = raw.replace("\r\n", "\n").replace('\r', "\n");
    let lines: Vec<String> = normalised.split('\n').map(expand_tabs).collect();
    let margin = lines
        .iter()
        .skip(1)
        .filter_map(|line| {
            let content = line.trim_start().chars().count();
            (content > 0).then(|| line.chars().count() - content)
        })
        .min();
    let mut cleaned: Vec<&str> = Vec::with_capacity(lines.len());
    for (i, line) in lines.iter().enumerate() {
        cleaned.push(match (i, margin) {
            (0, _) => line.trim_start(),
            (_, Some(margin)) => line.char_indices().nth(margin).map_or("", |(at, _)| &line[at..]),
            (_, None) => line,
        });
    }
    let first = cleaned.iter().position(|l| !l.is_empty());
    let last = cleaned.iter().rposition(|l| !l.is_empty());
    match (first, last) {
        (Some(first), Some(last)) => cleaned[first..=last].join("\n"),
        _ => String::new(),
    }
}

fn expand_tabs(line: &str) -> String {
    if !line.contains('\t') {
        return line.to_owned();
    }
    let mut out = String::with_capacity(line.len() + 8);
    let mut column = 0;
    for c in line.chars() {
        if c == '\t' {
            let spaces = 8 - column % 8;
            out.extend(std::iter::repeat_n(' ', spaces));
            column += spaces;
        } else {
            out.push(c);
            column += 1;
        }
    }
    out
}

/// `MAX_SIZE`, `A1`: the convention for module-level constants.
pub(crate) fn is_constant_name(name: &str) -> bool {
    let mut bytes = name.bytes();
    bytes.next().is_some_and(|b| b.is_ascii_uppercase())
        && bytes.all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_')
}

/// Python's hard keywords, which are never names.
pub(crate) fn is_keyword(name: &[u8]) -> bool {
    matches!(
        name,
        b"False"
            | b"None"
            | b"True"
            | b"and"
            | b"as"
            | b"assert"
            | b"async"
            | b"await"
            | b"break"
            | b"class"
            | b"continue"
            | b"def"
            | b"del"
            | b"elif"
            | b"else"
            | b"except"
            | b"finally"
            | b"for"
            | b"from"
            | b"global"
            | b"if"
            | b"import"
            | b"in"
            | b"is"
            | b"lambda"
            | b"nonlocal"
            | b"not"
            | b"or"
            | b"pass"
            | b"raise"
            | b"return"
            | b"try"
            | b"while"
            | b"with"
            | b"yield"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cleandoc_matches_python() {
        // Expected values computed with CPython's inspect.cleandoc.
        for (doc, clean) in [
            ("Summary.", "Summary."),
            ("Summary.\n\n    Details\n      indented\n    ", "Summary.\n\nDetails\n  indented"),
            ("\n    Starts below.\n    More.\n", "Starts below.\nMore."),
            ("   \n\n", ""),
            ("A\r\n    b\r\n", "A\nb"),
            ("A\n\tb\n\t  c", "A\nb\n  c"),
            ("  first\n  second", "first\nsecond"),
        ] {
            assert_eq!(cleandoc(doc), clean, "{doc:?}");
        }
    }

    #[test]
    fn constant_names() {
        for name in ["MAX", "A", "HTTP_2", "X_"] {
            assert!(is_constant_name(name), "{name}");
        }
        for name in ["", "_PRIVATE", "Max", "maxSize", "__all__", "2X", "ÄB"] {
            assert!(!is_constant_name(name), "{name}");
        }
    }
}
