//! Hidden naming contracts: test-required names the task statement does not mention.

use crate::fixtures::{PYTHON_API, PYTHON_HOOK};
use crate::support::TestServer;
use serde_json::json;

fn contract(name: &str, kind: &str, path: &str) -> String {
    format!(
        "`{name}` ({kind} in {path}) is required by the tests, but the task statement task.md does not mention it: a hidden naming contract"
    )
}

fn with_statement(fixture: &str, statement: &str) -> String {
    format!("{fixture}//- /task.md\n{statement}\n")
}

#[test]
fn names_the_statement_does_not_mention_are_flagged_where_the_tests_use_them() {
    let fixture = with_statement(PYTHON_API, "Add a `strict` flag to fetch, and a normalize() function.");
    let mut server = TestServer::ready(&fixture, json!({"statement": "task.md"}));
    let api = "pkg/api.py";
    let extras = "pkg/extras.py";
    let expected = [
        format!("1:38-44: {}", contract("Client", "class", api)),
        format!("10:8-14: {}", contract("Client", "class", api)),
        format!("11:13-16: {}", contract("get", "method", api)),
        format!("12:13-20: {}", contract("timeout", "field", api)),
        format!("13:11-17: {}", contract("Client", "class", api)),
        format!("13:18-25: {}", contract("retries", "field", api)),
        format!("18:11-17: {}", contract("extras", "file", extras)),
        format!("18:18-24: {}", contract("helper", "function", extras)),
        format!("2:16-22: {}", contract("extras", "file", extras)),
    ];
    server.wait_for_diagnostics("tests/test_api.py", &expected.iter().map(String::as_str).collect::<Vec<_>>());

    // Editing the statement updates them: mention everything but `extras`…
    server.open("task.md");
    server.replace("task.md", "function.", "function. A Client with get, timeout and retries; helper too.");
    let only_extras = [&expected[6], &expected[8]];
    server.wait_for_diagnostics("tests/test_api.py", &only_extras.map(String::as_str));
    // …then it too: none are left.
    server.replace("task.md", "helper too", "helper in extras too");
    server.wait_for_diagnostics("tests/test_api.py", &[]);
}

#[test]
fn a_test_defined_name_is_flagged_at_its_definition() {
    let fixture = with_statement(PYTHON_HOOK, "Dispatch events to plugins.");
    let mut server = TestServer::ready(&fixture, json!({"statement": "task.md"}));
    server.wait_for_diagnostics(
        "tests/test_events.py",
        &["5:8-16: `on_event` (method) is defined by the tests and used by the solution, but the task statement task.md does not mention it: a hidden naming contract"],
    );
}

#[test]
fn the_statement_can_be_configured_in_the_settings_file_and_changed_on_disk() {
    let fixture = format!("{}//- /.hintlens.toml\nstatement = \"task.md\"\n", with_statement(PYTHON_HOOK, "Nothing."));
    let mut server = TestServer::ready(&fixture, json!({}));
    server.wait_until("diagnostics", |s| s.diagnostics("tests/test_events.py").is_some_and(|d| d.len() == 1));
    std::fs::write(server.root.join("task.md"), "Call on_event on each plugin.\n").unwrap();
    server.files_changed(&[("task.md", 2)]);
    server.wait_for_diagnostics("tests/test_events.py", &[]);
}

#[test]
fn a_missing_statement_is_reported() {
    let mut server = TestServer::ready(PYTHON_HOOK, json!({"statement": "missing.md"}));
    server.wait_until("a warning", |s| {
        s.notifications.iter().any(|n| {
            n.method == "window/showMessage" && n.params["message"] == "the task statement missing.md does not exist"
        })
    });
}
