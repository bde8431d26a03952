//! `hintlens audit`: which tasks a correct patch can still fail on a name, given what the agent
//! is told.
//!
//! A task's *contracts* are the DefUse names the tests need that are load-bearing: defined by
//! the code change, used by the test change (`code->test`), and occurring in no file of the
//! base (`base_occurrences` 0: the reference author chose them freely). A contract is *hidden*
//! when no told field states it ([`hintlens_formats::told::states`], the one definition the
//! batch's `necessity` uses too). A hint *closes* the hidden contracts it states, *leaves* the
//! others, and *spoils* the names it states that are no contract and that the told fields do
//! not already state (names of any selection the record carries: a name a test does not need,
//! or one the base already holds, handed over with the hint).

use crate::records::{instance_id, is_ok};
use hintlens_formats::told::{self, states};
use hintlens_hints::{Direction, Entity, Identifier, Selection};
use hintlens_projection::{Description, Descriptions, Projection, RenderContext, render_with};
use serde::Serialize;
use serde_json::{Map, Value};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt::Write;

/// What to audit against.
#[derive(Debug, Clone, Default)]
pub struct AuditOptions {
    /// The told fields; empty: the defaults of the dataset's shape ([`told::default_fields`]).
    pub told: Vec<String>,
    /// Each `--hint`: a dataset field, or `SELECTION+PROJECTION`, hintlens' own hint rendered
    /// from the record's identifiers.
    pub hints: Vec<String>,
}

/// A hint to count: a dataset field's text, or hintlens' own rendering of a record.
#[derive(Debug, Clone, PartialEq)]
pub enum HintSource {
    Field(String),
    Rendered(Selection, Projection),
}

impl HintSource {
    /// `defuse+declaration` is hintlens' own hint when the part before `+` names a selection;
    /// anything else is a dataset field.
    pub fn parse(text: &str) -> Result<HintSource, String> {
        if let Some((selection, projection)) = text.split_once('+')
            && let Ok(selection) = selection.parse::<Selection>()
        {
            let projection = projection.parse::<Projection>().map_err(|e| format!("--hint {text}: {e}"))?;
            return Ok(HintSource::Rendered(selection, projection));
        }
        Ok(HintSource::Field(text.to_owned()))
    }
}

/// One hidden contract: the identifier and where the tests use it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Contract {
    pub name: String,
    pub qualified_name: String,
    pub kind: String,
    /// Where it is defined in R: `path:line`.
    pub path: String,
    pub line: u32,
    /// Where the tests use it, `path:line`, from the record's evidence.
    pub uses: Vec<String>,
    /// Some file of the base could not be read: the name may occur there after all.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub base_occurrences_lower_bound: bool,
}

impl Contract {
    fn of(id: &Identifier) -> Contract {
        Contract {
            name: id.name.clone(),
            qualified_name: id.qualified_name.clone(),
            kind: id.kind.to_string(),
            path: id.path.clone(),
            line: id.line,
            uses: id.evidence.iter().map(|e| format!("{}:{}", e.path, e.line)).collect(),
            base_occurrences_lower_bound: id.base_occurrences_lower_bound,
        }
    }
}

/// What one hint does for one task.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TaskHint {
    pub hint: String,
    /// The hidden contracts it states (qualified names).
    pub closes: Vec<String>,
    /// The names it states that are no contract and that the told fields do not state.
    pub spoils: Vec<String>,
}

/// One task's audit.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TaskAudit {
    pub instance_id: String,
    pub repo: String,
    /// Its contracts, told or not.
    pub contracts: usize,
    pub hidden: Vec<Contract>,
    pub hints: Vec<TaskHint>,
}

/// Tasks, tasks with at least one hidden contract, and hidden contracts, of a repository or
/// of the whole.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Summary {
    pub repo: String,
    pub tasks: usize,
    pub with_hidden: usize,
    pub hidden: usize,
    pub contracts: usize,
    /// What each `--hint` does for these tasks (in the audit's repositories; the overall
    /// figures are [`Audit::hints`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub hints: Vec<HintSummary>,
}

