//! The judge's integration tests, one binary (each binary links every dependency).

mod answers;
mod export;
mod prompts;
mod run;
mod stats;
