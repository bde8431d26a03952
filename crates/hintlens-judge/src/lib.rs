//! The judge kit (SPEC §6; the paper's §4.6 and Appendix C): what each attribute of a hint
//! discloses, rated by a language model.
//!
//! - [`prompts`]: the paper's system prompt, rubrics and prompt skeletons, verbatim, filled per
//!   call (issue cut at 6,000 or 4,000 characters, gold patch at 14,000, test patch at 6,000,
//!   the target attribute marked, the membership fact for `name`).
//! - [`export`]: result records → one prompt per (instance, identifier, attribute, call, sample).
//! - [`client`]: an OpenAI-compatible endpoint named in a configuration file; retries, resumable
//!   answers. [`standin`]: a loopback stand-in for it.
//! - [`answer`], [`import`]: raw answers → labels 0–3; an unreadable answer is recorded as such.
//! - [`stats`]: Table 8 — N, D, G, HVM = N − max(D, G) per attribute, instance-clustered
//!   bootstrap intervals, three-sample unanimity.
//!
//! Invariants:
//! - Plain data in, plain data out; no global state. Reading files and datasets is the
//!   caller's (the `hintlens judge` commands).
//! - The prompt text is the paper's: changing a constant in [`prompts`] changes what is
//!   measured, and the tests hold the paper's sentences to check it.
//! - An answer is parsed or counted unparsable; a label is never guessed.
//! - Nothing is sent anywhere unless a configuration names the endpoint; an answered id is
//!   never asked again.
//! - A report is a function of the judged records, the resample count and the seed.

pub mod answer;
pub mod client;
pub mod export;
pub mod import;
pub mod prompts;
pub mod standin;
pub mod stats;

pub use answer::{Scale, Verdict, parse_answer, parse_label};
pub use client::{HttpJudge, Judge, JudgeConfig, RunProgress, RunSummary, load_config, open_answers, run};
pub use export::{ExportOptions, ExportProblem, ExportSummary, PromptRecord, entry_of, export, projected_attributes};
pub use import::{Answer, ImportSummary, Judged, Status, import};
pub use prompts::{Attribute, Call, Entry, Message, TaskText, messages};
pub use stats::{AttributeRow, Bootstrap, Estimate, Table8, Unanimity, table8};
