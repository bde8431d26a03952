//! One walk over a TypeScript or JavaScript syntax tree: definitions, uses, imports, strings and
//! the bindings of every use. Recursive over named children with numeric kind ids
//! ([`Grammar`]); below [`MAX_DEPTH`] levels the rest is read flat, so hostile nesting cannot
//! exhaust the stack.

use crate::grammar::Grammar;
use hintlens_syntax::scope::{MODULE, ScopeKind};
use hintlens_syntax::{Binding, DefId, DefKind, FileIndex, Import, UseKind, quoted_path_components};
use hintlens_tree::{Builder, Conventions, TreeWalk, children_of, field, is, named_children, unquote};
use std::collections::HashSet;
use tree_sitter::{Node, Tree};

/// Deepest type argument a callable's keyword type is looked for in (`React.FC<Props>`).
const MAX_TYPE_NESTING: usize = 8;

pub(crate) fn extract(src: &[u8], tree: &Tree, g: &'static Grammar) -> FileIndex {
    let root = tree.root_node();
    let conventions =
        Conventions { quoted_definitions: true, keyword_members: Some(DefKind::Property), ..Conventions::default() };
    let mut walk = Walk {
        g,
        b: Builder::new(src, conventions)
            .flat(&[g.identifier, g.property_identifier], &[g.comment, g.string])
            .plain_name(g.identifier)
            .type_name(g.type_identifier)
            .chains(
                &[g.identifier, g.this, g.property_identifier],
                &[(g.member_expression, g.f_object, g.f_property), (g.nested_type_identifier, g.f_module, g.f_name)],
            ),
        module_level: true,
        api_body: false,
        api_next: false,
        parameters_of: None,
        exporting: false,
        exported: HashSet::new(),
        constructor_of: None,
        fields_seen: HashSet::new(),
    };
    walk.exported_names(root);
    walk.statements(root, None);
    walk.b.finish(root)
}

struct Walk<'t> {
    g: &'static Grammar,
    b: Builder<'t>,
    /// At the module's top level (or a namespace's): declarations are definitions.
    module_level: bool,
    /// In the body of the function `module.exports` is (`module.exports = function (User) {…}`):
    /// member assignments there define API, as at the module level.
    api_body: bool,
    /// The next callable read is the function `module.exports` is: its own statements are
    /// [`Walk::api_body`], those of the functions nested in it are not.
    api_next: bool,
    /// The definition whose parameters the next callable read declares: the keys of its
    /// destructured object parameters are its parameter definitions.
    parameters_of: Option<DefId>,
    /// The declaration being read is exported (`export const x = …`).
    exporting: bool,
    /// Module-level names the file exports by name (`export { x }`, `export default x`,
    /// `module.exports = x`), read before the walk.
    exported: HashSet<String>,
    /// Inside a class's constructor: `this.x = …` declares field `x` of that class.
    constructor_of: Option<(DefId, String)>,
    /// Fields already declared, by class: only the first `this.x = …` declares.
    fields_seen: HashSet<(DefId, String)>,
}

impl<'t> TreeWalk<'t> for Walk<'t> {
    fn visit_kind(&mut self, node: Node<'t>) {
        let g = self.g;
        let k = node.kind_id();
        if k == g.comment || k == g.jsx_text || k == g.statement_identifier || k == g.number {
        } else if k == g.call_expression {
            self.call(node);
        } else if k == g.new_expression {
            let constructor = field(node, g.f_constructor);
            if let Some(constructor) = constructor {
                self.reference(constructor, UseKind::Instantiation);
            }
            self.with(field(node, g.f_type_arguments), Self::ty);
            if let Some(arguments) = field(node, g.f_arguments) {
                self.arguments(arguments, constructor);
            }
        } else if k == g.member_expression {
            self.reference(node, UseKind::Attribute);
        } else if k == g.assignment_expression || k == g.augmented_assignment_expression {
            self.assignment(node);
        } else if k == g.arrow_function || k == g.function_expression || k == g.generator_function {
            self.callable(node);
        } else if k == g.class {
            // A class expression: its members are the expression's own.
            self.in_scope(ScopeKind::Function, |s| {
                if let Some(body) = field(node, g.f_body) {
                    for member in named_children(body) {
                        if is(member, g.method_definition) { s.callable(member) } else { s.visit(member) }
                    }
                }
                for child in children_of(node, g.class_heritage) {
                    s.heritage(child);
                }
            });
        } else if k == g.function_declaration
            || k == g.generator_function_declaration
            || k == g.class_declaration
            || k == g.abstract_class_declaration
        {
            // A local function or class: the function's own.
            if let Some(name) = field(node, g.f_name) {
                self.b.bind(name, Binding::Definition);
            }
            if k == g.class_declaration || k == g.abstract_class_declaration {
                self.local_class(node);
            } else {
                self.callable(node);
            }
        } else if k == g.lexical_declaration || k == g.variable_declaration {
            for declarator in children_of(node, g.variable_declarator) {
                let value = field(declarator, g.f_value);
                if let Some(module) = value.and_then(|v| self.required_module(v)) {
                    self.require_binding(field(declarator, g.f_name), &module, declarator);
                } else if let Some(name) = field(declarator, g.f_name) {
                    self.bind_pattern(name);
                }
                self.with(field(declarator, g.f_type), Self::ty);
                self.typed_object_keys(declarator);
                if let Some(value) = value {
                    self.visit(value);
                }
            }
        } else if k == g.statement_block || k == g.for_statement || k == g.for_in_statement || k == g.catch_clause {
            self.in_scope(ScopeKind::Function, |s| {
                if k == g.statement_block {
                    let was_module = std::mem::replace(&mut s.module_level, false);
                    s.statements(node, None);
                    s.module_level = was_module;
                } else {
                    s.block_statement(node);
                }
            });
        } else if k == g.string {
            self.string(node);
        } else if k == g.template_string {
            self.template(node, false);
        } else if k == g.object {
            self.object(node, None);
        } else if k == g.jsx_opening_element || k == g.jsx_self_closing_element {
            self.jsx_element(node);
        } else if k == g.jsx_closing_element {
        } else if k == g.type_annotation || k == g.type_arguments || k == g.type_identifier || k == g.generic_type {
            self.ty(node);
        } else if k == g.decorator {
            self.decorator(node);
        } else if k == g.labeled_statement {
            for child in children_not(node, g.statement_identifier) {
                self.visit(child);
            }
        } else if k == g.pair {
            // A key names nothing of its own; the value is read.
            self.visit_field(node, g.f_value);
            if let Some(key) = field(node, g.f_key).filter(|k| is(*k, g.computed_property_name)) {
                self.visit(key);
            }
        } else if k == g.shorthand_property_identifier {
            self.b.use_name(node, UseKind::Name, None);
        } else if k == g.method_definition {
            self.callable(node);
        } else if k == g.property_identifier || k == g.private_property_identifier {
        } else {
            self.visit_children(node);
        }
    }

    fn visit_type(&mut self, node: Node<'t>, kind: UseKind) {
        let g = self.g;
        let k = node.kind_id();
        if k == g.nested_type_identifier {
            if let Some(name) = field(node, g.f_name) {
                let module = field(node, g.f_module);
                if let Some(module) = module {
                    self.ty_as(module, UseKind::Name);
                }
                self.b.use_name(name, kind, module.and_then(|m| self.b.dotted(m)));
            }
        } else if k == g.identifier {
            self.b.use_name(node, if kind == UseKind::Type { UseKind::Name } else { kind }, None);
        } else if k == g.generic_type {
            if let Some(name) = field(node, g.f_name) {
                self.ty_as(name, kind);
            }
            self.with(field(node, g.f_type_arguments), Self::ty);
        } else if k == g.object_type {
            // An anonymous object type: its members' types.
            for member in named_children(node) {
                for part in children_not(member, g.property_identifier) {
                    if is(part, g.formal_parameters) { self.parameters(part) } else { self.ty(part) }
                }
            }
        } else if k == g.formal_parameters {
            self.parameters(node);
        } else if k == g.type_parameter {
            if let Some(name) = field(node, g.f_name) {
                self.b.bind(name, Binding::Local);
            }
            let name = field(node, g.f_name);
            for child in named_children(node).filter(|c| Some(*c) != name) {
                self.ty(child);
            }
        } else if k == g.predefined_type
            || k == g.comment
            || k == g.string
            || k == g.number
            || k == g.property_identifier
        {
        } else {
            for child in named_children(node) {
                self.ty_as(child, kind);
            }
        }
    }

    fn builder(&mut self) -> &mut Builder<'t> {
        &mut self.b
    }
}

