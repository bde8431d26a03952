//! The words of a file: every maximal run of identifier bytes, as two sets of hashes — those in
//! code, and those in comments and string literals ([`hintlens_syntax::lexical`]). Kept per
//! blob for a repository's whole batch (a few kilobytes each, where the text and its index are
//! a hundred times that), they answer "does this file name `x` as an identifier?" for every
//! snapshot that holds the blob without parsing it, and narrow "does it hold this string?" to
//! the files worth parsing.

use hintlens_syntax::lexical::{self, Dialect, Place, is_word_byte};

/// The words of one text, as sorted 32-bit hashes. A collision could count a file as naming a
/// name it does not (about one in 2³² per word looked up); string lookups are confirmed by
/// parsing, so for them it only costs a parse.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Words {
    code: Box<[u32]>,
    /// Words in string literals only — and, where the lexer's comments may not be comments
    /// ([`Dialect::comments_are_exact`]), in comments.
    text: Box<[u32]>,
}

impl Words {
    pub fn of(text: &[u8], dialect: Dialect) -> Words {
        let (mut code, mut other) = (Vec::with_capacity(text.len() / 64), Vec::new());
        // Most words of a file are repeats (`self`, `return`): a small table of the words last
        // seen at each slot keeps most of them out of the lists to sort. Slot `i` starts with a
        // value that cannot belong to it, `!i`.
        let mut seen: [[u32; SEEN]; 2] = [std::array::from_fn(|i| !(i as u32)); 2];
        // Text words narrow string-literal lookups, and a literal's words are in the literal:
        // comments answer nothing, and are skipped unread (a third of Java's sources is
        // Javadoc), unless what the lexer takes for a comment may hide a literal.
        lexical::words(text, dialect, !dialect.comments_are_exact(), |word, place| {
            let hash = word_hash(word);
            let (list, seen) = match place {
                Place::Code => (&mut code, &mut seen[0]),
                Place::Text => (&mut other, &mut seen[1]),
            };
            let slot = &mut seen[hash as usize & (SEEN - 1)];
            if *slot != hash {
                *slot = hash;
                list.push(hash);
            }
        });
        code.sort_unstable();
        code.dedup();
        other.sort_unstable();
        other.dedup();
        // Text words that are code words too count once, as code: both lists are sorted, so one
        // walk along `code` removes them.
        let mut in_code = code.iter().peekable();
        other.retain(|h| {
            while in_code.next_if(|&c| c < h).is_some() {}
            in_code.peek() != Some(&h)
        });
        Words { code: code.into(), text: other.into() }
    }

    /// Whether `word` (a [`word_parts`] hash) is a word of the code.
    pub fn in_code(&self, word: u32) -> bool {
        self.code.binary_search(&word).is_ok()
    }

    /// Whether every word of `parts` occurs anywhere: code, comment or string.
    pub fn contains_all(&self, parts: &[u32]) -> bool {
        parts.iter().all(|h| self.code.binary_search(h).is_ok() || self.text.binary_search(h).is_ok())
    }

    pub fn len(&self) -> usize {
        self.code.len() + self.text.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Slots of the table of words last seen ([`Words::of`]): a power of two, so that a hash's
/// slot is its low bits, and the start value of slot `i`, `!i`, whose low bits are
/// `SEEN - 1 - i`, never belongs to it.
const SEEN: usize = 1024;

/// A word's hash: the low half of [`hintlens_syntax::name_hash`].
fn word_hash(word: &[u8]) -> u32 {
    hintlens_syntax::name_hash(word) as u32
}

/// The hash of `name` when it is one word (`fetch_all`, `$http`, `größe`); `None` when it is
/// not (`aria-label`, `a.b`, an empty name), which no word set can answer for.
pub fn word_of(name: &str) -> Option<u32> {
    let bytes = name.as_bytes();
    (!bytes.is_empty() && bytes.iter().all(|&b| is_word_byte(b))).then(|| word_hash(bytes))
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
    fn code_words_are_apart_from_comment_and_string_words() {
        let text = "def fetch_all(url):\n    return größe.get(url, '$x aria-label')  # note\n";
        let words = Words::of(text.as_bytes(), Dialect::Python);
        for code in ["def", "fetch_all", "url", "return", "größe", "get"] {
            assert!(words.in_code(word_of(code).unwrap()), "{code}");
        }
        for text_only in ["$x", "aria", "label"] {
            assert!(!words.in_code(word_of(text_only).unwrap()), "{text_only}");
            assert!(words.contains_all(&[word_of(text_only).unwrap()]), "{text_only}");
        }
        // A comment's words are no string's: not kept.
        assert!(!words.contains_all(&[word_of("note").unwrap()]));
        let js = hintlens_syntax::lexical::CStyle {
            single_quote_strings: true,
            backtick: hintlens_syntax::lexical::Backtick::Template,
            ..Default::default()
        };
        let words = Words::of(br"let r = /\/\//; const s = 'kept'; // note", Dialect::C(js));
        assert!(
            words.contains_all(&[word_of("kept").unwrap()]),
            "the regular expression's `//` hides it from the lexer"
        );
        assert!(words.contains_all(&[word_of("note").unwrap()]));
        assert!(!words.in_code(word_of("fetch").unwrap()));
        assert!(word_of("aria-label").is_none() && word_of("").is_none() && word_of("$http").is_some());
    }

    #[test]
    fn every_word_is_kept_however_often_and_in_whatever_order_it_comes() {
        // More distinct words than the table of words last seen has slots, each twice, apart,
        // and all alike but for their ends (which a weak hash lets collide).
        let names: Vec<String> = (0..5000).map(|i| format!("name_{i}")).collect();
        let text = format!("{}\n# {}\n{}\n", names.join(" "), names[..10].join(" "), names.join(" "));
        let words = Words::of(text.as_bytes(), Dialect::Python);
        assert!(names.iter().all(|n| words.in_code(word_of(n).unwrap())));
        assert!(!words.in_code(word_of("name_5000").unwrap()));
        assert_eq!(words.len(), 5000, "comment words that are code words count once");
    }

    #[test]
    fn a_plain_string_is_looked_for_by_its_words() {
        let words = Words::of(b"raise ValueError(f\"unknown mode: {mode}!\")\n", Dialect::Python);
        assert!(words.contains_all(&string_parts("unknown mode: {}!").unwrap()));
        assert!(!words.contains_all(&string_parts("unknown model").unwrap()));
        assert!(string_parts("it's").is_none() && string_parts("tab\there").is_none() && string_parts("::").is_none());
    }
}
