//! The parts of a result record whose types live in crates that know nothing of JSON Schema
//! (`hintlens_hints::Identifier`, `hintlens_projection::Description`), described field for
//! field for [`crate::record_schema`]. The record is written from the real types; these only
//! describe it, and stay true to it three ways: every list of names below is built from an
//! exhaustive `match` on the real enum (a new variant does not compile until it is listed), the
//! unit tests check that each listed name is the one serde writes, and the tests crate
//! validates real records against the schema, whose objects admit no unknown field (a field
//! added to `Identifier` fails it until it is described here).

use hintlens_hints::{Direction, Entity, Resolution, Rule};
use hintlens_syntax::DefKind;
use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use std::borrow::Cow;

/// A selected identifier (`hintlens_hints::Identifier` as serde writes it).
#[derive(JsonSchema)]
#[schemars(deny_unknown_fields)]
#[allow(dead_code)] // described, never built
pub struct Identifier {
    /// The simple name (for a string literal: its value).
    name: String,
    /// The name qualified by its module and owners (`textkit.slug.truncate_slug`).
    qualified_name: String,
    kind: DefKindName,
    /// The defining file's path in R.
    path: String,
    /// One-based line of the definition's name in R (0 for entries that are no definition).
    line: u32,
    /// Whether the file is new in R.
    is_new_file: bool,
    /// The declaration as the Declaration projection shows it (empty for uses and strings).
    signature: String,
    /// Qualified name of the enclosing definition (the class of a method, the callable of a
    /// parameter).
    parent: Option<String>,
    /// The parent's kind, written when there is a parent: all a rendering needs to nest the
    /// member under it.
    parent_kind: Option<DefKindName>,
    /// Which side defines it and which uses it.
    direction: DirectionName,
    /// The strongest tie among its evidence.
    resolution: ResolutionName,
    /// The use sites that selected it.
    evidence: Vec<Evidence>,
    /// Files of B in which the name occurs as a word of code (for string literals: files of B
    /// holding a literal of that value).
    base_occurrences: usize,
    /// Written (true) only when some file of B could not be read: `base_occurrences` is then a
    /// lower bound.
    base_occurrences_lower_bound: Option<bool>,
    /// Whether the problem statement names it.
    in_problem_statement: bool,
    /// Static necessity: 0 stated in the issue, 1 findable in the base repository, 3 absent
    /// from both (the paper's rubric; 2, "by convention", needs a judge).
    #[schemars(range(min = 0, max = 3))]
    necessity: u8,
    /// The docstring's first sentence, when it has one.
    doc: Option<String>,
    /// What the entry is: a definition of R, or what a benchmark policy picked besides.
    entity: EntityName,
    /// The name within its file, as FEA-Bench spells definitions (`Segment.remove_color`);
    /// empty for entries that are no definition of R and for files.
    local_name: String,
    /// For a type: the signatures of its constructors (written when it has some).
    constructors: Option<Vec<String>>,
}

/// A use site that selected an identifier.
#[derive(JsonSchema)]
#[schemars(deny_unknown_fields)]
#[allow(dead_code)]
struct Evidence {
    path: String,
    /// One-based.
    line: u32,
    /// The DefUse rule that admitted it; other policies match by name and leave it out.
    rule: Option<RuleName>,
}

/// A description provider's answer (`hintlens_projection::Description`); either part may be
/// missing.
#[derive(JsonSchema)]
#[schemars(deny_unknown_fields)]
#[allow(dead_code)]
pub struct Description {
    /// One sentence of what the entity is.
    doc: Option<String>,
    /// A 2–4 sentence paragraph on its behaviour.
    behaviour: Option<String>,
}

fn names(names: Vec<&'static str>, description: &str) -> Schema {
    json_schema!({ "type": "string", "enum": names, "description": description })
}

pub(crate) fn def_kind_names() -> Vec<&'static str> {
    DefKind::ALL.map(DefKind::as_str).to_vec()
}

