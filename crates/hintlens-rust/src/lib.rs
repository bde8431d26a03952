//! The Rust frontend of hintlens: definitions, uses, imports and string literals of one Rust
//! file, read from a tree-sitter-rust syntax tree in a single walk.
//!
//! Choices the shared vocabulary leaves to each frontend:
//! - A module is a file: `src/builder/command.rs` of the crate in `clap_builder/` is the module
//!   `clap_builder.builder.command` (`lib.rs`, `main.rs` and `mod.rs` name their directory; the
//!   crate at the repository's top has no prefix). Files outside `src/` (`tests/`, `examples/`,
//!   `benches/`) are named by their path.
//! - `Cargo.toml` files are claimed too, and read for the crate's name alone
//!   ([`Frontend::manifest_roots`]): `use clap::Command` leads into the crate whose manifest says
//!   `name = "clap"`, and a path into a crate no manifest names (`std`, `serde`) leads out of
//!   the repository.
//! - `crate::`, `self::` and `super::` paths are resolved against the file's module
//!   ([`Frontend::import_target`]); inside an inline `mod tests { … }` the walk rewrites them
//!   relative to the file first. A path's first segment is in scope as a crate even without a
//!   `use` (Rust's extern prelude).
//! - An inline module sees none of the names around it: its uses of the file's items go through
//!   `use super::*` or `super::` paths, as in Rust.
//! - Methods, associated functions and associated constants belong to their `impl`'s type
//!   (`Stack.peek`); a method of `impl Trait for T` says which trait in its signature
//!   (`impl Display for Point { fn fmt(…) }`). Trait methods belong to their trait.
//! - Named struct, union and variant fields are constructor keywords: a struct literal's key
//!   (`Options { retries: 3 }`) is a keyword argument qualified by the literal's type.
//! - `let` bindings, parameters, closure parameters, pattern bindings and items inside function
//!   bodies are never definitions; they bind.
//! - Macro arguments are token trees, not syntax: the walk reads their identifiers as uses (a
//!   call before `(`, a member after `.`, a path segment after `::`, a keyword argument before
//!   `:` inside a struct literal's braces).
//! - `#[cfg(test)]` items and `#[test]` functions are test code ([`FileIndex::tests`]).

mod walk;

use hintlens_syntax::lexical::{CStyle, Dialect};
use hintlens_syntax::{DefId, DefKind, Definition, FileIndex, Frontend, LanguageSpec, ModuleRoot, UseKind};

/// The Rust [`Frontend`]: claims `*.rs` files and `Cargo.toml` manifests.
#[derive(Debug, Clone, Copy, Default)]
pub struct Rust;

static SPEC: LanguageSpec = LanguageSpec {
    name: "rust",
    extensions: &[".rs"],
    shared_extensions: &[],
    lexical: Dialect::C(CStyle { nested_comments: true, rust: true, ..CStyle::PLAIN }),
    test_patterns: &["benches/", "examples/"],
    keywords: &[
        "Self", "as", "async", "await", "break", "const", "continue", "crate", "dyn", "else", "enum", "extern",
        "false", "fn", "for", "if", "impl", "in", "let", "loop", "match", "mod", "move", "mut", "pub", "ref", "return",
        "self", "static", "struct", "super", "trait", "true", "type", "unsafe", "use", "where", "while",
    ],
};

impl Frontend for Rust {
    hintlens_tree::frontend!(spec: SPEC, grammar: tree_sitter_rust::LANGUAGE, walk: walk::extract);

    /// A `#[test]` function, which the harness runs; anything of an integration-test crate
    /// (`tests/*.rs`), which library code cannot name — but for the methods of its trait impls,
    /// which the library reaches through the trait (a fake implementing it).
    fn is_collected(&self, path: &str, index: &FileIndex, id: DefId) -> bool {
        let d = index.definition(id);
        d.collected || is_integration_test(path) && !d.signature.starts_with("impl ")
    }

    /// A crate's name, a root below the manifest's directory; none for a workspace's manifest.
    fn manifest_roots(&self, text: &[u8]) -> Option<Vec<ModuleRoot>> {
        let prefix = manifest_crate_name(text)?;
        Some(
            (!prefix.is_empty())
                .then_some(ModuleRoot { prefix, dir: String::new(), prefix_in_path: false })
                .into_iter()
                .collect(),
        )
    }

    fn source_module_name(&self, path: &str, _index: &FileIndex) -> String {
        module_of_path(path)
    }

    fn qualified_name(&self, path: &str, index: &FileIndex, local_name: &str) -> String {
        match self.module_name(path, index).as_str() {
            "" => local_name.to_owned(),
            module => format!("{module}.{local_name}"),
        }
    }

    /// Rust keeps types and values apart: a type position names a type; `use` names items.
    fn use_can_reach(&self, def: DefKind, use_: UseKind) -> bool {
        match use_ {
            UseKind::Type | UseKind::Base => matches!(
                def,
                DefKind::Struct
                    | DefKind::Enum
                    | DefKind::Union
                    | DefKind::Trait
                    | DefKind::TypeAlias
                    | DefKind::Type
                    | DefKind::Module
                    | DefKind::File
            ),
            // `use` brings items, never a field or a method.
            UseKind::Import => !matches!(def, DefKind::Field | DefKind::Method),
            _ => true,
        }
    }