/// What one hint does over all tasks.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct HintSummary {
    pub hint: String,
    /// Hidden contracts it states.
    pub closes: usize,
    /// Hidden contracts it does not.
    pub leaves: usize,
    /// Tasks still with a hidden contract once it is told.
    pub tasks_left: usize,
    /// Names it discloses that are no contract (counted once per task).
    pub spoils: usize,
}

/// Records that were not audited.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct LeftOut {
    /// `error` records.
    pub errors: usize,
    /// `unsupported` records (no frontend reads their changes).
    pub unsupported: usize,
    /// Records whose instance id the dataset lacks.
    pub not_in_dataset: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Audit {
    /// The told fields read.
    pub told: Vec<String>,
    /// Why those: `--told`, or the benchmark shape whose defaults they are.
    pub told_from: String,
    /// Result records read (one per task: a task's last record counts).
    pub records: usize,
    pub left_out: LeftOut,
    /// Every audited task, in the results' order.
    pub tasks: Vec<TaskAudit>,
    pub repositories: Vec<Summary>,
    pub overall: Summary,
    pub hints: Vec<HintSummary>,
}

/// The identifiers of a record's selection (none when it lacks the selection).
pub fn record_identifiers(record: &Value, selection: &str) -> Result<Vec<Identifier>, String> {
    let Some(values) = record.get("selections").and_then(|s| s.get(selection)) else {
        return Ok(Vec::new());
    };
    let id = instance_id(record).unwrap_or("?");
    let values = values.as_array().ok_or_else(|| format!("{id}: `selections.{selection}` is not a list"))?;
    values
        .iter()
        .map(|v| {
            serde_json::from_value::<Identifier>(v.clone()).map_err(|e| {
                format!("{id}: an identifier of `selections.{selection}` cannot be read ({e}): is this the output of `hintlens batch`?")
            })
        })
        .collect()
}

/// A record's contracts: its DefUse identifiers defined by the code and used by the tests whose
/// name no file of the base holds, each once (by qualified name, kind and path).
pub fn contracts(record: &Value) -> Result<Vec<Identifier>, String> {
    let mut seen = BTreeSet::new();
    Ok(record_identifiers(record, Selection::DefUse.as_str())?
        .into_iter()
        .filter(|id| id.direction == Direction::CodeToTest && id.base_occurrences == 0)
        .filter(|id| seen.insert((id.qualified_name.clone(), id.kind.to_string(), id.path.clone())))
        .collect())
}

/// A record's hidden contracts: the contracts `told` does not state.
pub fn hidden_contracts(record: &Value, told: &dyn Fn(&Identifier) -> bool) -> Result<Vec<Contract>, String> {
    Ok(contracts(record)?.iter().filter(|id| !told(id)).map(Contract::of).collect())
}

/// hintlens' own hint for a record: the selection's identifiers rendered in the projection,
/// with the descriptions the record carries and the row's `requirements` (for `pro`), as
/// `augment` renders them.
pub fn render_hint(
    record: &Value,
    selection: Selection,
    projection: Projection,
    requirements: Option<&str>,
) -> Result<String, String> {
    let ids = record_identifiers(record, selection.as_str())?;
    let mut descriptions = Descriptions::default();
    let values = record.get("selections").and_then(|s| s.get(selection.as_str())).and_then(Value::as_array);
    for (id, value) in ids.iter().zip(values.into_iter().flatten()) {
        if let Some(d) = value.get("description").and_then(|d| serde_json::from_value::<Description>(d.clone()).ok()) {
            descriptions.insert(id, d);
        }
    }
    let ctx = RenderContext { requirements, descriptions: Some(&descriptions) };
    Ok(render_with(&ids, projection, &ctx))
}

/// The instance id of a dataset row, under any benchmark's name for it.
fn row_id(row: &Map<String, Value>) -> Option<&str> {
    ["instance_id", "id"].iter().find_map(|k| row.get(*k)?.as_str())
}

