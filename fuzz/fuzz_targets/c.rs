//! The C frontend's extraction and its language's word lexer: neither panics,
//! and what they return is well formed.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| hintlens_fuzz::check_frontend(&hintlens_c::C, data));
