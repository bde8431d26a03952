//! External description providers (SPEC §4): where `declaration-doc`, `pro` and
//! `pro-interface` get natural-language text when a user configures one.
//!
//! A provider is named in a TOML configuration file (`hintlens batch --config FILE`):
//!
//! ```toml
//! [provider]
//! # A local command: the request as JSON on its standard input, the answer as JSON on its
//! # standard output.
//! command = ["python3", "describe.py"]
//! timeout_seconds = 60          # optional, default 120
//! ```
//!
//! or
//!
//! ```toml
//! [provider]
//! # An OpenAI-compatible chat-completions endpoint.
//! url = "https://api.openai.com/v1/chat/completions"
//! model = "gpt-4o-mini"
//! api_key_env = "OPENAI_API_KEY"  # optional: the variable holding the bearer token
//! timeout_seconds = 60            # optional, default 120
//! ```
//!
//! The request is `{"identifier": IDENT, "task": {"instance_id", "problem_statement"},
//! "want": "doc" | "behaviour"}` (IDENT as in result records); the answer is
//! `{"doc"?: "…", "behaviour"?: "…"}`. Nothing is contacted unless a configuration names it.

mod command;
mod config;
mod openai;

pub use command::CommandProvider;
pub use config::{Config, ProviderConfig, load_config};
pub use openai::OpenAiProvider;

use hintlens_hints::{Identifier, TaskFields};
use hintlens_projection::{Description, DescriptionProvider, Want};
use serde_json::{Value, json};
use std::sync::Arc;

/// The request a provider receives.
pub fn request(identifier: &Identifier, task: &TaskFields<'_>, problem_statement: &str, want: Want) -> Value {
    json!({
        "identifier": identifier,
        "task": {"instance_id": task.instance_id, "problem_statement": problem_statement},
        "want": want,
    })
}

/// The provider a configuration names, ready to use.
pub fn provider(config: &ProviderConfig) -> Result<Arc<dyn DescriptionProvider>, String> {
    Ok(match config {
        ProviderConfig::Command { argv, timeout } => Arc::new(CommandProvider::new(argv.clone(), *timeout)?),
        ProviderConfig::OpenAi { url, model, api_key_env, timeout } => {
            let api_key = match api_key_env {
                Some(var) => {
                    Some(std::env::var(var).map_err(|_| format!("the environment variable {var} is not set"))?)
                }
                None => None,
            };
            Arc::new(OpenAiProvider::new(url.clone(), model.clone(), api_key, *timeout))
        }
    })
}

/// Parses a provider's JSON answer.
fn parse_answer(text: &str) -> Result<Description, String> {
    serde_json::from_str(text.trim())
        .map_err(|e| format!("the answer is not JSON of the form {{doc?, behaviour?}}: {e}"))
}
