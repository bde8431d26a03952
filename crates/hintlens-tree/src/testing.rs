//! What every frontend's tests share.

use hintlens_syntax::{FileIndex, Frontend};

/// `path → module` for each of `paths`, a line each, with the module name `frontend` gives it
/// (read from the path alone): what a test of a frontend's module naming snapshots.
pub fn module_names(frontend: &dyn Frontend, paths: &[&str]) -> String {
    paths.iter().map(|p| format!("{p} → {}\n", frontend.module_name(p, &FileIndex::default()))).collect()
}

/// A snapshot test of what one file defines and uses: `check!(name, frontend, source)` extracts
/// `source` with `frontend` and snapshots the index's dump (`FileIndex::dump`), with the source
/// as the snapshot's description so that each `.snap` file can be reviewed on its own. The
/// calling crate has `insta` and `hintlens-syntax` as dev-dependencies.
#[macro_export]
macro_rules! check_extraction {
    ($name:ident, $frontend:expr, $src:expr) => {
        #[test]
        fn $name() {
            let src: &str = $src;
            insta::with_settings!({ description => src, omit_expression => true }, {
                insta::assert_snapshot!(hintlens_syntax::Frontend::extract(&$frontend, src.as_bytes()).dump());
            });
        }
    };
}