impl<'t> Walk<'t> {
    // ----- statements -----

    /// The statements of a program, namespace or block, each with the comment above it.
    fn statements(&mut self, node: Node<'t>, parent: Option<DefId>) {
        for (child, doc) in self.b.documented(named_children(node), self.g.comment) {
            self.statement(child, doc, parent);
        }
    }

    /// One statement, one level deeper: declarations nest (namespaces, modules, the bodies of
    /// `module.exports` functions), so each level counts against [`MAX_DEPTH`].
    fn statement(&mut self, node: Node<'t>, doc: Option<String>, parent: Option<DefId>) {
        self.nested(node, |s| s.statement_kind(node, doc, parent));
    }

    fn statement_kind(&mut self, node: Node<'t>, doc: Option<String>, parent: Option<DefId>) {
        let g = self.g;
        let k = node.kind_id();
        if k == g.import_statement {
            self.import_statement(node);
        } else if k == g.export_statement {
            self.export_statement(node, doc, parent);
        } else if self.module_level && self.is_declaration(node) {
            self.declaration(node, doc, parent);
        } else if (self.module_level || self.api_body) && k == g.expression_statement {
            self.expression_statement(node, doc, parent);
        } else {
            self.visit(node);
        }
    }

    fn is_declaration(&self, node: Node<'t>) -> bool {
        let g = self.g;
        [
            g.function_declaration,
            g.generator_function_declaration,
            g.function_signature,
            g.class_declaration,
            g.abstract_class_declaration,
            g.interface_declaration,
            g.type_alias_declaration,
            g.enum_declaration,
            g.internal_module,
            g.module,
            g.ambient_declaration,
            g.lexical_declaration,
            g.variable_declaration,
        ]
        .iter()
        .any(|&kind| is(node, kind))
    }

    fn declaration(&mut self, node: Node<'t>, doc: Option<String>, parent: Option<DefId>) {
        let g = self.g;
        let k = node.kind_id();
        if k == g.function_declaration || k == g.generator_function_declaration || k == g.function_signature {
            let Some(name) = field(node, g.f_name) else { return self.visit(node) };
            self.b.bind(name, Binding::Definition);
            let signature = self.b.header(node, &[g.f_return_type, g.f_parameters]);
            let local = self.b.local_name(parent, &self.b.text(name));
            let id = self.b.define(name, local, DefKind::Function, node, signature, parent, doc);
            self.add_keywords_from(id, self.keywords_of_callable(node));
            self.callable_of(node, id);
        } else if k == g.class_declaration || k == g.abstract_class_declaration {
            self.class(node, doc, parent);
        } else if k == g.interface_declaration {
            let Some(name) = field(node, g.f_name) else { return self.visit(node) };
            self.b.bind(name, Binding::Definition);
            let signature =
                self.b.flat_text(node.start_byte(), field(node, g.f_body).map_or(node.end_byte(), |b| b.start_byte()));
            let local = self.b.local_name(parent, &self.b.text(name));
            let id = self.b.define(name, local, DefKind::Interface, node, signature, parent, doc);
            for child in named_children(node) {
                if Some(child) == field(node, g.f_body) {
                    self.members(child, id);
                } else if Some(child) != Some(name) {
                    self.ty_as(child, UseKind::Base);
                }
            }
        } else if k == g.type_alias_declaration {
            let Some(name) = field(node, g.f_name) else { return self.visit(node) };
            self.b.bind(name, Binding::Definition);
            let value = field(node, g.f_value);
            let end = field(node, g.f_type_parameters).unwrap_or(name).end_byte();
            let signature = format!("{} = …", self.b.flat_text(node.start_byte(), end));
            let local = self.b.local_name(parent, &self.b.text(name));
            let id = self.b.define(name, local, DefKind::TypeAlias, node, signature, parent, doc);
            self.with(field(node, g.f_type_parameters), Self::ty);
            match value {
                Some(v) if is(v, g.object_type) => self.members(v, id),
                Some(v) => self.ty(v),
                None => {}
            }
        } else if k == g.enum_declaration {
            let Some(name) = field(node, g.f_name) else { return self.visit(node) };
            self.b.bind(name, Binding::Definition);
            let signature = self.b.flat_text(node.start_byte(), name.end_byte());
            let local = self.b.local_name(parent, &self.b.text(name));
            let id = self.b.define(name, local.clone(), DefKind::Enum, node, signature, parent, doc);
            if let Some(body) = field(node, g.f_body) {
                for member in named_children(body) {
                    let name = if is(member, g.enum_assignment) { field(member, g.f_name) } else { Some(member) };
                    if let Some(name) = name.filter(|n| is(*n, g.property_identifier) || is(*n, g.string)) {
                        let text = member_name(&self.b.text(name));
                        let signature = self.b.flat_text(member.start_byte(), member.end_byte());
                        self.b.define(
                            name,
                            format!("{local}.{text}"),
                            DefKind::EnumConstant,
                            member,
                            signature,
                            Some(id),
                            None,
                        );
                    }
                    self.visit_field(member, g.f_value);
                }
            }
        } else if k == g.internal_module || k == g.module {
            let Some(name) = field(node, g.f_name) else { return self.visit(node) };
            if is(name, g.string) {
                // `declare module 'x' { … }`: ambient declarations of a package, no namespace.
                if let Some(body) = field(node, g.f_body) {
                    self.statements(body, parent);
                }
                return;
            }
            let text = self.b.text(name);
            let head = text.split('.').next().unwrap_or(&text).to_owned();
            self.b.scopes.bind(head.as_bytes(), Binding::Definition);
            let signature = self.b.flat_text(node.start_byte(), name.end_byte());
            let local = self.b.local_name(parent, &text);
            let id = self.b.define(name, local, DefKind::Namespace, node, signature, parent, doc);
            if let Some(body) = field(node, g.f_body) {
                self.in_scope(ScopeKind::Function, |s| {
                    s.statements(body, Some(id));
                });
            }
        } else if k == g.ambient_declaration {
            for child in named_children(node) {
                if self.is_declaration(child) {
                    self.declaration(child, doc.clone(), parent);
                } else {
                    self.visit(child);
                }
            }
        } else {
            // `const`, `let`, `var`.
            let keyword = if k == g.lexical_declaration {
                field(node, g.f_kind).map(|kw| self.b.text(kw)).unwrap_or_else(|| "let".to_owned())
            } else {
                "var".to_owned()
            };
            for declarator in children_of(node, g.variable_declarator) {
                self.module_variable(declarator, &keyword, doc.clone(), parent);
            }
        }
    }

