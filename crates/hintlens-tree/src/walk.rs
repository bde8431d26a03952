//! Walking a syntax tree: depth-bounded recursion for a frontend's walk ([`TreeWalk`]), an
//! iterative pre-order for what needs no context ([`preorder`]), and children that cost the
//! same whatever the tree's shape ([`named_children`]).

use crate::Builder;
use hintlens_syntax::UseKind;
use hintlens_syntax::scope::ScopeKind;
use tree_sitter::{Node, TreeCursor};

/// A frontend's recursive walk over a tree, on a [`Builder`]. The frontend interprets its
/// language's node kinds; what every walk needs besides — recursion that no input can nest
/// deep enough to exhaust the stack, lexical scopes opened and left around a subtree — it gets
/// from here.
pub trait TreeWalk<'t>: Sized {
    /// Deepest recursion; a subtree below it is read [`TreeWalk::flat`]. Within a 1 MiB stack
    /// even in a debug build for the walks that exist.
    const MAX_DEPTH: u32 = 256;

    fn builder(&mut self) -> &mut Builder<'t>;

    /// What the frontend makes of one node: its language's meaning of the node's kind.
    fn visit_kind(&mut self, node: Node<'t>);

    /// Reads `node`: a plain name is a use of itself ([`Builder::plain_name`]); any other node
    /// is what [`TreeWalk::visit_kind`] makes of it, one level deeper ([`TreeWalk::nested`]).
    #[inline]
    fn visit(&mut self, node: Node<'t>) {
        let b = self.builder();
        if b.is_plain_name(node) {
            b.use_name(node, UseKind::Name, None);
            return;
        }
        self.nested(node, |s| s.visit_kind(node));
    }

    /// What the frontend makes of a node in a type position, whose names are uses of `kind`
    /// (`Type`, or `Instantiation` for a composite literal's own type): by default what it makes
    /// of the node anywhere.
    fn visit_type(&mut self, node: Node<'t>, kind: UseKind) {
        let _ = kind;
        self.visit_kind(node);
    }

    /// Reads a type whose names are uses of `kind`: a type's name is a use of it
    /// ([`Builder::type_name`]); any other node is what [`TreeWalk::visit_type`] makes of it,
    /// one level deeper.
    #[inline]
    fn ty_as(&mut self, node: Node<'t>, kind: UseKind) {
        let b = self.builder();
        if b.is_type_name(node) && b.can_descend(Self::MAX_DEPTH) {
            b.use_name(node, kind, None);
            return;
        }
        self.nested(node, |s| s.visit_type(node, kind));
    }

    /// Reads a type ([`TreeWalk::ty_as`] with [`UseKind::Type`]).
    #[inline]
    fn ty(&mut self, node: Node<'t>) {
        self.ty_as(node, UseKind::Type);
    }

    /// Reads each named child of `node`.
    fn visit_children(&mut self, node: Node<'t>) {
        for child in named_children(node) {
            self.visit(child);
        }
    }

    /// Reads the child in field `id` of `node`, if there is one.
    #[inline]
    fn visit_field(&mut self, node: Node<'t>, id: u16) {
        if let Some(child) = field(node, id) {
            self.visit(child);
        }
    }

    /// Runs `f` on `node` if there is one (`self.with(field(n, g.f_type), Self::ty)`).
    #[inline]
    fn with(&mut self, node: Option<Node<'t>>, f: impl FnOnce(&mut Self, Node<'t>)) {
        if let Some(node) = node {
            f(self, node);
        }
    }

    /// What a subtree past [`TreeWalk::MAX_DEPTH`] yields: by default its identifiers, as plain
    /// name uses ([`Builder::read_flat`]).
    fn flat(&mut self, node: Node<'t>) {
        self.builder().read_flat(node);
    }

    /// Runs `f` one level deeper, or reads `node` flat when the walk is already too deep.
    #[inline]
    fn nested(&mut self, node: Node<'t>, f: impl FnOnce(&mut Self)) {
        if !self.builder().descend(Self::MAX_DEPTH) {
            self.flat(node);
            return;
        }
        f(self);
        self.builder().ascend();
    }

    /// Runs `f` in a new lexical scope of `kind`, nested in the current one.
    #[inline]
    fn in_scope(&mut self, kind: ScopeKind, f: impl FnOnce(&mut Self)) {
        let outer = self.builder().open_scope(kind);
        f(self);
        self.builder().scopes.leave(outer);
    }
}

