//! The `Frontend` contract apart from extraction: language, claimed paths, module names.

use hintlens_python::Python;
use hintlens_syntax::{FileIndex, Frontend};

fn module_name(path: &str) -> String {
    Python.module_name(path, &FileIndex::default())
}

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

#[test]
fn module_names_follow_the_path() {
    assert_eq!(module_name("pkg/formatting.py"), "pkg.formatting");
    assert_eq!(module_name("pkg/__init__.py"), "pkg");
    assert_eq!(module_name("pkg/sub/__init__.pyi"), "pkg.sub");
    assert_eq!(module_name("setup.py"), "setup");
    assert_eq!(module_name("stubs/typing.pyi"), "stubs.typing");
    assert_eq!(module_name("src/pkg/mod.py"), "src.pkg.mod");
    assert_eq!(module_name("./tools//gen.py"), "tools.gen");
}

#[test]
fn a_top_level_init_keeps_its_name() {
    assert_eq!(module_name("__init__.py"), "__init__");
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
