//! Joining prompts and raw answers into judged records.

use crate::answer::parse_answer;
use crate::export::PromptRecord;
use crate::prompts::{Attribute, Call};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// A raw answer, as `judge run` writes it (any tool may write these).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Answer {
    pub id: String,
    /// The model's text, untouched.
    pub content: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    Ok,
    /// The answer could not be read; `error` says why and `content` keeps the text.
    Unparsable,
}

/// One answered call, read.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Judged {
    pub id: String,
    pub instance_id: String,
    pub identifier: String,
    pub entry: String,
    pub attribute: Attribute,
    pub call: Call,
    pub sample: u32,
    pub status: Status,
    /// Necessity, disclosure and guidance levels (0–3), each with its label as written.
    #[serde(rename = "N", default, skip_serializing_if = "Option::is_none")]
    pub n: Option<u8>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub necessity_label: Option<String>,
    #[serde(rename = "D", default, skip_serializing_if = "Option::is_none")]
    pub d: Option<u8>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub disclosure_label: Option<String>,
    #[serde(rename = "G", default, skip_serializing_if = "Option::is_none")]
    pub g: Option<u8>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub guidance_label: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub evidence: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rationale: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub confidence: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content: Option<String>,
}

/// How the join went.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct ImportSummary {
    pub judged: usize,
    pub unparsable: usize,
    /// Prompts without an answer (not written: `judge run` again asks them).
    pub unanswered: usize,
    /// Answers whose id no prompt has (ignored).
    pub unknown: Vec<String>,
    /// Ids answered more than once (the last answer is taken).
    pub repeated: usize,
}

/// One judged record per answered prompt, in the prompts' order.
pub fn import(prompts: &[PromptRecord], answers: &[Answer]) -> (Vec<Judged>, ImportSummary) {
    let mut summary = ImportSummary::default();
    let mut by_id: HashMap<&str, &str> = HashMap::new();
    for a in answers {
        if by_id.insert(&a.id, &a.content).is_some() {
            summary.repeated += 1;
        }
    }
    let mut judged = Vec::new();
    for p in prompts {
        let Some(content) = by_id.remove(p.id.as_str()) else {
            summary.unanswered += 1;
            continue;
        };
        let mut record = Judged {
            id: p.id.clone(),
            instance_id: p.instance_id.clone(),
            identifier: p.identifier.clone(),
            entry: p.entry.clone(),
            attribute: p.attribute,
            call: p.call,
            sample: p.sample,
            status: Status::Ok,
            n: None,
            necessity_label: None,
            d: None,
            disclosure_label: None,
            g: None,
            guidance_label: None,
            evidence: None,
            rationale: None,
            confidence: None,
            error: None,
            content: None,
        };
        match parse_answer(p.call, content) {
            Ok(v) => {
                (record.n, record.necessity_label) = v.necessity.unzip();
                (record.d, record.disclosure_label) = v.disclosure.unzip();
                (record.g, record.guidance_label) = v.guidance.unzip();
                record.evidence = v.evidence;
                record.rationale = v.rationale;
                record.confidence = v.confidence;
            }
            Err(e) => {
                summary.unparsable += 1;
                record.status = Status::Unparsable;
                record.error = Some(e);
                record.content = Some(content.to_owned());
            }
        }
        summary.judged += 1;
        judged.push(record);
    }
    let mut unknown: Vec<String> = by_id.into_keys().map(str::to_owned).collect();
    unknown.sort();
    summary.unknown = unknown;
    (judged, summary)
}
