//! DefUse (the paper's §3.1): definitions new on one side of the code–test boundary whose name
//! a line the other side adds uses — where, and only where, that use can refer to the
//! definition ([`Matcher::admit`]):
//!
//! - a bare name counts when it is free where it stands and reaches the definition through an
//!   import (re-exports followed), a wildcard import, or the language's own visibility (same
//!   Java or Go package); a name the using file binds itself never counts;
//! - a member (`obj.name`) counts by name, types being unknown, only for members of types;
//!   and as `import` when its qualifier is an imported module that holds the definition (or an
//!   attribute the using side assigns that module, `self.module.main()`);
//! - a keyword argument counts for a new parameter of the callable the call names (or a field
//!   its type's constructor takes by keyword), whatever the callee's qualifier; for a callee the
//!   using file holds in a variable or fixture it counts by name; for a callee from outside the
//!   repository, or one the file defines itself, not at all;
//! - a dotted path in a string literal (`mock.patch('pkg.mod.fn')`) counts when it spells the
//!   definition's path in a module of the repository;
//! - constructors are never selected: a new type's entry shows their signatures instead; a name
//!   the language fixes ([`Frontend::is_special`]: `__toString`, `__eq__`, `to_s`) counts only
//!   where the using side calls it by that name (`$money->__toString()`), never where the
//!   language calls it by itself (`(string) $money`), which discloses no name.
//!
//! Every piece of evidence records the rule that admitted it ([`Rule`]).

use crate::newdefs::{ChangedFile, changed_files, new_module};
use crate::resolve::{Reach, Resolver, Target, Using, components, loose};
use crate::{Direction, Evidence, Identifier, Resolution, Rule, Task, ident};
use hintlens_db::{Db, SourceFile, file_definitions, module_name, qualified_name};
use hintlens_snapshot::ChangeSet;
use hintlens_syntax::{Binding, DefId, DefKind, Definition, FileIndex, Frontend, Import, Use, UseKind};
use std::borrow::Cow;
use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::rc::Rc;

pub(crate) fn select(db: &dyn Db, task: &Task<'_>) -> Vec<Identifier> {
    let resolver = Resolver::new(db, task.reference);
    let mut out = Vec::new();
    collect(db, task, &resolver, Direction::CodeToTest, task.code, task.test, &mut out);
    collect(db, task, &resolver, Direction::TestToCode, task.test, task.code, &mut out);
    merge_declarations(db, task, &mut out);
    // A file both patches touch could yield one definition twice; keep the first direction.
    let mut seen = HashSet::new();
    out.retain(|i: &Identifier| seen.insert((i.path.clone(), i.qualified_name.clone(), i.kind)));
    out.sort_by(|a, b| (&a.path, a.line, &a.qualified_name).cmp(&(&b.path, b.line, &b.qualified_name)));
    out
}

/// A header's declaration and a source file's definition of one name (C's prototype and
/// body, C++'s in-class method and out-of-line `T::m`) are one identifier: the header's, with
/// the evidence of both ([`Frontend::is_header`]). So is one definition repeated in several
/// headers (nlohmann/json's `single_include/nlohmann/json.hpp` and Catch2's
/// `extras/catch_amalgamated.hpp` concatenate the library's headers): the copy a using file's
/// includes reach (`import` evidence), then the one in the smallest file — an amalgamation
/// holds every header it repeats, so the primary header is never the larger —, then the
/// first by path.
fn merge_declarations(db: &dyn Db, task: &Task<'_>, out: &mut Vec<Identifier>) {
    let header = |path: &str| task.reference.language_at(db, path).and_then(|l| db.frontend(l).is_header(path));
    let mut ranked: Vec<(Option<bool>, Identifier)> = out.drain(..).map(|i| (header(&i.path), i)).collect();
    if ranked.iter().all(|(h, _)| h.is_none()) {
        out.extend(ranked.into_iter().map(|(_, i)| i));
        return;
    }
    // Headers first, so that the header's entry is the one kept; of headers, the one included.
    let size = |path: &str| task.reference.get(db, path).map_or(usize::MAX, |f| f.text(db).len());
    ranked.sort_by_cached_key(|(h, i)| {
        let reached = i.evidence.iter().any(|e| e.rule == Some(Rule::Import));
        (*h != Some(true), !reached, size(&i.path), i.path.clone())
    });
    let mut kept: HashMap<(String, DefKind, Direction), usize> = HashMap::new();
    for (h, id) in ranked {
        if h.is_some() {
            let key = (id.qualified_name.clone(), id.kind, id.direction);
            if let Some(&at) = kept.get(&key) {
                let first: &mut Identifier = &mut out[at];
                first.resolution = first.resolution.min(id.resolution);
                first.evidence.extend(id.evidence);
                // One piece of evidence per line, the strongest rule's.
                first.evidence.sort();
                first.evidence.dedup_by(|b, a| a.path == b.path && a.line == b.line);
                continue;
            }
            kept.insert(key, out.len());
        }
        out.push(id);
    }
}

/// Whether `owner` is one of the enclosing names of `qualified_name` (`fmt` and `v10` of
/// `fmt::v10::format`), or the definition has none (its namespace may come from a macro the
/// grammar cannot expand).
fn names_owner(owner: &str, qualified_name: &str) -> bool {
    let parts: Vec<&str> = qualified_name.split("::").flat_map(components).collect();
    parts.len() < 2 || parts[..parts.len() - 1].contains(&owner)
}

/// A use on a line the using side adds.
struct UseSite<'a> {
    /// Index into the using files.
    using: usize,
    use_: Cow<'a, Use>,
    /// Spelled inside a string literal (`mock.patch('pkg.mod.fn')`) rather than written as code.
    in_string: bool,
    /// The type of the use's head where the using file states it ([`FileIndex::head_type`]).
    head_type: Option<&'a str>,
}

