//! What a change set made new: its files as they are in R with their counterparts in B, and
//! the definitions of R that B did not have.

use crate::Task;
use crate::scoping::Identities;
use hintlens_db::{
    Db, LanguageId, SnapshotIndex, SourceFile, file_definitions, file_directives, file_index, file_uses_on,
    qualified_name,
};
use hintlens_snapshot::{ChangeSet, FileChange, FileStatus};
use hintlens_syntax::{DefId, DefKind, Definition, FileIndex, Lines, ModuleDefinition};
use std::collections::{HashMap, HashSet};

/// A definition of R that B lacks, as far as the search knows: its qualified name, kind, the
/// parts of its local name (what a file of B must name to define it) and id.
type Missing<'a> = (String, DefKind, Vec<&'a str>, DefId);

/// A source file a change touched, as it is in R.
pub(crate) struct ChangedFile<'t> {
    pub path: &'t str,
    pub change: &'t FileChange,
    pub file: SourceFile,
    /// The file at B, under its old path for renames; `None` for a file the change adds.
    pub base: Option<(&'t str, SourceFile)>,
    /// Whether B has no file at this path.
    pub is_new_file: bool,
    /// The lines the change adds ([`FileChange::added_lines`]), as the file's reading keeps them.
    pub added: Lines,
    /// B as a whole, for the file's namespace siblings.
    base_snapshot: &'t SnapshotIndex,
    /// R as a whole, for the scope macros the file uses ([`Identities`]).
    reference_snapshot: &'t SnapshotIndex,
    /// The change set the file is one of: its files at B are where a type renamed or moved
    /// into this file comes from ([`ChangedFile::renamed_members`]).
    changes: &'t ChangeSet,
}