/// Audits result records against the dataset's rows. Every check is made before anything is
/// counted: a told or hint field no row has, results and dataset that share no instance id,
/// results most of whose ids the dataset lacks (another dataset's), hints of a selection no
/// record carries, records without DefUse.
pub fn audit(records: &[Value], rows: &[Map<String, Value>], options: &AuditOptions) -> Result<Audit, String> {
    // A task's last record wins, in the order of its first.
    let mut order: Vec<&str> = Vec::new();
    let mut last: HashMap<&str, &Value> = HashMap::new();
    for record in records {
        let Some(id) = instance_id(record) else { continue };
        if last.insert(id, record).is_none() {
            order.push(id);
        }
    }
    let by_id: HashMap<&str, &Map<String, Value>> = rows.iter().filter_map(|r| Some((row_id(r)?, r))).collect();
    let missing: Vec<&str> = order.iter().copied().filter(|id| !by_id.contains_key(id)).collect();
    if order.is_empty() {
        return Err("the results hold no record with an instance_id: give what `hintlens batch` wrote".into());
    }
    let example = |ids: &[&str]| ids.iter().take(3).map(|s| format!("`{s}`")).collect::<Vec<_>>().join(", ");
    if missing.len() == order.len() {
        let dataset_ids: Vec<&str> = rows.iter().filter_map(row_id).collect();
        return Err(format!(
            "the results and the dataset share no instance id (results: {} ids, e.g. {}; dataset: {} ids{}): \
             give the dataset the batch ran",
            order.len(),
            example(&order),
            dataset_ids.len(),
            if dataset_ids.is_empty() { String::new() } else { format!(", e.g. {}", example(&dataset_ids)) }
        ));
    }
    if missing.len() * 2 > order.len() {
        return Err(format!(
            "{} of the {} result records are of tasks the dataset lacks (e.g. {}): are the results of another \
             dataset? give the dataset the batch ran",
            missing.len(),
            order.len(),
            example(&missing)
        ));
    }
    let joined: Vec<&Map<String, Value>> = order.iter().filter_map(|id| by_id.get(id).copied()).collect();
    let (told, told_from) = if options.told.is_empty() {
        let (fields, shape) = told::default_fields(joined.iter().copied());
        (fields, format!("the defaults for {shape}"))
    } else {
        told::check_fields(joined.iter().copied(), &options.told, "told field")?;
        (options.told.clone(), "--told".to_owned())
    };
    let mut hints = Vec::new();
    for text in &options.hints {
        let source = HintSource::parse(text)?;
        match &source {
            HintSource::Field(field) => {
                told::check_fields(joined.iter().copied(), std::slice::from_ref(field), "hint field")?
            }
            HintSource::Rendered(selection, _) => {
                let carried =
                    order.iter().any(|id| last[id].get("selections").and_then(|s| s.get(selection.as_str())).is_some());
                if !carried {
                    return Err(format!(
                        "--hint {text}: no record carries the `{selection}` selection: run the batch with --selection {selection}"
                    ));
                }
            }
        }
        if !hints.iter().any(|(t, _)| t == text) {
            hints.push((text.clone(), source));
        }
    }
    let ok: Vec<&str> = order.iter().copied().filter(|id| is_ok(last[id])).collect();
    if !ok.is_empty() && !ok.iter().any(|id| last[id].get("selections").and_then(|s| s.get("defuse")).is_some()) {
        return Err("no record carries the `defuse` selection, whose names the audit reads: run the batch with \
                    --selection defuse"
            .into());
    }

    let mut left_out =
        LeftOut { not_in_dataset: missing.iter().map(|s| s.to_string()).collect(), ..LeftOut::default() };
    let mut tasks = Vec::new();
    for id in &order {
        let record = last[id];
        let Some(row) = by_id.get(id) else { continue };
        if !is_ok(record) {
            match record.get("status").and_then(Value::as_str) {
                Some("unsupported") => left_out.unsupported += 1,
                _ => left_out.errors += 1,
            }
            continue;
        }
        let told_text = told::told_text(row, &told);
        let all = contracts(record)?;
        let hidden: Vec<&Identifier> = all.iter().filter(|c| !states(&told_text, &c.name)).collect();
        let contract_names: BTreeSet<&str> = all.iter().map(|c| c.name.as_str()).collect();
        let universe = disclosable_names(record)?;
        let mut task_hints = Vec::new();
        for (text, source) in &hints {
            let hint_text = match source {
                HintSource::Field(field) => row.get(field).map(told::field_text).unwrap_or_default(),
                HintSource::Rendered(selection, projection) => {
                    let requirements = row.get("requirements").and_then(Value::as_str);
                    render_hint(record, *selection, *projection, requirements)?
                }
            };
            let closes =
                hidden.iter().filter(|c| states(&hint_text, &c.name)).map(|c| c.qualified_name.clone()).collect();
            let spoils = universe
                .iter()
                .filter(|n| !contract_names.contains(n.as_str()))
                .filter(|n| states(&hint_text, n) && !states(&told_text, n))
                .cloned()
                .collect();
            task_hints.push(TaskHint { hint: text.clone(), closes, spoils });
        }
        tasks.push(TaskAudit {
            instance_id: id.to_string(),
            repo: record.get("repo").and_then(Value::as_str).unwrap_or_default().to_owned(),
            contracts: all.len(),
            hidden: hidden.into_iter().map(Contract::of).collect(),
            hints: task_hints,
        });
    }
    let (mut repositories, overall) = summaries(&tasks);
    let texts: Vec<&str> = hints.iter().map(|(text, _)| text.as_str()).collect();
    for repo in &mut repositories {
        repo.hints = hint_summaries(tasks.iter().filter(|t| t.repo == repo.repo), &texts);
    }
    let hints = hint_summaries(tasks.iter(), &texts);
    Ok(Audit { told, told_from, records: order.len(), left_out, tasks, repositories, overall, hints })
}

