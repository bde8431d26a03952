//! What the agent is told: the fields of a task's dataset row it reads (the problem statement;
//! SWE-bench Pro's requirements and interface; a hinted dataset's hint), and whether they state
//! a name ([`states`]). `hintlens batch --told` computes `necessity` with it and `hintlens audit`
//! counts hidden naming contracts with it: one definition for both.

use serde_json::{Map, Value};

/// SWE-bench's told field, and every benchmark's default.
pub const PROBLEM_STATEMENT: &str = "problem_statement";

/// What SWE-bench Pro tells its agents besides the problem statement; a dataset whose rows
/// carry either field is of SWE-bench Pro's shape.
pub const PRO_FIELDS: [&str; 2] = ["requirements", "interface"];

/// Whether `text` states `name`: the name — for a dotted or `::` path (`a.b.c`, `a::b`) its last
/// part — occurs in it as a whole word, case as written, where a word is a run of identifier
/// characters (letters, digits, `_`): `strict` is stated by `use obj.strict.` and by
/// `` `strict` ``, not by `strictly` or `is_strict`. An empty name is never stated.
///
/// The text of a told field is [`field_text`]'s: the field's strings, one a line, whatever its
/// shape, so a field's text never joins two strings into one word.
pub fn states(text: &str, name: &str) -> bool {
    let name = last_part(name);
    if name.is_empty() {
        return false;
    }
    let is_ident = |c: char| c.is_alphanumeric() || c == '_';
    text.match_indices(name).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + name.len()..].chars().next();
        !before.is_some_and(is_ident) && !after.is_some_and(is_ident)
    })
}

/// `c` of `a.b.c` and of `a::b::c`; the name itself otherwise.
fn last_part(name: &str) -> &str {
    name.rsplit(['.', ':']).next().unwrap_or(name)
}

/// The text of a told field, in any of the benchmarks' shapes: a string field (a problem
/// statement, SWE-bench Pro's `requirements` and free-text `interface` block) is itself; a
/// nested value (NoCode-bench's `augmentations`, FEA-Bench's definition lists and objects) is
/// every string it holds, at any depth, in order, one a line (object keys are structure, not
/// text, and are left out; so are numbers, booleans and nulls).
pub fn field_text(value: &Value) -> String {
    let mut out = String::new();
    collect(value, &mut out);
    out
}

fn collect(value: &Value, out: &mut String) {
    match value {
        Value::String(s) => {
            if !out.is_empty() {
                out.push('\n');
            }
            out.push_str(s);
        }
        Value::Array(items) => items.iter().for_each(|v| collect(v, out)),
        Value::Object(map) => map.values().for_each(|v| collect(v, out)),
        Value::Null | Value::Bool(_) | Value::Number(_) => {}
    }
}

/// The text of the told `fields` of one row: each field's [`field_text`], one after another
/// (a row lacking a field contributes nothing for it).
pub fn told_text(row: &Map<String, Value>, fields: &[String]) -> String {
    let mut out = String::new();
    for field in fields {
        if let Some(value) = row.get(field) {
            let text = field_text(value);
            if !text.is_empty() {
                if !out.is_empty() {
                    out.push('\n');
                }
                out.push_str(&text);
            }
        }
    }
    out
}

/// The fields a benchmark tells its agents, by the dataset's shape: `problem_statement`, and
/// SWE-bench Pro's `requirements` and `interface` too when some row carries either. With the
/// shape it was read from, for the output to say.
pub fn default_fields<'r>(rows: impl IntoIterator<Item = &'r Map<String, Value>>) -> (Vec<String>, &'static str) {
    let pro = rows.into_iter().any(|row| PRO_FIELDS.iter().any(|f| row.contains_key(*f)));
    let mut fields = vec![PROBLEM_STATEMENT.to_owned()];
    if pro {
        fields.extend(PRO_FIELDS.iter().map(|f| f.to_string()));
        (fields, "SWE-bench Pro's shape: rows carry `requirements` or `interface`")
    } else {
        (fields, "SWE-bench's shape")
    }
}

/// Checks that every field is one some row has; else an error naming the first missing one and
/// the fields the rows do have (in the order they first appear).
pub fn check_fields<'r>(
    rows: impl IntoIterator<Item = &'r Map<String, Value>> + Clone,
    fields: &[String],
    what: &str,
) -> Result<(), String> {
    for field in fields {
        if !rows.clone().into_iter().any(|row| row.contains_key(field)) {
            let mut known: Vec<&str> = Vec::new();
            for row in rows.clone() {
                for key in row.keys() {
                    if !known.contains(&key.as_str()) {
                        known.push(key);
                    }
                }
            }
            return Err(format!(
                "{what} `{field}` is not a field of the dataset (its rows have: {})",
                if known.is_empty() { "no fields".to_owned() } else { known.join(", ") }
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_name_is_stated_as_a_whole_word() {
        assert!(states("call `fetch` with strict", "strict"));
        assert!(states("strict", "strict"));
        assert!(!states("strictly speaking", "strict"));
        assert!(!states("is_strict", "strict"));
        assert!(states("use obj.strict.", "strict"));
        assert!(!states("anything", ""));
        // Case as written.
        assert!(!states("Strict mode", "strict"));
        // A path's last part.
        assert!(states("add truncate_slug", "textkit.slug.truncate_slug"));
        assert!(states("add truncate_slug", "slug::truncate_slug"));
        assert!(!states("add textkit.slug", "textkit.slug.truncate_slug"));
        assert!(!states("a.", "a."));
    }

    #[test]
    fn every_shape_gives_its_strings() {
        // NoCode-bench's augmentations: nested JSON.
        let augmentations = json!({"header": "If completing this task…", "data": [
            {"type": "function", "name": "frob_all", "signature": "def frob_all(x)"},
            {"type": "class", "name": "Frobber", "n": 3}
        ]});
        let text = field_text(&augmentations);
        assert!(states(&text, "frob_all") && states(&text, "Frobber"));
        // Keys are not text.
        assert!(!states(&text, "signature"));
        // FEA-Bench's definitions: a list of objects.
        let fea = json!([{"file": "a.py", "components": [{"type": "function", "name": "shorten"}]}]);
        assert!(states(&field_text(&fea), "shorten"));
        // Two strings never make one word.
        assert_eq!(field_text(&json!(["ab", "cd"])), "ab\ncd");
        assert!(!states(&field_text(&json!(["ab", "cd"])), "abcd"));
        assert_eq!(field_text(&json!(null)), "");
    }

    #[test]
    fn told_fields_by_shape_and_checked() {
        let swe = json!({"instance_id": "a", "problem_statement": "p"});
        let pro = json!({"instance_id": "b", "problem_statement": "p", "requirements": "r", "interface": "i"});
        let (swe, pro) = (swe.as_object().unwrap(), pro.as_object().unwrap());
        assert_eq!(default_fields([swe]).0, ["problem_statement"]);
        assert_eq!(default_fields([swe, pro]).0, ["problem_statement", "requirements", "interface"]);
        let fields = vec!["problem_statement".to_owned(), "interface".to_owned()];
        assert_eq!(told_text(pro, &fields), "p\ni");
        assert_eq!(told_text(swe, &fields), "p");
        assert!(check_fields([swe, pro], &fields, "told field").is_ok());
        let err = check_fields([swe], &fields, "told field").unwrap_err();
        assert_eq!(
            err,
            "told field `interface` is not a field of the dataset (its rows have: instance_id, problem_statement)"
        );
    }
}
