//! `all-new`: every new public definition of the code change — the broad baseline.

use crate::evidence::TestUses;
use crate::newdefs::{changed_files, new_definitions};
use crate::{Identifier, Task, ident};
use hintlens_db::{Db, file_index};
use hintlens_syntax::{DefId, FileIndex, Frontend};

pub(crate) fn select(db: &dyn Db, task: &Task<'_>) -> Vec<Identifier> {
    let mut out = Vec::new();
    let resolver = crate::resolve::Resolver::new(db, task.reference);
    for changed in changed_files(db, task, task.code) {
        let index = file_index(db, changed.file);
        let frontend = db.frontend(changed.file.language(db));
        if let Some(module) = ident::new_module(db, task, &resolver, &changed) {
            out.push(module);
        }
        for id in new_definitions(db, &changed) {
            if is_public(frontend, index, id) {
                out.push(ident::definition(db, changed.path, changed.file, changed.is_new_file, id));
            }
        }
    }
    TestUses::of(db, task).attach(&mut out);
    ident::sort(&mut out);
    out
}

/// Public: neither it nor an enclosing definition is private (as its language says), and it is
/// no local of a callable.
fn is_public(frontend: &dyn Frontend, index: &FileIndex, id: DefId) -> bool {
    let private = |d: DefId| frontend.is_private(index.definition(d));
    let def = index.definition(id);
    let local = def.parent.is_some_and(|p| index.definition(p).kind.is_callable());
    !local && !private(id) && index.ancestors(id).all(|a| !private(a))
}
