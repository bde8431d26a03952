//! The judge's prompts: the paper's Appendix C, verbatim.
//!
//! The appendix prints the judge implementation's text as a listing whose typesetting folded
//! line breaks into spaces and turned ASCII quotes into typographic ones. The constants below
//! are that text with the listing undone, and nothing else changed: `'`, `"` and `` ` `` for
//! `’`, `”` and `‘` (so `“‘` is a code fence, ```` ``` ````), one rubric level or example per
//! line, a blank line between blocks, and each `##` heading on a line of its own. Annotations
//! of the skeleton that are not prompt text — "(present only when the target is `name`)", "(one
//! attribute is marked)", the angle-bracketed fields — are applied, not printed.

use serde::{Deserialize, Serialize};
use std::fmt::{self, Write};

/// The system prompt all three calls share.
pub const SYSTEM_PROMPT: &str = "You are an exacting research assistant evaluating hint quality for a software engineering benchmark. You apply a rubric literally and consistently. You do not reward values for being detailed or useful; you classify them by the stated criteria only. You always answer with a single JSON object and nothing else.";

/// The necessity rubric, opening the necessity call's user message.
pub const NECESSITY_RUBRIC: &str = "\
Rate NECESSITY: could a competent engineer obtain this attribute's value WITHOUT seeing the reference solution?