    /// `const f = (…) => …` (a function), `const C = class …`, `const x = require('m')` (an
    /// import), `const X = …` (a constant or variable).
    fn module_variable(&mut self, declarator: Node<'t>, keyword: &str, doc: Option<String>, parent: Option<DefId>) {
        let g = self.g;
        let name = field(declarator, g.f_name);
        let value = field(declarator, g.f_value);
        if let Some(value) = value
            && let Some(module) = self.required_module(value)
        {
            self.require_binding(name, &module, declarator);
            return self.visit(value);
        }
        let Some(name) = name.filter(|n| is(*n, g.identifier)) else {
            // A destructuring pattern: module-level names, but no definitions of their own.
            if let Some(pattern) = name {
                self.bind_pattern(pattern);
            }
            self.with(field(declarator, g.f_type), Self::ty);
            if let Some(value) = value {
                self.visit(value);
            }
            return;
        };
        let function = value.filter(|v| {
            [g.arrow_function, g.function_expression, g.generator_function].iter().any(|&kind| is(*v, kind))
        });
        let class = value.filter(|v| is(*v, g.class));
        let kind = if function.is_some() {
            DefKind::Function
        } else if class.is_some() {
            DefKind::Class
        } else if keyword == "const" {
            DefKind::Constant
        } else {
            DefKind::Variable
        };
        self.b.scopes.bind(
            self.b.bytes(name),
            if kind == DefKind::Variable || kind == DefKind::Constant { Binding::Local } else { Binding::Definition },
        );
        let annotation = field(declarator, g.f_type).map(|t| self.b.flat_text(t.start_byte(), t.end_byte()));
        let signature = match function {
            Some(f) => format!(
                "{keyword} {}{} = {}",
                self.b.text(name),
                annotation.as_deref().unwrap_or_default(),
                self.b.header(f, &[g.f_return_type, g.f_parameters, g.f_parameter])
            ),
            None => format!("{keyword} {}{}", self.b.text(name), annotation.unwrap_or_default()),
        };
        let local = self.b.local_name(parent, &self.b.text(name));
        let id = self.b.define(name, local, kind, declarator, signature, parent, doc);
        if let Some(ty) = field(declarator, g.f_type) {
            // `const Banner: React.FC<BannerProps> = …`
            if function.is_some() {
                self.add_keywords_from(id, self.keywords_type(ty));
            }
            self.ty(ty);
        }
        self.typed_object_keys(declarator);
        if let Some(f) = function {
            self.add_keywords_from(id, self.keywords_of_callable(f));
        }
        let exported = self.exporting || self.exported.contains(&self.b.text(name));
        match (function, class, value) {
            (Some(f), _, _) => self.callable_of(f, id),
            (_, Some(c), _) => self.class_body_of(c, id),
            // `export const api = { list() {…} }`: the keys are the constant's members.
            (_, _, Some(v)) if exported && is(v, g.object) => self.object_members(v, id),
            (_, _, Some(v)) => self.visit(v),
            _ => {}
        }
    }

    /// `const user: UserController = { isFullyLoggedIn() {…}, id: 1 }`: an object literal written
    /// to a declared type implements that type's members, so each key uses its name as a member
    /// (`obj.isFullyLoggedIn` would): a test's fake of a new interface method names it. Without a
    /// type naming one (`Record<string, X>`, `{ a: number }`, `object`) a key names nothing.
    fn typed_object_keys(&mut self, declarator: Node<'t>) {
        let g = self.g;
        if field(declarator, g.f_type).and_then(|ty| self.keywords_type(ty)).is_none() {
            return;
        }
        let Some(object) = field(declarator, g.f_value).filter(|v| is(*v, g.object)) else { return };
        for member in named_children(object) {
            let key = if is(member, g.pair) || is(member, g.method_definition) {
                let key = if is(member, g.pair) { g.f_key } else { g.f_name };
                field(member, key).filter(|k| is(*k, g.property_identifier))
            } else if is(member, g.shorthand_property_identifier) {
                Some(member)
            } else {
                None
            };
            if let Some(key) = key {
                self.b.use_bound(key, UseKind::Attribute, None, Some(Binding::Receiver));
            }
        }
    }

    /// `'m'` of `require('m')` (possibly awaited or inside `.default`), if `value` is one.
    fn required_module(&self, value: Node<'t>) -> Option<String> {
        let g = self.g;
        let call = if is(value, g.member_expression) { field(value, g.f_object)? } else { value };
        if !is(call, g.call_expression) {
            return None;
        }
        let function = field(call, g.f_function)?;
        if self.b.bytes(function) != b"require" {
            return None;
        }
        let argument = named_children(field(call, g.f_arguments)?).next()?;
        is(argument, g.string).then(|| string_content(self.b.bytes(argument)))
    }

    /// `require('m')` read in place (`require('m').get()`): an import of `m` the file binds to
    /// no name of its own, so a name it invents (`require$3`, which no code spells) stands for
    /// it, and a member of it is qualified by that name as by an imported module's.
    fn inline_require(&mut self, object: Node<'t>) -> Option<String> {
        if !is(object, self.g.call_expression) {
            return None;
        }
        let module = self.required_module(object)?;
        let alias = format!("require${}", self.b.index.imports.len());
        self.b.scopes.bind_in(MODULE, alias.as_bytes(), Binding::Import);
        let line = object.start_position().row as u32;
        self.b.index.imports.push(Import { module, name: None, alias: Some(alias.clone()), wildcard: false, line });
        Some(alias)
    }

    /// `x` or `{a, b: c}` bound by `… = require('m')`: imports of `m`.
    fn require_binding(&mut self, name: Option<Node<'t>>, module: &str, declarator: Node<'t>) {
        let g = self.g;
        let line = declarator.start_position().row as u32;
        let Some(name) = name else { return };
        if is(name, g.identifier) {
            self.b.bind(name, Binding::Import);
            self.b.index.imports.push(Import {
                module: module.to_owned(),
                name: None,
                alias: Some(self.b.text(name)),
                wildcard: false,
                line,
            });
        } else if is(name, g.object_pattern) {
            for part in named_children(name) {
                let (imported, bound) = if is(part, g.shorthand_property_identifier_pattern) {
                    (part, part)
                } else if is(part, g.pair_pattern) {
                    match (field(part, g.f_key), field(part, g.f_value)) {
                        (Some(k), Some(v)) if is(v, g.identifier) => (k, v),
                        _ => continue,
                    }
                } else {
                    continue;
                };
                self.b.bind(bound, Binding::Import);
                let alias = (bound != imported).then(|| self.b.text(bound));
                self.b.use_bound(imported, UseKind::Import, Some(module.to_owned()), Some(Binding::Import));
                self.b.index.imports.push(Import {
                    module: module.to_owned(),
                    name: Some(self.b.text(imported)),
                    alias,
                    wildcard: false,
                    line,
                });
            }
        }
    }

