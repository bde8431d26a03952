//! The words of a file: every maximal run of identifier bytes, as sets of hashes — those in
//! code, and those in string literals ([`hintlens_syntax::lexical`]). Kept per blob for a
//! repository's whole batch (a few kilobytes each, where the text and its index are a hundred
//! times that), they answer "does this file name `x` as an identifier?" for every snapshot that
//! holds the blob without parsing it, and narrow "does it hold this string?" to the files worth
//! parsing.

use hintlens_syntax::lexical::{self, Dialect, Place, TextWords, is_word_byte};
use std::sync::OnceLock;

/// The words of one text, as sorted 32-bit hashes. A collision could count a file as naming a
/// name it does not (about one in 2³² per word looked up); string lookups are confirmed by
/// parsing, so for them it only costs a parse.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Words {
    code: Box<[u32]>,
    dialect: Dialect,
    /// The words of string literals that are no code words — and, where the lexer's comments
    /// may not be comments ([`Dialect::comments_are_exact`]), of comments. Lexed the first time a
    /// string is looked for ([`Words::contains_all`]): only string facts ask, and most batches
    /// ask none. Reading them with the code's was about 8% of qutebrowser's DefUse batch
    /// (Python's docstrings are strings).
    text: OnceLock<Box<[u32]>>,
}

impl Words {
    /// The code words of `text`: comments and strings are skipped unread.
    pub fn of(text: &[u8], dialect: Dialect) -> Words {
        let mut code = Vec::with_capacity(text.len() / 64);
        let mut seen = Seen::new();
        lexical::words(text, dialect, TextWords::NONE, |word, _| {
            if let Some(hash) = seen.first(word) {
                code.push(hash);
            }
        });
        code.sort_unstable();
        code.dedup();
        Words { code: code.into(), dialect, text: OnceLock::new() }
    }

    /// Whether `word` (a [`word_of`] hash) is a word of the code.
    pub fn in_code(&self, word: u32) -> bool {
        self.code.binary_search(&word).is_ok()
    }

    /// Whether every word of `parts` ([`string_parts`]) occurs in the code or a string literal
    /// of `text`, the text these words are of. It is read only when a part is no code word, and
    /// then once: `None` (it could not be read) answers no.
    pub fn contains_all<T: AsRef<[u8]>>(&self, parts: &[u32], text: impl FnOnce() -> Option<T>) -> bool {
        if parts.iter().all(|&h| self.in_code(h)) {
            return true;
        }
        let text_words = match self.text.get() {
            Some(words) => words,
            None => {
                let Some(text) = text() else { return false };
                self.text.get_or_init(|| self.text_words(text.as_ref()))
            }
        };
        parts.iter().all(|h| self.in_code(*h) || text_words.binary_search(h).is_ok())
    }

    /// The words of `text`'s strings (and inexact comments) that are no code words.
    fn text_words(&self, text: &[u8]) -> Box<[u32]> {
        let read = TextWords { strings: true, comments: !self.dialect.comments_are_exact() };
        let mut words = Vec::new();
        let mut seen = Seen::new();
        lexical::words(text, self.dialect, read, |word, place| {
            if place == Place::Text
                && let Some(hash) = seen.first(word)
            {
                words.push(hash);
            }
        });
        words.sort_unstable();
        words.dedup();
        // Those that are code words too count once, as code: both lists are sorted, so one walk
        // along the code words removes them.
        let mut in_code = self.code.iter().peekable();
        words.retain(|h| {
            while in_code.next_if(|&c| c < h).is_some() {}
            in_code.peek() != Some(&h)
        });
        words.into()
    }

