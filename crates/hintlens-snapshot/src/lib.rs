//! snapshots (in progress)
