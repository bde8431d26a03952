//! The benchmark builder's pipeline on the command line: sharded runs as a cluster engine would
//! start them, merged back into what one process writes; Parquet in and out; datasets written
//! back with their hints (`augment`).

use hintlens_formats::Format;
use hintlens_tests::{example, hintlens, succeed};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The example's five tasks twice over, the copy under other repository names (the same
/// repositories, by `--repo`): ten tasks of four repositories, worth splitting.
struct Bench {
    dir: tempfile::TempDir,
    dataset: PathBuf,
    rows: Vec<Value>,
}

impl Bench {
    fn new() -> Bench {
        let dir = tempfile::tempdir().unwrap();
        let text = std::fs::read_to_string(example().join("tasks.jsonl")).unwrap();
        let mut rows: Vec<Value> = text.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
        let copies: Vec<Value> = rows
            .iter()
            .map(|r| {
                let mut r = r.clone();
                r["instance_id"] = format!("{}-copy", r["instance_id"].as_str().unwrap()).into();
                r["repo"] = format!("{}-copy", r["repo"].as_str().unwrap()).into();
                r
            })
            .collect();
        // Interleaved, so that dataset order is no repository's order.
        rows = rows.into_iter().zip(copies).flat_map(|(a, b)| [a, b]).collect();
        let dataset = dir.path().join("tasks.jsonl");
        hintlens_formats::write(&dataset, Format::JsonLines, &rows).unwrap();
        Bench { dir, dataset, rows }
    }

    fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    /// `hintlens <command> DATASET --repos … --repo …-copy=…` with the given arguments.
    fn run(&self, command: &str, dataset: &Path, args: &[&str]) -> Command {
        let repos = example().join("repos");
        let mut cmd = hintlens();
        cmd.arg(command).arg(dataset).arg("--repos").arg(&repos);
        for name in ["textkit", "jsonlite"] {
            cmd.arg("--repo").arg(format!("acme/{name}-copy={}", repos.join(format!("acme__{name}.git")).display()));
        }
        cmd.args(args).args(["--jobs", "2"]);
        cmd
    }

    fn ids(&self) -> Vec<&str> {
        self.rows.iter().map(|r| r["instance_id"].as_str().unwrap()).collect()
    }
}

fn read(path: &Path) -> Vec<Value> {
    hintlens_formats::read(path).unwrap().rows.into_iter().map(|r| r.value.unwrap()).collect()
}

