//! Doc2Feat: NoCode-bench's input refinement, as its `augment.py` does it.
//!
//! Every identifier occurrence of a changed source file is an entity typed `function` or
//! `class` when it names a `def`/`class` and `field` otherwise (attribute accesses, imported
//! names, parameters, keyword arguments…); a string literal passed to `raise E(…)` or
//! `pytest.raises(…)` (and the Java counterparts, see
//! [`hintlens_syntax::StringLiteral::error_context`]) is an `error_msg`. An entity is new in a
//! file when the file at B had no entity of that type and name. Selected: the new entities of
//! code-change files whose **name** is also the name of a new entity of some test-change file,
//! plus the source files the code patch adds (type `file`, named by their path), minus every
//! entity whose name occurs — as a substring, as NoCode-bench tests it — in the documentation
//! change.
//!
//! It selects names without asking where they are defined, hence field accesses and imports
//! that cross no boundary: the noise the paper criticises, reproduced on purpose.

use crate::evidence::TestUses;
use crate::newdefs::{ChangedFile, changed_files};
use crate::{Entity, Identifier, Task, TaskFields, ident};
use hintlens_db::{Db, SourceFile, file_index};
use hintlens_snapshot::FileStatus;
use hintlens_syntax::{DefId, DefKind, Definition};
use std::collections::HashSet;

pub(crate) fn select(db: &dyn Db, task: &Task<'_>, fields: &TaskFields<'_>) -> Vec<Identifier> {
    let test_names: HashSet<String> =
        changed_files(db, task, task.test).iter().flat_map(|c| new_entities(db, c)).map(|e| e.name).collect();
    let documentation = fields.documentation.unwrap_or_default();
    let documented = |name: &str| !documentation.is_empty() && documentation.contains(name);
    let mut out = Vec::new();
    for changed in changed_files(db, task, task.code) {
        if changed.change.status == FileStatus::Added && !documented(changed.path) {
            out.push(ident::module(db, changed.path, changed.file, changed.is_new_file));
        }
        for e in new_entities(db, &changed) {
            if test_names.contains(&e.name) && !documented(&e.name) {
                out.push(e.identifier(db, &changed));
            }
        }
    }
    TestUses::of(db, task).attach(&mut out);
    ident::sort(&mut out);
    out
}

/// NoCode-bench's entity type of a definition's name.
fn entity_type(kind: DefKind) -> &'static str {
    if kind.is_callable() {
        "function"
    } else if kind.is_type() {
        "class"
    } else {
        "field"
    }
}

/// Where an entity was first seen in the file.
enum Origin {
    Definition(DefId),
    /// A use, at this zero-based line.
    Use(u32),
    /// An error-message literal, at this zero-based line.
    ErrorMessage(u32),
}

struct NewEntity {
    ty: &'static str,
    name: String,
    origin: Origin,
}

impl NewEntity {
    fn identifier(&self, db: &dyn Db, changed: &ChangedFile<'_>) -> Identifier {
        let (kind, entity, line) = match self.origin {
            Origin::Definition(id) => {
                return ident::definition(db, changed.path, changed.file, changed.is_new_file, id);
            }
            Origin::Use(line) => (DefKind::Field, Entity::Use, line),
            Origin::ErrorMessage(line) => (DefKind::Constant, Entity::ErrorMessage, line),
        };
        let mut id = Identifier::new(&self.name, kind, entity, changed.path, changed.is_new_file);
        id.line = line + 1;
        id
    }
}

/// The entities of a file, in the order that picks each (type, name)'s representative:
/// definitions other than parameters, then parameters, then uses — so `self.w` stands for `w`
/// rather than the `w` of `__init__(self, w)`, and a name both defined and used is shown as
/// its definition.
fn entities(db: &dyn Db, file: SourceFile) -> Vec<NewEntity> {
    let index = file_index(db, file);
    let definition = |(i, d): (usize, &Definition)| NewEntity {
        ty: entity_type(d.kind),
        name: d.name.clone(),
        origin: Origin::Definition(i as DefId),
    };
    let definitions = index.definitions.iter().enumerate();
    let mut out: Vec<NewEntity> =
        definitions.clone().filter(|(_, d)| d.kind != DefKind::Parameter).map(definition).collect();
    out.extend(definitions.filter(|(_, d)| d.kind == DefKind::Parameter).map(definition));
    out.extend(index.uses.iter().map(|u| NewEntity {
        ty: "field",
        name: u.name.clone(),
        origin: Origin::Use(u.span.start.line),
    }));
    out.extend(index.strings.iter().filter(|s| s.error_context).map(|s| NewEntity {
        ty: "error_msg",
        name: s.value.clone(),
        origin: Origin::ErrorMessage(s.span.start.line),
    }));
    out
}

/// The entities of the file in R whose (type, name) its B counterpart lacks, one per pair.
fn new_entities(db: &dyn Db, changed: &ChangedFile<'_>) -> Vec<NewEntity> {
    let before: HashSet<(&'static str, String)> = match changed.base {
        Some((_, b)) => entities(db, b).into_iter().map(|e| (e.ty, e.name)).collect(),
        None => HashSet::new(),
    };
    let mut seen = HashSet::new();
    entities(db, changed.file)
        .into_iter()
        .filter(|e| !before.contains(&(e.ty, e.name.clone())) && seen.insert((e.ty, e.name.clone())))
        .collect()
}
