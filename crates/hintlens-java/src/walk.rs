//! The single pass over a parsed file that produces its [`FileIndex`].
//!
//! The walk is iterative (an explicit stack of ancestors, stepping through named children by
//! index, or with a [`TreeCursor`] over every token where the tree has errors), so no input
//! nests deeply enough to overflow the call stack. Every decision about a node is made from the
//! node, its field in the parent and the ancestor stack: tree-sitter's `parent()` and sibling
//! lookups re-descend from the root and would make the walk quadratic.
//!
//! Where tree-sitter could not build a declaration (an unterminated string swallows the rest of
//! the file, say) its pieces lie loose in an ERROR node; [`Walker::recover`] reads the common
//! shapes back from them, so a half-typed file keeps its outline.

use crate::grammar::{Grammar, K, grammar};
use crate::text;
use hintlens_syntax::scope::{MODULE, ScopeId, ScopeKind};
use hintlens_syntax::{
    Binding, DefId, DefKind, ERROR_MESSAGE_CALLEES, FileIndex, Import, Span, UseKind, flatten_whitespace, line_around,
    reads_exception_message, span,
};
use hintlens_tree::{Builder, Conventions, named_children, opens_bracket_around, span_of, syntax_error};
use std::borrow::Cow;
use std::num::NonZeroU16;
use std::ops::Range;
use tree_sitter::{Node, Tree};

/// Longest dotted chain turned into a qualifier. Real code stays far below it; without a bound,
/// a pathological `a.b.c.….z` of n links would cost O(n²) to qualify every link.
const MAX_CHAIN: usize = 64;

/// The annotations of the methods JUnit runs by itself (4 and 5).
const JUNIT_TESTS: &[&str] = &["Test", "ParameterizedTest", "RepeatedTest", "TestFactory", "TestTemplate"];

/// Deepest nesting of definitions. Each local name spells its whole ancestry, so without a
/// bound a file of n nested classes would cost O(n²) memory; real code stays far below it.
/// Deeper declarations still yield their uses.
const MAX_DEF_DEPTH: usize = 128;

pub(crate) fn extract(src: &[u8], tree: &Tree) -> FileIndex {
    let root = tree.root_node();
    let mut walker = Walker {
        g: grammar(),
        b: Builder::new(src, Conventions::default()),
        frames: Vec::new(),
        scope: Vec::new(),
        omitted: Vec::new(),
        signatures: Vec::new(),
        check_errors: root.has_error(),
        seen_top_type: false,
        package_doc: None,
    };
    // `this.x` and `super.m()` reach the file's own class.
    walker.b.scopes.bind(b"this", Binding::Local);
    walker.b.scopes.bind(b"super", Binding::Local);
    walker.run(root);
    walker.finish_signatures();
    walker.finish_bindings();
    // A `package-info.java` documents its package, and declares no type.
    if !walker.seen_top_type {
        walker.b.index.doc = walker.package_doc.take();
    }
    walker.b.index
}

/// Where a definition's signature is written: `head`, then `tail` after a space (a field's
/// declarator name after the declaration's modifiers and type).
struct SignatureSource {
    head: Range<usize>,
    tail: Option<Range<usize>>,
}

/// An ancestor of the node being visited.
struct Frame<'t> {
    node: Node<'t>,
    kind: K,
    /// Whether visiting this node opened a definition scope, closed when the node is left.
    pushed_def: bool,
    /// The scope depth when the node was entered (after its own definition, if any).
    scope_base: usize,
    /// A Javadoc comment seen among this node's children, for the next declaration child.
    pending_doc: Option<Node<'t>>,
    /// The Javadoc this node took for the declarations within it: those of a field
    /// declaration's declarators, the first one recovered from an ERROR.
    doc: Option<Node<'t>>,
    /// Present on ERROR nodes only.
    recovery: Option<Box<Recovery<'t>>>,
    /// The named walk's position among this node's named children: the next one to visit.
    next: u32,
    /// This node's named child count (named walk only).
    count: u32,
    /// Where the last child visited ends (named walk only): anonymous tokens the named walk
    /// skips can only lie between it and the next one.
    prev_end: usize,
    /// This node is, or lies within, the arguments of a `throw new E(…)` or of an
    /// exception-message matcher ([`ERROR_MESSAGE_CALLEES`]): its strings are error messages.
    error: bool,
    /// The lexical scope to return to when this node is left, if it opened one.
    lexical_outer: Option<ScopeId>,
}

/// Enough children to see `modifiers <T> Type name(`.
const RECENT: usize = 5;

/// What an ERROR node's children have shown so far of the declarations they spell.
struct Recovery<'t> {
    /// The latest children (node and field), most recent first; comments skipped.
    recent: [Option<(Node<'t>, u16)>; RECENT],
    /// A recovered declaration whose body has not opened yet.
    header: Option<Header<'t>>,
    /// The `{` children still open, with the declaration each one opened.
    braces: Vec<Option<Header<'t>>>,
}

#[derive(Clone, Copy)]
struct Header<'t> {
    id: DefId,
    /// The first node of the declaration (its modifiers, type or keyword).
    start: Node<'t>,
}

/// What [`Walker::enter`] decided about a node.
struct Visit<'t> {
    descend: bool,
    /// The node opened a definition scope.
    def: bool,
    doc: Option<Node<'t>>,
}

impl Visit<'_> {
    fn leaf() -> Self {
        Visit { descend: false, def: false, doc: None }
    }

    fn descend() -> Self {
        Visit { descend: true, def: false, doc: None }
    }
}

struct Walker<'t> {
    g: &'static Grammar,
    b: Builder<'t>,
    frames: Vec<Frame<'t>>,
    /// Enclosing definitions, innermost last.
    scope: Vec<DefId>,
    /// Byte ranges of every annotation and comment, in source order: what signatures leave out.
    omitted: Vec<Range<usize>>,
    /// The source of each definition's signature, by [`DefId`]. Signatures are built after the
    /// walk, once every annotation and comment has been seen: a header never needs a walk of
    /// its own.
    signatures: Vec<SignatureSource>,
    check_errors: bool,
    seen_top_type: bool,
    package_doc: Option<String>,
}