fn collect<'a>(
    db: &'a dyn Db,
    task: &Task<'a>,
    resolver: &Resolver<'a>,
    direction: Direction,
    defining: &'a ChangeSet,
    using: &'a ChangeSet,
    out: &mut Vec<Identifier>,
) {
    let mut usings: Vec<Using<'a>> = Vec::new();
    let mut sites: HashMap<Cow<'a, str>, Vec<UseSite<'a>>> = HashMap::new();
    for changed in changed_files(db, task, using) {
        let added = &changed.added;
        if added.is_empty() {
            continue;
        }
        let index = changed.index(db);
        let at = usings.len();
        for (i, u) in index.uses.iter().enumerate().filter(|(_, u)| added.contains(u.span.start.line)) {
            let site = UseSite { using: at, use_: Cow::Borrowed(u), in_string: false, head_type: index.head_type(i) };
            sites.entry(Cow::Borrowed(u.name.as_str())).or_default().push(site);
        }
        if db.frontend(changed.file.language(db)).strings_name_modules() {
            for s in index.strings.iter().filter(|s| added.contains(s.span.start.line)) {
                for u in string_path_uses(&s.value, s.span) {
                    let name = Cow::Owned(u.name.clone());
                    sites.entry(name).or_default().push(UseSite {
                        using: at,
                        use_: Cow::Owned(u),
                        in_string: true,
                        head_type: None,
                    });
                }
            }
        }
        usings.push(Using::new(db, changed.path, changed.file));
    }
    if sites.is_empty() {
        return;
    }
    let matcher = Matcher {
        db,
        task,
        resolver,
        usings: &usings,
        direction,
        takers: Default::default(),
        defines: Default::default(),
        aliases: Default::default(),
    };
    let defining = changed_files(db, task, defining);
    // Every changed file at R first (each is read below anyway): a file of B read as another's
    // sibling (every header of a change that respells their namespaces) is then a second
    // version, parsed from its R tree and keeping none, where reading it first would keep its
    // tree until its own R is read.
    for changed in &defining {
        changed.index(db);
    }
    for changed in defining {
        for def in new_definitions(db, task, &changed, direction, &sites) {
            if direction == Direction::TestToCode && !test_side_can_define(def.kind) {
                continue;
            }
            let named = sites.get(def.name.as_str()).map(Vec::as_slice).unwrap_or_default();
            // A new file an autoloader loads is named by the constant it holds, whose last name
            // is the file's stem but for case and `_` (`Shop::Cart` loads `lib/shop/cart.rb`,
            // `Legacy_Mail_Transport` `lib/Legacy/Mail/Transport.php`): only those sites may be one.
            let candidates: Box<dyn Iterator<Item = &UseSite<'_>>> =
                if def.kind == DefKind::File && resolver.has_roots(def.file.language(db)) {
                    let stem = loose(def.path.rsplit('/').next().unwrap_or(&def.path).split('.').next().unwrap_or(""));
                    Box::new(sites.iter().filter(move |(name, _)| loose(name).ends_with(&stem)).flat_map(|(_, s)| s))
                } else {
                    Box::new(named.iter())
                };
            let mut evidence = Vec::new();
            let mut resolution = Resolution::Name;
            for site in candidates.filter(|site| !def.special || calls_by_name(site)) {
                if let Some((rule, tie)) = matcher.admit(site, &def) {
                    let path = usings[site.using].path.to_owned();
                    evidence.push(Evidence { path, line: site.use_.span.start.line + 1, rule: Some(rule) });
                    resolution = resolution.min(tie);
                }
            }
            if evidence.is_empty() {
                continue;
            }
            // One piece of evidence per line, the strongest rule's.
            evidence.sort();
            evidence.dedup_by(|b, a| a.path == b.path && a.line == b.line);
            let mut id = match def.id {
                Some(id) => ident::definition(db, changed.path, changed.file, changed.is_new_file, id),
                None => match ident::new_module(db, task, resolver, &changed) {
                    Some(module) => module,
                    None => continue,
                },
            };
            id.direction = direction;
            id.resolution = resolution;
            id.evidence = evidence;
            out.push(id);
        }
    }
}

/// A definition of R with no counterpart of the same qualified name and kind in its file at B,
/// or a parameter its callable gained, or the file itself when the change adds it.
struct NewDef<'db> {
    /// `None` for the file itself (a new module).
    id: Option<DefId>,
    name: String,
    /// A name the language fixes ([`Frontend::is_special`]): only a call by that name reaches it
    /// ([`calls_by_name`]).
    special: bool,
    kind: DefKind,
    qualified_name: String,
    path: String,
    file: SourceFile,
    /// What is read of the file ([`ChangedFile::index`]), which `id` is of.
    index: &'db FileIndex,
    /// What a keyword naming this definition is passed to, by simple and qualified name: a
    /// parameter's callable (a constructor's class), a constructor-keyword field's type, a Java
    /// annotation element's annotation type. Empty when no keyword names it.
    keyword_owners: Vec<(String, String)>,
    /// For a constructor-keyword field, its type: the callables of R that take their keywords
    /// from it ([`hintlens_syntax::Definition::keywords_from`]: a component of its props type)
    /// are keyword owners too, found by the matcher when a keyword argument needs them.
    takers_of: Option<String>,
}

