//! Scenario files: a task written as a specification, and the machinery that runs it.
//!
//! A scenario is a Markdown file. Fenced blocks whose info string is `<lang> <stage> <path>`
//! give files: `base` files form B; `code` files are what the code change makes of them, `test`
//! files what the test change makes of them (a block marked `deleted` removes the file). The
//! harness turns the stages into real git-style patches and runs the real pipeline on them:
//! patch application, indexing, selection. A block named after a selection policy lists what
//! that policy is expected to select, one identifier per line. DefUse lines say the direction,
//! the kind, the qualified name, the resolution and the use sites:
//!
//! ```text
//! code->test function pkg.api.new_fn (import) @ tests/test_api.py:3 [import]
//! ```
//!
//! Each use site names, in brackets, the rule that admitted it (`hintlens_hints::Rule`).
//!
//! The other policies select from the code change only and grade no resolution, so their lines
//! say what the entry is — its kind for a definition, else `use`, `string`, `error_msg` or
//! `interface <kind>` — its qualified name (a literal's value, quoted) and, when the tests use
//! it, where:
//!
//! ```text
//! function pkg.parse._normalise
//! use pkg.api.fetch @ tests/test_api.py:3
//! error_msg "width must be positive" @ tests/test_api.py:9
//! ```
//!
//! A policy's block may name options after it: `fea --compat fea`; `--by-path` last tells code
//! from test as a commit's diff does (by path, and by the test regions of source files) instead
//! of by the stages. An empty block means "this policy selects nothing". `HINTLENS_BLESS=1 cargo test -p hintlens-tests --test e2e scenarios`
//! rewrites the blocks that differ with what the pipeline selects (review the diff). A `text problem` block is the issue text, a `text interface` block a
//! SWE-bench Pro interface, and non-source files of the code stage (```` ```md code docs/x.md ````)
//! are the documentation change.

use hintlens_db::{Database, SnapshotIndex};
use hintlens_hints::{
    Compat, Entity, Identifier, SelectOptions, Selection, Task, TaskFields, documentation_text, select_with,
    split_test_regions,
};
use hintlens_projection::{Projection, render};
use hintlens_snapshot::{NoBlobs, Snapshot, build_reference, changes_between};
use std::collections::BTreeMap;
use std::path::Path;

#[derive(Debug, Default)]
pub struct Scenario {
    pub title: String,
    pub base: BTreeMap<String, String>,
    /// `None` content: deleted by this stage.
    pub code: BTreeMap<String, Option<String>>,
    pub test: BTreeMap<String, Option<String>>,
    pub problem_statement: String,
    /// A SWE-bench Pro interface text, for the `pro` policy.
    pub interface: Option<String>,
    /// Expected selections by block name (a policy, perhaps with options), as sorted lines.
    pub expected: BTreeMap<String, Vec<String>>,
}

/// Every scenario file under `tests/scenarios/` (`*.md`), in path order.
pub fn scenario_files() -> Vec<std::path::PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "md") {
                out.push(path);
            }
        }
    }
    let mut files = Vec::new();
    walk(&Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios"), &mut files);
    files.sort();
    files
}

/// A policy and its options, from an expectation block's name: `fea`, `fea --compat fea`.
pub fn parse_policy(name: &str) -> Result<(Selection, SelectOptions), String> {
    let mut words = name.split_whitespace();
    let policy: Selection = words.next().unwrap_or_default().parse()?;
    let mut options = SelectOptions::default();
    while let Some(word) = words.next() {
        match word {
            // Read by `run`: which change sets the policy sees.
            "--by-path" => {}
            "--compat" => match words.next() {
                Some(bench) => options.compat = Some(bench.parse::<Compat>()?),
                None => return Err(format!("`--compat` wants a benchmark in block `{name}`")),
            },
            _ => return Err(format!("unknown option `{word}` in block `{name}`")),
        }
    }
    Ok((policy, options))
}

