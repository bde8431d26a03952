//! hintlens's extensions to LSP: the command, the custom request and its shapes.
//!
//! - Command [`SHOW_HINTS_COMMAND`] (`workspace/executeCommand`, also what every code lens
//!   carries), arguments `[HintsParams?]`, result [`HintsResult`].
//! - Request [`HINTS_METHOD`], params `HintsParams?`, result [`HintsResult`].

use hintlens_hints::Identifier;
use serde::{Deserialize, Serialize};

/// The command code lenses carry; it returns the whole hint block.
pub const SHOW_HINTS_COMMAND: &str = "hintlens.showHints";

/// The custom request returning the whole hint block, for clients without code lenses.
pub const HINTS_METHOD: &str = "hintlens/hints";

/// What to compute; absent fields take the configured `selection` and `projection`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct HintsParams {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub selection: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub projection: Option<String>,
}

/// The hint block of the task the work tree holds.
#[derive(Debug, Clone, Serialize)]
pub struct HintsResult {
    /// The rendered hint block; empty when nothing is selected (no hint at all), or a sentence
    /// saying that indexing is still going on.
    pub text: String,
    /// The selected identifiers, as batch result records write them.
    pub identifiers: Vec<Identifier>,
    /// Whether the server is still indexing (then `text` says so and `identifiers` is empty).
    pub indexing: bool,
    pub selection: String,
    pub projection: String,
}

/// Undocumented requests for tests, served only when [`crate::Options::debug_requests`] is set.
pub(crate) mod debug {
    /// Panics inside the request, to prove panics are contained.
    pub const PANIC: &str = "hintlens/debug/panic";
    /// Waits `{"ms": N}` milliseconds while checking for cancellation, to stand for a slow query.
    pub const SLEEP: &str = "hintlens/debug/sleep";

    #[derive(serde::Deserialize)]
    pub struct SleepParams {
        pub ms: u64,
    }
}
