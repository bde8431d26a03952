//! DefUse (the paper's §3.1): definitions new on one side of the code–test boundary whose
//! simple name is used on a line the other side adds.

use crate::resolve::{UseContext, resolves_by_import};
use crate::{Direction, Evidence, Identifier, Resolution, Task};
use hintlens_db::{Db, SourceFile, file_index, module_name, qualified_name};
use hintlens_snapshot::{ChangeSet, FileChange, FileStatus};
use hintlens_syntax::{DefKind, FileIndex, Use, UseKind, file_definition_name};
use std::collections::{HashMap, HashSet};

pub(crate) fn select(db: &dyn Db, task: &Task<'_>) -> Vec<Identifier> {
    let mut out = Vec::new();
    collect(db, task, Direction::CodeToTest, task.code, task.test, &mut out);
    collect(db, task, Direction::TestToCode, task.test, task.code, &mut out);
    // A file both patches touch could yield one definition twice; keep the first direction.
    let mut seen = HashSet::new();
    out.retain(|i: &Identifier| seen.insert((i.path.clone(), i.qualified_name.clone(), i.kind)));
    out.sort_by(|a, b| (&a.path, a.line, &a.qualified_name).cmp(&(&b.path, b.line, &b.qualified_name)));
    out
}

/// A use on an added line, with what is needed to grade its resolution.
struct UseSite<'a> {
    path: &'a str,
    file: SourceFile,
    use_: &'a Use,
}

fn collect(
    db: &dyn Db,
    task: &Task<'_>,
    direction: Direction,
    defining: &ChangeSet,
    using: &ChangeSet,
    out: &mut Vec<Identifier>,
) {
    let mut uses: HashMap<&str, Vec<UseSite<'_>>> = HashMap::new();
    for (path, change) in &using.files {
        let Some(file) = live_file(task, path, change) else { continue };
        let added: HashSet<u32> = change.added_lines.iter().copied().collect();
        if added.is_empty() {
            continue;
        }
        let index = file_index(db, file);
        // A bare name the using file defines at its top level means that definition, not one
        // on the other side of the boundary (`logger = …` in a test, then `logger.info(…)`).
        let own: HashSet<&str> = index
            .definitions
            .iter()
            .filter(|d| d.parent.is_none() && d.kind != DefKind::Parameter)
            .map(|d| d.name.as_str())
            .collect();
        for u in &index.uses {
            let shadowed = u.qualifier.is_none() && u.kind != UseKind::KeywordArgument && own.contains(u.name.as_str());
            if added.contains(&u.span.start.line) && !shadowed {
                uses.entry(u.name.as_str()).or_default().push(UseSite { path, file, use_: u });
            }
        }
    }
    if uses.is_empty() {
        return;
    }
    for (path, change) in &defining.files {
        let Some(file) = live_file(task, path, change) else { continue };
        for def in new_definitions(db, task, path, change, file) {
            if direction == Direction::TestToCode && !test_side_can_define(def.kind) {
                continue;
            }
            let Some(sites) = uses.get(def.used_as()) else { continue };
            let frontend = db.frontend(file.language(db));
            let sites: Vec<&UseSite<'_>> = sites
                .iter()
                .filter(|s| compatible(def.kind, s.use_.kind) && frontend.use_can_reach(def.kind, s.use_.kind))
                .collect();
            if sites.is_empty() {
                continue;
            }
            let resolution =
                if sites.iter().any(|s| resolves(db, s, &def)) { Resolution::Import } else { Resolution::Name };
            let mut evidence: Vec<Evidence> =
                sites.iter().map(|s| Evidence { path: s.path.to_owned(), line: s.use_.span.start.line + 1 }).collect();
            evidence.sort();
            evidence.dedup();
            out.push(identifier(def, direction, resolution, evidence));
        }
    }
}

/// The file as it is in R, unless the change deleted it.
fn live_file(task: &Task<'_>, path: &str, change: &FileChange) -> Option<SourceFile> {
    if change.status == FileStatus::Deleted {
        return None;
    }
    task.reference.get(path)
}

/// A definition of R that has no counterpart of the same qualified name and kind in the same
/// file at B.
struct NewDef {
    name: String,
    local_name: String,
    qualified_name: String,
    module: String,
    kind: DefKind,
    path: String,
    line: u32,
    is_new_file: bool,
    signature: String,
    doc: Option<String>,
    parent: Option<(String, DefKind, String)>,
}

impl NewDef {
    /// The name a use spells: a constructor is invoked by its class's name (`__init__` is
    /// called as `Rect(…)`).
    fn used_as(&self) -> &str {
        match (&self.kind, &self.parent) {
            (DefKind::Constructor, Some((class, _, _))) => class.rsplit('.').next().unwrap_or(class),
            _ => &self.name,
        }
    }
}

