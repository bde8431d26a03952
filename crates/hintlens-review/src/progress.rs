//! How far a review has come (`hintlens stats` prints it beside Table 2).

use crate::decisions::{Decisions, IdentifierKey, Verdict};
use serde::Serialize;
use serde_json::Value;
use std::collections::BTreeSet;
use std::fmt::Write;

/// Review progress over a results file.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Progress {
    /// Tasks with an answer (`ok` records): what there is to review.
    pub tasks: usize,
    pub reviewed: usize,
    pub flagged: usize,
    /// Distinct identifiers of those tasks, over every selection.
    pub identifiers: usize,
    pub kept: usize,
    pub dropped: usize,
    pub undecided: usize,
    /// Tasks the decisions name that the results do not hold (another results file's?).
    pub unknown_tasks: Vec<String>,
}

/// Counts the decisions about the tasks and identifiers of `records`.
pub fn progress(records: &[Value], decisions: &Decisions) -> Progress {
    let mut p = Progress::default();
    let mut known = BTreeSet::new();
    for record in records {
        let Some(id) = record.get("instance_id").and_then(Value::as_str) else { continue };
        known.insert(id);
        if record.get("status").and_then(Value::as_str) != Some("ok") {
            continue;
        }
        p.tasks += 1;
        if let Some(task) = decisions.task(id) {
            p.reviewed += usize::from(task.reviewed);
            p.flagged += usize::from(task.flagged);
        }
        let keys: BTreeSet<IdentifierKey> = IdentifierKey::selected(record).collect();
        for key in keys {
            p.identifiers += 1;
            match decisions.identifier(id, &key).and_then(|s| s.verdict) {
                Some(Verdict::Keep) => p.kept += 1,
                Some(Verdict::Drop) => p.dropped += 1,
                None => p.undecided += 1,
            }
        }
    }
    p.unknown_tasks = decisions.instance_ids().filter(|id| !known.contains(id)).map(str::to_owned).collect();
    p
}

impl Progress {
    pub fn markdown(&self) -> String {
        let mut out =
            String::from("\n| review | tasks | reviewed | flagged | identifiers | kept | dropped | undecided |\n");
        out.push_str("|---|---:|---:|---:|---:|---:|---:|---:|\n");
        let _ = writeln!(
            out,
            "| decisions | {} | {} | {} | {} | {} | {} | {} |",
            self.tasks, self.reviewed, self.flagged, self.identifiers, self.kept, self.dropped, self.undecided
        );
        if !self.unknown_tasks.is_empty() {
            let _ = writeln!(
                out,
                "\n{} tasks with decisions are not in the results: {}",
                self.unknown_tasks.len(),
                self.unknown_tasks.join(", ")
            );
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decisions::{Decision, Entry};
    use serde_json::json;

    #[test]
    fn counts_tasks_and_distinct_identifiers() {
        let f = json!({"qualified_name": "m.f", "kind": "function", "path": "m.py"});
        let g = json!({"qualified_name": "m.g", "kind": "function", "path": "m.py"});
        let records = vec![
            json!({"instance_id": "a", "status": "ok", "selections": {"defuse": [f, g], "fea": [f]}}),
            json!({"instance_id": "b", "status": "ok", "selections": {"defuse": []}}),
            json!({"instance_id": "c", "status": "error"}),
        ];
        let mut decisions = Decisions::default();
        let entries = [
            Decision::Identifier {
                instance_id: "a".into(),
                identifier: IdentifierKey::of(&f),
                verdict: Some(Verdict::Drop),
                note: String::new(),
            },
            Decision::Task { instance_id: "a".into(), reviewed: true, flagged: true, note: String::new() },
            Decision::Task { instance_id: "b".into(), reviewed: true, flagged: false, note: String::new() },
            Decision::Task { instance_id: "zz".into(), reviewed: false, flagged: true, note: String::new() },
        ];
        for decision in entries {
            decisions.apply(&Entry { time_ms: 0, decision });
        }
        let p = progress(&records, &decisions);
        assert_eq!(
            p,
            Progress {
                tasks: 2,
                reviewed: 2,
                flagged: 1,
                identifiers: 2,
                kept: 0,
                dropped: 1,
                undecided: 1,
                unknown_tasks: vec!["zz".into()],
            }
        );
        assert!(p.markdown().contains("| decisions | 2 | 2 | 1 | 2 | 0 | 1 | 1 |"), "{}", p.markdown());
    }
}