pub fn parse_scenario(text: &str) -> Result<Scenario, String> {
    let mut scenario = Scenario::default();
    let mut lines = text.lines().enumerate();
    while let Some((n, line)) = lines.next() {
        if let Some(title) = line.strip_prefix("# ") {
            if scenario.title.is_empty() {
                scenario.title = title.trim().to_owned();
            }
            continue;
        }
        let Some(info) = line.strip_prefix("```") else { continue };
        let info: Vec<&str> = info.split_whitespace().collect();
        let mut body = String::new();
        let mut closed = false;
        for (_, l) in lines.by_ref() {
            if l.trim_end() == "```" {
                closed = true;
                break;
            }
            body.push_str(l);
            body.push('\n');
        }
        if !closed {
            return Err(format!("line {}: unclosed code block", n + 1));
        }
        match info.as_slice() {
            [policy, ..] if Selection::ALL.iter().any(|s| s.as_str() == *policy) => {
                let name = info.join(" ");
                parse_policy(&name).map_err(|e| format!("line {}: {e}", n + 1))?;
                let mut expected: Vec<String> =
                    body.lines().map(str::trim).filter(|l| !l.is_empty()).map(str::to_owned).collect();
                expected.sort();
                scenario.expected.insert(name, expected);
            }
            ["text", "problem"] => scenario.problem_statement = body,
            ["text", "interface"] => scenario.interface = Some(body),
            [_lang, stage, path, rest @ ..] => {
                let deleted = rest.contains(&"deleted");
                let content = (!deleted).then_some(body);
                match *stage {
                    "base" => {
                        scenario.base.insert((*path).to_owned(), content.unwrap_or_default());
                    }
                    "code" => {
                        scenario.code.insert((*path).to_owned(), content);
                    }
                    "test" => {
                        scenario.test.insert((*path).to_owned(), content);
                    }
                    other => {
                        return Err(format!("line {}: unknown stage `{other}` (expected base, code or test)", n + 1));
                    }
                }
            }
            // Other blocks are prose illustrations.
            _ => {}
        }
    }
    if scenario.expected.is_empty() {
        return Err("no expectation block (```defuse``` or another policy's)".into());
    }
    Ok(scenario)
}

/// A git-style unified diff from one tree of files to another.
pub fn make_patch(from: &BTreeMap<String, String>, to: &BTreeMap<String, String>) -> String {
    let mut out = String::new();
    let paths: std::collections::BTreeSet<&String> = from.keys().chain(to.keys()).collect();
    for path in paths {
        let (old, new) = (from.get(path), to.get(path));
        if old == new {
            continue;
        }
        out.push_str(&format!("diff --git a/{path} b/{path}\n"));
        match (old, new) {
            (None, Some(_)) => out.push_str("new file mode 100644\n"),
            (Some(_), None) => out.push_str("deleted file mode 100644\n"),
            _ => {}
        }
        let old_text = old.map(String::as_str).unwrap_or("");
        let new_text = new.map(String::as_str).unwrap_or("");
        let patch = diffy::create_patch(old_text, new_text);
        let body = patch.to_string();
        // diffy writes `--- original` / `+++ modified`; git names the sides.
        let hunks = body.split_once("\n@@").map(|(_, rest)| format!("@@{rest}")).unwrap_or_default();
        out.push_str(&format!("--- {}\n", if old.is_some() { format!("a/{path}") } else { "/dev/null".into() }));
        out.push_str(&format!("+++ {}\n", if new.is_some() { format!("b/{path}") } else { "/dev/null".into() }));
        out.push_str(&hunks);
        if !hunks.is_empty() && !hunks.ends_with('\n') {
            out.push('\n');
        }
    }
    out
}

fn apply_stage(tree: &BTreeMap<String, String>, stage: &BTreeMap<String, Option<String>>) -> BTreeMap<String, String> {
    let mut out = tree.clone();
    for (path, content) in stage {
        match content {
            Some(text) => {
                out.insert(path.clone(), text.clone());
            }
            None => {
                out.remove(path);
            }
        }
    }
    out
}

/// The outcome of running a scenario through the real pipeline.
pub struct Outcome {
    pub selections: BTreeMap<String, Vec<Identifier>>,
    pub patch: String,
    pub test_patch: String,
}

