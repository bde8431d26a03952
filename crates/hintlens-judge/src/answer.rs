//! Reading the judge's raw answers: the JSON object the prompt asks for, wherever in the text
//! it stands (code fences, prose around it), and its category labels as 0–3.
//!
//! Invariant: an answer is read or it is unparsable, with the reason; nothing is guessed. A
//! label must name one of its scale's four categories (case, `_`, spaces and a leading or
//! trailing level number that agrees with it are tolerated); a bare number, an unknown word, a
//! missing label or two objects that disagree make the answer unparsable.

use crate::prompts::Call;
use serde_json::{Map, Value};

/// One of the three ordinal scales.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Scale {
    Necessity,
    Disclosure,
    Guidance,
}

impl Scale {
    /// The categories, level 0 to 3.
    pub fn labels(self) -> [&'static str; 4] {
        match self {
            Scale::Necessity => ["REDUNDANT", "SEARCH-SAVING", "DISAMBIGUATING", "LOAD-BEARING"],
            Scale::Disclosure => ["INTERFACE", "CONTRACT", "MECHANISM", "TRANSCRIPTION"],
            Scale::Guidance => ["DECLARATIVE", "ORIENTING", "PROCEDURAL", "PRESCRIPTIVE"],
        }
    }

    /// The answer's keys for this scale: the prompt's, then the obvious variant.
    fn keys(self) -> [&'static str; 2] {
        match self {
            Scale::Necessity => ["label", "necessity_label"],
            Scale::Disclosure => ["disclosure_label", "disclosure"],
            Scale::Guidance => ["guidance_label", "guidance"],
        }
    }
}

/// A label's level on its scale.
pub fn parse_label(scale: Scale, text: &str) -> Result<u8, String> {
    let upper = text.trim().to_uppercase();
    let words: String = upper.chars().map(|c| if c.is_ascii_alphabetic() { c } else { ' ' }).collect();
    let words = words.split_whitespace().collect::<Vec<_>>().join("-");
    let digits: Vec<u32> = upper.chars().filter_map(|c| c.to_digit(10)).collect();
    let labels = scale.labels();
    let Some(level) = labels.iter().position(|l| *l == words) else {
        return Err(format!("`{}` is not one of {}", text.trim(), labels.join(", ")));
    };
    match digits.as_slice() {
        [] => Ok(level as u8),
        [d] if *d as usize == level => Ok(level as u8),
        _ => Err(format!("`{}`: its number disagrees with its label", text.trim())),
    }
}

/// What one answer says.
#[derive(Debug, Clone, PartialEq)]
pub struct Verdict {
    /// Levels 0–3 with the labels as written: necessity for a necessity call; disclosure and
    /// guidance for the other.
    pub necessity: Option<(u8, String)>,
    pub disclosure: Option<(u8, String)>,
    pub guidance: Option<(u8, String)>,
    pub evidence: Option<String>,
    pub rationale: Option<String>,
    pub confidence: Option<f64>,
}

