//! Hints from result records as a designer curated them: the identifiers dropped leave every
//! selection, and the hints of a selection that lost one are rendered again from what is left,
//! in the record's own projection. A selection nothing was dropped from keeps its hint text
//! byte for byte.

use crate::decisions::{Decisions, IdentifierKey};
use hintlens_hints::Identifier;
use hintlens_projection::{Description, Descriptions, Projection, RenderContext, render_with};
use serde_json::Value;

/// The identifiers of one selection of a result record, as the batch wrote them, each beside
/// its value in the record. A record without the selection has none.
pub fn identifiers<'r>(record: &'r Value, selection: &str) -> Result<Vec<(Identifier, &'r Value)>, String> {
    let Some(values) = record.get("selections").and_then(|s| s.get(selection)) else {
        return Ok(Vec::new());
    };
    let values = values.as_array().ok_or_else(|| format!("`selections.{selection}` is not a list"))?;
    values
        .iter()
        .map(|v| {
            let id = serde_json::from_value::<Identifier>(v.clone()).map_err(|e| {
                format!(
                    "an identifier of `selections.{selection}` cannot be read ({e}): is this the output of `hintlens batch`?"
                )
            })?;
            Ok((id, v))
        })
        .collect()
}

/// Renders the identifiers `keep` accepts in a projection, with the descriptions the record
/// carries (a provider's, written by the batch) and the task's requirements (SWE-bench Pro's,
/// for `pro`).
pub fn render(
    identifiers: &[(Identifier, &Value)],
    projection: Projection,
    requirements: Option<&str>,
    keep: &dyn Fn(&Value) -> bool,
) -> String {
    let mut descriptions = Descriptions::default();
    let mut kept = Vec::new();
    for (id, value) in identifiers.iter().filter(|(_, v)| keep(v)) {
        if let Some(d) = value.get("description").and_then(|d| serde_json::from_value::<Description>(d.clone()).ok()) {
            descriptions.insert(id, d);
        }
        kept.push(id.clone());
    }
    let ctx = RenderContext { requirements, descriptions: Some(&descriptions) };
    render_with(&kept, projection, &ctx)
}

/// A record with the decisions applied.
#[derive(Debug, Clone)]
pub struct Curated {
    pub record: Value,
    /// Identifiers taken out, counted once per selection that held them.
    pub dropped: usize,
}

