//! `all-new`: every new public definition of the code change — the broad baseline.

use crate::evidence::TestUses;
use crate::newdefs::{changed_files, new_definitions};
use crate::{Identifier, Task, ident};
use hintlens_db::{Db, file_index};
use hintlens_syntax::{DefId, FileIndex};

pub(crate) fn select(db: &dyn Db, task: &Task<'_>) -> Vec<Identifier> {
    let mut out = Vec::new();
    for changed in changed_files(task, task.code) {
        let index = file_index(db, changed.file);
        if changed.base.is_none()
            && let Some(file) = ident::file(db, changed.path, changed.file, changed.is_new_file)
        {
            out.push(file);
        }
        for id in new_definitions(db, &changed) {
            if is_public(index, id) {
                out.push(ident::definition(db, changed.path, changed.file, changed.is_new_file, id));
            }
        }
    }
    TestUses::of(db, task).attach(&mut out);
    ident::sort(&mut out);
    out
}

/// Public: neither it nor an enclosing definition is private (`_name` in Python, a `private`
/// Java declaration), and it is no local of a callable. Dunder names (`__init__`, `__eq__`)
/// are protocol, hence public.
fn is_public(index: &FileIndex, id: DefId) -> bool {
    let private = |d: DefId| {
        let def = index.definition(d);
        let dunder = def.name.len() > 4 && def.name.starts_with("__") && def.name.ends_with("__");
        // Modifiers precede the name: `private static int count`.
        let modifiers = def.signature.split(def.name.as_str()).next().unwrap_or_default();
        (def.name.starts_with('_') && !dunder) || modifiers.split_whitespace().any(|w| w == "private")
    };
    let def = index.definition(id);
    let local = def.parent.is_some_and(|p| index.definition(p).kind.is_callable());
    !local && !private(id) && index.ancestors(id).all(|a| !private(a))
}
