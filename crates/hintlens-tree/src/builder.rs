//! The index a walk builds: the file's source, the [`FileIndex`] so far and the lexical
//! [`Scopes`] every use is bound in. A frontend decides what its node kinds mean; the
//! [`Builder`] records what it decided, the same way for every language.

use crate::span_of;
use hintlens_syntax::scope::{ScopeKind, Scopes};
use hintlens_syntax::{
    Binding, DefId, DefKind, Definition, FileIndex, Lines, Span, StringLiteral, Use, UseKind, comment_text,
    flatten_whitespace,
};
use std::borrow::Cow;
use tree_sitter::Node;

/// What a language's names are, beside the identifier tokens themselves: the few conventions
/// the builder applies to every definition and use it records.
#[derive(Debug, Clone, Copy, Default)]
pub struct Conventions {
    /// A name that names nothing (Go's and Rust's `_`): never recorded as a use.
    pub blank: &'static str,
    /// A prefix that is not part of the name (Rust's raw identifiers, `r#type`).
    pub raw_prefix: &'static str,
    /// Words that are never a name, sorted (C's and C++'s keywords): a token of one is no use,
    /// though the grammar's error recovery reads it as an identifier (`else` in a broken
    /// stretch). Empty where a keyword may name (Python's soft keywords).
    pub reserved: &'static [&'static str],
    /// Whether a definition's name token may be a quoted string (TypeScript's `'key': …`
    /// members): its quotes are not part of the name.
    pub quoted_definitions: bool,
    /// The kind of member that constructing its type names by keyword
    /// ([`Definition::constructor_keyword`]): Go's and Rust's struct fields, TypeScript's
    /// properties. `None` where it depends on the type (Python's dataclasses).
    pub keyword_members: Option<DefKind>,
}

/// What chains of names (`s.store`, `this.client`, `pkg.Options`) are made of in a grammar
/// ([`Builder::chains`]): the kinds a chain starts with, and each kind of link with the fields of
/// its object and its name. At most four of each.
#[derive(Debug, Clone, Copy, Default)]
struct Chains {
    heads: [u16; FLAT_KINDS],
    links: [(u16, u16, u16); FLAT_KINDS],
}

/// Longest chain of names (`a.b.c`) read as one: real code stays far below it.
pub const MAX_CHAIN: usize = 64;

/// How many kinds a subtree read flat tells apart, of each sort.
const FLAT_KINDS: usize = 4;

/// The index of one file as a walk builds it.
pub struct Builder<'t> {
    /// The file's bytes, as the tree's nodes index them.
    pub src: &'t [u8],
    pub index: FileIndex,
    /// The lexical scopes: a frontend opens them, binds names in them, and the builder records
    /// each use's head where it stands.
    pub scopes: Scopes,
    conventions: Conventions,
    /// Identifier kinds a subtree read flat records as plain name uses, and kinds whose
    /// subtrees it skips (comments, strings); 0 is no kind.
    flat_names: [u16; FLAT_KINDS],
    flat_skipped: [u16; FLAT_KINDS],
    chains: Chains,
    /// The kind of a plain name, which read anywhere is a use of itself ([`Builder::plain_name`]).
    plain_name: u16,
    /// The kind of a type's name, which read in a type position is a use of it
    /// ([`Builder::type_name`]).
    type_name: u16,
    depth: u32,
    /// An outline's kept lines ([`Builder::keeping`]): uses and strings off them go unrecorded.
    kept: Option<Lines>,
}

impl<'t> Builder<'t> {
    pub fn new(src: &'t [u8], conventions: Conventions) -> Builder<'t> {
        Builder {
            src,
            index: FileIndex::default(),
            scopes: Scopes::new(),
            conventions,
            flat_names: [0; FLAT_KINDS],
            flat_skipped: [0; FLAT_KINDS],
            chains: Chains::default(),
            plain_name: 0,
            type_name: 0,
            depth: 0,
            kept: None,
        }
    }

    /// An outline's builder ([`hintlens_syntax::Frontend::outline_reusing`]): of the uses and
    /// strings, only those starting on `kept` are recorded. An outline promises no others, and
    /// they were most of what it allocated (a header's outline keeping no line is read for
    /// its definitions alone).
    pub fn keeping(mut self, kept: Option<Lines>) -> Builder<'t> {
        self.kept = kept;
        self
    }

    /// Whether a use or string starting on `line` is recorded ([`Builder::keeping`]).
    #[inline]
    fn records(&self, line: u32) -> bool {
        self.kept.as_ref().is_none_or(|kept| kept.contains(line))
    }

