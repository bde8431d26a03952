//! Reading answers as models actually write them, and refusing the ones that say nothing
//! definite.

use hintlens_judge::prompts::{Attribute, Call, Message};
use hintlens_judge::{Answer, PromptRecord, Status, import, parse_answer};

#[test]
fn a_clean_necessity_answer() {
    let v = parse_answer(
        Call::Necessity,
        r#"{"label": "LOAD-BEARING", "evidence": "", "rationale": "The function does not exist yet.", "confidence": 0.85}"#,
    )
    .unwrap();
    assert_eq!(v.necessity, Some((3, "LOAD-BEARING".into())));
    assert_eq!((v.disclosure, v.guidance), (None, None));
    assert_eq!(v.evidence.as_deref(), Some(""));
    assert_eq!(v.rationale.as_deref(), Some("The function does not exist yet."));
    assert_eq!(v.confidence, Some(0.85));
}

#[test]
fn fenced_and_wrapped_in_prose() {
    let text = "Looking at the problem statement, the path is not mentioned, but the repository layout makes it obvious.\n\n```json\n{\n  \"label\": \"DISAMBIGUATING\",\n  \"evidence\": \"add a `--quiet` flag\",\n  \"rationale\": \"New modules in this package live under qutebrowser/utils/.\",\n  \"confidence\": \"0.7\"\n}\n```\n\nLet me know if you need more detail.";
    let v = parse_answer(Call::Necessity, text).unwrap();
    assert_eq!(v.necessity, Some((2, "DISAMBIGUATING".into())));
    assert_eq!(v.evidence.as_deref(), Some("add a `--quiet` flag"));
    assert_eq!(v.confidence, Some(0.7), "a number in a string is read");
}

#[test]
fn a_disclosure_guidance_answer_with_braces_in_its_strings() {
    let text = r#"Sure! {"disclosure_label": "mechanism", "guidance_label": "2 PROCEDURAL", "evidence": "iterates over {conf.*} references with jinja2.meta", "rationale": "Names the library and the traversal.", "confidence": 0.9} Hope this helps."#;
    let v = parse_answer(Call::DisclosureGuidance, text).unwrap();
    assert_eq!(v.disclosure, Some((2, "mechanism".into())));
    assert_eq!(v.guidance, Some((2, "2 PROCEDURAL".into())));
    assert_eq!(v.necessity, None);
    assert_eq!(v.evidence.as_deref(), Some("iterates over {conf.*} references with jinja2.meta"));
}

#[test]
fn an_echoed_template_before_the_real_object_is_skipped() {
    // The model restates the schema (whose label is no category) and then answers.
    let text = "The required format is {\"note\": \"schema follows\"}.\nAnswer:\n{\"label\": \"SEARCH_SAVING\", \"evidence\": \"\", \"rationale\": \"grep finds it\", \"confidence\": 1}";
    let v = parse_answer(Call::Necessity, text).unwrap();
    assert_eq!(v.necessity.unwrap().0, 1);
    assert_eq!(v.confidence, Some(1.0));
}

#[test]
fn answers_that_are_not_read() {
    let cases = [
        ("", "no JSON object"),
        ("I would rate this LOAD-BEARING because the name is new.", "no JSON object"),
        (r#"{"label": "3", "rationale": "new"}"#, "not one of"),
        (r#"{"label": "<REDUNDANT|SEARCH-SAVING|DISAMBIGUATING|LOAD-BEARING>"}"#, "not one of"),
        (r#"{"label": "VERY LOAD-BEARING"}"#, "not one of"),
        (r#"{"label": 3}"#, "not a string"),
        (r#"{"label": "LOAD-BEARING", "confidence": 0.9"#, "no JSON object"),
        (r#"{"label": "LOAD-BEARING"} on reflection: {"label": "SEARCH-SAVING"}"#, "disagree"),
        (r#"{"disclosure_label": "INTERFACE", "guidance_label": "DECLARATIVE"}"#, "no JSON object with label"),
    ];
    for (text, why) in cases {
        let e = parse_answer(Call::Necessity, text).expect_err(text);
        assert!(e.contains(why), "{text}: {e}");
    }
    // A disclosure/guidance answer needs both labels, each on its own scale.
    for text in [
        r#"{"disclosure_label": "INTERFACE"}"#,
        r#"{"disclosure_label": "INTERFACE", "guidance_label": "MECHANISM"}"#,
        r#"{"label": "LOAD-BEARING"}"#,
    ] {
        assert!(parse_answer(Call::DisclosureGuidance, text).is_err(), "{text}");
    }
    // An answer wrapped in an object of the model's own is found inside it.
    let v = parse_answer(Call::Necessity, r#"{"rating": {"label": "REDUNDANT", "rationale": "stated"}}"#).unwrap();
    assert_eq!((v.necessity.unwrap().0, v.rationale.as_deref()), (0, Some("stated")));
    // Two objects that agree are one answer.
    assert!(parse_answer(Call::Necessity, r#"{"label": "REDUNDANT"} again: {"label": "redundant"}"#).is_ok());
}

fn prompt(id: &str, call: Call) -> PromptRecord {
    PromptRecord {
        id: id.into(),
        instance_id: "o__r-1".into(),
        identifier: "pkg.mod.f".into(),
        entry: "pkg.mod.f".into(),
        attribute: Attribute::Name,
        call,
        sample: 0,
        messages: vec![Message { role: "user".into(), content: "…".into() }],
    }
}

#[test]
fn import_keeps_what_was_said_and_counts_what_could_not_be_read() {
    let prompts = [prompt("a", Call::Necessity), prompt("b", Call::DisclosureGuidance), prompt("c", Call::Necessity)];
    let answers = [
        Answer { id: "a".into(), content: "```json\n{\"label\": \"LOAD-BEARING\", \"evidence\": \"\", \"rationale\": \"new\", \"confidence\": 0.8}\n```".into() },
        Answer { id: "b".into(), content: "I cannot rate this.".into() },
        Answer { id: "zz".into(), content: "{}".into() },
    ];
    let (judged, summary) = import(&prompts, &answers);
    assert_eq!((summary.judged, summary.unparsable, summary.unanswered), (2, 1, 1));
    assert_eq!(summary.unknown, vec!["zz".to_owned()]);
    assert_eq!(judged[0].status, Status::Ok);
    assert_eq!((judged[0].n, judged[0].necessity_label.as_deref()), (Some(3), Some("LOAD-BEARING")));
    assert_eq!(judged[0].confidence, Some(0.8));
    assert_eq!(judged[1].status, Status::Unparsable);
    assert_eq!((judged[1].d, judged[1].g), (None, None));
    assert_eq!(judged[1].content.as_deref(), Some("I cannot rate this."));
    assert!(judged[1].error.as_deref().unwrap().contains("disclosure_label and guidance_label"));
    // The judged record's wire form: levels under N, D, G; nothing empty written.
    let line = serde_json::to_value(&judged[0]).unwrap();
    assert_eq!(line["N"], 3);
    assert_eq!(line["status"], "ok");
    assert!(line.get("D").is_none() && line.get("error").is_none());
}
