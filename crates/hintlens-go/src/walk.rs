//! One walk over a Go syntax tree: definitions, uses, imports, strings, and the bindings of
//! every use.
//!
//! The walk recurses over named children, dispatching on the node's kind (numeric ids resolved
//! once, see [`Grammar`]); below [`MAX_DEPTH`] levels it reads the rest flat, so that no input
//! nests deeply enough to exhaust the stack. What nests as deep as it is long — chains of
//! selectors (`a.b.c`), of binary operators (`"a" + "b" + …`, hundreds deep in protoc's
//! output), of pointer and container types — is read in loops instead, so real code stays far
//! above the limit (at most 47 levels in flipt's and vuls' Go files).

use crate::package_name_of;
use hintlens_syntax::scope::{MODULE, ScopeKind, Scopes};
use hintlens_syntax::{
    Binding, DefId, DefKind, Definition, FileIndex, Import, Span, StringLiteral, Use, UseKind, comment_text,
    flatten_whitespace, quoted_path_components,
};
use hintlens_tree::span_of;
use std::sync::OnceLock;
use tree_sitter::{Language, Node, Tree};

/// Deepest recursion of the walk: within a 1 MiB stack even in a debug build.
const MAX_DEPTH: u32 = 128;

/// Longest chain of names (`a.b.c`) or of nested container types read as one.
const MAX_CHAIN: usize = 64;

pub(crate) fn extract(src: &[u8], tree: &Tree) -> FileIndex {
    let root = tree.root_node();
    let mut walk = Walk {
        g: grammar(),
        src,
        index: FileIndex::default(),
        scopes: Scopes::new(),
        depth: 0,
        in_body: false,
        error_args: 0,
    };
    walk.source_file(root);
    walk.index.errors = hintlens_tree::syntax_errors(root);
    let Walk { mut index, scopes, .. } = walk;
    scopes.finish(&mut index.uses);
    index
}

/// How a literal value's keys are to be read.
#[derive(Clone, PartialEq, Eq)]
enum Keys<'a> {
    /// Field names of a struct whose type the literal does not say: keyword arguments matched
    /// by name (or qualified by a type the caller knows).
    Fields(Option<&'a str>),
    /// Field names of a named type, qualified by its name as written (`Options`, `pkg.Options`).
    Named(String),
    /// Field names of an anonymous struct type: the literal's own, no use of anything.
    Anonymous,
    /// Map keys and array indices: expressions.
    Expressions,
    /// The elements of a container of containers (`[][]T{{{…}}}`): one level down, these keys.
    Elements(Box<Keys<'a>>),
}

struct Walk<'t> {
    g: &'static Grammar,
    src: &'t [u8],
    index: FileIndex,
    scopes: Scopes,
    depth: u32,
    /// Inside a function body: declarations are locals, not definitions.
    in_body: bool,
    /// How many enclosing calls make strings error messages (`errors.New`, `fmt.Errorf`…).
    error_args: u32,
}

impl<'t> Walk<'t> {
    // ----- plumbing -----

