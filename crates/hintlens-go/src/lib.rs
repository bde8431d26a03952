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

mod walk;

use hintlens_syntax::{DefKind, Definition, FileIndex, Frontend, ModuleDefinition, UseKind};
use tree_sitter::{Parser, Tree};

/// The Go [`Frontend`]: claims `*.go` files.
#[derive(Debug, Clone, Copy, Default)]
pub struct Go;

impl Frontend for Go {
    fn language(&self) -> &'static str {
        "go"
    }

    fn claims(&self, path: &str) -> bool {
        path.ends_with(".go")
    }

    fn extract(&self, text: &[u8]) -> FileIndex {
        match parse_only(text) {
            Some(tree) => walk::extract(text, &tree),
            None => FileIndex::default(),
        }
    }

    /// The package's directory: `internal/server` for `internal/server/store.go`, empty at the
    /// root.
    fn module_name(&self, path: &str, _index: &FileIndex) -> String {
        directory(path).to_owned()
    }

    fn qualified_name(&self, path: &str, _index: &FileIndex, local_name: &str) -> String {
        match directory(path) {
            "" => local_name.to_owned(),
            dir => format!("{dir}.{local_name}"),
        }
    }

    /// Go's namespaces are one: a method can be called or taken as a value, a field read or
    /// called when it holds a function. Only keyword-like uses are narrower (the core's rule).
    fn use_can_reach(&self, _def: DefKind, _use: UseKind) -> bool {
        true
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

    fn test_patterns(&self) -> &'static [&'static str] {
        &["*_test.go", "testdata/"]
    }

    fn module_definition(&self, path: &str, index: &FileIndex) -> ModuleDefinition {
        let dir = directory(path);
        let name = match index.package.as_deref() {
            Some(package) if !package.is_empty() => package.to_owned(),
            _ => dir.rsplit('/').next().unwrap_or(dir).to_owned(),
        };
        ModuleDefinition { name, kind: DefKind::Package, path: dir.to_owned() }
    }

    fn bare_parse(&self, text: &[u8]) -> usize {
        parse_only(text).map_or(0, |tree| tree.root_node().child_count() as usize)
    }
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

/// Parses `text` and nothing more: the baseline extraction throughput is measured against.
pub fn parse_only(text: &[u8]) -> Option<Tree> {
    let mut parser = Parser::new();
    parser.set_language(&tree_sitter_go::LANGUAGE.into()).ok()?;
    parser.parse(text, None)
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
}
