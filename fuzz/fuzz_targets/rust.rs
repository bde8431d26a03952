//! The Rust frontend's extraction: never panics, and what it returns is well formed (test
//! regions included).
#![no_main]

use hintlens_syntax::Frontend;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let index = hintlens_rust::Rust.extract(data);
    hintlens_fuzz::check_index(&index, data);
    for region in &index.tests {
        assert!(
            region.start_byte <= region.end_byte && region.end_byte as usize <= data.len(),
            "test region out of the text"
        );
    }
});