    /// CommonJS and member assignments that define API: `module.exports = {…}`,
    /// `exports.name = …`, `User.getDisplayName = async function (uid) {…}`.
    fn expression_statement(&mut self, node: Node<'t>, doc: Option<String>, parent: Option<DefId>) {
        let g = self.g;
        let Some(assignment) = named_children(node).next().filter(|c| is(*c, g.assignment_expression)) else {
            return self.visit(node);
        };
        let (Some(left), Some(right)) = (field(assignment, g.f_left), field(assignment, g.f_right)) else {
            return self.visit(node);
        };
        let target = self.b.dotted(left);
        match target.as_deref() {
            Some("module.exports") => {
                if is(right, g.object) {
                    self.exported_object(right, doc);
                } else if [g.function_expression, g.arrow_function].iter().any(|&k| is(right, k)) {
                    // `module.exports = function (User) { User.x = … }`: its body defines API.
                    self.api_next = true;
                    self.callable(right);
                } else {
                    self.visit(right);
                }
            }
            Some(path) if is(left, g.member_expression) && !path.starts_with("this.") => {
                let Some(property) = field(left, g.f_property) else { return self.visit(node) };
                let object = path.rsplit_once('.').map_or("", |(o, _)| o);
                let exported = object == "exports" || object == "module.exports";
                let function =
                    [g.function_expression, g.arrow_function, g.generator_function].iter().any(|&k| is(right, k));
                if !exported && !function && !is(right, g.class) {
                    // `config.x = 1`: a write, not a definition.
                    return self.visit(node);
                }
                // `Foo.prototype.bar = …` belongs to Foo.
                let owner = object.strip_suffix(".prototype").unwrap_or(object);
                let property_name = self.b.text(property);
                let local = if exported || owner.is_empty() {
                    property_name.clone()
                } else {
                    format!("{owner}.{property_name}")
                };
                let kind = match (function, exported || owner.is_empty()) {
                    (true, true) => DefKind::Function,
                    (true, false) => DefKind::Method,
                    (false, _) if is(right, g.class) => DefKind::Class,
                    _ => DefKind::Variable,
                };
                let signature = if function {
                    format!(
                        "{} = {}",
                        self.b.flat_text(left.start_byte(), left.end_byte()),
                        self.b.header(right, &[g.f_return_type, g.f_parameters, g.f_parameter])
                    )
                } else {
                    self.b.flat_text(left.start_byte(), left.end_byte())
                };
                let owner_def = self
                    .b
                    .index
                    .definitions
                    .iter()
                    .rposition(|d| d.name == owner && d.parent.is_none())
                    .map(|i| i as DefId);
                let parent = if exported { parent } else { owner_def.or(parent) };
                let local = match parent {
                    Some(p) if owner_def == Some(p) => {
                        format!("{}.{property_name}", self.b.index.definition(p).local_name)
                    }
                    _ => local,
                };
                let id = self.b.define(property, local, kind, assignment, signature, parent, doc);
                // The object is read (`User` is a use), the value walked.
                self.visit_field(left, g.f_object);
                if function { self.callable_of(right, id) } else { self.visit(right) }
            }
            _ => self.visit(node),
        }
    }

    /// The keys of an exported constant's object literal (`export const api = { list() {…},
    /// limit: 5 }`): members of it, functions as methods.
    fn object_members(&mut self, object: Node<'t>, owner: DefId) {
        let g = self.g;
        let owner_local = self.b.index.definition(owner).local_name.clone();
        let mut comments: Vec<Node<'t>> = Vec::new();
        for member in named_children(object) {
            if is(member, g.comment) {
                comments.push(member);
                continue;
            }
            let doc = self.b.doc_above(&comments, member);
            comments.clear();
            if is(member, g.pair) {
                let (Some(key), value) = (field(member, g.f_key), field(member, g.f_value)) else { continue };
                let function = value.filter(|v| {
                    [g.function_expression, g.arrow_function, g.generator_function].iter().any(|&k| is(*v, k))
                });
                let mut id = None;
                if is(key, g.property_identifier) || is(key, g.string) {
                    let key_name = member_name(&self.b.text(key));
                    let (kind, signature) = match function {
                        Some(f) => (
                            DefKind::Method,
                            format!(
                                "{key_name}: {}",
                                self.b.header(f, &[g.f_return_type, g.f_parameters, g.f_parameter])
                            ),
                        ),
                        None => (DefKind::Variable, key_name.clone()),
                    };
                    let local = format!("{owner_local}.{key_name}");
                    id = Some(self.b.define(key, local, kind, member, signature, Some(owner), doc));
                } else {
                    self.visit(key);
                }
                match (function, id, value) {
                    (Some(f), Some(id), _) => self.callable_of(f, id),
                    (_, _, Some(v)) => self.visit(v),
                    _ => {}
                }
            } else if is(member, g.method_definition) {
                let Some(name) = field(member, g.f_name).filter(|n| !is(*n, g.computed_property_name)) else {
                    self.callable(member);
                    continue;
                };
                let signature = self.b.header(member, &[g.f_return_type, g.f_parameters]);
                let local = format!("{owner_local}.{}", member_name(&self.b.text(name)));
                let id = self.b.define(name, local, DefKind::Method, member, signature, Some(owner), doc);
                self.callable_of(member, id);
            } else {
                // `{ helper }` and `...spread` read names defined elsewhere.
                self.visit(member);
            }
        }
    }

    /// Module-level names exported by name, so that `const api = {…}` exported further down
    /// (`module.exports = api`, `export { api }`, `export default api`) has its keys defined.
    fn exported_names(&mut self, root: Node<'t>) {
        let g = self.g;
        for statement in named_children(root) {
            if is(statement, g.export_statement) && field(statement, g.f_source).is_none() {
                if let Some(value) = field(statement, g.f_value).filter(|v| is(*v, g.identifier)) {
                    self.exported.insert(self.b.text(value));
                }
                for clause in children_of(statement, g.export_clause) {
                    for specifier in children_of(clause, g.export_specifier) {
                        if let Some(name) = field(specifier, g.f_name) {
                            self.exported.insert(self.b.text(name));
                        }
                    }
                }
            } else if is(statement, g.expression_statement)
                && let Some(assignment) = named_children(statement).next().filter(|c| is(*c, g.assignment_expression))
                && let (Some(left), Some(right)) = (field(assignment, g.f_left), field(assignment, g.f_right))
                && is(right, g.identifier)
                && self.b.dotted(left).as_deref() == Some("module.exports")
            {
                self.exported.insert(self.b.text(right));
            }
        }
    }

    /// `module.exports = { a, b: fn, c() {…} }`: each key is an exported definition.
    fn exported_object(&mut self, object: Node<'t>, doc: Option<String>) {
        let g = self.g;
        for member in named_children(object) {
            if is(member, g.pair) {
                let (Some(key), value) = (field(member, g.f_key), field(member, g.f_value)) else { continue };
                let function =
                    value.is_some_and(|v| [g.function_expression, g.arrow_function].iter().any(|&k| is(v, k)));
                let kind = if function { DefKind::Function } else { DefKind::Variable };
                let signature = self.b.flat_text(
                    member.start_byte(),
                    value.map_or(member.end_byte(), |v| {
                        if function {
                            field(v, g.f_parameters).or(field(v, g.f_parameter)).map_or(v.end_byte(), |p| p.end_byte())
                        } else {
                            key.end_byte()
                        }
                    }),
                );
                let name = member_name(&self.b.text(key));
                let id = self.b.define(key, name, kind, member, signature, None, doc.clone());
                if let Some(value) = value {
                    if function { self.callable_of(value, id) } else { self.visit(value) }
                }
            } else if is(member, g.method_definition) {
                let Some(name) = field(member, g.f_name) else {
                    self.callable(member);
                    continue;
                };
                let signature = self.b.header(member, &[g.f_return_type, g.f_parameters]);
                let id = self.b.define(
                    name,
                    member_name(&self.b.text(name)),
                    DefKind::Function,
                    member,
                    signature,
                    None,
                    doc.clone(),
                );
                self.callable_of(member, id);
            } else if is(member, g.shorthand_property_identifier) {
                // `module.exports = { helper }`: exports a name defined above.
                self.b.use_name(member, UseKind::Name, None);
            } else {
                self.visit(member);
            }
        }
    }

