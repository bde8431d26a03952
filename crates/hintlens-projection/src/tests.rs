//! Unit tests of the renderers on hand-built identifiers; the end-to-end snapshots of every
//! projection live in `tests/policies.rs`.

use super::*;

fn function(name: &str, kind: DefKind, signature: &str) -> Identifier {
    let mut id = Identifier::new(name, kind, Entity::Definition, "pkg/api.py", false);
    id.signature = signature.to_owned();
    id.local_name = name.to_owned();
    id.line = 3;
    id
}

#[test]
fn an_empty_selection_is_no_hint_in_every_projection() {
    for projection in Projection::ALL {
        assert_eq!(render(&[], projection), "", "{projection}");
    }
}

#[test]
fn pro_interface_reads_inputs_and_outputs_off_signatures() {
    let ids = [
        function("fetch", DefKind::Function, "def fetch(url: str, *, strict: bool = False) -> dict[str, int]"),
        function("render", DefKind::Method, "def render(self, width=(1, 2))"),
        function(
            "quote",
            DefKind::Method,
            "public static <T> List<T> quote(Map<String, T> m, int n) throws IOException",
        ),
        function("Slugger", DefKind::Constructor, "public Slugger(String separator)"),
    ];
    let text = render(&ids, Projection::ProInterface);
    assert!(text.contains("Name: fetch\nType: Function\nPath: pkg/api.py\nInput: url: str, *, strict: bool = False\nOutput: dict[str, int]\n"), "{text}");
    assert!(text.contains("Name: render\nType: Method\nPath: pkg/api.py\nInput: width=(1, 2)\n\n"), "{text}");
    assert!(text.contains("Input: Map<String, T> m, int n\nOutput: List<T>\n"), "{text}");
    assert!(
        text.contains("Name: Slugger\nType: Constructor\nPath: pkg/api.py\nInput: String separator\n\n")
            || text.ends_with("Input: String separator\n"),
        "{text}"
    );
    assert!(!text.contains("Description:"), "no description without a provider: {text}");
}

#[test]
fn nocode_entries_are_unique_sorted_and_files_named_by_path() {
    let mut file = Identifier::new("api", DefKind::File, Entity::Definition, "pkg/api.py", true);
    file.qualified_name = "pkg.api".into();
    let ids = [
        function("fetch", DefKind::Function, "def fetch()"),
        Identifier::new("fetch", DefKind::Field, Entity::Use, "pkg/api.py", true),
        Identifier::new("fetch", DefKind::Field, Entity::Use, "pkg/other.py", false),
        Identifier::new("bad \"width\"", DefKind::Constant, Entity::ErrorMessage, "pkg/api.py", true),
        file,
    ];
    assert_eq!(
        render(&ids, Projection::Nocode),
        format!(
            r#"{{"header":"{}","data":[{{"type":"error_msg","name":"bad \"width\""}},{{"type":"field","name":"fetch"}},{{"type":"file","name":"pkg/api.py"}},{{"type":"function","name":"fetch"}}]}}"#,
            nocode::HEADER
        )
    );
}

#[test]
fn name_kind_lists_each_pair_once() {
    let ids =
        [function("a", DefKind::Function, ""), function("a", DefKind::Function, ""), function("b", DefKind::Class, "")];
    assert_eq!(render(&ids, Projection::NameKind), "- function `a`\n- class `b`\n");
}
