//! The PHP frontend of hintlens: definitions, uses, imports and string literals of one PHP file
//! (`<?php` code with inline HTML around it), read from a tree-sitter-php syntax tree in one walk.
//!
//! Choices the shared vocabulary leaves to each frontend:
//! - Names are dotted as everywhere else in hintlens: the namespace `App\Http` is the package
//!   `App.Http`, the method `App\Http\Client::send` is `App.Http.Client.send`. A module is a
//!   class file as PSR-4 and PSR-0 autoloading lay them out: the file's namespace and its stem
//!   (`src/Http/Client.php` declaring `namespace App\Http;` is `App.Http.Client`), so a `use`
//!   import of a class names its file as an autoloader would find it. The namespace is read from
//!   the file itself, which is what composer's maps point at.
//! - `composer.json` is a manifest of several module roots ([`Frontend::manifest_roots`]): its
//!   `autoload` and `autoload-dev` PSR-4, PSR-0 and classmap maps. Where a repository has them,
//!   the class a fully qualified name names is the file the map places it in (when that file
//!   exists; else the files declaring it are looked for), and a namespace no map holds
//!   (`PHPUnit\Framework`) is a dependency's, out of the repository.
//! - A namespace's names are visible to its other files without an import
//!   ([`Frontend::namespace`]), as unqualified class names resolve in PHP.
//! - Members: `->name` and `?->name` are members of a value whose type is unknown, matched by
//!   name; `self::`, `static::` and `parent::` likewise. `T::name` is qualified by `T`, which
//!   is looked up in the file's imports, its own definitions and its namespace; `T` itself is a
//!   use of the class.
//! - Variables (`$x`, `$this`) are never uses: a local is no property, whatever its name.
//! - A constructor-promoted parameter (`private Logger $logger`) is both a property of the class
//!   and a parameter of `__construct` (a keyword for `new T(logger: …)`). Every parameter is a
//!   definition, for named arguments.
//! - Magic methods (`__construct`, `__get`, …) are the language's, never hints.
//! - Strings that name members are uses of them: `->method('name')` (PHPUnit's and Prophecy's
//!   mocks), `[$obj, 'name']` and `[T::class, 'name']` callables, `#[DataProvider('name')]`, and
//!   `@dataProvider name` in a doc comment.
//! - `define('X', …)` at any level and `const X = …` outside classes define global constants.
//! - Test code: `tests/` and `*Test.php`. PHPUnit runs public `test*` methods and those marked
//!   `@test` or `#[Test]`, of classes whose name ends in `Test` or that extend a `TestCase`:
//!   those are collected, and so are a test's private members, which no code can reach. Pest's
//!   `it()`/`test()` closures define nothing.
//! - `$this->name`, `self::name` and `static::name` where the class declares `name` itself are
//!   its own members ([`hintlens_syntax::Binding::OwnMember`]): a test's call of its own helper
//!   is no use of a new code method of that name.

mod composer;
mod walk;

use hintlens_syntax::lexical::{Backtick, CStyle, Dialect};
use hintlens_syntax::{DefId, DefKind, Definition, FileIndex, Frontend, LanguageSpec, ModuleRoot, UseKind};
use hintlens_tree::packages;
use tree_sitter::Tree;

/// The PHP [`Frontend`]: claims `*.php` files.
#[derive(Debug, Clone, Copy, Default)]
pub struct Php;

static SPEC: LanguageSpec = LanguageSpec {
    name: "php",
    extensions: &[".php"],
    shared_extensions: &[],
    // `#` comments are read as code by the words lexer: a word too many, never one too few.
    lexical: Dialect::C(CStyle { single_quote_strings: true, backtick: Backtick::Raw, php: true, ..CStyle::PLAIN }),
    test_patterns: &["*Test.php", "tests/"],
    keywords: &[
        "abstract", "and", "array", "as", "break", "callable", "case", "catch", "class", "clone", "const", "continue",
        "declare", "default", "do", "echo", "else", "elseif", "empty", "enddeclare", "endfor", "endforeach", "endif",
        "endswitch", "endwhile", "enum", "extends", "final", "finally", "fn", "for", "foreach", "function", "global",
        "goto", "if", "implements", "include", "instanceof", "insteadof", "interface", "isset", "list", "match",
        "namespace", "new", "or", "print", "private", "protected", "public", "readonly", "require", "return", "static",
        "switch", "throw", "trait", "try", "unset", "use", "var", "while", "xor", "yield",
    ],
};

