//! The C and C++ frontends' extraction: never panics, and what each returns is well formed.
//! One input goes through both grammars, since C is (nearly) C++.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    for frontend in hintlens_c::frontends() {
        let index = frontend.extract(data);
        hintlens_fuzz::check_index(&index, data);
    }
});
