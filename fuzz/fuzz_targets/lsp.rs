//! The language server's message handling: any bytes on its standard input after the
//! initialize handshake, through the real transport and the real server. It must answer or
//! ignore everything, and still answer `shutdown` at the end.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    hintlens_fuzz::serve(data);
});
