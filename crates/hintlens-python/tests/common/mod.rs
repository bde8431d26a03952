use hintlens_python::Python;
use hintlens_syntax::{FileIndex, Frontend};

pub fn extract(src: &str) -> FileIndex {
    Python.extract(src.as_bytes())
}

/// Snapshots the dump of `src`, with the source itself as the snapshot's description so that
/// each `.snap` file can be reviewed on its own.
#[macro_export]
macro_rules! check {
    ($name:ident, $src:expr) => {
        #[test]
        fn $name() {
            let src: &str = $src;
            insta::with_settings!({ description => src, omit_expression => true }, {
                insta::assert_snapshot!(common::extract(src).dump());
            });
        }
    };
}
