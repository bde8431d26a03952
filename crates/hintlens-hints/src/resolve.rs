//! How a use reaches a definition of another file: through an import of its module (following
//! re-exports), a wildcard import, the language's own visibility, or not at all.
//!
//! Scope is the frontend's knowledge — each use says how its head is bound
//! ([`hintlens_syntax::Binding`]) — and resolution is the core's: which module an import names
//! ([`Frontend::import_target`]), whether that module is one of the repository's, and whether
//! its chain of imports ends at the definition. Modules are looked up in the reference snapshot
//! R, by path first and then by the frontend's module name, so only the files an answer needs
//! are read.

use hintlens_db::{
    Db, LanguageId, SnapshotIndex, SourceFile, file_definitions, file_directives, module_name, path_module_name,
};
use hintlens_syntax::{FileIndex, Frontend, Import, ModuleRoot};
use std::cell::{OnceCell, RefCell};
use std::collections::{HashMap, HashSet};
use std::rc::Rc;

/// How far re-exports are followed (`pkg/__init__.py` importing from `pkg.sub`, which imports
/// from `pkg.sub.impl`…) before the answer is "unknown".
const MAX_REEXPORTS: usize = 6;

/// Where a spelled path leads, as far as the repository says.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Reach {
    /// To the definition.
    Resolved,
    /// Into a module of the repository whose chain could not be followed to the end.
    Unknown,
    /// Through another definition of the repository to a member of it (`mod.PLOT.render`: the
    /// module defines `PLOT`, a value whose type is unknown, and `render` is its member).
    Within,
    /// To another definition of the repository (the module defines or imports the name itself).
    Elsewhere,
    /// Out of the repository: a standard or third-party module.
    External,
}

impl Reach {
    /// The better of two answers for one use reached two ways.
    fn or(self, other: Reach) -> Reach {
        self.min(other)
    }
}

/// What a use must reach: a definition's repository-wide qualified name.
pub(crate) struct Target<'a> {
    pub qualified_name: &'a str,
}

/// The using file, with what resolution reads of it.
pub(crate) struct Using<'a> {
    pub path: &'a str,
    pub index: &'a FileIndex,
    pub module: String,
    pub frontend: &'a dyn Frontend,
    pub language: LanguageId,
}

impl<'a> Using<'a> {
    pub fn new(db: &'a dyn Db, path: &'a str, file: SourceFile) -> Using<'a> {
        Using {
            path,
            index: file_definitions(db, file),
            module: module_name(db, path, file),
            frontend: db.frontend(file.language(db)),
            language: file.language(db),
        }
    }

    /// The import that binds `name` in this file (the last one, as in Python).
    pub fn import_binding(&self, name: &str) -> Option<&'a Import> {
        self.index.imports.iter().rev().find(|i| i.bound_name() == Some(name))
    }
}

/// Module lookups in R for one task, cached.
pub(crate) struct Resolver<'a> {
    db: &'a dyn Db,
    reference: &'a SnapshotIndex,
    /// Every path of R split into components (directories, then the file name split at dots),
    /// built on first need.
    paths: OnceCell<Vec<(&'a str, LanguageId, Vec<&'a str>)>>,
    modules: RefCell<HashMap<String, Vec<(&'a str, SourceFile)>>>,
    /// The module roots of R ([`Frontend::manifest_roots`], [`Frontend::conventional_root`]),
    /// built on first need.
    roots: OnceCell<Vec<Root>>,
    /// R's paths by file name (`core.h` → `include/fmt/core.h`, …), for includes by suffix.
    by_file_name: OnceCell<HashMap<&'a str, Vec<&'a str>>>,
    /// The files each file includes, transitively ([`Resolver::includes`]), by including path.
    included: RefCell<HashMap<String, Rc<HashSet<&'a str>>>>,
    /// Whether R's code names each conventional loader ([`Frontend::conventional_loader`]):
    /// asked for every use site a new file may be loaded for, answered by every file's words.
    loaders: RefCell<HashMap<&'static str, bool>>,
}

/// How many files an include closure reads at most (a header including the whole library is
/// read so far, then the rest is by name).
const MAX_INCLUDED: usize = 512;

