//! A long editing session: memory must not grow with the number of edits. Ignored by default
//! (it takes a while); run it with
//! `cargo test --release -p hintlens-lsp --test lsp soak -- --ignored --nocapture`.

use crate::fixtures::PYTHON_API;
use crate::support::TestServer;
use serde_json::json;

/// Resident memory of this process, in KiB (Linux).
fn rss_kib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").expect("/proc/self/status (Linux)");
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .expect("a VmRSS line")
}

#[test]
#[ignore = "a soak test: 5,000 edits; run on purpose"]
fn memory_stays_flat_over_five_thousand_edits() {
    const EDITS: usize = 5_000;
    const WARM: usize = 500;
    let mut server = TestServer::ready(PYTHON_API, json!({}));
    server.open("tests/test_api.py");
    server.open("pkg/api.py");
    let mut after_warm = 0;
    let started = std::time::Instant::now();
    for edit in 1..=EDITS {
        // Alternate between two states of a test line, so the crossing comes and goes, and edit
        // the code file now and then.
        let (old, new) =
            if edit % 2 == 1 { ("== \"x\"", "== normalize(\"x\")") } else { ("== normalize(\"x\")", "== \"x\"") };
        server.replace("tests/test_api.py", old, new);
        if edit % 7 == 0 {
            let (old, new) = if edit % 14 == 7 {
                ("return url.lower()", "return url.upper()")
            } else {
                ("return url.upper()", "return url.lower()")
            };
            server.replace("pkg/api.py", old, new);
        }
        if edit % 10 == 0 {
            let hover = server.hover_on("tests/test_api.py", "fetch(\"x\"");
            assert!(!hover.is_empty());
        }
        if edit % 100 == 0 {
            assert!(!server.lenses("pkg/api.py").is_empty());
            // The harness keeps what the server sends; that is the client's memory, not the server's.
            server.notifications.clear();
            server.server_requests.clear();
        }
        if edit == WARM {
            after_warm = rss_kib();
        }
    }
    let after_all = rss_kib();
    let growth = after_all as f64 / after_warm as f64 - 1.0;
    println!(
        "soak: {EDITS} edits (+ a hover every 10, lenses every 100) in {:.1}s; resident memory after {WARM} edits {} KiB, after {EDITS} {} KiB ({:+.1}%)",
        started.elapsed().as_secs_f64(),
        after_warm,
        after_all,
        growth * 100.0
    );
    assert!(growth < 0.10, "memory grew by {:.1}% from edit {WARM} to edit {EDITS}", growth * 100.0);
}