    fn class(&mut self, node: Node<'t>, doc: Option<String>, parent: Option<DefId>) {
        let g = self.g;
        let Some(name) = field(node, g.f_name) else { return self.visit(node) };
        self.b.bind(name, Binding::Definition);
        let end = field(node, g.f_body).map_or(node.end_byte(), |b| b.start_byte());
        let signature = self.b.flat_text(node.start_byte(), end);
        let local = self.b.local_name(parent, &self.b.text(name));
        let id = self.b.define(name, local, DefKind::Class, node, signature, parent, doc);
        self.class_body_of(node, id);
    }

    /// A class's decorators, heritage, type parameters and members, for the definition `id`.
    fn class_body_of(&mut self, node: Node<'t>, id: DefId) {
        let g = self.g;
        let name = field(node, g.f_name);
        for child in named_children(node) {
            if Some(child) == name {
                continue;
            }
            if is(child, g.class_body) {
                self.class_members(child, id);
            } else if is(child, g.class_heritage) {
                // `class Banner extends React.Component<BannerProps>` takes BannerProps's keywords.
                if let Some(extends) = children_of(child, g.extends_clause).next() {
                    self.add_keywords_from(id, self.keywords_type(extends));
                }
                self.heritage(child);
            } else if is(child, g.decorator) {
                self.decorator(child);
            } else {
                self.ty(child);
            }
        }
    }

    fn heritage(&mut self, node: Node<'t>) {
        let g = self.g;
        for clause in named_children(node) {
            if is(clause, g.extends_clause) {
                for part in named_children(clause) {
                    self.reference(part, UseKind::Base);
                }
            } else if is(clause, g.implements_clause) {
                self.ty_as(clause, UseKind::Base);
            } else {
                // JavaScript: `class A extends B` has the expression directly.
                self.reference(clause, UseKind::Base);
            }
        }
    }

    fn class_members(&mut self, body: Node<'t>, class: DefId) {
        let g = self.g;
        let class_local = self.b.index.definition(class).local_name.clone();
        let mut comments: Vec<Node<'t>> = Vec::new();
        let mut decorators: Vec<Node<'t>> = Vec::new();
        for member in named_children(body) {
            if is(member, g.comment) {
                comments.push(member);
                continue;
            }
            if is(member, g.decorator) {
                decorators.push(member);
                continue;
            }
            let doc = self.b.doc_above(&comments, member);
            comments.clear();
            for decorator in decorators.drain(..) {
                self.decorator(decorator);
            }
            let k = member.kind_id();
            if k == g.method_definition || k == g.method_signature || k == g.abstract_method_signature {
                let Some(name) = field(member, g.f_name) else { continue };
                let text = member_name(&self.b.text(name));
                let constructor = text == "constructor";
                let kind = if constructor { DefKind::Constructor } else { DefKind::Method };
                let signature = self.b.header(member, &[g.f_return_type, g.f_parameters]);
                let id =
                    self.b.define(name, format!("{class_local}.{text}"), kind, member, signature, Some(class), doc);
                self.add_keywords_from(id, self.keywords_of_callable(member));
                if constructor {
                    self.parameter_properties(member, class, &class_local);
                    self.add_keywords_from(class, self.keywords_of_callable(member));
                    let was = self.constructor_of.replace((class, class_local.clone()));
                    self.callable_of(member, id);
                    self.constructor_of = was;
                } else {
                    self.callable_of(member, id);
                }
            } else if k == g.public_field_definition || k == g.field_definition {
                let name = field(member, g.f_name).or_else(|| field(member, g.f_property));
                if let Some(name) = name.filter(|n| !is(*n, g.computed_property_name)) {
                    let text = member_name(&self.b.text(name));
                    let end = field(member, g.f_type).unwrap_or(name).end_byte();
                    let signature = self.b.flat_text(member.start_byte(), end);
                    self.fields_seen.insert((class, text.clone()));
                    self.b.define(
                        name,
                        format!("{class_local}.{text}"),
                        DefKind::Field,
                        member,
                        signature,
                        Some(class),
                        doc,
                    );
                }
                for part in [field(member, g.f_type), field(member, g.f_value)].into_iter().flatten() {
                    if is(part, g.type_annotation) { self.ty(part) } else { self.visit(part) }
                }
                for child in children_of(member, g.decorator) {
                    self.decorator(child);
                }
            } else {
                self.visit(member);
            }
        }
    }

    /// `constructor(private readonly opts: Options)`: parameters that are fields too.
    fn parameter_properties(&mut self, constructor: Node<'t>, class: DefId, class_local: &str) {
        let g = self.g;
        let Some(parameters) = field(constructor, g.f_parameters) else { return };
        for parameter in named_children(parameters) {
            let modified = named_children(parameter).any(|c| is(c, g.accessibility_modifier))
                || self.b.bytes(parameter).starts_with(b"readonly ");
            let name = field(parameter, g.f_pattern).filter(|p| is(*p, g.identifier));
            if let (true, Some(name)) = (modified, name) {
                let text = self.b.text(name);
                let end = field(parameter, g.f_type).unwrap_or(name).end_byte();
                let signature = self.b.flat_text(parameter.start_byte(), end);
                self.fields_seen.insert((class, text.clone()));
                self.b.define(
                    name,
                    format!("{class_local}.{text}"),
                    DefKind::Field,
                    parameter,
                    signature,
                    Some(class),
                    None,
                );
            }
        }
    }

    /// An interface's or object type's properties and methods, as members of `owner`.
    fn members(&mut self, body: Node<'t>, owner: DefId) {
        let g = self.g;
        let owner_local = self.b.index.definition(owner).local_name.clone();
        let mut comments: Vec<Node<'t>> = Vec::new();
        for member in named_children(body) {
            if is(member, g.comment) {
                comments.push(member);
                continue;
            }
            let doc = self.b.doc_above(&comments, member);
            comments.clear();
            let k = member.kind_id();
            let kind = if k == g.property_signature {
                DefKind::Property
            } else if k == g.method_signature {
                DefKind::Method
            } else {
                self.ty(member);
                continue;
            };
            if let Some(name) = field(member, g.f_name).filter(|n| !is(*n, g.computed_property_name)) {
                let text = member_name(&self.b.text(name));
                let signature =
                    self.b.flat_text(member.start_byte(), member.end_byte()).trim_end_matches([';', ',']).to_owned();
                self.b.define(name, format!("{owner_local}.{text}"), kind, member, signature, Some(owner), doc);
            }
            for part in [field(member, g.f_type), field(member, g.f_parameters), field(member, g.f_return_type)]
                .into_iter()
                .flatten()
            {
                if is(part, g.formal_parameters) { self.parameters(part) } else { self.ty(part) }
            }
        }
    }

    // ----- imports and exports -----

