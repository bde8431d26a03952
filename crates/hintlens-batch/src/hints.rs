//! From an indexed task to its hints: every requested selection, the descriptions a provider
//! gives for them, and every requested projection of each.

use crate::record::TaskOutput;
use hintlens_db::Database;
use hintlens_hints::{Identifier, SelectOptions, Selection, Task, TaskFields, select_with};
use hintlens_projection::{
    DescriptionProvider, Descriptions, Projection, RenderContext, Want, description_key, render_with,
};
use std::collections::HashSet;

/// What a task brings beyond its patches (its dataset fields), and how to compute its hints.
#[derive(Clone, Copy, Default)]
pub struct TaskExtras<'a> {
    /// Without `documentation`, the documentation change is read from the code change's files
    /// that are no source code (source no frontend reads is unread code, not documentation).
    pub fields: TaskFields<'a>,
    pub options: SelectOptions,
    /// Asked for descriptions when a requested projection wants them; never contacted
    /// otherwise.
    pub provider: Option<&'a dyn DescriptionProvider>,
}

/// Runs the selections and renders the projections into `output`. `change_documentation` is
/// the documentation part of the code change, read when the dataset does not ship it apart.
pub(crate) fn compute(
    db: &Database,
    task: &Task<'_>,
    change_documentation: &str,
    selections: &[Selection],
    projections: &[Projection],
    extras: &TaskExtras<'_>,
    output: &mut TaskOutput,
) {
    let mut fields = extras.fields;
    fields.documentation = fields.documentation.or(Some(change_documentation));
    for &policy in selections {
        output.selections.push((policy, select_with(db, task, &fields, policy, &extras.options)));
    }
    let descriptions = match extras.provider {
        Some(provider) => {
            describe(provider, &output.selections, projections, task.problem_statement, &fields, &mut output.notes)
        }
        None => Descriptions::default(),
    };
    let ctx = RenderContext { requirements: fields.requirements, descriptions: Some(&descriptions) };
    for (policy, ids) in &output.selections {
        for &projection in projections {
            output.hints.push((format!("{policy}+{projection}"), render_with(ids, projection, &ctx)));
        }
    }
    output.descriptions = descriptions;
}

/// Asks the provider for what the projections want of each selected identifier, once per
/// identifier and want. A failed request becomes a note, and rendering falls back to the
/// docstring (or to nothing).
fn describe(
    provider: &dyn DescriptionProvider,
    selections: &[(Selection, Vec<Identifier>)],
    projections: &[Projection],
    problem_statement: &str,
    fields: &TaskFields<'_>,
    notes: &mut Vec<String>,
) -> Descriptions {
    let wants: HashSet<Want> = projections.iter().flat_map(|p| p.wants().iter().copied()).collect();
    let mut descriptions = Descriptions::default();
    let mut asked = HashSet::new();
    for id in selections.iter().flat_map(|(_, ids)| ids) {
        for &want in &wants {
            if !asked.insert((description_key(id), want)) {
                continue;
            }
            match provider.describe(id, fields, problem_statement, want) {
                Ok(answer) => descriptions.insert(id, answer),
                Err(e) => notes.push(format!("description provider failed for {}: {e}", id.qualified_name)),
            }
        }
    }
    descriptions
}
