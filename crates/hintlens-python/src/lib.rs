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

use hintlens_syntax::{Definition, FileIndex, Frontend};
use tree_sitter::{Parser, Tree};

/// The Python [`Frontend`]: claims `*.py` and `*.pyi`.
#[derive(Debug, Clone, Copy, Default)]
pub struct Python;

impl Frontend for Python {
    fn language(&self) -> &'static str {
        "python"
    }

    fn claims(&self, path: &str) -> bool {
        path.ends_with(".py") || path.ends_with(".pyi")
    }

    fn extract(&self, text: &[u8]) -> FileIndex {
        extract::extract(text)
    }

    /// `pkg/formatting.py` → `pkg.formatting`, `pkg/__init__.py` → `pkg`. Directories such as
    /// `src/` stay components: resolution matches module names by suffix.
    fn module_name(&self, path: &str, _index: &FileIndex) -> String {
        let stem = path.strip_suffix(".py").or_else(|| path.strip_suffix(".pyi")).unwrap_or(path);
        let mut components: Vec<&str> = stem.split('/').filter(|c| !c.is_empty() && *c != ".").collect();
        // A top-level `__init__.py` has no package to stand for; it keeps its own name.
        if components.len() > 1 && components.last() == Some(&"__init__") {
            components.pop();
        }
        components.join(".")
    }

    /// `_name` is private by convention; dunder names (`__init__`, `__eq__`) are protocol, hence
    /// public.
    fn is_private(&self, def: &Definition) -> bool {
        let name = def.name.as_str();
        let dunder = name.len() > 4 && name.starts_with("__") && name.ends_with("__");
        name.starts_with('_') && !dunder
    }
}

/// Parses `text` and nothing more: the baseline that extraction throughput is measured against.
/// `None` only if tree-sitter gives up, which it does not without a timeout or cancellation.
pub fn parse_only(text: &[u8]) -> Option<Tree> {
    let mut parser = Parser::new();
    parser.set_language(&grammar::grammar().language).ok()?;
    parser.parse(text, None)
}