    /// What a subtree read flat yields ([`crate::TreeWalk::flat`]): each identifier of the
    /// `names` kinds is a plain name use; subtrees of the `skipped` kinds are not entered. At
    /// most four kinds of each.
    pub fn flat(mut self, names: &[u16], skipped: &[u16]) -> Builder<'t> {
        self.flat_names[..names.len()].copy_from_slice(names);
        self.flat_skipped[..skipped.len()].copy_from_slice(skipped);
        self
    }

    /// The kind of a plain name (`identifier`): a node of it that a walk visits is a use of the
    /// name it spells ([`crate::TreeWalk::visit`]), whatever the language.
    pub fn plain_name(mut self, kind: u16) -> Builder<'t> {
        self.plain_name = kind;
        self
    }

    /// The kind of a type's name (`type_identifier`): a node of it that a walk reads as a type
    /// ([`crate::TreeWalk::ty_as`]) is a use of the type it names.
    pub fn type_name(mut self, kind: u16) -> Builder<'t> {
        self.type_name = kind;
        self
    }

    /// Whether `node` is a type's name ([`Builder::type_name`]).
    #[inline]
    pub fn is_type_name(&self, node: Node) -> bool {
        crate::is(node, self.type_name)
    }

    /// Whether `node` is a plain name ([`Builder::plain_name`]).
    #[inline]
    pub fn is_plain_name(&self, node: Node) -> bool {
        crate::is(node, self.plain_name)
    }

    /// What chains of names are made of ([`Builder::dotted`]): `heads`, the kinds of the names a
    /// chain starts with; `links`, each kind of `object.name` node with its object's field and
    /// its name's field. At most four of each.
    pub fn chains(mut self, heads: &[u16], links: &[(u16, u16, u16)]) -> Builder<'t> {
        self.chains.heads[..heads.len()].copy_from_slice(heads);
        self.chains.links[..links.len()].copy_from_slice(links);
        self
    }

    /// The index, with the tree's syntax errors and every recorded use's binding decided.
    pub fn finish(self, root: Node) -> FileIndex {
        let Builder { mut index, scopes, .. } = self;
        index.errors = crate::syntax_errors(root);
        index.head_types = scopes.finish_typed(&mut index.uses);
        index
    }

    /// The index with every recorded use's binding decided, errors left as the walk recorded
    /// them: for walks that take their decisions about unbound names after the scopes' own.
    pub fn finish_bindings(&mut self) {
        let scopes = std::mem::take(&mut self.scopes);
        self.index.head_types = scopes.finish_typed(&mut self.index.uses);
    }

    // ----- text -----

    /// The bytes a node spans.
    #[inline]
    pub fn bytes(&self, node: Node) -> &'t [u8] {
        self.src.get(node.byte_range()).unwrap_or_default()
    }

    /// The text a node spans (invalid UTF-8 replaced).
    #[inline]
    pub fn text(&self, node: Node) -> String {
        String::from_utf8_lossy(self.bytes(node)).into_owned()
    }

    /// The text a node spans, borrowed where it is valid UTF-8.
    #[inline]
    pub fn str(&self, node: Node) -> Cow<'t, str> {
        String::from_utf8_lossy(self.bytes(node))
    }

    /// The source of bytes `from..to`, on one line ([`flatten_whitespace`]).
    pub fn flat_text(&self, from: usize, to: usize) -> String {
        flatten_whitespace(&String::from_utf8_lossy(self.src.get(from..to.max(from)).unwrap_or_default()))
    }

    /// A declaration's text from its start through the end of the first of `fields` it has
    /// (the body left out), on one line: `func (s *Store) Get(key string) error`.
    pub fn header(&self, node: Node, fields: &[u16]) -> String {
        let end = fields
            .iter()
            .find_map(|&f| if f == 0 { None } else { node.child_by_field_id(f) })
            .map_or(node.end_byte(), |n| n.end_byte());
        self.flat_text(node.start_byte(), end)
    }

    /// The span of bytes `start..end` inside `node` (an import path's component, a name inside
    /// a string), counted from the node's own position.
    pub fn span_within(&self, node: Node, start: usize, end: usize) -> Span {
        let at = node.start_position();
        hintlens_syntax::span_within(self.src, (node.start_byte(), at.row, at.column), start, end)
    }

    /// The dotted text of a chain of names (`s.store`, `this.client`, `pkg.Options`), head
    /// first, as [`Builder::chains`] says chains are made; `None` for any other expression and
    /// for a chain of more than [`MAX_CHAIN`] links (without a bound, qualifying every link of a
    /// hostile `a.b.….z` would cost O(n²)). Iterative: a chain can be as long as the file.
    pub fn dotted(&self, node: Node) -> Option<String> {
        // The names, outermost first, down to the chain's head.
        let mut names: Vec<Node> = Vec::new();
        let mut n = node;
        let Chains { heads, links } = &self.chains;
        while !heads.iter().any(|&k| crate::is(n, k)) {
            let &(_, object, name) = links.iter().find(|(k, ..)| crate::is(n, *k))?;
            names.push(crate::field(n, name)?);
            n = crate::field(n, object)?;
            if names.len() > MAX_CHAIN {
                return None;
            }
        }
        let mut out = String::from_utf8_lossy(self.bytes(n)).into_owned();
        for name in names.iter().rev() {
            out.push('.');
            out.push_str(&String::from_utf8_lossy(self.bytes(*name)));
        }
        Some(out)
    }

    // ----- definitions -----

    /// The file-local name of `name` declared inside `parent`: `Stack.peek`.
    pub fn local_name(&self, parent: Option<DefId>, name: &str) -> String {
        let name = name.strip_prefix(self.conventions.raw_prefix).unwrap_or(name);
        match parent {
            Some(p) => format!("{}.{name}", self.index.definition(p).local_name),
            None => name.to_owned(),
        }
    }

    /// Records a definition named by the token `name` (spelled as [`Conventions`] says), declared by
    /// `whole`. Its kind decides whether it is a constructor keyword
    /// ([`Conventions::keyword_members`]).
    #[allow(clippy::too_many_arguments)]
    pub fn define(
        &mut self,
        name: Node,
        local_name: String,
        kind: DefKind,
        whole: Node,
        signature: String,
        parent: Option<DefId>,
        doc: Option<String>,
    ) -> DefId {
        let mut spelled = String::from_utf8_lossy(self.bytes(name));
        if !self.conventions.raw_prefix.is_empty()
            && let Some(rest) = spelled.strip_prefix(self.conventions.raw_prefix)
        {
            spelled = rest.to_owned().into();
        }
        if self.conventions.quoted_definitions {
            let trimmed = spelled.trim_matches(|c| c == '\'' || c == '"' || c == '`');
            if trimmed.len() != spelled.len() {
                spelled = trimmed.to_owned().into();
            }
        }
        self.define_spelled(spelled.into_owned(), name, local_name, kind, span_of(whole), signature, parent, doc)
    }

    /// [`Builder::define`] for a name the walk spells itself, found at `name` (which spells it,
    /// or a string holding it), over the span `whole`.
    #[allow(clippy::too_many_arguments)]
    pub fn define_spelled(
        &mut self,
        spelled: String,
        name: Node,
        local_name: String,
        kind: DefKind,
        whole: Span,
        signature: String,
        parent: Option<DefId>,
        doc: Option<String>,
    ) -> DefId {
        let id = self.index.definitions.len() as DefId;
        self.index.definitions.push(Definition {
            name: spelled,
            local_name,
            kind,
            span: whole,
            name_span: span_of(name),
            signature,
            doc,
            parent,
            constructor_keyword: self.conventions.keyword_members == Some(kind),
            keywords_from: Vec::new(),
            collected: false,
            holds: None,
            file_local: false,
        });
        id
    }

    // ----- uses -----

    /// A use of the name the token `name` spells, bound by a lookup of its head ([`Use::head`])
    /// from the current scope when the file is over.
    #[inline]
    pub fn use_name(&mut self, name: Node, kind: UseKind, qualifier: Option<String>) {
        self.use_bound(name, kind, qualifier, None);
    }

    /// Whether `word` is one of the language's [`Conventions::reserved`] words, never a name.
    pub fn is_reserved(&self, word: &[u8]) -> bool {
        self.conventions.reserved.binary_search_by(|w| w.as_bytes().cmp(word)).is_ok()
    }

    /// A use whose binding the walk knows where it stands (`Some`: a member of an expression is
    /// [`Binding::Receiver`], an import's own names [`Binding::Import`]), else looked up as
    /// [`Builder::use_name`] does. Missing and empty tokens and the blank name are no use.
    pub fn use_bound(&mut self, name: Node, kind: UseKind, qualifier: Option<String>, binding: Option<Binding>) {
        if name.is_missing() || name.start_byte() == name.end_byte() || !self.records(name.start_position().row as u32)
        {
            return;
        }
        let bytes = self.bytes(name);
        if !self.conventions.blank.is_empty() && bytes == self.conventions.blank.as_bytes() {
            return;
        }
        if self.is_reserved(bytes) {
            return;
        }
        let spelled = String::from_utf8_lossy(bytes);
        let spelled = match spelled.strip_prefix(self.conventions.raw_prefix) {
            Some(rest) if !self.conventions.raw_prefix.is_empty() => rest.to_owned(),
            _ => spelled.into_owned(),
        };
        self.use_spelled(spelled, span_of(name), kind, qualifier, binding);
    }

    /// A use of the name `spelled`, at `span` (the token, or the part of a string naming it).
    pub fn use_spelled(
        &mut self,
        spelled: String,
        span: Span,
        kind: UseKind,
        qualifier: Option<String>,
        binding: Option<Binding>,
    ) {
        if !self.records(span.start.line) {
            return;
        }
        let at = self.index.uses.len();
        let binding = binding.unwrap_or_else(|| {
            let head = match &qualifier {
                Some(q) => Some(q.split('.').next().unwrap_or(q)),
                // A keyword argument to a callee that is no chain of names: nothing to look up.
                None if kind == UseKind::KeywordArgument => None,
                None => Some(spelled.as_str()),
            };
            if let Some(head) = head {
                self.scopes.record(at, head.as_bytes());
            }
            Binding::Free
        });
        self.index.uses.push(Use { name: spelled, kind, span, qualifier, binding });
    }

    /// Binds the name `node` spells in the current scope.
    #[inline]
    pub fn bind(&mut self, node: Node, binding: Binding) {
        self.scopes.bind(self.bytes(node), binding);
    }

    /// Binds the name `node` spells in the current scope as a local holding a value of the
    /// type `ty` names ([`hintlens_syntax::scope::Scopes::bind_typed`]).
    pub fn bind_typed(&mut self, node: Node, ty: Node) {
        let ty = self.text(ty);
        self.scopes.bind_typed(self.bytes(node), &ty);
    }

    /// Opens a scope of `kind` inside the current one and enters it; returns the scope to go
    /// back to with [`Scopes::leave`]. (Walks that recurse use [`crate::TreeWalk::in_scope`].)
    pub fn open_scope(&mut self, kind: ScopeKind) -> hintlens_syntax::scope::ScopeId {
        let scope = self.scopes.open(kind);
        self.scopes.enter(scope)
    }

    // ----- strings and comments -----

    /// A string literal whose value (quotes removed, escapes as written) is `value`.
    pub fn string(&mut self, value: String, node: Node, error_context: bool) {
        self.string_spelled(value, span_of(node), error_context);
    }

    /// A string literal the grammar did not read (one in a macro's arguments), at `span`.
    pub fn string_spelled(&mut self, value: String, span: Span, error_context: bool) {
        if !self.records(span.start.line) {
            return;
        }
        self.index.strings.push(StringLiteral { value, span, error_context });
    }

    /// The text of the comments of `block` that end on the line just above `node`, each
    /// without its markers ([`comment_text`]), as one doc: the Go, JSDoc and Ruby convention.
    pub fn doc_above(&self, block: &[Node], node: Node) -> Option<String> {
        let mut lines: Vec<String> = Vec::new();
        let mut next_row = node.start_position().row;
        for comment in block.iter().rev() {
            if comment.end_position().row + 1 != next_row {
                break;
            }
            next_row = comment.start_position().row;
            lines.push(comment_text(&String::from_utf8_lossy(self.bytes(*comment))));
        }
        lines.reverse();
        let doc = lines.join("\n").trim().to_owned();
        (!doc.is_empty()).then_some(doc)
    }

    /// `children` without the comments among them (those of kind `comment`), each with the doc
    /// the comments just above it make ([`Builder::doc_above`]).
    pub fn documented<'n>(
        &self,
        children: impl Iterator<Item = Node<'n>>,
        comment: u16,
    ) -> Vec<(Node<'n>, Option<String>)> {
        let mut comments: Vec<Node<'n>> = Vec::new();
        let mut out = Vec::new();
        for child in children {
            if child.kind_id() == comment {
                comments.push(child);
                continue;
            }
            out.push((child, self.doc_above(&comments, child)));
            comments.clear();
        }
        out
    }

    // ----- depth -----

    /// Goes one level deeper, unless `max` levels are open already (then `false`).
    #[inline]
    pub(crate) fn descend(&mut self, max: u32) -> bool {
        if self.depth >= max {
            return false;
        }
        self.depth += 1;
        true
    }

    /// Whether the walk may go one level deeper than it is.
    #[inline]
    pub(crate) fn can_descend(&self, max: u32) -> bool {
        self.depth < max
    }

    #[inline]
    pub(crate) fn ascend(&mut self) {
        self.depth -= 1;
    }

    /// Reads `node`'s subtree flat, iteratively: each identifier of the kinds given to
    /// [`Builder::flat`] is a plain name use.
    pub fn read_flat(&mut self, node: Node) {
        let (names, skipped) = (self.flat_names, self.flat_skipped);
        crate::preorder(node, |n| {
            let k = n.kind_id();
            if k != 0 && names.contains(&k) {
                self.use_name(n, UseKind::Name, None);
            }
            !skipped.contains(&k)
        });
    }
}
