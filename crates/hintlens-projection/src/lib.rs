//! Projection, the paper's second decision: what a hint reveals about each identifier a
//! selection ([`hintlens_hints`]) picked (SPEC §4), and the benchmarks' native renderings.
//!
//! Invariants:
//! - Rendering is pure: it reads the identifiers and a [`RenderContext`] (the dataset's
//!   requirements, a provider's [`Descriptions`] gathered before), never the database or git.
//! - Every projection renders an empty selection as the empty string: no identifiers, no hint.

mod declaration;
mod describe;
mod fea;
mod nocode;
mod pro_interface;
mod sentence;

pub use describe::{Description, DescriptionProvider, Descriptions, Want, description_key};
pub use sentence::first_sentence;

use hintlens_hints::{Entity, Identifier};
use hintlens_syntax::DefKind;
use std::collections::HashSet;
use std::fmt::{self, Write};
use std::str::FromStr;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Projection {
    /// Names only, one per line.
    Name,
    /// Name and entity kind, one per line (Doc2Feat's projection).
    NameKind,
    /// Name, kind, declaring file (and whether it is new), signature; members nested under
    /// their class; no natural-language text.
    Declaration,
    /// Declaration plus one sentence (at most 20 words) of what each entity is.
    DeclarationDoc,
    /// Declaration-doc plus a behaviour paragraph (a provider's, else SWE-bench Pro's
    /// requirements).
    Pro,
    /// FEA-Bench's brief definitions block.
    FeaBrief,
    /// FEA-Bench's detailed definitions block (with docstrings).
    FeaDetailed,
    /// NoCode-bench's `augmentations` object, as compact JSON.
    Nocode,
    /// SWE-bench Pro's `Name:/Type:/Path:/Input:/Output:` interface blocks.
    ProInterface,
}

impl Projection {
    pub const ALL: [Projection; 9] = [
        Projection::Name,
        Projection::NameKind,
        Projection::Declaration,
        Projection::DeclarationDoc,
        Projection::Pro,
        Projection::FeaBrief,
        Projection::FeaDetailed,
        Projection::Nocode,
        Projection::ProInterface,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Projection::Name => "name",
            Projection::NameKind => "name-kind",
            Projection::Declaration => "declaration",
            Projection::DeclarationDoc => "declaration-doc",
            Projection::Pro => "pro",
            Projection::FeaBrief => "fea-brief",
            Projection::FeaDetailed => "fea-detailed",
            Projection::Nocode => "nocode",
            Projection::ProInterface => "pro-interface",
        }
    }

    /// What a configured description provider is asked for on this projection's behalf.
    pub fn wants(self) -> &'static [Want] {
        match self {
            Projection::DeclarationDoc | Projection::ProInterface => &[Want::Doc],
            Projection::Pro => &[Want::Doc, Want::Behaviour],
            _ => &[],
        }
    }
}

impl fmt::Display for Projection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Projection {
    type Err = String;
    fn from_str(s: &str) -> Result<Projection, String> {
        hintlens_hints::parse_name(s, &Projection::ALL, |p| p.as_str(), "projection")
    }
}

/// What rendering may draw on beyond the identifiers.
#[derive(Debug, Clone, Copy, Default)]
pub struct RenderContext<'a> {
    /// SWE-bench Pro's `requirements`: the `pro` projection's behaviour text when no provider
    /// describes behaviour.
    pub requirements: Option<&'a str>,
    /// What a description provider said, by identifier. Without one, `declaration-doc` uses
    /// the docstring and `pro-interface` has no `Description:`.
    pub descriptions: Option<&'a Descriptions>,
}

impl RenderContext<'_> {
    fn provided(&self, id: &Identifier, want: Want) -> Option<&str> {
        let d = self.descriptions?.get(id)?;
        match want {
            Want::Doc => d.doc.as_deref(),
            Want::Behaviour => d.behaviour.as_deref(),
        }
        .map(str::trim)
        .filter(|s| !s.is_empty())
    }
}

/// Renders a selection without dataset fields or provider descriptions.
pub fn render(identifiers: &[Identifier], projection: Projection) -> String {
    render_with(identifiers, projection, &RenderContext::default())
}

/// Renders a selection.
pub fn render_with(identifiers: &[Identifier], projection: Projection, ctx: &RenderContext<'_>) -> String {
    if identifiers.is_empty() {
        return String::new();
    }
    match projection {
        Projection::Name => render_names(identifiers),
        Projection::NameKind => render_name_kinds(identifiers),
        Projection::Declaration => declaration::render(identifiers, &|_| Vec::new()),
        Projection::DeclarationDoc => declaration::render(identifiers, &|id| doc_line(id, ctx).into_iter().collect()),
        Projection::Pro => declaration::render_pro(identifiers, ctx),
        Projection::FeaBrief => fea::render(identifiers, false),
        Projection::FeaDetailed => fea::render(identifiers, true),
        Projection::Nocode => nocode::render(identifiers),
        Projection::ProInterface => pro_interface::render(identifiers, ctx),
    }
}

/// The one sentence `declaration-doc` adds: the provider's, else the docstring's first.
fn doc_line(id: &Identifier, ctx: &RenderContext<'_>) -> Option<String> {
    let text = ctx.provided(id, Want::Doc).or(id.doc.as_deref())?;
    let sentence = first_sentence(text);
    (!sentence.is_empty()).then_some(sentence)
}

fn render_names(identifiers: &[Identifier]) -> String {
    let mut out = String::new();
    let mut seen = HashSet::new();
    for id in identifiers {
        if seen.insert(id.name.as_str()) {
            let _ = writeln!(out, "- `{}`", id.name);
        }
    }
    out
}

fn render_name_kinds(identifiers: &[Identifier]) -> String {
    let mut out = String::new();
    let mut seen = HashSet::new();
    for id in identifiers {
        let label = kind_label(id);
        if seen.insert((label, id.name.as_str())) {
            let _ = writeln!(out, "- {label} `{}`", id.name);
        }
    }
    out
}

/// How renderings name an entry's kind.
pub(crate) fn kind_label(id: &Identifier) -> &'static str {
    match id.entity {
        Entity::String => return "string",
        Entity::ErrorMessage => return "error message",
        _ => {}
    }
    def_kind_label(id.kind)
}

/// How renderings name a kind of definition (`module` for a file, `enum constant`…).
pub fn def_kind_label(kind: DefKind) -> &'static str {
    match kind {
        DefKind::File => "module",
        DefKind::EnumConstant => "enum constant",
        DefKind::Annotation => "annotation type",
        DefKind::TypeAlias => "type alias",
        other => other.as_str(),
    }
}

#[cfg(test)]
mod tests;