/// A root of a language's modules in R: one a manifest declares (Go's `go.mod`, PHP's
/// `composer.json`), its directory relative to the repository; or one the language's convention
/// makes (Ruby's `lib/`), which leads names to files but no import out of the repository.
struct Root {
    language: LanguageId,
    root: ModuleRoot,
    conventional: bool,
}

impl<'a> Resolver<'a> {
    pub fn new(db: &'a dyn Db, reference: &'a SnapshotIndex) -> Resolver<'a> {
        Resolver {
            db,
            reference,
            paths: OnceCell::new(),
            modules: RefCell::default(),
            roots: OnceCell::new(),
            by_file_name: OnceCell::new(),
            included: RefCell::default(),
            loaders: RefCell::default(),
        }
    }

    /// The module an import written as `written` names, in the notation of module names; `None`
    /// when the roots of the using file's language say it lies outside the repository.
    pub fn import_module(&self, using: &Using<'_>, written: &str) -> Option<String> {
        let module = using.frontend.import_target(using.path, &using.module, written);
        let mut roots = self.roots().iter().filter(|r| r.language == using.language && !r.conventional).peekable();
        // A module the frontend resolved against the importing file (Rust's `crate::`,
        // `super::`) is the repository's already.
        if roots.peek().is_none() || module != written {
            return Some(module);
        }
        // The longest prefix first: a nested module (`go.flipt.io/flipt/errors`) wins over the
        // one around it.
        roots.find_map(|r| using.frontend.module_below_root(&r.root, &module))
    }

    /// Whether an autoloader of `language` loads the file `path` for the fully qualified name
    /// `name` (dotted: `App.Http.Client`, `Shop.Cart`), by the roots of R
    /// ([`Frontend::file_below_root`]). Case and `_` aside: inflections differ in where words
    /// split (rubocop's `RuboCop` is `rubocop/`, not `rubo_cop/`), and PHP's class names ignore
    /// case.
    pub fn autoloads(&self, language: LanguageId, name: &str, path: &str) -> bool {
        let frontend = self.db.frontend(language);
        let wanted = loose(path);
        // A conventional root's files are loaded by name only where R's code sets the loader up.
        let loaded = |r: &Root| {
            !r.conventional || frontend.conventional_loader(&r.root.dir).is_none_or(|loader| self.names_loader(loader))
        };
        self.roots()
            .iter()
            .filter(|r| r.language == language && path.starts_with(r.root.dir.as_str()) && loaded(r))
            .filter_map(|r| frontend.file_below_root(&r.root, name))
            .any(|candidate| candidate == path || loose(&candidate) == wanted)
    }

    /// Whether R's code names `loader` (`Zeitwerk`), once per resolver.
    fn names_loader(&self, loader: &'static str) -> bool {
        if let Some(&named) = self.loaders.borrow().get(loader) {
            return named;
        }
        let named = self.reference.occurrences(self.db, loader) > 0;
        self.loaders.borrow_mut().insert(loader, named);
        named
    }

    /// Whether R holds module roots of `language` (manifests' or the convention's).
    pub fn has_roots(&self, language: LanguageId) -> bool {
        self.roots().iter().any(|r| r.language == language)
    }

    /// R's own copy of `path`, if R holds it.
    fn stored_path(&self, path: &str) -> Option<&'a str> {
        let name = path.rsplit('/').next().unwrap_or(path);
        self.paths_by_file_name().get(name)?.iter().copied().find(|&p| p == path)
    }

    /// Whether the file at `using` includes `path`, directly or through the files it includes
    /// (C, C++: each `#include` is an import of the path as written, [`Resolver::include_target`]).
    pub fn includes(&self, using: &str, path: &str) -> bool {
        let closure = self.included.borrow().get(using).cloned();
        let closure = match closure {
            Some(closure) => closure,
            None => {
                let closure = Rc::new(self.include_closure(using));
                self.included.borrow_mut().insert(using.to_owned(), Rc::clone(&closure));
                closure
            }
        };
        closure.contains(path)
    }

    /// Every file of R that `path` includes, transitively, up to [`MAX_INCLUDED`] files.
    fn include_closure(&self, path: &str) -> HashSet<&'a str> {
        let mut seen: HashSet<&'a str> = HashSet::new();
        let mut queue: Vec<String> = vec![path.to_owned()];
        while let Some(including) = queue.pop() {
            let Some(file) = self.reference.get(self.db, &including) else { continue };
            // The preprocessor's reading: the files passed through are read, not parsed.
            for import in &file_directives(self.db, file).includes {
                for target in self.include_target(&including, &import.module) {
                    if seen.len() < MAX_INCLUDED && seen.insert(target) {
                        queue.push(target.to_owned());
                    }
                }
            }
        }
        seen
    }

    /// The files of R an `#include` of `written` in `including` names: the path relative to the
    /// including file when R holds it, else the files whose paths end with the most of its
    /// components (include directories are unknown: `<fmt/core.h>` is `include/fmt/core.h`);
    /// none when no file has its name (a system or third-party header).
    pub fn include_target(&self, including: &str, written: &str) -> Vec<&'a str> {
        let dir = including.rsplit_once('/').map_or("", |(dir, _)| dir);
        let mut parts: Vec<&str> = dir.split('/').filter(|p| !p.is_empty()).collect();
        for part in written.split('/') {
            match part {
                "." | "" => {}
                ".." => {
                    parts.pop();
                }
                part => parts.push(part),
            }
        }
        let by_name = self.paths_by_file_name();
        let name = written.rsplit('/').next().unwrap_or(written);
        let Some(candidates) = by_name.get(name) else { return Vec::new() };
        let relative = parts.join("/");
        if let Some(&exact) = candidates.iter().find(|&&c| c == relative) {
            return vec![exact];
        }
        let written: Vec<&str> = written.split('/').filter(|p| !matches!(*p, "" | "." | "..")).collect();
        let matched =
            |candidate: &str| candidate.rsplit('/').zip(written.iter().rev()).take_while(|(a, b)| a == *b).count();
        let best = candidates.iter().map(|c| matched(c)).max().unwrap_or(0);
        candidates.iter().copied().filter(|c| matched(c) == best).collect()
    }

    fn paths_by_file_name(&self) -> &HashMap<&'a str, Vec<&'a str>> {
        self.by_file_name.get_or_init(|| {
            let mut map: HashMap<&'a str, Vec<&'a str>> = HashMap::new();
            for (path, _) in self.reference.paths(self.db) {
                map.entry(path.rsplit('/').next().unwrap_or(path)).or_default().push(path);
            }
            map
        })
    }

    fn roots(&self) -> &Vec<Root> {
        self.roots.get_or_init(|| module_roots(self.db, self.reference))
    }

    /// Where `import`, followed by the names `after` (`import m` then `m.x.y`: `after` is
    /// `[x, y]`), leads.
    pub fn through_import(&self, using: &Using<'_>, import: &Import, after: &[&str], target: &Target<'_>) -> Reach {
        let Some(module) = self.import_module(using, &import.module) else { return Reach::External };
        let mut path: Vec<&str> = components(&module).collect();
        match (&import.name, &import.alias) {
            (Some(name), _) => path.push(name),
            // `import a.b.c` binds `a`, the top package.
            (None, None) if !import.wildcard => path.truncate(1),
            _ => {}
        }
        path.extend_from_slice(after);
        self.spelled(&path, target, 0)
    }

    /// Where a free name, followed by the names `after`, reaches through the file's wildcard
    /// imports: the best answer of any.
    pub fn through_wildcards(
        &self,
        using: &Using<'_>,
        name: &str,
        after: &[&str],
        target: &Target<'_>,
    ) -> Option<Reach> {
        using
            .index
            .imports
            .iter()
            .filter(|i| i.wildcard)
            .map(|i| {
                let Some(module) = self.import_module(using, &i.module) else { return Reach::External };
                let mut path: Vec<&str> = components(&module).collect();
                path.push(name);
                path.extend_from_slice(after);
                self.spelled(&path, target, 0)
            })
            .reduce(Reach::or)
    }

    /// Where a fully spelled path (`pkg.mod.Class.method`, as an import, a qualified name or a
    /// string writes it) leads.
    pub fn spelled(&self, path: &[&str], target: &Target<'_>, depth: usize) -> Reach {
        if dotted_eq(&path.join("."), target.qualified_name) {
            return Reach::Resolved;
        }
        if depth >= MAX_REEXPORTS {
            return Reach::Unknown;
        }
        // The longest prefix that is a module of the repository, then the name in it.
        for split in (1..path.len()).rev() {
            let module = path[..split].join(".");
            if !self.module_files(&module).is_empty() {
                return self.member(&module, path[split], &path[split + 1..], target, depth);
            }
        }
        match path.first() {
            Some(first) if self.in_repository(&[first]) => Reach::Unknown,
            _ => Reach::External,
        }
    }

    /// Where `module.member.rest…` leads when `module` is a module of the repository: the
    /// member is defined there, or imported there from elsewhere (a re-export), which is
    /// followed. Of several bindings in one file the last one wins, as in Python
    /// (`from .impl import *` then `def swarm(): …` makes `swarm` the module's own).
    fn member(&self, module: &str, member: &str, rest: &[&str], target: &Target<'_>, depth: usize) -> Reach {
        let files = self.module_files(module);
        // A module whose imports are not its members has only its files' own definitions: only
        // the files that name the member can define it, and only those are read.
        if let Some(&(_, first)) = files.first()
            && !self.db.frontend(first.language(self.db)).imports_are_members()
        {
            let defines = files
                .iter()
                .filter(|(path, _)| self.reference.may_name(self.db, path, member))
                .any(|&(_, file)| file_definitions(self.db, file).definitions.iter().any(|d| is_top_level(d, member)));
            return if !defines {
                Reach::Unknown
            } else if rest.is_empty() {
                Reach::Elsewhere
            } else {
                Reach::Within
            };
        }
        let mut answer: Option<Reach> = None;
        for (path, file) in files {
            let using = Using::new(self.db, path, file);
            // (line, reach) of the last binding of `member` seen so far in this file.
            let mut last: Option<(u32, Reach)> = using
                .index
                .definitions
                .iter()
                .filter(|d| is_top_level(d, member))
                .map(|d| (d.name_span.start.line, if rest.is_empty() { Reach::Elsewhere } else { Reach::Within }))
                .max_by_key(|&(line, _)| line);
            for import in &using.index.imports {
                let reach = if import.wildcard {
                    let Some(wildcard_module) = self.import_module(&using, &import.module) else { continue };
                    let spelled: Vec<&str> =
                        components(&wildcard_module).chain([member]).chain(rest.iter().copied()).collect();
                    match self.spelled(&spelled, target, depth + 1) {
                        // A wildcard binds only what its module has.
                        Reach::Unknown | Reach::External => continue,
                        reach => reach,
                    }
                } else if import.bound_name() == Some(member) {
                    match self.import_module(&using, &import.module) {
                        None => Reach::External,
                        // The module importing its own member (Rust's `use super::X` in an
                        // inline `mod tests`) binds nothing new.
                        Some(imported) if import.name.is_some() && dotted_eq(&imported, module) => continue,
                        Some(imported) => {
                            let mut spelled: Vec<&str> = components(&imported).collect();
                            match &import.name {
                                Some(name) => spelled.push(name),
                                None if import.alias.is_none() => spelled.truncate(1),
                                None => {}
                            }
                            spelled.extend_from_slice(rest);
                            self.spelled(&spelled, target, depth + 1)
                        }
                    }
                } else {
                    continue;
                };
                if last.is_none_or(|(line, _)| import.line >= line) {
                    last = Some((import.line, reach));
                }
            }
            // Neither defined nor imported: a submodule of the package (`from qutebrowser.utils
            // import version` is the module `qutebrowser/utils/version.py`, no `version` of some
            // class), else set dynamically.
            let reach = match last {
                Some((_, reach)) => reach,
                None if rest.is_empty() && !self.module_files(&format!("{module}.{member}")).is_empty() => {
                    Reach::Elsewhere
                }
                None => Reach::Unknown,
            };
            answer = Some(answer.map_or(reach, |a| a.or(reach)));
        }
        answer.unwrap_or(Reach::Unknown)
    }

    /// The files of R whose module name is `module` (a Go package is several; a Python module
    /// one). Candidates are found by path, then confirmed by the frontend's module name.
    pub fn module_files(&self, module: &str) -> Vec<(&'a str, SourceFile)> {
        if let Some(found) = self.modules.borrow().get(module) {
            return found.clone();
        }
        let wanted: Vec<&str> = components(module).collect();
        // A class a manifest's autoload map places (composer's PSR-4): its file alone, which
        // no other file declaring the same name can stand in for.
        let autoloaded: Vec<(&'a str, SourceFile)> = self
            .roots()
            .iter()
            .filter(|r| !r.conventional)
            .filter_map(|r| self.db.frontend(r.language).file_below_root(&r.root, module))
            .filter_map(|path| self.stored_path(&path))
            .filter_map(|path| Some((path, self.reference.get(self.db, path)?)))
            .collect();
        let found: Vec<(&'a str, SourceFile)> = match wanted.last() {
            _ if !autoloaded.is_empty() => autoloaded,
            None => Vec::new(),
            // A module name the path decides is compared before the file is read.
            Some(last) => self
                .paths()
                .iter()
                .filter(|(_, _, parts)| parts.contains(last))
                .filter(|&&(path, language, _)| match path_module_name(self.db, language, path) {
                    Some(name) => dotted_eq(&name, module),
                    None => self.db.frontend(language).module_name_last(path).is_none_or(|part| part == *last),
                })
                .filter_map(|&(path, _, _)| Some((path, self.reference.get(self.db, path)?)))
                .filter(|&(path, file)| dotted_eq(&module_name(self.db, path, file), module))
                .collect(),
        };
        self.modules.borrow_mut().insert(module.to_owned(), found.clone());
        found
    }

    /// Whether some path of R holds `module`'s components in a row: a module, package or
    /// namespace directory of the repository.
    fn in_repository(&self, module: &[&str]) -> bool {
        !module.is_empty() && self.paths().iter().any(|(_, _, parts)| parts.windows(module.len()).any(|w| w == module))
    }

    fn paths(&self) -> &Vec<(&'a str, LanguageId, Vec<&'a str>)> {
        self.paths.get_or_init(|| {
            self.reference.paths(self.db).map(|(path, language)| (path, language, components(path).collect())).collect()
        })
    }
}