/// What each hint (the i-th of every task's `hints`) does over these tasks.
fn hint_summaries<'t>(tasks: impl Iterator<Item = &'t TaskAudit> + Clone, texts: &[&str]) -> Vec<HintSummary> {
    texts
        .iter()
        .enumerate()
        .map(|(i, text)| {
            let mut s = HintSummary { hint: text.to_string(), ..HintSummary::default() };
            for t in tasks.clone() {
                let h = &t.hints[i];
                s.closes += h.closes.len();
                s.leaves += t.hidden.len() - h.closes.len();
                s.tasks_left += usize::from(t.hidden.len() > h.closes.len());
                s.spoils += h.spoils.len();
            }
            s
        })
        .collect()
}

/// The names a hint could disclose: those of every selection the record carries (string
/// literals are no names), once each.
fn disclosable_names(record: &Value) -> Result<BTreeSet<String>, String> {
    let mut names = BTreeSet::new();
    for selection in record.get("selections").and_then(Value::as_object).into_iter().flat_map(|m| m.keys()) {
        for id in record_identifiers(record, selection)? {
            if !matches!(id.entity, Entity::String | Entity::ErrorMessage) {
                names.insert(id.name);
            }
        }
    }
    Ok(names)
}

/// Per repository (by name) and overall.
pub fn summaries(tasks: &[TaskAudit]) -> (Vec<Summary>, Summary) {
    let mut by_repo: BTreeMap<&str, Summary> = BTreeMap::new();
    let mut overall = Summary { repo: "overall".into(), ..Summary::default() };
    for t in tasks {
        let repo = by_repo.entry(&t.repo).or_insert_with(|| Summary { repo: t.repo.clone(), ..Summary::default() });
        for s in [repo, &mut overall] {
            s.tasks += 1;
            s.with_hidden += usize::from(!t.hidden.is_empty());
            s.hidden += t.hidden.len();
            s.contracts += t.contracts;
        }
    }
    (by_repo.into_values().collect(), overall)
}

fn percent(part: usize, whole: usize) -> String {
    if whole == 0 { "–".into() } else { format!("{:.1}%", 100.0 * part as f64 / whole as f64) }
}

