//! Asking an OpenAI-compatible chat-completions endpoint: the `[judge]` table of a TOML
//! configuration, retries with backoff, and a resumable answers file.
//!
//! ```toml
//! [judge]
//! url = "https://api.openai.com/v1/chat/completions"
//! model = "…"
//! api_key_env = "OPENAI_API_KEY"  # optional: the variable holding the bearer token
//! temperature = 1.0               # optional, default 1 (the paper's)
//! reasoning_effort = "medium"     # optional, sent as is when given
//! timeout_seconds = 300           # optional, default 300
//! max_retries = 5                 # optional, default 5
//! backoff_seconds = 2.0           # optional, default 2: the first wait, doubled each retry
//! ```
//!
//! Other tables are ignored, so one file may also name `hintlens batch`'s description
//! provider. Nothing is sent anywhere without such a file.

use crate::import::Answer;
use crate::prompts::Message;
use serde::Deserialize;
use serde_json::{Value, json};
use std::collections::HashSet;
use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Duration;

/// The longest wait between two attempts.
const MAX_BACKOFF: Duration = Duration::from_secs(120);

/// Where and how to ask.
#[derive(Debug, Clone, PartialEq)]
pub struct JudgeConfig {
    pub url: String,
    pub model: String,
    pub api_key_env: Option<String>,
    pub temperature: f64,
    pub reasoning_effort: Option<String>,
    pub timeout: Duration,
    pub max_retries: u32,
    pub backoff: Duration,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawJudge {
    url: String,
    model: String,
    api_key_env: Option<String>,
    temperature: Option<f64>,
    reasoning_effort: Option<String>,
    timeout_seconds: Option<u64>,
    max_retries: Option<u32>,
    backoff_seconds: Option<f64>,
}

/// Reads the `[judge]` table of a configuration file.
pub fn load_config(path: &Path) -> Result<JudgeConfig, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    parse_config(&text).map_err(|e| format!("{}: {e}", path.display()))
}

pub fn parse_config(text: &str) -> Result<JudgeConfig, String> {
    let mut table: toml::Table = toml::from_str(text).map_err(|e| e.to_string())?;
    let judge = table.remove("judge").ok_or("no [judge] table: name the endpoint to ask (url, model)")?;
    let raw: RawJudge = judge.try_into().map_err(|e: toml::de::Error| format!("[judge]: {e}"))?;
    let backoff = raw.backoff_seconds.unwrap_or(2.0);
    if !(0.0..=3600.0).contains(&backoff) {
        return Err("[judge] `backoff_seconds` must be between 0 and 3600".into());
    }
    Ok(JudgeConfig {
        url: raw.url,
        model: raw.model,
        api_key_env: raw.api_key_env,
        temperature: raw.temperature.unwrap_or(1.0),
        reasoning_effort: raw.reasoning_effort,
        timeout: Duration::from_secs(raw.timeout_seconds.unwrap_or(300)),
        max_retries: raw.max_retries.unwrap_or(5),
        backoff: Duration::from_secs_f64(backoff),
    })
}

/// Anything that answers a call: the endpoint, or a stand-in in tests.
pub trait Judge: Sync {
    /// The model's text for one call, or why there is none.
    fn ask(&self, messages: &[Message]) -> Result<String, String>;
}

/// An OpenAI-compatible chat-completions endpoint.
pub struct HttpJudge {
    config: JudgeConfig,
    api_key: Option<String>,
    agent: ureq::Agent,
}

enum Failure {
    /// Worth another attempt (transport error, 408, 409, 429, 5xx), after the server's
    /// `Retry-After` when it sent one.
    Retry(String, Option<Duration>),
    Fatal(String),
}

impl HttpJudge {
    /// Reads the bearer token from `api_key_env` when the configuration names one.
    pub fn new(config: &JudgeConfig) -> Result<HttpJudge, String> {
        let api_key = match &config.api_key_env {
            Some(var) => Some(std::env::var(var).map_err(|_| format!("the environment variable {var} is not set"))?),
            None => None,
        };
        let agent = ureq::Agent::config_builder()
            .timeout_global(Some(config.timeout))
            .http_status_as_error(false)
            .build()
            .into();
        Ok(HttpJudge { config: config.clone(), api_key, agent })
    }

