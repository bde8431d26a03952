//! The frontend toolkit: what every tree-sitter frontend needs alike, in one place, so that a
//! frontend says only what its language's node kinds mean.
//!
//! - Parsing ([`parse`], [`extract_reusing`]): from an earlier version's tree when there is
//!   one, the whole file whatever bytes it holds.
//! - Recording ([`Builder`]): the index being built with its source and lexical scopes —
//!   definitions, uses bound or looked up, strings, doc comments, text and spans of nodes.
//! - Walking ([`TreeWalk`], [`preorder`], [`named_children`]): depth-bounded recursion, scopes
//!   around a subtree, iterative traversal, children at the same cost whatever the tree's shape.
//! - Grammars ([`Ids`], [`KindTable`]): kind and field ids resolved once by name.
//! - Positions and errors ([`span_of`], [`syntax_errors`]): the same for every language.
//! - Packages ([`packages`]): module and qualified names where files declare their package and
//!   are named after their type (Java, PHP).
//!
//! The rule: frontends interpret node kinds; the toolkit records.

mod builder;
mod grammar;
pub mod packages;
#[doc(hidden)]
pub mod testing;
mod walk;

pub use builder::{Builder, Conventions, MAX_CHAIN};
pub use grammar::{Ids, KindTable};
pub use walk::{
    Children, TreeWalk, ancestry, children, children_of, field, fields, is, named_children, opens_bracket_around,
    preorder,
};

use hintlens_syntax::reuse::{Earlier, Parse, TextEdit};
use hintlens_syntax::{FileIndex, Span, SyntaxError, span};
use std::borrow::Cow;
use tree_sitter::{InputEdit, Language, Node, Parser, Point, Tree};

/// Parses `text` with `language`. Given the tree of an earlier version of the file and the
/// edits from that version to `text`, tree-sitter re-reads only the edited stretches and
/// builds the same tree a fresh parse would; given no edits, that tree is the parse. `None`
/// only if tree-sitter gives up, which it does not without a timeout or cancellation.
///
/// The whole text is read: tree-sitter's lexers take a NUL byte for the end of the input, so
/// NUL bytes are parsed as spaces (offsets and positions unchanged) and reported by
/// [`extract_reusing`] as syntax errors ([`nul_errors`]).
pub fn parse(language: &Language, text: &[u8], earlier: Option<Earlier>) -> Option<Tree> {
    parse_reading::<()>(language, text, earlier, None)
}

/// What a grammar reads of a file, for a language whose files hold text its grammar cannot
/// read where it stands (C's and C++'s macros alone on their lines): `blank` says what the
/// grammar is to read otherwise ([`Blanked`]: stretches as spaces, a few bytes as others), the
/// file's length, lines and columns kept (the walk reads those stretches itself). Whether a
/// stretch is blanked may depend on
/// its line and on at most `lines_before` lines before it and `lines_after` after it: an
/// earlier version's edits are widened by as many lines the other way ([`widened`]), so that
/// every byte blanked differently lies in an edited stretch and the parse reusing the earlier
/// tree is the parse from nothing. What a reading decides from (C's stray macro lines) is
/// read once per parse, its `notes`, for `blank` and for the walk ([`extract_reading`]).
#[derive(Clone, Copy)]
pub struct Reading<N = ()> {
    pub notes: fn(&[u8]) -> N,
    pub blank: fn(&[u8], &N) -> Blanked,
    pub lines_before: usize,
    pub lines_after: usize,
}

/// What a [`Reading`] has the grammar read otherwise in a file.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Blanked {
    /// Stretches read as spaces, their newlines kept.
    pub spaces: Vec<std::ops::Range<usize>>,
    /// Bytes read as others, after `spaces` (offset and byte, never at a newline): with them,
    /// what turns a stretch into other code of its length (gtest's `TEST(Suite, Name) {` read as
    /// `     Suite  Name() {`).
    pub bytes: Vec<(usize, u8)>,
}

impl Reading {
    /// The whole file, as every grammar but C's and C++'s reads it.
    pub const WHOLE: Reading = Reading {
        notes: |_| (),
        blank: |_, _| Blanked { spaces: Vec::new(), bytes: Vec::new() },
        lines_before: 0,
        lines_after: 0,
    };
}