/// The definitions `changed` makes new on the side that defines in `direction`. A file's test
/// regions ([`hintlens_syntax::FileIndex::tests`]) are the test side's: what is defined there
/// is never the code's, and a source file both changes touch defines for the tests only there.
/// Only definitions some site may name ([`may_name`]) are looked at: the others cannot be
/// selected, and their facts (whether B had them, keyword takers, moved-from siblings) would
/// cost reads for nothing. When none is left, B's counterpart is not even parsed.
fn new_definitions<'a, 'db>(
    db: &'db dyn Db,
    task: &Task<'_>,
    changed: &ChangedFile<'_>,
    direction: Direction,
    sites: &HashMap<Cow<'a, str>, Vec<UseSite<'a>>>,
) -> Vec<NewDef<'db>> {
    let (path, file) = (changed.path, changed.file);
    let index = changed.index(db);
    let frontend = db.frontend(file.language(db));
    let also_code = task.code.files.contains_key(changed.path);
    let candidate = |(id, d): (usize, &Definition)| {
        let in_tests = index.in_tests(d.name_span.start.line);
        let side_ok = match direction {
            Direction::CodeToTest => !in_tests,
            // What a test framework runs by itself no code reaches.
            Direction::TestToCode => {
                (in_tests || !also_code || index.tests.is_empty())
                    && test_side_can_define(d.kind)
                    && !frontend.is_collected(path, index, id as DefId)
            }
        };
        // Nobody chooses a constructor's name: never a hint of its own.
        if !side_ok || d.kind.is_constructor() {
            return false;
        }
        // A function or class declared inside a function body is that function's local: no other
        // file can name it. Members stay reachable through instances: those of a local class,
        // and a Java anonymous class's methods (whose parent is the enclosing method).
        let local = matches!(d.kind, DefKind::Function | DefKind::Variable | DefKind::Constant) || d.kind.is_type();
        if local && d.parent.is_some_and(|p| index.definition(p).kind.is_callable()) {
            return false;
        }
        let takes_keywords = keyword_owner(index, d).is_some();
        let special = frontend.is_special(d);
        let named = sites.get(d.name.as_str());
        named.is_some_and(|named| {
            named
                .iter()
                .any(|site| may_name(frontend, site, d.kind, takes_keywords) && (!special || calls_by_name(site)))
        })
    };
    let candidates: Vec<bool> = index.definitions.iter().enumerate().map(candidate).collect();
    // A candidate parameter asks whether its callable existed at B.
    let mut wanted = candidates.clone();
    for (d, _) in index.definitions.iter().zip(&candidates).filter(|(_, c)| **c) {
        if let (DefKind::Parameter, Some(parent)) = (d.kind, d.parent) {
            wanted[parent as usize] = true;
        }
    }
    let at_base = changed.at_base_for(db, |id| wanted[id as usize]);
    // Only candidates, their callables and their keyword owners need qualified names.
    let qualified = |i: usize| qualified_name(db, path, file, &index.definitions[i].local_name);
    let mut out = Vec::new();
    for (i, d) in index.definitions.iter().enumerate() {
        if !candidates[i] {
            continue;
        }
        let qualified_name = qualified(i);
        if at_base.contains(&(qualified_name.clone(), d.kind)) {
            continue;
        }
        let parent = d.parent.map(|p| (p, index.definition(p)));
        // A parameter is news only when its callable is not: a new callable's parameters are
        // part of its signature already.
        if d.kind == DefKind::Parameter {
            let callable_existed = parent.is_some_and(|(p, pd)| at_base.contains(&(qualified(p as usize), pd.kind)));
            if !callable_existed {
                continue;
            }
        }
        let owner = keyword_owner(index, d);
        let mut keyword_owners = Vec::new();
        let mut takers_of = None;
        if let Some(owner) = owner {
            let owner_name = &index.definition(owner).name;
            keyword_owners.push((owner_name.clone(), qualified(owner as usize)));
            if d.constructor_keyword && frontend.keywords_from_types() {
                takers_of = Some(owner_name.clone());
            }
        }
        out.push(NewDef {
            id: Some(i as DefId),
            name: d.name.clone(),
            special: frontend.is_special(d),
            kind: d.kind,
            qualified_name,
            path: path.to_owned(),
            file,
            index,
            keyword_owners,
            takers_of,
        });
    }
    // A new module is a definition of its own (a `file`, a Go `package`).
    if let Some(module) = new_module(db, task, changed) {
        out.insert(
            0,
            NewDef {
                id: None,
                name: module.name,
                special: false,
                kind: module.kind,
                qualified_name: module_name(db, path, file),
                path: path.to_owned(),
                file,
                index,
                keyword_owners: Vec::new(),
                takers_of: None,
            },
        );
    }
    out
}

impl NewDef<'_> {
    /// The definition itself; `None` for a new module.
    fn definition(&self) -> Option<&Definition> {
        self.id.map(|id| self.index.definition(id))
    }
}

/// What a keyword naming `d` is passed to: a parameter's callable (a constructor's class), a
/// constructor-keyword field's type, a Java annotation element's annotation type.
fn keyword_owner(index: &FileIndex, d: &Definition) -> Option<DefId> {
    let p = d.parent?;
    let pd = index.definition(p);
    match d.kind {
        // `Cls(k=…)` calls the constructor by its class's name.
        DefKind::Parameter if pd.kind.is_constructor() => pd.parent,
        DefKind::Parameter => Some(p),
        _ if d.constructor_keyword => Some(p),
        DefKind::Method if pd.kind == DefKind::Annotation => Some(p),
        _ => None,
    }
}

/// Whether the use at `site` can name a definition of kind `kind` (taking keywords or not) at
/// all, whatever B holds and wherever the definition is: [`Matcher::admit`]'s first test, which
/// [`new_definitions`] asks before reading B.
fn may_name(frontend: &dyn Frontend, site: &UseSite<'_>, kind: DefKind, takes_keywords: bool) -> bool {
    let u = &*site.use_;
    // The language's or a test framework's own name (`std::tuple`, RSpec's `context "…" do`).
    if u.binding == Binding::External || !frontend.use_can_reach(kind, u.kind) {
        return false;
    }
    if site.in_string {
        return true;
    }
    match u.kind {
        UseKind::KeywordArgument => takes_keywords,
        // pytest looks fixtures up by name, across conftest files and plugins.
        UseKind::Fixture => matches!(kind, DefKind::Function | DefKind::Method),
        _ => compatible(kind, u.kind),
    }
}