    fn bytes(&self, node: Node) -> &'t [u8] {
        self.src.get(node.byte_range()).unwrap_or_default()
    }

    fn text(&self, node: Node) -> String {
        String::from_utf8_lossy(self.bytes(node)).into_owned()
    }

    fn field(&self, node: Node<'t>, id: u16) -> Option<Node<'t>> {
        node.child_by_field_id(id)
    }

    fn named_children(node: Node<'t>) -> impl Iterator<Item = Node<'t>> {
        (0..node.named_child_count() as u32).filter_map(move |i| node.named_child(i))
    }

    fn nested(&mut self, node: Node<'t>, f: impl FnOnce(&mut Self)) {
        if self.depth >= MAX_DEPTH {
            self.flat(node);
            return;
        }
        self.depth += 1;
        f(self);
        self.depth -= 1;
    }

    /// Past the depth limit: every identifier is a plain use, iteratively.
    fn flat(&mut self, node: Node<'t>) {
        let mut cursor = node.walk();
        loop {
            let current = cursor.node();
            let k = current.kind_id();
            if k == self.g.identifier || k == self.g.type_identifier || k == self.g.field_identifier {
                self.push_use(current, UseKind::Name, None);
            }
            if k != self.g.comment && cursor.goto_first_child() {
                continue;
            }
            while !cursor.goto_next_sibling() {
                if !cursor.goto_parent() {
                    return;
                }
            }
        }
    }

    fn push_use(&mut self, name: Node<'t>, kind: UseKind, qualifier: Option<String>) {
        self.push_use_bound(name, kind, qualifier, None);
    }

    /// A use; `binding` when it is known here (a member of an expression), else looked up.
    fn push_use_bound(&mut self, name: Node<'t>, kind: UseKind, qualifier: Option<String>, binding: Option<Binding>) {
        // `_` names nothing.
        if name.is_missing() || name.start_byte() == name.end_byte() || self.bytes(name) == b"_" {
            return;
        }
        let at = self.index.uses.len();
        let binding = match binding {
            Some(binding) => binding,
            None => {
                let head = match &qualifier {
                    Some(q) => Some(q.split('.').next().unwrap_or(q).as_bytes()),
                    None if kind == UseKind::KeywordArgument => None,
                    None => Some(self.bytes(name)),
                };
                if let Some(head) = head {
                    self.scopes.record(at, head);
                }
                Binding::Free
            }
        };
        self.index.uses.push(Use { name: self.text(name), kind, span: span_of(name), qualifier, binding });
    }

    #[allow(clippy::too_many_arguments)]
    fn define(
        &mut self,
        name: Node<'t>,
        local_name: String,
        kind: DefKind,
        whole: Node<'t>,
        signature: String,
        parent: Option<DefId>,
        doc: Option<String>,
    ) -> DefId {
        let id = self.index.definitions.len() as DefId;
        self.index.definitions.push(Definition {
            name: self.text(name),
            local_name,
            kind,
            span: span_of(whole),
            name_span: span_of(name),
            signature,
            doc,
            parent,
            constructor_keyword: kind == DefKind::Field,
            keywords_from: Vec::new(),
        });
        id
    }

    /// The span of bytes `start..end` inside `node`, counted from the node's own position.
    fn span_within(&self, node: Node<'t>, start: usize, end: usize) -> Span {
        let at = node.start_position();
        hintlens_syntax::span_within(self.src, (node.start_byte(), at.row, at.column), start, end)
    }

    /// The source of `from..to`, on one line.
    fn flat_text(&self, from: usize, to: usize) -> String {
        flatten_whitespace(&String::from_utf8_lossy(self.src.get(from..to.max(from)).unwrap_or_default()))
    }

    /// The dotted text of a chain of names (`s.store`, `pkg`), `None` for other expressions.
    /// Chains longer than [`MAX_CHAIN`] links are no qualifier: without a bound, qualifying
    /// every link of a hostile `a.b.….z` would cost O(n²).
    fn dotted(&self, node: Node<'t>) -> Option<String> {
        let g = self.g;
        // The fields, outermost first, down to the chain's head.
        let mut fields = Vec::new();
        let mut n = node;
        loop {
            let k = n.kind_id();
            if k == g.identifier || k == g.package_identifier || k == g.type_identifier {
                break;
            } else if k == g.selector_expression {
                fields.push(self.field(n, g.f_field)?);
                n = self.field(n, g.f_operand)?;
            } else if k == g.qualified_type {
                fields.push(self.field(n, g.f_name)?);
                n = self.field(n, g.f_package)?;
            } else {
                return None;
            }
            if fields.len() > MAX_CHAIN {
                return None;
            }
        }
        let mut out = self.text(n);
        for field in fields.iter().rev() {
            out.push('.');
            out.push_str(&String::from_utf8_lossy(self.bytes(*field)));
        }
        Some(out)
    }

    // ----- the file -----

    fn source_file(&mut self, root: Node<'t>) {
        // Top-level declarations, each with the comment block just above it as its doc.
        let mut comments: Vec<Node<'t>> = Vec::new();
        for child in Self::named_children(root) {
            if child.kind_id() == self.g.comment {
                comments.push(child);
                continue;
            }
            let doc = self.doc(&comments, child);
            comments.clear();
            self.top_level(child, doc);
        }
    }

    /// The text of the comment block that ends on the line above `node`, if any.
    fn doc(&self, comments: &[Node<'t>], node: Node<'t>) -> Option<String> {
        let mut lines: Vec<String> = Vec::new();
        let mut next_row = node.start_position().row;
        for comment in comments.iter().rev() {
            if comment.end_position().row + 1 != next_row {
                break;
            }
            next_row = comment.start_position().row;
            lines.push(comment_text(&self.text(*comment)));
        }
        lines.reverse();
        let doc = lines.join("\n").trim().to_owned();
        (!doc.is_empty()).then_some(doc)
    }

    fn top_level(&mut self, node: Node<'t>, doc: Option<String>) {
        let g = self.g;
        let k = node.kind_id();
        if k == g.package_clause {
            if let Some(name) = Self::named_children(node).next() {
                self.index.package = Some(self.text(name));
                if self.index.doc.is_none() {
                    self.index.doc = doc;
                }
            }
        } else if k == g.import_declaration {
            self.import_declaration(node);
        } else {
            self.declaration_or_statement(node, doc);
        }
    }

    /// A declaration (at the top level or in a body), or any other statement.
    fn declaration_or_statement(&mut self, node: Node<'t>, doc: Option<String>) {
        let g = self.g;
        let k = node.kind_id();
        if k == g.function_declaration {
            self.function(node, doc);
        } else if k == g.method_declaration {
            self.method(node, doc);
        } else if k == g.type_declaration {
            self.grouped(node, doc, |s, spec, doc| s.type_spec(spec, doc));
        } else if k == g.const_declaration {
            self.grouped(node, doc, |s, spec, doc| s.value_spec(spec, doc, "const"));
        } else if k == g.var_declaration {
            self.grouped(node, doc, |s, spec, doc| s.value_spec(spec, doc, "var"));
        } else {
            self.visit(node);
        }
    }

    /// The specs of a declaration, grouped (`type ( … )`) or not, each with its own doc or the
    /// declaration's.
    fn grouped(
        &mut self,
        node: Node<'t>,
        doc: Option<String>,
        mut each: impl FnMut(&mut Self, Node<'t>, Option<String>),
    ) {
        let mut comments: Vec<Node<'t>> = Vec::new();
        let mut specs = Vec::new();
        let mut stack = vec![node];
        // Specs sit directly in the declaration or in a `var_spec_list`.
        while let Some(current) = stack.pop() {
            for child in Self::named_children(current).collect::<Vec<_>>().into_iter().rev() {
                if child.kind_id() == self.g.var_spec_list {
                    stack.push(child);
                } else {
                    specs.push(child);
                }
            }
        }
        specs.reverse();
        let single = specs.iter().filter(|s| s.kind_id() != self.g.comment).count() == 1;
        for spec in specs {
            if spec.kind_id() == self.g.comment {
                comments.push(spec);
                continue;
            }
            let own = self.doc(&comments, spec);
            comments.clear();
            let doc = if single { own.or_else(|| doc.clone()) } else { own };
            each(self, spec, doc);
        }
    }

    // ----- imports -----

    fn import_declaration(&mut self, node: Node<'t>) {
        let mut stack = vec![node];
        while let Some(current) = stack.pop() {
            for child in Self::named_children(current) {
                if child.kind_id() == self.g.import_spec {
                    self.import_spec(child);
                } else if child.kind_id() == self.g.import_spec_list {
                    stack.push(child);
                }
            }
        }
    }

    fn import_spec(&mut self, node: Node<'t>) {
        let g = self.g;
        let Some(path_node) = self.field(node, g.f_path) else { return };
        let name = self.field(node, g.f_name);
        let path = string_content(self.bytes(path_node));
        // Each path component is a use of the package directory it names.
        let mut prefix = String::new();
        for (start, end, component) in quoted_path_components(self.src, path_node.start_byte(), path_node.end_byte()) {
            if component.is_empty() {
                continue;
            }
            let qualifier = (!prefix.is_empty()).then(|| prefix.clone());
            self.index.uses.push(Use {
                name: component.clone(),
                kind: UseKind::ImportModule,
                span: self.span_within(path_node, start, end),
                qualifier,
                binding: Binding::Import,
            });
            if !prefix.is_empty() {
                prefix.push('/');
            }
            prefix.push_str(&component);
        }
        let written = name.map(|n| self.text(n));
        let wildcard = written.as_deref() == Some(".");
        let alias = match written.as_deref() {
            Some(".") => None,
            Some(alias) => Some(alias.to_owned()),
            None => Some(package_name_of(&path).to_owned()),
        };
        if let Some(alias) = alias.as_deref().filter(|a| *a != "_") {
            self.scopes.bind_in(MODULE, alias.as_bytes(), Binding::Import);
        }
        self.index.imports.push(Import {
            module: path,
            name: None,
            alias,
            wildcard,
            line: node.start_position().row as u32,
        });
    }

    // ----- declarations -----

    fn function(&mut self, node: Node<'t>, doc: Option<String>) {
        let g = self.g;
        let name = self.field(node, g.f_name);
        if self.in_body {
            // Not valid Go, but error recovery may produce it: read it as a body.
            return self.visit(node);
        }
        let id = name.map(|name| {
            self.scopes.bind_in(MODULE, self.bytes(name), Binding::Definition);
            let signature = self.signature_through(node, &[g.f_result, g.f_parameters]);
            self.define(name, self.text(name), DefKind::Function, node, signature, None, doc)
        });
        let _ = id;
        self.callable(node, None);
    }

    fn method(&mut self, node: Node<'t>, doc: Option<String>) {
        let g = self.g;
        let receiver_type = self.field(node, g.f_receiver).and_then(|r| self.receiver_type(r));
        if let (Some(name), false) = (self.field(node, g.f_name), self.in_body) {
            let signature = self.signature_through(node, &[g.f_result, g.f_parameters]);
            let method = self.text(name);
            // The receiver's type, when this file declares it (before the method).
            let owner = receiver_type.as_deref();
            let parent = owner.and_then(|t| {
                self.index.definitions.iter().position(|d| d.parent.is_none() && d.name == t && d.kind.is_type())
            });
            let local_name = match owner {
                Some(t) => format!("{t}.{method}"),
                None => method,
            };
            self.define(name, local_name, DefKind::Method, node, signature, parent.map(|p| p as DefId), doc);
        }
        self.callable(node, self.field(node, g.f_receiver));
    }

    /// The type name a receiver declares (`Store` of `(s *Store)` or `(s Store[T])`).
    fn receiver_type(&self, receiver: Node<'t>) -> Option<String> {
        let g = self.g;
        let param = Self::named_children(receiver).find(|c| c.kind_id() == g.parameter_declaration)?;
        let mut ty = self.field(param, g.f_type)?;
        loop {
            let k = ty.kind_id();
            if k == g.pointer_type || k == g.parenthesized_type {
                ty = Self::named_children(ty).next()?;
            } else if k == g.generic_type {
                ty = self.field(ty, g.f_type)?;
            } else if k == g.type_identifier {
                return Some(self.text(ty));
            } else {
                return None;
            }
        }
    }

    /// A function, method or function literal: its parameters, results and type parameters bind
    /// in its scope; its body is read as statements.
    fn callable(&mut self, node: Node<'t>, receiver: Option<Node<'t>>) {
        let g = self.g;
        let scope = self.scopes.open(ScopeKind::Function);
        let outer = self.scopes.enter(scope);
        let was_in_body = std::mem::replace(&mut self.in_body, true);
        for part in [
            receiver,
            self.field(node, g.f_type_parameters),
            self.field(node, g.f_parameters),
            self.field(node, g.f_result),
        ]
        .into_iter()
        .flatten()
        {
            self.parameters(part);
        }
        if let Some(body) = self.field(node, g.f_body) {
            self.visit(body);
        }
        self.in_body = was_in_body;
        self.scopes.leave(outer);
    }

    /// A parameter list (or a result type, or type parameters): names bind, types are uses.
    fn parameters(&mut self, node: Node<'t>) {
        let g = self.g;
        let k = node.kind_id();
        if k != g.parameter_list && k != g.type_parameter_list {
            return self.ty(node);
        }
        for param in Self::named_children(node) {
            let pk = param.kind_id();
            if pk == g.parameter_declaration
                || pk == g.variadic_parameter_declaration
                || pk == g.type_parameter_declaration
            {
                let mut cursor = param.walk();
                for name in param.children_by_field_id(nz(g.f_name), &mut cursor) {
                    self.scopes.bind(self.bytes(name), Binding::Local);
                }
                if let Some(ty) = self.field(param, g.f_type) {
                    self.ty(ty);
                }
            } else if pk != g.comment {
                self.ty(param);
            }
        }
    }

    /// `name [T any] <type>` of a `type` declaration.
    fn type_spec(&mut self, spec: Node<'t>, doc: Option<String>) {
        let g = self.g;
        let Some(name) = self.field(spec, g.f_name) else { return self.visit(spec) };
        let ty = self.field(spec, g.f_type);
        let alias = spec.kind_id() == g.type_alias;
        if self.in_body {
            // A local type: the function's own.
            self.scopes.bind(self.bytes(name), Binding::Local);
            if let Some(ty) = ty {
                self.ty(ty);
            }
            return;
        }
        self.scopes.bind_in(MODULE, self.bytes(name), Binding::Definition);
        let (kind, body) = match ty.map(|t| t.kind_id()) {
            _ if alias => (DefKind::TypeAlias, None),
            Some(k) if k == g.struct_type => (DefKind::Struct, ty),
            Some(k) if k == g.interface_type => (DefKind::Interface, ty),
            _ => (DefKind::Type, None),
        };
        let header_end = self.field(spec, g.f_type_parameters).unwrap_or(name).end_byte();
        let signature = match (kind, ty) {
            (DefKind::Struct, _) => format!("type {} struct", self.flat_text(spec.start_byte(), header_end)),
            (DefKind::Interface, _) => format!("type {} interface", self.flat_text(spec.start_byte(), header_end)),
            _ => format!("type {}", self.flat_text(spec.start_byte(), spec.end_byte())),
        };
        let name_text = self.text(name);
        let id = self.define(name, name_text.clone(), kind, spec, signature, None, doc);
        if let Some(params) = self.field(spec, g.f_type_parameters) {
            let scope = self.scopes.open(ScopeKind::Function);
            let outer = self.scopes.enter(scope);
            self.parameters(params);
            self.members(body, ty, Some((id, &name_text)));
            self.scopes.leave(outer);
        } else {
            self.members(body, ty, Some((id, &name_text)));
        }
    }

    /// A struct's fields or an interface's methods, as members of `owner` (an anonymous struct
    /// or interface has none: its members' types are only read); any other type is read for its
    /// uses.
    fn members(&mut self, body: Option<Node<'t>>, ty: Option<Node<'t>>, owner: Option<(DefId, &str)>) {
        let g = self.g;
        let Some(body) = body else {
            if let Some(ty) = ty {
                self.ty(ty);
            }
            return;
        };
        let mut comments: Vec<Node<'t>> = Vec::new();
        let items: Vec<Node<'t>> = if body.kind_id() == g.struct_type {
            Self::named_children(body)
                .filter(|c| c.kind_id() == g.field_declaration_list)
                .flat_map(Self::named_children)
                .collect()
        } else {
            Self::named_children(body).collect()
        };
        for item in items {
            let k = item.kind_id();
            if k == g.comment {
                comments.push(item);
                continue;
            }
            let doc = self.doc(&comments, item);
            comments.clear();
            if k == g.field_declaration {
                self.field_declaration(item, owner, doc);
            } else if k == g.method_elem {
                if let (Some(name), Some((owner, owner_name))) = (self.field(item, g.f_name), owner) {
                    let signature = self.flat_text(item.start_byte(), item.end_byte());
                    let local = format!("{owner_name}.{}", self.text(name));
                    self.define(name, local, DefKind::Method, item, signature, Some(owner), doc);
                }
                let scope = self.scopes.open(ScopeKind::Function);
                let outer = self.scopes.enter(scope);
                for part in [self.field(item, g.f_parameters), self.field(item, g.f_result)].into_iter().flatten() {
                    self.parameters(part);
                }
                self.scopes.leave(outer);
            } else {
                // Embedded interfaces and type constraints.
                self.ty(item);
            }
        }
    }

    fn field_declaration(&mut self, item: Node<'t>, owner: Option<(DefId, &str)>, doc: Option<String>) {
        let g = self.g;
        let ty = self.field(item, g.f_type);
        let Some((owner, owner_name)) = owner else {
            if let Some(ty) = ty {
                self.ty(ty);
            }
            return;
        };
        let type_text = ty.map(|t| self.flat_text(t.start_byte(), t.end_byte())).unwrap_or_default();
        let mut cursor = item.walk();
        let names: Vec<Node<'t>> = item.children_by_field_id(nz(g.f_name), &mut cursor).collect();
        if names.is_empty() {
            // An embedded field, named by its type: `sync.Mutex` is field `Mutex`, `*Config`
            // field `Config` (the `*` lies before the type node, outside it).
            if let (Some(ty), Some(name)) = (ty, ty.and_then(|t| self.embedded_name(t))) {
                let local = format!("{owner_name}.{}", self.text(name));
                let signature = self.flat_text(item.start_byte(), ty.end_byte());
                self.define(name, local, DefKind::Field, item, signature, Some(owner), doc.clone());
            }
        }
        for name in names {
            let field = self.text(name);
            let signature = format!("{field} {type_text}");
            let local = format!("{owner_name}.{field}");
            self.define(name, local, DefKind::Field, item, signature, Some(owner), doc.clone());
        }
        if let Some(ty) = ty {
            self.ty(ty);
        }
    }

    /// The type name an embedded field takes its name from.
    fn embedded_name(&self, mut ty: Node<'t>) -> Option<Node<'t>> {
        let g = self.g;
        loop {
            let k = ty.kind_id();
            if k == g.type_identifier {
                return Some(ty);
            } else if k == g.pointer_type {
                ty = Self::named_children(ty).next()?;
            } else if k == g.qualified_type {
                return self.field(ty, g.f_name);
            } else if k == g.generic_type {
                ty = self.field(ty, g.f_type)?;
            } else {
                return None;
            }
        }
    }

    /// A `const` or `var` spec: package-level names are definitions, local ones bind.
    fn value_spec(&mut self, spec: Node<'t>, doc: Option<String>, keyword: &str) {
        let g = self.g;
        let ty = self.field(spec, g.f_type);
        let mut cursor = spec.walk();
        let names: Vec<Node<'t>> = spec.children_by_field_id(nz(g.f_name), &mut cursor).collect();
        let type_text = ty.map(|t| format!(" {}", self.flat_text(t.start_byte(), t.end_byte()))).unwrap_or_default();
        for name in names {
            if self.in_body {
                self.scopes.bind(self.bytes(name), Binding::Local);
                continue;
            }
            self.scopes.bind_in(MODULE, self.bytes(name), Binding::Local);
            let kind = if keyword == "const" { DefKind::Constant } else { DefKind::Variable };
            let signature = format!("{keyword} {}{type_text}", self.text(name));
            self.define(name, self.text(name), kind, spec, signature, None, doc.clone());
        }
        if let Some(ty) = ty {
            self.ty(ty);
        }
        if let Some(value) = self.field(spec, g.f_value) {
            self.visit(value);
        }
    }

    /// The declaration's text from its start through the last of `fields` present (the body
    /// left out), on one line.
    fn signature_through(&self, node: Node<'t>, fields: &[u16]) -> String {
        let end = fields.iter().find_map(|&f| self.field(node, f)).map_or(node.end_byte(), |n| n.end_byte());
        self.flat_text(node.start_byte(), end)
    }

    // ----- statements and expressions -----

    fn visit(&mut self, node: Node<'t>) {
        self.nested(node, |s| s.visit_kind(node));
    }

    fn visit_children(&mut self, node: Node<'t>) {
        for child in Self::named_children(node) {
            self.visit(child);
        }
    }

    fn visit_kind(&mut self, node: Node<'t>) {
        let g = self.g;
        let k = node.kind_id();
        if k == g.identifier {
            self.push_use(node, UseKind::Name, None);
        } else if k == g.comment {
        } else if k == g.call_expression {
            self.call(node);
        } else if k == g.binary_expression {
            self.binary(node);
        } else if k == g.selector_expression {
            self.selector(node, UseKind::Attribute);
        } else if k == g.composite_literal {
            self.composite_literal(node);
        } else if k == g.func_literal {
            self.callable(node, None);
        } else if k == g.short_var_declaration || k == g.range_clause {
            self.binding_statement(node);
        } else if k == g.type_switch_statement {
            self.type_switch(node);
        } else if k == g.type_case {
            let mut cursor = node.walk();
            let types: Vec<Node<'t>> = node.children_by_field_id(nz(g.f_type), &mut cursor).collect();
            for child in Self::named_children(node) {
                if types.contains(&child) { self.ty(child) } else { self.visit(child) }
            }
        } else if k == g.type_assertion_expression || k == g.type_conversion_expression {
            if let Some(operand) = self.field(node, g.f_operand) {
                self.visit(operand);
            }
            if let Some(ty) = self.field(node, g.f_type) {
                self.ty(ty);
            }
        } else if k == g.interpreted_string_literal || k == g.raw_string_literal {
            self.string(node);
        } else if k == g.labeled_statement {
            for child in Self::named_children(node).filter(|c| c.kind_id() != g.label_name) {
                self.visit(child);
            }
        } else if k == g.label_name || k == g.field_identifier || k == g.package_identifier {
        } else if k == g.type_identifier || k == g.qualified_type || k == g.generic_type || k == g.pointer_type {
            self.ty(node);
        } else if k == g.function_declaration
            || k == g.method_declaration
            || k == g.type_declaration
            || k == g.const_declaration
            || k == g.var_declaration
        {
            self.declaration_or_statement(node, None);
        } else if k == g.block
            || k == g.if_statement
            || k == g.for_statement
            || k == g.expression_switch_statement
            || k == g.expression_case
            || k == g.default_case
            || k == g.communication_case
        {
            // Go scopes are blocks (an `if`'s or `for`'s header included): a name declared in
            // one is not bound around it.
            let scope = self.scopes.open(ScopeKind::Function);
            let outer = self.scopes.enter(scope);
            self.visit_children(node);
            self.scopes.leave(outer);
        } else {
            self.visit_children(node);
        }
    }

    /// `a + b + c` nests to the left as deep as it is long (generated code concatenates
    /// hundreds of strings so): its left spine is read in a loop, each right operand after the
    /// operands before it.
    fn binary(&mut self, node: Node<'t>) {
        let g = self.g;
        let mut spine = vec![node];
        let mut left = self.field(node, g.f_left);
        while let Some(l) = left.filter(|l| l.kind_id() == g.binary_expression) {
            spine.push(l);
            left = self.field(l, g.f_left);
        }
        if let Some(l) = left {
            self.visit(l);
        }
        for b in spine.iter().rev() {
            if let Some(right) = self.field(*b, g.f_right) {
                self.visit(right);
            }
        }
    }

    /// `f(…)`, `pkg.F(…)`, `x.M(…)`, conversions `T(x)`.
    fn call(&mut self, node: Node<'t>) {
        let g = self.g;
        let function = self.field(node, g.f_function);
        let error = function.is_some_and(|f| self.is_error_callee(f));
        if let Some(function) = function {
            let k = function.kind_id();
            if k == g.identifier {
                self.push_use(function, UseKind::Call, None);
            } else if k == g.selector_expression {
                self.selector(function, UseKind::Call);
            } else {
                self.visit(function);
            }
        }
        if let Some(type_arguments) = self.field(node, g.f_type_arguments) {
            self.ty(type_arguments);
        }
        if let Some(arguments) = self.field(node, g.f_arguments) {
            let expected = function.and_then(|f| self.mocked_method_argument(f));
            self.error_args += u32::from(error);
            for (i, argument) in Self::named_children(arguments).enumerate() {
                if Some(i) == expected {
                    self.mocked_method(argument);
                }
                // `make([]T, n)`, `new(T)`: types as arguments.
                if self.is_type_node(argument) { self.ty(argument) } else { self.visit(argument) }
            }
            self.error_args -= u32::from(error);
        }
    }

    /// Which argument of a call names a method of a testify mock by string: the first of
    /// `m.On("Fetch", …)` and `m.MethodCalled("Fetch", …)`, the second of
    /// `m.AssertCalled(t, "Fetch", …)` and its kin.
    fn mocked_method_argument(&self, function: Node<'t>) -> Option<usize> {
        if function.kind_id() != self.g.selector_expression {
            return None;
        }
        match self.bytes(self.field(function, self.g.f_field)?) {
            b"On" | b"MethodCalled" => Some(0),
            b"AssertCalled" | b"AssertNotCalled" | b"AssertNumberOfCalls" => Some(1),
            _ => None,
        }
    }

    /// A method name in a string that testify looks up by reflection (`m.On("Fetch", …)`): a
    /// call of that method on a receiver whose type is unknown, as the mocked code will make it.
    fn mocked_method(&mut self, argument: Node<'t>) {
        if argument.kind_id() != self.g.interpreted_string_literal && argument.kind_id() != self.g.raw_string_literal {
            return;
        }
        let literal = self.bytes(argument);
        let Some(name) = literal.get(1..literal.len().saturating_sub(1)) else { return };
        let identifier = name.first().is_some_and(|b| b.is_ascii_alphabetic() || *b == b'_')
            && name.iter().all(|b| b.is_ascii_alphanumeric() || *b == b'_');
        if !identifier || literal.len() < 2 {
            return;
        }
        let (start, end) = (argument.start_byte() + 1, argument.end_byte() - 1);
        self.index.uses.push(Use {
            name: String::from_utf8_lossy(name).into_owned(),
            kind: UseKind::Call,
            span: self.span_within(argument, start, end),
            qualifier: None,
            binding: Binding::Receiver,
        });
    }

    fn is_type_node(&self, node: Node<'t>) -> bool {
        let g = self.g;
        let k = node.kind_id();
        [
            g.slice_type,
            g.map_type,
            g.array_type,
            g.channel_type,
            g.struct_type,
            g.interface_type,
            g.function_type,
            g.pointer_type,
        ]
        .contains(&k)
    }

    /// Whether a callee makes its string arguments error messages.
    fn is_error_callee(&self, function: Node<'t>) -> bool {
        let Some(callee) = self.dotted(function) else { return false };
        let (qualifier, name) = callee.rsplit_once('.').unwrap_or(("", &callee));
        matches!(
            (qualifier, name),
            ("errors", "New" | "Wrap" | "Wrapf" | "WithMessage" | "WithMessagef")
                | ("fmt", "Errorf")
                | ("status", "Error" | "Errorf")
                | (_, "EqualError" | "ErrorContains" | "PanicsWithError" | "EqualErrorf" | "ErrorContainsf")
        ) || hintlens_syntax::ERROR_MESSAGE_CALLEES.contains(&name)
    }

    /// `x.f` as `kind`: the field is a use qualified by the operand's chain of names, or a member
    /// of an expression; the operand is read.
    /// The links of a chain (`a.b.c`) are read innermost first, in a loop: a chain nests as
    /// deep as it is long.
    fn selector(&mut self, node: Node<'t>, kind: UseKind) {
        let g = self.g;
        let mut chain = vec![node];
        let mut operand = self.field(node, g.f_operand);
        while let Some(o) = operand.filter(|o| o.kind_id() == g.selector_expression) {
            chain.push(o);
            operand = self.field(o, g.f_operand);
        }
        if let Some(head) = operand {
            self.visit(head);
        }
        for (i, link) in chain.iter().enumerate().rev() {
            let Some(field) = self.field(*link, g.f_field) else { continue };
            let link_kind = if i == 0 { kind } else { UseKind::Attribute };
            match self.field(*link, g.f_operand).and_then(|o| self.dotted(o)) {
                Some(qualifier) => self.push_use(field, link_kind, Some(qualifier)),
                None => self.push_use_bound(field, link_kind, None, Some(Binding::Receiver)),
            }
        }
    }

    /// `T{…}`: the type is instantiated; the keys of a struct literal name its fields.
    fn composite_literal(&mut self, node: Node<'t>) {
        let g = self.g;
        let ty = self.field(node, g.f_type);
        let (keys, elements) = match ty {
            Some(ty) if self.is_container(ty) => {
                self.ty(ty);
                (Keys::Expressions, self.element_keys(ty))
            }
            Some(ty) => {
                self.ty_as(ty, UseKind::Instantiation);
                (self.keys_of(ty), Keys::Fields(None))
            }
            None => (Keys::Fields(None), Keys::Fields(None)),
        };
        if let Some(body) = self.field(node, g.f_body) {
            self.literal_value(body, keys, elements);
        }
    }

    fn is_container(&self, ty: Node<'t>) -> bool {
        let g = self.g;
        let k = ty.kind_id();
        k == g.map_type || k == g.slice_type || k == g.array_type || k == g.implicit_length_array_type
    }

    /// How the keys of a literal of type `ty` read: the fields of a named type (qualified by its
    /// name as written), of an anonymous struct (the literal's own), or of an unknown type.
    fn keys_of(&self, mut ty: Node<'t>) -> Keys<'static> {
        let g = self.g;
        while ty.kind_id() == g.pointer_type {
            match Self::named_children(ty).next() {
                Some(inner) => ty = inner,
                None => return Keys::Fields(None),
            }
        }
        let k = ty.kind_id();
        if k == g.struct_type {
            return Keys::Anonymous;
        }
        let named = if k == g.generic_type { self.field(ty, g.f_type).unwrap_or(ty) } else { ty };
        match self.dotted(named) {
            Some(name) => Keys::Named(name),
            None => Keys::Fields(None),
        }
    }

    /// How the keys of a container literal's elided element literals read (`[]T{{K: v}}`).
    fn element_keys(&self, container: Node<'t>) -> Keys<'static> {
        let g = self.g;
        // The element type below every level of containers (`[][]map[K]T` → `T`), bounded:
        // keys are read that deep at most.
        let mut levels = 0;
        let mut container = container;
        let innermost = loop {
            let element = if container.kind_id() == g.map_type {
                self.field(container, g.f_value)
            } else {
                self.field(container, g.f_element)
            };
            match element {
                Some(element) if self.is_container(element) && levels < MAX_CHAIN => {
                    levels += 1;
                    container = element;
                }
                Some(element) if !self.is_container(element) => break self.keys_of(element),
                _ => break Keys::Fields(None),
            }
        };
        (0..levels).fold(innermost, |keys, _| Keys::Elements(Box::new(keys)))
    }

    /// `keys` say how this literal's keys read, `elements` how its elided element literals'.
    fn literal_value(&mut self, node: Node<'t>, keys: Keys<'_>, elements: Keys<'_>) {
        let g = self.g;
        self.nested(node, |s| {
            for element in Self::named_children(node) {
                let k = element.kind_id();
                if k == g.keyed_element {
                    let [key, value] = [s.field(element, g.f_key), s.field(element, g.f_value)];
                    if let Some(key) = key {
                        let name = Self::named_children(key).next().filter(|n| n.kind_id() == g.identifier);
                        match (&keys, name) {
                            (Keys::Fields(owner), Some(name)) => {
                                s.push_use(name, UseKind::KeywordArgument, owner.map(str::to_owned));
                            }
                            (Keys::Named(owner), Some(name)) => {
                                s.push_use(name, UseKind::KeywordArgument, Some(owner.clone()));
                            }
                            // An anonymous struct's field: the literal's own name.
                            (Keys::Anonymous, Some(_)) => {}
                            _ => s.literal_element(key, &elements),
                        }
                    }
                    if let Some(value) = value {
                        s.literal_element(value, &elements);
                    }
                } else if k == g.literal_element {
                    s.literal_element(element, &elements);
                } else {
                    s.visit(element);
                }
            }
        });
    }

    /// An element: an expression, or a literal value whose type is elided, whose keys read as
    /// `elided` says.
    fn literal_element(&mut self, node: Node<'t>, elided: &Keys<'_>) {
        for child in Self::named_children(node) {
            if child.kind_id() == self.g.literal_value {
                let (keys, elements) = match elided {
                    Keys::Elements(inner) => (Keys::Expressions, (**inner).clone()),
                    other => (other.clone(), Keys::Fields(None)),
                };
                self.literal_value(child, keys, elements);
            } else {
                self.visit(child);
            }
        }
    }

    /// `a, b := …`, `for k, v := range m`: the names on the left bind.
    fn binding_statement(&mut self, node: Node<'t>) {
        let g = self.g;
        let left = self.field(node, g.f_left);
        let declares = node.kind_id() == g.short_var_declaration || self.has_token(node, b":=");
        if let Some(left) = left {
            if declares {
                for name in Self::named_children(left) {
                    if name.kind_id() == g.identifier {
                        self.scopes.bind(self.bytes(name), Binding::Local);
                    } else {
                        self.visit(name);
                    }
                }
            } else {
                self.visit(left);
            }
        }
        for child in Self::named_children(node).filter(|c| Some(*c) != left) {
            self.visit(child);
        }
    }

    fn has_token(&self, node: Node<'t>, token: &[u8]) -> bool {
        (0..node.child_count()).filter_map(|i| node.child(i)).any(|c| !c.is_named() && self.bytes(c) == token)
    }

    fn type_switch(&mut self, node: Node<'t>) {
        let g = self.g;
        let scope = self.scopes.open(ScopeKind::Function);
        let outer_scope = self.scopes.enter(scope);
        if let Some(alias) = self.field(node, g.f_alias) {
            for name in Self::named_children(alias).filter(|n| n.kind_id() == g.identifier) {
                self.scopes.bind(self.bytes(name), Binding::Local);
            }
        }
        let alias = self.field(node, g.f_alias);
        for child in Self::named_children(node).filter(|c| Some(*c) != alias) {
            self.visit(child);
        }
        self.scopes.leave(outer_scope);
    }

    // ----- types -----

    fn ty(&mut self, node: Node<'t>) {
        self.ty_as(node, UseKind::Type);
    }

    /// A type: the names it references are uses of `kind` (`Type`, or `Instantiation` for a
    /// composite literal's own type); type arguments and element types are `Type`.
    fn ty_as(&mut self, node: Node<'t>, kind: UseKind) {
        let g = self.g;
        self.nested(node, |s| {
            let k = node.kind_id();
            if k == g.type_identifier {
                s.push_use(node, kind, None);
            } else if k == g.qualified_type {
                if let Some(package) = s.field(node, g.f_package) {
                    s.push_use(package, UseKind::Name, None);
                    if let Some(name) = s.field(node, g.f_name) {
                        s.push_use(name, kind, Some(s.text(package)));
                    }
                }
            } else if k == g.generic_type {
                if let Some(base) = s.field(node, g.f_type) {
                    s.ty_as(base, kind);
                }
                if let Some(arguments) = s.field(node, g.f_type_arguments) {
                    s.ty(arguments);
                }
            } else if k == g.struct_type || k == g.interface_type {
                // An anonymous struct or interface: its members' types are uses.
                s.members(Some(node), None, None);
            } else if k == g.identifier || k == g.selector_expression || k == g.call_expression {
                // Array lengths and error recovery: expressions in type positions.
                s.visit(node);
            } else if k == g.parameter_list {
                s.parameters(node);
            } else if k == g.function_type {
                for part in [s.field(node, g.f_parameters), s.field(node, g.f_result)].into_iter().flatten() {
                    s.parameters(part);
                }
            } else if k == g.comment {
            } else {
                for child in Self::named_children(node) {
                    s.ty(child);
                }
            }
        });
    }

    fn string(&mut self, node: Node<'t>) {
        let value = string_content(self.bytes(node));
        self.index.strings.push(StringLiteral { value, span: span_of(node), error_context: self.error_args > 0 });
    }
}

/// A string literal's content: quotes removed, escapes left as written.
fn string_content(literal: &[u8]) -> String {
    let text = String::from_utf8_lossy(literal);
    let inner = text.strip_prefix(['"', '`']).unwrap_or(&text);
    let inner = inner.strip_suffix(['"', '`']).unwrap_or(inner);
    inner.to_owned()
}

/// A field id as `children_by_field_id` takes it (ids are checked non-zero at start-up).
fn nz(id: u16) -> std::num::NonZeroU16 {
    std::num::NonZeroU16::new(id).expect("field ids are non-zero")
}

/// Numeric kind and field ids of tree-sitter-go, resolved once per process.
struct Grammar {
    identifier: u16,
    type_identifier: u16,
    field_identifier: u16,
    package_identifier: u16,
    comment: u16,
    package_clause: u16,
    import_declaration: u16,
    import_spec: u16,
    import_spec_list: u16,
    function_declaration: u16,
    method_declaration: u16,
    type_declaration: u16,
    type_alias: u16,
    const_declaration: u16,
    var_declaration: u16,
    var_spec_list: u16,
    parameter_list: u16,
    parameter_declaration: u16,
    variadic_parameter_declaration: u16,
    type_parameter_list: u16,
    type_parameter_declaration: u16,
    struct_type: u16,
    interface_type: u16,
    field_declaration_list: u16,
    field_declaration: u16,
    method_elem: u16,
    pointer_type: u16,
    parenthesized_type: u16,
    generic_type: u16,
    qualified_type: u16,
    slice_type: u16,
    map_type: u16,
    array_type: u16,
    implicit_length_array_type: u16,
    channel_type: u16,
    function_type: u16,
    call_expression: u16,
    binary_expression: u16,
    selector_expression: u16,
    composite_literal: u16,
    literal_value: u16,
    literal_element: u16,
    keyed_element: u16,
    func_literal: u16,
    short_var_declaration: u16,
    range_clause: u16,
    type_switch_statement: u16,
    type_case: u16,
    type_assertion_expression: u16,
    type_conversion_expression: u16,
    interpreted_string_literal: u16,
    raw_string_literal: u16,
    labeled_statement: u16,
    label_name: u16,
    block: u16,
    if_statement: u16,
    for_statement: u16,
    expression_switch_statement: u16,
    expression_case: u16,
    default_case: u16,
    communication_case: u16,
    f_name: u16,
    f_type: u16,
    f_value: u16,
    f_element: u16,
    f_path: u16,
    f_body: u16,
    f_parameters: u16,
    f_result: u16,
    f_receiver: u16,
    f_type_parameters: u16,
    f_type_arguments: u16,
    f_function: u16,
    f_arguments: u16,
    f_operand: u16,
    f_field: u16,
    f_package: u16,
    f_key: u16,
    f_left: u16,
    f_right: u16,
    f_alias: u16,
}

fn grammar() -> &'static Grammar {
    static GRAMMAR: OnceLock<Grammar> = OnceLock::new();
    GRAMMAR.get_or_init(|| {
        let language: Language = tree_sitter_go::LANGUAGE.into();
        let kind = |name: &str| {
            let id = language.id_for_node_kind(name, true);
            assert_ne!(id, 0, "tree-sitter-go has no node kind `{name}`");
            id
        };
        let field = |name: &str| {
            language
                .field_id_for_name(name)
                .map(std::num::NonZeroU16::get)
                .unwrap_or_else(|| panic!("tree-sitter-go has no field `{name}`"))
        };
        Grammar {
            identifier: kind("identifier"),
            type_identifier: kind("type_identifier"),
            field_identifier: kind("field_identifier"),
            package_identifier: kind("package_identifier"),
            comment: kind("comment"),
            package_clause: kind("package_clause"),
            import_declaration: kind("import_declaration"),
            import_spec: kind("import_spec"),
            import_spec_list: kind("import_spec_list"),
            function_declaration: kind("function_declaration"),
            method_declaration: kind("method_declaration"),
            type_declaration: kind("type_declaration"),
            type_alias: kind("type_alias"),
            const_declaration: kind("const_declaration"),
            var_declaration: kind("var_declaration"),
            var_spec_list: kind("var_spec_list"),
            parameter_list: kind("parameter_list"),
            parameter_declaration: kind("parameter_declaration"),
            variadic_parameter_declaration: kind("variadic_parameter_declaration"),
            type_parameter_list: kind("type_parameter_list"),
            type_parameter_declaration: kind("type_parameter_declaration"),
            struct_type: kind("struct_type"),
            interface_type: kind("interface_type"),
            field_declaration_list: kind("field_declaration_list"),
            field_declaration: kind("field_declaration"),
            method_elem: kind("method_elem"),
            pointer_type: kind("pointer_type"),
            parenthesized_type: kind("parenthesized_type"),
            generic_type: kind("generic_type"),
            qualified_type: kind("qualified_type"),
            slice_type: kind("slice_type"),
            map_type: kind("map_type"),
            array_type: kind("array_type"),
            implicit_length_array_type: kind("implicit_length_array_type"),
            channel_type: kind("channel_type"),
            function_type: kind("function_type"),
            call_expression: kind("call_expression"),
            binary_expression: kind("binary_expression"),
            selector_expression: kind("selector_expression"),
            composite_literal: kind("composite_literal"),
            literal_value: kind("literal_value"),
            literal_element: kind("literal_element"),
            keyed_element: kind("keyed_element"),
            func_literal: kind("func_literal"),
            short_var_declaration: kind("short_var_declaration"),
            range_clause: kind("range_clause"),
            type_switch_statement: kind("type_switch_statement"),
            type_case: kind("type_case"),
            type_assertion_expression: kind("type_assertion_expression"),
            type_conversion_expression: kind("type_conversion_expression"),
            interpreted_string_literal: kind("interpreted_string_literal"),
            raw_string_literal: kind("raw_string_literal"),
            labeled_statement: kind("labeled_statement"),
            label_name: kind("label_name"),
            block: kind("block"),
            if_statement: kind("if_statement"),
            for_statement: kind("for_statement"),
            expression_switch_statement: kind("expression_switch_statement"),
            expression_case: kind("expression_case"),
            default_case: kind("default_case"),
            communication_case: kind("communication_case"),
            f_name: field("name"),
            f_type: field("type"),
            f_value: field("value"),
            f_element: field("element"),
            f_path: field("path"),
            f_body: field("body"),
            f_parameters: field("parameters"),
            f_result: field("result"),
            f_receiver: field("receiver"),
            f_type_parameters: field("type_parameters"),
            f_type_arguments: field("type_arguments"),
            f_function: field("function"),
            f_arguments: field("arguments"),
            f_operand: field("operand"),
            f_field: field("field"),
            f_package: field("package"),
            f_key: field("key"),
            f_left: field("left"),
            f_right: field("right"),
            f_alias: field("alias"),
        }
    })
}
