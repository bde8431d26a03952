//! Joining the outputs of a sharded run (`hintlens merge`): one record per task of the dataset,
//! in dataset order, whatever shard wrote it and however often.

use crate::dataset::instance_id_of;
use serde_json::Value;
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

/// The joined records and what the join had to leave out.
#[derive(Debug, Default)]
pub struct Merged {
    /// One record per task of the dataset that has one, in dataset order.
    pub records: Vec<Value>,
    /// Records dropped because a later complete one of the same task exists (a shard run
    /// twice, or a task in two outputs).
    pub duplicates: usize,
    /// Lines that are not a whole record with an instance id (a shard killed mid-write).
    pub incomplete: usize,
    /// Tasks of the dataset no output has a record of, in dataset order.
    pub missing: Vec<String>,
    /// Instance ids of records whose task is not in the dataset (dropped), in order.
    pub unknown: Vec<String>,
    /// Rows of the dataset without an instance id: no record can be joined to them.
    pub unjoinable: usize,
}

/// Reads every shard output (JSON lines or Parquet) in the order given and the dataset, and
/// joins them: for each task the last complete record wins, as `--resume` keeps it.
pub fn merge(outputs: &[PathBuf], dataset: &Path) -> Result<Merged, hintlens_formats::Error> {
    let mut merged = Merged::default();
    let mut latest: HashMap<String, Value> = HashMap::new();
    let mut seen_unknown = HashSet::new();
    let mut order: Vec<String> = Vec::new();
    for output in outputs {
        for row in hintlens_formats::read(output)?.rows {
            let Ok(record) = row.value else {
                merged.incomplete += 1;
                continue;
            };
            let Some(id) = record.get("instance_id").and_then(Value::as_str).map(str::to_owned) else {
                merged.incomplete += 1;
                continue;
            };
            match latest.insert(id.clone(), record) {
                Some(_) => merged.duplicates += 1,
                None => order.push(id),
            }
        }
    }
    let dataset = hintlens_formats::read(dataset)?;
    let mut in_dataset = HashSet::new();
    for row in &dataset.rows {
        let Some(id) = row.value.as_ref().ok().and_then(instance_id_of) else {
            merged.unjoinable += 1;
            continue;
        };
        if !in_dataset.insert(id.to_owned()) {
            continue;
        }
        match latest.remove(id) {
            Some(record) => merged.records.push(record),
            None => merged.missing.push(id.to_owned()),
        }
    }
    for id in order {
        if latest.contains_key(&id) && seen_unknown.insert(id.clone()) {
            merged.unknown.push(id);
        }
    }
    Ok(merged)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn joined_in_dataset_order_the_last_complete_record_winning() {
        let dir = tempfile::tempdir().unwrap();
        let dataset = dir.path().join("tasks.jsonl");
        std::fs::write(
            &dataset,
            "{\"instance_id\":\"a\"}\n{\"instance_id\":\"b\"}\n{\"id\":\"c\"}\n{\"instance_id\":\"d\"}\n{\"x\":1}\n",
        )
        .unwrap();
        let one = dir.path().join("0.jsonl");
        let two = dir.path().join("1.jsonl");
        std::fs::write(
            &one,
            "{\"instance_id\":\"c\",\"status\":\"ok\"}\n{\"instance_id\":\"a\",\"status\":\"error\"}\n",
        )
        .unwrap();
        std::fs::write(
            &two,
            concat!(
                "{\"instance_id\":\"a\",\"status\":\"ok\"}\n",
                "{\"instance_id\":\"z\",\"status\":\"ok\"}\n",
                "{\"instance_id\":null,\"status\":\"error\"}\n",
                "{\"instance_id\":\"b\",\"sta"
            ),
        )
        .unwrap();
        let merged = merge(&[one, two], &dataset).unwrap();
        let ids: Vec<(&str, &str)> = merged
            .records
            .iter()
            .map(|r| (r["instance_id"].as_str().unwrap(), r["status"].as_str().unwrap()))
            .collect();
        assert_eq!(ids, [("a", "ok"), ("c", "ok")]);
        assert_eq!(merged.duplicates, 1);
        assert_eq!(merged.incomplete, 2);
        assert_eq!(merged.missing, ["b", "d"]);
        assert_eq!(merged.unknown, ["z"]);
        assert_eq!(merged.unjoinable, 1);
    }
}