/// The callables of the reference snapshot that take their keywords from the type `owner`
/// ([`hintlens_syntax::Definition::keywords_from`]), by simple and qualified name. Only files
/// that name `owner` at all, in a language whose callables can take keywords from types
/// ([`hintlens_syntax::Frontend::keywords_from_types`]), can hold one: only those are parsed.
fn keyword_takers(db: &dyn Db, task: &Task<'_>, owner: &str) -> Vec<(String, String)> {
    let mut takers = Vec::new();
    let files = task.reference.files_naming(db, owner);
    for (path, file) in files.into_iter().filter(|(_, f)| db.frontend(f.language(db)).keywords_from_types()) {
        let index = file_definitions(db, file);
        for d in &index.definitions {
            if d.keywords_from.iter().any(|t| t == owner) {
                takers.push((d.name.clone(), qualified_name(db, path, file, &d.local_name)));
            }
        }
    }
    takers
}

/// Whether `site` calls what it names by that name, written as code (`$money->__toString()`,
/// `obj.__eq__(other)`): the only use that reaches a name the language fixes
/// ([`Frontend::is_special`]). What the language calls by itself (`(string) $money`, `a == b`)
/// is no use of any name.
fn calls_by_name(site: &UseSite<'_>) -> bool {
    site.use_.kind == UseKind::Call && !site.in_string
}

/// Test files are never imported by the code, so a module-level variable of a test (or the
/// test module itself) cannot be what a code line names: what the code reaches is what the test
/// hands it — a hook function, a fake class and its methods and attributes.
fn test_side_can_define(kind: DefKind) -> bool {
    !matches!(kind, DefKind::Variable | DefKind::Constant | DefKind::File | DefKind::Package)
}

/// Which uses can name which definitions at all, whatever their scope: modules where a module
/// can be named, keyword arguments only what takes keywords ([`Matcher::keyword`]).
fn compatible(def: DefKind, use_: UseKind) -> bool {
    match def {
        DefKind::File | DefKind::Package | DefKind::Module => {
            matches!(use_, UseKind::ImportModule | UseKind::Import | UseKind::Attribute | UseKind::Name)
        }
        DefKind::Parameter => false,
        _ => !matches!(use_, UseKind::ImportModule | UseKind::KeywordArgument),
    }
}

struct Matcher<'m, 'a> {
    db: &'a dyn Db,
    task: &'m Task<'a>,
    resolver: &'m Resolver<'a>,
    usings: &'m [Using<'a>],
    direction: Direction,
    /// [`keyword_takers`] by owner type, found when a keyword argument first needs them.
    takers: RefCell<HashMap<String, Rc<KeywordOwners>>>,
    /// [`Matcher::namespace_defines`] by namespace and name: each answer reads every file of R
    /// naming the name.
    defines: RefCell<HashMap<(String, String), bool>>,
    /// [`Matcher::alias_names_owner`]'s aliases by using file and name: the types they name.
    aliases: RefCell<HashMap<(String, String), Rc<HeldTypes>>>,
}

/// Callables by simple and qualified name.
type KeywordOwners = Vec<(String, String)>;

/// The types aliases of one name stand for ([`hintlens_syntax::Definition::holds`]).
type HeldTypes = Vec<String>;

