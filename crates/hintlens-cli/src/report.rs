//! `hintlens stats` and `hintlens agree`: reports over a results file.

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

pub fn run_stats(results: &Path, format: ReportFormat) -> ExitCode {
    let records = match read_records_file(results) {
        Ok(r) => r,
        Err(e) => return fail(e),
    };
    let s = stats(&records);
    match format {
        ReportFormat::Markdown => print!("{}", s.markdown()),
        ReportFormat::Json => print_json(&s),
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
