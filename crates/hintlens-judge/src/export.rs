//! From result records to prompts: one per (instance, identifier, attribute, call, sample).

use crate::prompts::{Attribute, Call, Entry, Message, TaskText, messages};
use hintlens_projection::{Projection, def_kind_label, first_sentence};
use hintlens_syntax::DefKind;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::{HashMap, HashSet};

/// One call of the judge, as `judge export` writes it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PromptRecord {
    /// `<instance>::<entry>::<attribute>::<call>::<sample>`: stable when the selection's order
    /// changes, so answers never attach to another prompt.
    pub id: String,
    pub instance_id: String,
    /// The identifier's qualified name.
    pub identifier: String,
    /// The identifier within its instance: the qualified name, with `#2`, `#3`… on repeats.
    pub entry: String,
    pub attribute: Attribute,
    pub call: Call,
    /// Zero-based.
    pub sample: u32,
    pub messages: Vec<Message>,
}

/// What to export.
#[derive(Debug, Clone)]
pub struct ExportOptions {
    /// The selection policy whose identifiers are rated (`defuse`).
    pub selection: String,
    /// The attributes rated: those the projection shows ([`projected_attributes`]).
    pub attributes: Vec<Attribute>,
    /// Samples per call (the paper: three).
    pub samples: u32,
}

/// What an export holds.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct ExportSummary {
    /// Result records that are not `ok` (no selection to rate).
    pub skipped_records: usize,
    /// Instances with at least one identifier.
    pub instances: usize,
    pub identifiers: usize,
    /// (identifier, attribute) pairs with a value.
    pub pairs: usize,
    /// Prompt lines: pairs × 2 calls × samples.
    pub calls: usize,
    /// Characters of every message of every call.
    pub characters: usize,
}

/// Why an `ok` result record cannot be exported.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ExportProblem {
    /// The dataset has no (readable) task record of this instance.
    NoTask { instance_id: String },
    /// The record has no selection of this name (the batch ran without it).
    NoSelection { instance_id: String, selection: String },
}

impl std::fmt::Display for ExportProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ExportProblem::NoTask { instance_id } => write!(f, "{instance_id}: no task record in the dataset"),
            ExportProblem::NoSelection { instance_id, selection } => {
                write!(f, "{instance_id}: the result record has no `{selection}` selection")
            }
        }
    }
}

/// The attributes a projection shows, in the paper's order: `name`; `name-kind` adds
/// `entity_type`; `declaration` adds `path`, `is_new_file` and `signature`;
/// `declaration-doc` adds `weak_semantics`; `pro` adds `strong_semantics` (the seven of
/// Table 8). The benchmarks' own formats are not decomposed into attributes.
pub fn projected_attributes(projection: Projection) -> Result<Vec<Attribute>, String> {
    let n = match projection {
        Projection::Name => 1,
        Projection::NameKind => 2,
        Projection::Declaration => 5,
        Projection::DeclarationDoc => 6,
        Projection::Pro => 7,
        other => {
            return Err(format!(
                "the judge rates the attributes of name, name-kind, declaration, declaration-doc or pro; `{other}` is a benchmark's own format"
            ));
        }
    };
    Ok(Attribute::ALL[..n].to_vec())
}