    /// How many distinct words are known: the code's, and the strings' once read.
    pub fn len(&self) -> usize {
        self.code.len() + self.text.get().map_or(0, |t| t.len())
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// The words last seen, by the low bits of their hashes. Most words of a file are repeats
/// (`self`, `return`): the table keeps most of them out of the lists to sort. Slot `i` starts
/// with a value that cannot belong to it, `!i`.
struct Seen([u32; SEEN]);

impl Seen {
    fn new() -> Seen {
        Seen(std::array::from_fn(|i| !(i as u32)))
    }

    /// The hash of `word`, unless it is the word last seen at its slot.
    fn first(&mut self, word: &[u8]) -> Option<u32> {
        let hash = word_hash(word);
        let slot = &mut self.0[hash as usize & (SEEN - 1)];
        (*slot != hash).then(|| {
            *slot = hash;
            hash
        })
    }
}

/// Slots of the table of words last seen ([`Seen`]): a power of two, so that a hash's
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

/// The words any spelling of a name that is no single word holds (Ruby's `empty?` and `x=`, a
/// JSX `aria-label`): its runs of word bytes, as the lexer splits them. None for a name without
/// any (`[]`, `+`), which no word can rule out.
pub fn name_words(name: &str) -> Vec<u32> {
    name.as_bytes().split(|&b| !is_word_byte(b)).filter(|w| !w.is_empty()).map(word_hash).collect()
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

    /// A Ruby predicate or setter is found by the word its code spells; an operator by none.
    #[test]
    fn names_that_are_no_single_word_keep_their_word_runs() {
        let code = Words::of(b"if cache.empty? then x.size = 1 end\n", Dialect::Python);
        assert_eq!(word_of("empty?"), None);
        assert!(name_words("empty?").iter().all(|&w| code.in_code(w)));
        assert!(name_words("size=").iter().all(|&w| code.in_code(w)));
        assert_eq!(name_words("aria-label"), vec![word_hash(b"aria"), word_hash(b"label")]);
        assert!(name_words("[]=").is_empty());
        assert!(!name_words("full?").iter().all(|&w| code.in_code(w)));
    }

    #[test]
    fn code_words_are_apart_from_comment_and_string_words() {
        let text = "def fetch_all(url):\n    return größe.get(url, '$x aria-label')  # note\n";
        let words = Words::of(text.as_bytes(), Dialect::Python);
        let read = || Some(text);
        for code in ["def", "fetch_all", "url", "return", "größe", "get"] {
            assert!(words.in_code(word_of(code).unwrap()), "{code}");
        }
        for text_only in ["$x", "aria", "label"] {
            assert!(!words.in_code(word_of(text_only).unwrap()), "{text_only}");
            assert!(words.contains_all(&[word_of(text_only).unwrap()], read), "{text_only}");
        }
        // A comment's words are no string's: not kept.
        assert!(!words.contains_all(&[word_of("note").unwrap()], read));
        let js = hintlens_syntax::lexical::CStyle {
            single_quote_strings: true,
            backtick: hintlens_syntax::lexical::Backtick::Template,
            ..Default::default()
        };
        let text = br"let r = /\/\//; const s = 'kept'; // note";
        let words = Words::of(text, Dialect::C(js));
        let read = || Some(text);
        assert!(
            words.contains_all(&[word_of("kept").unwrap()], read),
            "the regular expression's `//` hides it from the lexer"
        );
        assert!(words.contains_all(&[word_of("note").unwrap()], read));
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
        assert_eq!(words.len(), 5000);
        // Words of strings that are code words too count once, as code.
        let text = format!("{text}s = '{}'\n", names[..10].join(" "));
        let words = Words::of(text.as_bytes(), Dialect::Python);
        assert!(words.contains_all(&[word_of("name_1").unwrap(), word_of("s").unwrap()], || None::<&[u8]>));
        assert!(!words.contains_all(&[word_of("name_1").unwrap(), word_of("name_").unwrap()], || Some(&text)));
        assert_eq!(words.len(), 5001, "the strings' words are read now, and none of them is new");
    }

    #[test]
    fn a_plain_string_is_looked_for_by_its_words() {
        let text = b"raise ValueError(f\"unknown mode: {mode}!\")\n";
        let words = Words::of(text, Dialect::Python);
        let read = || Some(text);
        assert!(words.contains_all(&string_parts("unknown mode: {}!").unwrap(), read));
        assert!(!words.contains_all(&string_parts("unknown model").unwrap(), read));
        let unread = Words::of(text, Dialect::Python);
        assert!(!unread.contains_all(&string_parts("unknown mode").unwrap(), || None::<&[u8]>), "unreadable: no");
        assert!(words.contains_all(&string_parts("unknown mode").unwrap(), || None::<&[u8]>), "read before");
        assert!(string_parts("it's").is_none() && string_parts("tab\there").is_none() && string_parts("::").is_none());
    }
}
