//! One walk over a Go syntax tree: definitions, uses, imports, strings, and the bindings of
//! every use.
//!
//! The walk recurses over named children, matching on the node's kind ([`K`], mapped once by
//! the toolkit's `KindTable`); below [`MAX_DEPTH`] levels it reads the rest flat, so that no input
//! nests deeply enough to exhaust the stack. What nests as deep as it is long — chains of
//! selectors (`a.b.c`), of binary operators (`"a" + "b" + …`, hundreds deep in protoc's
//! output), of pointer and container types — is read in loops instead, so real code stays far
//! above the limit (at most 47 levels in flipt's and vuls' Go files).

use crate::package_name_of;
use hintlens_syntax::scope::{MODULE, ScopeKind};
use hintlens_syntax::{Binding, DefId, DefKind, FileIndex, Import, UseKind, quoted_path_components};
use hintlens_tree::{Builder, Conventions, KindTable, TreeWalk, field, fields, named_children, unquote};
use tree_sitter::{Node, Tree};

/// Deepest nesting of container types (`[][]map[K]T`) read as one.
const MAX_NESTED_CONTAINERS: usize = 64;

pub(crate) fn extract(src: &[u8], tree: &Tree) -> FileIndex {
    let root = tree.root_node();
    let g = grammar();
    let conventions = Conventions { blank: "_", keyword_members: Some(DefKind::Field), ..Conventions::default() };
    let b = Builder::new(src, conventions)
        .flat(&[g.identifier, g.type_identifier, g.field_identifier], &[g.comment])
        .plain_name(g.identifier)
        .type_name(g.type_identifier)
        .chains(
            &[g.identifier, g.package_identifier, g.type_identifier],
            &[(g.selector_expression, g.f_operand, g.f_field), (g.qualified_type, g.f_package, g.f_name)],
        );
    let mut walk = Walk { g, kinds: kinds(), b, in_body: false, error_args: 0 };
    walk.source_file(root);
    walk.b.finish(root)
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
    kinds: &'static KindTable<K>,
    b: Builder<'t>,
    /// Inside a function body: declarations are locals, not definitions.
    in_body: bool,
    /// How many enclosing calls make strings error messages (`errors.New`, `fmt.Errorf`…).
    error_args: u32,
}

impl<'t> TreeWalk<'t> for Walk<'t> {
    /// Within a 1 MiB stack even in a debug build.
    const MAX_DEPTH: u32 = 128;

    fn visit_kind(&mut self, node: Node<'t>) {
        match self.kinds.of(node) {
            K::Call => self.call(node),
            K::Binary => self.binary(node),
            K::Selector => self.selector(node, UseKind::Attribute),
            K::CompositeLiteral => self.composite_literal(node),
            K::FuncLiteral => self.callable(node, None),
            K::ShortVarDeclaration | K::RangeClause => self.binding_statement(node),
            K::TypeSwitch => self.type_switch(node),
            K::TypeCase => {
                let types = fields(node, self.g.f_type);
                for child in named_children(node) {
                    if types.contains(&child) { self.ty(child) } else { self.visit(child) }
                }
            }
            K::TypeAssertion => {
                self.visit_field(node, self.g.f_operand);
                self.with(field(node, self.g.f_type), Self::ty);
            }
            K::String => self.string(node),
            K::TypeIdentifier | K::QualifiedType | K::GenericType | K::PointerType => self.ty(node),
            K::FunctionDeclaration
            | K::MethodDeclaration
            | K::TypeDeclaration
            | K::ConstDeclaration
            | K::VarDeclaration => self.declaration_or_statement(node, None),
            K::Block => self.in_scope(ScopeKind::Block, |s| s.visit_children(node)),
            K::Comment | K::Unnamed => {}
            _ => self.visit_children(node),
        }
    }

    /// A type: the names it references are uses of `kind` (`Type`, or `Instantiation` for a
    /// composite literal's own type); type arguments and element types are `Type`.
    fn visit_type(&mut self, node: Node<'t>, kind: UseKind) {
        let g = self.g;
        match self.kinds.of(node) {
            K::QualifiedType => {
                if let Some(package) = field(node, g.f_package) {
                    self.b.use_name(package, UseKind::Name, None);
                    if let Some(name) = field(node, g.f_name) {
                        self.b.use_name(name, kind, Some(self.b.text(package)));
                    }
                }
            }
            K::GenericType => {
                if let Some(base) = field(node, g.f_type) {
                    self.ty_as(base, kind);
                }
                self.with(field(node, g.f_type_arguments), Self::ty);
            }
            // An anonymous struct or interface: its members' types are uses.
            K::StructType | K::InterfaceType => self.members(Some(node), None, None),
            // Array lengths and error recovery: expressions in type positions.
            K::Identifier | K::Selector | K::Call => self.visit(node),
            K::ParameterList => self.parameters(node),
            K::FunctionType => {
                for part in [field(node, g.f_parameters), field(node, g.f_result)].into_iter().flatten() {
                    self.parameters(part);
                }
            }
            K::Comment => {}
            _ => {
                for child in named_children(node) {
                    self.ty(child);
                }
            }
        }
    }

    fn builder(&mut self) -> &mut Builder<'t> {
        &mut self.b
    }
}

