//! The TypeScript, TSX and JavaScript frontends' extraction and word lexer: neither panics, and
//! what each returns is well formed. One input goes through all three grammars, since the same text is often
//! valid (or nearly) in each.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    for frontend in hintlens_ts::frontends() {
        hintlens_fuzz::check_frontend(frontend.as_ref(), data);
    }
});
