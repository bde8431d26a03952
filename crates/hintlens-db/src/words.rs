//! The words of a blob: every maximal run of identifier bytes, as a set of hashes. Kept per blob
//! for the whole batch of a repository (a few kilobytes each, where the text and its index are
//! a hundred times that), it answers "can this file name `x` at all?" for every snapshot that
//! holds the blob, so that a repository-wide question about a few names parses only the files
//! whose bytes hold them.

/// Identifier bytes: ASCII letters, digits, `_`, and every byte of a multi-byte UTF-8 sequence
/// (so non-ASCII identifiers are runs too). `$`, `-` and `.` are separators: a name holding them
/// is no single word and is looked for everywhere ([`word_parts`]).
fn is_word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b >= 0x80
}

/// The words of one text, as sorted 32-bit hashes. A collision only makes a file a candidate
/// that the confirmation then drops, so 32 bits are plenty and halve the memory.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Words(Box<[u32]>);

impl Words {
    pub fn of(text: &[u8]) -> Words {
        let mut hashes = Vec::with_capacity(text.len() / 16);
        let mut start = None;
        for (i, &b) in text.iter().enumerate() {
            match (is_word_byte(b), start) {
                (true, None) => start = Some(i),
                (false, Some(s)) => {
                    hashes.push(word_hash(&text[s..i]));
                    start = None;
                }
                _ => {}
            }
        }
        if let Some(s) = start {
            hashes.push(word_hash(&text[s..]));
        }
        hashes.sort_unstable();
        hashes.dedup();
        Words(hashes.into())
    }

    /// Whether every word of `parts` is among these words.
    pub fn contains_all(&self, parts: &[u32]) -> bool {
        parts.iter().all(|h| self.0.binary_search(h).is_ok())
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

fn word_hash(word: &[u8]) -> u32 {
    hintlens_syntax::name_hash(word) as u32
}

/// The words a file naming `name` as an identifier must contain: the name itself when it is
/// one word. `None` when it is not (`aria-label`, `$http`, an empty name): then no file can be
/// ruled out by its words.
pub fn word_parts(name: &str) -> Option<Vec<u32>> {
    let bytes = name.as_bytes();
    (!bytes.is_empty() && bytes.iter().all(|&b| is_word_byte(b))).then(|| vec![word_hash(bytes)])
}

/// The words a file holding a string literal of value `value` must contain: the value's own
/// words, when the literal's source text is sure to spell the value as it is (printable ASCII
/// without quotes or backslashes, which no frontend's unescaping produces from anything else).
/// `None` otherwise, and for a value without words.
pub fn string_parts(value: &str) -> Option<Vec<u32>> {
    let plain = value.bytes().all(|b| (b' '..=b'~').contains(&b) && !matches!(b, b'\\' | b'"' | b'\'' | b'`'));
    if !plain {
        return None;
    }
    let parts: Vec<u32> =
        value.as_bytes().split(|&b| !is_word_byte(b)).filter(|w| !w.is_empty()).map(word_hash).collect();
    (!parts.is_empty()).then_some(parts)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_are_maximal_identifier_runs() {
        let words = Words::of("def fetch_all(url):\n    return größe.get(url) # $x aria-label\n".as_bytes());
        for present in ["def", "fetch_all", "url", "return", "größe", "get", "x", "aria", "label"] {
            assert!(words.contains_all(&word_parts(present).unwrap()), "{present}");
        }
        for absent in ["fetch", "all", "ur", "aria-label"] {
            assert!(word_parts(absent).is_none_or(|p| !words.contains_all(&p)), "{absent}");
        }
        assert!(word_parts("$http").is_none() && word_parts("").is_none());
    }

    #[test]
    fn a_plain_string_is_looked_for_by_its_words() {
        let words = Words::of(b"raise ValueError(f\"unknown mode: {mode}!\")\n");
        assert!(words.contains_all(&string_parts("unknown mode: {}!").unwrap()));
        assert!(!words.contains_all(&string_parts("unknown model").unwrap()));
        assert!(string_parts("it's").is_none() && string_parts("tab\there").is_none() && string_parts("::").is_none());
    }
}