    fn once(&self, messages: &[Message]) -> Result<String, Failure> {
        let mut body = json!({
            "model": self.config.model,
            "messages": messages,
            "temperature": self.config.temperature,
        });
        if let Some(effort) = &self.config.reasoning_effort {
            body["reasoning_effort"] = json!(effort);
        }
        let mut call = self.agent.post(&self.config.url);
        if let Some(key) = &self.api_key {
            call = call.header("Authorization", &format!("Bearer {key}"));
        }
        let mut response = match call.send_json(&body) {
            Ok(r) => r,
            Err(e @ (ureq::Error::BadUri(_) | ureq::Error::Http(_))) => return Err(Failure::Fatal(e.to_string())),
            Err(e) => return Err(Failure::Retry(e.to_string(), None)),
        };
        let status = response.status().as_u16();
        let retry_after = response
            .headers()
            .get("retry-after")
            .and_then(|v| v.to_str().ok()?.trim().parse::<u64>().ok())
            .map(Duration::from_secs);
        let text = response.body_mut().read_to_string().map_err(|e| Failure::Retry(e.to_string(), None))?;
        let short: String = text.chars().take(300).collect();
        match status {
            200..=299 => {
                let answer: Value =
                    serde_json::from_str(&text).map_err(|e| Failure::Fatal(format!("the answer is not JSON: {e}")))?;
                answer["choices"][0]["message"]["content"]
                    .as_str()
                    .map(str::to_owned)
                    .ok_or_else(|| Failure::Fatal(format!("no choices[0].message.content in the answer: {short}")))
            }
            408 | 409 | 429 | 500..=599 => Err(Failure::Retry(format!("HTTP {status}: {short}"), retry_after)),
            _ => Err(Failure::Fatal(format!("HTTP {status}: {short}"))),
        }
    }
}

impl Judge for HttpJudge {
    fn ask(&self, messages: &[Message]) -> Result<String, String> {
        let mut wait = self.config.backoff;
        for attempt in 0.. {
            match self.once(messages) {
                Ok(text) => return Ok(text),
                Err(Failure::Fatal(e)) => return Err(format!("{}: {e}", self.config.url)),
                Err(Failure::Retry(e, _)) if attempt >= self.config.max_retries => {
                    return Err(format!("{}: {e} (gave up after {} attempts)", self.config.url, attempt + 1));
                }
                Err(Failure::Retry(_, retry_after)) => {
                    std::thread::sleep(retry_after.unwrap_or(wait).min(MAX_BACKOFF));
                    wait = (wait * 2).min(MAX_BACKOFF);
                }
            }
        }
        unreachable!("the loop returns")
    }
}

/// An answers file opened to be continued.
pub struct Answers {
    /// Opened for appending after the kept answers.
    pub file: File,
    /// Ids that have an answer.
    pub answered: HashSet<String>,
    /// Lines dropped: a torn last line (the run was killed mid-write) or unreadable ones.
    pub dropped: usize,
}

/// Opens `path` to append answers to (a missing file is an empty one). When lines must be
/// dropped the kept ones are rewritten through a temporary file renamed over `path`.
pub fn open_answers(path: &Path) -> io::Result<Answers> {
    let text = match std::fs::read(path) {
        Ok(text) => text,
        Err(e) if e.kind() == io::ErrorKind::NotFound => Vec::new(),
        Err(e) => return Err(e),
    };
    let mut kept: Vec<&[u8]> = Vec::new();
    let mut answered = HashSet::new();
    let mut dropped = 0;
    for line in text.split_inclusive(|&b| b == b'\n') {
        let answer = line.ends_with(b"\n").then(|| serde_json::from_slice::<Answer>(line).ok()).flatten();
        match answer {
            Some(a) => {
                answered.insert(a.id);
                kept.push(line);
            }
            None if line.iter().all(u8::is_ascii_whitespace) => {}
            None => dropped += 1,
        }
    }
    if dropped > 0 {
        let tmp = path.with_extension("resume.tmp");
        {
            let mut out = io::BufWriter::new(File::create(&tmp)?);
            for line in &kept {
                out.write_all(line)?;
            }
            out.into_inner().map_err(|e| e.into_error())?.sync_all()?;
        }
        std::fs::rename(&tmp, path)?;
    }
    let file = OpenOptions::new().create(true).append(true).open(path)?;
    Ok(Answers { file, answered, dropped })
}

