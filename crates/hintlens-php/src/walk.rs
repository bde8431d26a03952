//! One walk over a PHP syntax tree: definitions, uses, imports, strings, and the bindings of
//! every use.
//!
//! Names other than variables are the file's or its namespace's (PHP has no block scope for
//! them), so the walk binds classes, functions, constants and imports at module level and opens
//! no scope; variables are never read at all.

use hintlens_syntax::scope::MODULE;
use hintlens_syntax::{Binding, DefId, DefKind, ERROR_MESSAGE_CALLEES, FileIndex, Import, UseKind};
use hintlens_tree::{Builder, Conventions, KindTable, TreeWalk, children, field, named_children, span_of};
use memchr::memmem;
use std::collections::HashSet;

use tree_sitter::{Node, Tree};

pub(crate) fn extract(src: &[u8], tree: &Tree) -> FileIndex {
    let root = tree.root_node();
    let g = grammar();
    let b = Builder::new(src, Conventions::default())
        .flat(&[g.name], &[g.comment, g.variable_name, g.string_content])
        .plain_name(g.name);
    let mut walk =
        Walk { g, kinds: kinds(), b, class: None, owner: None, test_class: false, error_args: 0, own: Vec::new() };
    walk.statements(root);
    walk.b.finish(root)
}

hintlens_tree::node_kinds! {
    /// The node kinds the walk tells apart.
    enum K as kinds(tree_sitter_php::LANGUAGE_PHP, "tree-sitter-php") {
        Name = "name", QualifiedName = "qualified_name" | "relative_name", NamespaceName = "namespace_name",
        VariableName = "variable_name" | "dynamic_variable_name",
        Comment = "comment", Text = "text" | "php_tag" | "php_end_tag",
        NamespaceDefinition = "namespace_definition", NamespaceUseDeclaration = "namespace_use_declaration",
        NamespaceUseClause = "namespace_use_clause", NamespaceUseGroup = "namespace_use_group",
        ClassDeclaration = "class_declaration", InterfaceDeclaration = "interface_declaration",
        TraitDeclaration = "trait_declaration", EnumDeclaration = "enum_declaration",
        AnonymousClass = "anonymous_class", BaseClause = "base_clause",
        ClassInterfaceClause = "class_interface_clause",
        DeclarationList = "declaration_list" | "enum_declaration_list",
        MethodDeclaration = "method_declaration", FunctionDefinition = "function_definition",
        PropertyDeclaration = "property_declaration", PropertyElement = "property_element",
        ConstDeclaration = "const_declaration", ConstElement = "const_element", EnumCase = "enum_case",
        UseDeclaration = "use_declaration", FormalParameters = "formal_parameters",
        SimpleParameter = "simple_parameter", VariadicParameter = "variadic_parameter",
        PromotionParameter = "property_promotion_parameter",
        AttributeList = "attribute_list", AttributeGroup = "attribute_group", Attribute = "attribute",
        Arguments = "arguments", Argument = "argument", FunctionCall = "function_call_expression",
        MemberCall = "member_call_expression" | "nullsafe_member_call_expression",
        MemberAccess = "member_access_expression" | "nullsafe_member_access_expression",
        ScopedCall = "scoped_call_expression", ScopedPropertyAccess = "scoped_property_access_expression",
        ClassConstantAccess = "class_constant_access_expression", ObjectCreation = "object_creation_expression",
        BinaryExpression = "binary_expression", CatchClause = "catch_clause", NamedType = "named_type",
        PrimitiveType = "primitive_type" | "bottom_type" | "cast_type",
        /// `?T`, `A|B`, `A&B`, `(A&B)|C`, a catch's `A|B`: types made of types.
        CompoundType = "optional_type" | "union_type" | "intersection_type" | "disjunctive_normal_form_type"
            | "type_list",
        RelativeScope = "relative_scope", String = "string", EncapsedString = "encapsed_string",
        StringContent = "string_content" | "escape_sequence" | "nowdoc_string",
        Heredoc = "heredoc" | "nowdoc",
        /// A heredoc's or nowdoc's opening and closing identifiers.
        HeredocMarker = "heredoc_start" | "heredoc_end",
        ThrowExpression = "throw_expression", ArrayCreation = "array_creation_expression",
        ArrayElement = "array_element_initializer",
        /// `goto` labels: names of nothing.
        Label = "named_label_statement" | "goto_statement",
        /// `require`, `require_once`, `include`, `include_once`.
        Include = "require_expression" | "require_once_expression" | "include_expression"
            | "include_once_expression",
        VisibilityModifier = "visibility_modifier",
    }
}

hintlens_tree::grammar_ids! {
    /// The ids the builder is handed and the walk compares, and the fields it reads.
    struct Grammar as grammar(tree_sitter_php::LANGUAGE_PHP, "tree-sitter-php") {
        kinds { name = "name", comment = "comment", variable_name = "variable_name", string_content = "string_content" }
        fields {
            f_name = "name", f_body = "body", f_parameters = "parameters", f_return_type = "return_type",
            f_type = "type", f_default_value = "default_value", f_object = "object", f_arguments = "arguments",
            f_function = "function", f_scope = "scope", f_operator = "operator", f_right = "right",
            f_alias = "alias", f_value = "value",
        }
    }
}