impl Matcher<'_, '_> {
    /// The rule by which `site` can refer to `def`, and how firmly; `None` when it cannot.
    fn admit(&self, site: &UseSite<'_>, def: &NewDef<'_>) -> Option<(Rule, Resolution)> {
        let u = &*site.use_;
        let using = &self.usings[site.using];
        let target = Target { qualified_name: &def.qualified_name };
        let frontend = self.db.frontend(def.file.language(self.db));
        if def.kind == DefKind::File && u.name != def.name {
            return self.autoload(using, site, def);
        }
        if !may_name(frontend, site, def.kind, !def.keyword_owners.is_empty()) {
            return None;
        }
        // A `static` function or a name of an anonymous namespace: its own file's alone.
        if using.path != def.path && def.definition().is_some_and(|d| d.file_local) {
            return None;
        }
        if site.in_string {
            let spelled: Vec<&str> = u.qualifier.iter().flat_map(|q| components(q)).chain([u.name.as_str()]).collect();
            return (self.resolver.spelled(&spelled, &target, 0) == Reach::Resolved)
                .then_some((Rule::StringPath, Resolution::Import));
        }
        if u.kind == UseKind::KeywordArgument {
            return self.keyword(using, u, def);
        }
        if u.kind == UseKind::Fixture {
            return Some((Rule::Fixture, Resolution::Name));
        }
        // `#include "x.h"` (C, C++): a use of the file it names, a new header's `file` entry.
        if u.kind == UseKind::Import && using.frontend.is_header(using.path).is_some() {
            let written = u.qualifier.as_deref()?;
            let names =
                def.id.is_none() && self.resolver.include_target(using.path, written).contains(&def.path.as_str());
            return names.then_some((Rule::Import, Resolution::Import));
        }
        match u.kind {
            // `a.b` in `from a.b import c` / `import a.b`: the module path up to this component.
            UseKind::ImportModule => {
                // Out of the repository when the language's module roots say so (`errors` in
                // `import "errors"` is the standard library's, whatever directories R has).
                let module = match u.qualifier.as_deref() {
                    Some(q) => Some(self.resolver.import_module(using, q)?),
                    None => self.resolver.import_module(using, &u.name).map(|_| None)?,
                };
                let spelled: Vec<&str> = module.iter().flat_map(|m| components(m)).chain([u.name.as_str()]).collect();
                (self.resolver.spelled(&spelled, &target, 0) == Reach::Resolved)
                    .then_some((Rule::Import, Resolution::Import))
            }
            // `c` in `from a.b import c`.
            UseKind::Import => {
                let import = Import {
                    module: u.qualifier.clone().unwrap_or_default(),
                    name: Some(u.name.clone()),
                    alias: None,
                    wildcard: false,
                    line: u.span.start.line,
                };
                through_import(self.resolver.through_import(using, &import, &[], &target))
            }
            _ => match (&u.qualifier, u.binding) {
                (None, Binding::Local | Binding::Definition | Binding::External) => None,
                (None, Binding::Receiver) => self.member(def),
                // A method of the using file's own class runs it or a subclass's override.
                // Subclasses of a test's classes are tests, so a test's own call reaches no code;
                // a code class's method can be overridden by a test's subclass (a hook).
                (None, Binding::OwnMember) => self.member(def).filter(|_| self.direction == Direction::TestToCode),
                (None, Binding::Import) => {
                    let import = using.import_binding(&u.name)?;
                    through_import(self.resolver.through_import(using, import, &[], &target))
                }
                (None, Binding::Free) => {
                    let member = def.definition().is_some_and(|d| d.parent.is_some());
                    if member && !using.frontend.bare_names_reach_members() {
                        return None;
                    }
                    self.free(using, &u.name, &[], def, &target)
                }
                (Some(qualifier), binding) => {
                    let parts: Vec<&str> = components(qualifier).chain([u.name.as_str()]).collect();
                    let tie = match binding {
                        Binding::Import => match using.import_binding(parts[0]) {
                            Some(import) => match self.resolver.through_import(using, import, &parts[1..], &target) {
                                Reach::Resolved => Some((Rule::Import, Resolution::Import)),
                                // A member of a standard or third-party module (`st.data()`).
                                Reach::External => return None,
                                // `Command::new` is `Command`'s, not a new `Conflicts::new`.
                                Reach::Elsewhere | Reach::Within if using.frontend.paths_are_static() => return None,
                                // `mod.name` where the module has a `name` of its own: that one.
                                Reach::Elsewhere => return None,
                                // An import chain not followed to the end: by name, members or not.
                                Reach::Unknown if !self.is_member(def) => Some((Rule::Name, Resolution::Name)),
                                Reach::Unknown | Reach::Within => None,
                            },
                            None => None,
                        },
                        // `X<V>::value` is no test's `compile_format_as_type::value`: in C++ a
                        // qualifier names the definition's owner (a class, a namespace).
                        Binding::Free | Binding::Definition
                            if using.frontend.qualifiers_name_owners()
                                && !names_owner(parts[parts.len() - 2], &def.qualified_name)
                                && !self.alias_names_owner(using, parts[parts.len() - 2], &def.qualified_name) =>
                        {
                            return None;
                        }
                        // `Limits.MAX` with `Limits` of the same package or a wildcard import, or a
                        // path spelled in full from its top package (`com.acme.Util.check`).
                        Binding::Free => self.free(using, parts[0], &parts[1..], def, &target).or_else(|| {
                            let full = parts.len() >= components(&def.qualified_name).count()
                                && self.resolver.spelled(&parts, &target, 0) == Reach::Resolved;
                            full.then_some((Rule::Import, Resolution::Import))
                        }),
                        // `self.module.main()`: an attribute holding an imported module.
                        Binding::Local if parts.len() > 2 => self.through_held(parts[1], &parts[2..], &target),
                        Binding::Local | Binding::Definition | Binding::Receiver | Binding::OwnMember => None,
                        // Turned away by `may_name` already.
                        Binding::External => return None,
                    };
                    // `m.Mock` where the file declares `m := &MockClient{}` and its side's
                    // `MockClient` has a `Mock` of its own: that one, not the other side's.
                    if tie.is_none()
                        && parts.len() == 2
                        && site.head_type.is_some_and(|t| self.own_member(using, t, &u.name))
                    {
                        return None;
                    }
                    // Otherwise a member of something whose type is unknown: by name.
                    tie.or_else(|| self.member(def))
                }
            },
        }
    }

