//! The Python frontend's extraction tests, one binary (each binary links every dependency: one
//! per file cost a link step and ~12 MB of target/ each).

#[macro_use]
mod common;

mod bindings;
mod definitions;
mod frontend;
mod imports;
mod robustness;
mod strings;
mod uses;
