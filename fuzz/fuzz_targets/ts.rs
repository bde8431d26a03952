//! The TypeScript, TSX and JavaScript frontends' extraction: never panics, and what each returns
//! is well formed. One input goes through all three grammars, since the same text is often
//! valid (or nearly) in each.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    for frontend in hintlens_ts::frontends() {
        let index = frontend.extract(data);
        hintlens_fuzz::check_index(&index, data);
    }
});
