//! `hintlens`: which identifiers cross the code–test boundary of a coding task.

mod fetch;
mod judge;
mod pipeline;
mod report;
mod review;

use clap::{Parser, Subcommand, ValueEnum};
use hintlens_batch::{BatchOptions, IndexMode, ReferenceFrom, RepoContext, RepoLocator, TaskSpec, run_batch, run_task};
use hintlens_hints::{Compat, SelectOptions, Selection};
use hintlens_projection::Projection;
use hintlens_report::ReferenceField;
use hintlens_snapshot::Repository;
use report::ReportFormat;
use signal_hook::consts::{SIGINT, SIGTERM};
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

#[derive(Parser)]
#[command(
    name = "hintlens",
    // `hintlens 0.1.0 (1a2b3c4)`: the workspace's version and the commit built (build.rs).
    version = concat!(env!("CARGO_PKG_VERSION"), " (", env!("HINTLENS_GIT_COMMIT"), ")"),
    about = "Which identifiers cross the code–test boundary of a coding task, rendered as hints."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run every task of a benchmark dataset and write one JSON record per task.
    Batch {
        /// Task records: JSON lines, a JSON array, or Parquet (a file, a directory of shards such
        /// as Hugging Face's data/test-00000-of-00002.parquet, or a `*` pattern); SWE-bench,
        /// SWE-bench Pro, FEA-Bench, NoCode-bench and Multi-SWE-bench field names are all
        /// understood.
        dataset: PathBuf,
        #[command(flatten)]
        run: RunArgs,
        /// Selection policy (repeatable) [default: defuse].
        #[arg(long = "selection", value_name = "S")]
        selection: Vec<Selection>,
        /// Projection (repeatable) [default: declaration].
        #[arg(long = "projection", value_name = "P")]
        projection: Vec<Projection>,
        /// Write records here instead of standard output: JSON lines, or Parquet when the name
        /// ends in .parquet (written when the run completes; until then the records go to
        /// OUT.partial.jsonl).
        #[arg(long)]
        out: Option<PathBuf>,
        /// Continue an interrupted run: keep the complete records of --out, skip their tasks,
        /// drop a torn last line, and append the rest.
        #[arg(long, requires = "out")]
        resume: bool,
        /// Run one shard of the tasks: K/N (K from 0 to N-1; shards hold about equal work,
        /// estimated from the patches, and a repository larger than a share is split), or
        /// `auto` to read it from a Kubernetes Indexed Job
        /// (JOB_COMPLETION_INDEX, HINTLENS_SHARDS) or a Slurm array (SLURM_ARRAY_TASK_ID,
        /// SLURM_ARRAY_TASK_COUNT). `hintlens merge` joins the shards' outputs.
        #[arg(long, value_name = "K/N|auto")]
        shard: Option<String>,
    },
    /// Bring the repositories a dataset names into a --repos directory: each missing one is
    /// cloned as a blobless partial bare clone (DIR/owner__name.git; `batch` fetches the blobs a
    /// task reads from it), and the base and reference commits a repository lacks are fetched
    /// into it. A repository with every commit is not touched, so a second run changes nothing;
    /// the exit status is 1 when a repository could not be brought (each is named).
    Fetch {
        /// The dataset, as for `batch`.
        dataset: PathBuf,
        /// The directory of repositories, as `batch --repos` reads it.
        #[arg(long)]
        repos: PathBuf,
        /// Where to clone from, `{owner}` and `{name}` replaced by the dataset's `owner/name`
        /// (a mirror, `file:///srv/git/{owner}/{name}.git`, a `git://` daemon).
        #[arg(long, value_name = "TEMPLATE", default_value = hintlens_batch::DEFAULT_SOURCE)]
        from: String,
    },
    /// Write a dataset back, in its own format (JSON lines, JSON array or Parquet), with each
    /// task's hint added: every original field and the row order unchanged. Tasks without a
    /// hint keep their row as it was and are listed on standard error and in OUT.report.jsonl.
    Augment {
        /// The dataset, as for `batch`.
        dataset: PathBuf,
        #[command(flatten)]
        run: RunArgs,
        /// The selection policy of the hint.
        #[arg(long, value_name = "S", default_value = "defuse")]
        selection: Selection,
        /// The projection of the hint.
        #[arg(long, value_name = "P", default_value = "declaration")]
        projection: Projection,
        /// Put the hint in a new field of this name [default: hints].
        #[arg(long, value_name = "FIELD", conflicts_with = "append_to")]
        into: Option<String>,
        /// Append the hint to this text field instead (e.g. problem_statement), after a blank
        /// line and a one-line header in the style of NoCode-bench's.
        #[arg(long, value_name = "FIELD")]
        append_to: Option<String>,
        /// Take the hints from the records of an earlier `hintlens batch` (e.g. a sharded run's
        /// merged output) instead of computing them.
        #[arg(long, value_name = "RESULTS")]
        results: Option<PathBuf>,
        /// The augmented dataset: a file, or a directory for a dataset of several Parquet files.
        #[arg(long)]
        out: PathBuf,
        /// A review's decisions file (`hintlens review`): the identifiers dropped there leave
        /// the hints, which are rendered again without them.
        #[arg(long, value_name = "FILE")]
        decisions: Option<PathBuf>,
    },
    /// Join the outputs of a sharded `batch` run into one, in dataset order: for each task the
    /// last complete record is kept; tasks no output has are listed, and make the exit status 1.
    Merge {
        /// The shards' outputs (JSON lines or Parquet), in any order; a later one wins a tie.
        #[arg(required = true)]
        outputs: Vec<PathBuf>,
        /// The dataset the shards ran.
        #[arg(long)]
        dataset: PathBuf,
        /// The joined records: JSON lines, or Parquet when the name ends in .parquet.
        #[arg(long)]
        out: PathBuf,
    },
    /// Table 2 of the paper for a results file: per selection, tasks, non-empty tasks, total
    /// and mean identifiers; mean hint length per projection.
    Stats {
        results: PathBuf,
        #[arg(long, value_enum, default_value_t = ReportFormat::Markdown)]
        format: ReportFormat,
        /// A review's decisions file, whose progress is reported too [default:
        /// RESULTS.decisions.jsonl, when it exists].
        #[arg(long, value_name = "FILE")]
        decisions: Option<PathBuf>,
    },
    /// Which tasks a correct patch can still fail on a name, given what the agent is told: per
    /// task the DefUse names the tests need that no file of the base holds and no told field
    /// states, with where the tests use them; per repository and overall the tasks, the tasks
    /// with a hidden contract and the hidden names; per --hint the contracts it closes and
    /// leaves and the names it spoils. Prints nothing until every check passed.
    Audit {
        /// What `hintlens batch` wrote (JSON lines or Parquet).
        results: PathBuf,
        /// The dataset the batch ran: the told fields are read from its rows.
        #[arg(long)]
        dataset: PathBuf,
        /// A field the agent is told (repeatable) [default: problem_statement; for SWE-bench Pro's
        /// shape, rows with `requirements` or `interface`, those too].
        #[arg(long = "told", value_name = "FIELD")]
        told: Vec<String>,
        /// A hint to count (repeatable): a dataset field (a hinted dataset's hint text), or
        /// SELECTION+PROJECTION, hintlens' own hint rendered from each record (defuse+declaration).
        #[arg(long = "hint", value_name = "FIELD|SELECTION+PROJECTION")]
        hint: Vec<String>,
        #[arg(long, value_enum, default_value_t = ReportFormat::Markdown)]
        format: ReportFormat,
        /// Write the report here (through a temporary file renamed over it) instead of standard
        /// output.
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// Precision, recall and F1 of a selection against a released hint field, per task and
    /// overall, with the names each side lacks. Keys: FEA-Bench `new_components` and
    /// `definitions_brief` compare `file::Class.method`; SWE-bench Pro `interface` compares
    /// simple names; NoCode-bench `augmentations`/`augmentations_approx` compare `type:name`.
    Agree {
        results: PathBuf,
        #[arg(long, value_name = "S")]
        selection: Selection,
        /// The released field: new_components, definitions_brief, interface, augmentations,
        /// augmentations_approx.
        #[arg(long, visible_alias = "field", value_name = "FIELD")]
        reference: ReferenceField,
        /// The dataset to take the field from when the results do not carry it (joined on
        /// instance_id).
        #[arg(long)]
        dataset: Option<PathBuf>,
        #[arg(long, value_enum, default_value_t = ReportFormat::Markdown)]
        format: ReportFormat,
    },
    /// Compute the hints of one task: a base revision and either a reference revision or the
    /// code and test patches.
    Show {
        /// The repository (bare or not).
        #[arg(long)]
        repo: PathBuf,
        /// The base revision.
        #[arg(long)]
        base: String,
        /// The reference revision (instead of patches); test files are those the test patch
        /// touches, or by default paths such as tests/, test_*.py, *Test.java.
        #[arg(long, required_unless_present = "patch", conflicts_with = "patch")]
        reference: Option<String>,
        /// The code patch file.
        #[arg(long)]
        patch: Option<PathBuf>,
        /// The test patch file.
        #[arg(long)]
        test_patch: Option<PathBuf>,
        /// A file holding the task's problem statement.
        #[arg(long)]
        problem_statement: Option<PathBuf>,
        #[arg(long = "selection", value_name = "S")]
        selection: Vec<Selection>,
        #[arg(long = "projection", value_name = "P")]
        projection: Vec<Projection>,
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
    },
    /// Serve a page on 127.0.0.1 for reviewing a benchmark's hints: the task list, each task's
    /// hint with the evidence beside every identifier, and decisions (keep or drop per
    /// identifier, reviewed or flagged per task) written at once to an append-only file. The
    /// first line on standard output is `Serving on http://127.0.0.1:PORT/`.
    Review {
        /// What `hintlens batch` wrote (JSON lines or Parquet).
        results: PathBuf,
        /// The dataset the batch ran: problem statements, and the patches that build R.
        #[arg(long)]
        dataset: Option<PathBuf>,
        /// Directory holding the repositories, as for `batch`.
        #[arg(long)]
        repos: Option<PathBuf>,
        /// A repository's path, overriding --repos: OWNER/NAME=PATH (repeatable).
        #[arg(long = "repo", value_name = "OWNER/NAME=PATH", value_parser = parse_repo_override)]
        repo: Vec<(String, PathBuf)>,
        /// The port on 127.0.0.1 [default: 0, a free one].
        #[arg(long, default_value_t = 0)]
        port: u16,
        /// The decisions file, created if missing and read back on start [default:
        /// RESULTS.decisions.jsonl].
        #[arg(long, value_name = "FILE")]
        decisions: Option<PathBuf>,
        /// The judge's scores: what `hintlens judge import` wrote (repeatable).
        #[arg(long = "judged", value_name = "JUDGED")]
        judged: Vec<PathBuf>,
        /// A field the agent is told (repeatable), for each task's hidden contracts as `hintlens
        /// audit` finds them [default: the dataset shape's, as for audit].
        #[arg(long = "told", value_name = "FIELD", requires = "dataset")]
        told: Vec<String>,
    },
    /// The paper's leakage judge (§4.6, Appendix C): export the prompts, run them against an
    /// OpenAI-compatible endpoint, import the answers, report Table 8.
    Judge {
        #[command(subcommand)]
        command: judge::JudgeCommand,
    },
    /// Run the language server on standard input/output.
    Lsp {
        /// Accepted and ignored: stdio is the only transport, but generic clients pass it.
        #[arg(long)]
        stdio: bool,
    },
    /// The book's generated reference pages on standard output (hidden: for the docs tests).
    #[command(name = "__reference", hide = true)]
    Reference {
        #[arg(value_enum)]
        page: ReferencePage,
    },
}