pub(crate) fn direction_names() -> Vec<&'static str> {
    let every = |d: Direction| match d {
        Direction::CodeToTest | Direction::TestToCode => d,
    };
    [Direction::CodeToTest, Direction::TestToCode].map(every).map(Direction::as_str).to_vec()
}

pub(crate) fn resolution_names() -> Vec<&'static str> {
    let every = |r: Resolution| match r {
        Resolution::Import | Resolution::Package | Resolution::Name => r,
    };
    [Resolution::Import, Resolution::Package, Resolution::Name].map(every).map(Resolution::as_str).to_vec()
}

pub(crate) fn rule_names() -> Vec<&'static str> {
    let every = |r: Rule| match r {
        Rule::Import
        | Rule::StringPath
        | Rule::Wildcard
        | Rule::Package
        | Rule::Fixture
        | Rule::Keyword
        | Rule::Member
        | Rule::KeywordByName
        | Rule::Name => r,
    };
    [
        Rule::Import,
        Rule::StringPath,
        Rule::Wildcard,
        Rule::Package,
        Rule::Fixture,
        Rule::Keyword,
        Rule::Member,
        Rule::KeywordByName,
        Rule::Name,
    ]
    .map(every)
    .map(Rule::as_str)
    .to_vec()
}

pub(crate) fn entity_names() -> Vec<&'static str> {
    let every = |e: Entity| match e {
        Entity::Definition | Entity::Use | Entity::String | Entity::ErrorMessage | Entity::Interface => e,
    };
    [Entity::Definition, Entity::Use, Entity::String, Entity::ErrorMessage, Entity::Interface]
        .map(every)
        .map(Entity::as_str)
        .to_vec()
}

/// A string naming one variant of an enum of another crate: its schema lists every name.
macro_rules! names_schema {
    ($($type:ident: $names:ident, $description:expr;)*) => {$(
        struct $type;

        impl JsonSchema for $type {
            fn schema_name() -> Cow<'static, str> {
                stringify!($type).into()
            }

            fn json_schema(_: &mut SchemaGenerator) -> Schema {
                names($names(), $description)
            }
        }
    )*};
}

names_schema! {
    DefKindName: def_kind_names, "What kind of program entity the definition declares.";
    DirectionName: direction_names,
        "code->test: defined by the code change, used on a line the test change adds (every identifier of a policy other than DefUse); test->code: the other way round.";
    ResolutionName: resolution_names,
        "import: an import (or a path spelled in full) names the defining module; package: the same Java or Go package; name: only the simple name matches.";
    RuleName: rule_names, "The DefUse rule that admitted the use site.";
    EntityName: entity_names,
        "definition: a definition of R; use: a name newly occurring in the code change; string, error_msg: a string literal the code change adds (in an error context); interface: an entry of a human-written interface matching no definition.";
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Serialize;

    fn written<T: Serialize>(value: T) -> String {
        serde_json::to_value(value).unwrap().as_str().unwrap().to_owned()
    }

    /// The names the schema lists are the ones serde writes (`as_str` could drift from
    /// `#[serde(rename)]`).
    #[test]
    fn listed_names_are_the_written_ones() {
        for kind in DefKind::ALL {
            assert_eq!(kind.as_str(), written(kind));
        }
        for (name, value) in direction_names().into_iter().zip([Direction::CodeToTest, Direction::TestToCode]) {
            assert_eq!(name, written(value));
        }
        for name in resolution_names() {
            assert_eq!(name, written(serde_json::from_value::<Resolution>(name.into()).unwrap()));
        }
        for name in rule_names() {
            assert_eq!(name, written(serde_json::from_value::<Rule>(name.into()).unwrap()));
        }
        for name in entity_names() {
            assert_eq!(name, written(serde_json::from_value::<Entity>(name.into()).unwrap()));
        }
    }
}