impl<'t> Walker<'t> {
    fn run(&mut self, root: Node<'t>) {
        if self.check_errors { self.run_cursor(root) } else { self.run_named(root) }
    }

    /// The walk of an error-free tree: named children only, by index. Outside ERROR recovery
    /// an anonymous token matters only by taking a pending Javadoc (`/** … */ ;`), which
    /// [`Walker::token_between`] tells from the gap it leaves; a cursor would stop at every
    /// token and hidden node instead.
    fn run_named(&mut self, root: Node<'t>) {
        let mut node = root;
        loop {
            let kind = self.g.kinds.of(node);
            let field = if kind == K::Identifier { self.identifier_field(node) } else { 0 };
            let visit = self.enter(node, kind, field);
            let count = if visit.descend { node.named_child_count() as u32 } else { 0 };
            if count > 0 {
                let lexical_outer = self.open_lexical(kind);
                self.frames.push(Frame {
                    node,
                    kind,
                    pushed_def: visit.def,
                    scope_base: self.scope.len(),
                    pending_doc: None,
                    doc: visit.doc,
                    recovery: None,
                    next: 0,
                    count,
                    prev_end: node.start_byte(),
                    error: self.error_frame(node, kind),
                    lexical_outer,
                });
            } else if visit.def {
                self.scope.pop();
            }
            loop {
                let Some(frame) = self.frames.last_mut() else {
                    return;
                };
                if frame.next < frame.count {
                    let i = frame.next;
                    frame.next += 1;
                    if let Some(child) = frame.node.named_child(i) {
                        let prev_end = std::mem::replace(&mut frame.prev_end, child.end_byte());
                        if frame.pending_doc.is_some()
                            && !matches!(self.g.kinds.of(child), K::BlockComment | K::LineComment)
                            && token_between(self.b.src, frame.node, prev_end, child.start_byte())
                        {
                            // The token took the Javadoc, as in the cursor walk.
                            frame.pending_doc = None;
                        }
                        node = child;
                        break;
                    }
                    continue;
                }
                let frame = self.frames.pop().expect("a frame was just seen");
                if let Some(outer) = frame.lexical_outer {
                    self.b.scopes.leave(outer);
                }
                self.scope.truncate(frame.scope_base);
                if frame.pushed_def {
                    self.scope.pop();
                }
            }
        }
    }

    /// Callables and lambdas hold their parameters and locals. (Blocks would be exact; since Java
    /// declares before use, a callable-wide scope differs only for code javac rejects.)
    fn open_lexical(&mut self, kind: K) -> Option<ScopeId> {
        let opens = matches!(
            kind,
            K::MethodDeclaration | K::ConstructorDeclaration | K::CompactConstructorDeclaration | K::LambdaExpression
        );
        opens.then(|| {
            let scope = self.b.scopes.open(ScopeKind::Function);
            self.b.scopes.enter(scope)
        })
    }

    /// Decides every use's binding. What no scope binds is, unqualified, a member of an
    /// enclosing or inherited class (`helper()`, `count`: `this.` left out) — unless it is
    /// spelled like a type, which comes from the same package or `java.lang`.
    fn finish_bindings(&mut self) {
        self.b.finish_bindings();
        let own_methods: std::collections::HashSet<&str> =
            self.b.index.definitions.iter().filter(|d| d.kind == DefKind::Method).map(|d| d.name.as_str()).collect();
        for u in &mut self.b.index.uses {
            if u.binding != Binding::Free || u.qualifier.is_some() {
                continue;
            }
            u.binding = match u.kind {
                UseKind::Call if own_methods.contains(u.name.as_str()) => Binding::OwnMember,
                UseKind::Call | UseKind::Attribute => Binding::Receiver,
                UseKind::Name if !text::looks_like_type(&u.name) => Binding::Receiver,
                _ => continue,
            };
        }
    }

    /// The field of an identifier in the parent visited, as far as [`Walker::identifier`]
    /// asks: the one field that parent's kind distinguishes, or 0.
    fn identifier_field(&self, node: Node<'t>) -> u16 {
        let g = self.g;
        let Some(parent) = self.frames.last() else {
            return 0;
        };
        let field = match parent.kind {
            K::MethodInvocation | K::Annotation | K::MarkerAnnotation | K::Error => g.name,
            kind if declares_by_name(kind) => g.name,
            K::FieldAccess => g.field,
            K::ElementValuePair => g.key,
            K::AssignmentExpression => g.left,
            K::LambdaExpression => g.parameters,
            _ => return 0,
        };
        if parent.node.child_by_field_id(field) == Some(node) { field } else { 0 }
    }

