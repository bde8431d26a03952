//! `hintlens-bench reuse`: the promise every frontend makes ([`Frontend::extract_reusing`] and
//! [`Frontend::outline_reusing`] give the index a parse from nothing gives, whatever earlier
//! parse they are handed) checked on a benchmark's real files, where `tests/reuse.rs` checks
//! the scenario files: each changed file of each task parsed from its other version's tree
//! (B from R, as the batch reads them, and R from B), and, with `--edits N`, from its own tree
//! under N seeded line edits (a line dropped, doubled, or one of a few lines that open or close
//! blocks put before it). The outline keeps the lines the change adds (R's) or the edited ones,
//! and must hold the index's uses there. Prints each file whose index differs, with a few of the lines that
//! differ, and ends with the counts; exits 1 when any differs.

use hintlens_syntax::reuse::{Earlier, text_edits};
use hintlens_syntax::{FileIndex, Frontend, Lines};
use std::collections::HashSet;
use std::path::Path;
use std::sync::Arc;

use crate::frontends;

/// A version to check: what it is, the text whose tree it is parsed from, its text, and the
/// lines its outline keeps.
type Version = (String, Arc<[u8]>, Arc<[u8]>, Lines);

/// Lines an edit may put in: what opens or closes a block, a directive, a blank.
const INSERTED: &[&[u8]] =
    &[b"}\n", b"{\n", b"TEST_CASE(\"new\", \"[x]\") {\n", b"    SECTION(\"s\") {\n", b"#define X 1\n", b"\n", b"end\n"];

pub(crate) fn reuse(dataset: &Path, repo_path: &Path, edits: usize) -> Result<bool, String> {
    let (repo, records) = crate::open_dataset(dataset, repo_path)?;
    let fronts = frontends();
    let all = hintlens_db::Database::new(frontends());
    let reader = repo.reader();
    let mut seen: HashSet<(hintlens_snapshot::ObjectId, hintlens_snapshot::ObjectId)> = HashSet::new();
    let (mut checked, mut differ) = (0usize, 0usize);
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut random = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed as usize
    };
    for r in &records {
        let Some((base, reference)) = crate::patched(&repo, &reader, r)? else { continue };
        let holdings = all.holdings(&reference.snapshot);
        for (path, change) in reference.code.files.iter().chain(&reference.test.files) {
            let Some(language) = crate::reader_of(&all, &holdings, &fronts, path) else { continue };
            let frontend = fronts[language].as_ref();
            let before = change.old_path.as_deref().unwrap_or(path);
            let (Some(b), Some(after)) = (base.get(before), reference.snapshot.get(path)) else { continue };
            if !seen.insert((b.id, after.id)) {
                continue;
            }
            let (Ok(b), Ok(after)) = (b.read(&reader), after.read(&reader)) else { continue };
            // R keeps the lines its change adds, as the batch reads it; B keeps none.
            let added = Lines::new(change.added_lines.iter().copied());
            let mut versions: Vec<Version> = vec![
                (format!("{path} at B from R"), after.clone(), b.clone(), Lines::none()),
                (format!("{path} at R from B"), b, after.clone(), added),
            ];
            let lines: Vec<&[u8]> = after.split_inclusive(|&c| c == b'\n').collect();
            for _ in 0..edits {
                let (at, how) = (random() % lines.len().max(1), random() % 3);
                let mut edited = Vec::with_capacity(after.len() + 32);
                for (i, line) in lines.iter().enumerate() {
                    if i == at {
                        match how {
                            0 => continue,
                            1 => edited.extend_from_slice(INSERTED[random() % INSERTED.len()]),
                            _ => edited.extend_from_slice(line),
                        }
                    }
                    edited.extend_from_slice(line);
                }
                let what = ["dropped", "after an inserted line", "doubled"][how];
                let around = Lines::new(at.saturating_sub(1) as u32..at as u32 + 2);
                versions.push((format!("{path} at R, line {} {what}", at + 1), after.clone(), edited.into(), around));
            }
            for (what, from, text, kept) in versions {
                checked += 1;
                if let Some(lines) = differs(frontend, &from, &text, &kept) {
                    differ += 1;
                    println!("differs: {what} ({}, task {})", frontend.language(), r.instance_id);
                    for line in lines {
                        println!("    {line}");
                    }
                }
            }
        }
    }
    println!("{}: {checked} parses from another version's tree, {differ} indexes differ", dataset.display());
    Ok(differ == 0)
}

/// The lines of the dumps that differ (up to 3 each way, `-` the fresh index's, `+` the other
/// one's) where the index or the outline keeping `kept` of `text`, parsed from `from`'s tree,
/// is not the one from nothing, or where that outline's uses on `kept` are not the index's
/// ([`FileIndex::kept`]).
fn differs(frontend: &dyn Frontend, from: &[u8], text: &[u8], kept: &Lines) -> Option<Vec<String>> {
    let index = |text: &[u8], earlier| frontend.extract_reusing(text, earlier);
    let outline = |text: &[u8], earlier| frontend.outline_reusing(text, earlier, kept);
    let reads: [(&str, &Read<'_>); 2] = [("index", &index), ("outline", &outline)];
    for (name, read) in reads {
        let fresh = read(text, None).0.dump();
        let Some(parse) = read(from, None).1 else { continue };
        let reused = read(text, Some(Earlier { parse, edits: text_edits(from, text) })).0.dump();
        if fresh != reused {
            return Some(lines_apart(name, &fresh, &reused));
        }
    }
    let (whole, outlined) = (index(text, None).0.kept(kept).dump(), outline(text, None).0.kept(kept).dump());
    (whole != outlined).then(|| lines_apart("outline on its kept lines", &whole, &outlined))
}

/// A read of a text, from nothing or from an earlier tree.
type Read<'a> = dyn Fn(&[u8], Option<Earlier>) -> (FileIndex, Option<hintlens_syntax::reuse::Parse>) + 'a;

fn lines_apart(name: &str, fresh: &str, other: &str) -> Vec<String> {
    let (fresh, other): (Vec<&str>, Vec<&str>) = (fresh.lines().collect(), other.lines().collect());
    let mut out = vec![format!("{name}:")];
    out.extend(fresh.iter().filter(|l| !other.contains(l)).take(3).map(|l| format!("- {}", cut(l))));
    out.extend(other.iter().filter(|l| !fresh.contains(l)).take(3).map(|l| format!("+ {}", cut(l))));
    out
}

fn cut(line: &str) -> &str {
    match line.char_indices().nth(160) {
        Some((at, _)) => &line[..at],
        None => line,
    }
}
