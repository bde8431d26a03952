use hintlens_python::Python;
use hintlens_syntax::{FileIndex, Frontend};

#[allow(dead_code)]
pub fn extract(src: &str) -> FileIndex {
    Python.extract(src.as_bytes())
}

/// Snapshots the dump of the Python source `src` ([`hintlens_tree::check_extraction`]).
#[macro_export]
macro_rules! check {
    ($name:ident, $src:expr) => {
        hintlens_tree::check_extraction!($name, hintlens_python::Python, $src);
    };
}
