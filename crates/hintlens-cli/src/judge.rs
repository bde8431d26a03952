//! `hintlens judge export|run|import|report`: the paper's leakage judge (SPEC §6), file in,
//! file out; the work is `hintlens_judge`'s.

use clap::{Subcommand, ValueEnum};
use hintlens_hints::Selection;
use hintlens_judge::{
    Answer, Bootstrap, ExportOptions, ExportProblem, HttpJudge, Judged, Message, PromptRecord, TaskText,
    projected_attributes,
};
use hintlens_projection::Projection;
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};
use std::collections::HashMap;
use std::io::{BufWriter, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Subcommand)]
pub enum JudgeCommand {
    /// Write the judge's prompts for a results file: one line per (instance, identifier,
    /// attribute, call, sample), the paper's Appendix C filled in, in OpenAI chat format.
    Export {
        /// Result records of `hintlens batch`.
        results: PathBuf,
        /// The task records (issue, gold and test patches), in any benchmark's field names.
        /// Repeatable: records of several files are joined on instance_id (SWE-bench Pro's
        /// instances and its patches, say).
        #[arg(long = "dataset", required = true, value_name = "DATASET")]
        dataset: Vec<PathBuf>,
        /// The selection whose identifiers are rated.
        #[arg(long, value_name = "S", default_value = "defuse")]
        selection: Selection,
        /// The attributes rated are those this projection shows: name, name-kind,
        /// declaration, declaration-doc or pro (all seven of Table 8; the semantic ones where
        /// a description exists).
        #[arg(long, value_name = "P", default_value = "pro")]
        projection: Projection,
        /// Samples per call.
        #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..))]
        samples: u32,
        #[arg(long)]
        out: PathBuf,
    },
    /// Ask an OpenAI-compatible endpoint (the [judge] table of --config) every prompt not yet
    /// answered in --out, appending each answer as it arrives.
    Run {
        prompts: PathBuf,
        #[arg(long, value_name = "FILE")]
        config: PathBuf,
        /// Answers, `{"id", "content"}` per line; continued if it exists.
        #[arg(long)]
        out: PathBuf,
        /// Calls in flight at once.
        #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u32).range(1..))]
        concurrency: u32,
    },
    /// Read the answers: labels to levels 0–3, evidence, rationale and confidence; an answer
    /// that cannot be read is recorded as unparsable.
    Import {
        prompts: PathBuf,
        answers: PathBuf,
        #[arg(long)]
        out: PathBuf,
    },
    /// Table 8 of the paper: per attribute, identifiers judged, N, D, G and HVM with 95%
    /// instance-clustered bootstrap intervals, and three-sample unanimity.
    Report {
        judged: PathBuf,
        #[arg(long, value_enum, default_value_t = JudgeFormat::Markdown)]
        format: JudgeFormat,
        /// Bootstrap resamples.
        #[arg(long, default_value_t = 10_000)]
        bootstrap: usize,
        #[arg(long, default_value_t = 0)]
        seed: u64,
    },
}

#[derive(Clone, Copy, ValueEnum)]
pub enum JudgeFormat {
    Markdown,
    Json,
    Svg,
}

pub fn run(command: JudgeCommand) -> ExitCode {
    let result = match command {
        JudgeCommand::Export { results, dataset, selection, projection, samples, out } => {
            export(&results, &dataset, selection, projection, samples, &out)
        }
        JudgeCommand::Run { prompts, config, out, concurrency } => ask(&prompts, &config, &out, concurrency as usize),
        JudgeCommand::Import { prompts, answers, out } => import(&prompts, &answers, &out),
        JudgeCommand::Report { judged, format, bootstrap, seed } => report(&judged, format, bootstrap, seed),
    };
    result.unwrap_or_else(|e| {
        eprintln!("error: {e}");
        ExitCode::from(2)
    })
}

fn read_jsonl<T: DeserializeOwned>(path: &Path) -> Result<Vec<T>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| serde_json::from_str(l).map_err(|e| format!("{} line {}: {e}", path.display(), i + 1)))
        .collect()
}