pub fn run(scenario: &Scenario) -> Result<Outcome, String> {
    let code_tree = apply_stage(&scenario.base, &scenario.code);
    let test_tree = apply_stage(&code_tree, &scenario.test);
    let patch = make_patch(&scenario.base, &code_tree);
    let test_patch = make_patch(&code_tree, &test_tree);
    let base = Snapshot::from_files(scenario.base.iter().map(|(p, t)| (p.clone(), t.clone().into_bytes())));
    let reference =
        build_reference(&base, &NoBlobs, patch.as_bytes(), test_patch.as_bytes()).map_err(|e| e.to_string())?;
    let db = Database::new(hintlens_batch::frontends());
    let documentation = documentation_text(&patch, |path| {
        db.language_of(path).is_none() && hintlens_snapshot::source_extension(path).is_none()
    });
    let fields = TaskFields {
        instance_id: &scenario.title,
        interface: scenario.interface.as_deref(),
        requirements: None,
        documentation: Some(&documentation),
    };
    let select_all = |db: &Database, base_index: &SnapshotIndex, reference_index: &SnapshotIndex| {
        let task = Task {
            base: base_index,
            reference: reference_index,
            code: &reference.code,
            test: &reference.test,
            problem_statement: &scenario.problem_statement,
            told: &scenario.problem_statement,
        };
        // `--by-path`: code and test told apart as a commit's diff is, by path and by the test
        // regions of source files, instead of by the stages.
        let by_path = {
            let test_paths = db.test_paths();
            let (code, test) = changes_between(&base, &reference.snapshot, &NoBlobs, |p| test_paths.is_test(p))
                .map_err(|e| e.to_string())?;
            split_test_regions(db, reference_index, code, test)
        };
        let by_path_task = Task { code: &by_path.0, test: &by_path.1, ..task };
        let mut selections = BTreeMap::new();
        for name in scenario.expected.keys() {
            let by_path = name.split_whitespace().any(|w| w == "--by-path");
            let (policy, options) = parse_policy(name)?;
            let task = if by_path { &by_path_task } else { &task };
            selections.insert(name.clone(), select_with(db, task, &fields, policy, &options));
        }
        Ok::<_, String>(selections)
    };
    let base_index = db.index_snapshot(&base, || NoBlobs);
    let reference_index = db.index_snapshot(&reference.snapshot, || NoBlobs);
    let selections = select_all(&db, &base_index, &reference_index)?;
    // A batch reads on demand what the answers need: the same answers.
    let demand_db = Database::new(hintlens_batch::frontends());
    let base_demand = demand_db.snapshot_on_demand(&base, Box::new(NoBlobs));
    // As a batch does: the reference's files derived from the base's, which must list what
    // indexing the reference afresh lists.
    let reference_demand = demand_db.derive_on_demand(&base, &base_demand, &reference.snapshot, Box::new(NoBlobs));
    let afresh = demand_db.snapshot_on_demand(&reference.snapshot, Box::new(NoBlobs));
    if !reference_demand.paths(&demand_db).eq(afresh.paths(&demand_db)) {
        return Err("the reference's files derived from the base's differ from those indexed afresh".into());
    }
    let on_demand = select_all(&demand_db, &base_demand, &reference_demand)?;
    for (name, full) in &selections {
        let demand = &on_demand[name];
        if demand != full {
            let lines = |ids: &[Identifier]| ids.iter().map(describe).collect::<Vec<_>>().join("\n  ");
            return Err(format!(
                "`{name}` selects otherwise when read on demand:\n  {}\nthan when indexed up front:\n  {}",
                lines(demand),
                lines(full)
            ));
        }
    }
    Ok(Outcome { selections, patch, test_patch })
}

/// The one-line form of an identifier in a block of the given policy.
pub fn describe_for(policy: Selection, id: &Identifier) -> String {
    if policy == Selection::DefUse {
        return describe(id);
    }
    let evidence: Vec<String> = id.evidence.iter().map(|e| format!("{}:{}", e.path, e.line)).collect();
    let (label, name) = match id.entity {
        Entity::Definition => (id.kind.to_string(), id.qualified_name.clone()),
        Entity::Use => ("use".to_owned(), id.qualified_name.clone()),
        Entity::String | Entity::ErrorMessage => (id.entity.as_str().to_owned(), format!("{:?}", id.name)),
        Entity::Interface => (format!("interface {}", id.kind), id.qualified_name.clone()),
    };
    let mut line = format!("{label} {name}");
    if !evidence.is_empty() {
        line.push_str(" @ ");
        line.push_str(&evidence.join(", "));
    }
    line
}