    fn import_statement(&mut self, node: Node<'t>) {
        let g = self.g;
        let Some(source) = field(node, g.f_source) else { return self.visit_children(node) };
        let module = string_content(self.b.bytes(source));
        self.module_path_uses(source);
        let line = node.start_position().row as u32;
        for clause in children_of(node, g.import_clause) {
            for part in named_children(clause) {
                if is(part, g.identifier) {
                    // `import X from 'm'`: the default export.
                    self.b.bind(part, Binding::Import);
                    self.b.index.imports.push(Import {
                        module: module.clone(),
                        name: Some("default".to_owned()),
                        alias: Some(self.b.text(part)),
                        wildcard: false,
                        line,
                    });
                } else if is(part, g.namespace_import) {
                    if let Some(alias) = named_children(part).next() {
                        self.b.bind(alias, Binding::Import);
                        self.b.index.imports.push(Import {
                            module: module.clone(),
                            name: None,
                            alias: Some(self.b.text(alias)),
                            wildcard: false,
                            line,
                        });
                    }
                } else if is(part, g.named_imports) {
                    for specifier in children_of(part, g.import_specifier) {
                        self.specifier(specifier, &module, line, true);
                    }
                }
            }
        }
    }

    /// `{ a as b }` of an import (or a re-export): an import of `a` from `module`, bound as `b`.
    fn specifier(&mut self, specifier: Node<'t>, module: &str, line: u32, binds: bool) {
        let g = self.g;
        let Some(name) = field(specifier, g.f_name) else { return };
        let alias = field(specifier, g.f_alias);
        self.b.use_bound(name, UseKind::Import, Some(module.to_owned()), Some(Binding::Import));
        if binds {
            self.b.scopes.bind(self.b.bytes(alias.unwrap_or(name)), Binding::Import);
        }
        self.b.index.imports.push(Import {
            module: module.to_owned(),
            name: Some(member_name(&self.b.text(name))),
            alias: alias.map(|a| self.b.text(a)),
            wildcard: false,
            line,
        });
    }

    /// Each component of a module specifier is a use of the module it names.
    fn module_path_uses(&mut self, string: Node<'t>) {
        let mut prefix = String::new();
        for (start, end, component) in quoted_path_components(self.b.src, string.start_byte(), string.end_byte()) {
            if component.is_empty() || component == "." || component == ".." {
                if !component.is_empty() {
                    prefix.push_str(&component);
                    prefix.push('/');
                }
                continue;
            }
            // `./data.js` names the module `data`.
            let name = crate::module_of_path(&component);
            let name = if name.is_empty() { component.clone() } else { name };
            let qualifier = (!prefix.is_empty()).then(|| prefix.trim_end_matches('/').to_owned());
            let span = self.b.span_within(string, start, (start + name.len()).min(end));
            self.b.use_spelled(name, span, UseKind::ImportModule, qualifier, Some(Binding::Import));
            prefix.push_str(&component);
            prefix.push('/');
        }
    }

    fn export_statement(&mut self, node: Node<'t>, doc: Option<String>, parent: Option<DefId>) {
        let g = self.g;
        if let Some(source) = field(node, g.f_source) {
            // A re-export: an import the resolver follows.
            let module = string_content(self.b.bytes(source));
            self.module_path_uses(source);
            let line = node.start_position().row as u32;
            let mut any = false;
            for clause in children_of(node, g.export_clause) {
                for specifier in children_of(clause, g.export_specifier) {
                    any = true;
                    self.specifier(specifier, &module, line, false);
                }
            }
            if !any {
                let namespace = named_children(node).find(|c| is(*c, g.namespace_export));
                let alias = namespace.and_then(|n| named_children(n).next()).map(|a| self.b.text(a));
                self.b.index.imports.push(Import {
                    module,
                    name: None,
                    alias: alias.clone(),
                    wildcard: alias.is_none(),
                    line,
                });
            }
            return;
        }
        if let Some(declaration) = field(node, g.f_declaration) {
            for decorator in children_of(node, g.decorator) {
                self.decorator(decorator);
            }
            if !self.module_level {
                return self.visit(declaration);
            }
            let was = std::mem::replace(&mut self.exporting, true);
            self.declaration(declaration, doc, parent);
            self.exporting = was;
            return;
        }
        if let Some(value) = field(node, g.f_value) {
            // `export default class Foo {}` / `export default function f() {}`.
            if self.module_level
                && (is(value, g.class) || is(value, g.function_expression))
                && field(value, g.f_name).is_some()
            {
                if is(value, g.class) {
                    return self.class(value, doc, parent);
                }
                let name = field(value, g.f_name).expect("checked");
                let signature = self.b.header(value, &[g.f_return_type, g.f_parameters]);
                let id = self.b.define(name, self.b.text(name), DefKind::Function, value, signature, parent, doc);
                return self.callable_of(value, id);
            }
            // `export default { … }`: the keys are the module's, as of `module.exports = { … }`.
            if self.module_level && is(value, g.object) {
                return self.exported_object(value, doc);
            }
            return self.visit(value);
        }
        // `export { a, b as c }` of local names: uses of them.
        for clause in children_of(node, g.export_clause) {
            for specifier in children_of(clause, g.export_specifier) {
                if let Some(name) = field(specifier, g.f_name) {
                    self.b.use_name(name, UseKind::Name, None);
                }
            }
        }
        for child in children_not(node, g.export_clause) {
            self.visit(child);
        }
    }

    // ----- functions and parameters -----

    /// A function, arrow, method or accessor: its parameters bind in its scope, its body is
    /// read as statements.
    /// The types whose properties a callable takes as keywords: its parameters' types
    /// (`({ title }: BannerProps)`, `(caller: Caller, data: UserData)`).
    fn keywords_of_callable(&self, callable: Node<'t>) -> Vec<String> {
        let g = self.g;
        let Some(parameters) = field(callable, g.f_parameters) else { return Vec::new() };
        named_children(parameters)
            .filter(|p| is(*p, g.required_parameter) || is(*p, g.optional_parameter))
            .filter_map(|p| self.keywords_type(field(p, g.f_type)?))
            .collect()
    }

    /// A type's name as a keyword source, through annotations and wrappers whose first type
    /// argument is what they carry (`React.FC<Props>`, `Readonly<Props>`, `api.Options` → `Options`).
    fn keywords_type(&self, ty: Node<'t>) -> Option<String> {
        let g = self.g;
        let mut ty = ty;
        for _ in 0..MAX_TYPE_NESTING {
            let k = ty.kind_id();
            if k == g.type_identifier {
                return Some(self.b.text(ty));
            } else if k == g.nested_type_identifier {
                return field(ty, g.f_name).map(|n| self.b.text(n));
            } else if k == g.generic_type || k == g.extends_clause {
                let arguments = field(ty, g.f_type_arguments)?;
                ty = named_children(arguments).next()?;
            } else if k == g.type_annotation {
                ty = named_children(ty).next()?;
            } else {
                return None;
            }
        }
        None
    }

    fn add_keywords_from(&mut self, id: DefId, types: impl IntoIterator<Item = String>) {
        let d = &mut self.b.index.definitions[id as usize];
        for ty in types {
            if !d.keywords_from.contains(&ty) {
                d.keywords_from.push(ty);
            }
        }
    }

