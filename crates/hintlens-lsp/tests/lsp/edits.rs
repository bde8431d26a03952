//! Edits, disk changes and settings changes update the answers, and only what changed is
//! re-indexed.

use crate::support::{TestServer, git, logging_parses};
use hintlens_lsp::Options;
use serde_json::json;

/// A new function nothing uses yet (the test imports it already: a bare name counts only where
/// an import brings it).
const CORE: &str = r#"
//- /.gitignore
build/
//- base /pkg/core.py
X = 1
//- work /pkg/core.py
X = 1


def shiny():
    return 2
//- /tests/test_core.py
from pkg.core import X, shiny


def test_x():
    assert "😀" == "😀"
"#;

#[test]
fn an_edit_creates_a_crossing_and_another_removes_it() {
    let mut server = TestServer::ready(CORE, json!({}));
    assert_eq!(server.lenses("pkg/core.py"), Vec::<String>::new());
    server.open("tests/test_core.py");
    assert_eq!(server.lenses("tests/test_core.py"), Vec::<String>::new());

    let refreshes = |s: &TestServer| s.server_requests.iter().filter(|m| *m == "workspace/codeLens/refresh").count();
    let before = refreshes(&server);
    server.replace("tests/test_core.py", "\"😀\"\n", "\"😀\"\n    assert shiny() == 2\n");
    assert_eq!(server.lenses("pkg/core.py"), ["4: hint · used by 1 test line"]);
    assert_eq!(server.lenses("tests/test_core.py"), ["4: uses 1 new identifier"]);
    // Lenses of other files changed: the client is asked to refresh them.
    server.wait_until("a code lens refresh", |s| refreshes(s) > before);

    server.replace("tests/test_core.py", "    assert shiny() == 2\n", "");
    assert_eq!(server.lenses("pkg/core.py"), Vec::<String>::new());
    assert_eq!(server.lenses("tests/test_core.py"), Vec::<String>::new());
}

#[test]
fn edit_ranges_are_utf16() {
    let mut server = TestServer::ready(CORE, json!({}));
    server.open("tests/test_core.py");
    // After the emoji: a server counting bytes or characters would garble the line.
    server.replace("tests/test_core.py", "== \"😀\"", "== shiny()");
    assert_eq!(server.lenses("pkg/core.py"), ["4: hint · used by 1 test line"]);
    let hover = server.hover_at("tests/test_core.py", 4, 19);
    assert!(hover.starts_with("**`shiny`** · function"), "{hover}");
}

#[test]
fn closing_a_buffer_reverts_to_the_disk() {
    let mut server = TestServer::ready(CORE, json!({}));
    server.open("tests/test_core.py");
    server.replace("tests/test_core.py", "== \"😀\"", "== shiny()");
    assert_eq!(server.lenses("pkg/core.py"), ["4: hint · used by 1 test line"]);
    server.close("tests/test_core.py");
    assert_eq!(server.lenses("pkg/core.py"), Vec::<String>::new());
}

#[test]
fn files_changed_on_disk_join_and_leave_the_reference() {
    let mut server = TestServer::ready(CORE, json!({}));
    let test = "from pkg.core import shiny\n\n\ndef test_shiny():\n    assert shiny() == 2\n";
    std::fs::create_dir_all(server.root.join("tests/more")).unwrap();
    std::fs::write(server.root.join("tests/more/test_more.py"), test).unwrap();
    server.files_changed(&[("tests/more/test_more.py", 1)]);
    assert_eq!(server.lenses("pkg/core.py"), ["4: hint · used by 2 test lines"]);

    // A deleted directory is one event for everything it held.
    std::fs::remove_dir_all(server.root.join("tests/more")).unwrap();
    server.files_changed(&[("tests/more", 3)]);
    assert_eq!(server.lenses("pkg/core.py"), Vec::<String>::new());

    // What git ignores is not part of the task.
    std::fs::create_dir_all(server.root.join("build")).unwrap();
    std::fs::write(server.root.join("build/test_copy.py"), test).unwrap();
    server.files_changed(&[("build/test_copy.py", 1)]);
    assert_eq!(server.lenses("pkg/core.py"), Vec::<String>::new());
}

#[test]
fn only_the_edited_file_is_indexed_again() {
    let (log, options) = logging_parses();
    let mut server = TestServer::start_with(CORE, json!({}), options);
    server.wait_for_indexing();
    assert_eq!(server.lenses("pkg/core.py"), Vec::<String>::new());
    // A hover needs every policy's selection, so it parses whatever the background analysis
    // would parse later: the counts below depend on no thread's timing.
    server.hover_at("pkg/core.py", 3, 5);
    // The base and work tree versions of pkg/core.py, the one changed file: no test changed,
    // so no policy reads a test file.
    let parsed = log.lock().unwrap().clone();
    assert_eq!(parsed.len(), 2, "{parsed:?}");

    let executions = |server: &mut TestServer, old: &str, new: &str| {
        server.hover_at("pkg/core.py", 3, 5);
        log.lock().unwrap().clear();
        server.replace("tests/test_core.py", old, new);
        let lenses = server.lenses("pkg/core.py");
        (lenses, log.lock().unwrap().clone())
    };
    server.open("tests/test_core.py");
    // The first edit of a file read from disk gives it an input of its own.
    server.replace("tests/test_core.py", "\"😀\"\n", "\"😀\"\n    assert shiny() == 2\n");
    assert_eq!(server.lenses("pkg/core.py"), ["4: hint · used by 1 test line"]);
    let (lenses, parsed) = executions(&mut server, "== 2", "== 3");
    assert_eq!(lenses, ["4: hint · used by 1 test line"]);
    assert_eq!(parsed.len(), 1, "{parsed:?}");
    let (_, parsed) = executions(&mut server, "== 3", "== 4");
    assert_eq!(parsed.len(), 1, "a second edit sets the same input: {parsed:?}");
    // Opening a file unchanged since the disk read re-indexes nothing.
    server.hover_at("pkg/core.py", 3, 5);
    log.lock().unwrap().clear();
    server.open("pkg/core.py");
    assert_eq!(server.lenses("pkg/core.py"), ["4: hint · used by 1 test line"]);
    let parsed = log.lock().unwrap().clone();
    assert!(parsed.is_empty(), "{parsed:?}");
}

