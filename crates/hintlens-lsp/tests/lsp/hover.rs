use crate::fixtures::{JAVA, PYTHON_API, PYTHON_HOOK};
use crate::support::TestServer;
use insta::assert_snapshot;
use serde_json::json;

/// The hover at the fixture's `$0`.
fn hover(fixture: &str) -> String {
    TestServer::ready(fixture, json!({})).hover()
}

#[test]
fn python_definitions_of_every_kind() {
    let mut server = TestServer::ready(PYTHON_API, json!({}));
    let api = "pkg/api.py";
    assert_snapshot!("python_function", server.hover_on(api, "normalize(url)"));
    assert_snapshot!("python_class", server.hover_on(api, "Client:"));
    assert_snapshot!("python_class_attribute", server.hover_on(api, "retries"));
    assert_snapshot!("python_instance_attribute", server.hover_on(api, "timeout"));
    assert_snapshot!("python_method", server.hover_on(api, "get(self"));
    assert_snapshot!("python_constructor", server.hover_on(api, "__init__"));
    assert_snapshot!("python_new_parameter", server.hover_on(api, "strict"));
    assert_snapshot!("python_module", server.hover_on("tests/test_api.py", "extras\n"));
}

#[test]
fn a_use_shows_the_definition_it_names() {
    let mut server = TestServer::ready(PYTHON_API, json!({}));
    let definition = server.hover_on("pkg/api.py", "normalize(url)");
    assert_eq!(server.hover_on("tests/test_api.py", "normalize(\"X\")"), definition);
    assert_eq!(server.hover_on("tests/test_api.py", "normalize, Client"), definition, "an imported name too");
    let parameter = server.hover_on("pkg/api.py", "strict");
    assert_eq!(server.hover_on("tests/test_api.py", "strict=True"), parameter, "a keyword argument");
}

#[test]
fn a_definition_nothing_crosses_to_says_so() {
    let mut server = TestServer::ready(PYTHON_API, json!({}));
    // `fetch` existed at the base: it gained a parameter, but is not new itself.
    assert_eq!(
        server.hover_on("tests/test_api.py", "fetch(\"x\""),
        "**`fetch`** does not cross the code–test boundary: no policy selects it."
    );
}

#[test]
fn a_new_definition_other_policies_select_names_them() {
    let hover = hover(
        r#"
//- /pkg/__init__.py
//- work /pkg/tool.py
def $0lonely():
    return 1
"#,
    );
    assert!(hover.contains("Does not cross the code–test boundary (`defuse` does not select it)."), "{hover}");
    assert!(hover.contains("Selected by: `fea`"), "{hover}");
    assert!(!hover.contains("Used at"), "{hover}");
}

#[test]
fn test_to_code_hook() {
    let mut server = TestServer::ready(PYTHON_HOOK, json!({}));
    assert_snapshot!("python_test_to_code", server.hover_on("tests/test_events.py", "on_event"));
    // At the call, the name is also Doc2Feat's (a name new in both changes); DefUse's
    // definition comes first.
    let at_the_call = server.hover_on("pkg/events.py", "on_event");
    let definition = server.hover_on("tests/test_events.py", "on_event");
    assert!(at_the_call.starts_with(&format!("{definition}\n\n---\n\n")), "{at_the_call}");
    assert!(at_the_call.contains("Selected by: `doc2feat`"), "{at_the_call}");
}

#[test]
fn java_enum_constant_class_and_method() {
    let mut server = TestServer::ready(JAVA, json!({}));
    assert_snapshot!("java_enum_constant", server.hover_on("src/main/java/com/x/Color.java", "BLUE"));
    assert_snapshot!("java_class", server.hover_on("src/main/java/com/x/Palette.java", "Palette"));
    assert_snapshot!("java_method", server.hover_on("src/test/java/com/x/PaletteTest.java", "lower"));
}

#[test]
fn positions_count_utf16_code_units() {
    // `é` is one UTF-16 unit in two bytes, `😀` two units in four: a server counting bytes
    // or characters would land elsewhere on this line.
    let text = hover(
        r#"
//- base /pkg/text.py
X = 1
//- work /pkg/text.py
X = 1


def shout(s):
    return s.upper()
//- work /tests/test_text.py
from pkg.text import shout


def test_shout():
    assert "é😀" + shout("a") == "é😀" + $0shout("a").upper().lower().upper()
"#,
    );
    assert!(text.starts_with("**`shout`** · function · `pkg/text.py`"), "{text}");
}

#[test]
fn the_hover_range_is_the_identifier_in_utf16() {
    let mut server = TestServer::ready(
        r#"
//- base /pkg/text.py
X = 1
//- work /pkg/text.py
X = 1


def shout(s):
    return s.upper()
//- work /tests/test_text.py
from pkg.text import shout


def test_shout():
    assert "😀" == shout("😀")
"#,
        json!({}),
    );
    let (line, character) = server.position_of("tests/test_text.py", "shout(\"😀\")");
    let hover = server.hover_raw("tests/test_text.py", line, character + 2).unwrap();
    assert_eq!(hover["range"], json!({"start": {"line": 4, "character": 19}, "end": {"line": 4, "character": 24}}));
}

#[test]
fn no_identifier_under_the_cursor_is_no_hover() {
    let mut server = TestServer::ready(PYTHON_HOOK, json!({}));
    assert_eq!(server.hover_raw("pkg/events.py", 1, 0).unwrap(), serde_json::Value::Null);
}

#[test]
fn a_source_file_no_frontend_reads_says_so() {
    let fixture =
        format!("{PYTHON_API}//- work /store/store.lua\nlocal Store = {{}}\nfunction Store.set_limit(n) end\n");
    let mut server = TestServer::ready(&fixture, json!({}));
    let hover = server.hover_at("store/store.lua", 1, 6);
    let expected = "hintlens cannot read `.lua` files: no frontend claims them (it reads python, java, go";
    assert!(hover.starts_with(expected), "{hover}");
    let lenses = server.lenses("store/store.lua");
    assert_eq!(lenses.len(), 1, "{lenses:?}");
    assert!(lenses[0].starts_with("1: hintlens cannot read `.lua` files"), "{lenses:?}");
    // Files that are no source code stay silent, as before.
    assert!(server.hover_raw("README.md", 0, 0).is_err());
}

/// A `.h` is C++'s where the repository holds more C++ sources than C sources, C's elsewhere:
/// the same header's class method is a method the test calls in the first; in the second the
/// header reads as C, where a `class` is no type and `area` no method, which DefUse does not
/// select.
#[test]
fn a_header_is_read_as_the_repository_s_language() {
    let header_and_test = r#"
//- work /include/widget.h
namespace ui {
class Widget {
 public:
  int $0area() const;
};
}
//- work /test/widget_test.cc
#include "widget.h"

TEST(widget_test, area) {
  ui::Widget w;
  EXPECT_EQ(w.area(), 0);
}
"#;
    let cpp = hover(&format!("\n//- /src/widget.cc\nint version() {{ return 1; }}\n{header_and_test}"));
    assert!(cpp.contains("method `area`: `int area() const`"), "{cpp}");
    assert!(cpp.contains("test/widget_test.cc:5"), "{cpp}");
    let c = hover(&format!(
        "\n//- /src/a.c\nint a(void) {{ return 1; }}\n//- /src/b.c\nint b(void) {{ return 2; }}\n{header_and_test}"
    ));
    assert!(c.contains("`defuse` does not select it") && !c.contains("method"), "{c}");
}