/// [`parse`] of what `reading` says the grammar reads of `text` ([`Reading`]), given its notes
/// of `text`.
pub fn parse_reading<N>(
    language: &Language,
    text: &[u8],
    earlier: Option<Earlier>,
    reading: Option<(&Reading<N>, &N)>,
) -> Option<Tree> {
    let earlier = match earlier.and_then(|Earlier { parse, edits }| Some((parse.into_inner::<Tree>()?, edits))) {
        // A tree of another grammar (a file that changed language) is no start.
        Some((tree, _)) if *tree.language() != *language => None,
        // The same text's tree is its parse: tree-sitter would re-read every subtree it cannot
        // reuse (with errors, or built while the grammar's conflicts split the parse), which in
        // C++ is a third of a parse from nothing.
        Some((tree, edits)) if edits.is_empty() => return Some(tree),
        earlier => earlier,
    };
    let mut text = without_nul(text);
    let mut context = (0, 0);
    if let Some((reading, notes)) = reading {
        // The notes are of the text as given: one whose NULs the grammar reads as spaces is
        // noted again as it reads it.
        let renoted;
        let notes = match &text {
            Cow::Borrowed(_) => notes,
            Cow::Owned(text) => {
                renoted = (reading.notes)(text);
                &renoted
            }
        };
        let Blanked { spaces, bytes } = (reading.blank)(&text, notes);
        if !spaces.is_empty() || !bytes.is_empty() {
            let text = text.to_mut();
            for range in spaces {
                for b in text.get_mut(range).unwrap_or_default() {
                    if *b != b'\n' {
                        *b = b' ';
                    }
                }
            }
            for (at, byte) in bytes {
                if let Some(b) = text.get_mut(at).filter(|b| **b != b'\n') {
                    *b = byte;
                }
            }
        }
        // A stretch read by the lines after it changes with an edit after it: the edit grows
        // back over it; one read by the lines before it, forward.
        context = (reading.lines_after, reading.lines_before);
    }
    let old = earlier.map(|(mut tree, edits)| {
        for edit in widened(&edits, &text, context) {
            tree.edit(&input_edit(&edit));
        }
        tree
    });
    // One parser per thread, whatever the language: a parser keeps the stacks and buffers its
    // last parse grew, which a fresh one allocates again (about 3% of parse time on
    // qutebrowser's sources).
    thread_local! {
        static PARSER: std::cell::RefCell<Parser> = std::cell::RefCell::new(Parser::new());
    }
    let run = |parser: &mut Parser| {
        parser.set_language(language).ok()?;
        let tree = parser.parse(&text, old.as_ref());
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
    extract_parsed(parse(language, text, earlier), text, walk)
}

/// [`extract_reusing`] of what `reading` says the grammar reads of `text` ([`Reading`]); the
/// walk is handed the file's own bytes and the reading's notes of them.
pub fn extract_reading<N>(
    language: &Language,
    text: &[u8],
    earlier: Option<Earlier>,
    reading: &Reading<N>,
    walk: impl FnOnce(&Tree, &N) -> FileIndex,
) -> (FileIndex, Option<Parse>) {
    let notes = (reading.notes)(text);
    extract_parsed(parse_reading(language, text, earlier, Some((reading, &notes))), text, |tree| walk(tree, &notes))
}

/// The index `walk` reads from `tree`, and the tree for a later version.
fn extract_parsed(
    tree: Option<Tree>,
    text: &[u8],
    walk: impl FnOnce(&Tree) -> FileIndex,
) -> (FileIndex, Option<Parse>) {
    match tree {
        Some(tree) => {
            let mut index = walk(&tree);
            index.errors.extend(nul_errors(text));
            (index, Some(Parse::new(tree)))
        }
        None => (FileIndex::default(), None),
    }
}

/// `edits` (first to last, each in the text the ones before it left, leading to `text`), each
/// grown to whole lines, then by `before` lines before it and `after` lines after it, and those
/// that then meet merged into one.
///
/// An edit's replacement lies where it lies in `text` (the edits after it come after it), so it
/// is grown there; the lines it grows by are the same before and after the edits, and a merged
/// edit replaces what its parts and the unchanged lines between them held before.
pub fn widened(edits: &[TextEdit], text: &[u8], (before, after): (usize, usize)) -> Vec<TextEdit> {
    if before == 0 && after == 0 {
        return edits.to_vec();
    }
    let line_start = |at: usize| memchr::memrchr(b'\n', &text[..at]).map_or(0, |p| p + 1);
    let next_line = |at: usize| memchr::memchr(b'\n', &text[at..]).map_or(text.len(), |p| at + p + 1);
    // Each edit's grown replacement in `text` (start, its row, end), merged while they meet,
    // with the edits merged.
    let mut groups: Vec<(usize, usize, usize, Vec<&TextEdit>)> = Vec::new();
    for edit in edits {
        let (mut start, mut row) = (line_start(edit.start_byte.min(text.len())), edit.start.0);
        while row > 0 && start > 0 && edit.start.0 - row < before {
            start = line_start(start - 1);
            row -= 1;
        }
        let new_end = edit.new_end_byte.min(text.len());
        let mut end = new_end;
        let lines = after + usize::from(end != line_start(end));
        for _ in 0..lines {
            if end < text.len() {
                end = next_line(end);
            }
        }
        match groups.last_mut() {
            Some(group) if start <= group.2 => {
                group.2 = group.2.max(end);
                group.3.push(edit);
            }
            _ => groups.push((start, row, end, vec![edit])),
        }
    }
    groups
        .into_iter()
        .map(|(start, row, end, merged)| {
            let added: isize = merged.iter().map(|e| e.new_end_byte as isize - e.old_end_byte as isize).sum();
            let added_rows: isize = merged.iter().map(|e| e.new_end.0 as isize - e.old_end.0 as isize).sum();
            let end_row = row + text[start..end].iter().filter(|&&b| b == b'\n').count();
            let end_line = line_start(end);
            // The last line up to the end is unchanged text, unless the last edit ends in it.
            let last = merged.iter().max_by_key(|e| e.new_end_byte).copied().unwrap_or(merged[0]);
            let old_column =
                if end_line > last.new_end_byte { end - end_line } else { last.old_end.1 + (end - last.new_end_byte) };
            TextEdit {
                start_byte: start,
                old_end_byte: end.saturating_add_signed(-added),
                new_end_byte: end,
                start: (row, 0),
                old_end: (end_row.saturating_add_signed(-added_rows), old_column),
                new_end: (end_row, end - end_line),
            }
        })
        .collect()
}

/// The [`hintlens_syntax::Frontend`] methods every tree-sitter frontend writes alike, inside
/// its `impl Frontend`: `spec` (its [`hintlens_syntax::LanguageSpec`], a `static`),
/// `extract_source` ([`extract_reading`] with its grammar, walk and, for a language whose
/// grammar cannot read all of a file, a [`Reading`]) and `bare_parse`; with an `outline` walk
/// too, `has_outline` and `outline_source` ([`hintlens_syntax::Frontend::outline_reusing`]).
///
/// ```ignore
/// impl Frontend for Go {
///     hintlens_tree::frontend!(spec: SPEC, grammar: tree_sitter_go::LANGUAGE, walk: walk::extract);
///     …
/// }
/// ```
#[macro_export]
macro_rules! frontend {
    (spec: $spec:path, grammar: $grammar:expr, walk: $walk:path) => {
        $crate::frontend!(@source $spec, $grammar, $crate::Reading::WHOLE, |text, tree, _| $walk(text, tree));
    };
    (spec: $spec:path, grammar: $grammar:expr, walk: $walk:path, reading: $reading:expr) => {
        $crate::frontend!(@source $spec, $grammar, $reading, $walk);
    };
    // `walk` is called with the text, its tree and the reading's notes of the text.
    (@source $spec:path, $grammar:expr, $reading:expr, $walk:expr) => {
        fn spec(&self) -> &'static $crate::reexport::LanguageSpec {
            &$spec
        }

        fn extract_source(
            &self,
            text: &[u8],
            earlier: Option<$crate::reexport::Earlier>,
        ) -> ($crate::reexport::FileIndex, Option<$crate::reexport::Parse>) {
            $crate::extract_reading(&$grammar.into(), text, earlier, &$reading, |tree, notes| ($walk)(text, tree, notes))
        }

        fn bare_parse(&self, text: &[u8]) -> usize {
            $crate::bare_parse(&$grammar.into(), text)
        }
    };
    (spec: $spec:path, grammar: $grammar:expr, walk: $walk:path, reading: $reading:expr, outline: $outline:path) => {
        $crate::frontend!(spec: $spec, grammar: $grammar, walk: $walk, reading: $reading);

        fn has_outline(&self) -> bool {
            true
        }

        fn outline_source(
            &self,
            text: &[u8],
            earlier: Option<$crate::reexport::Earlier>,
            kept: &$crate::reexport::Lines,
        ) -> ($crate::reexport::FileIndex, Option<$crate::reexport::Parse>) {
            $crate::extract_reading(&$grammar.into(), text, earlier, &$reading, |tree, notes| {
                $outline(text, tree, kept, notes)
            })
        }
    };
}