0 REDUNDANT - the value is stated in the problem statement itself.
1 SEARCH-SAVING - not stated, but an engineer with the repository at its current commit would reach it through normal investigation (the entity already exists; grep/reading finds it). The hint saves effort, not information.
2 DISAMBIGUATING - not stated and not already present, but strongly constrained by repository convention (e.g. a new test file's location follows an obvious existing layout). An engineer would likely guess it.
3 LOAD-BEARING - encodes a free choice the solution's author made that is not recoverable from the problem statement or the existing codebase (e.g. the name of a function that does not yet exist). Without the hint an engineer would pick something else.

Judge ONLY the target attribute's value. Ignore whether the value seems important; necessity is about RECOVERABILITY, not importance.";

/// The disclosure rubric, opening the disclosure/guidance call's user message.
pub const DISCLOSURE_RUBRIC: &str = "\
Rate DISCLOSURE: how much of the reference solution's CONTENT does this value carry?

0 INTERFACE - identity and addressing only: what it is called, where it lives, how it is invoked. This is the line the benchmark itself publishes to agents, so it is not leakage.
1 CONTRACT - observable behaviour: what it does, what its inputs and outputs mean. A specification someone could implement many ways.
2 MECHANISM - how it does it: control flow, algorithm, ordering of operations, or the names of specific helpers/APIs it calls internally.
3 TRANSCRIPTION - restates the solution closely enough that the code could be transliterated from the text with little independent thought.

Example of 2: \"overrides add_job to check the hostname against allowed hosts using fnmatch patterns\" - names the method and the matching library.
Example of 1: \"A set of exact key names that should not be sanitized even if they contain sensitive substrings\" - states the contract without the mechanism.";

/// The guidance rubric, following the disclosure rubric.
pub const GUIDANCE_RUBRIC: &str = "\
Rate BEHAVIOURAL GUIDANCE: how much does this value DIRECT the agent's actions, as opposed to merely stating a fact it must act upon?

0 DECLARATIVE - states that something exists or what it is called. No action is implied.
1 ORIENTING - narrows where to look or what to touch, without saying what to do.
2 PROCEDURAL - implies a sequence of steps or a specific approach to take.
3 PRESCRIPTIVE - reads as an instruction the agent can follow directly; the text could substitute for a plan.

This is INDEPENDENT of disclosure. A line range discloses a lot (exactly where the change goes) but guides nothing (it does not say what to do). An algorithm description does both. Score them separately.";

/// What follows the value in both calls.
pub const RATING_THE_TEXT: &str = "You are rating THE TEXT ABOVE - not the entity it refers to, and not the other attributes listed for context. Ask what this text, by itself, tells a reader.";

/// The necessity call's closing instruction.
pub const NECESSITY_TASK: &str = "\
Rate NECESSITY. Respond with exactly this JSON object:
{\"label\": \"<REDUNDANT|SEARCH-SAVING|DISAMBIGUATING|LOAD-BEARING>\", \"evidence\": \"<a short verbatim quote from the problem statement that justifies your rating, or the empty string if the statement says nothing relevant>\", \"rationale\": \"<one sentence>\", \"confidence\": <0.0-1.0>}";

/// The disclosure/guidance call's closing instruction.
pub const DISCLOSURE_GUIDANCE_TASK: &str = "\
Rate DISCLOSURE and BEHAVIOURAL GUIDANCE for the value above, by comparing it against the reference solution. Respond with exactly this JSON object:
{\"disclosure_label\": \"<INTERFACE|CONTRACT|MECHANISM|TRANSCRIPTION>\", \"guidance_label\": \"<DECLARATIVE|ORIENTING|PROCEDURAL|PRESCRIPTIVE>\", \"evidence\": \"<the span of the target value that carries the most solution content, verbatim>\", \"rationale\": \"<one sentence>\", \"confidence\": <0.0-1.0>}";

/// The membership fact's second sentence when the name occurs at the base (k > 0).
pub const FOUND_BY_SEARCHING: &str = "An engineer could therefore find it by searching the existing code.";
/// … and when it does not (k = 0).
pub const NOT_FOUND_BY_SEARCHING: &str = "It does not exist anywhere in the tree yet, so it cannot be found by searching; any engineer would have to choose a name.";

/// Marks the rated attribute in the identifier's listing.
pub const TARGET_MARKER: &str = "<<< TARGET";

/// Characters of the issue the necessity call shows.
pub const NECESSITY_ISSUE_CHARS: usize = 6000;
/// Characters of the issue the disclosure/guidance call shows.
pub const DISCLOSURE_ISSUE_CHARS: usize = 4000;
/// Characters of the gold patch the disclosure/guidance call shows.
pub const GOLD_PATCH_CHARS: usize = 14000;
/// Characters of the test patch the disclosure/guidance call shows.
pub const TEST_PATCH_CHARS: usize = 6000;

/// An attribute of a hint entry, in the paper's names and listing order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Attribute {
    Name,
    EntityType,
    Path,
    IsNewFile,
    Signature,
    WeakSemantics,
    StrongSemantics,
}

impl Attribute {
    pub const ALL: [Attribute; 7] = [
        Attribute::Name,
        Attribute::EntityType,
        Attribute::Path,
        Attribute::IsNewFile,
        Attribute::Signature,
        Attribute::WeakSemantics,
        Attribute::StrongSemantics,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Attribute::Name => "name",
            Attribute::EntityType => "entity_type",
            Attribute::Path => "path",
            Attribute::IsNewFile => "is_new_file",
            Attribute::Signature => "signature",
            Attribute::WeakSemantics => "weak_semantics",
            Attribute::StrongSemantics => "strong_semantics",
        }
    }
}

impl fmt::Display for Attribute {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The two calls per (instance, identifier, attribute).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Call {
    /// Sees the issue, neither patch.
    Necessity,
    /// Sees the issue, the gold patch and the test patch.
    DisclosureGuidance,
}

impl Call {
    pub fn as_str(self) -> &'static str {
        match self {
            Call::Necessity => "necessity",
            Call::DisclosureGuidance => "disclosure_guidance",
        }
    }
}

/// One chat message (OpenAI chat format).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Message {
    pub role: String,
    pub content: String,
}

/// What a task contributes to the prompts.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TaskText {
    /// `owner/name`.
    pub repo: String,
    pub problem_statement: String,
    /// The gold (code) patch.
    pub patch: String,
    pub test_patch: String,
}

/// One identifier's attributes as its hint shows them, in listing order; an attribute without
/// a value (no signature, no description) is absent.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Entry {
    pub attributes: Vec<(Attribute, String)>,
    /// Files of the base snapshot in which the name occurs: the necessity call's measured
    /// repository fact when the target is `name`.
    pub base_occurrences: Option<usize>,
}