    /// The walk of a tree with errors: every child, tokens included, which recovery reads.
    fn run_cursor(&mut self, root: Node<'t>) {
        let mut cursor = root.walk();
        loop {
            let node = cursor.node();
            let kind = self.g.kinds.of(node);
            // Looking a field up costs a search of the parent's field map: only identifiers
            // and the children of ERROR nodes (for recovery) need theirs.
            let needs_field =
                kind == K::Identifier || (self.check_errors && self.frames.last().is_some_and(|f| f.kind == K::Error));
            let field = if needs_field { cursor.field_id().map_or(0, NonZeroU16::get) } else { 0 };
            let visit = self.enter(node, kind, field);
            // Children that are all anonymous tokens (`()`, keyword-only modifiers, `int`) say
            // nothing outside ERROR recovery, and every cursor step costs.
            let worth_descending = visit.descend && (self.check_errors || node.named_child_count() > 0);
            if worth_descending && cursor.goto_first_child() {
                let lexical_outer = self.open_lexical(kind);
                self.frames.push(Frame {
                    node,
                    kind,
                    pushed_def: visit.def,
                    scope_base: self.scope.len(),
                    pending_doc: None,
                    doc: visit.doc,
                    recovery: (kind == K::Error)
                        .then(|| Box::new(Recovery { recent: [None; RECENT], header: None, braces: Vec::new() })),
                    next: 0,
                    count: 0,
                    prev_end: 0,
                    error: self.error_frame(node, kind),
                    lexical_outer,
                });
                continue;
            }
            if visit.def {
                self.scope.pop();
            }
            loop {
                if cursor.goto_next_sibling() {
                    break;
                }
                if !cursor.goto_parent() {
                    return;
                }
                if let Some(frame) = self.frames.pop() {
                    if let Some(outer) = frame.lexical_outer {
                        self.b.scopes.leave(outer);
                    }
                    // Declarations recovered inside an ERROR may still be open.
                    self.scope.truncate(frame.scope_base);
                    if frame.pushed_def {
                        self.scope.pop();
                    }
                }
            }
        }
    }