/// Calls whose string arguments are what an exception's message must be, beside the shared
/// [`ERROR_MESSAGE_CALLEES`]: PHPUnit's.
const PHPUNIT_MESSAGE_CALLEES: &[&str] = &["expectExceptionMessage", "expectExceptionMessageMatches"];

struct Walk<'t> {
    g: &'static Grammar,
    kinds: &'static KindTable<K>,
    b: Builder<'t>,
    /// The class-like declaration whose members are being read.
    class: Option<DefId>,
    /// The innermost definition around the walk (an anonymous class's members are its).
    owner: Option<DefId>,
    /// Whether `class` is a PHPUnit test class, whose `test*` methods are collected.
    test_class: bool,
    /// How many enclosing argument lists make strings error messages.
    error_args: u32,
    /// The uses, by index, of members reached through `$this`, `self::` or `static::` in the
    /// class being read: those its own members answer are [`Binding::OwnMember`] once the
    /// class is read (a method may be declared below its first call).
    own: Vec<usize>,
}

impl<'t> TreeWalk<'t> for Walk<'t> {
    const MAX_DEPTH: u32 = 128;

    fn builder(&mut self) -> &mut Builder<'t> {
        &mut self.b
    }

    fn visit_kind(&mut self, node: Node<'t>) {
        let g = self.g;
        match self.kinds.of(node) {
            K::VariableName
            | K::Text
            | K::Label
            | K::RelativeScope
            | K::PrimitiveType
            | K::StringContent
            | K::HeredocMarker => {}
            K::Comment => self.comment(node),
            K::QualifiedName => self.name_use(node, UseKind::Name),
            K::NamespaceName => {}
            K::NamespaceDefinition => self.namespace(node),
            K::NamespaceUseDeclaration => self.import(node),
            k if is_declaration(k) || k == K::UseDeclaration => self.declaration(node, None),
            K::DeclarationList => self.statements(node),
            K::AnonymousClass => self.anonymous_class(node),
            K::AttributeList | K::AttributeGroup => self.visit_children(node),
            K::Attribute => self.attribute(node),
            K::FunctionCall => self.function_call(node),
            K::MemberCall => self.member_call(node),
            K::MemberAccess => {
                let own = self.is_this(field(node, g.f_object));
                self.visit_field(node, g.f_object);
                self.member(field(node, g.f_name), UseKind::Attribute, own);
            }
            K::ScopedCall => self.scoped_call(node),
            K::ScopedPropertyAccess => {
                let scope = field(node, g.f_scope);
                let qualifier = self.scope(scope);
                // `T::$name`: the property's name without its `$`.
                let name = field(node, g.f_name).and_then(|n| self.variable_name(n));
                self.scoped_member(name, UseKind::Attribute, scope, qualifier);
            }
            K::ClassConstantAccess => self.class_constant(node),
            K::ObjectCreation => self.object_creation(node),
            K::BinaryExpression => {
                let instanceof = field(node, g.f_operator).is_some_and(|o| o.kind() == "instanceof");
                for child in named_children(node) {
                    if instanceof && Some(child) == field(node, g.f_right) && self.is_class_name(child) {
                        self.name_use(child, UseKind::Type);
                    } else {
                        self.visit(child);
                    }
                }
            }
            K::CatchClause => {
                self.with(field(node, g.f_type), Self::ty);
                self.visit_field(node, g.f_body);
            }
            K::NamedType | K::CompoundType => self.ty(node),
            K::String | K::EncapsedString | K::Heredoc => self.string(node),
            K::ThrowExpression => {
                self.error_args += 1;
                self.visit_children(node);
                self.error_args -= 1;
            }
            K::ArrayCreation => {
                self.callable_array(node);
                self.visit_children(node);
            }
            K::Arguments => self.arguments(node, None),
            K::Include => {
                self.included_file(node);
                self.visit_children(node);
            }
            _ => self.visit_children(node),
        }
    }

    /// A type: its class names are uses of `kind`.
    fn visit_type(&mut self, node: Node<'t>, kind: UseKind) {
        match self.kinds.of(node) {
            K::Name | K::QualifiedName => self.name_use(node, kind),
            K::PrimitiveType | K::Comment => {}
            _ => {
                for child in named_children(node) {
                    self.ty_as(child, kind);
                }
            }
        }
    }
}

impl<'t> Walk<'t> {
    // ----- statements and declarations -----

    /// A list of statements or members, each declaration with the doc comment just above it.
    fn statements(&mut self, node: Node<'t>) {
        let g = self.g;
        for comment in named_children(node).filter(|c| c.kind_id() == g.comment) {
            self.comment(comment);
        }
        for (child, doc) in self.b.documented(named_children(node), g.comment) {
            if is_declaration(self.kinds.of(child)) {
                self.declaration(child, doc);
            } else {
                self.visit(child);
            }
        }
    }

