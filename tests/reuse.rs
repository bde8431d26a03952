//! Parsing a file from another version's tree gives the index a fresh parse gives
//! (`Frontend::extract_reusing`): checked on every changed file of every scenario, in both
//! directions, and on every scenario's base files unchanged and under seeded random line edits,
//! in every language.

use hintlens_syntax::Frontend;
use hintlens_syntax::reuse::{Earlier, text_edits};

/// Extracts `new` from `old`'s parse and checks it against a fresh extraction.
fn check(frontend: &dyn Frontend, old: &str, new: &str, what: &str) -> Result<(), String> {
    let (_, parse) = frontend.extract_reusing(old.as_bytes(), None);
    // A file the frontend reads without parsing (a manifest) has nothing to reuse.
    let Some(parse) = parse else { return Ok(()) };
    let earlier = Earlier { parse, edits: text_edits(old.as_bytes(), new.as_bytes()) };
    let (reused, _) = frontend.extract_reusing(new.as_bytes(), Some(earlier));
    let fresh = frontend.extract(new.as_bytes());
    if reused == fresh {
        Ok(())
    } else {
        Err(format!("{what}: the index parsed from the earlier tree differs\n--- old\n{old}\n--- new\n{new}"))
    }
}

/// A scenario's source file: its path, its text and its text at B (empty for a file the change
/// adds).
pub(crate) type Source = (String, String, String);

/// Every scenario's source files, scenario by scenario: its path (for messages), and each file
/// (the changed files' new text, then the base files).
pub(crate) fn scenario_sources() -> Vec<(String, Vec<Source>)> {
    let mut out = Vec::new();
    for file in hintlens_tests::scenario_files() {
        let text = std::fs::read_to_string(&file).unwrap();
        let scenario = hintlens_tests::parse_scenario(&text).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let changed = scenario.code.iter().chain(&scenario.test).filter_map(|(p, c)| Some((p, c.clone()?)));
        let base = scenario.base.iter().map(|(p, t)| (p, t.clone()));
        let files = changed.chain(base).map(|(path, new)| {
            let old = scenario.base.get(path).cloned().unwrap_or_default();
            (path.clone(), new, old)
        });
        out.push((file.display().to_string(), files.collect()));
    }
    out
}

/// A seeded random mix of line edits: deleting, duplicating and moving lines, breaking a line
/// and opening a block (`tests/outline.rs` too: a block an edit tears must still be read).
pub(crate) fn mutate(text: &str, rng: &mut fastrand::Rng) -> String {
    let mut lines: Vec<String> = text.split_inclusive('\n').map(str::to_owned).collect();
    for _ in 0..rng.usize(1..6) {
        if lines.is_empty() {
            lines.push("x = (\n".to_owned());
            continue;
        }
        let at = rng.usize(..lines.len());
        match rng.u8(..5) {
            0 => {
                lines.remove(at);
            }
            1 => lines.insert(at, lines[at].clone()),
            2 => {
                let line = lines.remove(at);
                let to = rng.usize(..=lines.len());
                lines.insert(to, line);
            }
            3 => lines.insert(at, "void opened() {\n".to_owned()),
            _ => lines[at] = format!("{} ) {{ (\n", lines[at].trim_end()),
        }
    }
    lines.concat()
}

#[test]
fn a_parse_from_an_earlier_tree_indexes_as_a_fresh_one() {
    let frontends = hintlens_batch::frontends();
    let files = hintlens_tests::scenario_files();
    let mut rng = fastrand::Rng::with_seed(14);
    let (mut checked, mut failures) = (0, Vec::new());
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        let scenario = hintlens_tests::parse_scenario(&text).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let changed = scenario.code.iter().chain(&scenario.test).filter_map(|(p, c)| Some((p, c.as_deref()?)));
        for (path, new) in changed {
            let Some(frontend) = frontends.iter().find(|f| f.claims(path)) else { continue };
            let old = scenario.base.get(path).map_or("", String::as_str);
            let what = format!("{} {path}", file.display());
            failures.extend(check(&**frontend, old, new, &what).err());
            failures.extend(check(&**frontend, new, old, &format!("{what} (back)")).err());
            checked += 2;
        }
        for (path, old) in &scenario.base {
            let Some(frontend) = frontends.iter().find(|f| f.claims(path)) else { continue };
            // The same text again (a blob a later task reads): its tree is taken as it is.
            failures.extend(check(&**frontend, old, old, &format!("{} {path} unchanged", file.display())).err());
            for round in 0..8 {
                let new = mutate(old, &mut rng);
                failures.extend(
                    check(&**frontend, old, &new, &format!("{} {path} mutation {round}", file.display())).err(),
                );
                checked += 1;
            }
        }
    }
    assert!(checked >= 1000, "expected the scenarios' files, checked {checked}");
    assert!(failures.is_empty(), "{} of {checked} failed:\n\n{}", failures.len(), failures.join("\n\n"));
}

/// C's and C++'s grammars read a macro alone on its line as blank when the line before it does
/// not go on in it and the line after it starts a declaration (`hintlens_tree::Reading`): an
/// edit of either neighbour alone changes how the macro line is read, and the parse from the
/// earlier tree re-reads it too.
#[test]
fn an_edit_beside_a_macro_line_rereads_the_macro_line() {
    let frontends = hintlens_batch::frontends();
    let cpp = frontends.iter().find(|f| f.claims("src/format.cc")).expect("a C++ frontend");
    let pairs = [
        ("FMT_EXPORT\ntemplate <typename T> struct is_adaptor {};\n", "FMT_EXPORT\n};\n"),
        (
            "enum class color {\n  RED,\n  GREEN\n};\nint x;\n",
            "enum class color {\n  RED,\n  GREEN\nstatic int y;\n};\nint x;\n",
        ),
        ("class W {\n  DEFINE_TYPE(W, a)\n  int a;\n};\n", "class W {\n  DEFINE_TYPE(W, a)\n  + a;\n};\n"),
        ("namespace a {\nBEGIN_EXPORT\n\nstruct s {};\n}\n", "namespace a {\nBEGIN_EXPORT\n  , b\nstruct s {};\n}\n"),
        ("#define X(a) \\\n  EXPAND(a)\nint y;\n", "#define X(a) 1\n  EXPAND(a)\nint y;\n"),
        ("int x = a +\n  FLAG(b)\nint y;\n", "int x = a;\n  FLAG(b)\nint y;\n"),
        ("int a;\nFOO_BAR(b)\nint y;\n", "int a,\nFOO_BAR(b)\nint y;\n"),
        (
            "struct s {\n  int a;\n  DEFINE_TYPE(s, a)\n  int b;\n};\n",
            "struct s {\n  int a =\n  DEFINE_TYPE(s, a)\n  int b;\n};\n",
        ),
    ];
    let mut failures = Vec::new();
    for (old, new) in pairs {
        failures.extend(check(&**cpp, old, new, "macro line").err());
        failures.extend(check(&**cpp, new, old, "macro line (back)").err());
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