/// The [`hintlens_syntax::Frontend`] naming methods of a language whose definitions live in
/// packages each file declares and whose files are named after the type they hold (Java's
/// `package`, PHP's `namespace`; [`packages`]), inside its `impl Frontend`: the module a file
/// is (`package.Stem`), which its stem decides the end of, qualified names in the package, and
/// the package as the namespace whose names see each other without an import.
///
/// ```ignore
/// impl Frontend for Java {
///     hintlens_tree::package_names!(extension: ".java");
///     …
/// }
/// ```
#[macro_export]
macro_rules! package_names {
    (extension: $extension:literal) => {
        fn source_module_name(&self, path: &str, index: &$crate::reexport::FileIndex) -> String {
            $crate::packages::in_package(index, $crate::packages::file_stem(path, $extension))
        }

        fn module_name_last<'p>(&self, path: &'p str) -> Option<&'p str> {
            Some($crate::packages::file_stem(path, $extension))
        }

        fn qualified_name(&self, _path: &str, index: &$crate::reexport::FileIndex, local_name: &str) -> String {
            $crate::packages::in_package(index, local_name)
        }

        /// A package's names see each other without an import.
        fn namespace(&self, _path: &str, index: &$crate::reexport::FileIndex) -> Option<String> {
            Some(index.package.clone().unwrap_or_default())
        }
    };
}

