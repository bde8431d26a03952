//! What every tree-sitter frontend needs alike, in one place: parsing (from an earlier
//! version's tree when there is one), the [`Span`] of a node and the syntax errors of a tree,
//! so that all languages parse, report positions and report errors the same way.

use hintlens_syntax::reuse::{Earlier, Parse, TextEdit};
use hintlens_syntax::{FileIndex, Span, SyntaxError, span};
use tree_sitter::{InputEdit, Language, Node, Parser, Point, Tree};

/// Parses `text` with `language`. Given the tree of an earlier version of the file and the
/// edits from that version to `text`, tree-sitter re-reads only the edited stretches and
/// builds the same tree a fresh parse would. `None` only if tree-sitter gives up, which it
/// does not without a timeout or cancellation.
pub fn parse(language: &Language, text: &[u8], earlier: Option<Earlier>) -> Option<Tree> {
    let old = earlier.and_then(|Earlier { parse, edits }| {
        let mut tree = parse.into_inner::<Tree>()?;
        // A tree of another grammar (a file that changed language) is no start.
        if *tree.language() != *language {
            return None;
        }
        for edit in &edits {
            tree.edit(&input_edit(edit));
        }
        Some(tree)
    });
    // One parser per thread, whatever the language: a parser keeps the stacks and buffers its
    // last parse grew, which a fresh one allocates again (about 3% of parse time on
    // qutebrowser's sources).
    thread_local! {
        static PARSER: std::cell::RefCell<Parser> = std::cell::RefCell::new(Parser::new());
    }
    let run = |parser: &mut Parser| {
        parser.set_language(language).ok()?;
        let tree = parser.parse(text, old.as_ref());
        if tree.is_none() {
            // A parse given up leaves its state behind; the next one starts clean.
            parser.reset();
        }
        tree
    };
    PARSER.with(|parser| match parser.try_borrow_mut() {
        Ok(mut parser) => run(&mut parser),
        // Never expected (a parse does not parse), but no reason to fail.
        Err(_) => run(&mut Parser::new()),
    })
}

/// What a tree-sitter frontend's `extract_reusing` is: [`parse`] (from the earlier version's
/// tree, if given), `walk` the tree into an index, and hand the tree back for a later version.
/// A text tree-sitter gives up on (only ever with a timeout) indexes as nothing.
pub fn extract_reusing(
    language: &Language,
    text: &[u8],
    earlier: Option<Earlier>,
    walk: impl FnOnce(&Tree) -> FileIndex,
) -> (FileIndex, Option<Parse>) {
    match parse(language, text, earlier) {
        Some(tree) => (walk(&tree), Some(Parse::new(tree))),
        None => (FileIndex::default(), None),
    }
}

fn input_edit(e: &TextEdit) -> InputEdit {
    let point = |(row, column): (usize, usize)| Point { row, column };
    InputEdit {
        start_byte: e.start_byte,
        old_end_byte: e.old_end_byte,
        new_end_byte: e.new_end_byte,
        start_position: point(e.start),
        old_end_position: point(e.old_end),
        new_end_position: point(e.new_end),
    }
}

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
