//! The Go frontend of hintlens: definitions, uses, imports and string literals of one Go file,
//! read from a tree-sitter-go syntax tree in a single walk.
//!
//! Choices the shared vocabulary leaves to each frontend:
//! - A module is a package: a directory. `module_name` is the directory path (`internal/server`),
//!   qualified names hang off it (`internal/server.Store.SetLimit`); an import path
//!   (`go.flipt.io/flipt/internal/server`) names the same module, since names compare by their
//!   trailing components. A package new in the reference is a `package` definition named by its
//!   `package` clause, whose path is the directory.
//! - Files of one directory and one `package` clause share their names without imports
//!   ([`Frontend::namespace`]); an external test package (`package store_test`) is another
//!   package and imports.
//! - Methods belong to their receiver's type (`Store.SetLimit`); when that type is declared in
//!   another file of the package the method has no parent definition in this file, only its
//!   local name says whose it is.
//! - Struct fields, embedded ones included (named by their type), are constructor keywords: a
//!   composite literal's key (`Options{Timeout: d}`) is a keyword argument qualified by the
//!   literal's type, or by nothing where the type is elided (`[]Options{{Timeout: d}}`).
//! - Parameters are never definitions: Go has no keyword arguments.
//! - Local `:=`, `var` and `const` inside bodies are never definitions; they bind.
//! - A comment block directly above a declaration is its documentation.
//! - `go.mod` files are claimed too, and read for their module path alone
//!   ([`Frontend::manifest_roots`]): imports under it lead to the repository's directories, other
//!   imports (the standard library, dependencies) out of it. A new package's qualified name is
//!   then its import path.
//! - A type reference (a type position, a composite literal's type) can only name a type.
//! - testify looks mocked methods up by name: the method string of `m.On("Fetch", …)`,
//!   `m.MethodCalled("Fetch", …)` and `m.AssertCalled(t, "Fetch", …)` (and `AssertNotCalled`,
//!   `AssertNumberOfCalls`) is a call of `Fetch` on a receiver of unknown type. Other strings
//!   name nothing.

mod gomod;
mod walk;

use hintlens_syntax::lexical::{Backtick, CStyle, Dialect};
use hintlens_syntax::{
    DefId, DefKind, Definition, FileIndex, Frontend, LanguageSpec, ModuleDefinition, ModuleRoot, UseKind,
};

/// The Go [`Frontend`]: claims `*.go` files.
#[derive(Debug, Clone, Copy, Default)]
pub struct Go;

static SPEC: LanguageSpec = LanguageSpec {
    name: "go",
    extensions: &[".go"],
    shared_extensions: &[],
    lexical: Dialect::C(CStyle { backtick: Backtick::Raw, ..CStyle::PLAIN }),
    test_patterns: &["*_test.go", "testdata/"],
    keywords: &[
        "break", "case", "chan", "const", "continue", "default", "defer", "else", "fallthrough", "for", "func", "go",
        "goto", "if", "import", "interface", "map", "package", "range", "return", "select", "struct", "switch", "type",
        "var",
    ],
};

impl Frontend for Go {
    hintlens_tree::frontend!(spec: SPEC, grammar: tree_sitter_go::LANGUAGE, walk: walk::extract);

    /// What `go test` runs: a function `TestXxx`, `BenchmarkXxx`, `ExampleXxx` or `FuzzXxx`
    /// (the rest not starting with a lower-case letter).
    fn is_collected(&self, _path: &str, index: &FileIndex, id: DefId) -> bool {
        let d = index.definition(id);
        d.kind == DefKind::Function
            && d.parent.is_none()
            && ["Test", "Benchmark", "Example", "Fuzz"].iter().any(|prefix| {
                d.name.strip_prefix(prefix).is_some_and(|rest| !rest.starts_with(|c: char| c.is_lowercase()))
            })
    }

    /// A `go.mod`'s module path, a root below the manifest's directory (no Go source file can
    /// be mistaken for one).
    fn manifest_roots(&self, text: &[u8]) -> Option<Vec<ModuleRoot>> {
        let prefix = gomod::module_path(text)?;
        Some(vec![ModuleRoot { prefix, dir: String::new(), prefix_in_path: false }])
    }

    /// The package's directory: `internal/server` for `internal/server/store.go`, empty at the
    /// root.
    fn source_module_name(&self, path: &str, _index: &FileIndex) -> String {
        directory(path).to_owned()
    }

    fn qualified_name(&self, path: &str, _index: &FileIndex, local_name: &str) -> String {
        match directory(path) {
            "" => local_name.to_owned(),
            dir => format!("{dir}.{local_name}"),
        }
    }

    /// Go's namespaces are one for values: a method can be called or taken as a value, a field
    /// read or called when it holds a function (keyword-like uses are the core's rule). A type
    /// reference, though, names a type: the embedded `mock.Mock` of a struct is no use of
    /// another struct's field `Mock`.
    fn use_can_reach(&self, def: DefKind, use_: UseKind) -> bool {
        match use_ {
            UseKind::Type | UseKind::Instantiation => {
                matches!(def, DefKind::Struct | DefKind::Interface | DefKind::Type | DefKind::TypeAlias)
            }
            _ => true,
        }
    }