/// Applies the decisions about the record's task: its selections lose the dropped identifiers,
/// and each hint `"<selection>+<projection>"` of a selection that lost one is rendered again.
/// A hint whose projection is unknown cannot be rendered again and is an error, never left
/// holding a dropped name.
pub fn curate(record: &Value, decisions: &Decisions, requirements: Option<&str>) -> Result<Curated, String> {
    let mut curated = record.clone();
    let instance_id = record.get("instance_id").and_then(Value::as_str).unwrap_or_default();
    let mut dropped = 0;
    let selections: Vec<String> =
        record.get("selections").and_then(Value::as_object).map(|m| m.keys().cloned().collect()).unwrap_or_default();
    let is_dropped = |v: &Value| decisions.is_dropped(instance_id, &IdentifierKey::of(v));
    for selection in selections {
        let identifiers = identifiers(record, &selection)?;
        let lost = identifiers.iter().filter(|(_, v)| is_dropped(v)).count();
        if lost == 0 {
            continue;
        }
        dropped += lost;
        let kept: Vec<Value> = identifiers.iter().filter(|(_, v)| !is_dropped(v)).map(|(_, v)| (*v).clone()).collect();
        curated["selections"][&selection] = Value::Array(kept);
        let keys: Vec<String> = record
            .get("hints")
            .and_then(Value::as_object)
            .map(|m| m.keys().filter(|k| k.split_once('+').is_some_and(|(s, _)| s == selection)).cloned().collect())
            .unwrap_or_default();
        for key in keys {
            let (_, projection) = key.split_once('+').unwrap_or_default();
            let projection: Projection = projection.parse().map_err(|e| {
                format!("{instance_id}: the hint `{key}` cannot be rendered without the dropped identifiers: {e}")
            })?;
            curated["hints"][&key] = Value::String(render(&identifiers, projection, requirements, &|v| !is_dropped(v)));
        }
    }
    Ok(Curated { record: curated, dropped })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decisions::{Decision, Entry, Verdict};
    use serde_json::json;

    /// A record as `hintlens batch` writes it for the example's first task.
    fn record() -> Value {
        json!({
            "instance_id": "t", "status": "ok",
            "selections": {"defuse": [
                {"name": "separator", "qualified_name": "textkit.slug.slugify.separator", "kind": "parameter",
                 "path": "textkit/slug.py", "line": 1, "is_new_file": false, "signature": "separator=\"-\"",
                 "parent": "textkit.slug.slugify", "parent_kind": "function", "direction": "code->test",
                 "resolution": "import", "evidence": [{"path": "tests/test_slug.py", "line": 9, "rule": "keyword"}],
                 "base_occurrences": 0, "in_problem_statement": true, "necessity": 0, "doc": null,
                 "entity": "definition", "local_name": "slugify.separator"},
                {"name": "truncate_slug", "qualified_name": "textkit.slug.truncate_slug", "kind": "function",
                 "path": "textkit/slug.py", "line": 6, "is_new_file": false,
                 "signature": "def truncate_slug(slug: str, max_length: int = 20) -> str", "parent": null,
                 "direction": "code->test", "resolution": "import",
                 "evidence": [{"path": "tests/test_slug.py", "line": 1, "rule": "import"}],
                 "base_occurrences": 0, "in_problem_statement": false, "necessity": 3,
                 "doc": "Cuts a slug at a word boundary.", "entity": "definition", "local_name": "truncate_slug"}
            ]},
            "hints": {
                "defuse+declaration": "- `textkit/slug.py`\n  - function `truncate_slug`: `def truncate_slug(slug: str, max_length: int = 20) -> str`\n  - in function `slugify`:\n    - parameter `separator`: `separator=\"-\"`\n",
                "defuse+name": "- `separator`\n- `truncate_slug`\n"
            }
        })
    }

    fn decide(verdict: Option<Verdict>) -> Decisions {
        let mut decisions = Decisions::default();
        decisions.apply(&Entry {
            time_ms: 0,
            decision: Decision::Identifier {
                instance_id: "t".into(),
                identifier: IdentifierKey {
                    qualified_name: "textkit.slug.truncate_slug".into(),
                    kind: "function".into(),
                    path: "textkit/slug.py".into(),
                },
                verdict,
                note: String::new(),
            },
        });
        decisions
    }

    #[test]
    fn a_record_renders_back_as_the_batch_rendered_it() {
        let record = record();
        let ids = identifiers(&record, "defuse").unwrap();
        assert_eq!(render(&ids, Projection::Declaration, None, &|_| true), record["hints"]["defuse+declaration"]);
        assert_eq!(render(&ids, Projection::Name, None, &|_| true), record["hints"]["defuse+name"]);
        assert!(identifiers(&record, "fea").unwrap().is_empty());
    }

    #[test]
    fn dropped_identifiers_leave_the_selection_and_its_hints() {
        let record = record();
        let curated = curate(&record, &decide(Some(Verdict::Drop)), None).unwrap();
        assert_eq!(curated.dropped, 1);
        let names: Vec<&str> = curated.record["selections"]["defuse"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v["name"].as_str().unwrap())
            .collect();
        assert_eq!(names, ["separator"]);
        // The parameter left alone still names its function's kind (`parent_kind`).
        assert_eq!(
            curated.record["hints"]["defuse+declaration"],
            "- `textkit/slug.py`\n  - in function `slugify`:\n    - parameter `separator`: `separator=\"-\"`\n"
        );
        assert_eq!(curated.record["hints"]["defuse+name"], "- `separator`\n");
        // Kept or taken back: the record as it was.
        for verdict in [Some(Verdict::Keep), None] {
            let curated = curate(&record, &decide(verdict), None).unwrap();
            assert_eq!((curated.dropped, &curated.record), (0, &record));
        }
    }

    #[test]
    fn a_hint_that_cannot_be_rendered_again_is_an_error() {
        let mut record = record();
        record["hints"]["defuse+made-up"] = json!("- `truncate_slug`\n");
        let e = curate(&record, &decide(Some(Verdict::Drop)), None).unwrap_err();
        assert!(e.contains("defuse+made-up"), "{e}");
    }
}
