//! Result records to prompts: which attributes an identifier has, one line per call and
//! sample, and exports that would be partial refuse to be written.

use hintlens_judge::prompts::{Attribute, Call, TaskText};
use hintlens_judge::{ExportOptions, ExportProblem, entry_of, export, projected_attributes};
use hintlens_projection::Projection;
use serde_json::{Value, json};
use std::collections::HashMap;

fn identifier(name: &str) -> Value {
    json!({
        "name": name, "qualified_name": format!("pkg.mod.{name}"), "kind": "function", "entity": "definition",
        "path": "pkg/mod.py", "is_new_file": true, "signature": format!("def {name}(x)"),
        "base_occurrences": 2, "doc": "Does the thing. Then more.\n\nArgs: x",
    })
}

#[test]
fn an_identifiers_attributes_as_its_hint_shows_them() {
    let all = projected_attributes(Projection::Pro).unwrap();
    let e = entry_of(&identifier("f"), &all);
    let listed: Vec<(&str, &str)> = e.attributes.iter().map(|(a, v)| (a.as_str(), v.as_str())).collect();
    assert_eq!(
        listed,
        [
            ("name", "f"),
            ("entity_type", "function"),
            ("path", "pkg/mod.py"),
            ("is_new_file", "true"),
            ("signature", "def f(x)"),
            ("weak_semantics", "Does the thing."),
        ],
        "no provider description: weak semantics is the docstring's first sentence, no strong semantics"
    );
    assert_eq!(e.base_occurrences, Some(2));
    // Counted without some file of the repository: a count above 0 still says the name can be
    // found; a 0 says nothing, and the prompt leaves the fact out.
    let mut lower_bound = identifier("f");
    lower_bound["base_occurrences_lower_bound"] = json!(true);
    assert_eq!(entry_of(&lower_bound, &all).base_occurrences, Some(2));
    lower_bound["base_occurrences"] = json!(0);
    assert_eq!(entry_of(&lower_bound, &all).base_occurrences, None);

    let mut described = identifier("f");
    described["description"] = json!({"doc": "Provider sentence.", "behaviour": "Provider paragraph."});
    described["signature"] = json!("");
    described["kind"] = json!("enum_constant");
    let e = entry_of(&described, &all);
    assert_eq!(e.value(Attribute::WeakSemantics), Some("Provider sentence."));
    assert_eq!(e.value(Attribute::StrongSemantics), Some("Provider paragraph."));
    assert_eq!(e.value(Attribute::Signature), None, "an empty signature is no attribute");
    assert_eq!(e.value(Attribute::EntityType), Some("enum constant"));

    let mut literal = identifier("f");
    literal["entity"] = json!("error_msg");
    assert_eq!(entry_of(&literal, &all).value(Attribute::EntityType), Some("error message"));

    let declaration = projected_attributes(Projection::Declaration).unwrap();
    assert_eq!(entry_of(&described, &declaration).attributes.len(), 4);
    assert_eq!(projected_attributes(Projection::Name).unwrap(), [Attribute::Name]);
    assert!(projected_attributes(Projection::FeaBrief).unwrap_err().contains("benchmark's own format"));
}

fn task() -> TaskText {
    TaskText { repo: "o/r".into(), problem_statement: "Issue.".into(), patch: "p".into(), test_patch: "t".into() }
}

#[test]
fn one_line_per_call_and_sample() {
    let records = [
        json!({"instance_id": "o__r-1", "status": "ok", "selections": {"defuse": [identifier("f"), identifier("f"), identifier("g")]}}),
        json!({"instance_id": "o__r-2", "status": "error", "selections": {}}),
        json!({"instance_id": "o__r-3", "status": "ok", "selections": {"defuse": []}}),
    ];
    let tasks = HashMap::from([("o__r-1".to_owned(), task())]);
    let options = ExportOptions {
        selection: "defuse".into(),
        attributes: projected_attributes(Projection::Declaration).unwrap(),
        samples: 3,
    };
    let (prompts, summary) = export(&records, &tasks, &options).unwrap();
    assert_eq!((summary.instances, summary.identifiers, summary.pairs), (1, 3, 15));
    assert_eq!((summary.calls, summary.skipped_records), (90, 1));
    assert_eq!(prompts.len(), 90);
    let characters: usize = prompts.iter().flat_map(|p| &p.messages).map(|m| m.content.chars().count()).sum();
    assert_eq!(summary.characters, characters);
    // The same qualified name twice is two entries.
    let entries: std::collections::BTreeSet<&str> = prompts.iter().map(|p| p.entry.as_str()).collect();
    assert_eq!(entries.into_iter().collect::<Vec<_>>(), ["pkg.mod.f", "pkg.mod.f#2", "pkg.mod.g"]);
    assert_eq!(prompts[0].id, "o__r-1::pkg.mod.f::name::necessity::0");
    assert_eq!(prompts[3].id, "o__r-1::pkg.mod.f::name::disclosure_guidance::0");
    assert_eq!(
        (prompts[3].call, prompts[3].sample, prompts[3].attribute),
        (Call::DisclosureGuidance, 0, Attribute::Name)
    );
    // Samples repeat the same messages.
    assert_eq!(prompts[0].messages, prompts[2].messages);
    let ids: std::collections::HashSet<&str> = prompts.iter().map(|p| p.id.as_str()).collect();
    assert_eq!(ids.len(), 90);
    // The wire form.
    let line = serde_json::to_value(&prompts[4]).unwrap();
    assert_eq!(line["call"], "disclosure_guidance");
    assert_eq!(line["attribute"], "name");
    assert_eq!(line["messages"][0]["role"], "system");
}

#[test]
fn a_partial_export_is_refused() {
    let records = [
        json!({"instance_id": "a", "status": "ok", "selections": {"defuse": [identifier("f")]}}),
        json!({"instance_id": "b", "status": "ok", "selections": {"fea": []}}),
    ];
    let options = ExportOptions { selection: "defuse".into(), attributes: vec![Attribute::Name], samples: 1 };
    let problems = export(&records, &HashMap::new(), &options).unwrap_err();
    assert_eq!(
        problems,
        [
            ExportProblem::NoTask { instance_id: "a".into() },
            ExportProblem::NoSelection { instance_id: "b".into(), selection: "defuse".into() },
        ]
    );
    assert_eq!(problems[1].to_string(), "b: the result record has no `defuse` selection");
}
