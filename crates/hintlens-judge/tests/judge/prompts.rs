//! The prompts against the paper's Appendix C (`appendix_c.txt`, a copy of its text): every
//! sentence of the rubrics and skeletons is in them, the cuts are where the paper puts them,
//! the target is marked, and the measured repository fact is worded as the paper words it.

use hintlens_judge::prompts::{
    Attribute, Call, Entry, SYSTEM_PROMPT, TARGET_MARKER, TaskText, disclosure_guidance_prompt, messages,
    necessity_prompt,
};

/// The appendix with its typesetting undone: ASCII quotes, one space between words.
fn appendix() -> String {
    let text = include_str!("appendix_c.txt");
    let body: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    let text = body.join(" ").replace("⬇ ", "");
    collapse(&text.replace("“‘", "```").replace('‘', "`").replace(['”', '“'], "\"").replace('’', "'"))
}

fn collapse(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The part of the appendix from `start` to `end`, both included.
fn span(appendix: &str, start: &str, end: &str) -> String {
    let from = appendix.find(start).unwrap_or_else(|| panic!("`{start}` is not in the appendix"));
    let to = appendix[from..].find(end).unwrap_or_else(|| panic!("`{end}` is not in the appendix")) + from;
    appendix[from..to + end.len()].to_owned()
}

/// Sentences (and rubric levels) of a passage.
fn sentences(passage: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current = String::new();
    for word in passage.split(' ') {
        let level = word.len() == 1 && word.chars().all(|c| c.is_ascii_digit());
        if level && !current.is_empty() {
            out.push(std::mem::take(&mut current));
        }
        if !current.is_empty() {
            current.push(' ');
        }
        current.push_str(word);
        let abbreviation = ["e.g.", "i.e."].contains(&word);
        if !abbreviation && (word.ends_with('.') || word.ends_with('?')) {
            out.push(std::mem::take(&mut current));
        }
    }
    if !current.is_empty() {
        out.push(current);
    }
    out
}

fn assert_has_every_sentence(prompt: &str, passage: &str) {
    let prompt = collapse(prompt);
    for sentence in sentences(passage) {
        assert!(
            prompt.contains(&sentence),
            "the prompt lacks the appendix's sentence\n  {sentence}\nprompt:\n{prompt}"
        );
    }
    // And in the appendix's order, as one passage.
    assert!(prompt.contains(passage), "the prompt does not hold the passage whole:\n  {passage}");
}

fn task() -> TaskText {
    TaskText {
        repo: "acme/textkit".into(),
        problem_statement: "Allow a custom separator in slugify, and add a way to shorten long slugs.\n".into(),
        patch: "diff --git a/textkit/slug.py b/textkit/slug.py\n--- a/textkit/slug.py\n+++ b/textkit/slug.py\n@@ -1 +1,2 @@\n+def truncate_slug(slug: str, max_length: int = 20) -> str:\n+    return slug[:max_length]\n".into(),
        test_patch: "diff --git a/tests/test_slug.py b/tests/test_slug.py\n--- a/tests/test_slug.py\n+++ b/tests/test_slug.py\n@@ -1 +1,2 @@\n+def test_truncate():\n+    assert truncate_slug('a-b', 1) == 'a'\n".into(),
    }
}

fn entry(base_occurrences: usize) -> Entry {
    Entry {
        attributes: vec![
            (Attribute::Name, "truncate_slug".into()),
            (Attribute::EntityType, "function".into()),
            (Attribute::Path, "textkit/slug.py".into()),
            (Attribute::IsNewFile, "false".into()),
            (Attribute::Signature, "def truncate_slug(slug: str, max_length: int = 20) -> str".into()),
            (Attribute::WeakSemantics, "Cuts a slug at a word boundary.".into()),
            (
                Attribute::StrongSemantics,
                "Returns the slug unchanged when it fits; otherwise cuts it at the last dash before max_length.".into(),
            ),
        ],
        base_occurrences: Some(base_occurrences),
    }
}

#[test]
fn the_system_prompt_is_the_papers() {
    let appendix = appendix();
    let system = span(&appendix, "You are an exacting", "nothing else.");
    assert_eq!(SYSTEM_PROMPT, system);
    for call in [Call::Necessity, Call::DisclosureGuidance] {
        let m = messages(call, &task(), &entry(0), Attribute::Path);
        assert_eq!((m[0].role.as_str(), m[0].content.as_str()), ("system", SYSTEM_PROMPT));
        assert_eq!(m[1].role, "user");
    }
}

#[test]
fn the_necessity_call_holds_every_sentence_of_its_rubric_and_skeleton() {
    let appendix = appendix();
    let prompt = necessity_prompt(&task(), &entry(0), Attribute::Path);
    assert!(prompt.starts_with("Rate NECESSITY: could a competent engineer"), "{prompt}");
    assert_has_every_sentence(&prompt, &span(&appendix, "Rate NECESSITY:", "not importance."));
    assert_has_every_sentence(&prompt, &span(&appendix, "You are rating THE TEXT ABOVE", "tells a reader."));
    assert_has_every_sentence(&prompt, &span(&appendix, "Rate NECESSITY. Respond", "<0.0-1.0>}"));
    let headings = [
        "## Repository\nacme/textkit\n",
        "## Problem statement (this is ALL the agent is told)\nAllow a custom separator",
        "## The identifier, for context\n",
        "## The value you are rating\nattribute : `path`\nvalue :\n```\ntextkit/slug.py\n```\n",
        "## Your task\nRate NECESSITY.",
    ];
    assert_in_order(&prompt, &headings);
    // Neither patch.
    assert!(!prompt.contains("diff --git") && !prompt.contains("gold patch"), "{prompt}");
}

#[test]
fn the_disclosure_guidance_call_holds_both_rubrics_and_the_patches() {
    let appendix = appendix();
    let prompt = disclosure_guidance_prompt(&task(), &entry(0), Attribute::StrongSemantics);
    assert!(prompt.starts_with("Rate DISCLOSURE: how much"), "{prompt}");
    assert_has_every_sentence(&prompt, &span(&appendix, "Rate DISCLOSURE:", "without the mechanism."));
    assert_has_every_sentence(&prompt, &span(&appendix, "Rate BEHAVIOURAL GUIDANCE:", "Score them separately."));
    assert_has_every_sentence(&prompt, &span(&appendix, "You are rating THE TEXT ABOVE", "tells a reader."));
    assert_has_every_sentence(&prompt, &span(&appendix, "Rate DISCLOSURE and BEHAVIOURAL GUIDANCE for", "<0.0-1.0>}"));
    assert_in_order(
        &prompt,
        &[
            "Score them separately.\n\n## Problem statement\nAllow a custom separator",
            "## Reference solution (gold patch)\n```diff\ndiff --git a/textkit/slug.py",
            "## Test patch (defines what must pass)\n```diff\ndiff --git a/tests/test_slug.py",
            "## The identifier, for context\n",
            "## The value you are rating\nattribute : `strong_semantics`\n",
            "## Your task\nRate DISCLOSURE and BEHAVIOURAL GUIDANCE",
        ],
    );
    assert!(!prompt.contains("## Repository") && !prompt.contains("Measured repository fact"), "{prompt}");
}

fn assert_in_order(prompt: &str, parts: &[&str]) {
    let mut at = 0;
    for part in parts {
        let found = prompt[at..].find(part).unwrap_or_else(|| panic!("`{part}` missing or out of order in\n{prompt}"));
        at += found + part.len();
    }
}

#[test]
fn every_attribute_is_listed_and_only_the_target_is_marked() {
    for call in [Call::Necessity, Call::DisclosureGuidance] {
        for (target, value) in &entry(3).attributes {
            let prompt = messages(call, &task(), &entry(3), *target).remove(1).content;
            let context =
                prompt.split("## The identifier, for context\n").nth(1).unwrap().split("\n\n").next().unwrap();
            let lines: Vec<&str> = context.lines().collect();
            assert_eq!(lines.len(), 7, "{context}");
            for ((attribute, v), line) in entry(3).attributes.iter().zip(&lines) {
                let plain = format!("{attribute}: {v}");
                if attribute == target {
                    assert_eq!(*line, format!("{plain} {TARGET_MARKER}"));
                } else {
                    assert_eq!(*line, plain);
                }
            }
            assert_eq!(prompt.matches(TARGET_MARKER).count(), 1);
            assert!(prompt.contains(&format!("attribute : `{target}`\nvalue :\n```\n{value}\n```\n")), "{prompt}");
        }
    }
}

#[test]
fn absent_attributes_are_not_listed() {
    let mut e = entry(1);
    e.attributes.retain(|(a, _)| !matches!(a, Attribute::WeakSemantics | Attribute::StrongSemantics));
    let prompt = necessity_prompt(&task(), &e, Attribute::Signature);
    assert!(!prompt.contains("weak_semantics") && !prompt.contains("strong_semantics"), "{prompt}");
}

#[test]
fn the_membership_fact_in_the_papers_two_wordings() {
    let appendix = appendix();
    let sentence = span(&appendix, "The identifier `<name>` appears", "starts from.")
        .replace("<name>", "truncate_slug")
        .replace("<k>", "{k}");
    let found = span(&appendix, "An engineer could therefore", "existing code.");
    let absent = span(&appendix, "It does not exist anywhere", "choose a name.");
    for (k, then) in [(0, &absent), (1, &found), (12, &found)] {
        let prompt = necessity_prompt(&task(), &entry(k), Attribute::Name);
        let fact = format!("## Measured repository fact\n{} {then}\n", sentence.replace("{k}", &k.to_string()));
        assert!(prompt.contains(&fact), "k = {k}: no\n{fact}\nin\n{prompt}");
        assert!(prompt.find("## Measured repository fact").unwrap() < prompt.find("## Repository").unwrap());
        let other = if then == &found { &absent } else { &found };
        assert!(!prompt.contains(other.as_str()));
    }
    // Only when the target is the name, and only in the necessity call.
    for target in [Attribute::Path, Attribute::Signature] {
        assert!(!necessity_prompt(&task(), &entry(0), target).contains("Measured repository fact"));
    }
    assert!(!disclosure_guidance_prompt(&task(), &entry(0), Attribute::Name).contains("Measured repository fact"));
    // No count known, no fact.
    let unknown = Entry { base_occurrences: None, ..entry(0) };
    assert!(!necessity_prompt(&task(), &unknown, Attribute::Name).contains("Measured repository fact"));
}

/// `n` characters, several bytes each, then a marker that must be cut.
fn long(n: usize) -> String {
    format!("{}CUT-HERE", "é".repeat(n))
}

#[test]
fn the_issue_and_patches_are_cut_where_the_paper_cuts_them() {
    let t = TaskText { problem_statement: long(6000), patch: long(14000), test_patch: long(6000), ..task() };
    let between = |prompt: &str, start: &str, end: &str| -> usize {
        let rest = prompt.split(start).nth(1).unwrap_or_else(|| panic!("no `{start}`"));
        let section = rest.split(end).next().unwrap();
        assert!(section.chars().all(|c| c == 'é'), "{start}: the cut falls elsewhere: {section}");
        section.chars().count()
    };
    let n = necessity_prompt(&t, &entry(0), Attribute::Path);
    assert_eq!(between(&n, "told)\n", "\n\n## The identifier"), 6000);
    let dg = disclosure_guidance_prompt(&t, &entry(0), Attribute::Path);
    assert_eq!(between(&dg, "## Problem statement\n", "\n\n## Reference"), 4000);
    assert_eq!(between(&dg, "(gold patch)\n```diff\n", "\n```\n\n## Test patch"), 14000);
    assert_eq!(between(&dg, "must pass)\n```diff\n", "\n```\n\n## The identifier"), 6000);
    assert!(!n.contains("CUT-HERE") && !dg.contains("CUT-HERE"));
    // Shorter texts are whole.
    let whole = disclosure_guidance_prompt(&task(), &entry(0), Attribute::Path);
    assert!(whole.contains(task().patch.trim_end()) && whole.contains(task().test_patch.trim_end()));
}

#[test]
fn a_whole_prompt_of_each_call() {
    insta::assert_snapshot!("necessity_name", necessity_prompt(&task(), &entry(0), Attribute::Name));
    insta::assert_snapshot!(
        "disclosure_guidance_signature",
        disclosure_guidance_prompt(&task(), &entry(0), Attribute::Signature)
    );
}
