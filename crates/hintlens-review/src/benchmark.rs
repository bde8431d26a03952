//! What a review is of: a batch's result records, joined with the dataset's task records (the
//! problem statement, the patches that make R) and the judge's scores, by instance id.

use hintlens_batch::TaskRecord;
use hintlens_judge::Judged;
use hintlens_judge::stats::{Medians, Samples};
use serde::Serialize;
use serde_json::Value;
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

/// One task under review.
#[derive(Debug, Clone)]
pub struct Task {
    pub instance_id: String,
    pub repo: String,
    pub status: String,
    /// The result record as `hintlens batch` wrote it.
    pub record: Value,
    /// The dataset's record of the task, when a dataset was given and holds it.
    pub row: Option<TaskRecord>,
    /// The judge's scores by identifier (qualified name), each attribute's medians.
    pub judge: BTreeMap<String, Vec<AttributeScores>>,
}

impl Task {
    /// The mean HVM over the task's judged (identifier, attribute) pairs.
    pub fn hvm(&self) -> Option<f64> {
        let all: Vec<f64> = self.judge.values().flatten().filter_map(|s| s.scores.hvm).collect();
        (!all.is_empty()).then(|| all.iter().sum::<f64>() / all.len() as f64)
    }
}

/// The judge's verdict on one attribute of one identifier: the median of its samples per
/// scale, and HVM = N − max(D, G) (the paper's Table 8, before the mean over identifiers).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AttributeScores {
    pub attribute: String,
    #[serde(flatten)]
    pub scores: Medians,
    /// Answers that could not be read, left out of the medians.
    pub unparsable: usize,
}

/// Every task of a results file, in its order.
#[derive(Debug, Clone, Default)]
pub struct Benchmark {
    pub results: PathBuf,
    pub tasks: Vec<Task>,
    by_id: HashMap<String, usize>,
    /// Whether any judge scores were given.
    pub judged: bool,
}

/// What to load.
#[derive(Debug, Clone, Default)]
pub struct Sources {
    /// What `hintlens batch` wrote: JSON lines, a JSON array or Parquet.
    pub results: PathBuf,
    /// The dataset the batch ran (problem statements, patches).
    pub dataset: Option<PathBuf>,
    /// `hintlens judge import` outputs.
    pub judged: Vec<PathBuf>,
}

impl Benchmark {
    /// Reads the results, the dataset and the judge's records. A later record of a task
    /// replaces an earlier one (as `merge` and `--resume` keep the last).
    pub fn load(sources: &Sources) -> Result<Benchmark, String> {
        let results = hintlens_formats::read(&sources.results).map_err(|e| format!("cannot read results {e}"))?;
        let rows = match &sources.dataset {
            Some(path) => {
                let dataset = hintlens_formats::read(path).map_err(|e| format!("cannot read dataset {e}"))?;
                hintlens_batch::task_records(&dataset.rows)
                    .into_iter()
                    .filter_map(Result::ok)
                    .map(|r| (r.instance_id.clone(), r))
                    .collect()
            }
            None => HashMap::new(),
        };
        let mut judged = Vec::new();
        for path in &sources.judged {
            judged.extend(read_judged(path)?);
        }
        Ok(Benchmark::from_parts(
            &sources.results,
            results.rows.into_iter().filter_map(|r| r.value.ok()),
            rows,
            &judged,
        ))
    }

    /// A benchmark from records already read.
    pub fn from_parts(
        results: &Path,
        records: impl IntoIterator<Item = Value>,
        mut rows: HashMap<String, TaskRecord>,
        judged: &[Judged],
    ) -> Benchmark {
        let mut scores = scores(judged);
        let mut benchmark =
            Benchmark { results: results.to_owned(), judged: !judged.is_empty(), ..Benchmark::default() };
        for record in records {
            let Some(instance_id) = record.get("instance_id").and_then(Value::as_str).map(str::to_owned) else {
                continue;
            };
            let text = |k: &str| record.get(k).and_then(Value::as_str).unwrap_or_default().to_owned();
            let task = Task {
                repo: text("repo"),
                status: text("status"),
                row: rows.remove(&instance_id),
                judge: scores.remove(&instance_id).unwrap_or_default(),
                instance_id: instance_id.clone(),
                record,
            };
            match benchmark.by_id.get(&instance_id) {
                Some(&i) => {
                    // A repeated record keeps what the first took from the dataset and judge.
                    let old = std::mem::replace(&mut benchmark.tasks[i], task);
                    let new = &mut benchmark.tasks[i];
                    new.row = new.row.take().or(old.row);
                    if new.judge.is_empty() {
                        new.judge = old.judge;
                    }
                }
                None => {
                    benchmark.by_id.insert(instance_id, benchmark.tasks.len());
                    benchmark.tasks.push(task);
                }
            }
        }
        benchmark
    }

