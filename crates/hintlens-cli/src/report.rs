//! `hintlens stats`, `hintlens agree` and `hintlens audit`: reports over a results file.

use clap::ValueEnum;
use hintlens_report::{ReferenceField, agree, read_records_file, stats};
use std::path::Path;
use std::process::ExitCode;

#[derive(Clone, Copy, ValueEnum)]
pub enum ReportFormat {
    Markdown,
    Json,
}

fn fail(message: String) -> ExitCode {
    eprintln!("error: {message}");
    ExitCode::from(2)
}

fn print_json(value: &impl serde::Serialize) {
    println!("{}", serde_json::to_string_pretty(value).unwrap_or_default());
}

/// Table 2, and a review's progress when there is a decisions file: the one named, else the one
/// `hintlens review` keeps beside the results by default, if it exists.
pub fn run_stats(results: &Path, format: ReportFormat, decisions: Option<&Path>) -> ExitCode {
    let records = match read_records_file(results) {
        Ok(r) => r,
        Err(e) => return fail(e),
    };
    let s = stats(&records);
    let beside = hintlens_review::default_path(results);
    let decisions = match decisions {
        Some(path) if !path.exists() => return fail(format!("decisions file {} does not exist", path.display())),
        Some(path) => Some(path.to_owned()),
        None => beside.exists().then_some(beside),
    };
    let progress = match decisions.as_deref().map(hintlens_review::read_decisions).transpose() {
        Ok(d) => d.map(|(decisions, _)| hintlens_review::progress(&records, &decisions)),
        Err(e) => return fail(e.to_string()),
    };
    match format {
        ReportFormat::Markdown => {
            print!("{}", s.markdown());
            if let (Some(progress), Some(path)) = (&progress, &decisions) {
                print!("{}", progress.markdown());
                println!(
                    "
(decisions: {})",
                    path.display()
                );
            }
        }
        ReportFormat::Json => match progress {
            Some(progress) => {
                let mut value = serde_json::to_value(&s).unwrap_or_default();
                value["review"] = serde_json::to_value(&progress).unwrap_or_default();
                print_json(&value)
            }
            None => print_json(&s),
        },
    }
    ExitCode::SUCCESS
}

pub fn run_agree(
    results: &Path,
    selection: &str,
    field: ReferenceField,
    dataset: Option<&Path>,
    format: ReportFormat,
) -> ExitCode {
    let records = match read_records_file(results) {
        Ok(r) => r,
        Err(e) => return fail(e),
    };
    let dataset = match dataset.map(read_records_file).transpose() {
        Ok(d) => d.unwrap_or_default(),
        Err(e) => return fail(e),
    };
    let a = agree(&records, selection, field, &dataset);
    match format {
        ReportFormat::Markdown => print!("{}", a.markdown()),
        ReportFormat::Json => print_json(&a),
    }
    if a.overall.tasks == 0 {
        eprintln!("error: no task has both the `{selection}` selection and the `{field}` field");
        return ExitCode::from(1);
    }
    ExitCode::SUCCESS
}

/// The audit of a results file against its dataset, printed (or written to `out`) only once
/// every check passed: a bad input leaves nothing behind.
pub fn run_audit(
    results: &Path,
    dataset: &Path,
    options: hintlens_report::AuditOptions,
    format: ReportFormat,
    out: Option<&Path>,
) -> ExitCode {
    let started = std::time::Instant::now();
    let records = match read_records_file(results) {
        Ok(r) => r,
        Err(e) => return fail(e),
    };
    let rows: Vec<serde_json::Map<String, serde_json::Value>> = match hintlens_formats::read(dataset) {
        Ok(d) => d.rows.into_iter().filter_map(|r| r.value.ok()?.as_object().cloned()).collect(),
        Err(e) => return fail(format!("cannot read dataset {e}")),
    };
    let audit = match hintlens_report::audit(&records, &rows, &options) {
        Ok(a) => a,
        Err(e) => return fail(e),
    };
    let text = match format {
        ReportFormat::Markdown => audit.markdown(),
        ReportFormat::Json => serde_json::to_string_pretty(&audit).unwrap_or_default() + "\n",
    };
    match out {
        Some(path) => {
            let written = hintlens_formats::write_atomically(path, |file| {
                use std::io::Write;
                file.write_all(text.as_bytes()).map_err(|e| e.to_string())
            });
            if let Err(e) = written {
                return fail(format!("cannot write {e}"));
            }
        }
        None => print!("{text}"),
    }
    let missing = &audit.left_out.not_in_dataset;
    if !missing.is_empty() {
        eprintln!(
            "warning: {} result records are of tasks the dataset lacks and were left out (e.g. {})",
            missing.len(),
            missing.iter().take(3).cloned().collect::<Vec<_>>().join(", ")
        );
    }
    eprintln!(
        "hintlens: audited {} tasks ({} with a hidden contract) told {} in {:.2}s",
        audit.overall.tasks,
        audit.overall.with_hidden,
        audit.told.join(" + "),
        started.elapsed().as_secs_f64()
    );
    ExitCode::SUCCESS
}
