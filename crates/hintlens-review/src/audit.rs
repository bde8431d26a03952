//! Each task's hidden naming contracts, for the page (`hintlens audit`'s, task by task): the
//! load-bearing DefUse names the tests need that no told field states, and the summary per
//! repository the page draws.

use crate::benchmark::Benchmark;
use hintlens_formats::told;
use hintlens_report::audit::{Contract, Summary, TaskAudit, contracts, hidden_contracts, summaries};
use serde::Serialize;
use std::collections::HashMap;

/// The hidden contracts of every task that has an answer.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Contracts {
    /// The told fields read.
    pub told: Vec<String>,
    /// Why those: `--told`, the defaults of the dataset's shape, or, without a dataset, the
    /// batch's own `necessity`.
    pub told_from: String,
    pub repositories: Vec<Summary>,
    pub overall: Summary,
    #[serde(skip)]
    by_task: HashMap<String, Vec<Contract>>,
}

impl Contracts {
    /// The contracts of the benchmark's `ok` tasks told `fields` (empty: the defaults of the
    /// dataset's shape). A task without a dataset row is told what its record says (`necessity`
    /// 0: the fields the batch was told). A told field no row has is an error.
    pub fn compute(benchmark: &Benchmark, fields: &[String]) -> Result<Contracts, String> {
        let rows: Vec<_> = benchmark.tasks.iter().filter_map(|t| t.row.as_ref().map(|r| &r.raw)).collect();
        let (told, told_from) = if rows.is_empty() {
            if !fields.is_empty() {
                return Err("--told needs --dataset, whose rows hold the told fields".into());
            }
            (Vec::new(), "the batch's necessity (no --dataset)".to_owned())
        } else if fields.is_empty() {
            let (fields, shape) = told::default_fields(rows.iter().copied());
            (fields, format!("the defaults for {shape}"))
        } else {
            told::check_fields(rows.iter().copied(), fields, "told field")?;
            (fields.to_vec(), "--told".to_owned())
        };
        let mut audits = Vec::new();
        let mut by_task = HashMap::new();
        for task in benchmark.tasks.iter().filter(|t| t.status == "ok") {
            let text = task.row.as_ref().map(|r| told::told_text(&r.raw, &told));
            let hidden = hidden_contracts(&task.record, &|id| match &text {
                Some(text) => told::states(text, &id.name),
                None => id.necessity == 0,
            })
            .map_err(|e| format!("{}: {e}", task.instance_id))?;
            audits.push(TaskAudit {
                instance_id: task.instance_id.clone(),
                repo: task.repo.clone(),
                contracts: contracts(&task.record)?.len(),
                hidden: hidden.clone(),
                hints: Vec::new(),
            });
            by_task.insert(task.instance_id.clone(), hidden);
        }
        let (repositories, overall) = summaries(&audits);
        Ok(Contracts { told, told_from, repositories, overall, by_task })
    }

    /// A task's hidden contracts; `None` for a task without an answer.
    pub fn of(&self, instance_id: &str) -> Option<&[Contract]> {
        self.by_task.get(instance_id).map(Vec::as_slice)
    }
}