impl Entry {
    pub fn value(&self, attribute: Attribute) -> Option<&str> {
        self.attributes.iter().find(|(a, _)| *a == attribute).map(|(_, v)| v.as_str())
    }
}

/// The first `n` characters of `text` (characters, not bytes).
pub fn first_chars(text: &str, n: usize) -> &str {
    match text.char_indices().nth(n) {
        Some((at, _)) => &text[..at],
        None => text,
    }
}

/// The measured repository fact about a name found in `k` files of the base snapshot.
pub fn membership_fact(name: &str, k: usize) -> String {
    let then = if k > 0 { FOUND_BY_SEARCHING } else { NOT_FOUND_BY_SEARCHING };
    format!(
        "The identifier `{name}` appears in {k} file(s) in this repository at the commit the agent starts from. {then}"
    )
}

/// The system and user messages of one call rating `target` of `entry`.
///
/// Panics if `entry` has no value for `target` (callers rate only attributes an entry has).
pub fn messages(call: Call, task: &TaskText, entry: &Entry, target: Attribute) -> Vec<Message> {
    let user = match call {
        Call::Necessity => necessity_prompt(task, entry, target),
        Call::DisclosureGuidance => disclosure_guidance_prompt(task, entry, target),
    };
    vec![
        Message { role: "system".into(), content: SYSTEM_PROMPT.into() },
        Message { role: "user".into(), content: user },
    ]
}

/// The necessity call's user message.
pub fn necessity_prompt(task: &TaskText, entry: &Entry, target: Attribute) -> String {
    let mut out = String::new();
    out.push_str(NECESSITY_RUBRIC);
    out.push_str("\n\n");
    if target == Attribute::Name
        && let (Some(name), Some(k)) = (entry.value(Attribute::Name), entry.base_occurrences)
    {
        let _ = write!(out, "## Measured repository fact\n{}\n\n", membership_fact(name, k));
    }
    let _ = write!(out, "## Repository\n{}\n\n", task.repo);
    let _ = write!(
        out,
        "## Problem statement (this is ALL the agent is told)\n{}\n\n",
        first_chars(&task.problem_statement, NECESSITY_ISSUE_CHARS)
    );
    write_identifier(&mut out, entry, target);
    let _ = write!(out, "## Your task\n{NECESSITY_TASK}");
    out
}

/// The disclosure/guidance call's user message.
pub fn disclosure_guidance_prompt(task: &TaskText, entry: &Entry, target: Attribute) -> String {
    let mut out = String::new();
    let _ = write!(out, "{DISCLOSURE_RUBRIC}\n\n{GUIDANCE_RUBRIC}\n\n");
    let _ = write!(out, "## Problem statement\n{}\n\n", first_chars(&task.problem_statement, DISCLOSURE_ISSUE_CHARS));
    let _ = write!(
        out,
        "## Reference solution (gold patch)\n```diff\n{}\n```\n\n",
        first_chars(&task.patch, GOLD_PATCH_CHARS).trim_end_matches('\n')
    );
    let _ = write!(
        out,
        "## Test patch (defines what must pass)\n```diff\n{}\n```\n\n",
        first_chars(&task.test_patch, TEST_PATCH_CHARS).trim_end_matches('\n')
    );
    write_identifier(&mut out, entry, target);
    let _ = write!(out, "## Your task\n{DISCLOSURE_GUIDANCE_TASK}");
    out
}

/// "The identifier, for context" (every attribute, the target marked) and "The value you are
/// rating".
fn write_identifier(out: &mut String, entry: &Entry, target: Attribute) {
    let value = entry.value(target).unwrap_or_else(|| panic!("the entry has no {target} to rate"));
    out.push_str("## The identifier, for context\n");
    for (attribute, v) in &entry.attributes {
        let _ = write!(out, "{attribute}: {v}");
        if *attribute == target {
            let _ = write!(out, " {TARGET_MARKER}");
        }
        out.push('\n');
    }
    let _ = write!(
        out,
        "\n## The value you are rating\nattribute : `{target}`\nvalue :\n```\n{value}\n```\n{RATING_THE_TEXT}\n\n"
    );
}