/// A name as autoloaders compare it: without `_`, in lower case (`RuboCop` and `rubo_cop`).
pub(crate) fn loose(name: &str) -> String {
    name.chars().filter(|&c| c != '_').flat_map(char::to_lowercase).collect()
}

/// Whether `d` is a module's own top-level definition named `name`, which `module.name` names:
/// not a member whose owner another file declares (a Go method, a Rust `impl` of a foreign
/// type, a CommonJS `Posts.uploads.list = …`), which has no parent in its file either.
fn is_top_level(d: &hintlens_syntax::Definition, name: &str) -> bool {
    d.parent.is_none() && d.name == name && !d.local_name.contains('.')
}

/// Every module root of a snapshot, longest prefix first: those its manifests declare (only
/// manifests are read), then those its paths make by convention.
fn module_roots(db: &dyn Db, snapshot: &SnapshotIndex) -> Vec<Root> {
    let mut roots: Vec<Root> = Vec::new();
    let mut conventional: HashSet<(LanguageId, &str)> = HashSet::new();
    for (path, language) in snapshot.paths(db) {
        let frontend = db.frontend(language);
        if !frontend.is_manifest(path) {
            if let Some(dir) = frontend.conventional_root(path) {
                conventional.insert((language, dir));
            }
            continue;
        }
        let Some(file) = snapshot.get(db, path) else { continue };
        let manifest_dir = path.rsplit_once('/').map_or("", |(dir, _)| dir);
        for mut root in file_definitions(db, file).roots.iter().cloned() {
            root.dir = ModuleRoot::join(manifest_dir, &root.dir);
            roots.push(Root { language, root, conventional: false });
        }
    }
    let mut conventional: Vec<(LanguageId, &str)> = conventional.into_iter().collect();
    conventional.sort_by_key(|&(_, dir)| dir);
    roots.extend(conventional.into_iter().map(|(language, dir)| Root {
        language,
        root: ModuleRoot { prefix: String::new(), dir: dir.to_owned(), prefix_in_path: false },
        conventional: true,
    }));
    // Stable: roots of one prefix stay in path order.
    roots.sort_by(|a, b| b.root.prefix.len().cmp(&a.root.prefix.len()).then_with(|| a.root.prefix.cmp(&b.root.prefix)));
    roots
}