#[derive(Clone, Copy, ValueEnum)]
enum ReferencePage {
    /// docs/src/reference/cli.md: every command and option, from these definitions.
    Cli,
    /// docs/src/reference/record.schema.json: the result record's JSON Schema.
    RecordSchema,
}

/// How tasks are run: shared by `batch` and `augment`.
#[derive(clap::Args)]
struct RunArgs {
    /// Directory holding the repositories as owner__name, owner/name or name (bare or not).
    #[arg(long)]
    repos: Option<PathBuf>,
    /// A repository's path, overriding --repos: OWNER/NAME=PATH (repeatable).
    #[arg(long = "repo", value_name = "OWNER/NAME=PATH", value_parser = parse_repo_override)]
    repo: Vec<(String, PathBuf)>,
    /// Worker threads [default: all cores].
    #[arg(long)]
    jobs: Option<usize>,
    /// Where the reference snapshot comes from: the patches applied to the base, the
    /// record's reference commit (`solution_commit`/`head_commit`), or the commit only when
    /// the patches do not apply. A record with no code patch (SWE-bench Pro's official
    /// records) always reads its reference commit.
    #[arg(long = "reference", value_enum, default_value_t = ReferenceArg::Patches)]
    reference: ReferenceArg,
    /// Which files of each snapshot are read: what the answers need (`demand`), or every
    /// source file, parsed up front (`full`: the same records, slower; for checking).
    #[arg(long, value_enum, default_value_t = IndexArg::Demand)]
    index: IndexArg,
    /// Reproduce a benchmark's released hints exactly: `fea` (FEA-Bench's quirks in the
    /// `fea` selection).
    #[arg(long, value_name = "BENCHMARK")]
    compat: Option<Compat>,
    /// A TOML configuration file naming a description provider (a command or an
    /// OpenAI-compatible endpoint) for declaration-doc, pro and pro-interface.
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
    /// A dataset field the agent is told (repeatable): `necessity` is 0 for a name one of them
    /// states, as `hintlens audit` decides it; records then name them (`told`) [default:
    /// problem_statement].
    #[arg(long = "told", value_name = "FIELD")]
    told: Vec<String>,
}