/// One selected identifier of a result record (`selections.<policy>[i]`) as its hint shows
/// it, restricted to `attributes`. `weak_semantics` is the provider's one-sentence description
/// (`description.doc`) or else the docstring's first sentence, as `declaration-doc` renders
/// it; `strong_semantics` is the provider's behaviour paragraph (`description.behaviour`).
pub fn entry_of(identifier: &Value, attributes: &[Attribute]) -> Entry {
    let text = |key: &str| identifier.get(key).and_then(Value::as_str).map(str::trim).unwrap_or_default();
    let described = |key: &str| identifier.get("description").and_then(|d| d.get(key)).and_then(Value::as_str);
    let mut entry = Entry {
        attributes: Vec::new(),
        // A count made without some file of the repository (`base_occurrences_lower_bound`)
        // still says the name can be found when it is not 0; a 0 then says nothing.
        base_occurrences: identifier.get("base_occurrences").and_then(Value::as_u64).map(|k| k as usize).filter(|&k| {
            k > 0 || identifier.get("base_occurrences_lower_bound").and_then(Value::as_bool) != Some(true)
        }),
    };
    for &attribute in attributes {
        let value = match attribute {
            Attribute::Name => text("name").to_owned(),
            Attribute::EntityType => entity_type(text("kind"), text("entity")),
            Attribute::Path => text("path").to_owned(),
            Attribute::IsNewFile => match identifier.get("is_new_file").and_then(Value::as_bool) {
                Some(b) => b.to_string(),
                None => String::new(),
            },
            Attribute::Signature => text("signature").to_owned(),
            Attribute::WeakSemantics => match described("doc").map(str::trim).filter(|d| !d.is_empty()) {
                Some(doc) => doc.to_owned(),
                None => first_sentence(text("doc")),
            },
            Attribute::StrongSemantics => described("behaviour").map(str::trim).unwrap_or_default().to_owned(),
        };
        if !value.is_empty() {
            entry.attributes.push((attribute, value));
        }
    }
    entry
}

/// The entity type as the hint names it (the Declaration projection's kind label).
fn entity_type(kind: &str, entity: &str) -> String {
    match entity {
        "string" => "string".into(),
        "error_msg" => "error message".into(),
        _ => DefKind::parse(kind).map_or_else(|| kind.to_owned(), |k| def_kind_label(k).to_owned()),
    }
}

/// Every prompt of the result records' identifiers, in record order. `tasks` gives each
/// instance's issue and patches; an `ok` record whose instance it lacks, or that has no
/// `selection`, is an error (all of them are listed), since a partial export would bias the
/// means without saying so.
pub fn export(
    records: &[Value],
    tasks: &HashMap<String, TaskText>,
    options: &ExportOptions,
) -> Result<(Vec<PromptRecord>, ExportSummary), Vec<ExportProblem>> {
    let mut prompts = Vec::new();
    let mut summary = ExportSummary::default();
    let mut problems = Vec::new();
    for record in records {
        let instance = record.get("instance_id").and_then(Value::as_str).unwrap_or_default();
        if record.get("status").and_then(Value::as_str) != Some("ok") {
            summary.skipped_records += 1;
            continue;
        }
        let Some(identifiers) = record.get("selections").and_then(|s| s.get(&options.selection)) else {
            problems.push(ExportProblem::NoSelection {
                instance_id: instance.to_owned(),
                selection: options.selection.clone(),
            });
            continue;
        };
        let identifiers = identifiers.as_array().map(Vec::as_slice).unwrap_or_default();
        if identifiers.is_empty() {
            continue;
        }
        let Some(task) = tasks.get(instance) else {
            problems.push(ExportProblem::NoTask { instance_id: instance.to_owned() });
            continue;
        };
        summary.instances += 1;
        let mut entries_seen = HashSet::new();
        for identifier in identifiers {
            let qualified = identifier.get("qualified_name").and_then(Value::as_str).unwrap_or_default();
            let mut key = qualified.to_owned();
            let mut repeat = 1;
            while !entries_seen.insert(key.clone()) {
                repeat += 1;
                key = format!("{qualified}#{repeat}");
            }
            let entry = entry_of(identifier, &options.attributes);
            summary.identifiers += 1;
            for &(attribute, _) in &entry.attributes {
                summary.pairs += 1;
                for call in [Call::Necessity, Call::DisclosureGuidance] {
                    let messages = messages(call, task, &entry, attribute);
                    for sample in 0..options.samples {
                        summary.calls += 1;
                        summary.characters += messages.iter().map(|m| m.content.chars().count()).sum::<usize>();
                        prompts.push(PromptRecord {
                            id: format!("{instance}::{key}::{attribute}::{}::{sample}", call.as_str()),
                            instance_id: instance.to_owned(),
                            identifier: qualified.to_owned(),
                            entry: key.clone(),
                            attribute,
                            call,
                            sample,
                            messages: messages.clone(),
                        });
                    }
                }
            }
        }
    }
    if problems.is_empty() { Ok((prompts, summary)) } else { Err(problems) }
}
