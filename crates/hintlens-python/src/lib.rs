//! The Python frontend of hintlens: definitions, uses, imports and string literals of one
//! Python file, read from a tree-sitter syntax tree in a single walk.
//!
//! ```
//! use hintlens_python::Python;
//! use hintlens_syntax::Frontend;
//!
//! let index = Python.extract(b"def greet(name):\n    print(name)\n");
//! assert_eq!(index.definitions[0].signature, "def greet(name)");
//! assert_eq!(Python.module_name("pkg/__init__.py", &index), "pkg");
//! ```

mod extract;
mod grammar;
mod text;

use hintlens_syntax::lexical::Dialect;
use hintlens_syntax::{DefId, DefKind, Definition, FileIndex, Frontend, LanguageSpec};
use tree_sitter::Tree;

/// The Python [`Frontend`]: claims `*.py` and `*.pyi`.
#[derive(Debug, Clone, Copy, Default)]
pub struct Python;

static SPEC: LanguageSpec = LanguageSpec {
    name: "python",
    extensions: &[".py", ".pyi"],
    shared_extensions: &[],
    lexical: Dialect::Python,
    test_patterns: &["test_*.py", "*_test.py", "conftest.py"],
    keywords: &[
        "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "continue", "def", "del",
        "elif", "else", "except", "finally", "for", "from", "global", "if", "import", "in", "is", "lambda", "nonlocal",
        "not", "or", "pass", "raise", "return", "try", "while", "with", "yield",
    ],
};

impl Frontend for Python {
    hintlens_tree::frontend!(spec: SPEC, grammar: tree_sitter_python::LANGUAGE, walk: extract::extract);

    /// `pkg/formatting.py` → `pkg.formatting`, `pkg/__init__.py` → `pkg`. Directories such as
    /// `src/` stay components: resolution matches module names by suffix.
    fn module_name_reads_file(&self) -> bool {
        false
    }

    fn source_module_name(&self, path: &str, _index: &FileIndex) -> String {
        let stem = path.strip_suffix(".py").or_else(|| path.strip_suffix(".pyi")).unwrap_or(path);
        let mut components: Vec<&str> = stem.split('/').filter(|c| !c.is_empty() && *c != ".").collect();
        // A top-level `__init__.py` has no package to stand for; it keeps its own name.
        if components.len() > 1 && components.last() == Some(&"__init__") {
            components.pop();
        }
        components.join(".")
    }

    /// What pytest and unittest collect: a module-level `test*` function (and its parameters), a
    /// module-level `Test*` class and its members, a `test*` method of a `TestCase` subclass.
    /// What a test function or method declares inside itself is its own: a fake class there is
    /// handed to the code, which calls its methods.
    fn is_collected(&self, _path: &str, index: &FileIndex, id: DefId) -> bool {
        let d = index.definition(id);
        let Some(parent) = d.parent else {
            return match d.kind {
                DefKind::Function => d.name.starts_with("test"),
                DefKind::Class => d.name.starts_with("Test"),
                _ => false,
            };
        };
        let p = index.definition(parent);
        let test_class_member = p.kind == DefKind::Class && p.parent.is_none() && p.name.starts_with("Test");
        let test_case = d.kind == DefKind::Method
            && d.name.starts_with("test")
            && bases(&p.signature).any(|base| base.ends_with("TestCase"));
        test_class_member || test_case || d.kind == DefKind::Parameter && self.is_collected("", index, parent)
    }

    /// pytest's hooks (`pytest_*`), which pluggy calls through the hook relay as
    /// `hook.pytest_report_line(…)`.
    fn is_hook(&self, index: &FileIndex, id: DefId) -> bool {
        let d = index.definition(id);
        d.parent.is_none() && d.kind == DefKind::Function && d.name.starts_with("pytest_")
    }

    /// `_name` is private by convention; dunder names (`__init__`, `__eq__`) are protocol, hence
    /// public.
    fn is_private(&self, def: &Definition) -> bool {
        def.name.starts_with('_') && !is_dunder(&def.name)
    }

    /// A `**kwargs` parameter; for a class, one of its `__init__`.
    fn takes_any_keyword(&self, index: &FileIndex, id: DefId) -> bool {
        let callable = match index.definition(id).kind {
            DefKind::Class => match index.definitions.iter().position(|d| d.parent == Some(id) && d.name == "__init__")
            {
                Some(init) => init as DefId,
                None => return false,
            },
            _ => id,
        };
        index
            .definitions
            .iter()
            .any(|d| d.kind == DefKind::Parameter && d.parent == Some(callable) && d.signature.starts_with("**"))
    }

    /// Dunder names (`__init__`, `__eq__`, `__enter__`) are the language's, not the author's.
    fn is_special(&self, def: &Definition) -> bool {
        is_dunder(&def.name)
    }

    /// Resolves a relative import's leading dots against the importing module's package:
    /// `.helpers` in `pkg/tests/test_x.py` is `pkg.tests.helpers`, in `pkg/__init__.py`
    /// `pkg.helpers`.
    fn import_target(&self, importing_path: &str, importing_module: &str, module: &str) -> String {
        let dots = module.len() - module.trim_start_matches('.').len();
        if dots == 0 {
            return module.to_owned();
        }
        // A package's `__init__.py` is the package itself: there a leading dot means the
        // package, elsewhere the file's siblings (the module's own name is dropped first).
        let file = importing_path.rsplit('/').next().unwrap_or(importing_path);
        let is_package = file == "__init__.py" || file == "__init__.pyi";
        let mut base: Vec<&str> = importing_module.split('.').filter(|c| !c.is_empty()).collect();
        let drop = if is_package { dots - 1 } else { dots };
        base.truncate(base.len().saturating_sub(drop));
        let rest = &module[dots..];
        if !rest.is_empty() {
            base.push(rest);
        }
        base.join(".")
    }

    /// `mock.patch('pkg.mod.fn')`, `monkeypatch.setattr('pkg.mod.fn', …)`,
    /// `importlib.import_module('pkg.mod')`.
    fn strings_name_modules(&self) -> bool {
        true
    }
}

/// The base classes a class signature lists (`class T(unittest.TestCase, Mixin)`), by the
/// last component of each.
fn bases(signature: &str) -> impl Iterator<Item = &str> {
    let inside = signature.split_once('(').map_or("", |(_, rest)| rest.rsplit_once(')').map_or(rest, |(b, _)| b));
    inside.split(',').map(|b| b.trim().rsplit('.').next().unwrap_or_default())
}

fn is_dunder(name: &str) -> bool {
    name.len() > 4 && name.starts_with("__") && name.ends_with("__")
}

/// Parses `text` and nothing more: the baseline that extraction throughput is measured against.
/// `None` only if tree-sitter gives up, which it does not without a timeout or cancellation.
pub fn parse_only(text: &[u8]) -> Option<Tree> {
    hintlens_tree::parse(&grammar::grammar().language, text, None)
}