    fn declaration(&mut self, node: Node<'t>, doc: Option<String>) {
        match self.kinds.of(node) {
            K::ClassDeclaration => self.class_like(node, DefKind::Class, doc),
            K::InterfaceDeclaration => self.class_like(node, DefKind::Interface, doc),
            K::TraitDeclaration => self.class_like(node, DefKind::Trait, doc),
            K::EnumDeclaration => self.class_like(node, DefKind::Enum, doc),
            K::MethodDeclaration => self.callable(node, true, doc),
            K::FunctionDefinition => self.callable(node, false, doc),
            K::PropertyDeclaration => self.properties(node, doc),
            K::ConstDeclaration => self.constants(node, doc),
            K::EnumCase => self.enum_case(node, doc),
            // `use SomeTrait;` in a class: the trait's members become the class's.
            K::UseDeclaration => {
                for child in named_children(node) {
                    match self.kinds.of(child) {
                        K::Name | K::QualifiedName => self.name_use(child, UseKind::Base),
                        _ => self.visit(child),
                    }
                }
            }
            _ => self.visit_children(node),
        }
    }

    /// `namespace A\B;` (the rest of the file is in it) or `namespace A\B { … }`.
    fn namespace(&mut self, node: Node<'t>) {
        let g = self.g;
        if let Some(name) = field(node, g.f_name)
            && self.b.index.package.is_none()
        {
            self.b.index.package = Some(self.dotted(name));
        }
        self.with(field(node, g.f_body), Self::statements);
    }

    fn class_like(&mut self, node: Node<'t>, kind: DefKind, doc: Option<String>) {
        let g = self.g;
        let Some(name) = field(node, g.f_name) else {
            self.visit_children(node);
            return;
        };
        let body = field(node, g.f_body);
        let signature = self.signature(node, body.map(|b| b.start_byte()));
        let local = self.b.local_name(None, &self.b.str(name));
        let id = self.b.define(name, local, kind, node, signature, None, doc);
        self.b.scopes.bind_in(MODULE, self.b.bytes(name), Binding::Definition);
        let mut extends_test_case = false;
        for child in named_children(node) {
            match self.kinds.of(child) {
                K::BaseClause | K::ClassInterfaceClause => {
                    for base in named_children(child) {
                        if matches!(self.kinds.of(base), K::Name | K::QualifiedName) {
                            extends_test_case |= self.b.bytes(base).ends_with(b"TestCase");
                            self.name_use(base, UseKind::Base);
                        }
                    }
                }
                K::AttributeList => self.visit(child),
                _ => {}
            }
        }
        let test_class = kind == DefKind::Class && (extends_test_case || self.b.bytes(name).ends_with(b"Test"));
        self.b.index.definitions[id as usize].collected = test_class;
        let own_from = self.own.len();
        self.members(body, Some(id), test_class);
        self.own_members(id, own_from);
    }

    /// Uses through `$this`, `self::` or `static::` (recorded from `from` on) of members the
    /// class `class` declares itself: they run those or a subclass's overrides.
    fn own_members(&mut self, class: DefId, from: usize) {
        if self.own.len() == from {
            return;
        }
        let index = &mut self.b.index;
        // (name, whether a call can reach it) of each member the class declares.
        let declared: HashSet<(&str, bool)> = index
            .definitions
            .iter()
            .filter(|d| d.parent == Some(class))
            .filter_map(|d| match d.kind {
                DefKind::Method | DefKind::Constructor => Some((d.name.as_str(), true)),
                DefKind::Property | DefKind::Constant | DefKind::EnumConstant => Some((d.name.as_str(), false)),
                _ => None,
            })
            .collect();
        let own: Vec<usize> = self
            .own
            .drain(from..)
            .filter(|&at| declared.contains(&(index.uses[at].name.as_str(), index.uses[at].kind == UseKind::Call)))
            .collect();
        for at in own {
            index.uses[at].binding = Binding::OwnMember;
        }
    }

    /// The members of a class-like body, as members of `class`.
    fn members(&mut self, body: Option<Node<'t>>, class: Option<DefId>, test_class: bool) {
        let saved = (self.class, self.owner, self.test_class);
        (self.class, self.owner, self.test_class) = (class, class, test_class);
        self.with(body, Self::statements);
        (self.class, self.owner, self.test_class) = saved;
    }

    /// `new class(…) extends B { … }`: its members are the enclosing definition's.
    fn anonymous_class(&mut self, node: Node<'t>) {
        let mut body = None;
        for child in named_children(node) {
            match self.kinds.of(child) {
                K::BaseClause | K::ClassInterfaceClause => {
                    for base in named_children(child) {
                        self.name_use(base, UseKind::Base);
                    }
                }
                K::DeclarationList => body = Some(child),
                _ => self.visit(child),
            }
        }
        // `$this` in an anonymous class is that class, whose members have no parent of their own.
        let own_from = self.own.len();
        self.members(body, self.owner, false);
        self.own.truncate(own_from);
    }

