//! Every way a request can fail, and that the server keeps serving afterwards.

use crate::fixtures::PYTHON_HOOK;
use crate::support::TestServer;
use lsp_server::{ErrorCode, ResponseError};
use serde_json::{Value, json};

fn error(result: Result<Value, ResponseError>) -> (i32, String) {
    let error = result.expect_err("the request fails");
    (error.code, error.message)
}

fn position(uri: &str, line: u32, character: u32) -> Value {
    json!({"textDocument": {"uri": uri}, "position": {"line": line, "character": character}})
}

#[test]
fn unknown_documents_are_invalid_params() {
    let mut server = TestServer::ready(PYTHON_HOOK, json!({}));
    let outside = position("file:///nowhere/x.py", 0, 0);
    let (code, message) = error(server.request("textDocument/hover", outside));
    assert_eq!(code, ErrorCode::InvalidParams as i32);
    assert!(message.starts_with("unknown document file:///nowhere/x.py: not a file in the workspace"), "{message}");

    let unindexed = position(&server.uri("README.md"), 0, 0);
    let (code, message) = error(server.request("textDocument/hover", unindexed));
    assert_eq!(code, ErrorCode::InvalidParams as i32);
    assert!(message.ends_with("README.md: not a source file of the work tree that hintlens indexes"), "{message}");

    let lenses = json!({"textDocument": {"uri": "untitled:Untitled-1"}});
    assert_eq!(error(server.request("textDocument/codeLens", lenses)).0, ErrorCode::InvalidParams as i32);

    // An open buffer no frontend indexes is known, and has nothing to show.
    std::fs::write(server.root.join("notes.md"), "on_event\n").unwrap();
    server.open("notes.md");
    assert_eq!(server.hover_raw("notes.md", 0, 1).unwrap(), Value::Null);
    assert_eq!(server.lenses("notes.md"), Vec::<String>::new());
}

#[test]
fn positions_past_the_end_are_invalid_params() {
    let mut server = TestServer::ready(PYTHON_HOOK, json!({}));
    assert_eq!(server.hover_raw("pkg/events.py", 2, 0).unwrap(), Value::Null, "the empty last line exists");
    let (code, message) = error(server.hover_raw("pkg/events.py", 3, 0));
    assert_eq!(code, ErrorCode::InvalidParams as i32);
    assert_eq!(message, "position 3:0 is past the end of pkg/events.py (3 lines)");
    // A character past the end of a line means its end, as LSP prescribes.
    assert_eq!(server.hover_raw("pkg/events.py", 1, 99).unwrap(), Value::Null);
}

#[test]
fn malformed_params_say_what_is_wrong() {
    let mut server = TestServer::ready(PYTHON_HOOK, json!({}));
    let (code, message) = error(server.request("textDocument/hover", json!({"textDocument": 3})));
    assert_eq!(code, ErrorCode::InvalidParams as i32);
    assert!(message.starts_with("invalid parameters for textDocument/hover: "), "{message}");

    let (code, message) = error(server.request("hintlens/hints", json!({"selection": "nope"})));
    assert_eq!(code, ErrorCode::InvalidParams as i32);
    assert!(message.starts_with("unknown selection `nope` (known: defuse, "), "{message}");
    let (_, message) = error(server.request("hintlens/hints", json!({"projection": 4})));
    assert!(message.starts_with("invalid parameters for hintlens/hints: "), "{message}");

    let unknown = json!({"command": "hintlens.nope", "arguments": []});
    let (code, message) = error(server.request("workspace/executeCommand", unknown));
    assert_eq!(code, ErrorCode::InvalidParams as i32);
    assert_eq!(message, "unknown command `hintlens.nope` (hintlens offers hintlens.showHints)");
    let two = json!({"command": "hintlens.showHints", "arguments": [{}, {}]});
    assert_eq!(error(server.request("workspace/executeCommand", two)).0, ErrorCode::InvalidParams as i32);
}

#[test]
fn unknown_methods_are_method_not_found() {
    let mut server = TestServer::ready(PYTHON_HOOK, json!({}));
    let (code, message) = error(server.request("hintlens/nope", json!({})));
    assert_eq!((code, message.as_str()), (ErrorCode::MethodNotFound as i32, "unknown request method `hintlens/nope`"));
    // Unknown notifications are ignored.
    server.notify("hintlens/whatever", json!({}));
    server.notify("$/setTrace", json!({"value": "off"}));
    assert_eq!(server.lenses("tests/test_events.py"), ["5: hint · used by 1 code line"]);
}

#[test]
fn a_panic_is_an_internal_error_and_the_server_goes_on() {
    let mut server = TestServer::ready(PYTHON_HOOK, json!({}));
    let (code, message) = error(server.request("hintlens/debug/panic", Value::Null));
    assert_eq!(code, ErrorCode::InternalError as i32);
    assert_eq!(
        message,
        "hintlens crashed while answering hintlens/debug/panic: hintlens/debug/panic was requested (please report it)"
    );
    assert_eq!(server.lenses("tests/test_events.py"), ["5: hint · used by 1 code line"]);
}

#[test]
fn debug_requests_are_not_served_by_default() {
    let options = hintlens_lsp::Options::default();
    let mut server = TestServer::start_with(PYTHON_HOOK, json!({}), options);
    server.wait_for_indexing();
    assert_eq!(error(server.request("hintlens/debug/panic", Value::Null)).0, ErrorCode::MethodNotFound as i32);
}

#[test]
fn a_cancelled_request_is_answered_request_cancelled() {
    let mut server = TestServer::ready(PYTHON_HOOK, json!({}));
    let started = std::time::Instant::now();
    let id = server.send_request("hintlens/debug/sleep", json!({"ms": 30_000}));
    server.notify("$/cancelRequest", json!({"id": id.to_string().parse::<i32>().unwrap()}));
    let (code, message) = error(server.response(id));
    assert_eq!((code, message.as_str()), (ErrorCode::RequestCanceled as i32, "cancelled by the client"));
    assert!(started.elapsed().as_secs() < 20, "answered at once, not after the query");
    // The worker stopped too (its cancellation token fired): both workers serve again.
    assert_eq!(server.lenses("tests/test_events.py"), ["5: hint · used by 1 code line"]);
    assert_eq!(server.lenses("tests/test_events.py"), ["5: hint · used by 1 code line"]);
}

#[test]
fn an_edit_during_a_query_answers_content_modified() {
    let mut server = TestServer::ready(PYTHON_HOOK, json!({}));
    server.open("pkg/events.py");
    let started = std::time::Instant::now();
    let id = server.send_request("hintlens/debug/sleep", json!({"ms": 30_000}));
    // Lets the worker start on the current state before the edit.
    std::thread::sleep(std::time::Duration::from_millis(50));
    server.replace("pkg/events.py", "return plugin", "return  plugin");
    let (code, message) = error(server.response(id));
    assert_eq!(code, ErrorCode::ContentModified as i32);
    assert_eq!(message, "the workspace changed while answering hintlens/debug/sleep");
    assert!(started.elapsed().as_secs() < 20);
    assert_eq!(server.lenses("tests/test_events.py"), ["5: hint · used by 1 code line"]);
}