impl ChangedFile<'_> {
    /// What a selection reads of the file at R: every definition, and the uses on the lines
    /// the change adds ([`file_uses_on`]); not the bodies the change leaves alone.
    pub fn index<'db>(&self, db: &'db dyn Db) -> &'db FileIndex {
        file_uses_on(db, self.file, &self.added)
    }

    /// The (qualified name, kind) of the definitions B had where this file's definitions are
    /// compared — in its counterpart, and in the other files of B in the same directory and the
    /// same namespace ([`hintlens_syntax::Frontend::namespace`]: a Go package, a Java package),
    /// whose names the file shares: a definition moved between them is no news. Only those
    /// sharing a simple name with one of this file's are listed: the others cannot match. A
    /// definition of R whose qualified name B lacks but whose identity ([`Identities`]: scopes
    /// opened by macros read as each snapshot defines them, inline namespaces left out) is one
    /// of those B definitions' is listed under its R name too: a respelled scope is no news. So
    /// is a member of a type that B lacks but that is a type of B renamed or moved
    /// ([`ChangedFile::renamed_members`]), where that type of B had the member.
    pub fn at_base(&self, db: &dyn Db) -> HashSet<(String, DefKind)> {
        self.at_base_for(db, |_| true)
    }

    /// [`ChangedFile::at_base`] as far as it decides the definitions of R that `wanted` keeps:
    /// the counterpart's definitions all, the siblings' only where a wanted definition is
    /// missing from the counterpart.
    pub fn at_base_for(&self, db: &dyn Db, wanted: impl Fn(DefId) -> bool) -> HashSet<(String, DefKind)> {
        let index = self.index(db);
        // The types enclosing a wanted definition are wanted too: whether B had them decides
        // whether a member can be one a renamed type kept.
        let mut wanted: Vec<bool> = (0..index.definitions.len()).map(|i| wanted(i as DefId)).collect();
        let types = enclosing_types(index);
        for (i, d) in index.definitions.iter().enumerate() {
            if wanted[i] {
                for t in enclosing(&types, &d.local_name) {
                    wanted[t as usize] = true;
                }
            }
        }
        let wanted = |i: DefId| wanted[i as usize];
        // A definition of B shares a wanted one's qualified name only if it shares its simple
        // name (a qualified name ends with it): the others' qualified names are not built.
        let names: HashSet<&str> = index
            .definitions
            .iter()
            .enumerate()
            .filter(|&(i, _)| wanted(i as DefId))
            .map(|(_, d)| d.name.as_str())
            .collect();
        // Nothing wanted: B's counterpart is not even parsed.
        if names.is_empty() {
            return HashSet::new();
        }
        let definitions = |(path, b): (&str, SourceFile)| -> Vec<(String, DefKind)> {
            let named = file_definitions(db, b).definitions.iter().filter(|d| names.contains(d.name.as_str()));
            named.map(|d| (qualified_name(db, path, b, &d.local_name), d.kind)).collect()
        };
        let mut at_base: HashSet<(String, DefKind)> = self.base.into_iter().flat_map(definitions).collect();
        // The files of B read, for the identities of what is still missing.
        let mut read: Vec<(&str, SourceFile)> = self.base.into_iter().collect();
        // Only a sibling that names every part of a local name the counterpart lacks
        // (`Store.SetLimit`: `Store` and `SetLimit`) can define it: the others are not read (a
        // Java package directory holds hundreds of files).
        let mut missing: Vec<Missing<'_>> = index
            .definitions
            .iter()
            .enumerate()
            .filter(|&(i, _)| wanted(i as DefId))
            .map(|(i, d)| (qualified_name(db, self.path, self.file, &d.local_name), d.kind, d, i as DefId))
            .filter(|(qualified, kind, _, _)| !at_base.contains(&(qualified.clone(), *kind)))
            .map(|(qualified, kind, d, i)| (qualified, kind, d.local_name.split('.').collect(), i))
            .collect();
        missing.sort_unstable();
        missing.dedup_by(|a, b| (&a.0, a.1) == (&b.0, b.1));
        if let Some(namespace) = self.namespace(db) {
            // Siblings are parsed one at a time, each chosen among those naming every part of a
            // definition still missing: the modules every file of a Ruby gem reopens
            // (`module RuboCop`) are found in the first, and then only files naming the rest are
            // candidates — a truly new name leaves few, where every file names `RuboCop`.
            let mut visited: HashSet<&str> = HashSet::new();
            let reference = self.identities(db);
            // The identities in R of what is missing, as `may_define` asks for them.
            let mut identities: HashMap<DefId, String> = HashMap::new();
            while !missing.is_empty() {
                let parts: Vec<Vec<&str>> = missing.iter().map(|(_, _, parts, _)| parts.clone()).collect();
                // Words only: the one file chosen is read and parsed.
                let next = self.namespace_siblings(db, &parts).into_iter().find(|path| !visited.contains(path));
                let Some(path) = next else { break };
                visited.insert(path);
                let Some(b) = self.base_snapshot.get(db, path) else { continue };
                // A macro is the preprocessor's, in no namespace: one the sibling's directives
                // define is B's, found without a parse (Catch2's 500 KB amalgamation defines a
                // macro a task moves to a new header).
                if missing.iter().any(|(_, kind, _, _)| *kind == DefKind::Macro) {
                    let defined = &file_directives(db, b).macros;
                    let found = missing.iter().filter(|(qualified, kind, _, _)| {
                        *kind == DefKind::Macro && defined.iter().any(|m| m == qualified)
                    });
                    at_base.extend(found.map(|(qualified, kind, _, _)| (qualified.clone(), *kind)));
                    missing.retain(|(qualified, kind, _, _)| !at_base.contains(&(qualified.clone(), *kind)));
                    if missing.is_empty() {
                        break;
                    }
                }
                // Nor is one whose text cannot define what is missing (an amalgamated header
                // names every word of its library); one read already answers from its index.
                if db.read(b).is_none() && !self.may_define(db, path, b, &missing, &reference, &mut identities) {
                    continue;
                }
                if db.frontend(b.language(db)).namespace(path, file_definitions(db, b)).as_deref()
                    != Some(namespace.as_str())
                {
                    continue;
                }
                at_base.extend(definitions((path, b)));
                read.push((path, b));
                missing.retain(|(qualified, kind, _, _)| !at_base.contains(&(qualified.clone(), *kind)));
            }
        }
        self.same_identities(db, &read, &missing, &mut at_base);
        self.renamed_members(db, &types, &missing, &mut at_base);
        at_base
    }

    /// Adds to `at_base` each of `missing` (R's qualified name, kind, parts, id) still missing
    /// that is a member of a type B lacks (`Faker::IdNumber`) which is a type of B renamed or
    /// moved ([`ChangedFile::renamed_from`]: `Faker::IDNumber`), where that type had a member of
    /// the same name and kind: the member is the base's, found by reading the renamed type. Of
    /// the types enclosing a member, the nearest that has a counterpart decides. The renamed
    /// type itself stays missing: its name is what the tests spell.
    fn renamed_members(
        &self,
        db: &dyn Db,
        types: &HashMap<&str, DefId>,
        missing: &[Missing<'_>],
        at_base: &mut HashSet<(String, DefKind)>,
    ) {
        let index = self.index(db);
        let lacks = |t: DefId| {
            let d = index.definition(t);
            !at_base.contains(&(qualified_name(db, self.path, self.file, &d.local_name), d.kind))
        };
        // Each member still missing, with the types enclosing it that B lacks, nearest first.
        let members: Vec<(&Missing<'_>, Vec<DefId>)> = missing
            .iter()
            .filter(|(qualified, kind, _, _)| !at_base.contains(&(qualified.clone(), *kind)))
            .map(|m| (m, enclosing(types, &index.definition(m.3).local_name).filter(|&t| lacks(t)).collect::<Vec<_>>()))
            .filter(|(_, enclosing)| !enclosing.is_empty())
            .collect();
        let mut counterparts: HashMap<DefId, Option<(SourceFile, String)>> = HashMap::new();
        for ((qualified, kind, _, id), enclosing) in members {
            let d = index.definition(*id);
            for t in enclosing {
                let counterpart = counterparts.entry(t).or_insert_with(|| self.renamed_from(db, t));
                let Some((b, local)) = counterpart else { continue };
                let was = format!("{local}{}", &d.local_name[index.definition(t).local_name.len()..]);
                if file_definitions(db, *b).definitions.iter().any(|e| e.kind == *kind && e.local_name == was) {
                    at_base.insert((qualified.clone(), *kind));
                }
                break;
            }
        }
    }

    /// The type of B that the type `t` of R (one B lacks) is, renamed or moved: among the types
    /// of the same kind in the files of B the change touches that R's changed files lack, the
    /// one whose members (by local name within the type, and kind) mostly match `t`'s — more
    /// than half of each side's are common to both —, the most in common first, then one of the
    /// same simple name (a move), then the first by path; as its file at B and its local name.
    /// Only files whose words name more than half of `t`'s members' names are parsed.
    fn renamed_from(&self, db: &dyn Db, t: DefId) -> Option<(SourceFile, String)> {
        let index = self.index(db);
        let td = index.definition(t);
        let ours = members_of(index, &td.local_name);
        if ours.is_empty() {
            return None;
        }
        let names: HashSet<&str> = ours.iter().map(|(within, _)| within.rsplit('.').next().unwrap_or(within)).collect();
        // The changed files of R, for whether a type of B is still there: read when a type of B
        // first matches.
        let reference: std::cell::OnceCell<Vec<(&str, SourceFile)>> = std::cell::OnceCell::new();
        let still_in_r = |qualified: &str, e: &Definition| {
            let reference = reference.get_or_init(|| {
                let files = self.changes.files.iter().filter(|(_, c)| c.status != FileStatus::Deleted);
                files.filter_map(|(path, _)| Some((path.as_str(), self.reference_snapshot.get(db, path)?))).collect()
            });
            reference.iter().any(|&(path, r)| {
                file_definitions(db, r).definitions.iter().any(|x| {
                    x.name == e.name && x.kind == e.kind && qualified_name(db, path, r, &x.local_name) == qualified
                })
            })
        };
        let mut best: Option<(usize, bool, SourceFile, String)> = None;
        for (path, change) in &self.changes.files {
            if change.status == FileStatus::Added {
                continue;
            }
            let base_path = change.old_path.as_deref().unwrap_or(path);
            let named = names.iter().filter(|n| self.base_snapshot.may_name(db, base_path, n)).count();
            if named * 2 <= names.len() {
                continue;
            }
            let Some(b) = self.base_snapshot.get(db, base_path) else { continue };
            if b.language(db) != self.file.language(db) {
                continue;
            }
            let base = file_definitions(db, b);
            // The members of each type of `t`'s kind, in one pass over the file.
            let kind_types: HashMap<&str, DefId> =
                enclosing_types(base).into_iter().filter(|&(_, e)| base.definition(e).kind == td.kind).collect();
            let mut members: HashMap<DefId, HashSet<(&str, DefKind)>> = HashMap::new();
            for x in base.definitions.iter().filter(|x| x.kind != DefKind::Parameter) {
                for e in enclosing(&kind_types, &x.local_name) {
                    let within = &x.local_name[base.definition(e).local_name.len()..];
                    members.entry(e).or_default().insert((within, x.kind));
                }
            }
            let mut candidates: Vec<(DefId, HashSet<(&str, DefKind)>)> = members.into_iter().collect();
            candidates.sort_unstable_by_key(|(e, _)| *e);
            for (e, theirs) in candidates {
                let e = base.definition(e);
                let common = ours.intersection(&theirs).count();
                if common * 2 <= ours.len() || common * 2 <= theirs.len() {
                    continue;
                }
                let moved = e.name == td.name;
                if best.as_ref().is_some_and(|(c, m, _, _)| (*c, *m) >= (common, moved)) {
                    continue;
                }
                if still_in_r(&qualified_name(db, base_path, b, &e.local_name), e) {
                    continue;
                }
                best = Some((common, moved, b, e.local_name.clone()));
            }
        }
        best.map(|(_, _, b, local)| (b, local))
    }

    /// Adds to `at_base` each of `missing` (R's qualified name, kind, parts, id) whose identity
    /// is that of a definition of the same simple name and kind in the files `read` of B. Only
    /// files with scopes spelled by macros or inline namespaces can differ so, and only such a
    /// pair has its identities built (the macros they use looked up then).
    fn same_identities(
        &self,
        db: &dyn Db,
        read: &[(&str, SourceFile)],
        missing: &[Missing<'_>],
        at_base: &mut HashSet<(String, DefKind)>,
    ) {
        let spelled = |file: SourceFile| {
            let index = file_definitions(db, file);
            !index.scope_marks.is_empty() || !index.inline_scopes.is_empty()
        };
        if missing.is_empty() || (!spelled(self.file) && !read.iter().any(|&(_, b)| spelled(b))) {
            return;
        }
        let index = self.index(db);
        let reference = self.identities(db);
        let mut bases: Vec<Option<Identities<'_>>> = read.iter().map(|_| None).collect();
        for (qualified, kind, _, id) in missing {
            let d = index.definition(*id);
            let mut identity = None;
            for (n, &(path, b)) in read.iter().enumerate() {
                let named: Vec<&Definition> = file_definitions(db, b)
                    .definitions
                    .iter()
                    .filter(|e| e.name == d.name && e.kind == *kind)
                    .collect();
                if named.is_empty() {
                    continue;
                }
                let identity = identity.get_or_insert_with(|| reference.of(d));
                let base = bases[n].get_or_insert_with(|| Identities::new(db, self.base_snapshot, path, b));
                if named.iter().any(|e| base.of(e) == *identity) {
                    at_base.insert((qualified.clone(), *kind));
                    break;
                }
            }
        }
    }

    /// Whether the file `b` of B at `path` may define one of `missing`: a definition of its
    /// kind whose qualified name is its name in R or its identity there (`reference`), as the
    /// frontend reads `b`'s text without a parse ([`hintlens_syntax::Frontend::may_define`]),
    /// the scope macros of `b`'s marks looked up as its [`Identities`] would. `identities`
    /// keeps the identities computed, for the next file asked about.
    fn may_define(
        &self,
        db: &dyn Db,
        path: &str,
        b: SourceFile,
        missing: &[Missing<'_>],
        reference: &Identities<'_>,
        identities: &mut HashMap<DefId, String>,
    ) -> bool {
        let index = self.index(db);
        for (_, _, _, id) in missing {
            identities.entry(*id).or_insert_with(|| reference.of(index.definition(*id)));
        }
        let mut wanted: Vec<(&str, DefKind)> = Vec::with_capacity(2 * missing.len());
        for (qualified, kind, _, id) in missing {
            wanted.push((qualified, *kind));
            if identities[id] != *qualified {
                wanted.push((&identities[id], *kind));
            }
        }
        let base = Identities::new(db, self.base_snapshot, path, b);
        db.frontend(b.language(db)).may_define(b.text(db), &wanted, &mut |name| base.is_scope_macro(name))
    }

    /// The identities of the file's definitions in R.
    pub fn identities<'s>(&'s self, db: &'s dyn Db) -> Identities<'s> {
        Identities::new(db, self.reference_snapshot, self.path, self.file)
    }

    /// The namespace the file has in R ([`hintlens_syntax::Frontend::namespace`]).
    fn namespace(&self, db: &dyn Db) -> Option<String> {
        db.frontend(self.file.language(db)).namespace(self.path, self.index(db))
    }

    /// The files of B beside this one (its directory, or anywhere where the language's
    /// namespaces span directories) that name every part of one of `names`, its own
    /// counterpart left out, nearest first (most leading directories shared with this file,
    /// then path order): those that can share its namespace and define one of them.
    ///
    /// Which of them are read changes no answer (a name still missing has every file naming
    /// it read), only the cost: the nearest file defines a reopened namespace or a moved
    /// definition as well as any, where path order would often read first an example or an
    /// amalgamated copy of the whole library (`extras/catch_amalgamated.hpp`, 400 KB).
    fn namespace_siblings(&self, db: &dyn Db, names: &[Vec<&str>]) -> Vec<&str> {
        let language = self.file.language(db);
        let dir = self.path.rsplit_once('/').map_or("", |(dir, _)| dir);
        let own = self.base.map(|(p, _)| p);
        let files = match db.frontend(language).namespace_spans_directories() {
            true => self.base_snapshot.of_language_naming(db, language, names),
            false => self.base_snapshot.in_directory_naming(db, dir, language, names),
        };
        let mut files: Vec<&str> = files.into_iter().filter(|&p| Some(p) != own && p != self.path).collect();
        // Stable: path order among files equally near.
        files.sort_by_key(|path| std::cmp::Reverse(shared_directories(dir, path)));
        files
    }
}

/// How many leading directories of `dir` hold `path` too.
fn shared_directories(dir: &str, path: &str) -> usize {
    let parent = path.rsplit_once('/').map_or("", |(parent, _)| parent);
    dir.split('/').zip(parent.split('/')).take_while(|(a, b)| a == b && !a.is_empty()).count()
}

/// The types of a file by local name.
fn enclosing_types(index: &FileIndex) -> HashMap<&str, DefId> {
    let types = index.definitions.iter().enumerate().filter(|(_, d)| d.kind.is_type());
    types.map(|(i, d)| (d.local_name.as_str(), i as DefId)).collect()
}

/// The types of `types` enclosing the definition of local name `local` (`Faker.IdNumber` of
/// `Faker.IdNumber.valid`), nearest first.
fn enclosing<'a>(types: &'a HashMap<&str, DefId>, local: &'a str) -> impl Iterator<Item = DefId> + 'a {
    local.rmatch_indices('.').filter_map(|(at, _)| types.get(&local[..at]).copied())
}

/// The definitions of the file inside the one of local name `local`, by their local name
/// within it (`.valid` of `Faker.IDNumber.valid`) and kind.
fn members_of<'i>(index: &'i FileIndex, local: &str) -> HashSet<(&'i str, DefKind)> {
    let members = index.definitions.iter().filter_map(|d| {
        let within = d.local_name.strip_prefix(local)?;
        within.starts_with('.').then_some((within, d.kind))
    });
    members.filter(|(_, kind)| *kind != DefKind::Parameter).collect()
}

/// The source files of `changes` that R holds (deleted files and files no frontend claims
/// are left out), in path order.
pub(crate) fn changed_files<'t>(db: &dyn Db, task: &Task<'t>, changes: &'t ChangeSet) -> Vec<ChangedFile<'t>> {
    changes
        .files
        .iter()
        .filter(|(_, change)| change.status != FileStatus::Deleted)
        .filter_map(|(path, change)| {
            let file = task.reference.get(db, path)?;
            let base_path = change.old_path.as_deref().unwrap_or(path);
            let base = match change.status {
                FileStatus::Added => None,
                _ => task.base.get(db, base_path).map(|b| (base_path, b)),
            };
            let is_new_file = !task.base.contains(path);
            Some(ChangedFile {
                path,
                change,
                file,
                base,
                is_new_file,
                added: Lines::new(change.added_lines.iter().copied()),
                base_snapshot: task.base,
                reference_snapshot: task.reference,
                changes,
            })
        })
        .collect()
}

/// The module a changed file makes new, as a definition: the file when the change adds it (a
/// `file`), or its directory when its language's modules are directories and B had no file of
/// that language there (a Go `package`). A file that is just the home of a type of its name (a
/// Java `Foo.java` declaring `class Foo`) makes none: the type stands for it.
pub(crate) fn new_module(db: &dyn Db, task: &Task<'_>, changed: &ChangedFile<'_>) -> Option<ModuleDefinition> {
    if changed.base.is_some() {
        return None;
    }
    let language = changed.file.language(db);
    let index = changed.index(db);
    let frontend = db.frontend(language);
    // A manifest (Go's `go.mod`) is no module of its own.
    if frontend.is_manifest(changed.path) {
        return None;
    }
    let module = frontend.module_definition(changed.path, index);
    if module.kind == DefKind::File
        && index.definitions.iter().any(|d| d.parent.is_none() && d.name == module.name && d.kind.is_type())
    {
        return None;
    }
    if module.path != changed.path {
        // A directory module: new only if B had no source file of its language directly in it.
        let in_directory = |path: &str| path.rsplit_once('/').map_or("", |(dir, _)| dir) == module.path;
        let source = |path: &str, file_language: LanguageId| file_language == language && !frontend.is_manifest(path);
        if task.base.paths(db).any(|(path, file_language)| in_directory(path) && source(path, file_language)) {
            return None;
        }
    }
    Some(module)
}

/// Definitions of the file in R with no definition of the same qualified name, or identity
/// ([`Identities`]), and kind in its B counterpart ([`ChangedFile::at_base`]), in source order. Parameters are left out: policies that want them (DefUse)
/// treat them apart.
pub(crate) fn new_definitions(db: &dyn Db, changed: &ChangedFile<'_>) -> Vec<DefId> {
    let at_base = changed.at_base(db);
    let index = changed.index(db);
    index
        .definitions
        .iter()
        .enumerate()
        .filter(|(_, d)| d.kind != DefKind::Parameter)
        // A `#[cfg(test)]` module's helpers are the tests', whichever change adds them.
        .filter(|(_, d)| !index.in_tests(d.name_span.start.line))
        .filter(|(_, d)| !at_base.contains(&(qualified_name(db, changed.path, changed.file, &d.local_name), d.kind)))
        .map(|(i, _)| i as DefId)
        .collect()
}

/// Moves what the code change adds inside the test regions of source files (Rust's
/// `#[cfg(test)]` modules and `#[test]` functions, [`hintlens_syntax::FileIndex::tests`]) to the
/// test change. For changes split by path — a commit's diff, the editor's work tree — which
/// cannot see those regions; a benchmark's own patches say what is test and are left as they are.
pub fn split_test_regions(
    db: &dyn Db,
    reference: &SnapshotIndex,
    mut code: ChangeSet,
    mut test: ChangeSet,
) -> (ChangeSet, ChangeSet) {
    for (path, change) in code.files.iter_mut() {
        let Some(file) = reference.get(db, path) else { continue };
        if change.added_lines.is_empty() {
            continue;
        }
        let index = file_index(db, file);
        if index.tests.is_empty() {
            continue;
        }
        let (moved, kept): (Vec<u32>, Vec<u32>) = change.added_lines.iter().partition(|&&line| index.in_tests(line));
        if moved.is_empty() {
            continue;
        }
        change.added_lines = kept;
        let entry = test.files.entry(path.clone()).or_insert_with(|| FileChange {
            status: change.status,
            old_path: change.old_path.clone(),
            added_lines: Vec::new(),
            binary: false,
        });
        entry.added_lines.extend(moved);
        entry.added_lines.sort_unstable();
        entry.added_lines.dedup();
    }
    (code, test)
}

#[cfg(test)]
mod tests {
    use super::shared_directories;
    use crate::Task;
    use crate::test_support::{database_counting_parses, snapshot};
    use hintlens_snapshot::{NoBlobs, changes_between};

    /// Catch2's `directCompare` moved from `Catch::Benchmark::Detail` to `Catch::Detail`, and a
    /// test calls it there: news (and so is the namespace), with `extras/amalgamated.hpp` — which names every word of the
    /// name, but defines and calls it only in and under `Catch::Benchmark` — never parsed. Where
    /// another file of B defines it in `Catch::Detail` already, that file is read and the name is
    /// no news.
    /// The C++ selection of a task from `base` to `reference` (its tests under `tests/`), and
    /// how many files it parsed.
    fn selection_and_parses(base: &[(&str, &str)], reference: &[(&str, &str)]) -> (Vec<String>, usize) {
        let (db, parsed) = database_counting_parses(hintlens_c::frontends());
        let (base, reference) = (snapshot(base), snapshot(reference));
        let (code, test) = changes_between(&base, &reference, &NoBlobs, |p| p.starts_with("tests/")).unwrap();
        let (base, reference) =
            (db.snapshot_on_demand(&base, Box::new(NoBlobs)), db.snapshot_on_demand(&reference, Box::new(NoBlobs)));
        let task =
            Task { base: &base, reference: &reference, code: &code, test: &test, problem_statement: "", told: "" };
        let selected: Vec<String> = crate::defuse::select(&db, &task).into_iter().map(|id| id.qualified_name).collect();
        (selected, *parsed.lock().unwrap())
    }

    #[test]
    fn a_file_of_the_base_that_cannot_define_a_moved_name_is_not_parsed() {
        let before = "namespace Catch { namespace Benchmark { namespace Detail {\n\
                      double directCompare(double a, double b) { return a - b; }\n} } }\n";
        let after = "namespace Catch { namespace Detail {\n\
                     double directCompare(double a, double b) { return a - b; }\n} }\n";
        let amalgamated = "namespace Catch { namespace Benchmark { namespace Detail {\n\
                           double directCompare(double a, double b);\n} }\n\
                           namespace Benchmark { double run() { return Detail::directCompare(1, 2); } } }\n";
        let test = "#include \"fp.hpp\"\nTEST(Fp, Compare) { Catch::Detail::directCompare(1, 2); }\n";
        let selection = |sibling: &str| {
            selection_and_parses(
                &[("src/fp.hpp", before), ("extras/amalgamated.hpp", sibling)],
                &[("src/fp.hpp", after), ("extras/amalgamated.hpp", sibling), ("tests/fp_test.cpp", test)],
            )
        };
        assert_eq!(
            selection(amalgamated),
            (vec!["Catch::Detail".to_owned(), "Catch::Detail::directCompare".to_owned()], 3),
            "fp.hpp at B and R, and the test"
        );
        let defines = format!(
            "{amalgamated}namespace Catch {{ namespace Detail {{ double directCompare(double, double); }} }}\n"
        );
        assert_eq!(selection(&defines), (vec![], 4), "the amalgamation too");
    }

    #[test]
    fn a_macro_a_file_of_the_base_defines_is_found_in_its_directives_without_a_parse() {
        let helpers = "#pragma once\n#define CarryBits( x ) ( x >> 32 )\nint carry(int x);\n";
        let amalgamated = "#define CarryBits( x ) ( x >> 32 )\nnamespace Catch { int carry(int x); }\n";
        let test = "#include \"helpers.hpp\"\nTEST(Bits, Carry) { CarryBits(1); }\n";
        let selection = |sibling: &str| {
            selection_and_parses(
                &[("extras/amalgamated.hpp", sibling)],
                &[("src/helpers.hpp", helpers), ("extras/amalgamated.hpp", sibling), ("tests/bits_test.cpp", test)],
            )
        };
        // The macro moved: the new header and the test are parsed, the amalgamation is not.
        assert_eq!(selection(amalgamated), (vec!["src/helpers".to_owned()], 2));
        // One the amalgamation only uses is new: its parse says so.
        let names = "namespace Catch { int carry(int x) { return CarryBits(x); } }\n";
        assert_eq!(selection(names), (vec!["src/helpers".to_owned(), "CarryBits".to_owned()], 3));
    }

    #[test]
    fn nearness_counts_whole_leading_directories() {
        assert_eq!(shared_directories("src/catch2/internal", "src/catch2/internal/catch_a.hpp"), 3);
        assert_eq!(shared_directories("src/catch2/internal", "src/catch2/catch_all.hpp"), 2);
        assert_eq!(shared_directories("src/catch2/internal", "extras/catch_amalgamated.hpp"), 0);
        // A directory is a whole segment: `src/catch` is not `src/catch2`.
        assert_eq!(shared_directories("src/catch2", "src/catch/x.hpp"), 1);
        assert_eq!(shared_directories("", "a.c"), 0);
        assert_eq!(shared_directories("src", "main.c"), 0);
    }
}
