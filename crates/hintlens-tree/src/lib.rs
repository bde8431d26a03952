//! What every tree-sitter frontend needs alike, in one place: the [`Span`] of a node and the
//! syntax errors of a tree, so that all languages report positions and errors the same way.

use hintlens_syntax::{Span, SyntaxError, span};
use tree_sitter::Node;

/// The span of a node, in the shared coordinates (zero-based lines, byte columns).
pub fn span_of(node: Node) -> Span {
    let (start, end) = (node.start_position(), node.end_position());
    span(node.start_byte(), node.end_byte(), (start.row, start.column), (end.row, end.column))
}

/// Every error and missing node of the tree under `root`, outermost first: what the parser
/// could not read, which the rest of the file's index was recovered around.
pub fn syntax_errors(root: Node) -> Vec<SyntaxError> {
    let mut errors = Vec::new();
    if !root.has_error() {
        return errors;
    }
    let mut cursor = root.walk();
    loop {
        let node = cursor.node();
        let message = if node.is_error() {
            Some("syntax error".to_owned())
        } else if node.is_missing() {
            Some(if node.is_named() {
                format!("missing {}", node.kind())
            } else {
                format!("missing `{}`", node.kind())
            })
        } else {
            None
        };
        let descend = match message {
            Some(message) => {
                errors.push(SyntaxError { span: span_of(node), message });
                false
            }
            None => node.has_error(),
        };
        if descend && cursor.goto_first_child() {
            continue;
        }
        while !cursor.goto_next_sibling() {
            if !cursor.goto_parent() {
                return errors;
            }
        }
    }
}