impl RunArgs {
    /// The batch options these arguments give, or a usage error.
    fn options(
        self,
        dataset: PathBuf,
        selections: Vec<Selection>,
        projections: Vec<Projection>,
    ) -> Result<BatchOptions, String> {
        let provider = self.config.as_deref().map(load_provider).transpose()?.flatten();
        let mut locator = RepoLocator::new(self.repos);
        for (name, path) in self.repo {
            locator.add_override(&name, path);
        }
        Ok(BatchOptions {
            dataset,
            locator,
            selections: or_default(selections, Selection::DefUse),
            projections: or_default(projections, Projection::Declaration),
            jobs: self.jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())).max(1),
            reference_from: self.reference.into(),
            index: self.index.into(),
            select: SelectOptions { compat: self.compat },
            provider,
            skip: Default::default(),
            stop: None,
            shard: None,
            told: self.told,
        })
    }
}

#[derive(Clone, Copy, ValueEnum)]
enum ReferenceArg {
    Patches,
    Commit,
    Auto,
}

impl From<ReferenceArg> for ReferenceFrom {
    fn from(r: ReferenceArg) -> ReferenceFrom {
        match r {
            ReferenceArg::Patches => ReferenceFrom::Patches,
            ReferenceArg::Commit => ReferenceFrom::Commit,
            ReferenceArg::Auto => ReferenceFrom::Auto,
        }
    }
}

