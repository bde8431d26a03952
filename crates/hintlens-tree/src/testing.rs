//! What every frontend's extraction tests share.

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