    /// A method (`method`) or a function.
    fn callable(&mut self, node: Node<'t>, method: bool, doc: Option<String>) {
        let g = self.g;
        let Some(name) = field(node, g.f_name) else {
            self.visit_children(node);
            return;
        };
        let parameters = field(node, g.f_parameters);
        let end = field(node, g.f_return_type).or(parameters).map(|n| n.end_byte());
        let signature = self.signature(node, end);
        let parent = if method { self.class } else { None };
        let spelled = self.b.str(name);
        let kind = match (method, &*spelled) {
            (true, "__construct") => DefKind::Constructor,
            (true, _) => DefKind::Method,
            (false, _) => DefKind::Function,
        };
        let collected = method && self.test_class && self.is_test_method(node, &spelled, doc.as_deref());
        let local = self.b.local_name(parent, &spelled);
        let id = self.b.define(name, local, kind, node, signature, parent, doc);
        self.b.index.definitions[id as usize].collected = collected;
        if !method {
            self.b.scopes.bind_in(MODULE, self.b.bytes(name), Binding::Definition);
        }
        let saved = self.owner;
        self.owner = Some(id);
        for child in named_children(node) {
            match self.kinds.of(child) {
                K::AttributeList => self.visit(child),
                K::FormalParameters => self.parameters(child, id, parent),
                _ if Some(child) == field(node, g.f_return_type) => self.ty(child),
                _ if Some(child) == field(node, g.f_body) => self.visit(child),
                _ => {}
            }
        }
        self.owner = saved;
    }

    /// What PHPUnit runs of a test class: public `test*` methods, and those marked `@test` or
    /// `#[Test]`.
    fn is_test_method(&self, node: Node<'t>, name: &str, doc: Option<&str>) -> bool {
        let hidden = named_children(node)
            .any(|c| self.kinds.of(c) == K::VisibilityModifier && matches!(self.b.bytes(c), b"private" | b"protected"));
        let marked = doc.is_some_and(|d| d.split_whitespace().any(|w| w == "@test"))
            || named_children(node)
                .filter(|c| self.kinds.of(*c) == K::AttributeList)
                .any(|list| self.attribute_names(list).iter().any(|n| n == "Test"));
        !hidden && (name.starts_with("test") || marked)
    }

    /// The last components of the names of the attributes in `list`.
    fn attribute_names(&self, list: Node<'t>) -> Vec<String> {
        let mut names = Vec::new();
        for group in named_children(list) {
            for attribute in named_children(group).filter(|a| self.kinds.of(*a) == K::Attribute) {
                if let Some(name) = named_children(attribute).next() {
                    let dotted = self.dotted(name);
                    names.push(dotted.rsplit('.').next().unwrap_or(&dotted).to_owned());
                }
            }
        }
        names
    }

    /// Each parameter is a definition (a named argument's keyword); a promoted one is a
    /// property of `class` too.
    fn parameters(&mut self, node: Node<'t>, callable: DefId, class: Option<DefId>) {
        let g = self.g;
        for parameter in named_children(node) {
            let kind = self.kinds.of(parameter);
            if !matches!(kind, K::SimpleParameter | K::VariadicParameter | K::PromotionParameter) {
                self.visit(parameter);
                continue;
            }
            for child in named_children(parameter) {
                if self.kinds.of(child) == K::AttributeList {
                    self.visit(child);
                }
            }
            self.with(field(parameter, g.f_type), Self::ty);
            self.visit_field(parameter, g.f_default_value);
            let Some(variable) = field(parameter, g.f_name) else { continue };
            let Some(name) = self.variable_name(variable) else { continue };
            let signature = self.b.flat_text(parameter.start_byte(), variable.end_byte());
            let spelled = self.b.text(name);
            let local = self.b.local_name(Some(callable), &spelled);
            self.b.define(name, local, DefKind::Parameter, parameter, signature.clone(), Some(callable), None);
            if kind == K::PromotionParameter && class.is_some() {
                let local = self.b.local_name(class, &spelled);
                self.b.define(name, local, DefKind::Property, parameter, signature, class, None);
            }
        }
    }

    /// `public static ?int $a = 1, $b;`: one property per element.
    fn properties(&mut self, node: Node<'t>, doc: Option<String>) {
        let g = self.g;
        self.with(field(node, g.f_type), Self::ty);
        let elements: Vec<Node<'t>> =
            named_children(node).filter(|c| self.kinds.of(*c) == K::PropertyElement).collect();
        let head = elements.first().map_or(node.end_byte(), |e| e.start_byte());
        let head = self.b.flat_text(node.start_byte(), head);
        for child in named_children(node) {
            match self.kinds.of(child) {
                K::AttributeList => self.visit(child),
                K::PropertyElement => {
                    self.visit_field(child, g.f_default_value);
                    let Some(name) = field(child, g.f_name).and_then(|v| self.variable_name(v)) else { continue };
                    let signature = format!("{head} ${}", self.b.str(name)).trim_start().to_owned();
                    let local = self.b.local_name(self.class, &self.b.str(name));
                    self.b.define(name, local, DefKind::Property, child, signature, self.class, doc.clone());
                }
                // Property hooks (`get => …`).
                K::Other => self.visit(child),
                _ => {}
            }
        }
    }

    /// `const A = 1, B = 2;` in a class (its constants) or outside (global constants).
    fn constants(&mut self, node: Node<'t>, doc: Option<String>) {
        let elements: Vec<Node<'t>> = named_children(node).filter(|c| self.kinds.of(*c) == K::ConstElement).collect();
        let head = elements.first().map_or(node.end_byte(), |e| e.start_byte());
        let head = self.b.flat_text(node.start_byte(), head);
        for child in named_children(node) {
            if self.kinds.of(child) != K::ConstElement {
                self.visit(child);
                continue;
            }
            let mut parts = named_children(child);
            let Some(name) = parts.next() else { continue };
            for value in parts {
                self.visit(value);
            }
            let element = self.b.flat_text(child.start_byte(), child.end_byte());
            let signature = format!("{head} {element}").trim_start().to_owned();
            let local = self.b.local_name(self.class, &self.b.str(name));
            self.b.define(name, local, DefKind::Constant, child, signature, self.class, doc.clone());
            if self.class.is_none() {
                self.b.scopes.bind_in(MODULE, self.b.bytes(name), Binding::Definition);
            }
        }
    }