/// Visits `node` and its descendants in source order, iteratively (no input nests deep enough
/// to exhaust the stack); `visit` says whether to enter each node's children.
pub fn preorder<'t>(node: Node<'t>, mut visit: impl FnMut(Node<'t>) -> bool) {
    let mut cursor = node.walk();
    loop {
        if visit(cursor.node()) && cursor.goto_first_child() {
            continue;
        }
        while !cursor.goto_next_sibling() {
            if !cursor.goto_parent() {
                return;
            }
        }
    }
}

/// The child in field `id` of `node`; none for id 0 (a field the grammar lacks, see
/// [`crate::Ids::field_or_none`]).
#[inline]
pub fn field(node: Node<'_>, id: u16) -> Option<Node<'_>> {
    if id == 0 { None } else { node.child_by_field_id(id) }
}

/// `node` and every node that holds it, `root` first: the nodes [`Node::parent`] reaches from
/// `node`, found by one descent from `root` (each `parent` call descends from the root again,
/// so walking a chain of them up costs the square of its depth).
pub fn ancestry<'t>(root: Node<'t>, node: Node<'t>) -> impl Iterator<Item = Node<'t>> {
    std::iter::successors(Some(root), move |n| if *n == node { None } else { n.child_with_descendant(node) })
}

/// Whether one of `node`'s own bracket tokens (`(`, `[`, `{`) is still open at byte `at`.
pub fn opens_bracket_around(node: Node, at: usize) -> bool {
    let mut depth = 0i32;
    for child in children(node) {
        if child.start_byte() >= at {
            break;
        }
        if child.is_named() {
            continue;
        }
        match child.kind() {
            "(" | "[" | "{" => depth += 1,
            ")" | "]" | "}" => depth -= 1,
            _ => {}
        }
    }
    depth > 0
}

/// Every child in field `id` of `node` (`a, b int` names two), in order.
pub fn fields(node: Node<'_>, id: u16) -> Vec<Node<'_>> {
    let Some(id) = std::num::NonZeroU16::new(id) else { return Vec::new() };
    let mut cursor = node.walk();
    node.children_by_field_id(id, &mut cursor).collect()
}

/// Whether `node` is of kind `kind`; never for id 0 (a kind the grammar lacks, see
/// [`crate::Ids::kind_or_none`]).
#[inline]
pub fn is(node: Node<'_>, kind: u16) -> bool {
    kind != 0 && node.kind_id() == kind
}

/// Children past this many are read with a cursor rather than by index (see [`Children`]).
const INDEXED_CHILDREN: u32 = 16;

/// The named children of a node, in order.
#[inline]
pub fn named_children(node: Node<'_>) -> Children<'_> {
    Children::of(node)
}

/// The named children of `node` of kind `kind`, in order.
pub fn children_of(node: Node<'_>, kind: u16) -> impl Iterator<Item = Node<'_>> {
    named_children(node).filter(move |c| is(*c, kind))
}

/// Every child of a node, anonymous tokens included, in order.
pub fn children(node: Node<'_>) -> impl Iterator<Item = Node<'_>> {
    (0..node.child_count()).filter_map(move |i| node.child(i))
}

/// The named children of a node. An error-free tree hangs a long list of children off balanced
/// hidden nodes, so reaching one by index is cheap; an ERROR node's children are flat, and
/// reaching each of n by index (`named_child(i)` counts from the first) would cost O(n²). Past
/// [`INDEXED_CHILDREN`] children a cursor steps through them instead.
pub enum Children<'t> {
    Indexed { node: Node<'t>, next: u32, count: u32 },
    Cursor { cursor: TreeCursor<'t>, started: bool },
}

impl<'t> Children<'t> {
    #[inline]
    fn of(node: Node<'t>) -> Children<'t> {
        let count = node.named_child_count() as u32;
        if count > INDEXED_CHILDREN {
            Children::Cursor { cursor: node.walk(), started: false }
        } else {
            Children::Indexed { node, next: 0, count }
        }
    }
}

impl<'t> Iterator for Children<'t> {
    type Item = Node<'t>;

    #[inline]
    fn next(&mut self) -> Option<Node<'t>> {
        match self {
            Children::Indexed { node, next, count } => {
                while *next < *count {
                    let i = *next;
                    *next += 1;
                    if let Some(child) = node.named_child(i) {
                        return Some(child);
                    }
                }
                None
            }
            Children::Cursor { cursor, started } => loop {
                let moved = if *started { cursor.goto_next_sibling() } else { cursor.goto_first_child() };
                *started = true;
                if !moved {
                    return None;
                }
                let node = cursor.node();
                if node.is_named() {
                    return Some(node);
                }
            },
        }
    }
}
