//! Dataset record decoding: any text, as JSON lines or a JSON array in any benchmark's field names.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Ok(records) = hintlens_batch::parse_dataset(&text) {
        for record in records.into_iter().flatten() {
            let _ = record.documentation();
            let _ = record.text_field("interface");
        }
    }
});
