//! Hover: whether the identifier under the cursor crosses the code–test boundary, and what a
//! hint would say about it.

use crate::dispatch::RequestError;
use crate::target::{self, Target};
use crate::text;
use crate::world::{Found, World};
use hintlens_db::{Database, file_index};
use hintlens_hints::{Direction, Identifier};
use hintlens_projection::{Projection, render};
use hintlens_syntax::DefKind;
use lsp_types::{Hover, HoverContents, HoverParams, MarkupContent, MarkupKind};
use std::fmt::Write;

pub(crate) fn hover(db: &Database, world: &World, params: HoverParams) -> Result<Option<Hover>, RequestError> {
    let params = params.text_document_position_params;
    let document = world.document(db, &params.text_document.uri)?;
    if let Some(message) = document.unreadable_message(db) {
        return Ok(Some(Hover { contents: markdown(message), range: None }));
    }
    let Some(file) = document.file else { return Ok(None) };
    let text = file.text(db);
    let position = text::to_index(text, params.position).ok_or_else(|| {
        RequestError::invalid_params(format!(
            "position {}:{} is past the end of {} ({} lines)",
            params.position.line,
            params.position.character,
            document.path,
            text::line_count(text)
        ))
    })?;
    let index = file_index(db, file);
    let Some(target) = target::at(index, position) else { return Ok(None) };
    let selections = world.all_selections(db);
    let found = selections.matching(&document.path, &target);
    Ok(Some(Hover {
        contents: markdown(describe(world, &target, &found)),
        range: Some(text::to_lsp_range(text, target.span())),
    }))
}

/// What hover shows while the repository is being indexed.
pub(crate) fn indexing(message: &str) -> Option<Hover> {
    Some(Hover { contents: markdown(message.to_owned()), range: None })
}

fn markdown(value: String) -> HoverContents {
    HoverContents::Markup(MarkupContent { kind: MarkupKind::Markdown, value })
}

fn describe(world: &World, target: &Target<'_>, found: &[Found<'_>]) -> String {
    if found.is_empty() {
        return format!("**`{}`** does not cross the code–test boundary: no policy selects it.", target.name());
    }
    let sections: Vec<String> = found.iter().map(|f| describe_one(world, f)).collect();
    sections.join("\n\n---\n\n")
}

fn describe_one(world: &World, found: &Found<'_>) -> String {
    let id = found.identifier;
    let mut out = String::new();
    let _ = writeln!(out, "**`{}`** · {} · `{}`\n", id.name, kind_label(id.kind), id.path);
    if found.policies.contains(&hintlens_hints::Selection::DefUse) {
        let lines = plural(id.evidence.len(), "line");
        let _ = match id.direction {
            Direction::CodeToTest => writeln!(
                out,
                "Crosses the code–test boundary: **code → test** (defined by the code change, used on {lines} the tests add).\n"
            ),
            Direction::TestToCode => writeln!(
                out,
                "Crosses the code–test boundary: **test → code** (defined by the test change, used on {lines} the code change adds).\n"
            ),
        };
    } else {
        let _ = writeln!(out, "Does not cross the code–test boundary (`defuse` does not select it).\n");
    }
    let policies: Vec<String> = found.policies.iter().map(|p| format!("`{p}`")).collect();
    let _ = writeln!(out, "Selected by: {}\n", policies.join(", "));
    let _ = writeln!(out, "Declaration entry:\n\n{}", render(std::slice::from_ref(id), Projection::Declaration));
    let _ = writeln!(
        out,
        "Base occurrences: **{}{}** · necessity: **{}** ({}) · resolution: `{}`",
        // Some file of the base could not be read from git.
        if id.base_occurrences_lower_bound { "at least " } else { "" },
        plural(id.base_occurrences, "file"),
        id.necessity,
        necessity(id),
        id.resolution.as_str()
    );
    if !id.evidence.is_empty() {
        out.push_str("\nUsed at:\n");
        for e in &id.evidence {
            let _ = write!(out, "- [{}:{}]({}#L{})", e.path, e.line, world.root.uri(&e.path).as_str(), e.line);
            // Which rule tied the use to the definition: `import`, `member`, `keyword`…
            if let Some(rule) = e.rule {
                let _ = write!(out, " · {}", rule.as_str().replace('_', " "));
            }
            out.push('\n');
        }
    }
    out.trim_end().to_owned()
}

/// A kind as renderings spell it (`enum constant`, `module`).
fn kind_label(kind: DefKind) -> String {
    match kind {
        DefKind::File => "module".to_owned(),
        kind => kind.as_str().replace('_', " "),
    }
}

/// The paper's static necessity rubric in words.
fn necessity(id: &Identifier) -> &'static str {
    match id.necessity {
        0 => "stated in the task statement",
        1 => "findable in the base repository",
        2 => "expected by convention",
        _ => "absent from both the task statement and the base repository",
    }
}

pub(crate) fn plural(n: usize, noun: &str) -> String {
    if n == 1 { format!("1 {noun}") } else { format!("{n} {noun}s") }
}