fn stderr(output: &std::process::Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// The records of a single-process run, in dataset order (a run writes them as tasks finish).
fn in_order(records: Vec<Value>, ids: &[&str]) -> Vec<Value> {
    ids.iter()
        .map(|id| {
            records.iter().find(|r| r["instance_id"] == *id).cloned().unwrap_or_else(|| panic!("no record of {id}"))
        })
        .collect()
}

/// The variables an engine sets in the process of shard K.
type EngineEnv = fn(usize) -> Vec<(String, String)>;

#[test]
fn shards_started_by_each_engine_merge_into_the_single_run() {
    let bench = Bench::new();
    let single = bench.path("single.jsonl");
    succeed(&mut bench.run("batch", &bench.dataset, &["--out", single.to_str().unwrap()]));
    let single = in_order(read(&single), &bench.ids());
    assert!(single.iter().all(|r| r["status"] == "ok"), "{single:#?}");

    let shards = 3;
    // The variables each engine sets in each of its processes.
    let engines: [(&str, EngineEnv); 3] = [
        ("kubernetes", |k| {
            vec![("JOB_COMPLETION_INDEX".into(), k.to_string()), ("HINTLENS_SHARDS".into(), "3".into())]
        }),
        ("slurm", |k| {
            vec![("SLURM_ARRAY_TASK_ID".into(), k.to_string()), ("SLURM_ARRAY_TASK_COUNT".into(), "3".into())]
        }),
        // `sbatch --array=1-3`: ids from 1.
        ("slurm-from-1", |k| {
            vec![
                ("SLURM_ARRAY_TASK_ID".into(), (k + 1).to_string()),
                ("SLURM_ARRAY_TASK_COUNT".into(), "3".into()),
                ("SLURM_ARRAY_TASK_MIN".into(), "1".into()),
            ]
        }),
    ];
    for (engine, env) in engines {
        let outputs: Vec<PathBuf> = (0..shards).map(|k| bench.path(&format!("{engine}-{k}.jsonl"))).collect();
        // Started together, as the engine starts them.
        let children: Vec<_> = (0..shards)
            .map(|k| {
                let out = outputs[k].to_str().unwrap();
                let mut cmd = bench.run("batch", &bench.dataset, &["--shard", "auto", "--out", out]);
                cmd.envs(env(k)).stderr(std::process::Stdio::piped());
                cmd.spawn().unwrap()
            })
            .collect();
        let records = hintlens_batch::read_dataset(&bench.dataset).unwrap();
        let plan = hintlens_batch::Shard::plan(&records, shards);
        for (k, child) in children.into_iter().enumerate() {
            let output = child.wait_with_output().unwrap();
            assert!(output.status.success(), "{engine} shard {k}: {}", stderr(&output));
            assert!(stderr(&output).contains(&format!("shard {k}/{shards}:")), "{}", stderr(&output));
            // Each process ran the tasks the plan gives its shard, and those alone.
            let mut ran: Vec<String> =
                read(&outputs[k]).iter().map(|r| r["instance_id"].as_str().unwrap().into()).collect();
            ran.sort();
            let mut planned: Vec<String> =
                bench.ids().iter().zip(&plan).filter(|(_, s)| **s == k).map(|(id, _)| id.to_string()).collect();
            planned.sort();
            assert!(!planned.is_empty(), "{engine}: ten tasks leave no shard of three empty");
            assert_eq!(ran, planned, "{engine} shard {k}");
        }
        let merged = bench.path(&format!("{engine}-all.jsonl"));
        let mut merge = hintlens();
        merge.arg("merge").args(&outputs).arg("--dataset").arg(&bench.dataset).arg("--out").arg(&merged);
        let output = succeed(&mut merge);
        assert!(stderr(&output).contains("merged 10 records from 3 outputs"), "{}", stderr(&output));
        // Record for record, in dataset order (records hold no timings).
        assert_eq!(read(&merged), single, "{engine}");
    }
}

/// The plan is a function of the rows, however they are stored: JSON lines, a JSON array, one
/// Parquet file, or Hugging Face's directory of Parquet shards give every task the same shard,
/// and a process started on each runs the same tasks.
#[test]
fn the_plan_is_the_same_however_the_dataset_is_stored() {
    let bench = Bench::new();
    // Patches of every size, so that the plan has costs to weigh.
    let mut rows = bench.rows.clone();
    for (i, row) in rows.iter_mut().enumerate() {
        let lines = 1 + 700 * (i as u32 % 5);
        row["test_patch"] =
            format!("--- a/t/test_{i}.py\n+++ b/t/test_{i}.py\n@@ -{lines},1 +{lines},1 @@\n-a\n+b\n").into();
    }
    let formats =
        [("tasks.jsonl", Format::JsonLines), ("tasks.json", Format::JsonArray), ("tasks.parquet", Format::Parquet)];
    let mut stored: Vec<PathBuf> = formats
        .iter()
        .map(|(name, format)| {
            let path = bench.path(name);
            hintlens_formats::write(&path, *format, &rows).unwrap();
            path
        })
        .collect();
    let shards_dir = bench.path("hf/data");
    std::fs::create_dir_all(&shards_dir).unwrap();
    let (first, second) = rows.split_at(4);
    hintlens_formats::write(&shards_dir.join("test-00000-of-00002.parquet"), Format::Parquet, first).unwrap();
    hintlens_formats::write(&shards_dir.join("test-00001-of-00002.parquet"), Format::Parquet, second).unwrap();
    stored.push(bench.path("hf"));

    let plan_of = |path: &Path, count: usize| -> Vec<(String, usize)> {
        let records = hintlens_batch::read_dataset(path).unwrap_or_else(|e| panic!("{e}"));
        let ids = records.iter().map(|r| r.as_ref().unwrap().instance_id.clone());
        ids.zip(hintlens_batch::Shard::plan(&records, count)).collect()
    };
    for count in 1..=6 {
        let expected = plan_of(&stored[0], count);
        assert_eq!(expected.len(), 10);
        for path in &stored[1..] {
            assert_eq!(plan_of(path, count), expected, "{} in {count} shards", path.display());
        }
    }
    // And the processes: shard 1 of 3 runs the same tasks from each.
    let ran = |path: &Path| -> Vec<String> {
        let out = bench.path("shard.jsonl");
        let _ = std::fs::remove_file(&out);
        let output = bench.run("batch", path, &["--shard", "1/3", "--out", out.to_str().unwrap()]).output().unwrap();
        assert!(output.status.code().is_some_and(|c| c <= 1), "{}", stderr(&output));
        let mut ids: Vec<String> = read(&out).iter().map(|r| r["instance_id"].as_str().unwrap().into()).collect();
        ids.sort();
        ids
    };
    let expected = ran(&stored[0]);
    assert!(!expected.is_empty());
    for path in &stored[1..] {
        assert_eq!(ran(path), expected, "{}", path.display());
    }
}

#[test]
fn a_shard_resumes_and_merge_names_what_is_missing() {
    let bench = Bench::new();
    let outputs: Vec<PathBuf> = (0..2).map(|k| bench.path(&format!("{k}.jsonl"))).collect();
    for (k, out) in outputs.iter().enumerate() {
        succeed(&mut bench.run(
            "batch",
            &bench.dataset,
            &["--shard", &format!("{k}/2"), "--out", out.to_str().unwrap()],
        ));
    }
    let complete = read(&outputs[1]);
    // Shard 1 killed mid-write: its last record torn, the one before never written.
    let text = std::fs::read_to_string(&outputs[1]).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let torn = format!("{}\n{}", lines[..lines.len() - 2].join("\n"), &lines[lines.len() - 1][..20]);
    std::fs::write(&outputs[1], torn).unwrap();

    let mut merge = hintlens();
    let all = bench.path("all.jsonl");
    merge.arg("merge").args(&outputs).arg("--dataset").arg(&bench.dataset).arg("--out").arg(&all);
    let output = merge.output().unwrap();
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    let missing: Vec<&str> =
        complete[complete.len() - 2..].iter().map(|r| r["instance_id"].as_str().unwrap()).collect();
    assert!(stderr(&output).contains("2 tasks of"), "{}", stderr(&output));
    for id in &missing {
        assert!(stderr(&output).contains(id), "names {id}: {}", stderr(&output));
    }
    assert!(stderr(&output).contains("1 incomplete lines dropped"), "{}", stderr(&output));
    assert_eq!(read(&all).len(), 8, "what there is is still merged");

    // The shard resumed: the two tasks run again, nothing else.
    let resumed = succeed(&mut bench.run(
        "batch",
        &bench.dataset,
        &["--shard", "1/2", "--out", outputs[1].to_str().unwrap(), "--resume"],
    ));
    assert!(stderr(&resumed).contains("2 ok"), "{}", stderr(&resumed));
    // And again, a shard already complete: a no-op.
    let again = succeed(&mut bench.run(
        "batch",
        &bench.dataset,
        &["--shard", "1/2", "--out", outputs[1].to_str().unwrap(), "--resume"],
    ));
    assert!(stderr(&again).contains("0 ok"), "{}", stderr(&again));
    // A shard run twice (both outputs given): the duplicates go, the last complete record stays.
    let mut merge = hintlens();
    merge.arg("merge").args(&outputs).arg(&outputs[1]).arg("--dataset").arg(&bench.dataset).arg("--out").arg(&all);
    let output = succeed(&mut merge);
    assert!(stderr(&output).contains("merged 10 records from 3 outputs"), "{}", stderr(&output));
    assert!(stderr(&output).contains(&format!("{} duplicates", complete.len())), "{}", stderr(&output));
    assert_eq!(
        read(&all).iter().map(|r| r["instance_id"].as_str().unwrap().to_owned()).collect::<Vec<_>>(),
        bench.ids()
    );
}

#[test]
fn shard_arguments_that_cannot_work_are_usage_errors() {
    let bench = Bench::new();
    // Arguments, environment, what the error says.
    type Case<'a> = (&'a [&'a str], &'a [(&'a str, &'a str)], &'a str);
    let cases: [Case; 4] = [
        (&["--shard", "auto"], &[], "no cluster engine's variables"),
        (&["--shard", "auto"], &[("JOB_COMPLETION_INDEX", "1")], "HINTLENS_SHARDS is not"),
        (&["--shard", "3/3"], &[], "the index is 0 to 2"),
        (&["--shard", "half"], &[], "expected K/N"),
    ];
    for (args, env, message) in cases {
        let mut cmd = bench.run("batch", &bench.dataset, args);
        for name in ["JOB_COMPLETION_INDEX", "HINTLENS_SHARDS", "SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_COUNT"] {
            cmd.env_remove(name);
        }
        let output = cmd.envs(env.iter().copied()).output().unwrap();
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert!(stderr(&output).contains(message), "{args:?}: {}", stderr(&output));
    }
}

#[test]
fn parquet_in_and_out() {
    let bench = Bench::new();
    let parquet = bench.path("tasks.parquet");
    hintlens_formats::write(&parquet, Format::Parquet, &bench.rows).unwrap();
    let from_json = bench.path("json.jsonl");
    let from_parquet = bench.path("parquet.jsonl");
    succeed(&mut bench.run("batch", &bench.dataset, &["--out", from_json.to_str().unwrap()]));
    succeed(&mut bench.run("batch", &parquet, &["--out", from_parquet.to_str().unwrap()]));
    let ids = bench.ids();
    assert_eq!(in_order(read(&from_parquet), &ids), in_order(read(&from_json), &ids));

    // Results as Parquet: written when the run completes, resumable like JSON lines.
    let out = bench.path("results.parquet");
    let output = succeed(&mut bench.run("batch", &parquet, &["--out", out.to_str().unwrap()]));
    assert!(!bench.path("results.parquet.partial.jsonl").exists(), "{}", stderr(&output));
    assert!(hintlens_formats::is_parquet(&out).unwrap());
    let records = in_order(read(&out), &ids);
    let json = in_order(read(&from_json), &ids);
    for (a, b) in records.iter().zip(&json) {
        assert_eq!((&a["status"], &a["hints"]), (&b["status"], &b["hints"]));
        assert_eq!(
            a["selections"]["defuse"].as_array().map(Vec::len),
            b["selections"]["defuse"].as_array().map(Vec::len)
        );
    }
    let resumed = succeed(&mut bench.run("batch", &parquet, &["--out", out.to_str().unwrap(), "--resume"]));
    assert!(stderr(&resumed).contains("10 records kept"), "{}", stderr(&resumed));
    assert_eq!(read(&out).len(), 10);
    // The reports read Parquet results.
    let stats = succeed(hintlens().arg("stats").arg(&out));
    assert!(
        String::from_utf8_lossy(&stats.stdout).contains("| defuse | 10 |"),
        "{}",
        String::from_utf8_lossy(&stats.stdout)
    );
}

#[test]
fn augment_writes_the_dataset_back_with_its_hints() {
    let bench = Bench::new();
    // A task that fails: its row stays as it was.
    let mut rows = bench.rows.clone();
    rows[3]["base_commit"] = "0123456789abcdef0123456789abcdef01234567".into();
    let failing_id = rows[3]["instance_id"].as_str().unwrap().to_owned();
    let mut results_single = None;
    for (format, name) in
        [(Format::JsonLines, "tasks.jsonl"), (Format::JsonArray, "tasks.json"), (Format::Parquet, "tasks.parquet")]
    {
        let dataset = bench.path(&format!("in-{name}"));
        hintlens_formats::write(&dataset, format, &rows).unwrap();
        let out = bench.path(&format!("out-{name}"));
        let output =
            bench.run("augment", &dataset, &["--out", out.to_str().unwrap(), "--projection", "name"]).output().unwrap();
        assert_eq!(output.status.code(), Some(1), "a task failed: {}", stderr(&output));
        assert!(
            stderr(&output).contains(&format!(
                "no hint, row left unchanged: {failing_id}: error (commit_not_found): commit 0123456789abcdef"
            )),
            "{}",
            stderr(&output)
        );
        assert_eq!(hintlens_formats::read(&out).unwrap().format, format);
        let written = read(&out);
        let original = read(&dataset);
        assert_eq!(written.len(), original.len());
        for (i, (new, old)) in written.iter().zip(&original).enumerate() {
            let mut new = new.clone();
            let hint = new.as_object_mut().unwrap().shift_remove("hints");
            assert_eq!(&new, old, "row {i}: every original field, in order");
            if i == 3 {
                assert_eq!(hint, None, "the failed task's row is unchanged");
            } else {
                assert!(hint.is_some_and(|h| h.is_string()), "row {i}");
            }
        }
        assert_eq!(written[0]["hints"], "- `separator`\n- `truncate_slug`\n");
        let report = read(&bench.path(&format!("out-{name}.report.jsonl")));
        assert_eq!(report.len(), 1);
        assert_eq!(report[0]["instance_id"], failing_id.as_str());
        assert_eq!(report[0]["error"]["kind"], "commit_not_found");
        results_single.get_or_insert(written);
    }

    // Appended to the problem statement, under the header.
    let dataset = bench.path("in-tasks.jsonl");
    let out = bench.path("appended.jsonl");
    let args = ["--out", out.to_str().unwrap(), "--append-to", "problem_statement", "--projection", "name"];
    bench.run("augment", &dataset, &args).output().unwrap();
    let written = read(&out);
    let statement = rows[0]["problem_statement"].as_str().unwrap();
    assert_eq!(
        written[0]["problem_statement"],
        format!("{}\n\n{}\n- `separator`\n- `truncate_slug`\n", statement.trim_end(), hintlens_batch::APPENDED_HEADER)
    );
    assert_eq!(written[0].as_object().unwrap().len(), rows[0].as_object().unwrap().len(), "no field added");

    // Hints taken from an earlier run (e.g. a sharded run's merged output) instead of computed.
    let results = bench.path("results.jsonl");
    let _ =
        bench.run("batch", &dataset, &["--out", results.to_str().unwrap(), "--projection", "name"]).output().unwrap();
    let from_results = bench.path("from-results.jsonl");
    let output = hintlens()
        .args(["augment"])
        .arg(&dataset)
        .args(["--projection", "name", "--results"])
        .arg(&results)
        .arg("--out")
        .arg(&from_results)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    assert_eq!(Some(read(&from_results)), results_single);

    // A field the rows already have is never overwritten.
    let output = bench.run("augment", &dataset, &["--out", out.to_str().unwrap(), "--into", "repo"]).output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("row 1 already has a field `repo`: choose another with --into"),
        "{}",
        stderr(&output)
    );
}
