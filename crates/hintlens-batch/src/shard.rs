//! Splitting a dataset's tasks between the processes of a cluster job (`--shard K/N`).
//!
//! Tasks of one repository always land in the same shard, because they share a database: every
//! file their snapshots have in common is parsed once there, and would be parsed again in each
//! shard the repository were split over. Repositories are dealt to shards by the number of tasks
//! each has, largest first, each to the shard with the fewest tasks so far (ties: the lower
//! shard, then the repository name in byte order). The deal is a function of the dataset alone:
//! every process of a job, on any machine, any day, computes the same one from the same file,
//! and a shard restarted with `--resume` takes the same tasks again. Unlike a hash of the name,
//! it keeps shards even when a few repositories hold most tasks (SWE-bench: 12 repositories).

use crate::dataset::{RecordError, TaskRecord};
use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;

/// Shard `index` of `count`, counted from zero as Kubernetes' and Slurm's indices are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    pub index: usize,
    pub count: usize,
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl Shard {
    pub fn new(index: usize, count: usize) -> Result<Shard, String> {
        if count == 0 {
            return Err("the shard count must be at least 1".into());
        }
        if index >= count {
            return Err(format!(
                "shard {index}/{count} does not exist: shards count from 0, so the index is 0 to {}",
                count - 1
            ));
        }
        Ok(Shard { index, count })
    }

    /// The shard a cluster engine's environment names: a Kubernetes Indexed Job's
    /// `JOB_COMPLETION_INDEX` with the count in `HINTLENS_SHARDS` (the Job's `completions`), or a
    /// Slurm array's `SLURM_ARRAY_TASK_ID` and `SLURM_ARRAY_TASK_COUNT` (an array starting at
    /// `SLURM_ARRAY_TASK_MIN` with step `SLURM_ARRAY_TASK_STEP` is counted from its start).
    pub fn from_env(var: impl Fn(&str) -> Option<String>) -> Result<Shard, String> {
        let number = |name: &str| -> Result<Option<usize>, String> {
            match var(name) {
                None => Ok(None),
                Some(v) => {
                    v.trim().parse().map(Some).map_err(|_| format!("{name}={v:?} is not a non-negative whole number"))
                }
            }
        };
        if let Some(index) = number("JOB_COMPLETION_INDEX")? {
            let Some(count) = number("HINTLENS_SHARDS")? else {
                return Err(format!(
                    "JOB_COMPLETION_INDEX={index} is set (a Kubernetes Indexed Job) but HINTLENS_SHARDS is not: \
                     set it to the Job's `completions` in the container's env"
                ));
            };
            return Shard::new(index, count)
                .map_err(|e| format!("{e} (from JOB_COMPLETION_INDEX and HINTLENS_SHARDS)"));
        }
        if let Some(id) = number("SLURM_ARRAY_TASK_ID")? {
            let Some(count) = number("SLURM_ARRAY_TASK_COUNT")? else {
                return Err(format!("SLURM_ARRAY_TASK_ID={id} is set but SLURM_ARRAY_TASK_COUNT is not"));
            };
            let min = number("SLURM_ARRAY_TASK_MIN")?.unwrap_or(0);
            let step = number("SLURM_ARRAY_TASK_STEP")?.unwrap_or(1).max(1);
            let Some(offset) = id.checked_sub(min).filter(|o| o % step == 0) else {
                return Err(format!("SLURM_ARRAY_TASK_ID={id} is not on the array's range (min {min}, step {step})"));
            };
            return Shard::new(offset / step, count).map_err(|e| format!("{e} (from the Slurm array's variables)"));
        }
        Err("--shard auto found no cluster engine's variables: set JOB_COMPLETION_INDEX and HINTLENS_SHARDS \
             (Kubernetes Indexed Job) or SLURM_ARRAY_TASK_ID and SLURM_ARRAY_TASK_COUNT (Slurm array), \
             or give the shard as --shard K/N"
            .into())
    }

    /// This shard's records, in dataset order. A record no task could be made of goes with its
    /// repository when it names one, else on its own (by instance id, else position), so that
    /// every record of the dataset is in exactly one shard.
    pub fn select(self, records: Vec<Result<TaskRecord, RecordError>>) -> Vec<Result<TaskRecord, RecordError>> {
        let keys: Vec<String> = records.iter().map(key).collect();
        let shard_of = deal(&keys, self.count);
        records.into_iter().zip(&keys).filter(|(_, k)| shard_of[k.as_str()] == self.index).map(|(r, _)| r).collect()
    }
}

impl FromStr for Shard {
    type Err = String;

    fn from_str(s: &str) -> Result<Shard, String> {
        let (index, count) = s.split_once('/').ok_or_else(|| format!("expected K/N (e.g. 0/4) or auto, got `{s}`"))?;
        let parse =
            |x: &str| x.trim().parse::<usize>().map_err(|_| format!("expected K/N (e.g. 0/4) or auto, got `{s}`"));
        Shard::new(parse(index)?, parse(count)?)
    }
}

