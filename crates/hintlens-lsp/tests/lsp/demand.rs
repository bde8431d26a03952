//! Demand first: the server answers from the changed files and word facts, parsing the rest of
//! the repository only when asked, and its answers are the full index's.

use crate::fixtures::{JAVA, PYTHON_API, PYTHON_HOOK};
use crate::support::{Fixture, TestServer, git, logging_parses};
use hintlens_hints::Selection;
use hintlens_lsp::Options;
use serde_json::json;
use std::path::Path;

/// A repository where most files are untouched by the task: a library the changed code
/// imports, a module that shares a name with the new code (base occurrences), a deleted file,
/// and files in several languages nothing asks about.
const MIXED: &str = r#"
//- /lib/__init__.py
//- /lib/store.py
class Store:
    def save(self, item):
        return item


def open_store():
    return Store()
//- /lib/legacy.py
def render(item):
    return str(item)
//- /lib/unrelated.py
def untouched():
    return 42
//- base /lib/gone.py
def obsolete():
    return None
//- base /app/service.py
from lib.store import open_store


def run():
    return open_store()
//- work /app/service.py
from lib.store import open_store
from lib.legacy import render


def run(item):
    store = open_store()
    return render(store.save(item))


def describe(item):
    return render(item)
//- /app/__init__.py
//- base /tests/test_service.py
from app.service import run
//- work /tests/test_service.py
from app.service import run, describe


def test_run():
    assert run(1) == "1"


def test_describe():
    assert describe("x") == "x"
//- /tools/cli.go
package tools

func Render(s string) string { return s }
//- /web/main.ts
export function render(x: number): string { return String(x); }
//- /core/src/lib.rs
pub fn render(x: u32) -> String { x.to_string() }
"#;

/// C++ with a header (an ending C and C++ share, decided by what the base holds).
const CPP: &str = r#"
//- /include/shape.h
struct Shape {
    int sides;
};
//- base /src/shape.cpp
#include "shape.h"

int area(Shape s) { return s.sides; }
//- work /src/shape.cpp
#include "shape.h"

int area(Shape s) { return s.sides; }

int perimeter(Shape s) { return s.sides * 2; }
//- work /tests/shape_test.cpp
#include "../include/shape.h"

int perimeter(Shape s);

void test_perimeter() {
    Shape s{3};
    perimeter(s);
}
"#;

/// Every answer a client can get about the fixture's work tree files: each file's lenses, a
/// hover on every identifier, and the hint block of every policy.
fn answers(server: &mut TestServer, fixture: &Fixture) -> Vec<String> {
    let frontends = hintlens_batch::frontends();
    let mut out = Vec::new();
    for (path, text) in &fixture.work {
        let Some(frontend) = frontends.iter().find(|f| f.claims(path)) else { continue };
        out.push(format!("lenses {path}: {:?}", server.lenses(path)));
        let index = frontend.extract(text.as_bytes());
        let starts = index.definitions.iter().map(|d| d.name_span.start).chain(index.uses.iter().map(|u| u.span.start));
        for start in starts {
            // The fixtures are ASCII: byte columns are UTF-16 columns.
            let hover = server.hover_at(path, start.line, start.column);
            out.push(format!("hover {path}:{}:{}: {hover}", start.line + 1, start.column));
        }
    }
    for selection in Selection::ALL {
        for projection in ["declaration", "name"] {
            let params = json!({"selection": selection.to_string(), "projection": projection});
            let hints = server.request("hintlens/hints", params).unwrap();
            out.push(format!("hints {selection} {projection}: {hints}"));
        }
    }
    out
}

fn full_index() -> Options {
    Options { debug_requests: true, full_index: true, ..Options::default() }
}

/// The demand-first server and one that parses the whole base first answer alike, before and
/// after an edit, in every language.
#[test]
fn demand_answers_are_the_full_index_answers() {
    for (fixture, edited, old, new) in [
        (MIXED, "tests/test_service.py", "describe(\"x\")", "describe(\"x\") and run(2)"),
        (PYTHON_API, "tests/test_api.py", "c.get(\"u\")", "c.get(\"v\")"),
        (PYTHON_HOOK, "tests/test_events.py", "return event", "return [event]"),
        (JAVA, "src/test/java/com/x/PaletteTest.java", "Palette.pick()", "Palette.pick() "),
        (CPP, "tests/shape_test.cpp", "perimeter(s);\n}", "perimeter(s);\n    area(s);\n}"),
    ] {
        let parsed = Fixture::parse(fixture);
        let mut demand = TestServer::ready(fixture, json!({}));
        let mut full = TestServer::start_with(fixture, json!({}), full_index());
        full.wait_for_indexing();
        let (demand_answers, full_answers) = (answers(&mut demand, &parsed), answers(&mut full, &parsed));
        assert!(
            demand_answers.iter().any(|a| a.starts_with("lenses") && (a.contains("uses ") || a.contains("hint · "))),
            "the fixture's answers say something: {demand_answers:#?}"
        );
        let redacted = |server: &TestServer, answers: Vec<String>| -> Vec<String> {
            answers.into_iter().map(|a| server.redact(&a)).collect()
        };
        assert_eq!(redacted(&demand, demand_answers), redacted(&full, full_answers), "before an edit");

        for server in [&mut demand, &mut full] {
            server.open(edited);
            server.replace(edited, old, new);
        }
        let (demand_answers, full_answers) = (answers(&mut demand, &parsed), answers(&mut full, &parsed));
        assert_eq!(redacted(&demand, demand_answers), redacted(&full, full_answers), "after editing {edited}");
    }
}

