//! NoCode-bench's `augmentations` object, serialized compactly:
//! `{"header":"If completing this task requires …","data":[{"type":"field","name":"ret"}]}`.
//!
//! Entries are unique by (type, name) and sorted by them; a file is named by its path, as
//! NoCode-bench names new files.

use hintlens_hints::Identifier;
use hintlens_syntax::DefKind;
use serde::Serialize;
use std::collections::BTreeSet;

pub(crate) const HEADER: &str = "If completing this task requires creating new files, classes, fields, or error messages, you may consider using the following suggested entity names:";

#[derive(Serialize)]
struct Augmentations<'a> {
    header: &'static str,
    data: Vec<Entry<'a>>,
}

#[derive(Serialize, PartialEq, Eq, PartialOrd, Ord)]
struct Entry<'a> {
    #[serde(rename = "type")]
    ty: &'static str,
    name: &'a str,
}

pub(super) fn render(identifiers: &[Identifier]) -> String {
    let data: BTreeSet<Entry<'_>> = identifiers
        .iter()
        .map(|id| Entry { ty: id.nocode_type(), name: if id.kind == DefKind::File { &id.path } else { &id.name } })
        .collect();
    let augmentations = Augmentations { header: HEADER, data: data.into_iter().collect() };
    serde_json::to_string(&augmentations).expect("strings always serialize")
}
