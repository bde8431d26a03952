//! A frontend's outline (`Frontend::outline_reusing`) is its index kept to the outline's lines
//! (`FileIndex::kept`): everything but uses and strings, and those on the lines it keeps: checked on every file of every scenario and
//! under seeded random line edits (which leave braces unbalanced and blocks torn), keeping no
//! line, a stretch of lines or a few lines apart, fresh and parsed from an earlier tree, in every
//! language that has one.

use crate::reuse::{mutate, scenario_sources};
use hintlens_syntax::reuse::{Earlier, text_edits};
use hintlens_syntax::{Frontend, Lines};

/// Checks `new`'s outline keeping `kept`, fresh and parsed from `old`'s tree, against `new`'s
/// index; the number of uses the outline spared.
fn check(frontend: &dyn Frontend, old: &str, new: &str, kept: &Lines, what: &str) -> Result<usize, String> {
    let index = frontend.extract(new.as_bytes());
    let (fresh, _) = frontend.outline_reusing(new.as_bytes(), None, kept);
    let (_, parse) = frontend.extract_reusing(old.as_bytes(), None);
    let earlier = parse.map(|parse| Earlier { parse, edits: text_edits(old.as_bytes(), new.as_bytes()) });
    let (reused, _) = frontend.outline_reusing(new.as_bytes(), earlier, kept);
    let lines: Vec<u32> = kept.iter().collect();
    for (outline, how) in [(&fresh, "fresh"), (&reused, "from the earlier tree")] {
        if *outline != index.kept(kept) {
            return Err(format!(
                "{what}: the outline ({how}) keeping lines {lines:?} differs from the index\n--- old\n{old}\n--- new\n{new}"
            ));
        }
    }
    Ok(index.uses.len() - fresh.uses.len())
}

/// The lines an outline of `text` keeps in a round: none, a stretch as a change adds, or a few
/// lines apart.
fn kept_lines(text: &str, round: usize, rng: &mut fastrand::Rng) -> Lines {
    let count = text.lines().count().max(1) as u32;
    match round % 3 {
        0 => Lines::none(),
        1 => {
            let first = rng.u32(0..count);
            Lines::new(first..(first + rng.u32(1..6)).min(count))
        }
        _ => Lines::new((0..rng.usize(1..4)).map(|_| rng.u32(0..count))),
    }
}

#[test]
fn an_outline_holds_every_definition_of_the_index() {
    let frontends = hintlens_batch::frontends();
    let mut rng = fastrand::Rng::with_seed(43);
    let (mut checked, mut spared, mut failures) = (0, 0, Vec::new());
    for (scenario, files) in scenario_sources() {
        for (path, new, old) in &files {
            let Some(frontend) = frontends.iter().find(|f| f.claims(path) && f.has_outline()) else { continue };
            let mut versions = vec![new.to_owned()];
            versions.extend((0..8).map(|_| mutate(new, &mut rng)));
            for (round, version) in versions.iter().enumerate() {
                let kept = kept_lines(version, round, &mut rng);
                match check(&**frontend, old, version, &kept, &format!("{scenario} {path} mutation {round}")) {
                    Ok(n) => spared += n,
                    Err(e) => failures.push(e),
                }
                checked += 1;
            }
        }
    }
    assert!(checked >= 300, "expected the C and C++ scenarios' files, checked {checked}");
    assert!(failures.is_empty(), "{} of {checked} failed:\n\n{}", failures.len(), failures.join("\n\n"));
    assert!(spared > 0, "no outline left out a use: the outlines read as much as the indexes");
}