    /// No `pub`: private to its module. Trait members, trait implementations' members and enum
    /// variants are as public as their trait or enum; macros are exported by attribute.
    fn is_private(&self, def: &Definition) -> bool {
        let public = ["pub", "impl ", "trait ", "unsafe impl "].iter().any(|p| def.signature.starts_with(p));
        !public && !matches!(def.kind, DefKind::Variant | DefKind::Macro)
    }

    /// `Type::f` is that type's `f` (or a trait's it implements).
    fn paths_are_static(&self) -> bool {
        true
    }

    /// `main` is the language's.
    fn is_special(&self, def: &Definition) -> bool {
        def.kind == DefKind::Function && def.name == "main" && def.parent.is_none()
    }

    /// `crate::a::b` from the crate's root, `self::a` from the file's module, `super::a` from its
    /// parent; another path stays as written (a crate's name first).
    fn import_target(&self, importing_path: &str, importing_module: &str, module: &str) -> String {
        let mut parts = module.split('.').filter(|p| !p.is_empty()).peekable();
        let mut base: Vec<String> = match parts.peek() {
            Some(&"crate") => {
                parts.next();
                split(&crate_root(importing_path))
            }
            Some(&"self") => {
                parts.next();
                split(importing_module)
            }
            Some(&"super") => {
                let mut base = split(importing_module);
                while parts.peek() == Some(&"super") {
                    parts.next();
                    base.pop();
                }
                base
            }
            _ => return module.to_owned(),
        };
        base.extend(parts.map(str::to_owned));
        base.join(".")
    }

    /// A manifest's crate name.
    fn is_manifest(&self, path: &str) -> bool {
        is_manifest(path)
    }

    fn module_name_reads_file(&self) -> bool {
        false
    }

    /// The crate whose manifest is in the root's directory, then the modules below its root:
    /// `clap::builder` with `Cargo.toml` at the top is `src.builder`.
    fn module_below_root(&self, root: &ModuleRoot, module: &str) -> Option<String> {
        let rest = root.rest_of(module)?;
        let mut parts: Vec<&str> = root.dir.split('/').filter(|p| !p.is_empty()).collect();
        if parts.is_empty() {
            parts.push(TOP_CRATE);
        }
        parts.extend(rest.split(['.', '/']).filter(|p| !p.is_empty()));
        Some(parts.join("."))
    }
}

/// A file of an integration-test crate: below a `tests/` directory that no `src/` holds.
fn is_integration_test(path: &str) -> bool {
    let parts: Vec<&str> = path.split('/').collect();
    parts.iter().position(|&p| p == "tests").is_some_and(|at| at + 1 < parts.len() && !parts[..at].contains(&"src"))
}

fn split(module: &str) -> Vec<String> {
    module.split('.').filter(|p| !p.is_empty()).map(str::to_owned).collect()
}

fn is_manifest(path: &str) -> bool {
    path == "Cargo.toml" || path.ends_with("/Cargo.toml")
}

/// How the crate at the top of the repository is named in module names: by its `src` directory,
/// since other crates name it by what only its manifest knows, and lookups go by path.
const TOP_CRATE: &str = "src";

/// The module a file is: its crate's directory (`src` for the crate at the top), then its path
/// below `src/`, without `lib`, `main` and `mod` file names; files outside a `src/` directory by
/// their whole path.
pub fn module_of_path(path: &str) -> String {
    let stem = path.strip_suffix(".rs").unwrap_or(path);
    let components: Vec<&str> = stem.split('/').filter(|c| !c.is_empty()).collect();
    let (crate_dir, below) = match components.iter().position(|&c| c == "src") {
        Some(0) => (&[TOP_CRATE][..], &components[1..]),
        Some(at) => (&components[..at], &components[at + 1..]),
        None => (&components[..0], &components[..]),
    };
    let mut parts: Vec<&str> = crate_dir.iter().chain(below).copied().collect();
    if let Some(&last) = parts.last()
        && (last == "mod" || (!below.is_empty() && below.len() == 1 && (last == "lib" || last == "main")))
    {
        parts.pop();
    }
    parts.join(".")
}

/// The module of the crate root a file belongs to: its crate's directory.
fn crate_root(path: &str) -> String {
    let components: Vec<&str> = path.split('/').collect();
    match components.iter().position(|&c| c == "src") {
        Some(0) => TOP_CRATE.to_owned(),
        Some(at) => components[..at].join("."),
        // A file of `tests/` or `examples/` is a crate of its own.
        None => module_of_path(path),
    }
}