    fn enum_case(&mut self, node: Node<'t>, doc: Option<String>) {
        let g = self.g;
        self.visit_field(node, g.f_value);
        let Some(name) = field(node, g.f_name) else { return };
        let signature = self.b.flat_text(node.start_byte(), name.end_byte());
        let local = self.b.local_name(self.class, &self.b.str(name));
        self.b.define(name, local, DefKind::EnumConstant, node, signature, self.class, doc);
    }

    /// `define('NAME', value)`: a global constant named by a string.
    fn define_constant(&mut self, call: Node<'t>, literal: Node<'t>) -> bool {
        let Some(content) = named_children(literal).find(|c| c.kind_id() == self.g.string_content) else {
            return false;
        };
        let spelled = self.b.text(content);
        if !hintlens_syntax::is_identifier(&spelled) {
            return false;
        }
        let signature = format!("define('{spelled}')");
        let span = span_of(call);
        self.b.define_spelled(
            spelled.clone(),
            content,
            spelled.clone(),
            DefKind::Constant,
            span,
            signature,
            None,
            None,
        );
        self.b.scopes.bind_in(MODULE, spelled.as_bytes(), Binding::Definition);
        true
    }

    // ----- imports -----

    /// `use A\B\C;`, `use A\B as X;`, `use function A\f;`, `use A\{B, C as D};`.
    fn import(&mut self, node: Node<'t>) {
        let g = self.g;
        let mut prefix: Vec<String> = Vec::new();
        let mut prefix_nodes: Vec<Node<'t>> = Vec::new();
        for child in named_children(node) {
            match self.kinds.of(child) {
                K::NamespaceName => {
                    prefix_nodes = named_children(child).filter(|n| n.kind_id() == g.name).collect();
                    prefix = prefix_nodes.iter().map(|n| self.b.text(*n)).collect();
                }
                K::NamespaceUseClause => self.import_clause(child, &[]),
                K::NamespaceUseGroup => {
                    self.import_modules(&prefix_nodes, &[]);
                    for clause in named_children(child).filter(|c| self.kinds.of(*c) == K::NamespaceUseClause) {
                        self.import_clause(clause, &prefix);
                    }
                }
                _ => {}
            }
        }
    }

    /// One imported name, below the group's `prefix` (whose module uses were recorded).
    fn import_clause(&mut self, clause: Node<'t>, prefix: &[String]) {
        let g = self.g;
        let Some(path) = named_children(clause).find(|c| matches!(self.kinds.of(*c), K::Name | K::QualifiedName))
        else {
            return;
        };
        // The path's names, first to last.
        let mut names: Vec<Node<'t>> = Vec::new();
        hintlens_tree::preorder(path, |n| {
            if n.kind_id() == g.name {
                names.push(n);
            }
            true
        });
        let Some((&last, modules)) = names.split_last() else { return };
        self.import_modules(modules, prefix);
        let module: Vec<String> = prefix.iter().cloned().chain(modules.iter().map(|m| self.b.text(*m))).collect();
        let module = module.join(".");
        let qualifier = (!module.is_empty()).then(|| module.clone());
        self.b.use_bound(last, UseKind::Import, qualifier, Some(Binding::Import));
        let alias = field(clause, g.f_alias).map(|a| self.b.text(a));
        let import = Import {
            module,
            name: Some(self.b.text(last)),
            alias,
            wildcard: false,
            line: clause.start_position().row as u32,
        };
        if let Some(bound) = import.bound_name() {
            self.b.scopes.bind_in(MODULE, bound.as_bytes(), Binding::Import);
        }
        self.b.index.imports.push(import);
    }

