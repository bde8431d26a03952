//! The language server driven over an in-process connection, on git repositories built from
//! inline fixtures.

mod fixtures;
mod support;

mod demand;
mod diagnostics;
mod edits;
mod errors;
mod hover;
mod lenses;
mod soak;
