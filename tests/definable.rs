//! `Frontend::may_define` says `false` only where no index of the text holds the definition:
//! checked for every definition of every file of every scenario, fresh and under seeded random
//! line edits (which leave braces unbalanced and trees in error), in every language. And it
//! decides something: C++ tells some definitions of a scenario's other files apart.

use crate::reuse::{mutate, scenario_sources};
use hintlens_syntax::Frontend;

#[test]
fn a_text_may_define_every_definition_its_index_holds() {
    let frontends = hintlens_batch::frontends();
    let mut rng = fastrand::Rng::with_seed(44);
    let (mut checked, mut told_apart, mut failures) = (0, 0, Vec::new());
    for (scenario, files) in scenario_sources() {
        // The definitions of the scenario's files, each as its frontend qualifies it.
        let mut all: Vec<(&dyn Frontend, String, hintlens_syntax::DefKind)> = Vec::new();
        for (path, new, _) in &files {
            let Some(frontend) = frontends.iter().find(|f| f.claims(path)) else { continue };
            let mut versions = vec![new.to_owned()];
            versions.extend((0..8).map(|_| mutate(new, &mut rng)));
            for (round, version) in versions.iter().enumerate() {
                let index = frontend.extract(version.as_bytes());
                for d in &index.definitions {
                    let qualified = frontend.qualified_name(path, &index, &d.local_name);
                    checked += 1;
                    if !frontend.may_define(version.as_bytes(), &[(&qualified, d.kind)], &mut |_| false) {
                        failures.push(format!(
                            "{scenario} {path} mutation {round}: {qualified} ({:?}) defined, not definable\n{version}",
                            d.kind
                        ));
                    }
                    if round == 0 {
                        all.push((&**frontend, qualified, d.kind));
                    }
                }
            }
        }
        // Another file's definition, where it is not this file's too.
        for (path, new, _) in &files {
            let Some(frontend) = frontends.iter().find(|f| f.claims(path)) else { continue };
            let index = frontend.extract(new.as_bytes());
            let own: std::collections::HashSet<(String, hintlens_syntax::DefKind)> = index
                .definitions
                .iter()
                .map(|d| (frontend.qualified_name(path, &index, &d.local_name), d.kind))
                .collect();
            let same_language = all.iter().filter(|(f, _, _)| f.spec().name == frontend.spec().name);
            for (_, qualified, kind) in same_language.filter(|(_, q, k)| !own.contains(&(q.clone(), *k))) {
                told_apart += usize::from(!frontend.may_define(new.as_bytes(), &[(qualified, *kind)], &mut |_| false));
            }
        }
    }
    assert!(checked >= 2000, "expected every scenario's definitions, checked {checked}");
    assert!(failures.is_empty(), "{} of {checked} failed:\n\n{}", failures.len(), failures.join("\n\n"));
    assert!(told_apart > 0, "no definition of another file was told apart: may_define decides nothing");
}