#[derive(Clone, Copy, ValueEnum)]
enum IndexArg {
    Demand,
    Full,
}

impl From<IndexArg> for IndexMode {
    fn from(i: IndexArg) -> IndexMode {
        match i {
            IndexArg::Demand => IndexMode::Demand,
            IndexArg::Full => IndexMode::Full,
        }
    }
}

#[derive(Clone, Copy, ValueEnum)]
enum Format {
    Text,
    Json,
}

/// The process's peak resident memory in bytes, where the system says (Linux: `VmHWM`).
fn peak_memory() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find_map(|l| l.strip_prefix("VmHWM:"))?;
    let kb: u64 = line.trim().strip_suffix("kB")?.trim().parse().ok()?;
    Some(kb * 1024)
}

fn parse_repo_override(s: &str) -> Result<(String, PathBuf), String> {
    let (repo, path) = s.split_once('=').ok_or_else(|| format!("expected OWNER/NAME=PATH, got `{s}`"))?;
    if !repo.contains('/') || path.is_empty() {
        return Err(format!("expected OWNER/NAME=PATH, got `{s}`"));
    }
    Ok((repo.to_owned(), PathBuf::from(path)))
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Batch { dataset, run, selection, projection, out, resume, shard } => {
            let shard = match shard.as_deref().map(pipeline::parse_shard).transpose() {
                Ok(shard) => shard,
                Err(e) => {
                    eprintln!("error: --shard: {e}");
                    return ExitCode::from(2);
                }
            };
            match run.options(dataset, selection, projection) {
                Ok(options) => batch(BatchOptions { shard, ..options }, out, resume),
                Err(e) => {
                    eprintln!("error: {e}");
                    ExitCode::from(2)
                }
            }
        }
        Command::Augment { dataset, run, selection, projection, into, append_to, results, out, decisions } => {
            let target = match append_to {
                Some(field) => hintlens_batch::Target::AppendTo(field),
                None => hintlens_batch::Target::Field(into.unwrap_or_else(|| "hints".into())),
            };
            match run.options(dataset, vec![selection], vec![projection]) {
                Ok(options) => pipeline::augment(options, target, results, decisions, out),
                Err(e) => {
                    eprintln!("error: {e}");
                    ExitCode::from(2)
                }
            }
        }
        Command::Merge { outputs, dataset, out } => pipeline::merge(&outputs, &dataset, &out),
        Command::Fetch { dataset, repos, from } => fetch::run(&dataset, repos, from),
        Command::Stats { results, format, decisions } => report::run_stats(&results, format, decisions.as_deref()),
        Command::Audit { results, dataset, told, hint, format, out } => report::run_audit(
            &results,
            &dataset,
            hintlens_report::AuditOptions { told, hints: hint },
            format,
            out.as_deref(),
        ),
        Command::Agree { results, selection, reference, dataset, format } => {
            report::run_agree(&results, selection.as_str(), reference, dataset.as_deref(), format)
        }
        Command::Show {
            repo,
            base,
            reference,
            patch,
            test_patch,
            problem_statement,
            selection,
            projection,
            format,
        } => show(ShowArgs {
            repo,
            base,
            reference,
            patch,
            test_patch,
            problem_statement,
            selections: or_default(selection, Selection::DefUse),
            projections: or_default(projection, Projection::Declaration),
            format,
        }),
        Command::Review { results, dataset, repos, repo, port, decisions, judged, told } => {
            let mut locator = RepoLocator::new(repos);
            for (name, path) in repo {
                locator.add_override(&name, path);
            }
            review::run(review::ReviewArgs { results, dataset, locator, port, decisions, judged, told })
        }
        Command::Judge { command } => judge::run(command),
        Command::Reference { page } => {
            match page {
                ReferencePage::Cli => print!("{}", cli_reference()),
                ReferencePage::RecordSchema => {
                    let schema = serde_json::to_string_pretty(&hintlens_batch::record_schema()).expect("plain data");
                    println!("{schema}");
                }
            }
            ExitCode::SUCCESS
        }
        Command::Lsp { stdio: _ } => match hintlens_lsp::run_stdio() {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("error: {e}");
                ExitCode::from(1)
            }
        },
    }
}

