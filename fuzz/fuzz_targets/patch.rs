//! The patch parser and applier: any bytes, as the code patch and the test patch of a task over
//! a small base snapshot. Errors are fine; panics, hangs and paths outside the repository are not.
#![no_main]

use hintlens_snapshot::{NoBlobs, Patch, Snapshot, build_reference};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    // The first `\0` (if any) splits the input into the code patch and the test patch.
    let (code, test) = match data.iter().position(|&b| b == 0) {
        Some(at) => (&data[..at], &data[at + 1..]),
        None => (data, &b""[..]),
    };
    if let Ok(patch) = Patch::parse(code) {
        for path in patch.touched_paths() {
            assert!(!path.starts_with('/') && !path.split('/').any(|c| c == ".."), "unsafe path accepted: {path}");
        }
    }
    let base = Snapshot::from_files([
        ("a.py".to_owned(), b"def f():\n    return 1\n".to_vec()),
        ("pkg/b.py".to_owned(), b"x = 1\r\ny = 2\r\n".to_vec()),
        ("src/C.java".to_owned(), b"class C {}\n".to_vec()),
    ]);
    if let Ok(reference) = build_reference(&base, &NoBlobs, code, test) {
        for (path, _) in reference.snapshot.iter() {
            assert!(!path.starts_with('/') && !path.split('/').any(|c| c == ".."), "unsafe path written: {path}");
        }
    }
});
