//! What a definition is across B and R ([`hintlens_syntax::scoping`]): its qualified name with
//! the scopes its file's macros open read as the repository defines them at that snapshot, less
//! inline (ABI) namespaces. So `namespace nlohmann {` at B and `NLOHMANN_JSON_NAMESPACE_BEGIN` at
//! R (`namespace nlohmann { inline namespace json_abi_v3_11_2 {`) leave every definition under
//! them the one it was.

use crate::resolve::Resolver;
use hintlens_db::{Db, SnapshotIndex, SourceFile, file_definitions, file_directives, qualified_name};
use hintlens_syntax::Definition;
use hintlens_syntax::scoping::{self, ScopeOp};
use std::cell::{OnceCell, RefCell};
use std::collections::HashMap;

/// How many files the search for a scope macro's definition reads at most: the file, then the
/// files it includes, nearest first.
const MAX_SEARCHED: usize = 256;

/// The identities of one file's definitions at one snapshot. The scope macros its marks name
/// are looked up on first need, each once.
pub(crate) struct Identities<'a> {
    db: &'a dyn Db,
    snapshot: &'a SnapshotIndex,
    path: &'a str,
    file: SourceFile,
    resolver: OnceCell<Resolver<'a>>,
    /// What each macro of the file's marks does, as the snapshot defines it (`None`: no scope
    /// macro of that name is found).
    ops: RefCell<HashMap<String, Option<Vec<ScopeOp>>>>,
}

impl<'a> Identities<'a> {
    pub fn new(db: &'a dyn Db, snapshot: &'a SnapshotIndex, path: &'a str, file: SourceFile) -> Identities<'a> {
        Identities { db, snapshot, path, file, resolver: OnceCell::new(), ops: RefCell::default() }
    }

    /// The identity of `definition`, one of the file's: its qualified name as the language
    /// spells it, scopes from macros put back and inline namespaces left out.
    pub fn of(&self, definition: &Definition) -> String {
        let index = file_definitions(self.db, self.file);
        if index.scope_marks.is_empty() && index.inline_scopes.is_empty() {
            return qualified_name(self.db, self.path, self.file, &definition.local_name);
        }
        let line = definition.name_span.start.line;
        for mark in index.scope_marks.iter().take_while(|m| m.line < line) {
            self.look_up(&mark.name);
        }
        let ops = self.ops.borrow();
        let local = scoping::identity(
            &definition.local_name,
            line,
            &index.scope_marks,
            |name| ops.get(name).and_then(|o| o.as_deref()),
            &index.inline_scopes,
        );
        qualified_name(self.db, self.path, self.file, &local)
    }

    /// Whether `name` is a scope macro where the file finds it: a mark naming it opens or
    /// closes scopes.
    pub fn is_scope_macro(&self, name: &str) -> bool {
        self.look_up(name);
        self.ops.borrow().get(name).is_some_and(Option::is_some)
    }

    /// Looks up what the macro `name` does, once.
    fn look_up(&self, name: &str) {
        if !self.ops.borrow().contains_key(name) {
            let resolver = self.resolver.get_or_init(|| Resolver::new(self.db, self.snapshot));
            let found = scope_macro(self.db, self.snapshot, resolver, self.path, self.file, name);
            self.ops.borrow_mut().insert(name.to_owned(), found);
        }
    }
}

/// What the scope macro `name` does, from its definition in `file` itself or in the nearest
/// file it includes (breadth first) that defines it as one.
fn scope_macro(
    db: &dyn Db,
    snapshot: &SnapshotIndex,
    resolver: &Resolver<'_>,
    path: &str,
    file: SourceFile,
    name: &str,
) -> Option<Vec<ScopeOp>> {
    // The preprocessor's reading: neither the files searched nor those passed through are parsed.
    let defined = |file: SourceFile| {
        file_directives(db, file).scope_macros.iter().find(|m| m.name == name).map(|m| m.ops.clone())
    };
    if let Some(ops) = defined(file) {
        return Some(ops);
    }
    let mut queue: std::collections::VecDeque<String> = std::collections::VecDeque::from([path.to_owned()]);
    let mut seen: std::collections::HashSet<String> = std::collections::HashSet::from([path.to_owned()]);
    while let Some(including) = queue.pop_front() {
        let Some(including_file) = snapshot.get(db, &including) else { continue };
        for import in &file_directives(db, including_file).includes {
            for target in resolver.include_target(&including, &import.module) {
                if seen.len() >= MAX_SEARCHED || !seen.insert(target.to_owned()) {
                    continue;
                }
                // Only a file whose words hold the name is looked into for its definition.
                if snapshot.may_name(db, target, name)
                    && let Some(ops) = snapshot.get(db, target).and_then(defined)
                {
                    return Some(ops);
                }
                queue.push_back(target.to_owned());
            }
        }
    }
    None
}