    fn enter(&mut self, node: Node<'t>, kind: K, field: u16) -> Visit<'t> {
        let doc = self.take_doc(node, kind);
        if self.check_errors {
            self.check_error(node);
            if self.recover(node, kind, field, doc) {
                return Visit::leaf();
            }
        }
        match kind {
            K::Annotation | K::MarkerAnnotation | K::BlockComment | K::LineComment => {
                self.omitted.push(node.byte_range());
                return Visit::descend();
            }
            K::Identifier => self.identifier(node, field),
            K::TypeIdentifier => self.type_identifier(node),
            K::ScopedIdentifier => self.scoped_identifier(node),
            K::ImportDeclaration => self.import(node),
            K::PackageDeclaration => {
                self.package(node, doc);
                return Visit::descend();
            }
            K::StringLiteral => {
                self.string(node);
                // Only string template interpolations (`\{expr}`) hold anything to visit.
                if has_pair(b'\\', b'{', self.b.bytes(node)) {
                    return Visit::descend();
                }
            }
            K::ClassDeclaration => return self.declare(node, DefKind::Class, doc),
            K::InterfaceDeclaration => return self.declare(node, DefKind::Interface, doc),
            K::EnumDeclaration => return self.declare(node, DefKind::Enum, doc),
            K::RecordDeclaration => return self.declare(node, DefKind::Record, doc),
            K::AnnotationTypeDeclaration => return self.declare(node, DefKind::Annotation, doc),
            K::MethodDeclaration | K::AnnotationTypeElementDeclaration => {
                return self.declare(node, DefKind::Method, doc);
            }
            K::ConstructorDeclaration | K::CompactConstructorDeclaration => {
                return self.declare(node, DefKind::Constructor, doc);
            }
            K::EnumConstant => return self.declare(node, DefKind::EnumConstant, doc),
            K::FieldDeclaration | K::ConstantDeclaration | K::Error => {
                return Visit { descend: true, def: false, doc };
            }
            K::VariableDeclarator => return self.field_declarator(node),
            K::FormalParameter | K::SpreadParameter => {
                self.parameter(node, kind);
                return Visit::descend();
            }
            _ => return Visit::descend(),
        }
        Visit::leaf()
    }

    /// Tracks Javadoc comments among siblings and hands the latest one to the next
    /// non-comment sibling. Ordinary comments in between do not detach it.
    fn take_doc(&mut self, node: Node<'t>, kind: K) -> Option<Node<'t>> {
        let frame = self.frames.last_mut()?;
        match kind {
            K::BlockComment => {
                if text::is_javadoc(self.b.bytes(node)) {
                    frame.pending_doc = Some(node);
                }
                None
            }
            K::LineComment => None,
            _ => frame.pending_doc.take(),
        }
    }

    fn check_error(&mut self, node: Node) {
        self.b.index.errors.extend(syntax_error(node));
    }

    // ---- definitions ----

    /// A type, callable or enum constant: opens a scope for its members.
    fn declare(&mut self, node: Node<'t>, kind: DefKind, doc: Option<Node<'t>>) -> Visit<'t> {
        let g = self.g;
        let Some(name) = node.child_by_field_id(g.name) else {
            return Visit::descend();
        };
        // An enum constant's signature is its name and arguments; its annotations precede it.
        let start = if kind == DefKind::EnumConstant { name.start_byte() } else { node.start_byte() };
        let end = node.child_by_field_id(g.body).map_or(node.end_byte(), |body| body.start_byte());
        let signature = SignatureSource { head: start..end, tail: None };
        match self.add_def(name, kind, span_of(node), signature, doc) {
            Some(id) => {
                if kind == DefKind::Method && self.runs_as_test(node) {
                    self.b.index.definitions[id as usize].collected = true;
                }
                self.scope.push(id);
                Visit { descend: true, def: true, doc: None }
            }
            None => Visit::descend(),
        }
    }

    /// Whether a method declaration is annotated as a test JUnit runs (`@Test`,
    /// `@org.junit.jupiter.api.Test`, `@ParameterizedTest`…).
    fn runs_as_test(&self, method: Node<'t>) -> bool {
        let Some(modifiers) = method.child(0).filter(|m| self.g.kinds.of(*m) == K::Modifiers) else { return false };
        named_children(modifiers).filter(|a| matches!(self.g.kinds.of(*a), K::Annotation | K::MarkerAnnotation)).any(
            |annotation| {
                let name = annotation.child_by_field_id(self.g.name).map(|n| self.b.str(n)).unwrap_or_default();
                JUNIT_TESTS.contains(&name.rsplit('.').next().unwrap_or_default())
            },
        )
    }

    /// One declarator of a field declaration: a field or constant of its own, and the scope of
    /// any anonymous class in its initializer.
    fn field_declarator(&mut self, node: Node<'t>) -> Visit<'t> {
        let g = self.g;
        let Some(decl) = self.frames.last() else {
            return Visit::descend();
        };
        let (decl_node, decl_kind, doc) = (decl.node, decl.kind, decl.doc);
        if !matches!(decl_kind, K::FieldDeclaration | K::ConstantDeclaration) {
            return Visit::descend();
        }
        let Some(name) = node.child_by_field_id(g.name) else {
            return Visit::descend();
        };
        let modifiers = decl_node.child(0).filter(|c| g.kinds.of(*c) == K::Modifiers);
        // Interface and annotation-type fields are implicitly `static final`.
        let kind = if decl_kind == K::ConstantDeclaration || modifiers.is_some_and(|m| self.is_static_final(m)) {
            DefKind::Constant
        } else {
            DefKind::Field
        };
        // Only layout, annotations and comments lie between the modifiers and the type.
        let head_end =
            decl_node.child_by_field_id(g.r#type).or(modifiers).map_or(decl_node.start_byte(), |n| n.end_byte());
        let tail_end = node.child_by_field_id(g.dimensions).map_or(name.end_byte(), |dims| dims.end_byte());
        let signature =
            SignatureSource { head: decl_node.start_byte()..head_end, tail: Some(name.start_byte()..tail_end) };
        match self.add_def(name, kind, span_of(decl_node), signature, doc) {
            Some(id) => {
                self.scope.push(id);
                Visit { descend: true, def: true, doc: None }
            }
            None => Visit::descend(),
        }
    }

    fn is_static_final(&self, modifiers: Node) -> bool {
        let (mut is_static, mut is_final) = (false, false);
        for i in 0..modifiers.child_count() {
            match modifiers.child(i).map(|c| self.g.kinds.of(c)) {
                Some(K::Static) => is_static = true,
                Some(K::Final) => is_final = true,
                _ => {}
            }
        }
        is_static && is_final
    }

    /// A parameter of a method or constructor, or a record component. Lambda parameters are
    /// not definitions.
    fn parameter(&mut self, node: Node<'t>, kind: K) {
        let n = self.frames.len();
        if n < 2 || self.frames[n - 1].kind != K::FormalParameters {
            return;
        }
        let owner = &self.frames[n - 2];
        let def_kind = match owner.kind {
            K::MethodDeclaration | K::ConstructorDeclaration if owner.pushed_def => DefKind::Parameter,
            K::RecordDeclaration if owner.pushed_def => DefKind::Field,
            K::Error if self.recovered_callable_is_open(owner) => DefKind::Parameter,
            _ => return,
        };
        let name = if kind == K::FormalParameter {
            node.child_by_field_id(self.g.name)
        } else {
            // `int... values`: the name sits in a trailing variable declarator.
            node.named_child(node.named_child_count().saturating_sub(1) as u32)
                .filter(|c| self.g.kinds.of(*c) == K::VariableDeclarator)
                .and_then(|d| d.child_by_field_id(self.g.name))
        };
        if let Some(name) = name {
            let signature = SignatureSource { head: node.byte_range(), tail: None };
            self.add_def(name, def_kind, span_of(node), signature, None);
        }
    }

    fn add_def(
        &mut self,
        name: Node,
        kind: DefKind,
        span: Span,
        signature: SignatureSource,
        doc: Option<Node>,
    ) -> Option<DefId> {
        if self.scope.len() >= MAX_DEF_DEPTH {
            return None;
        }
        let name_text = self.b.str(name).into_owned();
        if name_text.is_empty() {
            return None;
        }
        // A class's members are visible throughout the class, nested classes included: the
        // file's own types and fields bind file-wide. Parameters bind in their callable (as
        // identifiers). Methods bind nothing: an unqualified call is `this.m()`, which a
        // subclass may override (a test's subclass overriding a hook the code calls), so it
        // stays a member reached through the implicit receiver.
        match kind {
            DefKind::Parameter | DefKind::Method | DefKind::Constructor => {}
            kind if kind.is_type() => self.b.scopes.bind_in(MODULE, name_text.as_bytes(), Binding::Definition),
            _ => self.b.scopes.bind_in(MODULE, name_text.as_bytes(), Binding::Local),
        }
        let parent = self.scope.last().copied();
        let local_name = self.b.local_name(parent, &name_text);
        let doc = doc.and_then(|d| text::clean_javadoc(&self.b.str(d)));
        if parent.is_none() && kind.is_type() && !self.seen_top_type {
            self.seen_top_type = true;
            self.b.index.doc.clone_from(&doc);
        }
        // The signature is written once the walk has seen every annotation and comment.
        let id = self.b.define_spelled(name_text, name, local_name, kind, span, String::new(), parent, doc);
        self.signatures.push(signature);
        Some(id)
    }

    // ---- recovery inside ERROR nodes ----

    /// Reads declarations from the loose children of an ERROR node: `… class Name`, and
    /// `… name(params)` for methods and constructors; `{`/`}` children delimit their bodies.
    /// Returns whether `node` was consumed as a declaration's name.
    fn recover(&mut self, node: Node<'t>, kind: K, field: u16, doc: Option<Node<'t>>) -> bool {
        let g = self.g;
        let Some(frame) = self.frames.last_mut() else {
            return false;
        };
        let Some(rec) = frame.recovery.as_deref_mut() else {
            return false;
        };
        if matches!(kind, K::BlockComment | K::LineComment) {
            return false;
        }
        // A doc taken by a loose modifier or type belongs to the declaration they start.
        if doc.is_some() && !takes_doc(kind) {
            frame.doc = doc;
        }
        let recent = rec.recent;
        rec.recent.rotate_right(1);
        rec.recent[0] = Some((node, field));
        let [prev, prev2, ..] = recent;
        match kind {
            K::LBrace => {
                let header = rec.header.take();
                rec.braces.push(header);
                frame.doc = None;
                // The header runs up to its body: `extends`, `throws` and the like included.
                if let Some(h) = header {
                    self.signatures[h.id as usize].head.end = node.start_byte();
                }
            }
            K::RBrace => {
                frame.doc = None;
                if let Some(Some(h)) = rec.braces.pop() {
                    self.close_scope(h.id);
                    self.b.index.definitions[h.id as usize].span = span_between(h.start, node);
                }
            }
            K::Semicolon => {
                frame.doc = None;
                // A bodiless method ends here.
                if let Some(h) = rec.header.take() {
                    self.close_scope(h.id);
                    self.b.index.definitions[h.id as usize].span = span_between(h.start, node);
                }
            }
            K::Identifier => {
                let Some((keyword, _)) = prev else {
                    return false;
                };
                let def_kind = match g.kinds.of(keyword) {
                    K::KwClass => DefKind::Class,
                    K::KwInterface => DefKind::Interface,
                    K::KwEnum => DefKind::Enum,
                    K::KwRecord => DefKind::Record,
                    K::KwAnnotation => DefKind::Annotation,
                    _ => return false,
                };
                let start = self.header_start(&recent, 0, keyword);
                self.recover_def(node, def_kind, start, node);
                return true;
            }
            K::FormalParameters if field == g.parameters => {
                let Some((name, name_field)) = prev else {
                    return false;
                };
                if g.kinds.of(name) != K::Identifier || name_field != g.name {
                    return false;
                }
                let (def_kind, anchor, anchor_node) = match prev2 {
                    Some((ty, f)) if f == g.r#type => (DefKind::Method, 1, ty),
                    _ => (DefKind::Constructor, 0, name),
                };
                let start = self.header_start(&recent, anchor, anchor_node);
                self.recover_def(name, def_kind, start, node);
            }
            _ => {}
        }
        false
    }

    /// The first node of a declaration whose last header child before its name is
    /// `recent[anchor]` (`anchor_node`): the modifiers and type parameters just before it belong
    /// to it.
    fn header_start(
        &self,
        recent: &[Option<(Node<'t>, u16)>; RECENT],
        anchor: usize,
        anchor_node: Node<'t>,
    ) -> Node<'t> {
        recent[anchor + 1..]
            .iter()
            .map_while(|r| r.filter(|(n, _)| matches!(self.g.kinds.of(*n), K::Modifiers | K::TypeParameters)))
            .last()
            .map_or(anchor_node, |(n, _)| n)
    }

    fn recover_def(&mut self, name: Node<'t>, kind: DefKind, start: Node<'t>, last: Node<'t>) {
        let Some(frame) = self.frames.last_mut() else {
            return;
        };
        let error = frame.node;
        let doc = frame.doc.take();
        let Some(rec) = frame.recovery.as_deref_mut() else {
            return;
        };
        // A header that never opened a body (`void f()` then `void g(`) is over.
        if let Some(h) = rec.header.take() {
            self.close_scope(h.id);
        }
        let signature = SignatureSource { head: start.start_byte()..last.end_byte(), tail: None };
        let span = span_between(start, error);
        if let Some(id) = self.add_def(name, kind, span, signature, doc) {
            self.scope.push(id);
            if let Some(rec) = self.frames.last_mut().and_then(|f| f.recovery.as_deref_mut()) {
                rec.header = Some(Header { id, start });
            }
        }
    }

    fn recovered_callable_is_open(&self, error: &Frame) -> bool {
        let header = error.recovery.as_ref().and_then(|r| r.header);
        header.is_some_and(|h| self.scope.last() == Some(&h.id) && self.b.index.definition(h.id).kind.is_callable())
    }

    fn close_scope(&mut self, id: DefId) {
        if let Some(at) = self.scope.iter().rposition(|&d| d == id) {
            self.scope.truncate(at);
        }
    }

    // ---- uses ----

    fn identifier(&mut self, node: Node, field: u16) {
        let g = self.g;
        let n = self.frames.len();
        let Some(parent) = self.frames.last() else {
            return;
        };
        let p = parent.node;
        // A call or field access on an expression that is no chain of names (`new Square().area()`)
        // is a member of that expression: its binding is the receiver's, whatever the file binds.
        let on_expression = |object: Option<Node>, qualifier: &Option<String>| object.is_some() && qualifier.is_none();
        let (kind, qualifier) = match parent.kind {
            K::MethodInvocation if field == g.name => {
                let object = p.child_by_field_id(g.object);
                let qualifier = self.qualifier(object);
                if on_expression(object, &qualifier) {
                    return self.push_member(node, UseKind::Call);
                }
                (UseKind::Call, qualifier)
            }
            K::FieldAccess if field == g.field => {
                let constructor_ref = n >= 2 && {
                    let grand = &self.frames[n - 2];
                    grand.kind == K::MethodReference && self.is_constructor_ref(p, grand.node)
                };
                let kind = if constructor_ref { UseKind::Instantiation } else { UseKind::Attribute };
                let object = p.child_by_field_id(g.object);
                let qualifier = self.qualifier(object);
                if on_expression(object, &qualifier) {
                    return self.push_member(node, kind);
                }
                (kind, qualifier)
            }
            K::MethodReference if node.start_byte() == p.start_byte() => {
                if self.is_constructor_ref(node, p) {
                    (UseKind::Instantiation, None)
                } else {
                    (UseKind::Name, None)
                }
            }
            K::MethodReference => {
                let qualifier = self.qualifier(p.child(0));
                if qualifier.is_none() {
                    return self.push_member(node, UseKind::Call);
                }
                (UseKind::Call, qualifier)
            }
            K::ElementValuePair if field == g.key => (UseKind::KeywordArgument, self.annotation_name(n)),
            K::Annotation | K::MarkerAnnotation if field == g.name => (UseKind::Decorator, None),
            K::AssignmentExpression
                if field == g.left && p.child_by_field_id(g.operator).is_some_and(|op| g.kinds.of(op) == K::Assign) =>
            {
                return;
            }
            K::RecordPattern | K::ServiceDirective => (UseKind::Type, None),
            kind if declares_by_name(kind) && field == g.name => {
                if matches!(kind, K::VariableDeclarator | K::FormalParameter | K::LocalBinder) {
                    self.b.bind(node, Binding::Local);
                }
                return;
            }
            K::LambdaExpression if field == g.parameters => {
                self.b.bind(node, Binding::Local);
                return;
            }
            // A `name` field survives in an ERROR only from a partial declaration.
            K::Error if field == g.name => return,
            K::AllBinder => {
                self.b.bind(node, Binding::Local);
                return;
            }
            K::ModuleName | K::PackageDeclaration => return,
            _ => (UseKind::Name, None),
        };
        self.push_use(node, kind, qualifier);
    }

    fn type_identifier(&mut self, node: Node<'t>) {
        // `var` is a reserved type name that asks for inference, never a reference.
        if self.b.bytes(node) == b"var" {
            return;
        }
        let n = self.frames.len();
        let Some(parent) = self.frames.last() else {
            return;
        };
        let (kind, qualifier) = match parent.kind {
            // `<T>` declares T.
            K::TypeParameter => {
                self.b.bind(node, Binding::Local);
                return;
            }
            // The last component of `a.b.Foo` plays the whole type's role; the others are
            // enclosing types (or packages) named on the way.
            K::ScopedTypeIdentifier if node.end_byte() == parent.node.end_byte() => {
                (self.type_role(parent.node, n - 1), parent.node.named_child(0).and_then(|s| self.dotted(s)))
            }
            K::ScopedTypeIdentifier => (UseKind::Type, None),
            _ => (self.type_role(node, n), None),
        };
        self.push_use(node, kind, qualifier);
    }

    /// The role of a type node whose parent is `self.frames[parent_len - 1]`: climbs through
    /// the wrappers (generic arguments, annotations, scoping) that keep the role of the type
    /// they wrap.
    fn type_role(&self, mut child: Node<'t>, parent_len: usize) -> UseKind {
        for i in (0..parent_len).rev() {
            let p = &self.frames[i];
            match p.kind {
                K::Superclass => return UseKind::Base,
                K::TypeList => {
                    let in_supertypes =
                        i > 0 && matches!(self.frames[i - 1].kind, K::SuperInterfaces | K::ExtendsInterfaces);
                    return if in_supertypes { UseKind::Base } else { UseKind::Type };
                }
                K::ObjectCreationExpression => return UseKind::Instantiation,
                K::MethodReference if self.is_constructor_ref(child, p.node) => {
                    return UseKind::Instantiation;
                }
                K::GenericType | K::AnnotatedType => {}
                K::ScopedTypeIdentifier if child.end_byte() == p.node.end_byte() => {}
                _ => return UseKind::Type,
            }
            child = p.node;
        }
        UseKind::Type
    }

    /// Whether `receiver` is the receiver of `Receiver::new`.
    fn is_constructor_ref(&self, receiver: Node, reference: Node) -> bool {
        receiver.start_byte() == reference.start_byte()
            && reference
                .child(reference.child_count().saturating_sub(1))
                .is_some_and(|last| self.g.kinds.of(last) == K::New)
    }

    /// The name of the annotation whose element-value pair is `self.frames[n - 1]`.
    fn annotation_name(&self, n: usize) -> Option<String> {
        if n < 3 || self.frames[n - 2].kind != K::AnnotationArgumentList {
            return None;
        }
        let annotation = &self.frames[n - 3];
        if annotation.kind != K::Annotation {
            return None;
        }
        self.qualifier(annotation.node.child_by_field_id(self.g.name))
    }

    fn scoped_identifier(&mut self, node: Node) {
        let g = self.g;
        let Some(parent) = self.frames.last() else {
            return;
        };
        let kind = match parent.kind {
            K::Annotation | K::MarkerAnnotation => UseKind::Decorator,
            K::ServiceDirective => UseKind::Type,
            // Package, module and import paths name no program entity of this file.
            _ => return,
        };
        if let Some(name) = node.child_by_field_id(g.name) {
            let qualifier = self.qualifier(node.child_by_field_id(g.scope));
            self.push_use(name, kind, qualifier);
        }
    }

    fn import(&mut self, node: Node) {
        let g = self.g;
        let mut path = None;
        let mut wildcard = false;
        for i in 0..node.child_count() {
            let Some(child) = node.child(i) else { continue };
            match g.kinds.of(child) {
                K::Identifier | K::ScopedIdentifier => path = Some(child),
                K::Asterisk => wildcard = true,
                _ => {}
            }
        }
        let Some(mut path) = path else { return };
        let mut parts = Vec::new();
        loop {
            match g.kinds.of(path) {
                K::ScopedIdentifier => {
                    parts.extend(path.child_by_field_id(g.name));
                    match path.child_by_field_id(g.scope) {
                        Some(scope) => path = scope,
                        None => break,
                    }
                }
                K::Identifier => {
                    parts.push(path);
                    break;
                }
                _ => break,
            }
        }
        parts.reverse();
        let (modules, name) = match parts.split_last() {
            Some((last, init)) if !wildcard => (init, Some(*last)),
            _ => (&parts[..], None),
        };
        let qualify = parts.len() <= MAX_CHAIN;
        let mut module = String::new();
        for &component in modules {
            let qualifier = (qualify && !module.is_empty()).then(|| module.clone());
            self.push_use(component, UseKind::ImportModule, qualifier);
            if !module.is_empty() {
                module.push('.');
            }
            module.push_str(&self.b.str(component));
        }
        if let Some(name) = name {
            let qualifier = (!module.is_empty()).then(|| module.clone());
            self.push_use(name, UseKind::Import, qualifier);
        }
        let import = Import {
            module,
            name: name.map(|n| self.b.str(n).into_owned()),
            alias: None,
            wildcard,
            line: node.start_position().row as u32,
        };
        if let Some(bound) = import.bound_name().filter(|_| import.name.is_some()) {
            self.b.scopes.bind_in(MODULE, bound.as_bytes(), Binding::Import);
        }
        self.b.index.imports.push(import);
    }

    fn package(&mut self, node: Node, doc: Option<Node>) {
        if self.b.index.package.is_some() {
            return;
        }
        self.package_doc = doc.and_then(|d| text::clean_javadoc(&self.b.str(d)));
        let g = self.g;
        let name = (0..node.named_child_count() as u32)
            .filter_map(|i| node.named_child(i))
            .find(|c| matches!(g.kinds.of(*c), K::Identifier | K::ScopedIdentifier));
        self.b.index.package = name.and_then(|n| self.dotted(n));
    }

    fn string(&mut self, node: Node<'t>) {
        let value = text::string_value(&self.b.str(node));
        let error_context = self.frames.last().is_some_and(|f| f.error) || self.in_message_assertion(node);
        self.b.string(value, node, error_context);
    }

    /// Whether `node`, about to become the innermost frame, puts its strings in an error
    /// context: it lies in one already, or it is the argument list of `throw new E(…)` (`E` a
    /// plain or qualified name) or of a call to one of [`ERROR_MESSAGE_CALLEES`].
    fn error_frame(&self, node: Node<'t>, kind: K) -> bool {
        let g = self.g;
        let n = self.frames.len();
        let Some(parent) = self.frames.last() else {
            return false;
        };
        if parent.error {
            // A string template's interpolations are part of the message, not messages.
            return kind != K::StringLiteral;
        }
        if kind != K::ArgumentList || parent.node.child_by_field_id(g.arguments) != Some(node) {
            return false;
        }
        match parent.kind {
            K::MethodInvocation => parent
                .node
                .child_by_field_id(g.name)
                .is_some_and(|name| ERROR_MESSAGE_CALLEES.contains(&&*self.b.str(name))),
            K::ObjectCreationExpression => {
                let thrown = n >= 2
                    && self.frames[n - 2].kind == K::ThrowStatement
                    && parent.node.child_by_field_id(g.object).is_none();
                let ty = parent.node.child_by_field_id(g.r#type);
                let plain = ty.filter(|t| matches!(g.kinds.of(*t), K::TypeIdentifier | K::ScopedTypeIdentifier));
                plain.is_some_and(|t| {
                    let name = self.b.str(t);
                    let last = name.rsplit('.').next().unwrap_or(&name).trim().to_owned();
                    thrown || ERROR_MESSAGE_CALLEES.contains(&last.as_str())
                })
            }
            _ => false,
        }
    }

    /// Whether `node` (a string) is an argument of an assertion (`assertEquals(…)`, `assert (…)`)
    /// with no bracket in between, on a line that reads `getMessage()`.
    fn in_message_assertion(&self, node: Node<'t>) -> bool {
        if !reads_exception_message(line_around(self.b.src, node.start_byte())) {
            return false;
        }
        let g = self.g;
        // The innermost ancestor with a bracket open around the string.
        let Some(i) = self.frames.iter().rposition(|f| opens_bracket_around(f.node, node.start_byte())) else {
            return false;
        };
        let (frame, parent) = (&self.frames[i], i.checked_sub(1).map(|p| &self.frames[p]));
        match (frame.kind, parent) {
            (K::ArgumentList, Some(p)) if p.kind == K::MethodInvocation => {
                p.node.child_by_field_id(g.name).is_some_and(|name| {
                    p.node.child_by_field_id(g.arguments) == Some(frame.node) && self.b.str(name).starts_with("assert")
                })
            }
            (K::ParenthesizedExpression, Some(p)) => {
                p.kind == K::AssertStatement && p.node.named_child(0) == Some(frame.node)
            }
            _ => false,
        }
    }

    /// A member of an expression receiver (`make().run()`): bound through the receiver.
    fn push_member(&mut self, node: Node, kind: UseKind) {
        self.b.use_bound(node, kind, None, Some(Binding::Receiver));
    }

    /// A use; an import statement's own names are what the import binds.
    fn push_use(&mut self, node: Node, kind: UseKind, qualifier: Option<String>) {
        let binding = matches!(kind, UseKind::Import | UseKind::ImportModule).then_some(Binding::Import);
        self.b.use_bound(node, kind, qualifier, binding);
    }

    // ---- text ----

    fn qualifier(&self, node: Option<Node>) -> Option<String> {
        node.and_then(|n| self.dotted(n))
    }

    /// The dotted name a receiver or qualifier spells (`this.helper`, `a.b.Foo`), or `None`
    /// when it is anything but a chain of names: a call, a literal, an index expression.
    fn dotted(&self, node: Node) -> Option<String> {
        let g = self.g;
        let mut n = node;
        let mut links = 0;
        loop {
            match g.kinds.of(n) {
                K::Identifier | K::TypeIdentifier | K::This | K::Super => break,
                K::FieldAccess => n = n.child_by_field_id(g.object)?,
                K::ScopedIdentifier => n = n.child_by_field_id(g.scope)?,
                K::ScopedTypeIdentifier | K::GenericType => n = n.named_child(0)?,
                _ => return None,
            }
            links += 1;
            if links > MAX_CHAIN {
                return None;
            }
        }
        let raw = self.b.bytes(node);
        let plain = raw.iter().all(|&b| !b.is_ascii() || b.is_ascii_alphanumeric() || matches!(b, b'_' | b'$' | b'.'));
        if plain {
            return Some(String::from_utf8_lossy(raw).into_owned());
        }
        // Layout, comments, annotations or type arguments inside the chain: rebuild it from
        // its names.
        let mut parts = Vec::with_capacity(links + 1);
        let mut n = node;
        loop {
            match g.kinds.of(n) {
                K::FieldAccess => {
                    parts.extend(n.child_by_field_id(g.field).map(|f| self.b.str(f)));
                    n = n.child_by_field_id(g.object)?;
                }
                K::ScopedIdentifier => {
                    parts.extend(n.child_by_field_id(g.name).map(|f| self.b.str(f)));
                    n = n.child_by_field_id(g.scope)?;
                }
                K::ScopedTypeIdentifier => {
                    let last = n.named_child(n.named_child_count().saturating_sub(1) as u32);
                    parts.extend(last.map(|f| self.b.str(f)));
                    n = n.named_child(0)?;
                }
                K::GenericType => n = n.named_child(0)?,
                _ => {
                    parts.push(self.b.str(n));
                    break;
                }
            }
        }
        parts.reverse();
        Some(parts.join("."))
    }

    fn finish_signatures(&mut self) {
        for (id, source) in self.signatures.iter().enumerate() {
            let mut signature = self.cleaned(source.head.clone());
            if let Some(tail) = source.tail.clone() {
                // Modifiers that were only annotations leave no head.
                if !signature.is_empty() {
                    signature.push(' ');
                }
                signature.push_str(&self.cleaned(tail));
            }
            // Bodiless methods and annotation elements end in `;`, which is punctuation.
            if let Some(stripped) = signature.strip_suffix(';') {
                signature.truncate(stripped.trim_end().len());
            }
            self.b.index.definitions[id].signature = signature;
        }
    }

    /// The source text of `range` without annotations and comments, on one line.
    fn cleaned(&self, range: Range<usize>) -> String {
        let first = self.omitted.partition_point(|o| o.start < range.start);
        let inside = self.omitted[first..].iter().take_while(|o| o.start < range.end);
        let mut out = String::new();
        let mut pos = range.start;
        let mut after_skip = false;
        for omitted in inside {
            // Annotations nested in an omitted annotation are gone with it.
            if omitted.start < pos {
                continue;
            }
            push_piece(&mut out, &self.slice(pos..omitted.start), after_skip);
            pos = omitted.end.min(range.end);
            after_skip = true;
        }
        if !after_skip {
            return flatten_whitespace(&self.slice(range));
        }
        push_piece(&mut out, &self.slice(pos..range.end), after_skip);
        flatten_whitespace(&out)
    }

    fn slice(&self, range: Range<usize>) -> Cow<'_, str> {
        String::from_utf8_lossy(self.b.src.get(range).unwrap_or_default())
    }
}

/// Appends source text that follows an omitted annotation or comment, keeping the words on
/// either side apart (`int/*c*/x` → `int x`) without leaving a gap inside brackets
/// (`List<@NonNull String>` → `List<String>`).
fn push_piece(out: &mut String, piece: &str, after_skip: bool) {
    let piece = if after_skip { piece.trim_start() } else { piece };
    let is_word = |c: char| c.is_alphanumeric() || c == '_' || c == '$';
    if after_skip && out.ends_with(is_word) && piece.starts_with(is_word) {
        out.push(' ');
    }
    out.push_str(piece);
}

/// The kinds that take a preceding Javadoc for a declaration of their own.
fn takes_doc(kind: K) -> bool {
    matches!(
        kind,
        K::ClassDeclaration
            | K::InterfaceDeclaration
            | K::EnumDeclaration
            | K::RecordDeclaration
            | K::AnnotationTypeDeclaration
            | K::MethodDeclaration
            | K::AnnotationTypeElementDeclaration
            | K::ConstructorDeclaration
            | K::CompactConstructorDeclaration
            | K::EnumConstant
            | K::FieldDeclaration
            | K::ConstantDeclaration
            | K::Error
    )
}

fn span_between(first: Node, last: Node) -> Span {
    let (start, end) = (first.start_position(), last.end_position());
    span(first.start_byte(), last.end_byte(), (start.row, start.column), (end.row, end.column))
}

/// Whether an anonymous child of `parent` lies within `from..to`, the gap between two of its
/// named children. Tokens are never empty or all whitespace in an error-free tree, so a gap of
/// whitespace holds none; anything else (rare) is looked up.
fn token_between(src: &[u8], parent: Node, from: usize, to: usize) -> bool {
    let gap = src.get(from..to).unwrap_or_default();
    if gap.iter().all(|&b| matches!(b, b' ' | b'\t' | b'\n' | b'\r' | b'\x0c')) {
        return false;
    }
    let mut cursor = parent.walk();
    if !cursor.goto_first_child() {
        return false;
    }
    loop {
        let child = cursor.node();
        if child.start_byte() >= to {
            return false;
        }
        if !child.is_named() && child.start_byte() >= from && child.end_byte() <= to {
            return true;
        }
        if !cursor.goto_next_sibling() {
            return false;
        }
    }
}

/// Kinds whose `name` field is the name they declare (so that identifier is no use).
fn declares_by_name(kind: K) -> bool {
    matches!(
        kind,
        K::ClassDeclaration
            | K::InterfaceDeclaration
            | K::EnumDeclaration
            | K::RecordDeclaration
            | K::AnnotationTypeDeclaration
            | K::MethodDeclaration
            | K::ConstructorDeclaration
            | K::CompactConstructorDeclaration
            | K::AnnotationTypeElementDeclaration
            | K::EnumConstant
            | K::VariableDeclarator
            | K::FormalParameter
            | K::LocalBinder
    )
}

fn has_pair(a: u8, b: u8, text: &[u8]) -> bool {
    text.windows(2).any(|w| w == [a, b])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pieces_after_an_omission_keep_words_apart_and_brackets_tight() {
        let mut out = String::from("int");
        push_piece(&mut out, "x", true);
        assert_eq!(out, "int x");
        let mut out = String::from("List<");
        push_piece(&mut out, " String>", true);
        assert_eq!(out, "List<String>");
        let mut out = String::from("public ");
        push_piece(&mut out, "static", true);
        assert_eq!(out, "public static");
    }
}