/// What [`frontend!`] names, reachable from any crate that invokes it.
#[doc(hidden)]
pub mod reexport {
    pub use hintlens_syntax::reuse::{Earlier, Parse};
    pub use hintlens_syntax::{FileIndex, LanguageSpec, Lines};
}

/// What a frontend's `bare_parse` is: [`parse`] and nothing else, returning a number derived
/// from the tree so that the parse cannot be optimised away.
pub fn bare_parse(language: &Language, text: &[u8]) -> usize {
    parse(language, text, None).map_or(0, |tree| tree.root_node().child_count() as usize)
}

/// A string literal's content: the text between its quotes (any of `quotes`, which need not
/// match: a literal cut short by a syntax error keeps what it has), escapes left as written.
pub fn unquote(literal: &[u8], quotes: &[char]) -> String {
    let text = String::from_utf8_lossy(literal);
    let inner = text.strip_prefix(quotes).unwrap_or(&text);
    let inner = inner.strip_suffix(quotes).unwrap_or(inner);
    inner.to_owned()
}

/// The components of the path `relative` (`../src/user`) taken from the directory of the file
/// `importing_path` (`test/user.js`): `src`, `user`. `.` and empty components are skipped, `..`
/// goes up (never above the root): how TypeScript's relative specifiers and Ruby's
/// `require_relative` name files.
pub fn relative_path<'p>(importing_path: &'p str, relative: &'p str) -> Vec<&'p str> {
    let mut parts: Vec<&str> = importing_path.split('/').collect();
    parts.pop();
    for component in relative.split('/') {
        match component {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            c => parts.push(c),
        }
    }
    parts
}

/// `text` with every NUL byte a space: what tree-sitter reads to the end.
fn without_nul(text: &[u8]) -> Cow<'_, [u8]> {
    if memchr::memchr(0, text).is_none() {
        return Cow::Borrowed(text);
    }
    Cow::Owned(text.iter().map(|&b| if b == 0 { b' ' } else { b }).collect())
}

/// Reported NUL runs past this many are counted in the last error rather than listed.
const MAX_NUL_ERRORS: usize = 16;

