//! The hintlens language server (`hintlens lsp`): while a task author edits a repository at its
//! reference state, it tells which identifiers cross the code–test boundary against a base
//! revision, through hover, code lenses, diagnostics, a command and a custom request.
//!
//! Code map: `server` runs the main loop; `indexer` reads the base commit's tree and compares
//! the work tree with it, parsing nothing; `tree` keeps what differs from the base (and open
//! buffers) as database inputs laid over the base, and the changes; `world` is one immutable
//! generation of all that, which the read-only handlers (`hover`, `lenses`, `hints`,
//! `diagnostics`) answer from on worker threads, parsing files as they need them.
//! [`protocol`] lists hintlens's additions to LSP.
//!
//! Invariants:
//! - Demand first: a file is read from git and parsed when a request needs it; what the whole
//!   repository contributes to an answer comes from each file's words, kept from the start.
//!   The answers are those of a full index ([`Options::full_index`]).
//! - One salsa database. Base files and unchanged work tree files are content-keyed inputs (a
//!   file identical at base and in the work tree is parsed once); an edited file gets a
//!   path-keyed input whose text is set on every edit, so only that file is re-indexed.
//! - Only the main thread writes. Workers hold database clones only while they run; a write
//!   cancels them (they answer `ContentModified`), a client's `$/cancelRequest` fires their
//!   local cancellation token (`RequestCanceled`), a panic is answered `InternalError`.
//! - Before the work tree is compared with the base, requests are answered at once and say so.
//! - Positions on the wire are UTF-16; the index counts bytes (`text` converts).
//!
//! Protocol (what clients rely on):
//! - Settings, from `initializationOptions`, `workspace/didChangeConfiguration` (`settings`
//!   either the section or `{"hintlens": section}`; `null` makes the server pull
//!   `workspace/configuration` section `hintlens`) over `.hintlens.toml` at the work tree root:
//!   `base` (revspec, default `HEAD`), `statement` (path relative to the root; `""` for none),
//!   `selection` (default `defuse`), `projection` (default `declaration`), `testPatterns`
//!   (`test_patterns` in the file; globs added to the default test paths). Absent or `null`
//!   values leave the lower layer's.
//! - Hover (markdown) and code lenses (resolved; `codeLens/resolve` returns them as they are),
//!   titled `hint · used by N test line(s)` / `hint · used by N code line(s)` above selected
//!   definitions and `uses N new identifier(s)` above test functions, each running
//!   [`protocol::SHOW_HINTS_COMMAND`] with `[{"selection", "projection"}]`.
//! - Diagnostics (information, source `hintlens`, code `unmentioned-name`) when a statement is
//!   configured.
//! - `workspace/executeCommand` [`protocol::SHOW_HINTS_COMMAND`] and the request
//!   [`protocol::HINTS_METHOD`] answer [`protocol::HintsResult`].
//! - Indexing reports `$/progress` (after `window/workDoneProgress/create`); the server asks for
//!   `workspace/codeLens/refresh` when lenses of other files may have changed, and registers a
//!   `**/*` file watcher.

mod config;
mod diagnostics;
mod dispatch;
mod hints;
mod hover;
mod indexer;
mod lenses;
mod paths;
mod progress;
pub mod protocol;
mod scan;
mod server;
mod target;
mod text;
pub mod transport;
mod tree;
mod world;

use lsp_server::{Connection, ErrorCode, Response};
use lsp_types::{
    CodeLensOptions, ExecuteCommandOptions, HoverProviderCapability, InitializeParams, PositionEncodingKind,
    SaveOptions, ServerCapabilities, TextDocumentSyncCapability, TextDocumentSyncKind, TextDocumentSyncOptions,
};
use std::error::Error;

/// How an embedding (a test, a benchmark) runs the server; `hintlens lsp` uses the defaults.
#[derive(Default)]
pub struct Options {
    /// Serve the undocumented `hintlens/debug/*` requests that tests use to exercise panics and
    /// cancellation.
    pub debug_requests: bool,
    /// Receives every salsa event, to prove what re-ran.
    pub salsa_events: Option<Box<dyn Fn(salsa::Event) + Send + Sync>>,
    /// Indexing starts only once this is signalled or dropped, so that a test can watch the
    /// server while it indexes.
    pub hold_indexing: Option<crossbeam_channel::Receiver<()>>,
    /// Parse the whole base commit before answering, as the server did before it answered on
    /// demand: the reference the equivalence tests compare demand answers with.
    pub full_index: bool,
}

/// Runs the language server on standard input and output until the client shuts it down.
pub fn run_stdio() -> Result<(), Box<dyn Error + Send + Sync>> {
    let (connection, transport) = transport::stdio();
    run(connection, Options::default())?;
    transport.join()?;
    Ok(())
}

/// Runs the language server on `connection`: the initialize handshake, then the main loop
/// until `shutdown` and `exit` (an error if the client exits without shutting down).
pub fn run(connection: Connection, options: Options) -> Result<(), Box<dyn Error + Send + Sync>> {
    let (id, params) = connection.initialize_start()?;
    let params: InitializeParams = match serde_json::from_value(params) {
        Ok(params) => params,
        Err(e) => {
            let message = format!("invalid parameters for initialize: {e}");
            let _ =
                connection.sender.send(Response::new_err(id, ErrorCode::InvalidParams as i32, message.clone()).into());
            return Err(message.into());
        }
    };
    let result = serde_json::json!({
        "capabilities": capabilities(),
        "serverInfo": { "name": "hintlens", "version": env!("CARGO_PKG_VERSION") },
    });
    connection.initialize_finish(id, result)?;
    server::Server::new(connection, params, options).run()
}

fn capabilities() -> ServerCapabilities {
    ServerCapabilities {
        position_encoding: Some(PositionEncodingKind::UTF16),
        text_document_sync: Some(TextDocumentSyncCapability::Options(TextDocumentSyncOptions {
            open_close: Some(true),
            change: Some(TextDocumentSyncKind::INCREMENTAL),
            save: Some(SaveOptions { include_text: Some(false) }.into()),
            ..TextDocumentSyncOptions::default()
        })),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        code_lens_provider: Some(CodeLensOptions { resolve_provider: Some(true) }),
        execute_command_provider: Some(ExecuteCommandOptions {
            commands: vec![protocol::SHOW_HINTS_COMMAND.to_owned()],
            ..ExecuteCommandOptions::default()
        }),
        ..ServerCapabilities::default()
    }
}