#[test]
fn requests_during_indexing_say_so() {
    let (release, hold) = crossbeam_channel::bounded::<()>(0);
    let options = Options { hold_indexing: Some(hold), ..Options::default() };
    let mut server = TestServer::start_with(CORE, json!({}), options);
    let still = "hintlens is still indexing the repository; ask again when it finishes.";
    assert_eq!(server.hover_at("pkg/core.py", 3, 5), still);
    assert_eq!(server.lenses("pkg/core.py"), [format!("1: {still}")]);
    let hints = server.request("hintlens/hints", json!({"projection": "name"})).unwrap();
    assert_eq!(
        hints,
        json!({"text": still, "identifiers": [], "indexing": true, "selection": "defuse", "projection": "name"})
    );
    // Edits while indexing are kept and applied when the index lands.
    server.open("tests/test_core.py");
    server.replace("tests/test_core.py", "== \"😀\"", "== shiny()");

    drop(release);
    server.wait_for_indexing();
    assert_eq!(server.lenses("pkg/core.py"), ["4: hint · used by 1 test line"]);
}

#[test]
fn the_base_follows_the_setting_and_the_commits() {
    let mut server = TestServer::ready(CORE, json!({}));
    assert_eq!(server.request("hintlens/hints", json!({"projection": "name"})).unwrap()["text"], "");
    server.open("tests/test_core.py");
    server.replace("tests/test_core.py", "== \"😀\"", "== shiny()");
    assert_eq!(server.lenses("pkg/core.py"), ["4: hint · used by 1 test line"]);

    // Committing the work moves HEAD, the default base: nothing is new any more.
    std::fs::write(
        server.root.join("tests/test_core.py"),
        "from pkg.core import X, shiny\n\n\ndef test_x():\n    assert \"😀\" == shiny()\n",
    )
    .unwrap();
    git(&server.root, &["add", "-A"]);
    git(&server.root, &["commit", "-q", "-m", "solution"]);
    server.files_changed(&[(".git/refs/heads/main", 2)]);
    server.wait_for_indexing_runs(2);
    assert_eq!(server.lenses("pkg/core.py"), Vec::<String>::new());

    server.notify("workspace/didChangeConfiguration", json!({"settings": {"hintlens": {"base": "HEAD~1"}}}));
    server.wait_for_indexing_runs(3);
    assert_eq!(server.lenses("pkg/core.py"), ["4: hint · used by 1 test line"]);

    server.notify("workspace/didChangeConfiguration", json!({"settings": {"hintlens": {"base": "nope"}}}));
    server.wait_for_indexing_runs(4);
    let error = server.request("textDocument/codeLens", json!({"textDocument": {"uri": server.uri("pkg/core.py")}}));
    let error = error.unwrap_err();
    assert!(error.message.starts_with("cannot resolve the base `nope`"), "{}", error.message);
    assert!(server.notifications.iter().any(|n| n.method == "window/showMessage"
        && n.params["message"].as_str().unwrap().starts_with("hintlens: cannot resolve the base `nope`")));
}

#[test]
fn settings_are_pulled_when_the_client_sends_none() {
    let mut server = TestServer::ready(CORE, json!({}));
    server.configuration = json!({"projection": "name", "selection": "fea"});
    server.notify("workspace/didChangeConfiguration", json!({"settings": null}));
    server.wait_until("a configuration request", |s| s.server_requests.iter().any(|m| m == "workspace/configuration"));
    let hints = server.request("hintlens/hints", serde_json::Value::Null).unwrap();
    assert_eq!(
        (&hints["selection"], &hints["projection"], &hints["text"]),
        (&json!("fea"), &json!("name"), &json!("- `shiny`\n"))
    );
}

#[test]
fn test_patterns_extend_the_classifier() {
    let fixture = format!("{CORE}//- work /checks/verify_core.py\nfrom pkg.core import shiny\n\nassert shiny() == 2\n");
    let mut server = TestServer::ready(&fixture, json!({}));
    assert_eq!(server.lenses("pkg/core.py"), Vec::<String>::new(), "checks/ is code by default");
    let mut server = TestServer::ready(&fixture, json!({"testPatterns": ["checks/"]}));
    assert_eq!(server.lenses("pkg/core.py"), ["4: hint · used by 2 test lines"]);
}