impl Frontend for Php {
    hintlens_tree::frontend!(spec: SPEC, grammar: tree_sitter_php::LANGUAGE_PHP, walk: walk::extract);

    // PHP names live in namespaces, not files: the module is `Namespace.Stem`, the class an
    // autoloader finds in the file (`App.Http.Client`); qualified names `App.Http.Client.send`.
    hintlens_tree::package_names!(extension: ".php");

    /// Methods, properties and constants live apart: `->name(…)` calls a method and `->name`
    /// reads a property; `T::NAME` is a constant or case, `T::$name` a static property. A
    /// type position names a class-like type.
    fn use_can_reach(&self, def: DefKind, use_: UseKind) -> bool {
        match def {
            DefKind::Method | DefKind::Constructor | DefKind::Function => {
                matches!(use_, UseKind::Call | UseKind::Import | UseKind::Decorator)
            }
            DefKind::Property | DefKind::Constant | DefKind::EnumConstant => {
                matches!(use_, UseKind::Attribute | UseKind::Name | UseKind::Import)
            }
            DefKind::Class | DefKind::Interface | DefKind::Trait | DefKind::Enum => !matches!(use_, UseKind::Call),
            _ => true,
        }
    }

    /// A `private` modifier before the name.
    fn is_private(&self, def: &Definition) -> bool {
        packages::has_modifier(def, "private")
    }

    /// What PHPUnit runs (the walk's marks), and a test class's private members: no code can
    /// call or read them, not even a subclass's.
    fn is_collected(&self, _path: &str, index: &FileIndex, id: DefId) -> bool {
        let d = index.definition(id);
        d.collected || (d.parent.is_some() && packages::has_modifier(d, "private"))
    }

    /// An unqualified function or constant falls back to the global namespace.
    fn falls_back_to_global(&self, def: DefKind) -> bool {
        matches!(def, DefKind::Function | DefKind::Constant)
    }

    /// `composer.json`, wherever it is (a package of a monorepo has its own).
    fn is_manifest(&self, path: &str) -> bool {
        path == "composer.json" || path.ends_with("/composer.json")
    }

    /// Its autoload maps ([`composer::roots`]).
    fn manifest_roots(&self, text: &[u8]) -> Option<Vec<ModuleRoot>> {
        composer::roots(text)
    }

    /// The namespace as written, when the root holds it: PHP's modules are named by their
    /// namespaces, wherever the map puts their files.
    fn module_below_root(&self, root: &ModuleRoot, module: &str) -> Option<String> {
        composer::holds(root, module).then(|| module.to_owned())
    }

    /// Where composer's PSR-4 or PSR-0 map puts the class.
    fn file_below_root(&self, root: &ModuleRoot, name: &str) -> Option<String> {
        composer::class_file(root, name)
    }

    /// Magic methods (`__construct`, `__get`, `__toString`, …): their names are PHP's.
    fn is_special(&self, def: &Definition) -> bool {
        matches!(def.kind, DefKind::Method | DefKind::Constructor | DefKind::Function) && def.name.starts_with("__")
    }

    /// `use A\B;` lets the importing file write `B`; it adds nothing to the file's class.
    fn imports_are_members(&self) -> bool {
        false
    }

    /// A bare name is a class, function or constant: a member is always reached through
    /// `->`, `?->` or `::`.
    fn bare_names_reach_members(&self) -> bool {
        false
    }
}

/// Parses without extracting anything: the baseline extraction is measured against.
pub fn parse_only(text: &[u8]) -> Option<Tree> {
    hintlens_tree::parse(&tree_sitter_php::LANGUAGE_PHP.into(), text, None)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn modules_are_namespaced_class_files() {
        let index = Php.extract(b"<?php\nnamespace App\\Http;\nclass Client {}\n");
        assert_eq!(Php.module_name("src/Http/Client.php", &index), "App.Http.Client");
        assert_eq!(Php.qualified_name("src/Http/Client.php", &index, "Client.send"), "App.Http.Client.send");
        let global = Php.extract(b"<?php\nfunction f() {}\n");
        assert_eq!(Php.module_name("lib/helpers.php", &global), "helpers");
        assert_eq!(Php.qualified_name("lib/helpers.php", &global, "f"), "f");
    }
}
