//! Pure text transformations: Javadoc cleaning and string literal values.

/// Whether a block comment is a Javadoc comment (`/**/` is an empty ordinary comment).
pub(crate) fn is_javadoc(comment: &[u8]) -> bool {
    comment.starts_with(b"/**") && comment != b"/**/"
}

/// The text of a Javadoc comment without its markers: lines of a paragraph joined with spaces,
/// paragraphs separated by a blank line, each block tag (`@param …`) on a line of its own.
/// `None` when nothing but markers remains.
pub(crate) fn clean_javadoc(comment: &str) -> Option<String> {
    let body = comment.strip_prefix("/**")?;
    let body = body.strip_suffix("*/").unwrap_or(body);
    let mut out = String::new();
    let mut paragraph_break = false;
    for line in body.lines() {
        // Like the javadoc tool: leading whitespace, then any run of `*`, are decoration.
        let line = line.trim_start().trim_start_matches('*').trim();
        if line.is_empty() {
            paragraph_break = !out.is_empty();
            continue;
        }
        if !out.is_empty() {
            out.push_str(if paragraph_break {
                "\n\n"
            } else if line.starts_with('@') {
                "\n"
            } else {
                " "
            });
        }
        paragraph_break = false;
        out.push_str(line);
    }
    (!out.is_empty()).then_some(out)
}

/// The value of a string literal as written in source: quotes removed, escapes kept. A text
/// block loses its opening line and its incidental indentation, as the compiler strips them.
/// Unterminated literals (syntax errors) keep whatever follows the opening quote.
/// Whether a bare name is spelled like a type (`Foo`, `HttpClient`) rather than a variable
/// (`count`) or constant (`MAX_SIZE`): Java's conventions are all a reader has to go on.
pub(crate) fn looks_like_type(name: &str) -> bool {
    name.starts_with(|c: char| c.is_ascii_uppercase()) && name.chars().any(|c| c.is_ascii_lowercase())
}

pub(crate) fn string_value(literal: &str) -> String {
    if let Some(rest) = literal.strip_prefix("\"\"\"") {
        let content = rest.strip_suffix("\"\"\"").unwrap_or(rest);
        // The opening delimiter must be followed by a line terminator, which is not content.
        let content = content.split_once('\n').map_or(content, |(_, after)| after);
        return strip_indent(content);
    }
    let rest = literal.strip_prefix('"').unwrap_or(literal);
    rest.strip_suffix('"').unwrap_or(rest).to_owned()
}

/// Java's `String.stripIndent` over a text block's content: removes the smallest indentation
/// of the non-blank lines and of the closing-delimiter line, and trailing whitespace.
fn strip_indent(content: &str) -> String {
    let lines: Vec<&str> = content.split('\n').collect();
    let last = lines.len() - 1;
    let indent = |line: &str| line.chars().take_while(|c| c.is_whitespace()).count();
    let min_indent = lines
        .iter()
        .enumerate()
        .filter(|&(i, line)| i == last || !line.trim().is_empty())
        .map(|(_, line)| indent(line))
        .min()
        .unwrap_or(0);
    let mut out = String::with_capacity(content.len());
    for (i, line) in lines.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        let rest = line.char_indices().nth(min_indent).map_or("", |(at, _)| &line[at..]);
        out.push_str(rest.trim_end());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn javadoc_markers_and_layout() {
        assert_eq!(clean_javadoc("/** One line. */").as_deref(), Some("One line."));
        assert_eq!(
            clean_javadoc(
                "/**\n   * Writes JSON.\n   * Fast.\n   *\n   * <p>Second.\n   * @param x the x\n   * @return y\n   */"
            )
            .as_deref(),
            Some("Writes JSON. Fast.\n\n<p>Second.\n@param x the x\n@return y")
        );
        assert_eq!(clean_javadoc("/*****\n ***** Boxed.\n *****/").as_deref(), Some("Boxed."));
        assert_eq!(clean_javadoc("/** */"), None);
        assert_eq!(clean_javadoc("/**"), None);
        assert_eq!(clean_javadoc("/** unterminated").as_deref(), Some("unterminated"));
    }

    #[test]
    fn javadoc_detection() {
        assert!(is_javadoc(b"/** x */"));
        assert!(is_javadoc(b"/***/"));
        assert!(!is_javadoc(b"/**/"));
        assert!(!is_javadoc(b"/* x */"));
    }

    #[test]
    fn string_values() {
        assert_eq!(string_value(r#""a\"b""#), r#"a\"b"#);
        assert_eq!(string_value(r#""""#), "");
        assert_eq!(string_value(r#""unterminated"#), "unterminated");
        assert_eq!(string_value("\"\"\"\n    Hello\n      World\n    \"\"\""), "Hello\n  World\n");
        assert_eq!(string_value("\"\"\"\n  a  \n\n  b\"\"\""), "a\n\nb");
        assert_eq!(string_value("\"\"\"\r\n  a\r\n  \"\"\""), "a\n");
        assert_eq!(string_value("\"\"\""), "");
    }
}
