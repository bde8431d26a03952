//! The database's integration tests, one binary (each binary links every dependency).

mod incremental;
mod shared_endings;