/// What keeps records together: the repository, compared as `run_batch` groups them.
fn key(record: &Result<TaskRecord, RecordError>) -> String {
    match record {
        Ok(r) => r.repo.to_ascii_lowercase(),
        Err(e) => match (&e.repo, &e.instance_id) {
            (Some(repo), _) => repo.to_ascii_lowercase(),
            (None, Some(id)) => format!("\u{0}id:{id}"),
            (None, None) => format!("\u{0}record:{}", e.position),
        },
    }
}

/// The shard of every key: largest group first, to the least loaded shard.
fn deal(keys: &[String], count: usize) -> BTreeMap<&str, usize> {
    let mut sizes: BTreeMap<&str, usize> = BTreeMap::new();
    for k in keys {
        *sizes.entry(k).or_default() += 1;
    }
    let mut groups: Vec<(&str, usize)> = sizes.into_iter().collect();
    // Stable: equal sizes stay in key order.
    groups.sort_by_key(|g| std::cmp::Reverse(g.1));
    let mut load = vec![0usize; count];
    let mut shard_of = BTreeMap::new();
    for (k, size) in groups {
        let (shard, _) = load.iter().enumerate().min_by_key(|(i, l)| (**l, *i)).expect("count is at least 1");
        load[shard] += size;
        shard_of.insert(k, shard);
    }
    shard_of
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    #[test]
    fn parsed_from_the_command_line() {
        assert_eq!("1/4".parse::<Shard>(), Ok(Shard { index: 1, count: 4 }));
        assert!("4/4".parse::<Shard>().unwrap_err().contains("the index is 0 to 3"));
        assert!("1/0".parse::<Shard>().unwrap_err().contains("at least 1"));
        assert!("1".parse::<Shard>().unwrap_err().contains("expected K/N"));
    }

    #[test]
    fn read_from_each_engines_environment() {
        let env = |pairs: &[(&str, &str)]| {
            let map: HashMap<String, String> = pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
            Shard::from_env(move |k| map.get(k).cloned())
        };
        assert_eq!(env(&[("JOB_COMPLETION_INDEX", "2"), ("HINTLENS_SHARDS", "3")]), Ok(Shard { index: 2, count: 3 }));
        assert!(env(&[("JOB_COMPLETION_INDEX", "2")]).unwrap_err().contains("HINTLENS_SHARDS is not"));
        assert!(env(&[("JOB_COMPLETION_INDEX", "3"), ("HINTLENS_SHARDS", "3")]).unwrap_err().contains("0 to 2"));
        assert_eq!(
            env(&[("SLURM_ARRAY_TASK_ID", "0"), ("SLURM_ARRAY_TASK_COUNT", "4")]),
            Ok(Shard { index: 0, count: 4 })
        );
        // `--array=1-4` and `--array=0-12:4` are counted from their start.
        let slurm = [("SLURM_ARRAY_TASK_ID", "3"), ("SLURM_ARRAY_TASK_COUNT", "4"), ("SLURM_ARRAY_TASK_MIN", "1")];
        assert_eq!(env(&slurm), Ok(Shard { index: 2, count: 4 }));
        let stepped = [
            ("SLURM_ARRAY_TASK_ID", "8"),
            ("SLURM_ARRAY_TASK_COUNT", "4"),
            ("SLURM_ARRAY_TASK_MIN", "0"),
            ("SLURM_ARRAY_TASK_STEP", "4"),
        ];
        assert_eq!(env(&stepped), Ok(Shard { index: 2, count: 4 }));
        assert!(env(&[("SLURM_ARRAY_TASK_ID", "x")]).unwrap_err().contains("not a non-negative whole number"));
        assert!(env(&[]).unwrap_err().contains("no cluster engine's variables"));
    }

    #[test]
    fn repositories_are_dealt_largest_first_to_the_least_loaded_shard() {
        let keys: Vec<String> = ["django"; 5]
            .into_iter()
            .chain(["flask"; 3])
            .chain(["requests"; 2])
            .chain(["attrs"; 2])
            .map(String::from)
            .collect();
        let shard_of = deal(&keys, 2);
        // django (5) → 0, flask (3) → 1, attrs (2, before requests by name) → 1, requests (2) → 0.
        assert_eq!(shard_of["django"], 0);
        assert_eq!(shard_of["flask"], 1);
        assert_eq!(shard_of["attrs"], 1);
        assert_eq!(shard_of["requests"], 0);
        // Every key is in exactly one of N shards, whatever N.
        for n in 1..6 {
            let shard_of = deal(&keys, n);
            assert!(shard_of.values().all(|s| *s < n));
            assert_eq!(shard_of.len(), 4);
        }
    }
}