/// The command-line reference of the book: every command, argument and option, from the clap
/// definitions above (hidden commands left out).
fn cli_reference() -> String {
    let options = clap_markdown::MarkdownOptions::new()
        .title("Command line".to_owned())
        .show_footer(false)
        .show_table_of_contents(true);
    let markdown = clap_markdown::help_markdown_custom::<Cli>(&options);
    format!(
        "<!-- Generated from hintlens' clap definitions by `hintlens __reference cli`: do not edit. \
         UPDATE_DOCS=1 cargo test -p hintlens-tests --test e2e docs rewrites it. -->\n\n{markdown}"
    )
}

/// The description provider a configuration file names, if any.
fn load_provider(
    path: &std::path::Path,
) -> Result<Option<std::sync::Arc<dyn hintlens_projection::DescriptionProvider>>, String> {
    let config = hintlens_describe::load_config(path)?;
    config.provider.as_ref().map(hintlens_describe::provider).transpose()
}

fn or_default<T: PartialEq>(mut v: Vec<T>, default: T) -> Vec<T> {
    if v.is_empty() {
        v.push(default);
    }
    let mut unique = Vec::with_capacity(v.len());
    for x in v {
        if !unique.contains(&x) {
            unique.push(x);
        }
    }
    unique
}

fn batch(mut options: BatchOptions, out: Option<PathBuf>, resume: bool) -> ExitCode {
    // A Parquet file cannot be appended to record by record: the records go to a JSON-lines file
    // beside it (resumable as any --out), turned into the Parquet file when the run completes.
    let records_path = out.as_deref().map(pipeline::records_path);
    if let (Some(out), true) = (&out, resume)
        && let Err(e) = pipeline::prepare_resume(out)
    {
        eprintln!("error: cannot resume {}: {e}", out.display());
        return ExitCode::from(2);
    }
    let mut writer: Box<dyn Write> = match (&records_path, resume) {
        (Some(path), true) => match hintlens_batch::resume_results(path) {
            Ok(resumed) => {
                eprintln!(
                    "hintlens: resuming {}: {} records kept{}",
                    path.display(),
                    resumed.done.len(),
                    match resumed.dropped {
                        0 => String::new(),
                        n => format!(", {n} incomplete or repeated lines dropped"),
                    }
                );
                options.skip = resumed.done;
                Box::new(resumed.file)
            }
            Err(e) => {
                eprintln!("error: cannot resume {}: {e}", path.display());
                return ExitCode::from(2);
            }
        },
        (Some(path), false) => match std::fs::File::create(path) {
            Ok(f) => Box::new(f),
            Err(e) => {
                eprintln!("error: cannot create {}: {e}", path.display());
                return ExitCode::from(2);
            }
        },
        (None, _) => Box::new(std::io::stdout().lock()),
    };
    let (result, signal) = execute(&mut options, None, &mut writer);
    drop(writer);
    match result {
        Ok(summary) => {
            print_summary(&summary, options.shard);
            if summary.interrupted {
                let left = summary.total - summary.resumed - summary.done;
                let again = if out.is_some() { "; run again with --resume to finish" } else { "" };
                eprintln!("hintlens: interrupted, {left} tasks not run{again}");
                return ExitCode::from(128 + signal as u8);
            }
            if let Some(out) = &out
                && let Err(e) = pipeline::finish_records(out)
            {
                eprintln!("error: {e}");
                return ExitCode::from(2);
            }
            if summary.failed > 0 { ExitCode::from(1) } else { ExitCode::SUCCESS }
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}

/// Runs a batch (of `records` when given, else of the options' dataset) with a progress bar on
/// a terminal and plain lines otherwise. SIGINT/SIGTERM stop it taking tasks: the running ones
/// finish and are written; a second signal ends the process at once. Returns the signal that
/// stopped it, 0 if none.
fn execute(
    options: &mut BatchOptions,
    records: Option<Vec<Result<hintlens_batch::TaskRecord, hintlens_batch::RecordError>>>,
    writer: &mut dyn Write,
) -> (Result<hintlens_batch::BatchSummary, hintlens_batch::BatchError>, usize) {
    let stop = Arc::new(AtomicUsize::new(0));
    let armed = Arc::new(AtomicBool::new(false));
    for signal in [SIGINT, SIGTERM] {
        let registered = signal_hook::flag::register_conditional_shutdown(signal, 128 + signal, armed.clone())
            .and_then(|_| signal_hook::flag::register_usize(signal, stop.clone(), signal as usize))
            .and_then(|_| signal_hook::flag::register(signal, armed.clone()));
        if let Err(e) = registered {
            eprintln!(
                "warning: cannot handle signal {signal}: {e}; an interrupted run leaves its records whole, but no summary"
            );
        }
    }
    options.stop = Some(stop.clone());
    let options = &*options;
    let bar = std::io::stderr().is_terminal().then(|| {
        let bar = indicatif::ProgressBar::new(0);
        bar.set_style(
            indicatif::ProgressStyle::with_template(
                "{spinner} [{elapsed_precise}] {bar:30} {pos}/{len} tasks · {msg} · {per_sec}",
            )
            .expect("the template is valid"),
        );
        bar
    });
    let mut on_progress = |p: hintlens_batch::Progress<'_>| match &bar {
        Some(bar) => {
            bar.set_length(p.total as u64);
            bar.set_position(p.done as u64);
            bar.set_message(format!("{} unsupported · {} failed", p.unsupported_so_far, p.failed));
            if let Some(e) = p.error {
                bar.println(format!("{}: {e}", p.instance_id));
            }
        }
        None => match (p.error, p.unsupported) {
            (Some(e), true) => eprintln!("[{}/{}] {} unsupported: {e}", p.done, p.total, p.instance_id),
            (Some(e), false) => eprintln!("[{}/{}] {} error: {e}", p.done, p.total, p.instance_id),
            (None, _) => eprintln!("[{}/{}] {} ok", p.done, p.total, p.instance_id),
        },
    };
    let result = match records {
        Some(records) => hintlens_batch::run_records(options, records, writer, &mut on_progress),
        None => run_batch(options, writer, &mut on_progress),
    };
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    (result, stop.load(Ordering::SeqCst))
}

fn print_summary(summary: &hintlens_batch::BatchSummary, shard: Option<hintlens_batch::Shard>) {
    let rate = summary.done as f64 / summary.elapsed.as_secs_f64().max(1e-9);
    let resumed = match summary.resumed {
        0 => String::new(),
        n => format!(", {n} already done"),
    };
    let shard = shard.map(|s| format!("shard {s}: ")).unwrap_or_default();
    let peak = peak_memory().map(|bytes| format!(", peak memory {} MB", bytes / 1_000_000)).unwrap_or_default();
    eprintln!(
        "hintlens: {shard}{} tasks, {} ok, {} unsupported, {} failed{resumed} in {:.1}s ({rate:.1} tasks/s{peak})",
        summary.total,
        summary.done - summary.failed - summary.unsupported,
        summary.unsupported,
        summary.failed,
        summary.elapsed.as_secs_f64()
    );
    let fetched = summary.fetched;
    if fetched.fetches > 0 {
        let single = match fetched.single {
            0 => String::new(),
            n => format!(", {n} of them for one object a read met"),
        };
        let absent = match fetched.absent {
            0 => String::new(),
            n => format!("; {n} the remotes lack too (the records name the files)"),
        };
        eprintln!(
            "hintlens: fetched {} missing objects of partial clones from their promisor remotes in {} fetches{single}{absent}",
            fetched.objects, fetched.fetches
        );
    }
}

struct ShowArgs {
    repo: PathBuf,
    base: String,
    reference: Option<String>,
    patch: Option<PathBuf>,
    test_patch: Option<PathBuf>,
    problem_statement: Option<PathBuf>,
    selections: Vec<Selection>,
    projections: Vec<Projection>,
    format: Format,
}

fn show(args: ShowArgs) -> ExitCode {
    let read =
        |path: &PathBuf| std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()));
    let inputs = (|| -> Result<(String, String, String), String> {
        Ok((
            args.patch.as_ref().map(read).transpose()?.unwrap_or_default(),
            args.test_patch.as_ref().map(read).transpose()?.unwrap_or_default(),
            args.problem_statement.as_ref().map(read).transpose()?.unwrap_or_default(),
        ))
    })();
    let (patch, test_patch, problem) = match inputs {
        Ok(v) => v,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let repository = match Repository::open(&args.repo) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let ctx = RepoContext { repository, db: hintlens_batch::new_database() };
    let spec = TaskSpec {
        base_commit: &args.base,
        patch: Some(&patch),
        test_patch: &test_patch,
        problem_statement: &problem,
        told: &problem,
        selections: &args.selections,
        projections: &args.projections,
        reference_commit: args.reference.as_deref(),
        reference_from: if args.reference.is_some() { ReferenceFrom::Commit } else { ReferenceFrom::Patches },
        index: IndexMode::Demand,
    };
    match run_task(&ctx, &spec) {
        Ok(output) => {
            match args.format {
                Format::Json => {
                    let selections: serde_json::Map<String, serde_json::Value> = output
                        .selections
                        .iter()
                        .map(|(p, ids)| (p.to_string(), serde_json::to_value(ids).unwrap_or_default()))
                        .collect();
                    let hints: serde_json::Map<String, serde_json::Value> =
                        output.hints.iter().map(|(k, v)| (k.clone(), v.clone().into())).collect();
                    let value = serde_json::json!({"status": "ok", "selections": selections, "hints": hints, "notes": output.notes});
                    println!("{}", serde_json::to_string_pretty(&value).unwrap_or_default());
                }
                Format::Text => {
                    for (policy, ids) in &output.selections {
                        println!("{policy}: {} identifier(s)", ids.len());
                        for id in ids {
                            let evidence: Vec<String> =
                                id.evidence.iter().map(|e| format!("{}:{}", e.path, e.line)).collect();
                            println!(
                                "  {} {} {} ({}, {}) used at {}",
                                id.direction.as_str(),
                                id.kind,
                                id.qualified_name,
                                id.path,
                                id.resolution.as_str(),
                                evidence.join(", ")
                            );
                        }
                    }
                    for (key, hint) in &output.hints {
                        println!("\n{key}:");
                        if hint.is_empty() {
                            println!("  (no identifiers: no hint)");
                        } else {
                            print!("{hint}");
                        }
                    }
                    for note in &output.notes {
                        println!("note: {note}");
                    }
                }
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(1)
        }
    }
}
