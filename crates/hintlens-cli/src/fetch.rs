//! `hintlens fetch`: the repositories of a dataset, brought into a `--repos` directory.

use hintlens_batch::{FetchEvent, FetchOptions, Outcome};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

pub(crate) fn run(dataset: &Path, dir: PathBuf, source: String) -> ExitCode {
    if !source.contains("{name}") {
        eprintln!("error: --from {source:?} names no repository: put {{owner}} and {{name}} where they go");
        return ExitCode::from(2);
    }
    let records = match hintlens_batch::read_dataset(dataset) {
        Ok(records) => records,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let wanted = hintlens_batch::wanted(&records);
    // On a terminal git shows its own progress under each repository's line.
    let options = FetchOptions { dir: dir.clone(), source, progress: std::io::stderr().is_terminal() };
    let mut on_event = |event: FetchEvent<'_>| match event {
        FetchEvent::Started { index, total, repo, action } => eprintln!("[{}/{total}] {repo}: {action}", index + 1),
        FetchEvent::Finished { index, total, brought } => {
            let said = match &brought.outcome {
                Outcome::Complete => "already has every commit".to_owned(),
                Outcome::Cloned { commits: 0 } => "cloned".to_owned(),
                Outcome::Cloned { commits } => format!("cloned, and {commits} commits on no branch fetched"),
                Outcome::Updated { commits } => format!("{commits} missing commits fetched"),
                Outcome::Failed(why) => format!("FAILED: {why}"),
            };
            eprintln!("[{}/{total}] {}: {said}", index + 1, brought.repo);
        }
    };
    let brought = hintlens_batch::fetch(&wanted, &options, &mut on_event);
    let count = |f: fn(&Outcome) -> bool| brought.iter().filter(|b| f(&b.outcome)).count();
    let failed: Vec<String> = brought
        .iter()
        .filter_map(|b| match &b.outcome {
            Outcome::Failed(why) => Some(format!("{} ({why})", b.repo)),
            _ => None,
        })
        .collect();
    eprintln!(
        "hintlens: {} repositories in {}: {} cloned, {} updated, {} already complete, {} failed",
        brought.len(),
        dir.display(),
        count(|o| matches!(o, Outcome::Cloned { .. })),
        count(|o| matches!(o, Outcome::Updated { .. })),
        count(|o| matches!(o, Outcome::Complete)),
        failed.len()
    );
    if failed.is_empty() {
        return ExitCode::SUCCESS;
    }
    eprintln!("error: could not bring {} repositories: {}", failed.len(), failed.join("; "));
    ExitCode::from(1)
}
