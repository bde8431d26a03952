//! `shards`: how well `--shard K/N` balances a dataset's work, against the plan it replaced
//! (whole repositories dealt by task count, largest first, to the least loaded shard), measured
//! in the same run.
//!
//! 1. What predicts a task's time: the batch runs the dataset on one thread, each record timed
//!    as it arrives; the rank correlation (Spearman) of each candidate with the time, a
//!    repository's first task (which reads the repository's words) left out.
//! 2. Each plan's shards, run one after another as processes of their own (`--jobs 1`, the
//!    `--repeat` median of each): tasks and seconds per shard, the largest against the mean,
//!    and the job's makespan (its largest shard) against the baseline's.
//! 3. The shards' outputs merged (`hintlens merge`) against one process's run: the same records.

use crate::demand::hintlens_exe;
use hintlens_batch::{Shard, TaskRecord, read_dataset};
use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// A candidate for what a task's time follows.
type Predictor = fn(&TaskRecord) -> f64;

pub fn shards(dataset: &Path, repos: &Path, count: usize, repeat: usize) -> Result<(), String> {
    let records = read_dataset(dataset).map_err(|e| e.to_string())?;
    let tasks: Vec<&TaskRecord> = records.iter().flatten().collect();
    if tasks.len() != records.len() {
        return Err("the dataset has records no task can be made of: shard a clean one".into());
    }
    let exe = hintlens_exe()?;
    let dir = std::env::temp_dir().join(format!("hintlens-bench-shards-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    println!("{}: {} tasks of {} repositories, {count} shards", dataset.display(), tasks.len(), repositories(&tasks));

    // 1. Predictors.
    let mut seconds: BTreeMap<String, Vec<f64>> = BTreeMap::new();
    let mut firsts = std::collections::HashSet::new();
    for _ in 0..repeat {
        let mut started = std::collections::HashSet::new();
        for (id, repo, t) in task_times(&exe, dataset, repos)? {
            // A repository's first task (tasks run in the same order every time) reads its words.
            if started.insert(repo) {
                firsts.insert(id.clone());
            }
            seconds.entry(id).or_default().push(t);
        }
    }
    let measured: Vec<(&TaskRecord, f64)> = tasks
        .iter()
        .filter(|t| !firsts.contains(&t.instance_id))
        .filter_map(|t| Some((*t, median_f(seconds.get(&t.instance_id)?.clone()))))
        .collect();
    let time: Vec<f64> = measured.iter().map(|(_, s)| *s).collect();
    println!("\nwhat predicts a task's time ({} tasks, a repository's first left out): Spearman", measured.len());
    let predictors: [(&str, Predictor); 4] = [
        ("files the patches touch", |t| files(t) as f64),
        ("bytes of the patches", |t| (t.patch.as_deref().unwrap_or_default().len() + t.test_patch.len()) as f64),
        ("lines of changed source files reached", |t| {
            (Shard::cost(&Ok(t.clone())) - hintlens_batch::LINES_PER_TASK) as f64
        }),
        ("the plan's cost", |t| Shard::cost(&Ok(t.clone())) as f64),
    ];
    for (name, predictor) in predictors {
        let values: Vec<f64> = measured.iter().map(|(t, _)| predictor(t)).collect();
        println!("  {name:<40} {:.3}", spearman(&values, &time));
    }

    // 2. The plans.
    let plans = [
        ("by work (this build's --shard)", Shard::plan(&records, count)),
        ("by repository (baseline)", by_repository(&tasks, count)),
    ];
    let mut makespans = Vec::new();
    for (name, plan) in &plans {
        let mut times = vec![Vec::new(); count];
        let sizes: Vec<usize> = (0..count).map(|k| plan.iter().filter(|&&s| s == k).count()).collect();
        for _ in 0..repeat {
            for (k, runs) in times.iter_mut().enumerate() {
                let part = dir.join(format!("shard-{k}.jsonl"));
                let mut file = std::fs::File::create(&part).map_err(|e| e.to_string())?;
                for (task, _) in tasks.iter().zip(plan).filter(|(_, s)| **s == k) {
                    writeln!(file, "{}", serde_json::Value::Object(task.raw.clone())).map_err(|e| e.to_string())?;
                }
                drop(file);
                if sizes[k] == 0 {
                    runs.push(Duration::ZERO);
                    continue;
                }
                let start = Instant::now();
                let status = Command::new(&exe)
                    .arg("batch")
                    .arg(&part)
                    .arg("--repos")
                    .arg(repos)
                    .args(["--jobs", "1", "--out"])
                    .arg(dir.join(format!("out-{k}.jsonl")))
                    .stderr(Stdio::null())
                    .status()
                    .map_err(|e| e.to_string())?;
                runs.push(start.elapsed());
                // Exit 1 is a task that failed: its record says why; the shard ran.
                if status.code().is_none_or(|c| c > 1) {
                    return Err(format!("shard {k} of {name} failed: {status}"));
                }
            }
        }
        let times: Vec<f64> = times.into_iter().map(|runs| crate::median(runs).as_secs_f64()).collect();
        let mean_tasks = tasks.len() as f64 / count as f64;
        let mean_time = times.iter().sum::<f64>() / count as f64;
        let max_time = times.iter().cloned().fold(0.0, f64::max);
        println!("\n{name}:");
        for k in 0..count {
            println!("  shard {k}: {:>5} tasks {:>8.2} s", sizes[k], times[k]);
        }
        println!(
            "  largest / mean: tasks {:.2}, time {:.2}",
            *sizes.iter().max().unwrap_or(&0) as f64 / mean_tasks,
            max_time / mean_time
        );
        makespans.push(max_time);
    }
    println!("\nmakespan (the largest shard), by work / by repository: {:.2}", makespans[0] / makespans[1]);

    // 3. This build's shards, merged, against one process.
    let single = dir.join("single.jsonl");
    run(&exe, &["batch"], dataset, repos, &single, &[])?;
    let mut outputs = Vec::new();
    for k in 0..count {
        let out = dir.join(format!("k-{k}.jsonl"));
        run(&exe, &["batch"], dataset, repos, &out, &["--shard", &format!("{k}/{count}")])?;
        outputs.push(out);
    }
    let merged = dir.join("merged.jsonl");
    let status = Command::new(&exe)
        .arg("merge")
        .args(&outputs)
        .arg("--dataset")
        .arg(dataset)
        .arg("--out")
        .arg(&merged)
        .stderr(Stdio::null())
        .status()
        .map_err(|e| e.to_string())?;
    let same = status.success() && sorted_lines(&merged)? == sorted_lines(&single)?;
    println!("merged --shard K/{count} outputs == one process's records: {}", if same { "yes" } else { "NO" });
    let _ = std::fs::remove_dir_all(&dir);
    if same { Ok(()) } else { Err("the merged shards differ from the single run".into()) }
}

/// `hintlens batch DATASET --repos REPOS --jobs 1`, each record timed as it arrives: (instance
/// id, repository, seconds since the previous record).
fn task_times(exe: &Path, dataset: &Path, repos: &Path) -> Result<Vec<(String, String, f64)>, String> {
    let mut child = Command::new(exe)
        .arg("batch")
        .arg(dataset)
        .arg("--repos")
        .arg(repos)
        .args(["--jobs", "1"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| e.to_string())?;
    let mut last = Instant::now();
    let mut out = Vec::new();
    for line in BufReader::new(child.stdout.take().expect("piped")).lines() {
        let line = line.map_err(|e| e.to_string())?;
        let now = Instant::now();
        let record: serde_json::Value = serde_json::from_str(&line).map_err(|e| e.to_string())?;
        let text = |k: &str| record[k].as_str().unwrap_or_default().to_owned();
        out.push((text("instance_id"), text("repo"), (now - last).as_secs_f64()));
        last = now;
    }
    child.wait().map_err(|e| e.to_string())?;
    Ok(out)
}

fn run(exe: &Path, command: &[&str], dataset: &Path, repos: &Path, out: &Path, extra: &[&str]) -> Result<(), String> {
    let status = Command::new(exe)
        .args(command)
        .arg(dataset)
        .arg("--repos")
        .arg(repos)
        .arg("--out")
        .arg(out)
        .args(extra)
        .stderr(Stdio::null())
        .status()
        .map_err(|e| e.to_string())?;
    if status.code().is_none_or(|c| c > 1) {
        return Err(format!("hintlens {command:?} {extra:?} failed: {status}"));
    }
    Ok(())
}

fn sorted_lines(path: &PathBuf) -> Result<Vec<String>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
    lines.sort();
    Ok(lines)
}

/// The plan `--shard` had before: repositories whole, dealt by task count, largest first, each
/// to the shard with the fewest tasks so far (ties: the lower shard, then the name).
fn by_repository(tasks: &[&TaskRecord], count: usize) -> Vec<usize> {
    let mut sizes: BTreeMap<String, usize> = BTreeMap::new();
    for t in tasks {
        *sizes.entry(t.repo.to_ascii_lowercase()).or_default() += 1;
    }
    let mut groups: Vec<(String, usize)> = sizes.into_iter().collect();
    groups.sort_by_key(|g| std::cmp::Reverse(g.1));
    let mut load = vec![0usize; count];
    let mut shard_of = BTreeMap::new();
    for (repo, size) in groups {
        let (shard, _) = load.iter().enumerate().min_by_key(|(i, l)| (**l, *i)).expect("count is at least 1");
        load[shard] += size;
        shard_of.insert(repo, shard);
    }
    tasks.iter().map(|t| shard_of[&t.repo.to_ascii_lowercase()]).collect()
}

fn repositories(tasks: &[&TaskRecord]) -> usize {
    tasks.iter().map(|t| t.repo.to_ascii_lowercase()).collect::<std::collections::BTreeSet<_>>().len()
}

fn files(task: &TaskRecord) -> usize {
    let count = |text: &str| hintlens_snapshot::Patch::parse(text.as_bytes()).map_or(0, |p| p.files.len());
    task.patch.as_deref().map_or(0, count) + count(&task.test_patch)
}

fn median_f(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

/// Spearman's rank correlation (ties share their mean rank).
fn spearman(x: &[f64], y: &[f64]) -> f64 {
    pearson(&ranks(x), &ranks(y))
}

fn ranks(values: &[f64]) -> Vec<f64> {
    let mut order: Vec<usize> = (0..values.len()).collect();
    order.sort_by(|&a, &b| values[a].total_cmp(&values[b]));
    let mut ranks = vec![0.0; values.len()];
    let mut i = 0;
    while i < order.len() {
        let mut j = i;
        while j + 1 < order.len() && values[order[j + 1]] == values[order[i]] {
            j += 1;
        }
        for &k in &order[i..=j] {
            ranks[k] = (i + j) as f64 / 2.0;
        }
        i = j + 1;
    }
    ranks
}

fn pearson(x: &[f64], y: &[f64]) -> f64 {
    let n = x.len() as f64;
    let (mx, my) = (x.iter().sum::<f64>() / n, y.iter().sum::<f64>() / n);
    let cov: f64 = x.iter().zip(y).map(|(a, b)| (a - mx) * (b - my)).sum();
    let (sx, sy) = (x.iter().map(|a| (a - mx).powi(2)).sum::<f64>(), y.iter().map(|b| (b - my).powi(2)).sum::<f64>());
    if sx == 0.0 || sy == 0.0 { 0.0 } else { cov / (sx * sy).sqrt() }
}
