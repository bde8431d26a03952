//! Reports over hintlens result files (the JSON lines `hintlens batch` writes): the paper's
//! Table 2 per selection ([`stats`]), and a selection's agreement with a benchmark's released
//! hints ([`agree`]); which tasks a correct patch can still fail on a name, given what the
//! agent is told ([`audit`]).

mod agree;
pub mod audit;
mod records;
mod stats;

pub use agree::{Agreement, Overall, ReferenceField, TaskAgreement, agree};
pub use audit::{Audit, AuditOptions, audit};
pub use records::{read_records, read_records_file};
pub use stats::{HintStats, SelectionStats, Stats, stats};