    /// The module path components `names` of an import, each qualified by those before it
    /// (after `before`).
    fn import_modules(&mut self, names: &[Node<'t>], before: &[String]) {
        let mut module: Vec<String> = before.to_vec();
        for &name in names {
            let qualifier = (!module.is_empty()).then(|| module.join("."));
            self.b.use_bound(name, UseKind::ImportModule, qualifier, Some(Binding::Import));
            module.push(self.b.text(name));
        }
    }

    // ----- uses -----

    /// A class, function or constant name (`Foo`, `\A\Foo`, `A\Foo`) used as `kind`: the use of
    /// its last name, qualified by the rest. `self`, `static` and `parent` name no class of
    /// their own.
    fn name_use(&mut self, node: Node<'t>, kind: UseKind) {
        let g = self.g;
        match self.kinds.of(node) {
            K::Name => {
                if !matches!(self.b.bytes(node), b"self" | b"static" | b"parent") {
                    self.b.use_name(node, kind, None);
                }
            }
            K::QualifiedName => {
                let dotted = self.dotted(node);
                let last = named_children(node).filter(|n| n.kind_id() == g.name).last();
                let qualifier = dotted.rsplit_once('.').map(|(q, _)| q.to_owned()).filter(|q| !q.is_empty());
                if let Some(last) = last {
                    self.b.use_name(last, kind, qualifier);
                }
            }
            _ => self.visit(node),
        }
    }

    /// `->name` of a value whose type the file does not know, or of `$this` (`own`).
    fn member(&mut self, name: Option<Node<'t>>, kind: UseKind, own: bool) {
        match name {
            Some(name) if name.kind_id() == self.g.name => {
                self.receiver_use(name, kind, own);
            }
            // `$obj->$dynamic`, `$obj->{'x'}`.
            Some(other) => self.visit(other),
            None => {}
        }
    }

    /// The scope of `T::…`: a use of the class `T` (returned as the qualifier of the member),
    /// or a value or `self`/`static`/`parent` (no qualifier: the member is matched by name).
    fn scope(&mut self, scope: Option<Node<'t>>) -> Option<String> {
        let scope = scope?;
        if self.is_class_name(scope) {
            let dotted = self.dotted(scope);
            if matches!(dotted.as_str(), "self" | "static" | "parent") {
                return None;
            }
            self.name_use(scope, UseKind::Name);
            return Some(dotted);
        }
        self.visit(scope);
        None
    }

    /// A member of `T::` (`qualifier` when `T` is a class name), else of a value or of
    /// `self::`/`static::`/`parent::`.
    fn scoped_member(
        &mut self,
        name: Option<Node<'t>>,
        kind: UseKind,
        scope: Option<Node<'t>>,
        qualifier: Option<String>,
    ) {
        let Some(name) = name else { return };
        match qualifier {
            Some(q) => self.b.use_name(name, kind, Some(q)),
            None => {
                let own = scope.is_some_and(|s| {
                    self.kinds.of(s) == K::RelativeScope && matches!(self.b.bytes(s), b"self" | b"static")
                });
                self.receiver_use(name, kind, own);
            }
        }
    }

    /// A member matched by name; through the class's own receiver (`own`), one of its own
    /// members when the class declares it ([`Walk::own_members`]).
    fn receiver_use(&mut self, name: Node<'t>, kind: UseKind, own: bool) {
        let before = self.b.index.uses.len();
        self.b.use_bound(name, kind, None, Some(Binding::Receiver));
        if own && self.class.is_some() && self.b.index.uses.len() > before {
            self.own.push(before);
        }
    }

    /// Whether `node` is `$this`.
    fn is_this(&self, node: Option<Node<'t>>) -> bool {
        node.is_some_and(|n| n.kind_id() == self.g.variable_name && self.b.bytes(n) == b"$this")
    }

    fn scoped_call(&mut self, node: Node<'t>) {
        let g = self.g;
        let scope = field(node, g.f_scope);
        let qualifier = self.scope(scope);
        let name = field(node, g.f_name);
        let callee = match (&qualifier, name) {
            (Some(q), Some(n)) => Some(format!("{q}.{}", self.b.str(n))),
            _ => None,
        };
        match name {
            Some(n) if n.kind_id() == g.name => self.scoped_member(Some(n), UseKind::Call, scope, qualifier),
            Some(other) => self.visit(other),
            None => {}
        }
        if let Some(arguments) = field(node, g.f_arguments) {
            self.arguments(arguments, callee);
        }
    }

    /// `T::NAME`, `T::class`, `self::NAME`.
    fn class_constant(&mut self, node: Node<'t>) {
        let mut parts = named_children(node);
        let scope = parts.next();
        let name = parts.next();
        let qualifier = self.scope(scope);
        let Some(name) = name else { return };
        if self.b.bytes(name).eq_ignore_ascii_case(b"class") {
            return;
        }
        if name.kind_id() == self.g.name {
            self.scoped_member(Some(name), UseKind::Attribute, scope, qualifier);
        } else {
            self.visit(name);
        }
    }

    fn member_call(&mut self, node: Node<'t>) {
        let g = self.g;
        let own = self.is_this(field(node, g.f_object));
        self.visit_field(node, g.f_object);
        let name = field(node, g.f_name);
        self.member(name, UseKind::Call, own);
        let Some(arguments) = field(node, g.f_arguments) else { return };
        let method = name.map(|n| self.b.bytes(n)).unwrap_or_default();
        // A mock's `->method('name')` (PHPUnit, Prophecy's `->shouldReceive('name')`): a call
        // of the method so named, on an object of a type the file does not know.
        if matches!(method, b"method" | b"shouldReceive" | b"allows" | b"expects")
            && let Some((content, _)) = self.first_string_argument(arguments)
        {
            self.string_member(content, None);
        }
        let error = self.is_message_callee(method);
        self.error_args += u32::from(error);
        self.arguments(arguments, None);
        self.error_args -= u32::from(error);
    }

    fn function_call(&mut self, node: Node<'t>) {
        let g = self.g;
        let function = field(node, g.f_function);
        let mut callee = None;
        if let Some(f) = function {
            if matches!(self.kinds.of(f), K::Name | K::QualifiedName) {
                let dotted = self.dotted(f);
                if dotted == "define"
                    && let Some(arguments) = field(node, g.f_arguments)
                    && let Some((_, literal)) = self.first_string_argument(arguments)
                    && self.define_constant(node, literal)
                {
                    for argument in named_children(arguments).skip(1) {
                        self.visit(argument);
                    }
                    return;
                }
                self.name_use(f, UseKind::Call);
                callee = Some(dotted);
            } else {
                self.visit(f);
            }
        }
        let Some(arguments) = field(node, g.f_arguments) else { return };
        let last = callee.as_deref().map(|c| c.rsplit('.').next().unwrap_or(c).as_bytes().to_vec()).unwrap_or_default();
        let error = self.is_message_callee(&last);
        self.error_args += u32::from(error);
        self.arguments(arguments, callee);
        self.error_args -= u32::from(error);
    }

    fn object_creation(&mut self, node: Node<'t>) {
        let mut class = None;
        for child in named_children(node) {
            match self.kinds.of(child) {
                K::Name | K::QualifiedName => {
                    let dotted = self.dotted(child);
                    if !matches!(dotted.as_str(), "self" | "static" | "parent") {
                        class = Some(dotted);
                    }
                    self.name_use(child, UseKind::Instantiation);
                }
                K::Arguments => {
                    // `throw new E('message')`: the message of an exception.
                    self.arguments(child, class.clone());
                }
                _ => self.visit(child),
            }
        }
    }

    /// Arguments of a call of `callee` (its dotted name, when it has one): `name: value` is a
    /// keyword use of the callee's parameter.
    fn arguments(&mut self, node: Node<'t>, callee: Option<String>) {
        let g = self.g;
        for argument in named_children(node) {
            if self.kinds.of(argument) != K::Argument {
                self.visit(argument);
                continue;
            }
            let name = field(argument, g.f_name);
            if let Some(name) = name {
                self.b.use_name(name, UseKind::KeywordArgument, callee.clone());
            }
            for child in named_children(argument).filter(|c| Some(*c) != name) {
                self.visit(child);
            }
        }
    }

    /// `#[Attr(…)]`: a use of the attribute's class; `#[DataProvider('name')]` and its kin name
    /// a method of the test class.
    fn attribute(&mut self, node: Node<'t>) {
        let g = self.g;
        let mut parts = named_children(node);
        let Some(name) = parts.next() else { return };
        let dotted = self.dotted(name);
        self.name_use(name, UseKind::Decorator);
        let Some(arguments) = field(node, g.f_parameters) else { return };
        let last = dotted.rsplit('.').next().unwrap_or(&dotted);
        if matches!(last, "DataProvider" | "Depends" | "Before" | "After")
            && let Some((content, _)) = self.first_string_argument(arguments)
        {
            self.string_member(content, None);
        }
        self.arguments(arguments, Some(dotted));
    }

    /// `[$obj, 'name']` and `[T::class, 'name']`: a callable naming a method.
    fn callable_array(&mut self, node: Node<'t>) {
        let g = self.g;
        let elements: Vec<Node<'t>> = named_children(node).collect();
        let [first, second] = elements[..] else { return };
        if self.kinds.of(first) != K::ArrayElement || self.kinds.of(second) != K::ArrayElement {
            return;
        }
        let (Some(object), Some(method)) = (only_child(first), only_child(second)) else { return };
        if self.kinds.of(method) != K::String {
            return;
        }
        let Some(content) = named_children(method).find(|c| c.kind_id() == g.string_content) else { return };
        let qualifier = match self.kinds.of(object) {
            K::VariableName => None,
            K::ClassConstantAccess => {
                let mut parts = named_children(object);
                let (Some(scope), Some(class)) = (parts.next(), parts.next()) else { return };
                if !self.b.bytes(class).eq_ignore_ascii_case(b"class") || !self.is_class_name(scope) {
                    return;
                }
                Some(self.dotted(scope)).filter(|d| !matches!(d.as_str(), "self" | "static" | "parent"))
            }
            _ => return,
        };
        self.string_member(content, qualifier);
    }

    /// `require __DIR__ . '/../src/helpers.php'`: a use of the module the file is, named by its
    /// stem (the directories are paths, not namespaces; module names compare by their trailing
    /// components).
    fn included_file(&mut self, node: Node<'t>) {
        let g = self.g;
        let mut last = None;
        hintlens_tree::preorder(node, |n| {
            if n.kind_id() == g.string_content && self.b.bytes(n).ends_with(b".php") {
                last = Some(n);
            }
            true
        });
        let Some(content) = last else { return };
        let text = self.b.bytes(content);
        let start = text.iter().rposition(|&b| b == b'/' || b == b'\\').map_or(0, |i| i + 1);
        let end = text.len() - ".php".len();
        let stem = String::from_utf8_lossy(&text[start..end]).into_owned();
        if !hintlens_syntax::is_identifier(&stem) {
            return;
        }
        let at = content.start_byte();
        let span = self.b.span_within(content, at + start, at + end);
        self.b.use_spelled(stem, span, UseKind::ImportModule, None, Some(Binding::Import));
    }

    /// A use of the method a string's content names (`'send'` in `->method('send')`).
    fn string_member(&mut self, content: Node<'t>, qualifier: Option<String>) {
        let spelled = self.b.text(content);
        if !hintlens_syntax::is_identifier(&spelled) {
            return;
        }
        let binding = qualifier.is_none().then_some(Binding::Receiver);
        self.b.use_spelled(spelled, span_of(content), UseKind::Call, qualifier, binding);
    }

    /// The first argument when it is a plain string: its content and the literal.
    fn first_string_argument(&self, arguments: Node<'t>) -> Option<(Node<'t>, Node<'t>)> {
        let g = self.g;
        let argument = named_children(arguments).next()?;
        let literal = if self.kinds.of(argument) == K::Argument { only_child(argument)? } else { argument };
        if self.kinds.of(literal) != K::String {
            return None;
        }
        let content = named_children(literal).find(|c| c.kind_id() == g.string_content)?;
        Some((content, literal))
    }

    /// `@dataProvider name` and `@depends name` in a doc comment name methods of the test class.
    fn comment(&mut self, node: Node<'t>) {
        let text = self.b.bytes(node);
        if memmem::find(text, b"@dataProvider").is_none() && memmem::find(text, b"@depends").is_none() {
            return;
        }
        let mut at = 0;
        while let Some(found) = text[at..].iter().position(|&b| b == b'@') {
            let start = at + found + 1;
            let tag_end = start + text[start..].iter().take_while(|b| b.is_ascii_alphanumeric()).count();
            at = tag_end;
            if !matches!(&text[start..tag_end], b"dataProvider" | b"depends") {
                continue;
            }
            let name_start = tag_end + text[tag_end..].iter().take_while(|b| matches!(b, b' ' | b'\t')).count();
            if name_start == tag_end {
                continue;
            }
            let name_end =
                name_start + text[name_start..].iter().take_while(|b| b.is_ascii_alphanumeric() || **b == b'_').count();
            if name_end == name_start {
                continue;
            }
            let spelled = String::from_utf8_lossy(&text[name_start..name_end]).into_owned();
            let span = self.b.span_within(node, node.start_byte() + name_start, node.start_byte() + name_end);
            self.b.use_spelled(spelled, span, UseKind::Call, None, Some(Binding::Receiver));
            at = name_end;
        }
    }

    /// A string literal (quoted, heredoc or nowdoc): its content is recorded, its interpolations
    /// (`{$this->name}`) are code.
    fn string(&mut self, node: Node<'t>) {
        let g = self.g;
        // A heredoc's or nowdoc's content is in its body.
        let body = if self.kinds.of(node) == K::Heredoc { field(node, g.f_value) } else { Some(node) };
        let mut value = String::new();
        for child in body.into_iter().flat_map(named_children) {
            match self.kinds.of(child) {
                K::StringContent => value.push_str(&self.b.str(child)),
                K::HeredocMarker => {}
                _ => self.visit(child),
            }
        }
        let error = self.error_args > 0;
        self.b.string(value, node, error);
    }

    // ----- text -----

    /// Whether `node` spells a class name (`Foo`, `A\Foo`) rather than an expression.
    fn is_class_name(&self, node: Node<'t>) -> bool {
        matches!(self.kinds.of(node), K::Name | K::QualifiedName | K::RelativeScope)
    }

    /// A name as hintlens spells it: `A.B.Foo` for `\A\B\Foo` (`namespace\Foo` is `Foo`).
    fn dotted(&self, node: Node<'t>) -> String {
        let text = self.b.str(node);
        let text = text.trim().trim_start_matches('\\');
        let text = text.strip_prefix("namespace\\").unwrap_or(text);
        text.split('\\').map(str::trim).filter(|s| !s.is_empty()).collect::<Vec<_>>().join(".")
    }

    /// The `name` inside a `$name` variable node.
    fn variable_name(&self, node: Node<'t>) -> Option<Node<'t>> {
        if node.kind_id() == self.g.name {
            return Some(node);
        }
        named_children(node).find(|c| c.kind_id() == self.g.name)
    }

    /// A declaration's text from its first modifier or keyword (attributes and comments left
    /// out) to `end`, on one line.
    fn signature(&self, node: Node<'t>, end: Option<usize>) -> String {
        let start = children(node)
            .find(|c| !matches!(self.kinds.of(*c), K::AttributeList | K::Comment))
            .map_or(node.start_byte(), |c| c.start_byte());
        let text = self.b.flat_text(start, end.unwrap_or(node.end_byte()));
        text.trim().trim_end_matches(['{', ';']).trim_end().to_owned()
    }

    fn is_message_callee(&self, name: &[u8]) -> bool {
        let name = String::from_utf8_lossy(name);
        PHPUNIT_MESSAGE_CALLEES.contains(&&*name) || ERROR_MESSAGE_CALLEES.contains(&&*name)
    }
}

/// The kinds that declare something a doc comment above them documents.
fn is_declaration(kind: K) -> bool {
    matches!(
        kind,
        K::ClassDeclaration
            | K::InterfaceDeclaration
            | K::TraitDeclaration
            | K::EnumDeclaration
            | K::MethodDeclaration
            | K::FunctionDefinition
            | K::PropertyDeclaration
            | K::ConstDeclaration
            | K::EnumCase
    )
}

/// The one named child of an array element or argument without key or name.
fn only_child(node: Node<'_>) -> Option<Node<'_>> {
    let mut children = named_children(node);
    let child = children.next()?;
    children.next().is_none().then_some(child)
}
