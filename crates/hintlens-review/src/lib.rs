//! `hintlens review`: a benchmark designer judges a whole benchmark's hints by what they
//! disclose, with the evidence beside each one, and decides what stays.
//!
//! - [`audit`]: each task's hidden naming contracts (`hintlens audit`'s) and their summary
//!   per repository.
//! - [`benchmark`]: the results of `hintlens batch` joined with the dataset and the judge's
//!   scores, by instance id.
//! - [`source`]: each identifier's definition at R and the lines of its use sites, read from
//!   git objects (R built in memory, as the batch builds it).
//! - [`decisions`]: the append-only decisions file (keep or drop per identifier, reviewed or
//!   flagged per task, each with a note) and its replay.
//! - [`curate`]: result records with the decisions applied (`augment --decisions`).
//! - [`progress`]: how far a review has come (`hintlens stats`).
//! - [`server`]: the page (embedded HTML, CSS and JavaScript; no build step) and its JSON API
//!   on 127.0.0.1.
//!
//! Invariants:
//! - A decision is acknowledged only after its line is written whole and synced; replay drops
//!   a torn last line (never acknowledged) and refuses any other line it cannot read.
//! - The server binds loopback only, answers only requests whose `Host` is the served address,
//!   refuses changes from another origin, and serves a fixed table of paths: no part of a URL
//!   reaches the filesystem; what it answers comes from the loaded results and git objects.
//! - Curating a record changes only the selections that lost an identifier and their hints; a
//!   hint is rendered again from the record's identifiers, never edited as text.
//! - No global state: the server owns what it answers from.

pub mod audit;
pub mod benchmark;
pub mod curate;
pub mod decisions;
pub mod progress;
pub mod server;
pub mod source;

pub use audit::Contracts;
pub use benchmark::{AttributeScores, Benchmark, Sources, Task};
pub use curate::{Curated, curate};
pub use decisions::{
    Decision, DecisionLog, Decisions, Entry, IdentifierKey, Replay, Verdict, default_path, read_decisions,
};
pub use progress::{Progress, progress};
pub use server::{App, ReviewServer, Stopper};
