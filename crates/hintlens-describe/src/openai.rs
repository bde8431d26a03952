//! An OpenAI-compatible chat-completions endpoint as provider.

use hintlens_hints::{Identifier, TaskFields};
use hintlens_projection::{Description, DescriptionProvider, Want};
use serde_json::{Value, json};
use std::time::Duration;

/// Characters of the issue text sent along (the paper's judge prompts cut at 6000 too).
const PROBLEM_STATEMENT_CHARS: usize = 6000;

const SYSTEM: &str = "You describe program entities for a software engineering benchmark. Answer with the requested text only, no preamble, no code.";

pub struct OpenAiProvider {
    url: String,
    model: String,
    api_key: Option<String>,
    agent: ureq::Agent,
}

impl OpenAiProvider {
    /// `api_key` is sent as a bearer token when given.
    pub fn new(url: String, model: String, api_key: Option<String>, timeout: Duration) -> OpenAiProvider {
        let agent = ureq::Agent::config_builder().timeout_global(Some(timeout)).build().into();
        OpenAiProvider { url, model, api_key, agent }
    }

    fn prompt(identifier: &Identifier, problem_statement: &str, want: Want) -> String {
        let ask = match want {
            Want::Doc => "In one sentence of at most 20 words, say what this entity is and does.",
            Want::Behaviour => {
                "In two to four sentences, describe this entity's behaviour: what it does, its edge cases, and the constraints tests would check."
            }
        };
        let issue: String = problem_statement.chars().take(PROBLEM_STATEMENT_CHARS).collect();
        let entity = json!({
            "name": identifier.name,
            "kind": identifier.kind,
            "path": identifier.path,
            "signature": identifier.signature,
            "docstring": identifier.doc,
        });
        format!("{ask}\n\n## Entity\n{entity}\n\n## Task\n{issue}")
    }
}

impl DescriptionProvider for OpenAiProvider {
    fn describe(
        &self,
        identifier: &Identifier,
        _task: &TaskFields<'_>,
        problem_statement: &str,
        want: Want,
    ) -> Result<Description, String> {
        let body = json!({
            "model": self.model,
            "temperature": 0,
            "messages": [
                {"role": "system", "content": SYSTEM},
                {"role": "user", "content": Self::prompt(identifier, problem_statement, want)},
            ],
        });
        let mut call = self.agent.post(&self.url);
        if let Some(key) = &self.api_key {
            call = call.header("Authorization", &format!("Bearer {key}"));
        }
        let mut response = call.send_json(&body).map_err(|e| format!("{}: {e}", self.url))?;
        let answer: Value = response.body_mut().read_json().map_err(|e| format!("{}: {e}", self.url))?;
        let text = answer["choices"][0]["message"]["content"]
            .as_str()
            .ok_or_else(|| format!("{}: no choices[0].message.content in the answer", self.url))?
            .trim()
            .to_owned();
        Ok(match want {
            Want::Doc => Description { doc: Some(text), behaviour: None },
            Want::Behaviour => Description { doc: None, behaviour: Some(text) },
        })
    }
}
