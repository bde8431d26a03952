//! Projections: what a hint reveals about each selected identifier.

use crate::Identifier;
use hintlens_syntax::DefKind;
use std::collections::BTreeMap;
use std::fmt::{self, Write};
use std::str::FromStr;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Projection {
    /// Names only, one per line.
    Name,
    /// Name, kind, declaring file (and whether it is new), signature; members nested under
    /// their class; no natural-language text.
    Declaration,
}

impl Projection {
    pub const ALL: [Projection; 2] = [Projection::Name, Projection::Declaration];

    pub fn as_str(self) -> &'static str {
        match self {
            Projection::Name => "name",
            Projection::Declaration => "declaration",
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
        Projection::ALL.into_iter().find(|p| p.as_str() == s).ok_or_else(|| {
            let known: Vec<_> = Projection::ALL.iter().map(|p| p.as_str()).collect();
            format!("unknown projection `{s}` (known: {})", known.join(", "))
        })
    }
}

/// Renders a selection. An empty selection renders as the empty string: no hint at all.
pub fn render(identifiers: &[Identifier], projection: Projection) -> String {
    match projection {
        Projection::Name => render_names(identifiers),
        Projection::Declaration => render_declarations(identifiers),
    }
}

fn render_names(identifiers: &[Identifier]) -> String {
    let mut out = String::new();
    let mut seen = std::collections::HashSet::new();
    for id in identifiers {
        if seen.insert(id.name.as_str()) {
            let _ = writeln!(out, "- `{}`", id.name);
        }
    }
    out
}

/// ```text
/// - `pkg/api.py` (new file)
///   - function `fetch`: `def fetch(url, *, strict: bool = False) -> str`
///   - class `Widget`: `class Widget(Base)`
///     - method `render`: `def render(self, width: int) -> str`
/// - `pkg/config.py`
///   - in function `load`:
///     - parameter `strict`: `strict: bool = False`
/// ```
fn render_declarations(identifiers: &[Identifier]) -> String {
    let mut by_file: BTreeMap<&str, Vec<&Identifier>> = BTreeMap::new();
    for id in identifiers {
        by_file.entry(id.path.as_str()).or_default().push(id);
    }
    let mut out = String::new();
    for (path, ids) in by_file {
        let new = if ids.iter().any(|i| i.is_new_file) { " (new file)" } else { "" };
        let _ = writeln!(out, "- `{path}`{new}");
        let selected: std::collections::HashSet<&str> = ids.iter().map(|i| i.qualified_name.as_str()).collect();
        // Members whose parent is selected too are written under it; members of an existing
        // (unselected) parent are grouped under a context line naming it.
        let mut children: BTreeMap<&str, Vec<&Identifier>> = BTreeMap::new();
        let mut roots: Vec<&Identifier> = Vec::new();
        let mut orphans: BTreeMap<&str, Vec<&Identifier>> = BTreeMap::new();
        for id in &ids {
            match id.parent.as_deref() {
                Some(p) if selected.contains(p) => children.entry(p).or_default().push(id),
                Some(p) if id.kind != DefKind::File => orphans.entry(p).or_default().push(id),
                _ => roots.push(id),
            }
        }
        for id in roots {
            write_entry(&mut out, id, 1, &children);
        }
        for (parent, members) in orphans {
            let (kind, _) = members[0].parent_decl.clone().unwrap_or((DefKind::Class, String::new()));
            let short = parent.rsplit('.').next().unwrap_or(parent);
            let _ = writeln!(out, "  - in {} `{short}`:", kind_label(kind));
            for id in members {
                write_entry(&mut out, id, 2, &children);
            }
        }
    }
    out
}

fn write_entry(out: &mut String, id: &Identifier, depth: usize, children: &BTreeMap<&str, Vec<&Identifier>>) {
    let indent = "  ".repeat(depth);
    let _ = write!(out, "{indent}- {} `{}`", kind_label(id.kind), id.name);
    if !id.signature.is_empty() && id.signature != id.name {
        let _ = write!(out, ": `{}`", id.signature);
    }
    out.push('\n');
    if let Some(members) = children.get(id.qualified_name.as_str()) {
        for m in members {
            write_entry(out, m, depth + 1, children);
        }
    }
}

fn kind_label(kind: DefKind) -> &'static str {
    match kind {
        DefKind::File => "module",
        DefKind::EnumConstant => "enum constant",
        DefKind::Annotation => "annotation type",
        other => other.as_str(),
    }
}
