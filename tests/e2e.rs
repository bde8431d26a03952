//! Every end-to-end test, one binary: scenario files, the command line, the LSP server over
//! stdio, the policies' renderings. Each module is the file beside this one.

mod cli;
mod cli_audit;
mod cli_judge;
mod cli_pipeline;
mod cli_reports;
mod cli_review;
mod definable;
mod docs;
mod lsp_stdio;
mod nul_bytes;
mod outline;
mod policies;
mod repositories;
mod reuse;
mod scenarios;
