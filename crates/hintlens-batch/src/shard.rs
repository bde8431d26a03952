//! Splitting a dataset's tasks between the processes of a cluster job (`--shard K/N`).
//!
//! The plan balances estimated work, not repositories. A task's cost is one task plus the lines
//! of the source files its patches change, as far as their hunks reach (the last line a hunk of
//! each file touches, summed), over [`LINES_PER_TASK`]: parsing a changed file at B and R is
//! most of a task, and on 678 tasks of 30 repositories this predicted a task's time better
//! than the files touched or the patches' bytes (`hintlens-bench shards` measures it).
//!
//! Repositories are laid end to end, most costly first (ties: name), each's tasks in dataset
//! order, and cut into `count` runs of equal cost: a task goes to the shard its cost's midpoint
//! falls in. A repository holding more than a shard's share is split; at most `count - 1` cuts
//! fall inside repositories, and a cut that would leave fewer than [`SPLIT_TASKS`] tasks' worth
//! of a repository on one side moves to the repository's edge, since a shard holding part of a
//! repository reads its words again (about what two tasks cost, measured).
//!
//! The plan is a function of the dataset's records alone, in integer arithmetic: every process
//! of a job, on any machine, computes the same one from the same rows (JSON lines or Parquet),
//! and a shard restarted with `--resume` takes the same tasks again.

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
        let shard_of = plan(&records, self.count);
        records.into_iter().zip(shard_of).filter(|&(_, shard)| shard == self.index).map(|(r, _)| r).collect()
    }

    /// A task's estimated cost, in lines of changed source files ([`LINES_PER_TASK`] for the task
    /// itself): what the plan balances.
    pub fn cost(record: &Result<TaskRecord, RecordError>) -> u64 {
        cost(record)
    }

    /// The shard of every record of a dataset split `count` ways, in dataset order: what
    /// [`Shard::select`] keeps, for every shard at once.
    pub fn plan(records: &[Result<TaskRecord, RecordError>], count: usize) -> Vec<usize> {
        plan(records, count.max(1))
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

/// How many lines of changed source files cost what a task's own work costs (measured: a
/// task took 11 ms plus 11 µs a line reached, over 678 tasks, and counting a task as 2,000
/// lines balanced shards best).
pub const LINES_PER_TASK: u64 = 2000;

/// The least part of a repository, in tasks, worth a cut of its own (see the module docs).
pub const SPLIT_TASKS: u64 = 2;

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

/// A task's estimated cost, in lines ([`LINES_PER_TASK`] for the task itself).
fn cost(record: &Result<TaskRecord, RecordError>) -> u64 {
    let Ok(record) = record else { return LINES_PER_TASK };
    let reach = |text: &str| -> u64 {
        // A patch that does not parse fails its task, quickly.
        let Ok(patch) = hintlens_snapshot::Patch::parse(text.as_bytes()) else { return 0 };
        let source = patch.files.iter().filter(|f| hintlens_snapshot::source_extension(f.path()).is_some());
        let ends = source.map(|f| f.hunks.iter().map(|h| (h.old_start + h.old_len).max(h.new_start + h.new_len)).max());
        ends.map(|end| u64::from(end.unwrap_or(0))).sum()
    };
    LINES_PER_TASK + record.patch.as_deref().map_or(0, reach) + reach(&record.test_patch)
}

/// Each record's shard (see the module docs).
fn plan(records: &[Result<TaskRecord, RecordError>], count: usize) -> Vec<usize> {
    let costs: Vec<u64> = records.iter().map(cost).collect();
    let mut groups: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    for (index, record) in records.iter().enumerate() {
        groups.entry(key(record)).or_default().push(index);
    }
    let mut groups: Vec<(u64, &Vec<usize>)> =
        groups.values().map(|tasks| (tasks.iter().map(|&t| costs[t]).sum(), tasks)).collect();
    // Most costly first; `groups` came in key order, which a stable sort keeps among equals.
    groups.sort_by_key(|g| std::cmp::Reverse(g.0));
    // Positions in units of 2·count per line, so that every boundary (k · total / count) and
    // every task's midpoint is a whole number.
    let count_u = count as u64;
    let total: u64 = costs.iter().sum();
    let mut boundaries: Vec<u64> = (1..count_u).map(|k| 2 * k * total).collect();
    let margin = 2 * count_u * SPLIT_TASKS * LINES_PER_TASK;
    let mut start = 0;
    for &(cost, _) in &groups {
        let end = start + 2 * count_u * cost;
        for boundary in boundaries.iter_mut().filter(|b| **b > start && **b < end) {
            // Too little of the repository on one side for a cut: to its nearer edge.
            if *boundary - start < margin || end - *boundary < margin {
                *boundary = if *boundary - start <= end - *boundary { start } else { end };
            }
        }
        start = end;
    }
    let mut shard_of = vec![0; records.len()];
    let mut before = 0;
    for (_, tasks) in groups {
        for &task in tasks {
            let middle = 2 * count_u * before + count_u * costs[task];
            shard_of[task] = boundaries.iter().filter(|&&b| b <= middle).count();
            before += costs[task];
        }
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

    /// Records of `repo` with `lines` changed source lines each (one hunk reaching that far).
    fn tasks(repo: &str, lines: &[u32]) -> Vec<Result<TaskRecord, RecordError>> {
        lines
            .iter()
            .enumerate()
            .map(|(i, &n)| {
                let patch = format!("--- a/src/m.py\n+++ b/src/m.py\n@@ -{n},1 +{n},1 @@\n-a\n+b\n");
                let json = serde_json::json!({"instance_id": format!("{repo}-{i}"), "repo": repo, "base_commit": "b", "patch": patch, "test_patch": ""});
                crate::parse_dataset(&json.to_string()).unwrap().remove(0)
            })
            .collect()
    }

    fn loads(records: &[Result<TaskRecord, RecordError>], count: usize) -> (Vec<usize>, Vec<u64>) {
        let plan = Shard::plan(records, count);
        let mut tasks = vec![0; count];
        let mut cost = vec![0; count];
        for (record, &shard) in records.iter().zip(&plan) {
            tasks[shard] += 1;
            cost[shard] += super::cost(record);
        }
        (tasks, cost)
    }

    #[test]
    fn a_task_costs_itself_plus_the_lines_its_patches_reach() {
        let record = &tasks("a/b", &[500])[0];
        // The hunk `@@ -500,1 +500,1 @@` reaches line 501 of a source file.
        assert_eq!(cost(record), LINES_PER_TASK + 501);
        let docs = "--- a/README.md\n+++ b/README.md\n@@ -900,1 +900,1 @@\n-a\n+b\n";
        let json = serde_json::json!({"instance_id": "d", "repo": "a/b", "base_commit": "b", "patch": docs, "test_patch": "junk"});
        let record = crate::parse_dataset(&json.to_string()).unwrap().remove(0);
        assert_eq!(cost(&record), LINES_PER_TASK, "no source file, and a test patch that does not parse");
    }

    #[test]
    fn a_repository_larger_than_its_share_is_split_and_work_balanced() {
        // 79, 62 and 44 tasks of equal cost, as SWE-bench Pro's qutebrowser, vuls and NodeBB.
        let mut records = tasks("q/q", &[1; 79]);
        records.extend(tasks("v/v", &[1; 62]));
        records.extend(tasks("n/n", &[1; 44]));
        let (counts, _) = loads(&records, 4);
        assert_eq!(counts, [46, 46, 47, 46]);
        // Every record in exactly one shard, whatever the count; each shard's repositories are
        // consecutive runs of the plan, so at most count - 1 repositories are split.
        for n in 1..8 {
            let plan = Shard::plan(&records, n);
            assert!(plan.iter().all(|&s| s < n));
            let repos_per_shard: Vec<std::collections::BTreeSet<&str>> = (0..n)
                .map(|k| {
                    records
                        .iter()
                        .zip(&plan)
                        .filter(|(_, s)| **s == k)
                        .map(|(r, _)| r.as_ref().unwrap().repo.as_str())
                        .collect()
                })
                .collect();
            let pieces: usize = repos_per_shard.iter().map(|r| r.len()).sum();
            assert!(
                pieces < 3 + n,
                "{n} shards, three repositories: at most n - 1 cut inside one: {repos_per_shard:?}"
            );
        }
    }

    #[test]
    fn costly_tasks_weigh_more_than_cheap_ones() {
        // Ten tasks deep in large files and forty small ones: nine of the ten weigh as much as
        // the other one and the forty.
        let mut records = tasks("big/files", &[8000; 10]);
        records.extend(tasks("small/files", &[10; 40]));
        let (counts, cost) = loads(&records, 2);
        assert_eq!(counts, [9, 41]);
        assert_eq!(cost, [9 * (LINES_PER_TASK + 8001), LINES_PER_TASK + 8001 + 40 * (LINES_PER_TASK + 11)]);
    }

    #[test]
    fn a_cut_leaving_a_sliver_of_a_repository_moves_to_its_edge() {
        // 21 + 21 + 2 tasks in two shards: the cut at 22 tasks falls one task into the second
        // repository; it moves to its start rather than split off one task of it.
        let mut records = tasks("a/a", &[1; 21]);
        records.extend(tasks("b/b", &[1; 21]));
        records.extend(tasks("c/c", &[1; 2]));
        let plan = Shard::plan(&records, 2);
        let shard = |repo: &str| -> std::collections::BTreeSet<usize> {
            records.iter().zip(&plan).filter(|(r, _)| r.as_ref().unwrap().repo == repo).map(|(_, &s)| s).collect()
        };
        assert_eq!((shard("a/a"), shard("b/b"), shard("c/c")), ([0].into(), [1].into(), [1].into()));
    }
}
