//! Building [`Identifier`]s for the policies other than DefUse. Repository facts are left at
//! zero here: [`crate::facts::annotate`] fills them for every policy alike.

use crate::newdefs::ChangedFile;
use crate::{Entity, Identifier};
use hintlens_db::{Db, SourceFile, file_definitions, module_name, qualified_name};
use hintlens_syntax::{DefId, DefKind, file_definition_name};

/// The identifier of one definition of `file` (at `path` in R).
pub(crate) fn definition(db: &dyn Db, path: &str, file: SourceFile, is_new_file: bool, id: DefId) -> Identifier {
    let index = file_definitions(db, file);
    let def = index.definition(id);
    let parent = match def.parent {
        Some(p) => {
            let pd = index.definition(p);
            Some((qualified_name(db, path, file, &pd.local_name), pd.kind, pd.signature.clone()))
        }
        // A member whose owner lives in another file (a Go method of a type declared elsewhere
        // in its package): the owner is known by name only. A function, variable or type under
        // a dotted name with no owner in the file is in a namespace (C++'s `fmt::detail::f`),
        // which its users write as part of the name.
        None => def.local_name.rsplit_once('.').map(|(owner, _)| {
            let owner_kind = if is_namespaced(def.kind) { DefKind::Namespace } else { DefKind::Type };
            (qualified_name(db, path, file, owner), owner_kind, String::new())
        }),
    };
    // Constructors are never identifiers of their own: their signatures show in the type's entry.
    let constructors = if def.kind.is_type() {
        index
            .definitions
            .iter()
            .filter(|c| c.parent == Some(id) && c.kind == DefKind::Constructor)
            .map(|c| c.signature.clone())
            .collect()
    } else {
        Vec::new()
    };
    Identifier {
        qualified_name: qualified_name(db, path, file, &def.local_name),
        local_name: def.local_name.clone(),
        constructors,
        line: def.name_span.start.line + 1,
        signature: def.signature.clone(),
        doc: def.doc.clone(),
        parent: parent.as_ref().map(|(q, _, _)| q.clone()),
        parent_decl: parent.map(|(_, k, s)| (k, s)),
        ..Identifier::new(&def.name, def.kind, Entity::Definition, path, is_new_file)
    }
}

/// Whether a definition of `kind` stands in a namespace rather than in a type when the name it
/// is written under has an owner: what is never a member.
fn is_namespaced(kind: DefKind) -> bool {
    kind.is_type()
        || matches!(
            kind,
            DefKind::Function
                | DefKind::Variable
                | DefKind::Constant
                | DefKind::Macro
                | DefKind::TypeAlias
                | DefKind::Module
                | DefKind::Namespace
        )
}

/// The module a changed file makes new ([`crate::newdefs::new_module`]), as a definition.
pub(crate) fn new_module(
    db: &dyn Db,
    task: &crate::Task<'_>,
    resolver: &crate::resolve::Resolver<'_>,
    changed: &ChangedFile<'_>,
) -> Option<Identifier> {
    let module = crate::newdefs::new_module(db, task, changed)?;
    let mut id = Identifier::new(&module.name, module.kind, Entity::Definition, &module.path, true);
    // A directory below a module root goes by its import path (`go.flipt.io/flipt/internal/limits`).
    let language = changed.file.language(db);
    let rooted =
        (module.path != changed.path).then(|| crate::resolve::rooted_name(resolver, language, &module.path)).flatten();
    id.qualified_name = rooted.unwrap_or_else(|| module_name(db, changed.path, changed.file));
    let index = file_definitions(db, changed.file);
    id.doc.clone_from(&index.doc);
    id.signature = match module.kind {
        DefKind::Package => format!("package {}", module.name),
        _ => String::new(),
    };
    id.line = 1;
    Some(id)
}

/// The module a file is, as a definition of kind `file`.
pub(crate) fn module(db: &dyn Db, path: &str, file: SourceFile, is_new_file: bool) -> Identifier {
    let module = module_name(db, path, file);
    let mut id = Identifier::new(file_definition_name(&module), DefKind::File, Entity::Definition, path, is_new_file);
    id.qualified_name = module;
    id.doc.clone_from(&file_definitions(db, file).doc);
    id.line = 1;
    id
}

/// Deterministic order for every policy: by path, then position, then name.
pub(crate) fn sort(ids: &mut [Identifier]) {
    ids.sort_by(|a, b| (&a.path, a.line, &a.qualified_name, a.kind).cmp(&(&b.path, b.line, &b.qualified_name, b.kind)));
}