/// How a run is going, after each answer.
#[derive(Debug, Clone)]
pub struct RunProgress<'a> {
    pub done: usize,
    pub total: usize,
    pub failed: usize,
    /// The call that just failed, and why.
    pub error: Option<(&'a str, &'a str)>,
}

/// How a run went.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RunSummary {
    /// Calls that already had an answer and were not asked.
    pub already: usize,
    pub answered: usize,
    /// Calls with no answer after every attempt (id, why): not written, so a second run asks
    /// them again.
    pub failed: Vec<(String, String)>,
}

/// Asks `judge` every call (id, messages) whose id `answered` lacks, on `concurrency` threads;
/// each answer is written to `out` as one whole line as it arrives. An id is asked once.
pub fn run(
    calls: &[(&str, &[Message])],
    judge: &dyn Judge,
    concurrency: usize,
    answered: &HashSet<String>,
    out: &mut dyn Write,
    progress: &mut dyn FnMut(&RunProgress<'_>),
) -> io::Result<RunSummary> {
    let mut summary = RunSummary::default();
    let mut seen = HashSet::new();
    let mut todo = Vec::new();
    for &(id, messages) in calls {
        if answered.contains(id) {
            summary.already += 1;
        } else if seen.insert(id) {
            todo.push((id, messages));
        }
    }
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let total = todo.len();
    std::thread::scope(|scope| -> io::Result<()> {
        let (tx, rx) = mpsc::channel();
        for _ in 0..concurrency.clamp(1, total.max(1)) {
            let (tx, todo, next, stop) = (tx.clone(), &todo, &next, &stop);
            scope.spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&(id, messages)) = todo.get(i) else { break };
                    if tx.send((id, judge.ask(messages))).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        for (done, (id, result)) in rx.into_iter().enumerate() {
            let error = match result {
                Ok(content) => {
                    let mut line = serde_json::to_string(&Answer { id: id.to_owned(), content })?;
                    line.push('\n');
                    if let Err(e) = out.write_all(line.as_bytes()).and_then(|()| out.flush()) {
                        stop.store(true, Ordering::Relaxed);
                        return Err(e);
                    }
                    summary.answered += 1;
                    None
                }
                Err(e) => {
                    summary.failed.push((id.to_owned(), e));
                    summary.failed.last().map(|(id, e)| (id.as_str(), e.as_str()))
                }
            };
            progress(&RunProgress { done: done + 1, total, failed: summary.failed.len(), error });
        }
        Ok(())
    })?;
    Ok(summary)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_judge_table() {
        let c = parse_config(
            "[provider]\ncommand = [\"x\"]\n[judge]\nurl = \"http://127.0.0.1:9/v1/chat/completions\"\nmodel = \"m\"\nreasoning_effort = \"medium\"\nbackoff_seconds = 0.01\n",
        )
        .unwrap();
        assert_eq!(c.model, "m");
        assert_eq!(c.temperature, 1.0);
        assert_eq!(c.reasoning_effort.as_deref(), Some("medium"));
        assert_eq!(c.backoff, Duration::from_millis(10));
        assert_eq!(c.max_retries, 5);
        assert!(parse_config("[provider]\nurl = \"u\"\nmodel = \"m\"\n").unwrap_err().contains("no [judge] table"));
        assert!(parse_config("[judge]\nurl = \"u\"\n").unwrap_err().contains("model"));
        assert!(parse_config("[judge]\nurl = \"u\"\nmodel = \"m\"\nmodle = 1\n").is_err());
    }

    #[test]
    fn a_torn_answers_file_is_mended() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("answers.jsonl");
        std::fs::write(
            &path,
            "{\"id\":\"a\",\"content\":\"x\"}\n{\"id\":\"b\",\"content\":\"y\"}\n{\"id\":\"c\",\"con",
        )
        .unwrap();
        let answers = open_answers(&path).unwrap();
        assert_eq!(answers.answered, HashSet::from(["a".to_owned(), "b".to_owned()]));
        assert_eq!(answers.dropped, 1);
        drop(answers);
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            "{\"id\":\"a\",\"content\":\"x\"}\n{\"id\":\"b\",\"content\":\"y\"}\n"
        );
        assert!(open_answers(&dir.path().join("none.jsonl")).unwrap().answered.is_empty());
    }
}
