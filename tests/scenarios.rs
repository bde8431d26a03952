//! Every scenario file under `tests/scenarios/` is a test: its expectation blocks must hold,
//! and the Declaration rendering of its DefUse selection must match the stored snapshot.

use std::path::Path;

#[test]
fn scenarios() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios");
    let files = hintlens_tests::scenario_files();
    assert!(files.len() >= 10, "expected the scenario files under {}", root.display());
    let mut failures = Vec::new();
    let mut rendered = Vec::new();
    for file in &files {
        match hintlens_tests::check_file(file) {
            Ok(text) => rendered.push((file, text)),
            Err(e) => failures.push(e),
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} scenarios failed:\n\n{}",
        failures.len(),
        files.len(),
        failures.join("\n\n")
    );
    // Selections first (all failures at once), then their renderings.
    for (file, text) in rendered {
        let relative = file.strip_prefix(&root).unwrap();
        let name = relative.with_extension("").to_string_lossy().replace('/', "__");
        let mut settings = insta::Settings::clone_current();
        settings.set_snapshot_path(Path::new(env!("CARGO_MANIFEST_DIR")).join("snapshots"));
        settings.set_prepend_module_to_snapshot(false);
        settings.set_description(relative.to_string_lossy().into_owned());
        settings.bind(|| insta::assert_snapshot!(name, text));
    }
}
