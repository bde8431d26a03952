//! The commands that fit hintlens into a benchmark builder's pipeline: `augment`, `merge`, the
//! shard a cluster engine names, and Parquet outputs of `batch`.

use hintlens_batch::{BatchOptions, Shard, Target};
use hintlens_formats::Format;
use serde_json::Value;
use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// How many unhinted tasks or missing ones are named on standard error; the rest are counted
/// (an augment's report file lists them all).
const LISTED: usize = 20;

/// `--shard K/N`, or `auto` for the shard the cluster engine's environment names.
pub(crate) fn parse_shard(arg: &str) -> Result<Shard, String> {
    if arg == "auto" { Shard::from_env(|name| std::env::var(name).ok()) } else { arg.parse() }
}

/// Where `batch` appends its records: `--out` itself, or `OUT.partial.jsonl` beside a Parquet
/// `--out`.
pub(crate) fn records_path(out: &Path) -> PathBuf {
    match Format::for_output(out) {
        Format::Parquet => suffixed(out, ".partial.jsonl"),
        _ => out.to_owned(),
    }
}

fn suffixed(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_owned();
    name.push(suffix);
    path.with_file_name(name)
}

/// Before `--resume` of a Parquet `--out` that a completed run wrote: its records become the
/// JSON lines the run appends to.
pub(crate) fn prepare_resume(out: &Path) -> Result<(), String> {
    let records = records_path(out);
    if records == out || records.exists() || !out.exists() {
        return Ok(());
    }
    let dataset = hintlens_formats::read(out).map_err(|e| e.to_string())?;
    let rows = dataset.rows.iter().map(|r| r.value.as_ref());
    hintlens_formats::write_json(&records, Format::JsonLines, rows).map_err(|e| e.to_string())
}

/// After a completed run: a Parquet `--out` is written from the JSON lines, which go.
pub(crate) fn finish_records(out: &Path) -> Result<(), String> {
    let records = records_path(out);
    if records == out {
        return Ok(());
    }
    let dataset = hintlens_formats::read(&records).map_err(|e| e.to_string())?;
    let rows: Vec<Value> = dataset.rows.into_iter().filter_map(|r| r.value.ok()).collect();
    hintlens_formats::write(out, Format::Parquet, &rows).map_err(|e| e.to_string())?;
    std::fs::remove_file(&records).map_err(|e| format!("cannot remove {}: {e}", records.display()))
}

/// `hintlens augment`.
pub(crate) fn augment(
    mut options: BatchOptions,
    target: Target,
    results: Option<PathBuf>,
    decisions: Option<PathBuf>,
    out: PathBuf,
) -> ExitCode {
    let input = options.dataset.clone();
    let dataset = match hintlens_formats::read(&input) {
        Ok(d) => d,
        Err(e) => {
            eprintln!("error: cannot read dataset {e}");
            return ExitCode::from(2);
        }
    };
    if let Err(e) = hintlens_batch::check_target(&dataset, &target) {
        eprintln!("error: {}: {e}", input.display());
        return ExitCode::from(2);
    }
    let key = format!("{}+{}", options.selections[0], options.projections[0]);
    let records: Vec<Value> = match results {
        Some(path) => match hintlens_formats::read(&path) {
            Ok(results) => results.rows.into_iter().filter_map(|r| r.value.ok()).collect(),
            Err(e) => {
                eprintln!("error: cannot read results {e}");
                return ExitCode::from(2);
            }
        },
        None => {
            let mut buffer = Vec::new();
            let tasks = hintlens_batch::task_records(&dataset.rows);
            let (result, signal) = crate::execute(&mut options, Some(tasks), &mut buffer);
            match result {
                Ok(summary) => {
                    crate::print_summary(&summary, None);
                    if summary.interrupted {
                        eprintln!(
                            "hintlens: interrupted, nothing written. A run that may be interrupted is resumable as \
                             `hintlens batch DATASET --out RESULTS --resume`, then `hintlens augment --results RESULTS`"
                        );
                        return ExitCode::from(128 + signal as u8);
                    }
                }
                Err(e) => {
                    eprintln!("error: {e}");
                    return ExitCode::from(2);
                }
            }
            buffer.split(|&b| b == b'\n').filter_map(|line| serde_json::from_slice::<Value>(line).ok()).collect()
        }
    };
    let records = match decisions {
        Some(path) => match apply_decisions(&path, &dataset, records) {
            Ok(records) => records,
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::from(2);
            }
        },
        None => records,
    };
    let mut by_id: HashMap<String, Value> = HashMap::new();
    for record in records {
        if let Some(id) = record.get("instance_id").and_then(Value::as_str) {
            by_id.insert(id.to_owned(), record);
        }
    }
    let augmented = match hintlens_batch::write_augmented(&dataset, &input, &by_id, &key, &target, &out) {
        Ok(a) => a,
        Err(e) => {
            eprintln!("error: cannot write {e}");
            return ExitCode::from(2);
        }
    };
    let report = hintlens_batch::report_path(&out);
    let lines: Vec<Value> = augmented.unhinted.iter().map(|u| u.record.clone()).collect();
    if let Err(e) = hintlens_formats::write(&report, Format::JsonLines, &lines) {
        eprintln!("error: cannot write the report {e}");
        return ExitCode::from(2);
    }
    for unhinted in augmented.unhinted.iter().take(LISTED) {
        eprintln!("hintlens: no hint, row left unchanged: {}", unhinted.summary());
    }
    if augmented.unhinted.len() > LISTED {
        eprintln!("hintlens: … and {} more rows without a hint", augmented.unhinted.len() - LISTED);
    }
    let written: Vec<String> = augmented.written.iter().map(|p| p.display().to_string()).collect();
    eprintln!(
        "hintlens: {} rows ({}), {} with the hint `{key}` ({} empty: nothing crosses), {} unchanged (listed in {}); wrote {}",
        dataset.rows.len(),
        dataset.format.name(),
        augmented.hinted,
        augmented.empty,
        augmented.unhinted.len(),
        report.display(),
        written.join(", ")
    );
    let failed = augmented.unhinted.iter().any(|u| u.record["status"] != "unsupported");
    if failed { ExitCode::from(1) } else { ExitCode::SUCCESS }
}

