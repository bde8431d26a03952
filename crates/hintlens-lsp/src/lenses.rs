//! Code lenses: above each selected definition, and above each test function that uses new
//! identifiers. Every lens runs the command that shows the whole hint block.

use crate::dispatch::RequestError;
use crate::hover::plural;
use crate::protocol::{HintsParams, SHOW_HINTS_COMMAND};
use crate::target;
use crate::world::World;
use hintlens_db::{Database, file_index};
use hintlens_hints::Direction;
use lsp_types::{CodeLens, CodeLensParams, Command, Position, Range};
use std::collections::BTreeMap;

pub(crate) fn code_lenses(
    db: &Database,
    world: &World,
    params: CodeLensParams,
) -> Result<Option<Vec<CodeLens>>, RequestError> {
    let document = world.document(db, &params.text_document.uri)?;
    if let Some(message) = document.unreadable_message(db) {
        return Ok(Some(vec![lens(0, message, Vec::new())]));
    }
    let Some(file) = document.file else { return Ok(Some(Vec::new())) };
    let index = file_index(db, file);
    let selected = world.selection(db, world.config.selection);
    let mut lenses: Vec<(u32, String)> = Vec::new();

    for id in selected.iter().filter(|id| id.path == document.path) {
        let Some(line) = target::declaration_line(index, id) else { continue };
        let side = match id.direction {
            Direction::CodeToTest => "test",
            Direction::TestToCode => "code",
        };
        lenses.push((line, format!("hint · used by {}", plural(id.evidence.len(), &format!("{side} line")))));
    }

    // Test functions: how many new identifiers the lines the tests add in them use.
    let mut per_function: BTreeMap<u32, usize> = BTreeMap::new();
    for id in selected.iter().filter(|id| id.direction == Direction::CodeToTest) {
        let mut functions: Vec<u32> = id
            .evidence
            .iter()
            .filter(|e| e.path == document.path)
            .filter_map(|e| target::enclosing_callable(index, e.line - 1))
            .map(|function| function.span.start.line)
            .collect();
        functions.sort_unstable();
        functions.dedup();
        for line in functions {
            *per_function.entry(line).or_default() += 1;
        }
    }
    for (line, count) in per_function {
        lenses.push((line, format!("uses {}", plural(count, "new identifier"))));
    }

    lenses.sort();
    let arguments = hints_arguments(world);
    Ok(Some(lenses.into_iter().map(|(line, title)| lens(line, title, arguments.clone())).collect()))
}

/// The one lens shown while the repository is being indexed.
pub(crate) fn indexing(message: &str) -> Option<Vec<CodeLens>> {
    Some(vec![lens(0, message.to_owned(), Vec::new())])
}

/// Lenses are sent resolved; resolving one gives it back, filling in the command of a lens
/// that lost it on the way.
pub(crate) fn resolve(mut lens: CodeLens) -> CodeLens {
    if lens.command.is_none() {
        lens.command = Some(show_hints("hintlens hints".to_owned(), Vec::new()));
    }
    lens
}

/// The lens's command arguments: the selection and projection it was computed with.
fn hints_arguments(world: &World) -> Vec<serde_json::Value> {
    let params = HintsParams {
        selection: Some(world.config.selection.to_string()),
        projection: Some(world.config.projection.to_string()),
    };
    vec![serde_json::to_value(params).expect("plain strings serialize")]
}

fn lens(line: u32, title: String, arguments: Vec<serde_json::Value>) -> CodeLens {
    let start = Position { line, character: 0 };
    CodeLens { range: Range { start, end: start }, command: Some(show_hints(title, arguments)), data: None }
}

fn show_hints(title: String, arguments: Vec<serde_json::Value>) -> Command {
    Command { title, command: SHOW_HINTS_COMMAND.to_owned(), arguments: Some(arguments).filter(|a| !a.is_empty()) }
}
