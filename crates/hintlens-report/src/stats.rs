//! `hintlens stats`: the paper's Table 2 — per selection, how many tasks it was run on, on how
//! many it is non-empty, and how many identifiers it discloses in total, per task and per
//! non-empty task — and the mean length of each rendered hint.

use crate::records::is_ok;
use hintlens_hints::Selection;
use hintlens_projection::Projection;
use serde::Serialize;
use serde_json::Value;
use std::collections::BTreeMap;
use std::fmt::Write;

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SelectionStats {
    pub selection: String,
    pub tasks: usize,
    pub non_empty: usize,
    pub total: usize,
    pub mean: f64,
    pub mean_non_empty: f64,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct HintStats {
    /// `"<selection>+<projection>"`.
    pub key: String,
    pub tasks: usize,
    pub non_empty: usize,
    /// Mean length in characters (Unicode scalar values) over all tasks, and over the tasks
    /// whose hint is not empty.
    pub mean_chars: f64,
    pub mean_chars_non_empty: f64,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Stats {
    /// Result records read; how many are errors and how many `unsupported` (a language no
    /// frontend reads) — both left out of every figure.
    pub records: usize,
    pub errors: usize,
    pub unsupported: usize,
    pub selections: Vec<SelectionStats>,
    pub hints: Vec<HintStats>,
}

fn mean(sum: usize, n: usize) -> f64 {
    if n == 0 { 0.0 } else { sum as f64 / n as f64 }
}

/// Known selections and projections in their canonical order, unknown ones after, by name.
fn order_key(name: &str) -> (usize, usize, String) {
    let (selection, projection) = name.split_once('+').unwrap_or((name, ""));
    let s = Selection::ALL.iter().position(|s| s.as_str() == selection).unwrap_or(usize::MAX);
    let p = Projection::ALL.iter().position(|p| p.as_str() == projection).unwrap_or(usize::MAX);
    (s, p, name.to_owned())
}

pub fn stats(records: &[Value]) -> Stats {
    // (tasks, non-empty, total) per selection; (tasks, non-empty, chars) per hint key.
    let mut selections: BTreeMap<String, (usize, usize, usize)> = BTreeMap::new();
    let mut hints: BTreeMap<String, (usize, usize, usize)> = BTreeMap::new();
    let (mut errors, mut unsupported) = (0, 0);
    for record in records {
        if !is_ok(record) {
            if record.get("status").and_then(Value::as_str) == Some("unsupported") {
                unsupported += 1;
            } else {
                errors += 1;
            }
            continue;
        }
        for (name, ids) in record.get("selections").and_then(Value::as_object).into_iter().flatten() {
            let n = ids.as_array().map_or(0, Vec::len);
            let entry = selections.entry(name.clone()).or_default();
            entry.0 += 1;
            entry.1 += usize::from(n > 0);
            entry.2 += n;
        }
        for (key, text) in record.get("hints").and_then(Value::as_object).into_iter().flatten() {
            let chars = text.as_str().map_or(0, |t| t.chars().count());
            let entry = hints.entry(key.clone()).or_default();
            entry.0 += 1;
            entry.1 += usize::from(chars > 0);
            entry.2 += chars;
        }
    }
    let mut selections: Vec<SelectionStats> = selections
        .into_iter()
        .map(|(selection, (tasks, non_empty, total))| SelectionStats {
            selection,
            tasks,
            non_empty,
            total,
            mean: mean(total, tasks),
            mean_non_empty: mean(total, non_empty),
        })
        .collect();
    selections.sort_by_key(|s| order_key(&s.selection));
    let mut hints: Vec<HintStats> = hints
        .into_iter()
        .map(|(key, (tasks, non_empty, chars))| HintStats {
            key,
            tasks,
            non_empty,
            mean_chars: mean(chars, tasks),
            mean_chars_non_empty: mean(chars, non_empty),
        })
        .collect();
    hints.sort_by_key(|h| order_key(&h.key));
    Stats { records: records.len(), errors, unsupported, selections, hints }
}

impl Stats {
    pub fn markdown(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "{} records, {} unsupported and {} errors (left out)\n",
            self.records, self.unsupported, self.errors
        );
        out.push_str("| selection | tasks | non-empty | total | mean | mean per non-empty |\n");
        out.push_str("|---|---:|---:|---:|---:|---:|\n");
        for s in &self.selections {
            let _ = writeln!(
                out,
                "| {} | {} | {} | {} | {:.2} | {:.2} |",
                s.selection, s.tasks, s.non_empty, s.total, s.mean, s.mean_non_empty
            );
        }
        if !self.hints.is_empty() {
            out.push_str("\n| hint | tasks | non-empty | mean chars | mean chars per non-empty |\n");
            out.push_str("|---|---:|---:|---:|---:|\n");
            for h in &self.hints {
                let _ = writeln!(
                    out,
                    "| {} | {} | {} | {:.1} | {:.1} |",
                    h.key, h.tasks, h.non_empty, h.mean_chars, h.mean_chars_non_empty
                );
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn record(defuse: usize, fea: usize, hint: &str) -> Value {
        let ids = |n: usize| Value::Array((0..n).map(|i| json!({"name": format!("n{i}")})).collect());
        json!({
            "instance_id": "x", "status": "ok",
            "selections": {"fea": ids(fea), "defuse": ids(defuse)},
            "hints": {"defuse+declaration": hint, "fea+fea-brief": "ab"},
        })
    }

    #[test]
    fn table_two_per_selection_and_hint_lengths() {
        let records = vec![
            record(2, 3, "héllo"),
            record(0, 1, ""),
            record(4, 2, "abc"),
            json!({"instance_id": "bad", "status": "error", "selections": {}, "hints": {}}),
            json!({"instance_id": "go", "status": "unsupported", "selections": {}, "hints": {}}),
        ];
        let s = stats(&records);
        assert_eq!((s.records, s.errors, s.unsupported), (5, 1, 1));
        assert!(s.markdown().starts_with("5 records, 1 unsupported and 1 errors (left out)"), "{}", s.markdown());
        assert_eq!(
            s.selections[0],
            SelectionStats {
                selection: "defuse".into(),
                tasks: 3,
                non_empty: 2,
                total: 6,
                mean: 2.0,
                mean_non_empty: 3.0,
            }
        );
        assert_eq!(s.selections[1].selection, "fea");
        assert_eq!((s.selections[1].total, s.selections[1].non_empty), (6, 3));
        let declaration = &s.hints[0];
        assert_eq!(declaration.key, "defuse+declaration");
        assert_eq!((declaration.tasks, declaration.non_empty), (3, 2));
        // "héllo" is five characters, not six bytes.
        assert!((declaration.mean_chars - 8.0 / 3.0).abs() < 1e-9);
        assert!((declaration.mean_chars_non_empty - 4.0).abs() < 1e-9);
        let table = s.markdown();
        assert!(table.contains("| defuse | 3 | 2 | 6 | 2.00 | 3.00 |"), "{table}");
        assert!(table.contains("| fea+fea-brief | 3 | 3 | 2.0 | 2.0 |"), "{table}");
    }

    #[test]
    fn no_records_no_division_by_zero() {
        let s = stats(&[]);
        assert!(s.selections.is_empty());
        assert!(s.markdown().starts_with("0 records"));
    }
}
