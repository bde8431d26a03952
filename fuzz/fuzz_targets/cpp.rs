//! The C++ frontend's extraction: never panics, and what it returns is well formed. Its
//! grammar and its share of the walk (namespaces, classes, templates) are their own.
#![no_main]

use hintlens_syntax::Frontend;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let index = hintlens_c::Cpp.extract(data);
    hintlens_fuzz::check_index(&index, data);
});
