//! The TypeScript and JavaScript frontends of hintlens: definitions, uses, imports and string
//! literals of one TS, TSX, JS or JSX file (ES modules and CommonJS), read from a tree-sitter
//! syntax tree in a single walk.
//!
//! Three frontends share the walk: [`Script::typescript`] (`.ts .mts .cts`), [`Script::tsx`]
//! (`.tsx`: the TSX grammar, since `<T>x` casts and JSX cannot share one) and
//! [`Script::javascript`] (`.js .jsx .mjs .cjs`: the JavaScript grammar, JSX included).
//! [`frontends`] registers all three.
//!
//! Choices the shared vocabulary leaves to each frontend:
//! - A module is a file: `module_name` is its path without the extension, and without a
//!   trailing `/index` (`src/user/index.js` is `src/user`). A relative import (`../src/user`)
//!   resolves against the importing file; a package import (`lodash`) stays as written.
//! - Module-level functions (declared, or `const f = (…) => …`), classes and their members
//!   (methods, accessors, fields, `this.x = …` in the constructor, constructor parameter
//!   properties), interfaces and object type aliases with their properties and methods, enums
//!   and their members, namespaces, module-level `const`/`let`/`var`, CommonJS exports
//!   (`module.exports = {…}`, `exports.name = …`) and member assignments that define API
//!   (`User.getDisplayName = async function …` at module level, or in the body of the function
//!   `module.exports` is, as NodeBB writes it) are definitions. Locals never are.
//! - Interface and type-literal properties are constructor keywords: an object literal passed
//!   as an argument (`new Client({ timeoutMs: 5 })`) names them, by name, since the call does not
//!   say which interface its options are. A JSX attribute is a keyword argument qualified by its
//!   component (`<Button onHover={…}>`). Where no named type declares a callable's options, the
//!   keys of its destructured object parameter (`function call(url, { timeout } = {})`) are its
//!   parameters, which such a literal names too.
//! - The keys of an exported object literal (`export const api = {…}`, `export default {…}`, a
//!   constant exported further down) are its members; those of `module.exports = {…}` the
//!   module's own.
//! - `import`, `export … from` (re-exports) and `require` are imports; every component of their
//!   path is a use of the module it names.

mod grammar;
mod walk;

use hintlens_syntax::lexical::{Backtick, CStyle, Dialect as Lexical};
use hintlens_syntax::reuse::{Earlier, Parse};
use hintlens_syntax::{DefKind, Definition, FileIndex, Frontend, LanguageSpec, ModuleDefinition};
use tree_sitter::Language;

/// Which grammar a file is parsed with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dialect {
    TypeScript,
    Tsx,
    JavaScript,
}

impl Dialect {
    fn language(self) -> Language {
        match self {
            Dialect::TypeScript => tree_sitter_typescript::LANGUAGE_TYPESCRIPT.into(),
            Dialect::Tsx => tree_sitter_typescript::LANGUAGE_TSX.into(),
            Dialect::JavaScript => tree_sitter_javascript::LANGUAGE.into(),
        }
    }

    fn spec(self) -> &'static LanguageSpec {
        match self {
            Dialect::TypeScript => &TYPESCRIPT,
            Dialect::Tsx => &TSX,
            Dialect::JavaScript => &JAVASCRIPT,
        }
    }
}

/// What the three dialects share of their [`LanguageSpec`].
const SHARED: LanguageSpec = LanguageSpec {
    name: "typescript",
    extensions: &[],
    shared_extensions: &[],
    lexical: Lexical::C(CStyle { single_quote_strings: true, backtick: Backtick::Template, ..CStyle::PLAIN }),
    test_patterns: &["*.test.*", "*.spec.*", "__tests__/", "e2e/", "cypress/"],
    keywords: KEYWORDS,
};

static TYPESCRIPT: LanguageSpec = LanguageSpec { extensions: &[".ts", ".mts", ".cts"], ..SHARED };
static TSX: LanguageSpec = LanguageSpec { extensions: &[".tsx"], ..SHARED };
static JAVASCRIPT: LanguageSpec =
    LanguageSpec { name: "javascript", extensions: &[".js", ".jsx", ".mjs", ".cjs"], ..SHARED };

/// The reserved words of both languages.
const KEYWORDS: &[&str] = &[
    "await", "break", "case", "catch", "class", "const", "continue", "debugger", "default", "delete", "do", "else",
    "enum", "export", "extends", "false", "finally", "for", "function", "if", "implements", "import", "in",
    "instanceof", "interface", "let", "new", "null", "package", "private", "protected", "public", "return", "static",
    "super", "switch", "this", "throw", "true", "try", "typeof", "var", "void", "while", "with", "yield",
];

