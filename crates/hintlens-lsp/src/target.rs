//! Finding definitions and uses in a [`FileIndex`] by position, and the definitions behind
//! selected [`Identifier`]s.

use hintlens_hints::{Entity, Identifier};
use hintlens_syntax::{DefId, DefKind, Definition, FileIndex, Position, Span, Use};

/// The identifier under the cursor.
pub(crate) enum Target<'a> {
    Definition(&'a Definition),
    Use(&'a Use),
}

impl Target<'_> {
    pub(crate) fn name(&self) -> &str {
        match self {
            Target::Definition(d) => &d.name,
            Target::Use(u) => &u.name,
        }
    }

    pub(crate) fn span(&self) -> &Span {
        match self {
            Target::Definition(d) => &d.name_span,
            Target::Use(u) => &u.span,
        }
    }

    /// Whether `id` is what this target (in the file at `path`) names. A definition names itself;
    /// a use names every definition of its simple name, as DefUse matches uses.
    pub(crate) fn names(&self, path: &str, id: &Identifier) -> bool {
        match self {
            Target::Definition(d) => {
                id.path == path && id.name == d.name && id.kind == d.kind && id.line == d.name_span.start.line + 1
            }
            // String literal entries carry a value, not a name.
            Target::Use(u) => id.name == u.name && !matches!(id.entity, Entity::String | Entity::ErrorMessage),
        }
    }
}

/// The definition name or use at `position`. A cursor just after a name (where editors put
/// it after typing) still finds the name.
pub(crate) fn at(index: &FileIndex, position: Position) -> Option<Target<'_>> {
    let inside: &dyn Fn(&Span) -> bool = &|span| span.contains(position);
    let touching: &dyn Fn(&Span) -> bool = &|span| span.start <= position && position <= span.end;
    for hit in [inside, touching] {
        if let Some(d) = index.definitions.iter().find(|d| hit(&d.name_span)) {
            return Some(Target::Definition(d));
        }
        if let Some(u) = index.uses.iter().find(|u| hit(&u.span)) {
            return Some(Target::Use(u));
        }
    }
    None
}

/// The definition a selected identifier stands for, in its own file's index. `None` for a
/// module (`file`), which no frontend lists as a definition.
pub(crate) fn definition<'a>(index: &'a FileIndex, id: &Identifier) -> Option<&'a Definition> {
    index.definitions.iter().find(|d| d.name == id.name && d.kind == id.kind && d.name_span.start.line + 1 == id.line)
}

/// The uses of `name` on zero-based `line`.
pub(crate) fn uses_on_line<'a>(index: &'a FileIndex, line: u32, name: &'a str) -> impl Iterator<Item = &'a Use> {
    index.uses.iter().filter(move |u| u.span.start.line == line && u.name == name)
}

/// The outermost function, method or constructor whose body spans zero-based `line`: the
/// test function a line of a test file belongs to.
pub(crate) fn enclosing_callable(index: &FileIndex, line: u32) -> Option<&Definition> {
    let within = |d: &Definition| d.kind.is_callable() && d.span.start.line <= line && line <= d.span.end.line;
    let outermost = |id: usize| !index.ancestors(id as DefId).any(|a| index.definition(a).kind.is_callable());
    index.definitions.iter().enumerate().find(|&(id, d)| within(d) && outermost(id)).map(|(_, d)| d)
}

/// The line a lens or diagnostic for `id` goes on: where its declaration starts (decorators
/// included), the first line for a module.
pub(crate) fn declaration_line(index: &FileIndex, id: &Identifier) -> Option<u32> {
    match id.kind {
        DefKind::File => Some(0),
        _ => definition(index, id).map(|d| d.span.start.line),
    }
}