    fn callable(&mut self, node: Node<'t>) {
        let g = self.g;
        self.in_scope(ScopeKind::Function, |s| {
            let was_module = std::mem::replace(&mut s.module_level, false);
            let api_body = std::mem::take(&mut s.api_next);
            let was_api = std::mem::replace(&mut s.api_body, api_body);
            let owner = s.parameters_of.take();
            s.with(field(node, g.f_type_parameters), Self::ty);
            if let Some(parameters) = field(node, g.f_parameters) {
                s.parameters_declared(parameters, owner);
            }
            if let Some(parameter) = field(node, g.f_parameter) {
                s.b.bind(parameter, Binding::Local);
            }
            s.with(field(node, g.f_return_type), Self::ty);
            if let Some(body) = field(node, g.f_body) {
                if is(body, g.statement_block) {
                    s.statements(body, None);
                } else {
                    s.visit(body);
                }
            }
            s.module_level = was_module;
            s.api_body = was_api;
        });
    }

    fn parameters(&mut self, parameters: Node<'t>) {
        self.parameters_declared(parameters, None);
    }

    /// A callable's definition `owner` and the next callable read: its parameters declare.
    fn callable_of(&mut self, node: Node<'t>, owner: DefId) {
        self.parameters_of = Some(owner);
        self.callable(node);
    }

    /// The keys of a destructured object parameter (`function call(url, { timeout, jar } =
    /// {})`, a component's `({ title, onDismiss })`) are what a caller's object literal names:
    /// parameters of `owner`. A parameter typed by a named type (`{ title }: BannerProps`)
    /// takes its keys from that type's properties instead ([`Walk::keywords_of_callable`]).
    fn destructured_parameters(&mut self, pattern: Node<'t>, ty: Option<Node<'t>>, owner: DefId) {
        let g = self.g;
        let typed_by_name = ty.and_then(|t| named_children(t).next()).is_some_and(|t| !is(t, g.object_type));
        let pattern = if is(pattern, g.assignment_pattern) { field(pattern, g.f_left) } else { Some(pattern) };
        let Some(pattern) = pattern.filter(|p| is(*p, g.object_pattern) && !typed_by_name) else { return };
        let owner_local = self.b.index.definition(owner).local_name.clone();
        for entry in named_children(pattern) {
            let key = if is(entry, g.shorthand_property_identifier_pattern) {
                Some(entry)
            } else if is(entry, g.object_assignment_pattern) {
                field(entry, g.f_left).filter(|l| is(*l, g.shorthand_property_identifier_pattern))
            } else if is(entry, g.pair_pattern) {
                field(entry, g.f_key).filter(|k| is(*k, g.property_identifier))
            } else {
                None
            };
            if let Some(key) = key {
                let signature = self.b.flat_text(entry.start_byte(), entry.end_byte());
                let local = format!("{owner_local}.{}", self.b.text(key));
                self.b.define(key, local, DefKind::Parameter, entry, signature, Some(owner), None);
            }
        }
    }

    fn parameters_declared(&mut self, parameters: Node<'t>, owner: Option<DefId>) {
        let g = self.g;
        for parameter in named_children(parameters) {
            if let Some(owner) = owner {
                let typed = is(parameter, g.required_parameter) || is(parameter, g.optional_parameter);
                let (pattern, ty) = if typed {
                    (field(parameter, g.f_pattern), field(parameter, g.f_type))
                } else {
                    (Some(parameter), None)
                };
                if let Some(pattern) = pattern {
                    self.destructured_parameters(pattern, ty, owner);
                }
            }
            if is(parameter, g.required_parameter) || is(parameter, g.optional_parameter) {
                self.with(field(parameter, g.f_pattern), Self::bind_pattern);
                self.with(field(parameter, g.f_type), Self::ty);
                self.visit_field(parameter, g.f_value);
                for decorator in children_of(parameter, g.decorator) {
                    self.decorator(decorator);
                }
            } else if !is(parameter, g.comment) {
                self.bind_pattern(parameter);
            }
        }
    }

    /// The names a pattern binds (`x`, `{a, b: c}`, `[d, ...e]`, `f = 1`); defaults are read.
    fn bind_pattern(&mut self, pattern: Node<'t>) {
        let g = self.g;
        self.nested(pattern, |s| {
            let k = pattern.kind_id();
            if k == g.identifier || k == g.shorthand_property_identifier_pattern {
                s.b.bind(pattern, Binding::Local);
            } else if k == g.assignment_pattern || k == g.object_assignment_pattern {
                s.with(field(pattern, g.f_left), Self::bind_pattern);
                s.visit_field(pattern, g.f_right);
            } else if k == g.pair_pattern {
                s.with(field(pattern, g.f_value), Self::bind_pattern);
            } else if k == g.object_pattern || k == g.array_pattern || k == g.rest_pattern {
                for child in named_children(pattern) {
                    s.bind_pattern(child);
                }
            } else if k == g.required_parameter || k == g.optional_parameter {
                s.with(field(pattern, g.f_pattern), Self::bind_pattern);
            } else if k == g.member_expression || k == g.subscript_expression {
                s.visit(pattern);
            }
        });
    }

    fn decorator(&mut self, node: Node<'t>) {
        for child in named_children(node) {
            if is(child, self.g.call_expression) {
                let function = field(child, self.g.f_function);
                if let Some(function) = function {
                    self.reference(function, UseKind::Decorator);
                }
                if let Some(arguments) = field(child, self.g.f_arguments) {
                    self.arguments(arguments, function);
                }
            } else {
                self.reference(child, UseKind::Decorator);
            }
        }
    }

    // ----- expressions -----

    /// A `for`/`for…in/of`/`catch`: what its header declares binds in it.
    fn block_statement(&mut self, node: Node<'t>) {
        let g = self.g;
        if is(node, g.catch_clause)
            && let Some(parameter) = field(node, g.f_parameter)
        {
            self.bind_pattern(parameter);
        }
        if is(node, g.for_in_statement)
            && field(node, g.f_kind).is_some()
            && let Some(left) = field(node, g.f_left)
        {
            self.bind_pattern(left);
        }
        let skip =
            [field(node, g.f_parameter), if field(node, g.f_kind).is_some() { field(node, g.f_left) } else { None }];
        for child in named_children(node).filter(|c| !skip.contains(&Some(*c))) {
            self.visit(child);
        }
    }

    fn local_class(&mut self, node: Node<'t>) {
        let g = self.g;
        for child in named_children(node) {
            if is(child, g.class_body) {
                for member in named_children(child) {
                    if is(member, g.method_definition) { self.callable(member) } else { self.visit(member) }
                }
            } else if is(child, g.class_heritage) {
                self.heritage(child);
            } else if Some(child) != field(node, g.f_name) {
                self.visit(child);
            }
        }
    }

    fn assignment(&mut self, node: Node<'t>) {
        let g = self.g;
        let left = field(node, g.f_left);
        if let Some(left) = left {
            // `this.x = …` in a constructor declares field `x`.
            if let (Some((class, class_local)), true) = (self.constructor_of.clone(), is(left, g.member_expression)) {
                let object = field(left, g.f_object);
                let property = field(left, g.f_property);
                if let (Some(object), Some(property)) = (object, property)
                    && is(object, g.this)
                    && self.fields_seen.insert((class, self.b.text(property)))
                {
                    let text = self.b.text(property);
                    let signature = format!("this.{text}");
                    self.b.define(
                        property,
                        format!("{class_local}.{text}"),
                        DefKind::Field,
                        node,
                        signature,
                        Some(class),
                        None,
                    );
                } else {
                    self.visit(left);
                }
            } else if is(left, g.identifier) && is(node, g.assignment_expression) {
                // A plain assignment writes the name; it reads nothing.
            } else {
                self.visit(left);
            }
        }
        for child in named_children(node).filter(|c| Some(*c) != left) {
            self.visit(child);
        }
    }

