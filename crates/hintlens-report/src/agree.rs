//! `hintlens agree`: precision, recall and F1 of a selection's names against a benchmark's
//! released hint field, per task and overall.
//!
//! Each side becomes a set of keys, normalised as the released format names things:
//!
//! | field | released key | our key |
//! |---|---|---|
//! | `new_components` (FEA-Bench) | `file::Class.method` (the component's dotted file-local name) | `path::local_name` |
//! | `definitions_brief` (FEA-Bench) | `file::X` from each `(definition of X:)` under `[start of new definitions in file]` | `path::local_name` |
//! | `interface` (SWE-bench Pro) | the entry's simple name (`set_defaults` for `Font.set_defaults`); a file's name with its extension (`file:elf.py`) | `name`; `file:` and a file's name |
//! | `augmentations`, `augmentations_approx` (NoCode-bench) | `type:name` | NoCode type and name (a file's path) |
//!
//! Our `pkg.mod.Class.method` is thus compared on the suffix FEA-Bench writes (`Class.method`),
//! and interface entries, whose paths people write loosely, on names alone. A task without the
//! released field (in the result record, under `released` or at the top level, or in the
//! dataset joined on `instance_id`) is left out and counted.

use crate::records::{instance_id, is_ok};
use hintlens_formats::parse_interface;
use hintlens_syntax::DefKind;
use serde::Serialize;
use serde_json::Value;
use std::collections::{BTreeSet, HashMap};
use std::fmt::{self, Write};
use std::str::FromStr;

/// A released hint field.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReferenceField {
    NewComponents,
    DefinitionsBrief,
    Interface,
    Augmentations,
    AugmentationsApprox,
}

impl ReferenceField {
    pub const ALL: [ReferenceField; 5] = [
        ReferenceField::NewComponents,
        ReferenceField::DefinitionsBrief,
        ReferenceField::Interface,
        ReferenceField::Augmentations,
        ReferenceField::AugmentationsApprox,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            ReferenceField::NewComponents => "new_components",
            ReferenceField::DefinitionsBrief => "definitions_brief",
            ReferenceField::Interface => "interface",
            ReferenceField::Augmentations => "augmentations",
            ReferenceField::AugmentationsApprox => "augmentations_approx",
        }
    }

    /// The released keys, or `None` when the value is not of the field's shape.
    fn released(self, value: &Value) -> Option<BTreeSet<String>> {
        match self {
            ReferenceField::NewComponents => {
                let mut keys = BTreeSet::new();
                for file in value.as_array()? {
                    let path = file.get("file")?.as_str()?;
                    for c in file.get("components")?.as_array()? {
                        keys.insert(format!("{path}::{}", c.get("name")?.as_str()?));
                    }
                }
                Some(keys)
            }
            ReferenceField::DefinitionsBrief => {
                let mut keys = BTreeSet::new();
                let mut file = "";
                for line in value.as_str()?.lines() {
                    if let Some(rest) = line.strip_prefix("[start of new definitions in ") {
                        file = rest.strip_suffix(']').unwrap_or(rest);
                    } else if let Some(name) = line.strip_prefix("(definition of ").and_then(|l| l.strip_suffix(":)")) {
                        keys.insert(format!("{file}::{name}"));
                    }
                }
                Some(keys)
            }
            ReferenceField::Interface => Some(
                parse_interface(value.as_str()?)
                    .into_iter()
                    .map(|e| match e.def_kind() {
                        // A new file is its path, whose name could be anything's.
                        DefKind::File => file_key(e.path.as_deref().unwrap_or(&e.name)),
                        _ => e.name,
                    })
                    .collect(),
            ),
            ReferenceField::Augmentations | ReferenceField::AugmentationsApprox => {
                // Released as an object, or as its JSON text.
                let parsed;
                let value = match value.as_str() {
                    Some(text) => {
                        parsed = serde_json::from_str::<Value>(text).ok()?;
                        &parsed
                    }
                    None => value,
                };
                value
                    .get("data")?
                    .as_array()?
                    .iter()
                    .map(|e| Some(format!("{}:{}", e.get("type")?.as_str()?, e.get("name")?.as_str()?)))
                    .collect()
            }
        }
    }

    /// Our key of one selected identifier (its JSON form in a result record).
    fn ours(self, id: &Value) -> Option<String> {
        let text = |k: &str| id.get(k).and_then(Value::as_str);
        let name = text("name")?;
        Some(match self {
            ReferenceField::NewComponents | ReferenceField::DefinitionsBrief => {
                let local = text("local_name").filter(|l| !l.is_empty()).unwrap_or(name);
                format!("{}::{local}", text("path").unwrap_or_default())
            }
            ReferenceField::Interface if text("kind") == Some("file") => file_key(text("path").unwrap_or(name)),
            ReferenceField::Interface => name.to_owned(),
            ReferenceField::Augmentations | ReferenceField::AugmentationsApprox => {
                let ty = nocode_type(text("kind").unwrap_or_default(), text("entity").unwrap_or_default());
                let name = if ty == "file" { text("path").unwrap_or(name) } else { name };
                format!("{ty}:{name}")
            }
        })
    }
}

