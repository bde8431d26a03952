//! Builds the reference snapshot of every task in a SWE-bench-style JSON-lines file and
//! reports which fail, with timings. When a task has a `head_commit` that the repository
//! contains, the reference snapshot is compared with that commit file by file (SWE-bench
//! patches are the base..head diff split into code and tests, so they should be equal).
//!
//! Usage: `cargo run --release -p hintlens-snapshot --example apply_tasks -- <repo> <tasks.jsonl>`

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::time::{Duration, Instant};

use hintlens_snapshot::{Repository, build_reference};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let [_, repo_path, tasks_path] = args.as_slice() else {
        return Err("usage: apply_tasks <repo> <tasks.jsonl>".into());
    };
    let repo = Repository::open(Path::new(repo_path))?;
    let reader = repo.reader();
    let (mut applied, mut failed, mut verified, mut mismatched) = (0, 0, 0, 0);
    let (mut snapshot_time, mut reference_time) = (Duration::ZERO, Duration::ZERO);
    for line in std::fs::read_to_string(tasks_path)?.lines() {
        let task: serde_json::Value = serde_json::from_str(line)?;
        let field = |name: &str| task[name].as_str().unwrap_or_default();
        let id = field("instance_id");

        let started = Instant::now();
        let base = repo.snapshot(repo.resolve_commit(field("base_commit"))?)?;
        snapshot_time += started.elapsed();

        let started = Instant::now();
        let result = build_reference(&base, &reader, field("patch").as_bytes(), field("test_patch").as_bytes());
        reference_time += started.elapsed();
        let reference = match result {
            Ok(reference) => reference,
            Err(error) => {
                failed += 1;
                println!("FAIL {id}: {error}");
                continue;
            }
        };
        applied += 1;
        for note in &reference.notes {
            println!("note {id}: {note}");
        }

        let Ok(head) = repo.resolve_commit(field("head_commit")) else {
            continue;
        };
        let head = repo.snapshot(head)?;
        verified += 1;
        let ours: BTreeMap<&str, _> = reference.snapshot.iter().map(|(p, e)| (p, (e.id, e.mode))).collect();
        let theirs: BTreeMap<&str, _> = head.iter().map(|(p, e)| (p, (e.id, e.mode))).collect();
        for path in ours.keys().chain(theirs.keys()).collect::<BTreeSet<_>>() {
            let (ours, theirs) = (ours.get(path), theirs.get(path));
            if ours != theirs {
                mismatched += 1;
                println!("DIFF {id}: {path}: reference {ours:?}, head commit {theirs:?}");
            }
        }
    }
    let tasks = applied + failed;
    println!(
        "{applied}/{tasks} tasks applied, {failed} failed; {verified} compared with head_commit, {mismatched} files differ"
    );
    if tasks > 0 {
        println!("mean per task: snapshot {:?}, build_reference {:?}", snapshot_time / tasks, reference_time / tasks);
    }
    Ok(())
}
