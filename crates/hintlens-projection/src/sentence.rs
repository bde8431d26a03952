//! The one sentence `declaration-doc` reveals of a docstring.

/// Most words the sentence may have (the paper's "one sentence, at most 20 words").
const MAX_WORDS: usize = 20;

/// Abbreviations whose period ends no sentence.
const ABBREVIATIONS: &[&str] = &["e.g.", "i.e.", "etc.", "vs.", "cf.", "approx.", "no."];

/// The first sentence of the first paragraph, on one line, cut to 20 words (an ellipsis marks
/// the cut).
pub fn first_sentence(doc: &str) -> String {
    let paragraph = doc.trim().split("\n\n").next().unwrap_or_default();
    let words: Vec<&str> = paragraph.split_whitespace().collect();
    let end = words
        .iter()
        .position(|w| {
            let lower = w.to_lowercase();
            (w.ends_with('.') || w.ends_with('!') || w.ends_with('?')) && !ABBREVIATIONS.contains(&lower.as_str())
        })
        .map_or(words.len(), |i| i + 1);
    if end > MAX_WORDS {
        let mut cut = words[..MAX_WORDS].join(" ");
        cut.push('…');
        return cut;
    }
    words[..end].join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_sentence_of_the_first_paragraph() {
        assert_eq!(
            first_sentence("Turns a title into a URL slug.\n\nArgs:\n  s: the title"),
            "Turns a title into a URL slug."
        );
        assert_eq!(first_sentence("Create a Text object\nfrom ANSI. More here."), "Create a Text object from ANSI.");
        assert_eq!(first_sentence("Uses e.g. commas. Then more."), "Uses e.g. commas.");
        assert_eq!(first_sentence("No period at all"), "No period at all");
        assert_eq!(first_sentence(""), "");
    }

    #[test]
    fn long_sentences_are_cut_at_twenty_words() {
        let long = (1..=30).map(|i| format!("w{i}")).collect::<Vec<_>>().join(" ") + ".";
        let cut = first_sentence(&long);
        assert_eq!(cut.split_whitespace().count(), 20);
        assert!(cut.ends_with("w20…"));
    }
}
