//! FEA-Bench's definitions block, byte for byte as FEA-Bench's `get_wrapped_definitions`
//! writes it from `new_components`:
//!
//! ```text
//! There are several new functions or classes that need to be implemented, using the definitions below:␠
//! <definitions>
//! [start of new definitions in rich/segment.py]
//! (definition of Segment.remove_color:)
//! def remove_color(cls, segments: Iterable["Segment"]) -> Iterable["Segment"]:
//! """Remove all color from an iterable of segments.…"""        (detailed only)
//! [end of new definitions in rich/segment.py]
//!
//! </definitions>
//! ```
//!
//! (`␠` is the space FEA-Bench leaves at the end of that line.) Files come in path order,
//! definitions in source order, each named by its dotted file-local name. Selections other
//! than FEA's may hold entries FEA never lists: a selected file (kind `file`) gets its block
//! without a definition line, any other entry is written like a definition, by its signature.

use hintlens_hints::Identifier;
use hintlens_syntax::DefKind;
use std::collections::BTreeMap;
use std::fmt::Write;

const HEADER: &str = "There are several new functions or classes that need to be implemented, using the definitions below: \n<definitions>\n";
const FOOTER: &str = "\n</definitions>";

pub(super) fn render(identifiers: &[Identifier], detailed: bool) -> String {
    let mut by_file: BTreeMap<&str, Vec<&Identifier>> = BTreeMap::new();
    for id in identifiers {
        by_file.entry(id.path.as_str()).or_default().push(id);
    }
    let mut out = String::from(HEADER);
    for (path, mut ids) in by_file {
        ids.sort_by_key(|id| id.line);
        let _ = writeln!(out, "[start of new definitions in {path}]");
        for id in ids.iter().filter(|id| id.kind != DefKind::File) {
            let _ = write!(out, "(definition of {}:)\n{}\n", id.local_or_name(), id.signature);
            if detailed && let Some(doc) = id.doc.as_deref().filter(|d| !d.is_empty()) {
                let _ = writeln!(out, "\"\"\"{doc}\"\"\"");
            }
        }
        let _ = writeln!(out, "[end of new definitions in {path}]");
    }
    out.push_str(FOOTER);
    out
}