fn write_jsonl<T: serde::Serialize>(path: &Path, items: &[T]) -> Result<(), String> {
    let fail = |e: &dyn std::fmt::Display| format!("cannot write {}: {e}", path.display());
    let file = std::fs::File::create(path).map_err(|e| fail(&e))?;
    let mut out = BufWriter::new(file);
    for item in items {
        serde_json::to_writer(&mut out, item).map_err(|e| fail(&e))?;
        out.write_all(b"\n").map_err(|e| fail(&e))?;
    }
    out.flush().map_err(|e| fail(&e))
}

/// The task records of every dataset file, joined on instance_id (a later file fills the fields
/// an earlier one lacks), read by the batch's dataset parser.
fn tasks(datasets: &[PathBuf]) -> Result<HashMap<String, Result<TaskText, String>>, String> {
    let mut order: Vec<String> = Vec::new();
    let mut merged: HashMap<String, Map<String, Value>> = HashMap::new();
    for path in datasets {
        for record in hintlens_report::read_records_file(path)? {
            let Value::Object(fields) = record else { continue };
            let Some(id) = ["instance_id", "id"].iter().find_map(|k| fields.get(*k)?.as_str()).map(str::to_owned)
            else {
                continue;
            };
            let known = merged.entry(id.clone()).or_insert_with(|| {
                order.push(id);
                Map::new()
            });
            for (k, v) in fields {
                known.entry(k).or_insert(v);
            }
        }
    }
    let joined: Vec<Value> = order.iter().map(|id| Value::Object(merged.remove(id).unwrap_or_default())).collect();
    let text = serde_json::to_string(&joined).map_err(|e| e.to_string())?;
    let records = hintlens_batch::parse_dataset(&text)?;
    Ok(order
        .into_iter()
        .zip(records)
        .map(|(id, r)| {
            let task = r
                .map(|t| TaskText {
                    repo: t.repo,
                    problem_statement: t.problem_statement,
                    patch: t.patch.unwrap_or_default(),
                    test_patch: t.test_patch,
                })
                .map_err(|e| e.message);
            (id, task)
        })
        .collect())
}

fn export(
    results: &Path,
    datasets: &[PathBuf],
    selection: Selection,
    projection: Projection,
    samples: u32,
    out: &Path,
) -> Result<ExitCode, String> {
    let attributes = projected_attributes(projection)?;
    let records = hintlens_report::read_records_file(results)?;
    let mut readable = HashMap::new();
    let mut unreadable = HashMap::new();
    for (id, task) in tasks(datasets)? {
        match task {
            Ok(t) => {
                readable.insert(id, t);
            }
            Err(e) => {
                unreadable.insert(id, e);
            }
        }
    }
    let options = ExportOptions { selection: selection.as_str().to_owned(), attributes, samples };
    let (prompts, summary) = match hintlens_judge::export(&records, &readable, &options) {
        Ok(done) => done,
        Err(problems) => {
            for p in &problems {
                match p {
                    // The dataset holds the instance in a record that cannot be used: say why.
                    ExportProblem::NoTask { instance_id } if unreadable.contains_key(instance_id) => eprintln!(
                        "error: {instance_id}: {} (another --dataset may hold the missing fields)",
                        unreadable[instance_id]
                    ),
                    _ => eprintln!("error: {p}"),
                }
            }
            eprintln!("hintlens judge: nothing written ({} problems)", problems.len());
            return Ok(ExitCode::from(1));
        }
    };
    write_jsonl(out, &prompts)?;
    eprintln!(
        "hintlens judge: {} instances, {} identifiers, {} attribute values → {} calls ({} samples each), {} characters{}",
        summary.instances,
        summary.identifiers,
        summary.pairs,
        summary.calls,
        samples,
        summary.characters,
        match summary.skipped_records {
            0 => String::new(),
            n => format!("; {n} result records not ok, skipped"),
        }
    );
    Ok(ExitCode::SUCCESS)
}