/// The key of a file in an interface: its name with its extension (`file:elf.py`), as people
/// write paths loosely (from the repository's root or from a package's).
fn file_key(path: &str) -> String {
    format!("file:{}", path.trim_end_matches('/').rsplit('/').next().unwrap_or(path))
}

/// NoCode-bench's entity type of an identifier, from its `kind` and `entity` (the mapping of
/// `Identifier::nocode_type`).
fn nocode_type(kind: &str, entity: &str) -> &'static str {
    match (entity, kind) {
        ("error_msg", _) => "error_msg",
        (_, "file") => "file",
        (_, "function" | "method" | "constructor") => "function",
        (_, "class" | "interface" | "enum" | "record" | "annotation") => "class",
        _ => "field",
    }
}

impl fmt::Display for ReferenceField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for ReferenceField {
    type Err = String;
    fn from_str(s: &str) -> Result<ReferenceField, String> {
        hintlens_hints::parse_name(s, &ReferenceField::ALL, |r| r.as_str(), "released field")
    }
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TaskAgreement {
    pub instance_id: String,
    pub ours: usize,
    pub released: usize,
    pub common: usize,
    pub precision: f64,
    pub recall: f64,
    pub f1: f64,
    pub identical: bool,
    /// Keys we select that the released field lacks, and the other way round.
    pub only_ours: Vec<String>,
    pub only_released: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Overall {
    pub tasks: usize,
    pub identical: usize,
    /// Micro-averaged over all keys of all tasks.
    pub precision: f64,
    pub recall: f64,
    pub f1: f64,
    /// The mean of the per-task F1.
    pub macro_f1: f64,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Agreement {
    pub selection: String,
    pub field: String,
    pub tasks: Vec<TaskAgreement>,
    pub overall: Overall,
    /// Result records left out: errors, or records without the selection.
    pub skipped: usize,
    /// Tasks whose released field was found nowhere.
    pub missing_reference: Vec<String>,
}

/// Precision and recall with the empty cases as agreement: selecting nothing is never wrong,
/// and nothing to find is always found.
fn scores(ours: usize, released: usize, common: usize) -> (f64, f64, f64) {
    let precision = if ours == 0 { 1.0 } else { common as f64 / ours as f64 };
    let recall = if released == 0 { 1.0 } else { common as f64 / released as f64 };
    let f1 = if precision + recall == 0.0 { 0.0 } else { 2.0 * precision * recall / (precision + recall) };
    (precision, recall, f1)
}

/// Compares `selection` in every result record with the released `field`, looked up in the
/// record (under `released`, then at the top level) and then in `dataset`.
pub fn agree(results: &[Value], selection: &str, field: ReferenceField, dataset: &[Value]) -> Agreement {
    let by_id: HashMap<&str, &Value> = dataset.iter().filter_map(|r| Some((instance_id(r)?, r))).collect();
    let mut tasks = Vec::new();
    let mut skipped = 0;
    let mut missing_reference = Vec::new();
    for record in results {
        let ids = record.get("selections").and_then(|s| s.get(selection)).and_then(Value::as_array);
        let (Some(id), Some(ids), true) = (instance_id(record), ids, is_ok(record)) else {
            skipped += 1;
            continue;
        };
        let value = record
            .get("released")
            .and_then(|r| r.get(field.as_str()))
            .or_else(|| record.get(field.as_str()))
            .or_else(|| by_id.get(id).and_then(|r| r.get(field.as_str())));
        let Some(released) = value.and_then(|v| field.released(v)) else {
            missing_reference.push(id.to_owned());
            continue;
        };
        let ours: BTreeSet<String> = ids.iter().filter_map(|i| field.ours(i)).collect();
        let common = ours.intersection(&released).count();
        let (precision, recall, f1) = scores(ours.len(), released.len(), common);
        tasks.push(TaskAgreement {
            instance_id: id.to_owned(),
            ours: ours.len(),
            released: released.len(),
            common,
            precision,
            recall,
            f1,
            identical: ours == released,
            only_ours: ours.difference(&released).cloned().collect(),
            only_released: released.difference(&ours).cloned().collect(),
        });
    }
    let sum = |f: fn(&TaskAgreement) -> usize| tasks.iter().map(f).sum::<usize>();
    let (precision, recall, f1) = scores(sum(|t| t.ours), sum(|t| t.released), sum(|t| t.common));
    let overall = Overall {
        tasks: tasks.len(),
        identical: tasks.iter().filter(|t| t.identical).count(),
        precision,
        recall,
        f1,
        macro_f1: if tasks.is_empty() { 0.0 } else { tasks.iter().map(|t| t.f1).sum::<f64>() / tasks.len() as f64 },
    };
    Agreement {
        selection: selection.to_owned(),
        field: field.as_str().to_owned(),
        tasks,
        overall,
        skipped,
        missing_reference,
    }
}

impl Agreement {
    pub fn markdown(&self) -> String {
        let mut out = String::new();
        let o = &self.overall;
        let _ = writeln!(
            out,
            "`{}` against `{}`: {} tasks, identical sets on {} ({:.1}%); precision {:.3}, recall {:.3}, F1 {:.3} (micro), F1 {:.3} (macro)",
            self.selection,
            self.field,
            o.tasks,
            o.identical,
            if o.tasks == 0 { 0.0 } else { 100.0 * o.identical as f64 / o.tasks as f64 },
            o.precision,
            o.recall,
            o.f1,
            o.macro_f1,
        );
        if self.skipped > 0 || !self.missing_reference.is_empty() {
            let _ = writeln!(
                out,
                "left out: {} records without the selection or in error, {} without the released field",
                self.skipped,
                self.missing_reference.len()
            );
        }
        out.push_str("\n| task | ours | released | common | P | R | F1 | only ours | only released |\n");
        out.push_str("|---|---:|---:|---:|---:|---:|---:|---|---|\n");
        let cell = |keys: &[String]| keys.iter().map(|k| format!("`{k}`")).collect::<Vec<_>>().join(", ");
        for t in &self.tasks {
            let _ = writeln!(
                out,
                "| {} | {} | {} | {} | {:.2} | {:.2} | {:.2} | {} | {} |",
                t.instance_id,
                t.ours,
                t.released,
                t.common,
                t.precision,
                t.recall,
                t.f1,
                cell(&t.only_ours),
                cell(&t.only_released)
            );
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn result(id: &str, ids: Value, released: Value) -> Value {
        json!({"instance_id": id, "status": "ok", "selections": {"fea": ids}, "released": released})
    }

    #[test]
    fn fea_components_compare_on_file_local_names() {
        let ours = json!([
            {"name": "remove_color", "local_name": "Segment.remove_color", "path": "rich/segment.py", "kind": "method"},
            {"name": "_helper", "local_name": "_helper", "path": "rich/segment.py", "kind": "function"},
        ]);
        let released = json!({"new_components": [
            {"file": "rich/segment.py", "components": [{"type": "function", "name": "Segment.remove_color"}]},
            {"file": "rich/style.py", "components": [{"type": "function", "name": "Style.without_color"}]},
        ]});
        let a = agree(&[result("t1", ours, released)], "fea", ReferenceField::NewComponents, &[]);
        let t = &a.tasks[0];
        assert_eq!((t.ours, t.released, t.common), (2, 2, 1));
        assert_eq!((t.precision, t.recall), (0.5, 0.5));
        assert_eq!(t.only_ours, ["rich/segment.py::_helper"]);
        assert_eq!(t.only_released, ["rich/style.py::Style.without_color"]);
        assert!(!t.identical);
    }

    #[test]
    fn definitions_brief_is_read_from_its_text() {
        let text = "There are several new functions or classes that need to be implemented, using the definitions below: \n<definitions>\n[start of new definitions in lark/tree.py]\n(definition of Tree.find_token:)\ndef find_token(self, token_type: str) -> Iterator[_Leaf_T]:\n[end of new definitions in lark/tree.py]\n\n</definitions>";
        let keys = ReferenceField::DefinitionsBrief.released(&json!(text)).unwrap();
        assert_eq!(keys.into_iter().collect::<Vec<_>>(), ["lark/tree.py::Tree.find_token"]);
    }

    #[test]
    fn interface_names_from_the_dataset_join() {
        let results = [json!({"instance_id": "p1", "status": "ok", "selections": {"defuse": [
            {"name": "parse_duration", "path": "qutebrowser/utils/utils.py", "kind": "function"},
            {"name": "tab_focus", "path": "x.py", "kind": "function"},
        ]}})];
        let dataset = [
            json!({"instance_id": "p1", "interface": "Name: `parse_duration`\nType: function\nLocation: `qutebrowser/utils/utils.py`\n\nName: `preload`\nType: function\n"}),
        ];
        let a = agree(&results, "defuse", ReferenceField::Interface, &dataset);
        let t = &a.tasks[0];
        assert_eq!(
            (t.common, t.only_ours.clone(), t.only_released.clone()),
            (1, vec!["tab_focus".into()], vec!["preload".into()])
        );
        // Without the dataset, the task is reported as missing its reference.
        let a = agree(&results, "defuse", ReferenceField::Interface, &[]);
        assert_eq!(a.missing_reference, ["p1"]);
    }

    #[test]
    fn nocode_augmentations_compare_type_and_name() {
        let ours = json!([
            {"name": "ret", "kind": "field", "entity": "use", "path": "a.py"},
            {"name": "logging", "kind": "file", "entity": "definition", "path": "_pytest/logging.py"},
            {"name": "bad width", "kind": "constant", "entity": "error_msg", "path": "a.py"},
        ]);
        let released = json!({"augmentations_approx": {"header": "h", "data": [
            {"type": "field", "name": "ret"}, {"type": "file", "name": "_pytest/logging.py"},
        ]}});
        let a = agree(&[result("n1", ours, released)], "fea", ReferenceField::AugmentationsApprox, &[]);
        assert_eq!(a.tasks[0].only_ours, ["error_msg:bad width"]);
        assert_eq!(a.tasks[0].common, 2);
    }

    #[test]
    fn empty_sets_agree_and_overall_is_micro_averaged() {
        let empty = result("e", json!([]), json!({"new_components": []}));
        let one = result(
            "o",
            json!([{"name": "f", "local_name": "f", "path": "m.py", "kind": "function"}]),
            json!({"new_components": [{"file": "m.py", "components": [{"name": "f"}, {"name": "g"}]}]}),
        );
        let bad = json!({"instance_id": "b", "status": "error"});
        let a = agree(&[empty, one, bad], "fea", ReferenceField::NewComponents, &[]);
        assert_eq!(a.skipped, 1);
        assert_eq!((a.overall.tasks, a.overall.identical), (2, 1));
        assert_eq!((a.tasks[0].precision, a.tasks[0].recall, a.tasks[0].f1), (1.0, 1.0, 1.0));
        assert_eq!((a.overall.precision, a.overall.recall), (1.0, 0.5));
        assert!(a.markdown().contains("identical sets on 1 (50.0%)"));
        assert!("nonsense".parse::<ReferenceField>().unwrap_err().contains("known: new_components"));
    }
}