fn new_definitions(db: &dyn Db, task: &Task<'_>, path: &str, change: &FileChange, file: SourceFile) -> Vec<NewDef> {
    let index = file_index(db, file);
    let module = module_name(db, path, file);
    let base_path = change.old_path.as_deref().unwrap_or(path);
    let base_file = match change.status {
        FileStatus::Added => None,
        _ => task.base.get(base_path),
    };
    let is_new_file = task.base.get(path).is_none();
    let at_base: HashSet<(String, DefKind)> = match base_file {
        Some(b) => file_index(db, b)
            .definitions
            .iter()
            .map(|d| (qualified_name(db, base_path, b, &d.local_name), d.kind))
            .collect(),
        None => HashSet::new(),
    };
    let qualified: Vec<String> =
        index.definitions.iter().map(|d| qualified_name(db, path, file, &d.local_name)).collect();
    let mut out = Vec::new();
    for (i, d) in index.definitions.iter().enumerate() {
        if at_base.contains(&(qualified[i].clone(), d.kind)) {
            continue;
        }
        let parent = d.parent.map(|p| {
            let pd = index.definition(p);
            (qualified[p as usize].clone(), pd.kind, pd.signature.clone())
        });
        // A parameter is news only when its callable is not: a new callable's parameters are
        // part of its signature already.
        if d.kind == DefKind::Parameter {
            let callable_existed = parent.as_ref().is_some_and(|(q, k, _)| at_base.contains(&(q.clone(), *k)));
            if !callable_existed {
                continue;
            }
        }
        out.push(NewDef {
            name: d.name.clone(),
            local_name: d.local_name.clone(),
            qualified_name: qualified[i].clone(),
            module: module.clone(),
            kind: d.kind,
            path: path.to_owned(),
            line: d.name_span.start.line + 1,
            is_new_file,
            signature: d.signature.clone(),
            doc: d.doc.clone(),
            parent,
        });
    }
    if base_file.is_none()
        && let Some(file_def) = file_definition(index, &module, path, is_new_file)
    {
        out.insert(0, file_def);
    }
    out
}

/// A new module is a definition of its own (kind `file`) — unless the file is just the home of
/// a type of the same name (a Java `Foo.java` declaring `class Foo`), where the type stands for it.
fn file_definition(index: &FileIndex, module: &str, path: &str, is_new_file: bool) -> Option<NewDef> {
    let name = file_definition_name(module);
    if index.definitions.iter().any(|d| d.parent.is_none() && d.name == name && d.kind.is_type()) {
        return None;
    }
    Some(NewDef {
        name: name.to_owned(),
        local_name: String::new(),
        qualified_name: module.to_owned(),
        module: module.to_owned(),
        kind: DefKind::File,
        path: path.to_owned(),
        line: 1,
        is_new_file,
        signature: String::new(),
        doc: index.doc.clone(),
        parent: None,
    })
}

/// Test files are never imported by the code, so a module-level variable of a test (or the
/// test module itself) cannot be what a code line names: what the code reaches is what the test
/// hands it — a hook function, a fake class and its methods and attributes.
fn test_side_can_define(kind: DefKind) -> bool {
    !matches!(kind, DefKind::Variable | DefKind::Constant | DefKind::File)
}

/// Which uses can select which definitions: parameters only by keyword arguments, modules only
/// where a module can be named.
fn compatible(def: DefKind, use_: UseKind) -> bool {
    match def {
        DefKind::Parameter => use_ == UseKind::KeywordArgument,
        // `new Foo(…)` / `Foo(…)` needs the constructor's signature; a mere mention of `Foo` does not.
        DefKind::Constructor => matches!(use_, UseKind::Instantiation | UseKind::Call),
        DefKind::File => matches!(use_, UseKind::ImportModule | UseKind::Import | UseKind::Attribute | UseKind::Name),
        // Dataclass-style fields are constructor keywords: `Config(strict=True)`.
        DefKind::Field => use_ != UseKind::ImportModule,
        _ => !matches!(use_, UseKind::ImportModule | UseKind::KeywordArgument),
    }
}

fn resolves(db: &dyn Db, site: &UseSite<'_>, def: &NewDef) -> bool {
    let index = file_index(db, site.file);
    let module = module_name(db, site.path, site.file);
    let ctx = UseContext { path: site.path, module: &module, imports: &index.imports };
    // A parameter is reached through its callable: `fetch(strict=True)` resolves when `fetch` does.
    let (target, name_use);
    let (u, qname) = if def.kind == DefKind::Parameter {
        let Some((callable, _, _)) = &def.parent else { return false };
        let Some(callee) = &site.use_.qualifier else { return false };
        let (qualifier, name) = match callee.rsplit_once('.') {
            Some((q, n)) => (Some(q.to_owned()), n),
            None => (None, callee.as_str()),
        };
        name_use = Use {
            name: name.to_owned(),
            kind: UseKind::Call,
            span: site.use_.span,
            qualifier,
            binding: site.use_.binding,
        };
        target = callable.clone();
        (&name_use, &target)
    } else if def.kind == DefKind::Constructor {
        // `new Foo()` reaches the constructor through the class.
        let Some((class, _, _)) = &def.parent else { return false };
        (site.use_, class)
    } else {
        (site.use_, &def.qualified_name)
    };
    resolves_by_import(&ctx, u, qname, &def.module)
}

/// The selected identifier; `base_occurrences`, `in_problem_statement` and `necessity` are
/// filled for every policy alike by `select_with`.
fn identifier(def: NewDef, direction: Direction, resolution: Resolution, evidence: Vec<Evidence>) -> Identifier {
    Identifier {
        name: def.name,
        qualified_name: def.qualified_name,
        kind: def.kind,
        path: def.path,
        line: def.line,
        is_new_file: def.is_new_file,
        signature: def.signature,
        parent: def.parent.as_ref().map(|(q, _, _)| q.clone()),
        parent_decl: def.parent.map(|(_, k, s)| (k, s)),
        direction,
        resolution,
        evidence,
        base_occurrences: 0,
        in_problem_statement: false,
        necessity: 0,
        doc: def.doc,
        entity: crate::Entity::Definition,
        local_name: def.local_name,
    }
}