/// A TypeScript or JavaScript [`Frontend`].
#[derive(Debug, Clone, Copy)]
pub struct Script {
    dialect: Dialect,
}

impl Script {
    pub fn typescript() -> Script {
        Script { dialect: Dialect::TypeScript }
    }

    pub fn tsx() -> Script {
        Script { dialect: Dialect::Tsx }
    }

    pub fn javascript() -> Script {
        Script { dialect: Dialect::JavaScript }
    }
}

/// The three frontends, to register together.
pub fn frontends() -> Vec<Box<dyn Frontend>> {
    vec![Box::new(Script::typescript()), Box::new(Script::tsx()), Box::new(Script::javascript())]
}

/// Every extension the frontends claim.
const ALL_EXTENSIONS: &[&str] = &[".d.ts", ".ts", ".mts", ".cts", ".tsx", ".js", ".jsx", ".mjs", ".cjs"];

/// `src/user/data.js` → `src/user/data`; `src/user/index.ts` → `src/user`.
pub fn module_of_path(path: &str) -> String {
    let stem = ALL_EXTENSIONS.iter().find_map(|e| path.strip_suffix(e)).unwrap_or(path);
    let stem = stem.strip_suffix("/index").unwrap_or(stem);
    if stem == "index" { String::new() } else { stem.to_owned() }
}

impl Frontend for Script {
    fn spec(&self) -> &'static LanguageSpec {
        self.dialect.spec()
    }

    fn extract_source(&self, text: &[u8], earlier: Option<Earlier>) -> (FileIndex, Option<Parse>) {
        hintlens_tree::extract_reusing(&self.dialect.language(), text, earlier, |tree| {
            walk::extract(text, tree, grammar::grammar(self.dialect))
        })
    }

    fn module_name_reads_file(&self) -> bool {
        false
    }

    fn source_module_name(&self, path: &str, _index: &FileIndex) -> String {
        module_of_path(path)
    }

    /// A relative specifier resolves against the importing file's directory (`../src/user`
    /// from `test/user.js` is `src/user`); a package's stays as written.
    fn import_target(&self, importing_path: &str, _importing_module: &str, module: &str) -> String {
        if !module.starts_with('.') {
            return module.to_owned();
        }
        module_of_path(&hintlens_tree::relative_path(importing_path, module).join("/"))
    }

    /// React components and functions taking an options object take their keywords from the
    /// props or options type.
    fn keywords_from_types(&self) -> bool {
        true
    }

    /// `#private` names, TypeScript's `private`, and the `_` convention.
    fn is_private(&self, def: &Definition) -> bool {
        def.name.starts_with('#')
            || def.name.starts_with('_')
            || def.signature.split_whitespace().take_while(|w| *w != def.name).any(|w| w == "private")
    }

    fn is_special(&self, def: &Definition) -> bool {
        def.kind == DefKind::Constructor || def.name == "constructor"
    }

    /// A new module is its file, named by its last path component (`data` of `src/user/data`).
    fn module_definition(&self, path: &str, _index: &FileIndex) -> ModuleDefinition {
        let module = module_of_path(path);
        let name = module.rsplit('/').next().unwrap_or(&module).to_owned();
        ModuleDefinition { name, kind: DefKind::File, path: path.to_owned() }
    }

    fn bare_parse(&self, text: &[u8]) -> usize {
        hintlens_tree::bare_parse(&self.dialect.language(), text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn modules_and_relative_imports() {
        let paths = ["src/user/data.js", "src/user/index.ts", "types/api.d.ts", "index.js"];
        insta::assert_snapshot!(hintlens_tree::testing::module_names(&Script::javascript(), &paths), @r"
        src/user/data.js → src/user/data
        src/user/index.ts → src/user
        types/api.d.ts → types/api
        index.js →
        ");
        let ts = Script::typescript();
        assert_eq!(ts.import_target("test/user.js", "test/user", "../src/user"), "src/user");
        assert_eq!(ts.import_target("src/a/b.ts", "src/a/b", "./c.js"), "src/a/c");
        assert_eq!(ts.import_target("src/a/b.ts", "src/a/b", "./sub/index"), "src/a/sub");
        assert_eq!(ts.import_target("src/a/b.ts", "src/a/b", "lodash"), "lodash");
        assert!(Script::tsx().claims("src/App.tsx") && !Script::typescript().claims("src/App.tsx"));
        assert!(Script::javascript().claims("src/app.cjs"));
        assert_eq!(ts.module_definition("src/user/data.ts", &FileIndex::default()).name, "data");
    }
}
