use crate::fixtures::{JAVA, PYTHON_API, PYTHON_HOOK};
use crate::support::TestServer;
use serde_json::json;

#[test]
fn python_lenses_mark_every_kind_of_selected_definition() {
    let mut server = TestServer::ready(PYTHON_API, json!({}));
    // The parameter's lens sits on its declaration, in the existing function's signature.
    assert_eq!(
        server.lenses("pkg/api.py"),
        [
            "1: hint · used by 1 test line",
            "5: hint · used by 2 test lines",
            "9: hint · used by 3 test lines",
            "10: hint · used by 1 test line",
            "13: hint · used by 1 test line",
            "15: hint · used by 1 test line",
        ]
    );
    // The module itself and its function share the first line.
    assert_eq!(server.lenses("pkg/extras.py"), ["1: hint · used by 1 test line", "1: hint · used by 2 test lines"]);
    assert_eq!(
        server.lenses("tests/test_api.py"),
        ["5: uses 1 new identifier", "9: uses 4 new identifiers", "16: uses 3 new identifiers"]
    );
}

#[test]
fn a_test_defined_hook_the_code_calls_gets_a_code_line_lens() {
    let mut server = TestServer::ready(PYTHON_HOOK, json!({}));
    assert_eq!(server.lenses("tests/test_events.py"), ["5: hint · used by 1 code line"]);
    assert_eq!(server.lenses("pkg/events.py"), Vec::<String>::new());
}

#[test]
fn java_lenses_mark_enum_constants_classes_and_methods() {
    let mut server = TestServer::ready(JAVA, json!({}));
    assert_eq!(
        server.lenses("src/main/java/com/x/Color.java"),
        ["6: hint · used by 2 test lines", "8: hint · used by 1 test line"]
    );
    assert_eq!(
        server.lenses("src/main/java/com/x/Palette.java"),
        ["3: hint · used by 1 test line", "4: hint · used by 1 test line"]
    );
    // On the test method's first line, its annotation.
    assert_eq!(server.lenses("src/test/java/com/x/PaletteTest.java"), ["6: uses 4 new identifiers"]);
}

#[test]
fn lenses_carry_the_hint_command_and_resolve_to_themselves() {
    let mut server = TestServer::ready(PYTHON_HOOK, json!({"projection": "name"}));
    let lenses =
        server.request("textDocument/codeLens", json!({"textDocument": {"uri": server.uri("tests/test_events.py")}}));
    let lens = lenses.unwrap()[0].clone();
    assert_eq!(lens["command"]["arguments"], json!([{"selection": "defuse", "projection": "name"}]));
    assert_eq!(server.request("codeLens/resolve", lens.clone()).unwrap(), lens);
    let bare = json!({"range": lens["range"]});
    assert_eq!(server.request("codeLens/resolve", bare).unwrap()["command"]["command"], "hintlens.showHints");
}

#[test]
fn the_hint_block_comes_from_the_command_and_the_custom_request_alike() {
    let mut server = TestServer::ready(PYTHON_HOOK, json!({}));
    let hints = server.request("hintlens/hints", serde_json::Value::Null).unwrap();
    assert_eq!(hints["indexing"], false);
    assert_eq!((&hints["selection"], &hints["projection"]), (&json!("defuse"), &json!("declaration")));
    assert_eq!(
        hints["text"],
        "- `tests/test_events.py` (new file)\n  - in class `RecordingPlugin`:\n    - method `on_event`: `def on_event(self, event)`\n"
    );
    let identifiers = hints["identifiers"].as_array().unwrap();
    assert_eq!(identifiers.len(), 1);
    assert_eq!(identifiers[0]["qualified_name"], "tests.test_events.RecordingPlugin.on_event");
    assert_eq!(identifiers[0]["direction"], "test->code");
    assert_eq!(identifiers[0]["evidence"], json!([{"path": "pkg/events.py", "line": 2, "rule": "member"}]));

    let command = json!({"command": "hintlens.showHints", "arguments": []});
    assert_eq!(server.request("workspace/executeCommand", command).unwrap(), hints);

    let names = server.request("hintlens/hints", json!({"projection": "name"})).unwrap();
    assert_eq!((&names["text"], &names["projection"]), (&json!("- `on_event`\n"), &json!("name")));
    let command = json!({"command": "hintlens.showHints", "arguments": [{"projection": "name"}]});
    assert_eq!(server.request("workspace/executeCommand", command).unwrap(), names);
    let empty = server.request("hintlens/hints", json!({"selection": "empty"})).unwrap();
    assert_eq!((&empty["text"], &empty["identifiers"]), (&json!(""), &json!([])));
}