    /// `f(…)`, `obj.m(…)`, `require('m')`, `import('m')`.
    fn call(&mut self, node: Node<'t>) {
        let g = self.g;
        let function = field(node, g.f_function);
        if let Some(function) = function {
            let is_require = self.b.bytes(function) == b"require" || is(function, g.import_kw);
            if is_require
                && let Some(argument) = field(node, g.f_arguments).and_then(|a| named_children(a).next())
                && is(argument, g.string)
            {
                return self.module_path_uses(argument);
            }
            self.reference(function, UseKind::Call);
        }
        self.with(field(node, g.f_type_arguments), Self::ty);
        if let Some(arguments) = field(node, g.f_arguments) {
            if is(arguments, g.template_string) {
                self.template(arguments, false)
            } else {
                self.arguments(arguments, function)
            }
        }
    }

    /// A call's arguments, `callee` being what is called: an object literal's keys are its
    /// keyword arguments (when it is a chain of names), a string is an error message when the
    /// callee makes it one ([`Walk::is_error_callee`]).
    fn arguments(&mut self, arguments: Node<'t>, callee: Option<Node<'t>>) {
        let g = self.g;
        let mut error = None;
        let called = callee.and_then(|c| self.b.dotted(c));
        for argument in named_children(arguments) {
            if is(argument, g.object) {
                self.object(argument, Some(called.clone()));
            } else if is(argument, g.string) || is(argument, g.template_string) {
                let error = *error.get_or_insert_with(|| callee.is_some_and(|c| self.is_error_callee(c)));
                if is(argument, g.string) { self.string_in(argument, error) } else { self.template(argument, error) }
            } else {
                self.visit(argument);
            }
        }
    }

    /// An object literal; `options` when it is passed as an argument, with the callee it is
    /// passed to (`None` inside when the callee is no chain of names: `make()({ k })`). Its
    /// keys are keyword arguments of that callee.
    fn object(&mut self, object: Node<'t>, options: Option<Option<String>>) {
        let g = self.g;
        for member in named_children(object) {
            let Some(callee) = &options else {
                self.visit(member);
                continue;
            };
            if is(member, g.pair) {
                if let Some(key) = field(member, g.f_key).filter(|k| is(*k, g.property_identifier)) {
                    self.b.use_name(key, UseKind::KeywordArgument, callee.clone());
                }
                self.visit_field(member, g.f_value);
            } else if is(member, g.shorthand_property_identifier) {
                // `{ timeoutMs }`: the option's name, and a read of the variable.
                self.b.use_name(member, UseKind::KeywordArgument, callee.clone());
                self.b.use_name(member, UseKind::Name, None);
            } else {
                self.visit(member);
            }
        }
    }

    /// A name or member chain used as `kind` (`Call`, `Instantiation`, `Base`…): its last name
    /// takes that role, qualified by the chain before it; other expressions are read.
    fn reference(&mut self, node: Node<'t>, kind: UseKind) {
        let g = self.g;
        self.nested(node, |s| {
            if is(node, g.identifier) {
                s.b.use_name(node, kind, None);
            } else if is(node, g.member_expression) {
                let object = field(node, g.f_object);
                if let Some(object) = object {
                    if is(object, g.member_expression) {
                        s.reference(object, UseKind::Attribute)
                    } else {
                        s.visit(object)
                    }
                }
                if let Some(property) = field(node, g.f_property) {
                    let qualifier = object.and_then(|o| s.b.dotted(o).or_else(|| s.inline_require(o)));
                    match qualifier {
                        Some(qualifier) => s.b.use_name(property, kind, Some(qualifier)),
                        None => s.b.use_bound(property, kind, None, Some(Binding::Receiver)),
                    }
                }
            } else {
                s.visit(node);
            }
        });
    }

    /// `<Button onHover={…} />`: a component (capitalised, or a member chain) is instantiated
    /// and its attributes are keyword arguments to it; a lower-case tag is HTML.
    fn jsx_element(&mut self, node: Node<'t>) {
        let g = self.g;
        let name = field(node, g.f_name);
        let component = name.and_then(|n| {
            let text = self.b.text(n);
            let is_component = text.starts_with(|c: char| c.is_uppercase()) || text.contains('.');
            is_component.then_some(text)
        });
        if let (Some(name), Some(_)) = (name, &component) {
            self.reference(name, UseKind::Instantiation);
        }
        for child in named_children(node) {
            if Some(child) == name {
                continue;
            }
            if is(child, g.jsx_attribute) {
                let mut parts = named_children(child);
                if let Some(key) = parts.next()
                    && let (true, Some(component)) = (is(key, g.property_identifier), &component)
                {
                    self.b.use_name(key, UseKind::KeywordArgument, Some(component.clone()));
                }
                for value in parts {
                    self.visit(value);
                }
            } else {
                self.visit(child);
            }
        }
    }

    // ----- types -----

    // ----- strings -----

    fn string(&mut self, node: Node<'t>) {
        self.string_in(node, false);
    }

    /// A string literal; `error` when it is an error message.
    fn string_in(&mut self, node: Node<'t>, error: bool) {
        let value = string_content(self.b.bytes(node));
        self.b.string(value, node, error);
    }

    /// A template's text, with `{}` for each substitution (which is read); `error` when it is
    /// an error message.
    fn template(&mut self, node: Node<'t>, error: bool) {
        let g = self.g;
        let slot = self.b.index.strings.len();
        self.b.string(String::new(), node, error);
        let mut value = String::new();
        let mut at = node.start_byte() + 1;
        for child in named_children(node) {
            value.push_str(&String::from_utf8_lossy(self.b.src.get(at..child.start_byte()).unwrap_or_default()));
            at = child.end_byte();
            if is(child, g.template_substitution) {
                value.push_str("{}");
                self.visit_children(child);
            } else {
                value.push_str(&self.b.text(child));
            }
        }
        value.push_str(&String::from_utf8_lossy(
            self.b.src.get(at..node.end_byte().saturating_sub(1)).unwrap_or_default(),
        ));
        self.b.index.strings[slot].value = value;
    }

    /// Whether a callee makes its string arguments error messages: `new …Error(…)`, or a
    /// matcher such as `toThrow`/`rejects.toThrow`/`assert.throws`. (Read from the callee as the
    /// arguments are walked: asking a string for its parent would descend from the root.)
    fn is_error_callee(&self, callee: Node<'t>) -> bool {
        let name = self.b.text(callee);
        let last = name.rsplit('.').next().unwrap_or(&name);
        last.ends_with("Error")
            || matches!(last, "toThrow" | "toThrowError" | "throws" | "rejects" | "toThrowErrorMatchingSnapshot")
            || hintlens_syntax::ERROR_MESSAGE_CALLEES.contains(&last)
    }
}

/// The named children of `node` of any kind but `kind`.
fn children_not(node: Node<'_>, kind: u16) -> impl Iterator<Item = Node<'_>> {
    named_children(node).filter(move |c| kind == 0 || c.kind_id() != kind)
}

/// A member's name as code spells it: quotes removed from `'key'`.
fn member_name(text: &str) -> String {
    text.trim_matches(|c| c == '\'' || c == '"' || c == '`').to_owned()
}

/// A string literal's content: quotes removed, escapes left as written.
fn string_content(literal: &[u8]) -> String {
    unquote(literal, &['"', '\'', '`'])
}