    /// Whether the using side defines the type `ty` that `using` names, as a concrete type (a
    /// struct, not an interface, whose methods an implementation of the other side may be, nor a
    /// class a subclass may override), with a member `name` of its own (a field, a method): a
    /// use through a value of that type reaches it, whatever the other side defines of that
    /// name. Its files here are the using file and the side's other changed files of its
    /// namespace (a Go package); a type none defines is unknown.
    fn own_member(&self, using: &Using<'_>, ty: &str, name: &str) -> bool {
        let namespace = using.frontend.namespace(using.path, using.index);
        let same = |other: &Using<'_>| {
            other.path == using.path
                || (namespace.is_some()
                    && other.language == using.language
                    && other.frontend.namespace(other.path, other.index) == namespace)
        };
        self.usings.iter().filter(|other| same(other)).any(|other| {
            let defs = &other.index.definitions;
            defs.iter()
                .enumerate()
                .filter(|(_, d)| d.name == ty && concrete(d.kind))
                .any(|(id, _)| defs.iter().any(|m| m.name == name && m.parent == Some(id as DefId)))
        })
    }

    /// A use of a constant an autoloader loads the new file `def` for, by the roots of R
    /// ([`Resolver::autoloads`]: Ruby's Zeitwerk loads `lib/shop/cart.rb` for `Shop::Cart`,
    /// composer `src/Http/Client.php` for `App\Http\Client`): the file is used as a `require`
    /// of it would be. The name is taken as written, and inside the using file's namespace
    /// (PHP's `Client` in `namespace App\Http`), or through the import that binds its head.
    fn autoload(&self, using: &Using<'_>, site: &UseSite<'_>, def: &NewDef<'_>) -> Option<(Rule, Resolution)> {
        let u = &*site.use_;
        let constant = matches!(
            u.kind,
            UseKind::Name
                | UseKind::Base
                | UseKind::Type
                | UseKind::Instantiation
                | UseKind::Import
                | UseKind::Attribute
        );
        if site.in_string || !constant {
            return None;
        }
        let written: Vec<&str> = u.qualifier.iter().flat_map(|q| components(q)).chain([u.name.as_str()]).collect();
        let names: Vec<String> = match u.binding {
            Binding::Free => {
                let namespace = using.frontend.namespace(using.path, using.index).filter(|n| !n.is_empty());
                [Some(written.join(".")), namespace.map(|n| format!("{n}.{}", written.join(".")))]
                    .into_iter()
                    .flatten()
                    .collect()
            }
            // `use App\Http\Client;` spells the name in full.
            Binding::Import if u.kind == UseKind::Import => vec![written.join(".")],
            Binding::Import => {
                let import = using.import_binding(written[0])?;
                let head = components(&import.module).chain(import.name.as_deref());
                vec![head.chain(written[1..].iter().copied()).collect::<Vec<_>>().join(".")]
            }
            _ => return None,
        };
        let language = def.file.language(self.db);
        names
            .iter()
            .any(|name| self.resolver.autoloads(language, name, &def.path))
            .then_some((Rule::Import, Resolution::Import))
    }

    /// A use through an attribute (`self.module.main()`) that a class of the using side assigns
    /// an imported name (`module = eric_eccli_command`, [`Definition::holds`]): a use through
    /// that import, as if the import's name were written. The class may be in another file of
    /// the same side (Ansible's module tests call `self.module.main()` from a shared base), so
    /// every using file's attributes of that name are asked.
    fn through_held(&self, attribute: &str, after: &[&str], target: &Target<'_>) -> Option<(Rule, Resolution)> {
        let held = self.usings.iter().flat_map(|using| {
            let holders = using.index.definitions.iter().filter(|d| d.name == attribute && d.kind == DefKind::Field);
            holders.filter_map(move |d| using.import_binding(d.holds.as_deref()?).map(|import| (using, import)))
        });
        for (using, import) in held {
            if self.resolver.through_import(using, import, after, target) == Reach::Resolved {
                return Some((Rule::Import, Resolution::Import));
            }
        }
        None
    }

    /// A use through a value whose type is unknown (`obj.name`, `make().name`, Java's implicit
    /// `this`): it reaches `def` by name when `def` is a member of a type, and never a module's
    /// own definition (function, class, variable), which no value carries.
    fn member(&self, def: &NewDef<'_>) -> Option<(Rule, Resolution)> {
        self.is_member(def).then_some((Rule::Member, Resolution::Name))
    }

    /// Whether `def` is a member of a type: a method, field, property, enum member or variant,
    /// or anything a type holds (a class attribute, a nested class, an associated function), or
    /// a member whose type another file declares (Go's methods, Rust's `impl` of a foreign type);
    /// or a hook the language's ecosystem calls as a member ([`Frontend::is_hook`]).
    fn is_member(&self, def: &NewDef<'_>) -> bool {
        let Some(id) = def.id else { return false };
        let index = def.index;
        let d = index.definition(id);
        if self.db.frontend(def.file.language(self.db)).is_hook(index, id) {
            return true;
        }
        match d.parent {
            _ if matches!(
                d.kind,
                DefKind::Method | DefKind::Field | DefKind::Property | DefKind::EnumConstant | DefKind::Variant
            ) =>
            {
                true
            }
            Some(parent) => index.definition(parent).kind.is_type(),
            None => d.local_name.contains('.'),
        }
    }

    /// A free name (followed by the names `after`, for a qualified use): brought by a wildcard
    /// import, or visible in the package of `def`'s file.
    fn free(
        &self,
        using: &Using<'_>,
        name: &str,
        after: &[&str],
        def: &NewDef<'_>,
        target: &Target<'_>,
    ) -> Option<(Rule, Resolution)> {
        if self.resolver.through_wildcards(using, name, after, target) == Some(Reach::Resolved) {
            return Some((Rule::Wildcard, Resolution::Import));
        }
        // C, C++: a file the using file includes, directly or not.
        if using.frontend.is_header(using.path).is_some() && self.resolver.includes(using.path, &def.path) {
            return Some((Rule::Import, Resolution::Import));
        }
        if using.frontend.seen_only_through_imports(def.kind) {
            return None;
        }
        let def_namespace = self.db.frontend(def.file.language(self.db)).namespace(&def.path, def.index);
        let same = def_namespace.is_some() && using.frontend.namespace(using.path, using.index) == def_namespace;
        // PHP's `str_title()` in `namespace App\Tests` is the global `str_title` when the
        // using namespace defines none.
        let global = after.is_empty()
            && def_namespace.as_deref() == Some("")
            && using.frontend.falls_back_to_global(def.kind)
            && !self.namespace_defines(using, name);
        (same || global).then_some((Rule::Package, Resolution::Package))
    }

    /// Whether `owner`, a qualifier's last name that is none of `qualified_name`'s enclosing
    /// names, is an alias of one (`json::from_cbor` naming `basic_json::from_cbor` where
    /// `using json = basic_json<>;`): a type alias of that name that the using file defines or
    /// includes ([`Definition::holds`]). Only the files of R naming `owner` are read.
    fn alias_names_owner(&self, using: &Using<'_>, owner: &str, qualified_name: &str) -> bool {
        let key = (using.path.to_owned(), owner.to_owned());
        let held = self.aliases.borrow().get(&key).cloned();
        let held = held.unwrap_or_else(|| {
            let mut held = Vec::new();
            for (path, file) in self.task.reference.files_naming(self.db, owner) {
                let seen = path == using.path
                    || (using.frontend.is_header(using.path).is_some() && self.resolver.includes(using.path, path));
                if !seen {
                    continue;
                }
                let aliases =
                    file_definitions(self.db, file).definitions.iter().filter(|d| d.kind == DefKind::TypeAlias);
                held.extend(aliases.filter(|d| d.name == owner).filter_map(|d| d.holds.clone()));
            }
            let held = Rc::new(held);
            self.aliases.borrow_mut().insert(key, Rc::clone(&held));
            held
        });
        held.iter().any(|h| h != owner && names_owner(h, qualified_name))
    }

    /// Whether the using file's namespace has a top-level definition `name` of its own in R
    /// (which shadows a global one). Only the files of R that name it are read.
    fn namespace_defines(&self, using: &Using<'_>, name: &str) -> bool {
        let Some(namespace) = using.frontend.namespace(using.path, using.index) else { return false };
        let key = (namespace, name.to_owned());
        if let Some(&defines) = self.defines.borrow().get(&key) {
            return defines;
        }
        let defines = self.task.reference.files_naming(self.db, name).into_iter().any(|(path, file)| {
            let index = file_definitions(self.db, file);
            self.db.frontend(file.language(self.db)).namespace(path, index).as_deref() == Some(key.0.as_str())
                && index.definitions.iter().any(|d| d.parent.is_none() && d.name == name)
        });
        self.defines.borrow_mut().insert(key, defines);
        defines
    }

    /// A keyword argument (`f(k=…)`, `Options{K: …}`, `<C k={…}>`): it names `def` only if
    /// `def` takes keywords and the call names what takes it.
    fn keyword(&self, using: &Using<'_>, u: &Use, def: &NewDef<'_>) -> Option<(Rule, Resolution)> {
        // No callee spelled as names (`make()(k=1)`, an object literal's key): by name.
        let Some(callee) = &u.qualifier else { return Some((Rule::KeywordByName, Resolution::Name)) };
        let direct = def
            .keyword_owners
            .iter()
            .find_map(|(owner, qualified)| self.keyword_to(using, u, def, callee, (owner, qualified)));
        if direct.is_some() {
            return direct;
        }
        // The callables taking their keywords from the owner type are looked for only now: a
        // repository may name a common type in hundreds of files.
        let owner = def.takers_of.as_deref()?;
        let takers = Rc::clone(
            self.takers
                .borrow_mut()
                .entry(owner.to_owned())
                .or_insert_with(|| Rc::new(keyword_takers(self.db, self.task, owner))),
        );
        takers.iter().find_map(|(taker, qualified)| self.keyword_to(using, u, def, callee, (taker, qualified)))
    }

    /// A keyword argument to `callee` names a keyword of `owner`.
    fn keyword_to(
        &self,
        using: &Using<'_>,
        u: &Use,
        def: &NewDef<'_>,
        callee: &str,
        (owner, owner_qualified): (&str, &str),
    ) -> Option<(Rule, Resolution)> {
        let parts: Vec<&str> = components(callee).collect();
        let (&head, &last) = (parts.first()?, parts.last()?);
        if parts.len() == 1 {
            match u.binding {
                // One the file holds in a variable or fixture (`klass(fields=[])`) could be anything.
                Binding::Local => return Some((Rule::KeywordByName, Resolution::Name)),
                // A callee the file defines itself is a known callable, and not the other side's
                // — unless it takes any keyword (`def assert_hash(…, **settings)`) and so may
                // hand this one on to the other side's callable: then by name.
                Binding::Definition => {
                    let forwards = using.index.definitions.iter().enumerate().any(|(id, d)| {
                        d.name == head
                            && matches!(d.kind, DefKind::Function | DefKind::Method | DefKind::Class)
                            && using.frontend.takes_any_keyword(using.index, id as DefId)
                    });
                    return forwards.then_some((Rule::KeywordByName, Resolution::Name));
                }
                _ => {}
            }
        }
        let target = Target { qualified_name: owner_qualified };
        match u.binding {
            Binding::Import => {
                let import = using.import_binding(head)?;
                match self.resolver.through_import(using, import, &parts[1..], &target) {
                    Reach::Resolved => return Some((Rule::Keyword, Resolution::Import)),
                    // `hypothesis.given(data=…)`: a callee from outside the repository.
                    Reach::External => return None,
                    Reach::Unknown | Reach::Within | Reach::Elsewhere => {}
                }
                // Not followed to the end: by name — the imported name, not its alias.
                let called = match &import.name {
                    Some(name) if parts.len() == 1 => name.as_str(),
                    _ => last,
                };
                (called == owner).then_some((Rule::Keyword, Resolution::Name))
            }
            _ if last != owner => None,
            // The owner is defined in `def`'s file, so its package is `def`'s.
            Binding::Free if parts.len() == 1 => {
                self.free(using, head, &[], def, &target).map(|(_, tie)| (Rule::Keyword, tie))
            }
            _ => Some((Rule::Keyword, Resolution::Name)),
        }
    }
}

