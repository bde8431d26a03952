//! The `Frontend` contract apart from extraction: language, claimed paths, module names.

use hintlens_python::Python;
use hintlens_syntax::Frontend;

#[test]
fn language_and_claimed_paths() {
    assert_eq!(Python.language(), "python");
    for path in ["setup.py", "pkg/mod.py", "stubs/typing.pyi", "a/b/__init__.py"] {
        assert!(Python.claims(path), "{path}");
    }
    for path in ["README.md", "pkg/mod.pyc", "script.py.bak", "Main.java", "py"] {
        assert!(!Python.claims(path), "{path}");
    }
}

/// A top-level `__init__.py` keeps its name: it has no package to stand for.
#[test]
fn module_names_follow_the_path() {
    let paths = [
        "pkg/formatting.py",
        "pkg/__init__.py",
        "pkg/sub/__init__.pyi",
        "setup.py",
        "stubs/typing.pyi",
        "src/pkg/mod.py",
        "./tools//gen.py",
        "__init__.py",
    ];
    insta::assert_snapshot!(hintlens_tree::testing::module_names(&Python, &paths), @r"
    pkg/formatting.py → pkg.formatting
    pkg/__init__.py → pkg
    pkg/sub/__init__.pyi → pkg.sub
    setup.py → setup
    stubs/typing.pyi → stubs.typing
    src/pkg/mod.py → src.pkg.mod
    ./tools//gen.py → tools.gen
    __init__.py → __init__
    ");
}

#[test]
fn privacy_follows_the_underscore_convention() {
    let index = Python
        .extract(b"class A:\n    def __init__(self): pass\n    def _helper(self): pass\n    def run(self): pass\n");
    let private: Vec<(&str, bool)> = index
        .definitions
        .iter()
        .filter(|d| d.kind != hintlens_syntax::DefKind::Parameter)
        .map(|d| (d.name.as_str(), Python.is_private(d)))
        .collect();
    assert_eq!(private, [("A", false), ("__init__", false), ("_helper", true), ("run", false)]);
}