impl<'t> Walk<'t> {
    // ----- the file -----

    fn source_file(&mut self, root: Node<'t>) {
        // Top-level declarations, each with the comment block just above it as its doc.
        for (child, doc) in self.b.documented(named_children(root), self.g.comment) {
            self.top_level(child, doc);
        }
    }

    fn top_level(&mut self, node: Node<'t>, doc: Option<String>) {
        match self.kinds.of(node) {
            K::PackageClause => {
                if let Some(name) = named_children(node).next() {
                    self.b.index.package = Some(self.b.text(name));
                    if self.b.index.doc.is_none() {
                        self.b.index.doc = doc;
                    }
                }
            }
            K::ImportDeclaration => self.import_declaration(node),
            _ => self.declaration_or_statement(node, doc),
        }
    }

    /// A declaration (at the top level or in a body), or any other statement.
    fn declaration_or_statement(&mut self, node: Node<'t>, doc: Option<String>) {
        match self.kinds.of(node) {
            K::FunctionDeclaration => self.function(node, doc),
            K::MethodDeclaration => self.method(node, doc),
            K::TypeDeclaration => self.grouped(node, doc, |s, spec, doc| s.type_spec(spec, doc)),
            K::ConstDeclaration => self.grouped(node, doc, |s, spec, doc| s.value_spec(spec, doc, "const")),
            K::VarDeclaration => self.grouped(node, doc, |s, spec, doc| s.value_spec(spec, doc, "var")),
            _ => self.visit(node),
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
        let mut specs = Vec::new();
        let mut stack = vec![node];
        // Specs sit directly in the declaration or in a `var_spec_list`.
        while let Some(current) = stack.pop() {
            for child in named_children(current).collect::<Vec<_>>().into_iter().rev() {
                if self.kinds.of(child) == K::VarSpecList {
                    stack.push(child);
                } else {
                    specs.push(child);
                }
            }
        }
        specs.reverse();
        let specs = self.b.documented(specs.into_iter(), self.g.comment);
        let single = specs.len() == 1;
        for (spec, own) in specs {
            let doc = if single { own.or_else(|| doc.clone()) } else { own };
            each(self, spec, doc);
        }
    }

    // ----- imports -----

    fn import_declaration(&mut self, node: Node<'t>) {
        let mut stack = vec![node];
        while let Some(current) = stack.pop() {
            for child in named_children(current) {
                match self.kinds.of(child) {
                    K::ImportSpec => self.import_spec(child),
                    K::ImportSpecList => stack.push(child),
                    _ => {}
                }
            }
        }
    }

    fn import_spec(&mut self, node: Node<'t>) {
        let g = self.g;
        let Some(path_node) = field(node, g.f_path) else { return };
        let name = field(node, g.f_name);
        let path = string_content(self.b.bytes(path_node));
        // Each path component is a use of the package directory it names.
        let mut prefix = String::new();
        for (start, end, component) in quoted_path_components(self.b.src, path_node.start_byte(), path_node.end_byte())
        {
            if component.is_empty() {
                continue;
            }
            let qualifier = (!prefix.is_empty()).then(|| prefix.clone());
            let span = self.b.span_within(path_node, start, end);
            self.b.use_spelled(component.clone(), span, UseKind::ImportModule, qualifier, Some(Binding::Import));
            if !prefix.is_empty() {
                prefix.push('/');
            }
            prefix.push_str(&component);
        }
        let written = name.map(|n| self.b.text(n));
        let wildcard = written.as_deref() == Some(".");
        let alias = match written.as_deref() {
            Some(".") => None,
            Some(alias) => Some(alias.to_owned()),
            None => Some(package_name_of(&path).to_owned()),
        };
        if let Some(alias) = alias.as_deref().filter(|a| *a != "_") {
            self.b.scopes.bind_in(MODULE, alias.as_bytes(), Binding::Import);
        }
        self.b.index.imports.push(Import {
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
        let name = field(node, g.f_name);
        if self.in_body {
            // Not valid Go, but error recovery may produce it: read it as a body.
            return self.visit(node);
        }
        let id = name.map(|name| {
            self.b.scopes.bind_in(MODULE, self.b.bytes(name), Binding::Definition);
            let signature = self.b.header(node, &[g.f_result, g.f_parameters]);
            self.b.define(name, self.b.text(name), DefKind::Function, node, signature, None, doc)
        });
        let _ = id;
        self.callable(node, None);
    }

    fn method(&mut self, node: Node<'t>, doc: Option<String>) {
        let g = self.g;
        let receiver_type = field(node, g.f_receiver).and_then(|r| self.receiver_type(r));
        if let (Some(name), false) = (field(node, g.f_name), self.in_body) {
            let signature = self.b.header(node, &[g.f_result, g.f_parameters]);
            let method = self.b.text(name);
            // The receiver's type, when this file declares it (before the method).
            let owner = receiver_type.as_deref();
            let parent = owner.and_then(|t| {
                self.b.index.definitions.iter().position(|d| d.parent.is_none() && d.name == t && d.kind.is_type())
            });
            let local_name = match owner {
                Some(t) => format!("{t}.{method}"),
                None => method,
            };
            self.b.define(name, local_name, DefKind::Method, node, signature, parent.map(|p| p as DefId), doc);
        }
        self.callable(node, field(node, g.f_receiver));
    }

    /// The type name a receiver declares (`Store` of `(s *Store)` or `(s Store[T])`).
    fn receiver_type(&self, receiver: Node<'t>) -> Option<String> {
        let g = self.g;
        let param = named_children(receiver).find(|c| self.kinds.of(*c) == K::Parameter)?;
        let mut ty = field(param, g.f_type)?;
        loop {
            match self.kinds.of(ty) {
                K::PointerType | K::ParenthesizedType => ty = named_children(ty).next()?,
                K::GenericType => ty = field(ty, g.f_type)?,
                K::TypeIdentifier => return Some(self.b.text(ty)),
                _ => return None,
            }
        }
    }

    /// A function, method or function literal: its parameters, results and type parameters bind
    /// in its scope; its body is read as statements.
    fn callable(&mut self, node: Node<'t>, receiver: Option<Node<'t>>) {
        let g = self.g;
        self.in_scope(ScopeKind::Block, |s| {
            let was_in_body = std::mem::replace(&mut s.in_body, true);
            let parts =
                [receiver, field(node, g.f_type_parameters), field(node, g.f_parameters), field(node, g.f_result)];
            for part in parts.into_iter().flatten() {
                s.parameters(part);
            }
            s.visit_field(node, g.f_body);
            s.in_body = was_in_body;
        });
    }

    /// A parameter list (or a result type, or type parameters): names bind, types are uses.
    fn parameters(&mut self, node: Node<'t>) {
        let g = self.g;
        if !matches!(self.kinds.of(node), K::ParameterList | K::TypeParameterList) {
            return self.ty(node);
        }
        for param in named_children(node) {
            match self.kinds.of(param) {
                K::Parameter | K::OtherParameter => {
                    let ty = field(param, g.f_type).and_then(|t| self.named_type(t));
                    for name in fields(param, g.f_name) {
                        self.bind_local(name, ty);
                    }
                    self.with(field(param, g.f_type), Self::ty);
                }
                K::Comment => {}
                _ => self.ty(param),
            }
        }
    }

    /// `name [T any] <type>` of a `type` declaration.
    fn type_spec(&mut self, spec: Node<'t>, doc: Option<String>) {
        let g = self.g;
        let Some(name) = field(spec, g.f_name) else { return self.visit(spec) };
        let ty = field(spec, g.f_type);
        let alias = self.kinds.of(spec) == K::TypeAlias;
        if self.in_body {
            // A local type: the function's own.
            self.b.bind(name, Binding::Local);
            if let Some(ty) = ty {
                self.ty(ty);
            }
            return;
        }
        self.b.scopes.bind_in(MODULE, self.b.bytes(name), Binding::Definition);
        let (kind, body) = match ty.map(|t| self.kinds.of(t)) {
            _ if alias => (DefKind::TypeAlias, None),
            Some(K::StructType) => (DefKind::Struct, ty),
            Some(K::InterfaceType) => (DefKind::Interface, ty),
            _ => (DefKind::Type, None),
        };
        let header_end = field(spec, g.f_type_parameters).unwrap_or(name).end_byte();
        let signature = match (kind, ty) {
            (DefKind::Struct, _) => format!("type {} struct", self.b.flat_text(spec.start_byte(), header_end)),
            (DefKind::Interface, _) => format!("type {} interface", self.b.flat_text(spec.start_byte(), header_end)),
            _ => format!("type {}", self.b.flat_text(spec.start_byte(), spec.end_byte())),
        };
        let name_text = self.b.text(name);
        let id = self.b.define(name, name_text.clone(), kind, spec, signature, None, doc);
        if let Some(params) = field(spec, g.f_type_parameters) {
            self.in_scope(ScopeKind::Block, |s| {
                s.parameters(params);
                s.members(body, ty, Some((id, &name_text)));
            });
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
        let items: Vec<Node<'t>> = if self.kinds.of(body) == K::StructType {
            named_children(body)
                .filter(|c| self.kinds.of(*c) == K::FieldDeclarationList)
                .flat_map(named_children)
                .collect()
        } else {
            named_children(body).collect()
        };
        for (item, doc) in self.b.documented(items.into_iter(), g.comment) {
            let k = self.kinds.of(item);
            if k == K::FieldDeclaration {
                self.field_declaration(item, owner, doc);
            } else if k == K::MethodElem {
                if let (Some(name), Some((owner, owner_name))) = (field(item, g.f_name), owner) {
                    let signature = self.b.flat_text(item.start_byte(), item.end_byte());
                    let local = format!("{owner_name}.{}", self.b.text(name));
                    self.b.define(name, local, DefKind::Method, item, signature, Some(owner), doc);
                }
                self.in_scope(ScopeKind::Block, |s| {
                    for part in [field(item, g.f_parameters), field(item, g.f_result)].into_iter().flatten() {
                        s.parameters(part);
                    }
                });
            } else {
                // Embedded interfaces and type constraints.
                self.ty(item);
            }
        }
    }

    fn field_declaration(&mut self, item: Node<'t>, owner: Option<(DefId, &str)>, doc: Option<String>) {
        let g = self.g;
        let ty = field(item, g.f_type);
        let Some((owner, owner_name)) = owner else {
            if let Some(ty) = ty {
                self.ty(ty);
            }
            return;
        };
        let type_text = ty.map(|t| self.b.flat_text(t.start_byte(), t.end_byte())).unwrap_or_default();
        let names = fields(item, g.f_name);
        if names.is_empty() {
            // An embedded field, named by its type: `sync.Mutex` is field `Mutex`, `*Config`
            // field `Config` (the `*` lies before the type node, outside it).
            if let (Some(ty), Some(name)) = (ty, ty.and_then(|t| self.embedded_name(t))) {
                let local = format!("{owner_name}.{}", self.b.text(name));
                let signature = self.b.flat_text(item.start_byte(), ty.end_byte());
                self.b.define(name, local, DefKind::Field, item, signature, Some(owner), doc.clone());
            }
        }
        for name in names {
            let field = self.b.text(name);
            let signature = format!("{field} {type_text}");
            let local = format!("{owner_name}.{field}");
            self.b.define(name, local, DefKind::Field, item, signature, Some(owner), doc.clone());
        }
        if let Some(ty) = ty {
            self.ty(ty);
        }
    }

    /// The type name an embedded field takes its name from.
    fn embedded_name(&self, mut ty: Node<'t>) -> Option<Node<'t>> {
        let g = self.g;
        loop {
            match self.kinds.of(ty) {
                K::TypeIdentifier => return Some(ty),
                K::PointerType => ty = named_children(ty).next()?,
                K::QualifiedType => return field(ty, g.f_name),
                K::GenericType => ty = field(ty, g.f_type)?,
                _ => return None,
            }
        }
    }

    /// A `const` or `var` spec: package-level names are definitions, local ones bind.
    fn value_spec(&mut self, spec: Node<'t>, doc: Option<String>, keyword: &str) {
        let g = self.g;
        let ty = field(spec, g.f_type);
        let names = fields(spec, g.f_name);
        let type_text = ty.map(|t| format!(" {}", self.b.flat_text(t.start_byte(), t.end_byte()))).unwrap_or_default();
        if self.in_body {
            // A local's scope begins after its spec: `info = info.Flipt{}` reads the package.
            self.with(ty, Self::ty);
            self.visit_field(spec, g.f_value);
            let values: Vec<Node<'t>> = field(spec, g.f_value).into_iter().flat_map(named_children).collect();
            let typed = match (ty, values.as_slice()) {
                (Some(ty), _) => self.named_type(ty),
                (None, [value]) if names.len() == 1 => self.literal_type(*value),
                _ => None,
            };
            for name in names {
                self.bind_local(name, typed);
            }
            return;
        }
        for name in names {
            self.b.scopes.bind_in(MODULE, self.b.bytes(name), Binding::Local);
            let kind = if keyword == "const" { DefKind::Constant } else { DefKind::Variable };
            let signature = format!("{keyword} {}{type_text}", self.b.text(name));
            self.b.define(name, self.b.text(name), kind, spec, signature, None, doc.clone());
        }
        self.with(ty, Self::ty);
        self.visit_field(spec, g.f_value);
    }

    // ----- statements and expressions -----

    /// `a + b + c` nests to the left as deep as it is long (generated code concatenates
    /// hundreds of strings so): its left spine is read in a loop, each right operand after the
    /// operands before it.
    fn binary(&mut self, node: Node<'t>) {
        let g = self.g;
        let mut spine = vec![node];
        let mut left = field(node, g.f_left);
        while let Some(l) = left.filter(|l| self.kinds.of(*l) == K::Binary) {
            spine.push(l);
            left = field(l, g.f_left);
        }
        if let Some(l) = left {
            self.visit(l);
        }
        for b in spine.iter().rev() {
            self.visit_field(*b, g.f_right);
        }
    }

    /// `f(…)`, `pkg.F(…)`, `x.M(…)`, conversions `T(x)`.
    fn call(&mut self, node: Node<'t>) {
        let g = self.g;
        let function = field(node, g.f_function);
        let error = function.is_some_and(|f| self.is_error_callee(f));
        if let Some(function) = function {
            match self.kinds.of(function) {
                K::Identifier => self.b.use_name(function, UseKind::Call, None),
                K::Selector => self.selector(function, UseKind::Call),
                _ => self.visit(function),
            }
        }
        self.with(field(node, g.f_type_arguments), Self::ty);
        if let Some(arguments) = field(node, g.f_arguments) {
            let expected = function.and_then(|f| self.mocked_method_argument(f));
            self.error_args += u32::from(error);
            for (i, argument) in named_children(arguments).enumerate() {
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
        if self.kinds.of(function) != K::Selector {
            return None;
        }
        match self.b.bytes(field(function, self.g.f_field)?) {
            b"On" | b"MethodCalled" => Some(0),
            b"AssertCalled" | b"AssertNotCalled" | b"AssertNumberOfCalls" => Some(1),
            _ => None,
        }
    }

    /// A method name in a string that testify looks up by reflection (`m.On("Fetch", …)`): a
    /// call of that method on a receiver whose type is unknown, as the mocked code will make it.
    fn mocked_method(&mut self, argument: Node<'t>) {
        if self.kinds.of(argument) != K::String {
            return;
        }
        let literal = self.b.bytes(argument);
        let Some(name) = literal.get(1..literal.len().saturating_sub(1)) else { return };
        let identifier = name.first().is_some_and(|b| b.is_ascii_alphabetic() || *b == b'_')
            && name.iter().all(|b| b.is_ascii_alphanumeric() || *b == b'_');
        if !identifier || literal.len() < 2 {
            return;
        }
        let (start, end) = (argument.start_byte() + 1, argument.end_byte() - 1);
        let span = self.b.span_within(argument, start, end);
        self.b.use_spelled(
            String::from_utf8_lossy(name).into_owned(),
            span,
            UseKind::Call,
            None,
            Some(Binding::Receiver),
        );
    }

    fn is_type_node(&self, node: Node<'t>) -> bool {
        matches!(
            self.kinds.of(node),
            K::ListType
                | K::MapType
                | K::ChannelType
                | K::StructType
                | K::InterfaceType
                | K::FunctionType
                | K::PointerType
        )
    }

    /// Whether a callee makes its string arguments error messages.
    fn is_error_callee(&self, function: Node<'t>) -> bool {
        let Some(callee) = self.b.dotted(function) else { return false };
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
        let mut operand = field(node, g.f_operand);
        while let Some(o) = operand.filter(|o| self.kinds.of(*o) == K::Selector) {
            chain.push(o);
            operand = field(o, g.f_operand);
        }
        if let Some(head) = operand {
            self.visit(head);
        }
        for (i, link) in chain.iter().enumerate().rev() {
            let Some(name) = field(*link, g.f_field) else { continue };
            let link_kind = if i == 0 { kind } else { UseKind::Attribute };
            match field(*link, g.f_operand).and_then(|o| self.b.dotted(o)) {
                Some(qualifier) => self.b.use_name(name, link_kind, Some(qualifier)),
                None => self.b.use_bound(name, link_kind, None, Some(Binding::Receiver)),
            }
        }
    }

    /// `T{…}`: the type is instantiated; the keys of a struct literal name its fields.
    fn composite_literal(&mut self, node: Node<'t>) {
        let g = self.g;
        let ty = field(node, g.f_type);
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
        if let Some(body) = field(node, g.f_body) {
            self.literal_value(body, keys, elements);
        }
    }

    fn is_container(&self, ty: Node<'t>) -> bool {
        matches!(self.kinds.of(ty), K::MapType | K::ListType | K::ImplicitLengthArrayType)
    }

    /// How the keys of a literal of type `ty` read: the fields of a named type (qualified by its
    /// name as written), of an anonymous struct (the literal's own), or of an unknown type.
    fn keys_of(&self, mut ty: Node<'t>) -> Keys<'static> {
        let g = self.g;
        while self.kinds.of(ty) == K::PointerType {
            match named_children(ty).next() {
                Some(inner) => ty = inner,
                None => return Keys::Fields(None),
            }
        }
        let k = self.kinds.of(ty);
        if k == K::StructType {
            return Keys::Anonymous;
        }
        let named = if k == K::GenericType { field(ty, g.f_type).unwrap_or(ty) } else { ty };
        match self.b.dotted(named) {
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
            let element = if self.kinds.of(container) == K::MapType {
                field(container, g.f_value)
            } else {
                field(container, g.f_element)
            };
            match element {
                Some(element) if self.is_container(element) && levels < MAX_NESTED_CONTAINERS => {
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
            for element in named_children(node) {
                let k = s.kinds.of(element);
                if k == K::KeyedElement {
                    let [key, value] = [field(element, g.f_key), field(element, g.f_value)];
                    if let Some(key) = key {
                        let name = named_children(key).next().filter(|n| s.kinds.of(*n) == K::Identifier);
                        match (&keys, name) {
                            (Keys::Fields(owner), Some(name)) => {
                                s.b.use_name(name, UseKind::KeywordArgument, owner.map(str::to_owned));
                            }
                            (Keys::Named(owner), Some(name)) => {
                                s.b.use_name(name, UseKind::KeywordArgument, Some(owner.clone()));
                            }
                            // An anonymous struct's field: the literal's own name.
                            (Keys::Anonymous, Some(_)) => {}
                            _ => s.literal_element(key, &elements),
                        }
                    }
                    if let Some(value) = value {
                        s.literal_element(value, &elements);
                    }
                } else if k == K::LiteralElement {
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
        for child in named_children(node) {
            if self.kinds.of(child) == K::LiteralValue {
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
        let left = field(node, g.f_left);
        let declares = self.kinds.of(node) == K::ShortVarDeclaration || self.has_token(node, b":=");
        if !declares {
            self.visit_children(node);
            return;
        }
        // The right side first: the names declared are bound after the statement (`x := x.F()`
        // reads the `x` around it).
        for child in named_children(node).filter(|c| Some(*c) != left) {
            self.visit(child);
        }
        let names: Vec<Node<'t>> = left.into_iter().flat_map(named_children).collect();
        let values: Vec<Node<'t>> = field(node, g.f_right).into_iter().flat_map(named_children).collect();
        let typed = match (names.as_slice(), values.as_slice()) {
            ([_], [value]) if self.kinds.of(node) == K::ShortVarDeclaration => self.literal_type(*value),
            _ => None,
        };
        for name in names {
            if self.kinds.of(name) == K::Identifier {
                self.bind_local(name, typed);
            } else {
                self.visit(name);
            }
        }
    }

    /// Binds a local, as holding a value of the type `ty` names when the file says so.
    fn bind_local(&mut self, name: Node<'t>, ty: Option<Node<'t>>) {
        match ty {
            Some(ty) => self.b.bind_typed(name, ty),
            None => self.b.bind(name, Binding::Local),
        }
    }

    /// The package's own type a declared type names: `T`, `*T` (a qualified, generic or
    /// composite type says nothing a member use needs).
    fn named_type(&self, mut ty: Node<'t>) -> Option<Node<'t>> {
        loop {
            match self.kinds.of(ty) {
                K::TypeIdentifier => return Some(ty),
                K::PointerType => ty = named_children(ty).next()?,
                _ => return None,
            }
        }
    }

    /// The package's own type a value is a literal of: `T{…}`, `&T{…}`.
    fn literal_type(&self, mut value: Node<'t>) -> Option<Node<'t>> {
        let g = self.g;
        if self.kinds.of(value) == K::Unary && self.has_token(value, b"&") {
            value = field(value, g.f_operand)?;
        }
        if self.kinds.of(value) != K::CompositeLiteral {
            return None;
        }
        field(value, g.f_type).filter(|&ty| self.kinds.of(ty) == K::TypeIdentifier)
    }

    fn has_token(&self, node: Node<'t>, token: &[u8]) -> bool {
        (0..node.child_count()).filter_map(|i| node.child(i)).any(|c| !c.is_named() && self.b.bytes(c) == token)
    }

    fn type_switch(&mut self, node: Node<'t>) {
        let g = self.g;
        self.in_scope(ScopeKind::Block, |s| {
            let alias = field(node, g.f_alias);
            for name in alias.into_iter().flat_map(named_children).filter(|n| s.kinds.of(*n) == K::Identifier) {
                s.b.bind(name, Binding::Local);
            }
            for child in named_children(node).filter(|c| Some(*c) != alias) {
                s.visit(child);
            }
        });
    }

    // ----- types -----

    fn string(&mut self, node: Node<'t>) {
        self.b.string(string_content(self.b.bytes(node)), node, self.error_args > 0);
    }
}

/// A string literal's content: quotes removed, escapes left as written.
fn string_content(literal: &[u8]) -> String {
    unquote(literal, &['"', '`'])
}

hintlens_tree::grammar_ids! {
    /// The ids the builder is handed (what reads flat, what chains of names are made of).
    struct Grammar as grammar(tree_sitter_go::LANGUAGE, "tree-sitter-go") {
        kinds {
            identifier = "identifier", type_identifier = "type_identifier", field_identifier = "field_identifier",
            package_identifier = "package_identifier", comment = "comment",
            selector_expression = "selector_expression", qualified_type = "qualified_type",
        }
        fields {
            f_name = "name", f_type = "type", f_value = "value", f_element = "element", f_path = "path",
            f_body = "body", f_parameters = "parameters", f_result = "result", f_receiver = "receiver",
            f_type_parameters = "type_parameters", f_type_arguments = "type_arguments", f_function = "function",
            f_arguments = "arguments", f_operand = "operand", f_field = "field", f_package = "package",
            f_key = "key", f_left = "left", f_right = "right", f_alias = "alias",
        }
    }
}

hintlens_tree::node_kinds! {
    /// The node kinds the walk tells apart.
    enum K as kinds(tree_sitter_go::LANGUAGE, "tree-sitter-go") {
        // Names.
        Identifier = "identifier", TypeIdentifier = "type_identifier",
        /// Names of nothing a use is: members after a dot, packages of qualified types, labels.
        Unnamed = "field_identifier" | "package_identifier" | "label_name",
        Comment = "comment",
        // Declarations.
        PackageClause = "package_clause", ImportDeclaration = "import_declaration", ImportSpec = "import_spec",
        ImportSpecList = "import_spec_list", FunctionDeclaration = "function_declaration",
        MethodDeclaration = "method_declaration", TypeDeclaration = "type_declaration", TypeAlias = "type_alias",
        ConstDeclaration = "const_declaration", VarDeclaration = "var_declaration",
        VarSpecList = "var_spec_list", ParameterList = "parameter_list",
        TypeParameterList = "type_parameter_list", Parameter = "parameter_declaration",
        /// `xs ...T`, `[T any]`'s `T any`.
        OtherParameter = "variadic_parameter_declaration" | "type_parameter_declaration",
        FieldDeclarationList = "field_declaration_list", FieldDeclaration = "field_declaration",
        MethodElem = "method_elem",
        // Types.
        StructType = "struct_type", InterfaceType = "interface_type", PointerType = "pointer_type",
        ParenthesizedType = "parenthesized_type", GenericType = "generic_type", QualifiedType = "qualified_type",
        MapType = "map_type",
        /// `[]T`, `[n]T`: containers of their `element`, as is `[...]T` of a literal.
        ListType = "slice_type" | "array_type",
        ImplicitLengthArrayType = "implicit_length_array_type",
        ChannelType = "channel_type", FunctionType = "function_type",
        // Statements and expressions.
        Call = "call_expression", Binary = "binary_expression", Selector = "selector_expression",
        CompositeLiteral = "composite_literal", LiteralValue = "literal_value", Unary = "unary_expression",
        LiteralElement = "literal_element", KeyedElement = "keyed_element", FuncLiteral = "func_literal",
        ShortVarDeclaration = "short_var_declaration", RangeClause = "range_clause",
        TypeSwitch = "type_switch_statement", TypeCase = "type_case",
        /// `x.(T)`, `T(x)` as the grammar reads some conversions.
        TypeAssertion = "type_assertion_expression" | "type_conversion_expression",
        String = "interpreted_string_literal" | "raw_string_literal",
        /// Go scopes are blocks, an `if`'s or `for`'s header included: a name declared in one is
        /// not bound around it.
        Block = "block" | "if_statement" | "for_statement" | "expression_switch_statement" | "expression_case"
            | "default_case" | "communication_case",
    }
}