/// A type whose members are its own: no implementation or subclass stands in for them.
fn concrete(kind: DefKind) -> bool {
    matches!(kind, DefKind::Struct | DefKind::Record | DefKind::Union | DefKind::Enum | DefKind::Type)
}

/// What an import's reach means for a use through it.
fn through_import(reach: Reach) -> Option<(Rule, Resolution)> {
    match reach {
        Reach::Resolved => Some((Rule::Import, Resolution::Import)),
        Reach::Unknown => Some((Rule::Name, Resolution::Name)),
        Reach::Within | Reach::Elsewhere | Reach::External => None,
    }
}

/// The names a string literal spelling a dotted path (`'pkg.mod.new_fn'`) uses: each component
/// after the first, qualified by those before it. Anything else (a message, `'a b'`, a file name
/// with a slash) uses nothing.
fn string_path_uses(value: &str, span: hintlens_syntax::Span) -> Vec<Use> {
    let parts: Vec<&str> = value.split('.').collect();
    if parts.len() < 2 || !parts.iter().all(|p| hintlens_syntax::is_identifier(p)) {
        return Vec::new();
    }
    (1..parts.len())
        .map(|i| Use {
            name: parts[i].to_owned(),
            kind: UseKind::Attribute,
            span,
            qualifier: Some(parts[..i].join(".")),
            binding: Binding::Import,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::snapshot;
    use hintlens_snapshot::{NoBlobs, Snapshot, changes_between};

    /// DefUse's qualified names for a Go change from `base` to `reference` (`_test.go` files are
    /// the tests), both read on demand.
    fn go_selection(db: &hintlens_db::Database, base: &Snapshot, reference: &Snapshot) -> Vec<String> {
        let (code, test) = changes_between(base, reference, &NoBlobs, |p| p.ends_with("_test.go")).unwrap();
        let (base, reference) =
            (db.snapshot_on_demand(base, Box::new(NoBlobs)), db.snapshot_on_demand(reference, Box::new(NoBlobs)));
        let task =
            Task { base: &base, reference: &reference, code: &code, test: &test, problem_statement: "", told: "" };
        select(db, &task).into_iter().map(|id| id.qualified_name).collect()
    }

    /// A Go struct's fields are keywords of its composite literals, and no callable takes its
    /// keywords from a type in Go: a key of another type's literal (`options{Timeout: 2}`) does
    /// not send the matcher parsing every file that names the struct for one.
    #[test]
    fn a_struct_field_set_by_a_test_reads_no_file_that_only_names_the_struct() {
        let (db, parsed) = crate::test_support::go_database_counting_parses();
        // Five files naming `Config`, each its own blob.
        let unchanged: Vec<(String, String)> = (0..5)
            .map(|i| (format!("app/use{i}.go"), format!("package app\n\nfunc use{i}(c Config) {{}}\n")))
            .collect();
        let unchanged: Vec<(&str, &str)> = unchanged.iter().map(|(p, t)| (p.as_str(), t.as_str())).collect();
        let config = ("app/config.go", "package app\n\ntype Config struct {\n\tAddr string\n}\n");
        let base = snapshot(&[unchanged.as_slice(), &[config]].concat());
        let reference = snapshot(
            &[
                unchanged.as_slice(),
                &[
                    ("app/config.go", "package app\n\ntype Config struct {\n\tAddr    string\n\tTimeout int\n}\n"),
                    (
                        "app/config_test.go",
                        "package app\n\ntype options struct{ Timeout int }\n\nfunc TestConfig() {\n\t_ = Config{Timeout: 1}\n\t_ = options{Timeout: 2}\n}\n",
                    ),
                ],
            ]
            .concat(),
        );
        let selected = go_selection(&db, &base, &reference);
        assert_eq!(selected, ["app.Config.Timeout"]);
        assert_eq!(*parsed.lock().unwrap(), 3, "config.go at B and R, and the test: none of the files using Config");
    }

    /// A new type beside a type the change removes is that type renamed only when most members
    /// of each are the other's: `Exporter` kept one of `Backend`'s methods and added two, so all
    /// three are news. A changed file whose words name too few of the new type's members
    /// (`app/other.go`) is not parsed at B for a type renamed from it.
    #[test]
    fn a_new_type_sharing_few_members_with_a_removed_one_keeps_its_members_new() {
        let (db, parsed) = crate::test_support::go_database_counting_parses();
        let base = snapshot(&[
            (
                "app/backend.go",
                "package app

type Backend int

func (b Backend) String() string { return \"\" }
",
            ),
            (
                "app/other.go",
                "package app

func other() int { return 1 }
",
            ),
        ]);
        let exporter = "package app

type Exporter int

func (e Exporter) String() string { return \"\" }

func (e Exporter) Endpoint() string { return \"\" }

func (e Exporter) Headers() int { return 0 }
";
        let reference = snapshot(&[
            ("app/backend.go", exporter),
            (
                "app/other.go",
                "package app

func other() int { return 2 }
",
            ),
            (
                "app/backend_test.go",
                "package app

func TestExporter() {
	var e Exporter
	_ = e.String() + e.Endpoint()
	_ = e.Headers()
}
",
            ),
        ]);
        let selected = go_selection(&db, &base, &reference);
        assert_eq!(selected, ["app.Exporter", "app.Exporter.String", "app.Exporter.Endpoint", "app.Exporter.Headers"]);
        assert_eq!(*parsed.lock().unwrap(), 4, "backend.go at B and R, other.go at R, and the test");
    }

    /// A test helper's parameter shares its name with a local the code adds, but a plain name can
    /// only name a parameter as a keyword: nothing the code adds may name a definition of the
    /// test file, so the test file is not parsed at B to see which of its definitions are new.
    #[test]
    fn a_changed_file_none_of_whose_definitions_the_other_side_may_name_is_not_parsed_at_b() {
        let (db, parsed) = crate::test_support::go_database_counting_parses();
        let test_at_base = "package app\n\nfunc helper(limit int) int { return limit }\n";
        let base = snapshot(&[
            ("app/config.go", "package app\n\nfunc Load() int { return 1 }\n"),
            ("app/config_test.go", test_at_base),
        ]);
        let reference = snapshot(&[
            (
                "app/config.go",
                "package app\n\nfunc Load() int { return 1 }\n\nfunc Reload() int {\n\tlimit := 2\n\treturn limit\n}\n",
            ),
            ("app/config_test.go", &format!("{test_at_base}\nfunc TestReload() {{\n\t_ = Reload()\n}}\n")),
        ]);
        let selected = go_selection(&db, &base, &reference);
        assert_eq!(selected, ["app.Reload"]);
        assert_eq!(*parsed.lock().unwrap(), 3, "config.go at B and R, and the test at R only");
    }

    #[test]
    fn dotted_strings_use_each_component_after_the_first() {
        let uses = string_path_uses("pkg.mod.new_fn", Default::default());
        let spelled: Vec<(String, Option<String>)> = uses.into_iter().map(|u| (u.name, u.qualifier)).collect();
        assert_eq!(
            spelled,
            [("mod".to_owned(), Some("pkg".to_owned())), ("new_fn".to_owned(), Some("pkg.mod".to_owned()))]
        );
        for not_a_path in ["os", "error: bad value.", "a..b", "a.b c", "1.5", "path/to.py", ""] {
            assert!(string_path_uses(not_a_path, Default::default()).is_empty(), "{not_a_path:?}");
        }
    }
}