/// The one-line form of an identifier used in `defuse` blocks.
pub fn describe(id: &Identifier) -> String {
    let evidence: Vec<String> = id
        .evidence
        .iter()
        .map(|e| match e.rule {
            Some(rule) => format!("{}:{} [{}]", e.path, e.line, rule.as_str()),
            None => format!("{}:{}", e.path, e.line),
        })
        .collect();
    format!(
        "{} {} {} ({}) @ {}",
        id.direction.as_str(),
        id.kind,
        id.qualified_name,
        id.resolution.as_str(),
        evidence.join(", ")
    )
}

/// Runs one scenario file: checks every expectation block, returns the Declaration rendering of
/// the DefUse selection (for snapshotting).
pub fn check_file(path: &Path) -> Result<String, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let scenario = parse_scenario(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    let outcome = run(&scenario).map_err(|e| format!("{}: {e}", path.display()))?;
    let bless = std::env::var_os("HINTLENS_BLESS").is_some_and(|v| v == "1");
    for (policy, expected) in &scenario.expected {
        let (selection, _) = parse_policy(policy)?;
        let mut actual: Vec<String> = outcome.selections[policy].iter().map(|id| describe_for(selection, id)).collect();
        actual.sort();
        if &actual != expected && bless {
            let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
            std::fs::write(path, rewrite_block(&text, policy, &actual))
                .map_err(|e| format!("{}: {e}", path.display()))?;
        } else if &actual != expected {
            return Err(format!(
                "{} ({}): `{policy}` selection differs\n--- expected\n{}\n--- actual\n{}\n--- code patch\n{}--- test patch\n{}",
                path.display(),
                scenario.title,
                expected.join("\n"),
                actual.join("\n"),
                outcome.patch,
                outcome.test_patch,
            ));
        }
    }
    let defuse = outcome.selections.get("defuse").cloned().unwrap_or_default();
    Ok(render(&defuse, Projection::Declaration))
}

/// `text` with the body of its expectation block `name` replaced by `lines`.
fn rewrite_block(text: &str, name: &str, lines: &[String]) -> String {
    let mut out = String::with_capacity(text.len());
    let mut skipping = false;
    for line in text.split_inclusive('\n') {
        if skipping {
            if line.trim_end() == "```" {
                skipping = false;
                out.push_str(line);
            }
            continue;
        }
        out.push_str(line);
        if line
            .trim_end()
            .strip_prefix("```")
            .is_some_and(|info| info.split_whitespace().collect::<Vec<_>>().join(" ") == name)
        {
            for l in lines {
                out.push_str(l);
                out.push('\n');
            }
            skipping = true;
        }
    }
    out
}

/// The `hintlens` binary of this build, for command-line tests.
pub fn hintlens() -> std::process::Command {
    // Integration tests live in target/<profile>/deps; the binary one level up.
    let mut path = std::env::current_exe().expect("the test's own path");
    path.pop();
    if path.ends_with("deps") {
        path.pop();
    }
    let exe = path.join(format!("hintlens{}", std::env::consts::EXE_SUFFIX));
    assert!(exe.exists(), "{} is missing: run `cargo build -p hintlens-cli` first (scripts/test does)", exe.display());
    std::process::Command::new(exe)
}

/// Runs a command of a command-line test; a failure fails the test with both outputs.
pub fn succeed(cmd: &mut std::process::Command) -> std::process::Output {
    let output = cmd.output().expect("the command runs");
    assert!(
        output.status.success(),
        "{:?} failed: {}\n{}",
        cmd,
        String::from_utf8_lossy(&output.stderr),
        String::from_utf8_lossy(&output.stdout)
    );
    output
}

/// The example benchmark shipped in `benchmarks-data/example`.
pub fn example() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../benchmarks-data/example")
}