/// The crate name a `Cargo.toml` gives its library: `[lib] name`, else `[package] name`, with
/// `-` read as `_` as Rust code spells it. `None` for text that is no package manifest (a Rust
/// file never has a `[package]` table line).
fn manifest_crate_name(text: &[u8]) -> Option<String> {
    let text = std::str::from_utf8(text).ok()?;
    let mut table = "";
    let (mut package, mut lib) = (None, None);
    let mut is_manifest = false;
    for line in text.lines().map(str::trim) {
        if line.starts_with("[[") {
            // `[[bin]]`, `[[example]]`: their names are no crate's.
            table = "";
            continue;
        }
        if line.starts_with('[') && line.ends_with(']') {
            table = line.trim_matches(['[', ']']).trim();
            is_manifest |= table == "package" || table == "workspace";
            continue;
        }
        let Some((key, value)) = line.split_once('=') else { continue };
        if key.trim() != "name" {
            continue;
        }
        let value = value.trim().trim_matches('"').trim_matches('\'').replace('-', "_");
        match table {
            "package" => package = Some(value),
            "lib" => lib = Some(value),
            _ => {}
        }
    }
    if !is_manifest {
        return None;
    }
    Some(lib.or(package).unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn modules_are_files_below_their_crate() {
        let paths = [
            "src/lib.rs",
            "src/main.rs",
            "src/builder/mod.rs",
            "src/builder/command.rs",
            "src/bin/main.rs",
            "clap_builder/src/lib.rs",
            "clap_builder/src/builder/command.rs",
            "tests/builder/main.rs",
            "tests/derive/mod.rs",
            "clap_lex/Cargo.toml",
        ];
        insta::assert_snapshot!(hintlens_tree::testing::module_names(&Rust, &paths), @r"
        src/lib.rs → src
        src/main.rs → src
        src/builder/mod.rs → src.builder
        src/builder/command.rs → src.builder.command
        src/bin/main.rs → src.bin.main
        clap_builder/src/lib.rs → clap_builder
        clap_builder/src/builder/command.rs → clap_builder.builder.command
        tests/builder/main.rs → tests.builder.main
        tests/derive/mod.rs → tests.derive
        clap_lex/Cargo.toml → clap_lex/Cargo.toml
        ");
        let index = FileIndex::default();
        assert_eq!(Rust.qualified_name("src/lib.rs", &index, "run"), "src.run");
        assert_eq!(Rust.qualified_name("src/stack.rs", &index, "Stack.peek"), "src.stack.Stack.peek");
        let root = |dir: &str| ModuleRoot { prefix: "clap".to_owned(), dir: dir.to_owned(), prefix_in_path: false };
        assert_eq!(Rust.module_below_root(&root(""), "clap.builder.command").as_deref(), Some("src.builder.command"));
        assert_eq!(Rust.module_below_root(&root("clap_builder"), "clap").as_deref(), Some("clap_builder"));
        assert_eq!(Rust.module_below_root(&root("crates/nu-cmd"), "clap.x").as_deref(), Some("crates.nu-cmd.x"));
        assert_eq!(Rust.module_below_root(&root(""), "clapx.y"), None);
    }

    #[test]
    fn relative_paths_resolve_against_the_file() {
        let m = "clap_builder.builder.command";
        let path = "clap_builder/src/builder/command.rs";
        assert_eq!(Rust.import_target(path, m, "crate.util.Id"), "clap_builder.util.Id");
        assert_eq!(Rust.import_target(path, m, "self.tests"), "clap_builder.builder.command.tests");
        assert_eq!(Rust.import_target(path, m, "super.arg.Arg"), "clap_builder.builder.arg.Arg");
        assert_eq!(Rust.import_target(path, m, "super.super.Id"), "clap_builder.Id");
        assert_eq!(Rust.import_target(path, m, "std.fmt"), "std.fmt");
        assert_eq!(Rust.import_target("src/stack.rs", "src.stack", "crate.util"), "src.util");
        assert_eq!(Rust.import_target("src/lib.rs", "src", "self"), "src");
    }

    #[test]
    fn manifests_name_their_crate() {
        assert!(Rust.claims("Cargo.toml") && Rust.claims("clap_lex/Cargo.toml") && !Rust.claims("Cargo.lock"));
        let index =
            Rust.extract(b"[package]\nname = \"clap-builder\"\nversion = \"4\"\n\n[dependencies]\nname = \"x\"\n");
        let roots = &index.roots;
        assert_eq!(
            roots.iter().map(|r| (r.prefix.as_str(), r.dir.as_str())).collect::<Vec<_>>(),
            [("clap_builder", "")]
        );
        let lib = Rust.extract(b"[package]\nname = \"bat\"\n[lib]\nname = \"bat_lib\"\n[[bin]]\nname = \"bat\"\n");
        assert_eq!(lib.roots.iter().map(|r| r.prefix.as_str()).collect::<Vec<_>>(), ["bat_lib"]);
        // A workspace manifest names no crate (and is not read as Rust); Rust source is no manifest.
        let workspace = Rust.extract(b"[workspace]\nmembers = [\"a\"]\n");
        assert!(workspace.roots.is_empty() && workspace.errors.is_empty() && workspace.uses.is_empty());
        assert_eq!(manifest_crate_name(b"fn main() {}\n"), None);
        assert!(Rust.extract(b"fn main() {}\n").roots.is_empty());
    }
}