/// One syntax error for each run of NUL bytes in `text` (no language allows them in source;
/// [`parse`] reads each as a space so that what follows is read too).
pub fn nul_errors(text: &[u8]) -> Vec<SyntaxError> {
    let mut errors = Vec::new();
    let mut runs = memchr::memchr_iter(0, text).peekable();
    let mut position = (0usize, 0usize, 0usize); // byte, line, column of `position.0`
    let mut more = 0usize;
    while let Some(start) = runs.next() {
        let mut end = start + 1;
        while runs.next_if_eq(&end).is_some() {
            end += 1;
        }
        if errors.len() == MAX_NUL_ERRORS {
            more += 1;
            continue;
        }
        let span = hintlens_syntax::span_within(text, position, start, end);
        position = (end, span.end.line as usize, span.end.column as usize);
        let n = end - start;
        let message =
            if n == 1 { "NUL byte, read as a space".to_owned() } else { format!("{n} NUL bytes, read as spaces") };
        errors.push(SyntaxError { span, message });
    }
    if more > 0
        && let Some(last) = errors.last_mut()
    {
        last.message.push_str(&format!(" ({more} more runs of NUL bytes after it)"));
    }
    errors
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

/// What is wrong with `node` itself, if it is an error or a missing node (not its children).
pub fn syntax_error(node: Node) -> Option<SyntaxError> {
    let message = if node.is_error() {
        "syntax error".to_owned()
    } else if node.is_missing() {
        if node.is_named() { format!("missing {}", node.kind()) } else { format!("missing `{}`", node.kind()) }
    } else {
        return None;
    };
    Some(SyntaxError { span: span_of(node), message })
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
        let descend = match syntax_error(node) {
            Some(error) => {
                errors.push(error);
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

#[cfg(test)]
mod tests {
    use super::*;
    use hintlens_syntax::reuse::text_edits;

    #[test]
    fn ancestry_is_the_chain_of_parents_root_first() {
        let language: Language = tree_sitter_python::LANGUAGE.into();
        let text = b"class A:\n    def f(self):\n        return [x for x in self.items if x]\n";
        let tree = parse(&language, text, None).unwrap();
        let root = tree.root_node();
        let mut every = Vec::new();
        preorder(root, |n| {
            every.push(n);
            true
        });
        for node in every {
            let mut parents: Vec<Node> = std::iter::successors(Some(node), |n| n.parent()).collect();
            parents.reverse();
            assert_eq!(ancestry(root, node).collect::<Vec<_>>(), parents, "{node:?}");
        }
    }

    /// The edits applied to `old` in order, each replacing its stretch with the bytes `new`
    /// holds there, checking that every point agrees with its byte offset.
    fn apply(old: &[u8], new: &[u8], edits: &[TextEdit]) -> Vec<u8> {
        let point = |t: &[u8], at: usize| {
            let row = t[..at].iter().filter(|&&b| b == b'\n').count();
            (row, at - t[..at].iter().rposition(|&b| b == b'\n').map_or(0, |p| p + 1))
        };
        let mut text = old.to_vec();
        for e in edits {
            assert_eq!(point(&text, e.start_byte), e.start, "{e:?}");
            assert_eq!(point(&text, e.old_end_byte), e.old_end, "{e:?}");
            text.splice(e.start_byte..e.old_end_byte, new[e.start_byte..e.new_end_byte].iter().copied());
            assert_eq!(point(&text, e.new_end_byte), e.new_end, "{e:?}");
        }
        text
    }

    /// Widened edits still turn the old text into the new one, cover what the edits covered,
    /// and each reaches the lines around its edits.
    #[test]
    fn widened_edits_turn_the_old_text_into_the_new() {
        let mut seed = 7u64;
        let mut next = |n: usize| {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (seed >> 33) as usize % n
        };
        for round in 0..2000 {
            let lines = |next: &mut dyn FnMut(usize) -> usize| -> Vec<String> {
                (0..next(9)).map(|_| ["a\n", "b\n", "cc\n", "\n", "d"][next(5)].to_owned()).collect()
            };
            let old: String = lines(&mut next).concat();
            let mut new_lines: Vec<String> = old.split_inclusive('\n').map(str::to_owned).collect();
            for _ in 0..next(4) {
                let at = next(new_lines.len() + 1);
                match next(3) {
                    0 if at < new_lines.len() => {
                        new_lines.remove(at);
                    }
                    1 => new_lines.insert(at, ["x\n", "yy\n", "z"][next(3)].to_owned()),
                    _ if at < new_lines.len() => new_lines[at] = "w\n".to_owned(),
                    _ => {}
                }
            }
            let new: String = new_lines.concat();
            let edits = text_edits(old.as_bytes(), new.as_bytes());
            for context in [(0, 1), (1, 0), (1, 1), (2, 3)] {
                let grown = widened(&edits, new.as_bytes(), context);
                let applied = apply(old.as_bytes(), new.as_bytes(), &grown);
                assert_eq!(applied, new.as_bytes(), "round {round} {context:?}: {old:?} -> {new:?}\n{grown:?}");
                // Each edit's lines, and `context` lines around them, lie in one grown edit.
                let rows = new.matches('\n').count();
                for e in &edits {
                    let (from, to) = (e.start.0.saturating_sub(context.0), (e.new_end.0 + context.1).min(rows));
                    assert!(
                        grown.iter().any(|g| g.start.0 <= from && (g.new_end.0 >= to || g.new_end_byte == new.len())),
                        "round {round} {context:?}: {e:?} not covered by {grown:?}"
                    );
                }
            }
        }
    }
}