/// The first answer parses the changed files and the files whose words hold a name the answer
/// asks about — not the untouched rest of the repository; a file is parsed once asked about.
#[test]
fn the_first_answer_parses_only_what_it_needs() {
    let (parsed, options) = logging_parses();
    let mut server = TestServer::start_with(MIXED, json!({}), options);
    server.wait_for_indexing();
    let lenses = server.lenses("tests/test_service.py");
    assert!(lenses.iter().any(|l| l.contains("uses ")), "{lenses:?}");
    // app/service.py at both sides and tests/test_service.py at both sides, lib/store.py and
    // lib/legacy.py (they define what the change imports): six at most, of eleven files and
    // thirteen versions. (The background analysis may have added its own by now.)
    let first = parsed.lock().unwrap().clone();
    assert!(first.len() <= 6, "the first answer parsed {} files: {first:?}", first.len());
    // A hover needs every policy's selection: what the background analysis parses is parsed by
    // now, and within the same six.
    server.hover_on("app/service.py", "describe");
    let every_policy = parsed.lock().unwrap().clone();
    assert!(every_policy.len() <= 6, "every policy parsed {} files: {every_policy:?}", every_policy.len());

    // An untouched file is parsed when asked about, once.
    let hover = server.hover_on("lib/unrelated.py", "untouched");
    assert!(hover.contains("does not cross"), "{hover}");
    let after = parsed.lock().unwrap().clone();
    assert_eq!(after.len(), every_policy.len() + 1, "{after:?}");
    server.hover_on("lib/unrelated.py", "untouched");
    let again = parsed.lock().unwrap().clone();
    assert_eq!(again, after);
}

/// Git's index only spares reading the files it vouches for: the answers are the same when it
/// vouches for every unchanged file, when the task's change is staged (the index then names the
/// work tree's blobs, not the base's), and when there is no index at all.
#[test]
fn what_git_s_index_holds_changes_no_answer() {
    // Git vouches for no file written in the instant it wrote its index ("racily clean"): as
    // `git status` does, refresh the index once the files are older than it.
    fn refresh(root: &Path) {
        std::thread::sleep(std::time::Duration::from_millis(50));
        git(root, &["update-index", "-q", "--refresh"]);
    }
    fn stage(root: &Path) {
        std::thread::sleep(std::time::Duration::from_millis(50));
        git(root, &["add", "-A"]);
    }
    fn remove(root: &Path) {
        std::fs::remove_file(root.join(".git/index")).unwrap();
    }
    let parsed = Fixture::parse(MIXED);
    let mut expected: Option<Vec<String>> = None;
    // Ten work tree files, two changed: the scan reads the eight others only without an index.
    for (what, prepare, vouched) in
        [("vouched", refresh as fn(&Path), 8), ("staged", stage, 8), ("no index", remove, 0)]
    {
        let options = Options { debug_requests: true, ..Options::default() };
        let mut server = TestServer::start_prepared(MIXED, json!({}), options, prepare);
        server.wait_for_indexing();
        let end = server.notifications.iter().find(|n| n.method == "$/progress" && n.params["value"]["kind"] == "end");
        let end = end.expect("indexing ended").params["value"]["message"].as_str().unwrap().to_owned();
        let known = format!("; {vouched} unchanged files known from git's index, their words read in the background");
        assert!(end.ends_with(&known), "{what}: {end}");
        let answers: Vec<String> = answers(&mut server, &parsed).into_iter().map(|a| server.redact(&a)).collect();
        match &expected {
            None => {
                assert!(answers.iter().any(|a| a.starts_with("lenses") && a.contains("uses ")), "{answers:#?}");
                expected = Some(answers);
            }
            Some(expected) => assert_eq!(&answers, expected, "{what}"),
        }
    }
}