impl Audit {
    pub fn markdown(&self) -> String {
        let mut out = String::new();
        let fields: Vec<String> = self.told.iter().map(|f| format!("`{f}`")).collect();
        let _ = writeln!(out, "Told: {} ({}).", fields.join(", "), self.told_from);
        let _ = writeln!(
            out,
            "{} tasks audited of {} records ({} errors, {} unsupported and {} not in the dataset left out).\n",
            self.overall.tasks,
            self.records,
            self.left_out.errors,
            self.left_out.unsupported,
            self.left_out.not_in_dataset.len()
        );
        out.push_str("## Hidden contracts\n\n");
        let flagged: Vec<&TaskAudit> = self.tasks.iter().filter(|t| !t.hidden.is_empty()).collect();
        if flagged.is_empty() {
            out.push_str("None: every load-bearing name the tests need is told.\n");
        }
        for t in flagged {
            let _ = writeln!(out, "- `{}` ({}):", t.instance_id, t.repo);
            for c in &t.hidden {
                let bound = if c.base_occurrences_lower_bound { " (base partly unread)" } else { "" };
                let _ = writeln!(
                    out,
                    "  - {} `{}` ({}:{}){bound}, used at {}",
                    c.kind,
                    c.qualified_name,
                    c.path,
                    c.line,
                    if c.uses.is_empty() { "–".to_owned() } else { c.uses.join(", ") }
                );
            }
        }
        out.push_str("\n## Per repository\n\n");
        // One more column per hint: the tasks still with a hidden contract once it is told.
        out.push_str("| repository | tasks | with a hidden contract | share | hidden names | contracts |");
        for h in &self.hints {
            let _ = write!(out, " left with `{}` |", h.hint);
        }
        out.push_str("\n|---|---:|---:|---:|---:|---:|");
        out.push_str(&"---:|".repeat(self.hints.len()));
        out.push('\n');
        for s in self.repositories.iter().chain([&self.overall]) {
            let overall = std::ptr::eq(s, &self.overall);
            let name = if overall { "**overall**".to_owned() } else { s.repo.clone() };
            let _ = write!(
                out,
                "| {name} | {} | {} | {} | {} | {} |",
                s.tasks,
                s.with_hidden,
                percent(s.with_hidden, s.tasks),
                s.hidden,
                s.contracts
            );
            let hints = if overall { &self.hints } else { &s.hints };
            for h in hints {
                let _ = write!(out, " {} ({}) |", h.tasks_left, percent(h.tasks_left, s.tasks));
            }
            out.push('\n');
        }
        if !self.hints.is_empty() {
            out.push_str("\n## Hints\n\n");
            out.push_str("| hint | closes | leaves | tasks left with a hidden contract | spoils |\n");
            out.push_str("|---|---:|---:|---:|---:|\n");
            for h in &self.hints {
                let _ = writeln!(out, "| {} | {} | {} | {} | {} |", h.hint, h.closes, h.leaves, h.tasks_left, h.spoils);
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn ident(name: &str, direction: &str, base: usize) -> Value {
        json!({
            "name": name, "qualified_name": format!("m.{name}"), "kind": "function", "path": "m.py", "line": 3,
            "is_new_file": false, "signature": format!("def {name}()"), "parent": null, "direction": direction,
            "resolution": "import", "evidence": [{"path": "tests/t.py", "line": 7, "rule": "import"}],
            "base_occurrences": base, "in_problem_statement": false, "necessity": 3, "doc": null,
            "entity": "definition", "local_name": name,
        })
    }

    fn record(id: &str, ids: Vec<Value>) -> Value {
        json!({"instance_id": id, "repo": "o/r", "status": "ok", "selections": {"defuse": ids}, "hints": {}})
    }

    fn row(id: &str, statement: &str, extra: Value) -> Map<String, Value> {
        let mut row = json!({"instance_id": id, "problem_statement": statement});
        for (k, v) in extra.as_object().unwrap() {
            row[k] = v.clone();
        }
        row.as_object().unwrap().clone()
    }

    #[test]
    fn contracts_are_load_bearing_code_to_test_names() {
        let r = record(
            "a",
            vec![ident("fresh", "code->test", 0), ident("known", "code->test", 2), ident("fake", "test->code", 0)],
        );
        let names: Vec<String> = contracts(&r).unwrap().into_iter().map(|c| c.name).collect();
        assert_eq!(names, ["fresh"]);
    }

    #[test]
    fn told_fields_hide_or_tell_and_hints_close_and_spoil() {
        let records = vec![
            record(
                "a",
                vec![ident("fresh", "code->test", 0), ident("other", "code->test", 0), ident("known", "code->test", 4)],
            ),
            json!({"instance_id": "b", "repo": "o/r", "status": "error"}),
        ];
        let rows = vec![
            row("a", "Add fresh.", json!({"interface": "other()", "hint": ["known", "other"]})),
            row("b", "", json!({})),
        ];
        let options = AuditOptions { told: vec![], hints: vec!["hint".into(), "defuse+name".into()] };
        let a = audit(&records, &rows, &options).unwrap();
        assert_eq!(a.told, ["problem_statement", "requirements", "interface"]);
        assert!(a.told_from.contains("SWE-bench Pro"), "{}", a.told_from);
        assert_eq!(a.tasks.len(), 1);
        assert_eq!(a.left_out.errors, 1);
        assert!(a.tasks[0].hidden.is_empty());
        let only_statement = AuditOptions { told: vec!["problem_statement".into()], ..options };
        let a = audit(&records, &rows, &only_statement).unwrap();
        assert_eq!(a.tasks[0].hidden.len(), 1);
        assert_eq!(a.tasks[0].hidden[0].uses, ["tests/t.py:7"]);
        assert_eq!(
            a.overall,
            Summary { repo: "overall".into(), tasks: 1, with_hidden: 1, hidden: 1, contracts: 2, hints: vec![] }
        );
        assert_eq!(a.repositories[0].hints, a.hints);
        // The field hint closes `other` and spoils `known` (no contract: the base holds it).
        assert_eq!(a.hints[0], HintSummary { hint: "hint".into(), closes: 1, leaves: 0, tasks_left: 0, spoils: 1 });
        assert_eq!(a.tasks[0].hints[0].spoils, ["known"]);
        // The rendered hint names all three.
        assert_eq!(
            a.hints[1],
            HintSummary { hint: "defuse+name".into(), closes: 1, leaves: 0, tasks_left: 0, spoils: 1 }
        );
        let md = a.markdown();
        assert!(md.contains("- function `m.other` (m.py:3), used at tests/t.py:7"), "{md}");
        assert!(md.contains("| **overall** | 1 | 1 | 100.0% | 1 | 2 | 0 (0.0%) | 0 (0.0%) |"), "{md}");
    }

    #[test]
    fn bad_input_is_refused() {
        let records = vec![record("a", vec![]), record("b", vec![]), record("c", vec![])];
        let rows = vec![row("a", "", json!({}))];
        let e = audit(&records, &rows, &AuditOptions { told: vec!["nope".into()], hints: vec![] }).unwrap_err();
        assert!(e.contains("2 of the 3 result records") && e.contains("another dataset"), "{e}");
        let rows = vec![row("a", "", json!({})), row("b", "", json!({}))];
        let e = audit(&records, &rows, &AuditOptions { told: vec!["nope".into()], hints: vec![] }).unwrap_err();
        assert_eq!(
            e,
            "told field `nope` is not a field of the dataset (its rows have: instance_id, problem_statement)"
        );
        let e = audit(&records, &[row("x", "", json!({}))], &AuditOptions::default()).unwrap_err();
        assert!(e.starts_with("the results and the dataset share no instance id"), "{e}");
        let e = audit(&records, &rows, &AuditOptions { told: vec![], hints: vec!["fea+name".into()] }).unwrap_err();
        assert!(e.contains("no record carries the `fea` selection"), "{e}");
        let e = audit(&records, &rows, &AuditOptions { told: vec![], hints: vec!["defuse+nope".into()] }).unwrap_err();
        assert!(e.contains("unknown projection"), "{e}");
    }
}
