//! Hidden naming contracts: test-required names the task statement does not mention.

use crate::target;
use crate::text;
use crate::world::World;
use hintlens_db::{Database, file_index};
use hintlens_hints::{Direction, Identifier};
use lsp_types::{Diagnostic, DiagnosticSeverity, NumberOrString, Range};
use std::collections::BTreeMap;

/// The diagnostics of every file that has some, by repository path. Empty when no statement
/// is configured or the statement file does not exist.
pub(crate) fn compute(db: &Database, world: &World) -> BTreeMap<String, Vec<Diagnostic>> {
    let mut out: BTreeMap<String, Vec<Diagnostic>> = BTreeMap::new();
    let Some(statement) = &world.statement else { return out };
    if statement.text.is_none() {
        return out;
    }
    for id in world.selection(db, world.config.selection).iter().filter(|id| !id.in_problem_statement) {
        for (path, range) in sites(db, world, id) {
            out.entry(path).or_default().push(Diagnostic {
                range,
                severity: Some(DiagnosticSeverity::INFORMATION),
                code: Some(NumberOrString::String("unmentioned-name".to_owned())),
                source: Some("hintlens".to_owned()),
                message: message(id, &statement.path),
                ..Diagnostic::default()
            });
        }
    }
    out
}

/// Where the contract shows in the tests: the test lines using a name the code change
/// defines, or the test's own definition of a name the code change uses.
fn sites(db: &Database, world: &World, id: &Identifier) -> Vec<(String, Range)> {
    let mut out = Vec::new();
    match id.direction {
        Direction::CodeToTest => {
            for e in &id.evidence {
                let Some(file) = world.reference.get(db, &e.path) else { continue };
                let text = file.text(db);
                let index = file_index(db, file);
                let line = e.line - 1;
                let mut ranges: Vec<Range> =
                    target::uses_on_line(index, line, &id.name).map(|u| text::to_lsp_range(text, &u.span)).collect();
                ranges.dedup();
                out.extend(ranges.into_iter().map(|range| (e.path.clone(), range)));
            }
        }
        Direction::TestToCode => {
            let Some(file) = world.reference.get(db, &id.path) else { return out };
            let index = file_index(db, file);
            if let Some(definition) = target::definition(index, id) {
                out.push((id.path.clone(), text::to_lsp_range(file.text(db), &definition.name_span)));
            }
        }
    }
    out
}

fn message(id: &Identifier, statement: &str) -> String {
    match id.direction {
        Direction::CodeToTest => format!(
            "`{}` ({} in {}) is required by the tests, but the task statement {statement} does not mention it: a hidden naming contract",
            id.name, id.kind, id.path
        ),
        Direction::TestToCode => format!(
            "`{}` ({}) is defined by the tests and used by the solution, but the task statement {statement} does not mention it: a hidden naming contract",
            id.name, id.kind
        ),
    }
}