/// What `run` needs of a prompt line (any tool's lines with these two fields will do).
#[derive(Deserialize)]
struct Call {
    id: String,
    messages: Vec<Message>,
}

fn ask(prompts: &Path, config: &Path, out: &Path, concurrency: usize) -> Result<ExitCode, String> {
    let config = hintlens_judge::load_config(config)?;
    let judge = HttpJudge::new(&config)?;
    let calls: Vec<Call> = read_jsonl(prompts)?;
    let mut answers =
        hintlens_judge::open_answers(out).map_err(|e| format!("cannot continue {}: {e}", out.display()))?;
    if answers.dropped > 0 {
        eprintln!("hintlens judge: {}: {} torn or unreadable lines dropped", out.display(), answers.dropped);
    }
    let calls: Vec<(&str, &[Message])> = calls.iter().map(|c| (c.id.as_str(), c.messages.as_slice())).collect();
    let bar = std::io::stderr().is_terminal().then(|| {
        let bar = indicatif::ProgressBar::new(0);
        bar.set_style(
            indicatif::ProgressStyle::with_template(
                "{spinner} [{elapsed_precise}] {bar:30} {pos}/{len} calls · {msg} · {per_sec} · eta {eta}",
            )
            .expect("the template is valid"),
        );
        bar
    });
    let summary =
        hintlens_judge::run(&calls, &judge, concurrency, &answers.answered, &mut answers.file, &mut |p| match &bar {
            Some(bar) => {
                bar.set_length(p.total as u64);
                bar.set_position(p.done as u64);
                bar.set_message(format!("{} failed", p.failed));
                if let Some((id, e)) = p.error {
                    bar.println(format!("{id}: {e}"));
                }
            }
            None => {
                if let Some((id, e)) = p.error {
                    eprintln!("[{}/{}] {id} failed: {e}", p.done, p.total);
                } else if p.done % 100 == 0 || p.done == p.total {
                    eprintln!("[{}/{}] answered", p.done, p.total);
                }
            }
        })
        .map_err(|e| format!("cannot write {}: {e}", out.display()))?;
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    eprintln!(
        "hintlens judge: {} answered, {} failed, {} already answered",
        summary.answered,
        summary.failed.len(),
        summary.already
    );
    if !summary.failed.is_empty() {
        eprintln!("hintlens judge: run again to ask the failed calls once more");
        return Ok(ExitCode::from(1));
    }
    Ok(ExitCode::SUCCESS)
}

fn import(prompts: &Path, answers: &Path, out: &Path) -> Result<ExitCode, String> {
    let prompts: Vec<PromptRecord> = read_jsonl(prompts)?;
    let answers: Vec<Answer> = read_jsonl(answers)?;
    let (judged, summary) = hintlens_judge::import(&prompts, &answers);
    write_jsonl(out, &judged)?;
    eprintln!(
        "hintlens judge: {} answers read, {} unparsable, {} prompts unanswered{}",
        summary.judged,
        summary.unparsable,
        summary.unanswered,
        match summary.repeated {
            0 => String::new(),
            n => format!(", {n} ids answered more than once (the last answer taken)"),
        }
    );
    if !summary.unknown.is_empty() {
        eprintln!(
            "warning: {} answers have ids no prompt has (from another export?), e.g. {}",
            summary.unknown.len(),
            summary.unknown[0]
        );
    }
    Ok(ExitCode::SUCCESS)
}

fn report(judged: &Path, format: JudgeFormat, resamples: usize, seed: u64) -> Result<ExitCode, String> {
    let judged: Vec<Judged> = read_jsonl(judged)?;
    let bootstrap = Bootstrap { resamples, seed };
    let table = hintlens_judge::table8(&judged, bootstrap);
    match format {
        JudgeFormat::Markdown => print!("{}", table.markdown(bootstrap)),
        JudgeFormat::Json => println!("{}", serde_json::to_string_pretty(&table).map_err(|e| e.to_string())?),
        JudgeFormat::Svg => print!("{}", table.svg()),
    }
    Ok(ExitCode::SUCCESS)
}
