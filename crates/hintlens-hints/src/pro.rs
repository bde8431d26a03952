//! `pro`: SWE-bench Pro's human-written interface, each entry matched to the engine's
//! definition of that name in R — preferring a definition the code change made new, in the
//! file the entry names, under the class it names, of the kind it names. An entry that
//! matches nothing is kept as written ([`Entity::Interface`]): what the benchmark discloses,
//! whether or not the reference solution has it.

use crate::evidence::TestUses;
use crate::newdefs::{ChangedFile, changed_files, new_definitions};
use crate::{Entity, Identifier, Task, ident};
use hintlens_db::{Db, file_index};
use hintlens_formats::{InterfaceEntry, parse_interface};
use hintlens_syntax::{DefId, DefKind, file_definition_name};
use std::collections::HashSet;

pub(crate) fn select(db: &dyn Db, task: &Task<'_>, interface: &str) -> Vec<Identifier> {
    let code = changed_files(db, task, task.code);
    let fresh: Vec<HashSet<DefId>> = code.iter().map(|c| new_definitions(db, c).into_iter().collect()).collect();
    let mut out: Vec<Identifier> = Vec::new();
    for entry in parse_interface(interface) {
        let id = matching(db, &code, &fresh, &entry).unwrap_or_else(|| unmatched(task, &entry));
        if !out.iter().any(|o| o.path == id.path && o.qualified_name == id.qualified_name && o.kind == id.kind) {
            out.push(id);
        }
    }
    TestUses::of(db, task).attach(&mut out);
    ident::sort(&mut out);
    out
}

fn path_matches(entry: &InterfaceEntry, path: &str) -> bool {
    entry.path.as_deref().is_some_and(|p| !p.is_empty() && (path.ends_with(p) || p.ends_with(path)))
}

/// How badly a definition fits an entry, criteria in order of how much each says: not new,
/// in another file than the entry names, under another class, of another kind.
type Score = (u8, u8, u8, u8);

/// The best definition of the code change's files for the entry, if any has its name.
fn matching(
    db: &dyn Db,
    code: &[ChangedFile<'_>],
    fresh: &[HashSet<DefId>],
    entry: &InterfaceEntry,
) -> Option<Identifier> {
    let wanted = entry.def_kind();
    if wanted == DefKind::File {
        let changed = code.iter().find(|c| {
            path_matches(entry, c.path)
                || file_definition_name(&hintlens_db::module_name(db, c.path, c.file)) == entry.name
        })?;
        return Some(ident::module(db, changed.path, changed.file, changed.is_new_file));
    }
    let mut best: Option<(Score, usize, DefId)> = None;
    for (i, changed) in code.iter().enumerate() {
        let index = file_index(db, changed.file);
        for (id, def) in index.definitions.iter().enumerate() {
            if def.name != entry.name || def.kind == DefKind::Parameter {
                continue;
            }
            let id = id as DefId;
            let parent = def.parent.map(|p| index.definition(p).name.as_str());
            let same_kind = def.kind == wanted
                || (def.kind.is_callable() && wanted.is_callable())
                || (def.kind.is_type() && wanted.is_type());
            let score: Score = (
                u8::from(!fresh[i].contains(&id)),
                u8::from(entry.path.is_some() && !path_matches(entry, changed.path)),
                u8::from(entry.parent.is_some() && parent != entry.parent.as_deref()),
                u8::from(!same_kind),
            );
            if best.as_ref().is_none_or(|(s, _, _)| score < *s) {
                best = Some((score, i, id));
            }
        }
    }
    let (_, i, id) = best?;
    let changed = &code[i];
    Some(ident::definition(db, changed.path, changed.file, changed.is_new_file, id))
}

/// The entry as written, for a name the reference solution does not define.
fn unmatched(task: &Task<'_>, entry: &InterfaceEntry) -> Identifier {
    let path = entry.path.clone().unwrap_or_default();
    let is_new_file = !path.is_empty() && !task.base.contains(&path);
    let mut id = Identifier::new(&entry.name, entry.def_kind(), Entity::Interface, &path, is_new_file);
    id.signature = entry.signature.clone().unwrap_or_default();
    id.doc.clone_from(&entry.description);
    id.parent.clone_from(&entry.parent);
    id
}
