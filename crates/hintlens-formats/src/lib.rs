//! The hint text benchmarks release, parsed into data: what hintlens' own selections are
//! compared with (`hintlens agree`) and matched against (the `pro` selection). Text in, plain
//! data out: nothing here reads a repository.

mod interface;

pub use interface::{InterfaceEntry, parse_interface};