    pub fn task(&self, instance_id: &str) -> Option<&Task> {
        self.by_id.get(instance_id).map(|&i| &self.tasks[i])
    }

    /// The selections any record holds, in the paper's order, unknown ones after by name.
    pub fn selections(&self) -> Vec<String> {
        let mut names: Vec<String> = self
            .tasks
            .iter()
            .filter_map(|t| t.record.get("selections").and_then(Value::as_object))
            .flat_map(|m| m.keys().cloned())
            .collect();
        names.sort_by_key(|n| {
            let known = hintlens_hints::Selection::ALL.iter().position(|s| s.as_str() == n);
            (known.unwrap_or(usize::MAX), n.clone())
        });
        names.dedup();
        names
    }
}

fn read_judged(path: &Path) -> Result<Vec<Judged>, String> {
    let text =
        std::fs::read_to_string(path).map_err(|e| format!("cannot read judged records {}: {e}", path.display()))?;
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(n, l)| {
            serde_json::from_str(l).map_err(|e| {
                format!(
                    "{} line {}: not a judged record ({e}); give what `hintlens judge import` wrote",
                    path.display(),
                    n + 1
                )
            })
        })
        .collect()
}

/// instance → identifier → per attribute scores. Repeated entries of one name (`x#2`) are the
/// same identifier listed twice; the first is shown.
fn scores(judged: &[Judged]) -> HashMap<String, BTreeMap<String, Vec<AttributeScores>>> {
    let mut samples: BTreeMap<(&str, &str, hintlens_judge::Attribute), Samples> = BTreeMap::new();
    for j in judged.iter().filter(|j| j.entry == j.identifier) {
        samples.entry((j.instance_id.as_str(), j.identifier.as_str(), j.attribute)).or_default().add(j);
    }
    let mut out: HashMap<String, BTreeMap<String, Vec<AttributeScores>>> = HashMap::new();
    for ((instance, identifier, attribute), s) in samples {
        let scores =
            AttributeScores { attribute: attribute.as_str().to_owned(), scores: s.medians(), unparsable: s.unparsable };
        out.entry(instance.to_owned()).or_default().entry(identifier.to_owned()).or_default().push(scores);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use hintlens_judge::{Attribute, Call};
    use serde_json::json;

    fn judged(call: Call, attribute: Attribute, n: Option<u8>, d: Option<u8>, g: Option<u8>) -> Judged {
        serde_json::from_value(json!({
            "id": "x", "instance_id": "t", "identifier": "m.f", "entry": "m.f",
            "attribute": attribute, "call": call, "sample": 0, "status": "ok",
            "N": n, "D": d, "G": g,
        }))
        .unwrap()
    }

    #[test]
    fn judge_scores_are_medians_per_attribute_and_hvm() {
        let judged = vec![
            judged(Call::Necessity, Attribute::Name, Some(3), None, None),
            judged(Call::Necessity, Attribute::Name, Some(2), None, None),
            judged(Call::Necessity, Attribute::Name, Some(3), None, None),
            judged(Call::DisclosureGuidance, Attribute::Name, None, Some(1), Some(0)),
            judged(Call::Necessity, Attribute::Signature, Some(1), None, None),
            judged(Call::DisclosureGuidance, Attribute::Signature, None, Some(2), Some(3)),
        ];
        let records = [json!({"instance_id": "t", "repo": "o/r", "status": "ok"}), json!({"instance_id": "u"})];
        let b = Benchmark::from_parts(Path::new("r.jsonl"), records, HashMap::new(), &judged);
        let t = b.task("t").unwrap();
        let name = &t.judge["m.f"][0];
        assert_eq!(
            (name.attribute.as_str(), name.scores.n, name.scores.d, name.scores.g, name.scores.hvm),
            ("name", Some(3.0), Some(1.0), Some(0.0), Some(2.0))
        );
        assert_eq!(t.judge["m.f"][1].scores.hvm, Some(-2.0));
        assert_eq!(t.hvm(), Some(0.0));
        assert_eq!(b.task("u").unwrap().hvm(), None);
        assert!(b.judged);
    }
}