/// Reads one raw answer of `call`.
pub fn parse_answer(call: Call, content: &str) -> Result<Verdict, String> {
    let scales: &[Scale] = match call {
        Call::Necessity => &[Scale::Necessity],
        Call::DisclosureGuidance => &[Scale::Disclosure, Scale::Guidance],
    };
    let has_labels = |o: &Map<String, Value>| scales.iter().all(|s| s.keys().iter().any(|k| o.contains_key(*k)));
    let objects: Vec<Map<String, Value>> = json_objects(content).into_iter().filter(has_labels).collect();
    let Some(object) = objects.first() else {
        let wanted: Vec<&str> = scales.iter().map(|s| s.keys()[0]).collect();
        return Err(format!("no JSON object with {} in the answer", wanted.join(" and ")));
    };
    let read = |scale: Scale, o: &Map<String, Value>| -> Result<(u8, String), String> {
        let value = scale.keys().iter().find_map(|k| o.get(*k)).expect("filtered on the keys");
        let text = value.as_str().ok_or_else(|| format!("the label {value} is not a string"))?;
        Ok((parse_label(scale, text)?, text.trim().to_owned()))
    };
    let mut levels = Vec::new();
    for &scale in scales {
        let (level, label) = read(scale, object)?;
        // Two answers in one text that disagree: neither is taken.
        for other in &objects[1..] {
            if read(scale, other).map(|(l, _)| l) != Ok(level) {
                return Err("the answer holds two JSON objects that disagree".into());
            }
        }
        levels.push(Some((level, label)));
    }
    let text = |key: &str| object.get(key).and_then(Value::as_str).map(|s| s.trim().to_owned());
    let confidence = object.get("confidence").and_then(|c| c.as_f64().or_else(|| c.as_str()?.trim().parse().ok()));
    let mut levels = levels.into_iter();
    let (necessity, disclosure, guidance) = match call {
        Call::Necessity => (levels.next().flatten(), None, None),
        Call::DisclosureGuidance => (None, levels.next().flatten(), levels.next().flatten()),
    };
    Ok(Verdict {
        necessity,
        disclosure,
        guidance,
        evidence: text("evidence"),
        rationale: text("rationale"),
        confidence,
    })
}

/// Every JSON object in `text`, in the order they open (an object, then those nested in it):
/// each `{` that opens a balanced span (strings and escapes respected) which parses as an
/// object. Code fences and prose fall outside.
fn json_objects(text: &str) -> Vec<Map<String, Value>> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut start = 0;
    while let Some(offset) = text[start..].find('{') {
        let open = start + offset;
        if let Some(Value::Object(object)) =
            balanced_end(bytes, open).and_then(|end| serde_json::from_str::<Value>(&text[open..end]).ok())
        {
            out.push(object);
        }
        start = open + 1;
    }
    out
}

/// The end (exclusive) of the brace-balanced span opening at `open`.
fn balanced_end(bytes: &[u8], open: usize) -> Option<usize> {
    let (mut depth, mut in_string, mut escaped) = (0usize, false, false);
    for (i, &b) in bytes.iter().enumerate().skip(open) {
        if in_string {
            match b {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'{' => depth += 1,
            b'}' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i + 1);
                }
            }
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_in_their_many_spellings() {
        assert_eq!(parse_label(Scale::Necessity, "LOAD-BEARING"), Ok(3));
        assert_eq!(parse_label(Scale::Necessity, " load_bearing "), Ok(3));
        assert_eq!(parse_label(Scale::Necessity, "Search saving"), Ok(1));
        assert_eq!(parse_label(Scale::Necessity, "3 LOAD-BEARING"), Ok(3));
        assert_eq!(parse_label(Scale::Necessity, "2 - DISAMBIGUATING"), Ok(2));
        assert_eq!(parse_label(Scale::Disclosure, "MECHANISM (2)"), Ok(2));
        assert_eq!(parse_label(Scale::Guidance, "<ORIENTING>"), Ok(1));
        assert_eq!(parse_label(Scale::Disclosure, "interface"), Ok(0));
    }

    #[test]
    fn labels_that_are_not_read() {
        assert!(parse_label(Scale::Necessity, "3").is_err());
        assert!(parse_label(Scale::Necessity, "2 LOAD-BEARING").unwrap_err().contains("disagrees"));
        assert!(parse_label(Scale::Necessity, "LOADBEARING").is_err());
        assert!(parse_label(Scale::Necessity, "REDUNDANT|SEARCH-SAVING").is_err());
        assert!(parse_label(Scale::Guidance, "MECHANISM").is_err());
        assert!(parse_label(Scale::Disclosure, "").is_err());
    }

    #[test]
    fn balanced_spans_respect_strings() {
        let objects = json_objects(r#"x {"a": "}{", "b": {"c": 1}} y {"d": 2"#);
        assert_eq!(objects.len(), 2);
        assert_eq!(objects[0]["a"], "}{");
        assert_eq!(objects[1]["c"], 1);
    }
}