    /// Unexported: a lower-case first letter (or `_`).
    fn is_private(&self, def: &Definition) -> bool {
        !def.name.starts_with(|c: char| c.is_uppercase())
    }

    /// `init` functions are the language's.
    fn is_special(&self, def: &Definition) -> bool {
        def.kind == DefKind::Function && (def.name == "init" || def.name == "main" || def.name == "_")
    }

    /// One directory and one `package` clause: `store` and `store_test` are two packages.
    fn namespace(&self, path: &str, index: &FileIndex) -> Option<String> {
        Some(format!("{}:{}", directory(path), index.package.as_deref().unwrap_or_default()))
    }

    /// A `go.mod`'s module path.
    fn is_manifest(&self, path: &str) -> bool {
        is_go_mod(path)
    }

    fn module_name_reads_file(&self) -> bool {
        false
    }

    fn bare_names_reach_members(&self) -> bool {
        false
    }

    /// An import binds its package's name in the importing file only.
    fn imports_are_members(&self) -> bool {
        false
    }

    fn module_definition(&self, path: &str, index: &FileIndex) -> ModuleDefinition {
        let dir = directory(path);
        let name = match index.package.as_deref() {
            Some(package) if !package.is_empty() => package.to_owned(),
            _ => dir.rsplit('/').next().unwrap_or(dir).to_owned(),
        };
        ModuleDefinition { name, kind: DefKind::Package, path: dir.to_owned() }
    }
}

fn is_go_mod(path: &str) -> bool {
    path == "go.mod" || path.ends_with("/go.mod")
}

fn directory(path: &str) -> &str {
    path.rsplit_once('/').map_or("", |(dir, _)| dir)
}

/// The package name an import path brings into scope when the import names none: its last
/// component, skipping a major-version suffix (`…/v2`) and the conventional `go-` prefix and
/// `.vN` suffix (`gopkg.in/yaml.v3` → `yaml`).
pub(crate) fn package_name_of(import_path: &str) -> &str {
    let mut components = import_path.rsplit('/').filter(|c| !c.is_empty());
    let mut last = components.next().unwrap_or(import_path);
    let is_version = |c: &str| c.len() > 1 && c.starts_with('v') && c[1..].bytes().all(|b| b.is_ascii_digit());
    if is_version(last) {
        last = components.next().unwrap_or(last);
    }
    let last = last.strip_prefix("go-").unwrap_or(last);
    match last.rsplit_once('.') {
        Some((stem, suffix)) if is_version(suffix) || suffix == "go" => stem,
        _ => last,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn package_names_of_import_paths() {
        for (path, name) in [
            ("fmt", "fmt"),
            ("go.flipt.io/flipt/internal/server", "server"),
            ("github.com/google/go-cmp/cmp", "cmp"),
            ("github.com/go-git/go-git/v5", "git"),
            ("gopkg.in/yaml.v3", "yaml"),
            ("github.com/mattn/go-sqlite3", "sqlite3"),
        ] {
            assert_eq!(package_name_of(path), name, "{path}");
        }
    }

    #[test]
    fn modules_are_directories() {
        let index = Go.extract(b"package server\n");
        assert_eq!(Go.module_name("internal/server/store.go", &index), "internal/server");
        assert_eq!(Go.qualified_name("internal/server/store.go", &index, "Store.Get"), "internal/server.Store.Get");
        assert_eq!(Go.qualified_name("main.go", &index, "run"), "run");
        let module = Go.module_definition("internal/server/store.go", &index);
        assert_eq!(
            (module.name.as_str(), module.kind, module.path.as_str()),
            ("server", DefKind::Package, "internal/server")
        );
        let test = Go.extract(b"package server_test\n");
        assert_ne!(Go.namespace("internal/server/x_test.go", &test), Go.namespace("internal/server/store.go", &index));
    }

    #[test]
    fn go_mod_roots_the_module() {
        assert!(Go.claims("go.mod") && Go.claims("errors/go.mod") && !Go.claims("go.sum") && !Go.claims("xgo.mod"));
        let manifest = Go.extract(b"module go.flipt.io/flipt/errors\n\ngo 1.21\n\nrequire x v1\n");
        assert!(manifest.definitions.is_empty() && manifest.uses.is_empty() && manifest.errors.is_empty());
        let roots = &manifest.roots;
        assert_eq!(
            roots.iter().map(|r| (r.prefix.as_str(), r.dir.as_str())).collect::<Vec<_>>(),
            [("go.flipt.io/flipt/errors", "")]
        );
        // No import spells a manifest's module name.
        assert_eq!(Go.module_name("errors/go.mod", &manifest), "errors/go.mod");
        let source = Go.extract(b"package errors\n");
        assert!(source.roots.is_empty());
    }

    #[test]
    fn type_references_name_types_only() {
        assert!(Go.use_can_reach(DefKind::Struct, UseKind::Type));
        assert!(Go.use_can_reach(DefKind::TypeAlias, UseKind::Instantiation));
        assert!(!Go.use_can_reach(DefKind::Field, UseKind::Type));
        assert!(!Go.use_can_reach(DefKind::Function, UseKind::Instantiation));
        assert!(Go.use_can_reach(DefKind::Field, UseKind::Attribute));
        assert!(Go.use_can_reach(DefKind::Type, UseKind::Call));
    }
}
