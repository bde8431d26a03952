//! Natural-language descriptions of identifiers from an external provider (SPEC §4): the
//! one-sentence `doc` of `declaration-doc` and the behaviour paragraph of `pro`.
//!
//! The provider itself (a command, an HTTP endpoint) lives outside this crate; selection and
//! rendering stay pure. Callers ask the provider for what the requested projections want
//! ([`crate::Projection::wants`]), collect the answers in [`Descriptions`], and render with
//! them.

use hintlens_hints::{Identifier, TaskFields};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// What a projection asks a provider for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Want {
    /// One sentence of what the entity is.
    Doc,
    /// A 2–4 sentence paragraph on its behaviour.
    Behaviour,
}

/// A provider's answer; either part may be missing.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Description {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub doc: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub behaviour: Option<String>,
}

/// An external source of descriptions. Nothing is sent anywhere unless a user configured one.
pub trait DescriptionProvider: Send + Sync {
    fn describe(
        &self,
        identifier: &Identifier,
        task: &TaskFields<'_>,
        problem_statement: &str,
        want: Want,
    ) -> Result<Description, String>;
}

/// Descriptions gathered before rendering, by identifier ([`description_key`]).
#[derive(Debug, Clone, Default)]
pub struct Descriptions {
    by_key: HashMap<String, Description>,
}

impl Descriptions {
    /// Merges an answer into what is known of the identifier (later parts win).
    pub fn insert(&mut self, id: &Identifier, answer: Description) {
        let known = self.by_key.entry(description_key(id)).or_default();
        if answer.doc.is_some() {
            known.doc = answer.doc;
        }
        if answer.behaviour.is_some() {
            known.behaviour = answer.behaviour;
        }
    }

    pub fn get(&self, id: &Identifier) -> Option<&Description> {
        self.by_key.get(&description_key(id))
    }
}

/// One identifier across selections: the same entity selected by two policies is described
/// once.
pub fn description_key(id: &Identifier) -> String {
    format!("{}\u{0}{}\u{0}{}\u{0}{}", id.path, id.qualified_name, id.kind, id.entity.as_str())
}
