//! The repository facts every selected identifier carries, whichever policy selected it
//! (SPEC §5): in how many base files the name occurs, whether the issue states it, and the
//! static necessity that follows from both.

use crate::{Entity, Identifier, Task, mentions};
use hintlens_db::{Db, file_definitions};
use hintlens_syntax::DefKind;
use std::collections::HashMap;

/// What the repository and the issue say about one name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Facts {
    pub base_occurrences: usize,
    /// Some file of B could not be scanned: the count is a lower bound.
    pub lower_bound: bool,
    pub in_problem_statement: bool,
    pub necessity: u8,
}

impl Facts {
    fn new(base_occurrences: usize, in_problem_statement: bool, told: bool) -> Facts {
        // The paper's rubric: 0 stated in what the agent is told (the issue, unless `--told`
        // names more fields), 1 findable in the base repository, 3 a free choice of the
        // reference author (2, "by convention", needs a judge).
        let necessity = if told {
            0
        } else if base_occurrences > 0 {
            1
        } else {
            3
        };
        Facts { base_occurrences, lower_bound: false, in_problem_statement, necessity }
    }
}

/// The facts of an identifier name: as an identifier of B, a word of the issue, and a word of
/// what the agent is told.
pub(crate) fn name_facts(db: &dyn Db, task: &Task<'_>, name: &str) -> Facts {
    let facts =
        Facts::new(task.base.occurrences(db, name), mentions(task.problem_statement, name), mentions(task.told, name));
    Facts { lower_bound: task.base.has_unscanned(), ..facts }
}

/// The facts of a string literal's value: files of B holding the same literal, and whether
/// the issue quotes it.
pub(crate) fn string_facts(db: &dyn Db, task: &Task<'_>, value: &str) -> Facts {
    let occurrences = task.base.string_occurrences(db, value);
    let quoted = |text: &str| !value.trim().is_empty() && text.contains(value);
    let facts = Facts::new(occurrences, quoted(task.problem_statement), quoted(task.told));
    Facts { lower_bound: task.base.has_unscanned(), ..facts }
}

/// Fills the facts of every identifier, and the file-local name of every definition that
/// lacks one, from the database.
pub(crate) fn annotate(db: &dyn Db, task: &Task<'_>, ids: &mut [Identifier]) {
    let mut cache: HashMap<(bool, String), Facts> = HashMap::new();
    for id in ids.iter_mut() {
        let literal = matches!(id.entity, Entity::String | Entity::ErrorMessage);
        let facts = *cache
            .entry((literal, id.name.clone()))
            .or_insert_with(|| if literal { string_facts(db, task, &id.name) } else { name_facts(db, task, &id.name) });
        id.base_occurrences = facts.base_occurrences;
        id.base_occurrences_lower_bound = facts.lower_bound;
        id.in_problem_statement = facts.in_problem_statement;
        id.necessity = facts.necessity;
        if id.entity == Entity::Definition && id.kind != DefKind::File && id.local_name.is_empty() {
            id.local_name = local_name(db, task, id).unwrap_or_default();
        }
    }
}

/// The definition's name within its file, found by name and line in R.
fn local_name(db: &dyn Db, task: &Task<'_>, id: &Identifier) -> Option<String> {
    let file = task.reference.get(db, &id.path)?;
    file_definitions(db, file)
        .definitions
        .iter()
        .find(|d| d.name == id.name && d.name_span.start.line + 1 == id.line)
        .map(|d| d.local_name.clone())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn necessity_follows_the_rubric() {
        assert_eq!(Facts::new(0, true, true).necessity, 0);
        assert_eq!(Facts::new(4, true, true).necessity, 0);
        assert_eq!(Facts::new(4, false, false).necessity, 1);
        assert_eq!(Facts::new(0, false, false).necessity, 3);
        // Told by another field than the issue (`batch --told`): still 0.
        assert_eq!(Facts::new(0, false, true).necessity, 0);
        assert_eq!(Facts::new(0, true, false).necessity, 3);
    }
}