/// The records with a review's decisions applied: dropped identifiers leave the selections and
/// the hints are rendered again without them (SWE-bench Pro's `requirements` from the dataset,
/// for the `pro` projection).
fn apply_decisions(
    path: &Path,
    dataset: &hintlens_formats::Dataset,
    records: Vec<Value>,
) -> Result<Vec<Value>, String> {
    if !path.exists() {
        return Err(format!("decisions file {} does not exist: name the file `hintlens review` wrote", path.display()));
    }
    let (decisions, replay) = hintlens_review::read_decisions(path).map_err(|e| e.to_string())?;
    if replay.torn {
        eprintln!("warning: {}: a torn last line (never acknowledged by the review) was left out", path.display());
    }
    let requirements: HashMap<String, String> = hintlens_batch::task_records(&dataset.rows)
        .into_iter()
        .filter_map(Result::ok)
        .filter_map(|t| Some((t.instance_id.clone(), t.text_field("requirements")?.to_owned())))
        .collect();
    let (mut dropped, mut tasks) = (0, 0);
    let curated = records
        .into_iter()
        .map(|record| {
            let id = record.get("instance_id").and_then(Value::as_str).unwrap_or_default();
            let curated = hintlens_review::curate(&record, &decisions, requirements.get(id).map(String::as_str))?;
            dropped += curated.dropped;
            tasks += usize::from(curated.dropped > 0);
            Ok(curated.record)
        })
        .collect::<Result<Vec<Value>, String>>()?;
    eprintln!(
        "hintlens: decisions of {} applied ({} read): {dropped} identifiers dropped from the selections of {tasks} tasks",
        path.display(),
        replay.applied
    );
    Ok(curated)
}

/// `hintlens merge`.
pub(crate) fn merge(outputs: &[PathBuf], dataset: &Path, out: &Path) -> ExitCode {
    let merged = match hintlens_batch::merge(outputs, dataset) {
        Ok(m) => m,
        Err(e) => {
            eprintln!("error: cannot read {e}");
            return ExitCode::from(2);
        }
    };
    if let Err(e) = hintlens_formats::write(out, Format::for_output(out), &merged.records) {
        eprintln!("error: cannot write {e}");
        return ExitCode::from(2);
    }
    let mut stderr = std::io::stderr().lock();
    let _ = writeln!(
        stderr,
        "hintlens: merged {} records from {} outputs into {} ({} duplicates and {} incomplete lines dropped)",
        merged.records.len(),
        outputs.len(),
        out.display(),
        merged.duplicates,
        merged.incomplete
    );
    if merged.unjoinable > 0 {
        let _ = writeln!(
            stderr,
            "warning: {} rows of the dataset have no instance id: no record joins them",
            merged.unjoinable
        );
    }
    if !merged.unknown.is_empty() {
        let _ = writeln!(
            stderr,
            "warning: {} records are of tasks not in {}, dropped: {}",
            merged.unknown.len(),
            dataset.display(),
            listed(&merged.unknown)
        );
    }
    if merged.missing.is_empty() {
        return ExitCode::SUCCESS;
    }
    let _ = writeln!(
        stderr,
        "error: {} tasks of {} have no record in any output: {}; run their shard again (with --resume)",
        merged.missing.len(),
        dataset.display(),
        listed(&merged.missing)
    );
    ExitCode::from(1)
}

fn listed(ids: &[String]) -> String {
    let shown = ids.iter().take(LISTED).map(String::as_str).collect::<Vec<_>>().join(", ");
    if ids.len() > LISTED { format!("{shown} … and {} more", ids.len() - LISTED) } else { shown }
}
