//! Declaration (the paper's projection) and the two that extend it with text: declaration-doc
//! and pro.
//!
//! ```text
//! - `pkg/api.py` (new file)
//!   - function `fetch`: `def fetch(url, *, strict: bool = False) -> str`
//!   - class `Widget`: `class Widget(Base)`
//!     constructor: `def __init__(self, size: int = 3)`
//!     - method `render`: `def render(self, width: int) -> str`
//! - `pkg/config.py`
//!   - in function `load`:
//!     - parameter `strict`: `strict: bool = False`
//! ```
//!
//! The text-bearing projections put their sentences on indented lines under each entry.

use super::{RenderContext, def_kind_label, doc_line, kind_label};
use crate::Want;
use hintlens_hints::Identifier;
use hintlens_syntax::DefKind;
use std::collections::{BTreeMap, HashSet};
use std::fmt::Write;

/// Extra lines under an entry.
type Notes<'a> = dyn Fn(&Identifier) -> Vec<String> + 'a;

pub(super) fn render(identifiers: &[Identifier], notes: &Notes<'_>) -> String {
    let mut by_file: BTreeMap<&str, Vec<&Identifier>> = BTreeMap::new();
    for id in identifiers {
        by_file.entry(id.path.as_str()).or_default().push(id);
    }
    let mut out = String::new();
    for (path, ids) in by_file {
        let new = match ids.iter().find(|i| i.is_new_file) {
            // A Go package's path is its directory.
            Some(id) if id.kind == DefKind::Package => " (new package)",
            Some(_) => " (new file)",
            None => "",
        };
        let _ = writeln!(out, "- `{path}`{new}");
        let selected: HashSet<&str> = ids.iter().map(|i| i.qualified_name.as_str()).collect();
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
        let writer = Writer { children: &children, notes };
        for id in roots {
            writer.entry(&mut out, id, 1);
        }
        for (parent, members) in orphans {
            let (kind, _) = members[0].parent_decl.clone().unwrap_or((DefKind::Class, String::new()));
            // Name the parent as its file does (`Client.get`, not just `get`): a parameter's
            // callable is ambiguous without its class.
            let short = members[0]
                .local_name
                .rsplit_once('.')
                .map(|(owner, _)| owner)
                .unwrap_or_else(|| parent.rsplit('.').next().unwrap_or(parent));
            let _ = writeln!(out, "  - in {} `{short}`:", def_kind_label(kind));
            for id in members {
                writer.entry(&mut out, id, 2);
            }
        }
    }
    out
}

/// Declaration-doc, plus each identifier's behaviour paragraph from the provider — or, when
/// the provider describes none, the task's requirements once at the end.
pub(super) fn render_pro(identifiers: &[Identifier], ctx: &RenderContext<'_>) -> String {
    let any_behaviour = identifiers.iter().any(|id| ctx.provided(id, Want::Behaviour).is_some());
    let notes = |id: &Identifier| {
        let mut lines: Vec<String> = doc_line(id, ctx).into_iter().collect();
        if let Some(behaviour) = ctx.provided(id, Want::Behaviour) {
            lines.push(hintlens_syntax::flatten_whitespace(behaviour));
        }
        lines
    };
    let mut out = render(identifiers, &notes);
    if !any_behaviour && let Some(requirements) = ctx.requirements.map(str::trim).filter(|r| !r.is_empty()) {
        let _ = write!(out, "\nRequirements:\n{requirements}\n");
    }
    out
}

struct Writer<'a, 'n> {
    children: &'a BTreeMap<&'a str, Vec<&'a Identifier>>,
    notes: &'a Notes<'n>,
}

impl Writer<'_, '_> {
    fn entry(&self, out: &mut String, id: &Identifier, depth: usize) {
        let indent = "  ".repeat(depth);
        let _ = write!(out, "{indent}- {} `{}`", kind_label(id), id.name);
        if !id.signature.is_empty() && id.signature != id.name {
            let _ = write!(out, ": `{}`", id.signature);
        }
        out.push('\n');
        let members = self.children.get(id.qualified_name.as_str());
        // Policies that select constructors themselves (FEA, all-new) list them as members.
        let listed = members.is_some_and(|m| m.iter().any(|c| c.kind == DefKind::Constructor));
        for constructor in id.constructors.iter().filter(|_| !listed) {
            let _ = writeln!(out, "{indent}  constructor: `{constructor}`");
        }
        for note in (self.notes)(id) {
            let _ = writeln!(out, "{indent}  {note}");
        }
        if let Some(members) = members {
            for m in members {
                self.entry(out, m, depth + 1);
            }
        }
    }
}