/// The name a directory module goes by below the root of its language that holds it (the
/// import path `go.flipt.io/flipt/internal/limits` of the directory `internal/limits`), if one
/// does.
pub(crate) fn rooted_name(resolver: &Resolver<'_>, language: LanguageId, dir: &str) -> Option<String> {
    resolver
        .roots()
        .iter()
        .filter(|r| r.language == language && !r.conventional)
        .filter_map(|r| {
            let rest = match r.root.dir.as_str() {
                "" => dir,
                root => {
                    dir.strip_prefix(root).and_then(|rest| rest.strip_prefix('/').or(rest.is_empty().then_some("")))?
                }
            };
            let name = if rest.is_empty() { r.root.prefix.clone() } else { format!("{}/{rest}", r.root.prefix) };
            Some((r.root.dir.len(), name))
        })
        .max_by_key(|(depth, _)| *depth)
        .map(|(_, name)| name)
}

/// The components of a module name or path: split at `.` and `/` (`pkg.mod`, `src/pkg/mod.py`,
/// `internal/server`), empty ones dropped.
pub(crate) fn components(name: &str) -> impl Iterator<Item = &str> {
    name.split(['.', '/']).filter(|c| !c.is_empty())
}

/// Dotted names equal up to a leading package prefix on either side, so that `pkg.mod.f`
/// (from an import) matches `src.pkg.mod.f` (from a path under `src/`). `/` separates like `.`.
pub(crate) fn dotted_eq(a: &str, b: &str) -> bool {
    let (a, b): (Vec<&str>, Vec<&str>) = (components(a).collect(), components(b).collect());
    let (long, short) = if a.len() >= b.len() { (&a, &b) } else { (&b, &a) };
    !short.is_empty() && long.ends_with(short)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dotted_eq_allows_a_package_prefix() {
        assert!(dotted_eq("pkg.mod.f", "pkg.mod.f"));
        assert!(dotted_eq("pkg.mod.f", "src.pkg.mod.f"));
        assert!(!dotted_eq("pkg.mod.f", "xpkg.mod.f"));
        assert!(!dotted_eq("pkg.mod.f", "pkg.mod.g"));
        assert!(dotted_eq("internal/server.Store", "github.com/acme/app/internal/server.Store"));
        assert!(!dotted_eq("", "f"));
    }

    /// A Go package's member is one of its files' own definitions: only the files whose code
    /// names it are parsed, where every file of the package used to be.
    #[test]
    fn a_member_of_a_closed_module_is_looked_for_only_in_the_files_naming_it() {
        let (db, parsed) = crate::test_support::go_database_counting_parses();
        let files = [
            ("limits/limit.go", "package limits\n\nfunc Limit() int { return 1 }\n"),
            ("limits/other.go", "package limits\n\nfunc other() {}\n"),
            ("limits/doc.go", "// Package limits: see Limit.\npackage limits\n"),
        ];
        let snapshot = crate::test_support::snapshot(&files);
        let reference = db.snapshot_on_demand(&snapshot, Box::new(hintlens_snapshot::NoBlobs));
        let resolver = Resolver::new(&db, &reference);
        let elsewhere = Target { qualified_name: "limits.Other" };
        assert_eq!(resolver.spelled(&["limits", "Missing"], &elsewhere, 0), Reach::Unknown);
        assert_eq!(*parsed.lock().unwrap(), 0, "no file names `Missing`; a comment names nothing");
        assert_eq!(resolver.spelled(&["limits", "Limit"], &elsewhere, 0), Reach::Elsewhere);
        assert_eq!(*parsed.lock().unwrap(), 1, "only limits/limit.go");
        let limit = Target { qualified_name: "limits.Limit" };
        assert_eq!(resolver.spelled(&["limits", "Limit"], &limit, 0), Reach::Resolved);
    }

    #[test]
    fn components_split_paths_and_dotted_names() {
        assert_eq!(components("src/pkg/mod.py").collect::<Vec<_>>(), ["src", "pkg", "mod", "py"]);
        assert_eq!(components(".pkg..mod").collect::<Vec<_>>(), ["pkg", "mod"]);
    }
}
