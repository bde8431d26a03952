//! One walk over a Rust syntax tree: definitions, uses, imports, strings, test regions, and the
//! bindings of every use.
//!
//! The walk recurses over named children, dispatching on the node's kind (numeric ids resolved
//! once, see [`Grammar`]); below [`MAX_DEPTH`] levels it reads the rest flat, so that no input
//! nests deeply enough to exhaust the stack.

use hintlens_syntax::scope::ScopeKind;
use hintlens_syntax::{Binding, DefId, DefKind, FileIndex, Import, UseKind, comment_text};
use hintlens_tree::{Builder, Conventions, KindTable, TreeWalk, children, field, is, named_children, span_of};
use std::collections::HashSet;
use tree_sitter::{Node, Tree};

/// Macros whose string arguments are error messages.
const ERROR_MACROS: &[&str] =
    &["panic", "bail", "anyhow", "ensure", "format_err", "unreachable", "todo", "unimplemented", "err_msg"];

pub(crate) fn extract(src: &[u8], tree: &Tree) -> FileIndex {
    let root = tree.root_node();
    let g = grammar();
    let conventions =
        Conventions { blank: "_", raw_prefix: "r#", keyword_members: Some(DefKind::Field), ..Conventions::default() };
    let mut walk = Walk {
        g,
        kinds: kinds(),
        b: Builder::new(src, conventions)
            .flat(&[g.identifier, g.type_identifier, g.field_identifier], &[g.line_comment, g.block_comment])
            .plain_name(g.identifier),
        modules: Vec::new(),
        module_def: None,
        self_type: None,
        in_body: false,
        error_args: 0,
        prelude: Vec::new(),
        relative_heads: HashSet::new(),
    };
    walk.items(root, None);
    walk.finish(root)
}

/// What an item inside an `impl` or `trait` block belongs to.
#[derive(Clone)]
enum Owner {
    /// An `impl` block: the type's name, its definition in this file if any, and the trait the
    /// block implements, as written.
    Impl {
        ty: String,
        def: Option<DefId>,
        r#trait: Option<String>,
    },
    Trait {
        name: String,
        def: DefId,
    },
}

struct Walk<'t> {
    g: &'static Grammar,
    kinds: &'static KindTable<K>,
    b: Builder<'t>,
    /// The inline modules (`mod tests { … }`) around the walk, outermost first.
    modules: Vec<String>,
    /// The innermost inline module's definition.
    module_def: Option<DefId>,
    /// What `Self` names here.
    self_type: Option<String>,
    /// Inside a function body: items are locals, not definitions.
    in_body: bool,
    /// How many enclosing macros or calls make strings error messages.
    error_args: u32,
    /// Uses whose head is a path's first segment (`clap` of `clap::Command`), with that head:
    /// in scope as a crate when nothing else binds it.
    prelude: Vec<(usize, String)>,
    /// `crate`, `self`, `super` as path heads, bound to the modules they name.
    relative_heads: HashSet<&'static str>,
}

impl<'t> TreeWalk<'t> for Walk<'t> {
    fn visit_kind(&mut self, node: Node<'t>) {
        let g = self.g;
        match self.kinds.of(node) {
            K::Item => {
                let parent = self.module_def;
                self.item(node, None, if self.in_body { None } else { parent });
            }
            K::ScopedIdentifier => self.path(node, UseKind::Name),
            K::TypeIdentifier | K::ScopedTypeIdentifier | K::GenericType => self.ty(node),
            K::Call => self.call(node),
            K::FieldExpression => self.member(node, UseKind::Attribute),
            K::StructExpression => self.struct_literal(node),
            K::MacroInvocation => self.macro_invocation(node),
            K::Let => {
                self.with(field(node, g.f_type), Self::ty);
                self.visit_field(node, g.f_value);
                self.visit_field(node, g.f_alternative);
                self.with(field(node, g.f_pattern), Self::pattern);
            }
            K::Block => self.block_contents(node),
            K::Closure => self.in_scope(ScopeKind::Function, |s| {
                if let Some(parameters) = field(node, g.f_parameters) {
                    for parameter in named_children(parameters) {
                        if s.kinds.of(parameter) == K::Parameter {
                            s.with(field(parameter, g.f_type), Self::ty);
                            s.with(field(parameter, g.f_pattern), Self::pattern);
                        } else {
                            s.pattern(parameter);
                        }
                    }
                }
                s.with(field(node, g.f_return_type), Self::ty);
                s.visit_field(node, g.f_body);
            }),
            K::MatchArm => self.in_scope(ScopeKind::Function, |s| {
                if let Some(pattern) = field(node, g.f_pattern) {
                    for part in named_children(pattern) {
                        if Some(part) == field(pattern, g.f_condition) {
                            continue;
                        }
                        s.pattern(part);
                    }
                    s.visit_field(pattern, g.f_condition);
                }
                s.visit_field(node, g.f_value);
            }),
            K::LetCondition => {
                // `if let P = v`: binds in the enclosing (condition's) scope, which the walk of
                // an `if`/`while` opens.
                self.visit_field(node, g.f_value);
                self.with(field(node, g.f_pattern), Self::pattern);
            }
            K::Conditional => self.in_scope(ScopeKind::Function, |s| s.visit_children(node)),
            K::For => {
                self.visit_field(node, g.f_value);
                self.in_scope(ScopeKind::Function, |s| {
                    s.with(field(node, g.f_pattern), Self::pattern);
                    s.visit_field(node, g.f_body);
                });
            }
            K::String | K::RawString => self.string(node),
            K::Cast => {
                self.visit_field(node, g.f_value);
                self.with(field(node, g.f_type), Self::ty);
            }
            K::GenericFunction => {
                self.visit_field(node, g.f_function);
                self.with(field(node, g.f_type_arguments), Self::ty);
            }
            K::Attribute | K::InnerAttribute => self.attribute(node),
            K::Comment | K::Lifetime | K::SelfValue => {}
            _ => self.visit_children(node),
        }
    }

    /// Every name in a type (or trait bound) position, the outermost as `kind`.
    fn visit_type(&mut self, ty: Node<'t>, kind: UseKind) {
        let g = self.g;
        match self.kinds.of(ty) {
            K::TypeIdentifier if self.b.bytes(ty) == b"Self" => {}
            K::TypeIdentifier => self.b.use_name(ty, kind, None),
            K::ScopedTypeIdentifier | K::ScopedIdentifier => self.path(ty, kind),
            K::GenericType => {
                if let Some(t) = field(ty, g.f_type) {
                    self.ty_as(t, kind);
                }
                self.with(field(ty, g.f_type_arguments), Self::ty);
            }
            // `Item = T`: the associated type is the trait's.
            K::TypeBinding => self.with(field(ty, g.f_type), Self::ty),
            K::PrimitiveType | K::Lifetime | K::Comment => {}
            K::Identifier => self.b.use_name(ty, UseKind::Name, None),
            K::Block | K::MacroInvocation | K::String => self.visit(ty),
            _ => {
                for child in named_children(ty) {
                    self.ty_as(child, kind);
                }
            }
        }
    }

    fn builder(&mut self) -> &mut Builder<'t> {
        &mut self.b
    }
}

impl<'t> Walk<'t> {
    fn finish(self, root: Node) -> FileIndex {
        let Walk { b, prelude, relative_heads, .. } = self;
        let mut index = b.finish(root);
        // Uniform paths: a `use` whose first segment is a module this file declares or an item
        // it defines (`mod action; use action::ArgAction;`, `use Shape::*`) starts here, not at
        // a crate of that name.
        let local: HashSet<String> = index
            .imports
            .iter()
            .filter(|i| i.module.split('.').next() == Some("self"))
            .filter_map(|i| i.name.clone())
            .chain(index.definitions.iter().filter(|d| d.parent.is_none()).map(|d| d.name.clone()))
            .collect();
        for import in &mut index.imports {
            let first = import.module.split('.').next().unwrap_or_default();
            if local.contains(first) {
                import.module = format!("self.{}", import.module);
            }
        }
        for u in &mut index.uses {
            if matches!(u.kind, UseKind::Import | UseKind::ImportModule)
                && let Some(q) = &u.qualifier
                && local.contains(q.split('.').next().unwrap_or_default())
            {
                u.qualifier = Some(format!("self.{q}"));
            }
        }
        // `crate::…`, `self::…`, `super::…`: the module each names, for the resolver.
        for head in relative_heads {
            index.imports.push(Import {
                module: head.to_owned(),
                name: None,
                alias: Some(head.to_owned()),
                wildcard: false,
                line: 0,
            });
        }
        // A path's first segment that nothing in the file binds is a crate of the extern
        // prelude (`std::mem::take`, `clap::Command::new`): an import of that crate.
        // A type's name nothing binds, in a file without glob imports, is the standard
        // library's prelude (`String::from`, `Vec::new`, `Some`).
        let globs = index.imports.iter().any(|i| i.wildcard);
        let mut added: Vec<String> = Vec::new();
        for (at, head) in prelude {
            let Some(u) = index.uses.get_mut(at) else { continue };
            if u.binding != Binding::Free || index.imports.iter().any(|i| i.bound_name() == Some(&head)) {
                continue;
            }
            let crate_like = head.starts_with(|c: char| c.is_ascii_lowercase() || c == '_');
            if !crate_like && globs {
                continue;
            }
            u.binding = Binding::Import;
            if !added.contains(&head) {
                added.push(head);
            }
        }
        for head in added {
            let import = if head.starts_with(|c: char| c.is_ascii_lowercase() || c == '_') {
                Import { module: head, name: None, alias: None, wildcard: false, line: 0 }
            } else {
                Import { module: "std.prelude".into(), name: Some(head), alias: None, wildcard: false, line: 0 }
            };
            index.imports.push(import);
        }
        index
    }

    // ----- items -----

    /// The items of a file, an inline module or a block's statements at module level.
    fn items(&mut self, container: Node<'t>, parent: Option<DefId>) {
        let g = self.g;
        let mut docs: Vec<Node<'t>> = Vec::new();
        let mut attributes: Vec<Node<'t>> = Vec::new();
        for item in named_children(container) {
            let k = item.kind_id();
            if k == g.line_comment || k == g.block_comment {
                if self.is_outer_doc(item) {
                    docs.push(item);
                } else {
                    docs.clear();
                }
                continue;
            }
            if k == g.attribute_item {
                attributes.push(item);
                continue;
            }
            if k == g.inner_attribute_item {
                self.attribute(item);
                continue;
            }
            let doc = self.doc(&docs);
            docs.clear();
            let attrs = std::mem::take(&mut attributes);
            let test = attrs.iter().any(|a| self.is_test_attribute(*a));
            for &a in &attrs {
                self.attribute(a);
            }
            if test {
                let start = attrs.first().map_or(item, |a| *a);
                let mut region = span_of(start);
                let end = span_of(item);
                region.end_byte = end.end_byte;
                region.end = end.end;
                self.b.index.tests.push(region);
            }
            let first = self.b.index.definitions.len();
            self.item(item, doc, parent);
            // `#[test] fn …`: the test harness runs it; no code names it.
            if is(item, g.function_item) && attrs.iter().any(|a| self.runs_as_test(*a)) {
                let defined = self.b.index.definitions.get_mut(first);
                if let Some(function) = defined.filter(|d| d.kind.is_callable()) {
                    function.collected = true;
                }
            }
        }
    }

    fn item(&mut self, item: Node<'t>, doc: Option<String>, parent: Option<DefId>) {
        let g = self.g;
        let k = item.kind_id();
        if k == g.function_item || k == g.function_signature_item {
            self.function(item, doc, parent, None);
        } else if k == g.struct_item || k == g.union_item {
            let kind = if k == g.struct_item { DefKind::Struct } else { DefKind::Union };
            self.structure(item, kind, doc, parent);
        } else if k == g.enum_item {
            self.enumeration(item, doc, parent);
        } else if k == g.trait_item {
            self.trait_item(item, doc, parent);
        } else if k == g.impl_item {
            self.impl_item(item, parent);
        } else if k == g.const_item || k == g.static_item {
            let kind = if k == g.const_item { DefKind::Constant } else { DefKind::Static };
            self.value_item(item, kind, doc, parent);
        } else if k == g.type_item {
            self.type_item(item, doc, parent);
        } else if k == g.macro_definition {
            self.macro_definition(item, doc, parent);
        } else if k == g.mod_item {
            self.module(item, doc, parent);
        } else if k == g.use_declaration {
            self.use_declaration(item);
        } else if k == g.extern_crate_declaration {
            self.extern_crate(item);
        } else if k == g.foreign_mod_item {
            if let Some(body) = field(item, g.f_body) {
                self.items(body, parent);
            }
        } else {
            self.visit(item);
        }
    }

    /// Whether a comment is an outer doc comment (`///`, `/** */`).
    fn is_outer_doc(&self, comment: Node<'t>) -> bool {
        field(comment, self.g.f_outer).is_some()
    }

    fn doc(&self, comments: &[Node<'t>]) -> Option<String> {
        let lines: Vec<String> = comments
            .iter()
            .map(|c| {
                let text = self.b.text(*c);
                match text.strip_prefix("///") {
                    Some(line) => line.strip_prefix(' ').unwrap_or(line).trim_end().to_owned(),
                    None => comment_text(&text),
                }
            })
            .collect();
        let doc = lines.join("\n").trim().to_owned();
        (!doc.is_empty()).then_some(doc)
    }

    /// `#[test]`, `#[tokio::test]`, `#[rstest]`, `#[test_case(…)]`, `#[cfg(test)]`.
    fn is_test_attribute(&self, item: Node<'t>) -> bool {
        if self.runs_as_test(item) {
            return true;
        }
        let Some(attribute) = named_children(item).find(|c| is(*c, self.g.attribute)) else { return false };
        let Some(path) = named_children(attribute).next() else { return false };
        let path = self.b.text(path);
        let arguments = field(attribute, self.g.f_arguments).map(|a| self.b.text(a));
        path == "cfg"
            && arguments.is_some_and(|a| a.split(|c: char| !c.is_alphanumeric() && c != '_').any(|w| w == "test"))
    }

    /// `#[test]`, `#[tokio::test]`, `#[rstest]`, `#[test_case(…)]`: the function is a test the
    /// harness runs.
    fn runs_as_test(&self, item: Node<'t>) -> bool {
        let Some(attribute) = named_children(item).find(|c| is(*c, self.g.attribute)) else { return false };
        let Some(path) = named_children(attribute).next() else { return false };
        let path = self.b.text(path);
        let last = path.rsplit("::").next().unwrap_or(&path);
        matches!(last, "test" | "rstest" | "test_case" | "quickcheck" | "proptest")
    }

    /// An attribute's path is a use, and so are the names in its arguments (`derive(Debug)`).
    fn attribute(&mut self, item: Node<'t>) {
        let g = self.g;
        let Some(attribute) = named_children(item).find(|c| is(*c, g.attribute)) else { return };
        let mut path_text = String::new();
        if let Some(path) = named_children(attribute).next() {
            path_text = self.b.text(path);
            self.path(path, UseKind::Decorator);
        }
        let should_panic = path_text == "should_panic";
        if let Some(arguments) = field(attribute, g.f_arguments) {
            if should_panic {
                self.error_args += 1;
            }
            self.token_tree(arguments, None);
            if should_panic {
                self.error_args -= 1;
            }
        }
        self.visit_field(attribute, g.f_value);
    }

    /// The visibility and header of an item, up to its body.
    fn header(&self, item: Node<'t>, body: Option<Node<'t>>) -> String {
        let end = body.map_or(item.end_byte(), |b| b.start_byte());
        let text = self.b.flat_text(item.start_byte(), end);
        text.trim_end_matches([';', ' ', '{']).to_owned()
    }

    /// The module-level scope items bind their names in (a block's items bind in the block).
    fn bind_item(&mut self, name: Node<'t>) {
        self.b.bind(name, Binding::Definition);
    }

    fn function(&mut self, item: Node<'t>, doc: Option<String>, parent: Option<DefId>, owner: Option<&Owner>) {
        let g = self.g;
        let Some(name) = field(item, g.f_name) else { return self.visit(item) };
        let body = field(item, g.f_body);
        let header = self.header(item, body);
        if self.in_body {
            self.bind_item(name);
        } else {
            let text = self.b.text(name);
            let (kind, local, parent, signature) = match owner {
                None => (DefKind::Function, self.b.local_name(parent, &text), parent, header),
                Some(Owner::Impl { ty, def, r#trait }) => {
                    let has_self =
                        field(item, g.f_parameters).is_some_and(|p| named_children(p).any(|c| is(c, g.self_parameter)));
                    let kind = if has_self { DefKind::Method } else { DefKind::Function };
                    let local = match def {
                        Some(d) => self.b.local_name(Some(*d), &text),
                        None => format!("{}.{}", self.prefix(parent), text.trim_start_matches("r#")),
                    };
                    let local = if def.is_some() { local } else { local.trim_start_matches('.').to_owned() };
                    let local = if def.is_none() && !local.contains(ty.as_str()) {
                        format!("{ty}.{}", text.trim_start_matches("r#"))
                    } else {
                        local
                    };
                    let signature = match r#trait {
                        Some(t) => format!("impl {t} for {ty} {{ {header} }}"),
                        None => header,
                    };
                    (kind, local, def.or(parent), signature)
                }
                Some(Owner::Trait { name: trait_name, def }) => (
                    DefKind::Method,
                    self.b.local_name(Some(*def), &text),
                    Some(*def),
                    format!("trait {trait_name} {{ {header} }}"),
                ),
            };
            self.b.define(name, local, kind, item, signature, parent, doc);
        }
        self.callable(item);
    }

    /// The file-local prefix of the innermost inline module, with a trailing `.` when any.
    fn prefix(&self, parent: Option<DefId>) -> String {
        parent.map(|p| self.b.index.definition(p).local_name.clone()).unwrap_or_default()
    }

    /// A function's parameters and body, in a scope of their own.
    fn callable(&mut self, item: Node<'t>) {
        let g = self.g;
        self.in_scope(ScopeKind::Function, |s| {
            let was = std::mem::replace(&mut s.in_body, true);
            s.with(field(item, g.f_type_parameters), Self::type_parameters);
            s.with(field(item, g.f_parameters), Self::parameters);
            s.with(field(item, g.f_return_type), Self::ty);
            for clause in named_children(item).filter(|c| c.kind_id() == g.where_clause) {
                s.visit(clause);
            }
            s.with(field(item, g.f_body), Self::block_contents);
            s.in_body = was;
        });
    }

    fn parameters(&mut self, parameters: Node<'t>) {
        let g = self.g;
        for parameter in named_children(parameters) {
            match self.kinds.of(parameter) {
                K::SelfParameter => self.b.scopes.bind(b"self", Binding::Local),
                K::Parameter => {
                    self.with(field(parameter, g.f_type), Self::ty);
                    self.with(field(parameter, g.f_pattern), Self::pattern);
                }
                K::Attribute => self.attribute(parameter),
                K::VariadicParameter => self.with(field(parameter, g.f_pattern), Self::pattern),
                // A bare type (`fn(u32)`), `_`.
                _ => self.ty(parameter),
            }
        }
    }

    fn type_parameters(&mut self, parameters: Node<'t>) {
        let g = self.g;
        for parameter in named_children(parameters) {
            let kind = self.kinds.of(parameter);
            if matches!(kind, K::TypeParameter | K::ConstParameter)
                && let Some(name) = field(parameter, g.f_name)
            {
                self.b.bind(name, Binding::Local);
            }
            match kind {
                K::TypeParameter => {
                    for part in named_children(parameter).filter(|p| Some(*p) != field(parameter, g.f_name)) {
                        self.ty(part);
                    }
                }
                K::ConstParameter => self.with(field(parameter, g.f_type), Self::ty),
                K::LifetimeParameter => {}
                _ => self.ty(parameter),
            }
        }
    }

    fn structure(&mut self, item: Node<'t>, kind: DefKind, doc: Option<String>, parent: Option<DefId>) {
        let g = self.g;
        let Some(name) = field(item, g.f_name) else { return self.visit(item) };
        let body = field(item, g.f_body);
        if self.in_body {
            self.bind_item(name);
            if let Some(body) = body {
                self.fields(body, None);
            }
            return;
        }
        let is_named = body.is_some_and(|b| is(b, g.field_declaration_list));
        let header = self.header(item, body.filter(|_| is_named));
        let local = self.b.local_name(parent, &self.b.text(name));
        self.bind_item(name);
        let id = self.b.define(name, local, kind, item, header, parent, doc);
        self.in_scope(ScopeKind::Function, |s| {
            s.with(field(item, g.f_type_parameters), Self::type_parameters);
            for clause in named_children(item).filter(|c| c.kind_id() == g.where_clause) {
                s.visit(clause);
            }
            if let Some(body) = body {
                s.fields(body, Some(id));
            }
        });
    }

    /// A struct's, union's or variant's fields: named ones are definitions under `owner`.
    fn fields(&mut self, body: Node<'t>, owner: Option<DefId>) {
        let g = self.g;
        if !is(body, g.field_declaration_list) {
            // `(u32, String)`: types only.
            for child in named_children(body) {
                if is(child, g.attribute_item) {
                    self.attribute(child);
                } else if !is(child, g.visibility_modifier) {
                    self.ty(child);
                }
            }
            return;
        }
        let mut docs = Vec::new();
        for member in named_children(body) {
            if is(member, g.line_comment) || is(member, g.block_comment) {
                if self.is_outer_doc(member) {
                    docs.push(member);
                } else {
                    docs.clear();
                }
                continue;
            }
            if is(member, g.attribute_item) {
                self.attribute(member);
                continue;
            }
            let doc = self.doc(&docs);
            docs.clear();
            if !is(member, g.field_declaration) {
                continue;
            }
            if let (Some(name), Some(owner)) = (field(member, g.f_name), owner) {
                let local = self.b.local_name(Some(owner), &self.b.text(name));
                let signature = self.b.flat_text(member.start_byte(), member.end_byte());
                self.b.define(name, local, DefKind::Field, member, signature, Some(owner), doc);
            }
            self.with(field(member, g.f_type), Self::ty);
        }
    }

    fn enumeration(&mut self, item: Node<'t>, doc: Option<String>, parent: Option<DefId>) {
        let g = self.g;
        let Some(name) = field(item, g.f_name) else { return self.visit(item) };
        let body = field(item, g.f_body);
        self.bind_item(name);
        let id = (!self.in_body).then(|| {
            let local = self.b.local_name(parent, &self.b.text(name));
            let header = self.header(item, body);
            self.b.define(name, local, DefKind::Enum, item, header, parent, doc)
        });
        self.in_scope(ScopeKind::Function, |s| {
            s.with(field(item, g.f_type_parameters), Self::type_parameters);
            let mut docs = Vec::new();
            for variant in body.into_iter().flat_map(named_children) {
                if is(variant, g.line_comment) || is(variant, g.block_comment) {
                    if s.is_outer_doc(variant) {
                        docs.push(variant);
                    } else {
                        docs.clear();
                    }
                    continue;
                }
                if is(variant, g.attribute_item) {
                    s.attribute(variant);
                    continue;
                }
                let doc = s.doc(&docs);
                docs.clear();
                if !is(variant, g.enum_variant) {
                    continue;
                }
                let variant_id = match (field(variant, g.f_name), id) {
                    (Some(vname), Some(id)) => {
                        let local = s.b.local_name(Some(id), &s.b.text(vname));
                        let fields = field(variant, g.f_body);
                        let signature = s.header(variant, fields.filter(|f| f.kind_id() == g.field_declaration_list));
                        Some(s.b.define(vname, local, DefKind::Variant, variant, signature, Some(id), doc))
                    }
                    _ => None,
                };
                if let Some(fields) = field(variant, g.f_body) {
                    s.fields(fields, variant_id);
                }
                s.visit_field(variant, g.f_value);
            }
        });
    }

    fn trait_item(&mut self, item: Node<'t>, doc: Option<String>, parent: Option<DefId>) {
        let g = self.g;
        let Some(name) = field(item, g.f_name) else { return self.visit(item) };
        let body = field(item, g.f_body);
        self.bind_item(name);
        self.in_scope(ScopeKind::Function, |s| {
            s.with(field(item, g.f_type_parameters), Self::type_parameters);
            if let Some(bounds) = field(item, g.f_bounds) {
                s.ty_as(bounds, UseKind::Base);
            }
            if s.in_body {
                if let Some(body) = body {
                    s.visit(body);
                }
                return;
            }
            let local = s.b.local_name(parent, &s.b.text(name));
            let header = s.header(item, body);
            let id = s.b.define(name, local, DefKind::Trait, item, header, parent, doc);
            let owner = Owner::Trait { name: s.b.text(name), def: id };
            let was = s.self_type.replace(s.b.text(name));
            if let Some(body) = body {
                s.associated_items(body, id, &owner);
            }
            s.self_type = was;
        });
    }

    fn impl_item(&mut self, item: Node<'t>, parent: Option<DefId>) {
        let g = self.g;
        self.in_scope(ScopeKind::Function, |s| {
            s.with(field(item, g.f_type_parameters), Self::type_parameters);
            let ty_node = field(item, g.f_type);
            let trait_node = field(item, g.f_trait);
            if let Some(t) = trait_node {
                s.ty_as(t, UseKind::Base);
            }
            if let Some(t) = ty_node {
                s.ty(t);
            }
            for clause in named_children(item).filter(|c| c.kind_id() == g.where_clause) {
                s.visit(clause);
            }
            let ty = ty_node.and_then(|t| s.type_name(t)).unwrap_or_default();
            // The type's definition, when this file declares it beside the block.
            let def = (!s.in_body && !ty.is_empty())
                .then(|| {
                    s.b.index.definitions.iter().rposition(|d| {
                        d.name == ty && d.parent == parent && (d.kind.is_type() || d.kind == DefKind::TypeAlias)
                    })
                })
                .flatten()
                .map(|i| i as DefId);
            let r#trait = trait_node.map(|t| s.b.flat_text(t.start_byte(), t.end_byte()));
            let owner = Owner::Impl { ty: ty.clone(), def, r#trait };
            let was = s.self_type.replace(ty);
            if let Some(body) = field(item, g.f_body) {
                if s.in_body {
                    s.visit(body);
                } else {
                    s.associated_items(body, parent.unwrap_or(u32::MAX), &owner);
                }
            }
            s.self_type = was;
        });
    }

    /// The items of an `impl` or `trait` block. `parent` is the enclosing module's definition
    /// (`u32::MAX` for none) for an impl, the trait for a trait.
    fn associated_items(&mut self, body: Node<'t>, parent: DefId, owner: &Owner) {
        let g = self.g;
        let module_parent = (parent != u32::MAX).then_some(parent);
        let mut docs = Vec::new();
        let mut attributes = Vec::new();
        for item in named_children(body) {
            let k = item.kind_id();
            if k == g.line_comment || k == g.block_comment {
                if self.is_outer_doc(item) {
                    docs.push(item);
                } else {
                    docs.clear();
                }
                continue;
            }
            if k == g.attribute_item {
                attributes.push(item);
                continue;
            }
            let doc = self.doc(&docs);
            docs.clear();
            let attrs = std::mem::take(&mut attributes);
            if attrs.iter().any(|a| self.is_test_attribute(*a)) {
                let mut region = span_of(attrs[0]);
                let end = span_of(item);
                region.end_byte = end.end_byte;
                region.end = end.end;
                self.b.index.tests.push(region);
            }
            for a in attrs {
                self.attribute(a);
            }
            if k == g.function_item || k == g.function_signature_item {
                let parent = match owner {
                    Owner::Trait { def, .. } => Some(*def),
                    Owner::Impl { .. } => module_parent,
                };
                self.function(item, doc, parent, Some(owner));
            } else if k == g.const_item || k == g.associated_type || k == g.type_item {
                self.associated_value(item, doc, module_parent, owner);
            } else {
                self.visit(item);
            }
        }
    }

    /// An associated const or type of an impl or trait.
    fn associated_value(&mut self, item: Node<'t>, doc: Option<String>, module_parent: Option<DefId>, owner: &Owner) {
        let g = self.g;
        let Some(name) = field(item, g.f_name) else { return self.visit(item) };
        let kind = if is(item, g.const_item) { DefKind::Constant } else { DefKind::TypeAlias };
        let text = self.b.text(name);
        // An implementation's associated type is named by its trait (`type Item = …`).
        let (parent, local, signature) = match owner {
            Owner::Impl { r#trait: Some(_), .. } if kind == DefKind::TypeAlias => (None, None, String::new()),
            Owner::Impl { ty, def, r#trait } => {
                let local = match def {
                    Some(d) => self.b.local_name(Some(*d), &text),
                    None => format!("{ty}.{text}"),
                };
                let header = self.value_header(item);
                let signature = match r#trait {
                    Some(t) => format!("impl {t} for {ty} {{ {header} }}"),
                    None => header,
                };
                (def.or(module_parent), Some(local), signature)
            }
            Owner::Trait { name: trait_name, def } => {
                let header = self.value_header(item);
                (Some(*def), Some(self.b.local_name(Some(*def), &text)), format!("trait {trait_name} {{ {header} }}"))
            }
        };
        if let Some(local) = local {
            self.b.define(name, local, kind, item, signature, parent, doc);
        }
        self.with(field(item, g.f_type), Self::ty);
        if let Some(bounds) = field(item, g.f_bounds) {
            self.ty_as(bounds, UseKind::Base);
        }
        self.visit_field(item, g.f_value);
    }

    /// A const's, static's or associated type's header, without its value.
    fn value_header(&self, item: Node<'t>) -> String {
        let value = field(item, self.g.f_value);
        self.header(item, value).trim_end_matches(['=', ' ']).to_owned()
    }

    fn value_item(&mut self, item: Node<'t>, kind: DefKind, doc: Option<String>, parent: Option<DefId>) {
        let g = self.g;
        let Some(name) = field(item, g.f_name) else { return self.visit(item) };
        self.bind_item(name);
        if !self.in_body {
            let local = self.b.local_name(parent, &self.b.text(name));
            let header = self.value_header(item);
            self.b.define(name, local, kind, item, header, parent, doc);
        }
        self.with(field(item, g.f_type), Self::ty);
        self.visit_field(item, g.f_value);
    }

    fn type_item(&mut self, item: Node<'t>, doc: Option<String>, parent: Option<DefId>) {
        let g = self.g;
        let Some(name) = field(item, g.f_name) else { return self.visit(item) };
        self.bind_item(name);
        if !self.in_body {
            let local = self.b.local_name(parent, &self.b.text(name));
            let header = self.header(item, None);
            self.b.define(name, local, DefKind::TypeAlias, item, header, parent, doc);
        }
        self.in_scope(ScopeKind::Function, |s| {
            s.with(field(item, g.f_type_parameters), Self::type_parameters);
            s.with(field(item, g.f_type), Self::ty);
        });
    }

    fn macro_definition(&mut self, item: Node<'t>, doc: Option<String>, parent: Option<DefId>) {
        let g = self.g;
        let Some(name) = field(item, g.f_name) else { return };
        if !self.in_body {
            let local = self.b.local_name(parent, &self.b.text(name));
            let signature = format!("macro_rules! {}", self.b.text(name));
            self.b.define(name, local, DefKind::Macro, item, signature, parent, doc);
        }
        // The expansions name what the macro's callers will use.
        for rule in named_children(item).filter(|r| r.kind_id() == g.macro_rule) {
            if let Some(right) = field(rule, g.f_right) {
                self.token_tree(right, None);
            }
        }
    }

    fn module(&mut self, item: Node<'t>, doc: Option<String>, parent: Option<DefId>) {
        let g = self.g;
        let Some(name) = field(item, g.f_name) else { return };
        let text = self.b.text(name);
        // `mod x;` / `mod x { … }` brings `x` into scope as a module of this one.
        let mut module = vec!["self".to_owned()];
        module.extend(self.modules.iter().cloned());
        self.b.index.imports.push(Import {
            module: module.join("."),
            name: Some(text.clone()),
            alias: None,
            wildcard: false,
            line: item.start_position().row as u32,
        });
        self.b.bind(name, Binding::Import);
        let Some(body) = field(item, g.f_body) else { return };
        if self.in_body {
            return self.visit(body);
        }
        let local = self.b.local_name(parent, &text);
        let header = self.header(item, Some(body));
        let id = self.b.define(name, local, DefKind::Module, item, header, parent, doc);
        self.in_scope(ScopeKind::Module, |s| {
            s.modules.push(text);
            let was = s.module_def.replace(id);
            s.items(body, Some(id));
            s.module_def = was;
            s.modules.pop();
        });
    }

    // ----- use declarations -----

    fn use_declaration(&mut self, item: Node<'t>) {
        let g = self.g;
        let line = item.start_position().row as u32;
        if let Some(argument) = field(item, g.f_argument) {
            self.use_tree(argument, &[], line);
        }
    }

    fn extern_crate(&mut self, item: Node<'t>) {
        let g = self.g;
        let Some(name) = field(item, g.f_name) else { return };
        let alias = field(item, g.f_alias);
        self.b.use_bound(name, UseKind::ImportModule, None, Some(Binding::Import));
        self.b.scopes.bind(self.b.bytes(alias.unwrap_or(name)), Binding::Import);
        self.b.index.imports.push(Import {
            module: self.b.text(name),
            name: None,
            alias: alias.map(|a| self.b.text(a)),
            wildcard: false,
            line: item.start_position().row as u32,
        });
    }

    /// One tree of a `use` declaration below the path `prefix` (segments as written).
    fn use_tree(&mut self, tree: Node<'t>, prefix: &[String], line: u32) {
        let g = self.g;
        let k = tree.kind_id();
        if k == g.use_list {
            for child in named_children(tree) {
                self.use_tree(child, prefix, line);
            }
        } else if k == g.scoped_use_list {
            let mut path = prefix.to_vec();
            if let Some(p) = field(tree, g.f_path) {
                path.extend(self.use_path_segments(p, prefix));
            }
            if let Some(list) = field(tree, g.f_list) {
                self.use_tree(list, &path, line);
            }
        } else if k == g.use_wildcard {
            let mut path = prefix.to_vec();
            if let Some(p) = named_children(tree).next() {
                path.extend(self.use_path_segments(p, prefix));
            }
            let module = self.normalize(&path);
            self.b.index.imports.push(Import { module, name: None, alias: None, wildcard: true, line });
        } else if k == g.use_as_clause {
            let (Some(path), alias) = (field(tree, g.f_path), field(tree, g.f_alias)) else { return };
            self.use_leaf(path, prefix, alias, line);
        } else {
            self.use_leaf(tree, prefix, None, line);
        }
    }

    /// The segments of a path inside a `use` tree, each a use of the module it names so far.
    fn use_path_segments(&mut self, path: Node<'t>, prefix: &[String]) -> Vec<String> {
        let segments = self.segments(path);
        let mut so_far = prefix.to_vec();
        for (node, text) in &segments {
            if !matches!(text.as_str(), "crate" | "self" | "super") {
                let qualifier = (!so_far.is_empty()).then(|| self.normalize(&so_far));
                self.b.use_bound(*node, UseKind::ImportModule, qualifier, Some(Binding::Import));
            }
            so_far.push(text.clone());
        }
        segments.into_iter().map(|(_, t)| t).collect()
    }

    /// `a::b::c` (or `c`, `self`) at the end of a use tree: an import of `c` from `a::b`.
    fn use_leaf(&mut self, path: Node<'t>, prefix: &[String], alias: Option<Node<'t>>, line: u32) {
        let mut segments = self.segments(path);
        let Some((last, last_text)) = segments.pop() else { return };
        let mut module_path = prefix.to_vec();
        module_path.extend(self.use_path_segments_of(&segments, prefix));
        // `use a::b::{self}`: the module `b` itself.
        let (name_node, name) = if last_text == "self" {
            match module_path.pop() {
                Some(n) => (last, n),
                None => return,
            }
        } else {
            (last, last_text)
        };
        if module_path.is_empty() && alias.is_none() && !matches!(name.as_str(), "crate" | "self" | "super") {
            // `use serde;`: the crate itself.
            self.b.use_bound(name_node, UseKind::ImportModule, None, Some(Binding::Import));
            self.b.scopes.bind(name.as_bytes(), Binding::Import);
            self.b.index.imports.push(Import { module: name, name: None, alias: None, wildcard: false, line });
            return;
        }
        let module = self.normalize(&module_path);
        if name_node.kind_id() != self.g.self_ {
            self.b.use_bound(name_node, UseKind::Import, Some(module.clone()), Some(Binding::Import));
        }
        let bound = alias.map_or(name.clone(), |a| self.b.text(a));
        if bound != "_" {
            self.b.scopes.bind(bound.as_bytes(), Binding::Import);
        }
        let alias = alias.map(|a| self.b.text(a)).filter(|a| a != "_");
        self.b.index.imports.push(Import { module, name: Some(name), alias, wildcard: false, line });
    }

    fn use_path_segments_of(&mut self, segments: &[(Node<'t>, String)], prefix: &[String]) -> Vec<String> {
        let mut so_far = prefix.to_vec();
        for (node, text) in segments {
            if !matches!(text.as_str(), "crate" | "self" | "super") {
                let qualifier = (!so_far.is_empty()).then(|| self.normalize(&so_far));
                self.b.use_bound(*node, UseKind::ImportModule, qualifier, Some(Binding::Import));
            }
            so_far.push(text.clone());
        }
        segments.iter().map(|(_, t)| t.clone()).collect()
    }

    /// The segments of a path (`a::b::c`, `crate::x`, `super`), leaf last, generic arguments
    /// left out.
    fn segments(&self, path: Node<'t>) -> Vec<(Node<'t>, String)> {
        let g = self.g;
        let k = path.kind_id();
        if k == g.scoped_identifier || k == g.scoped_type_identifier {
            let mut out = match field(path, g.f_path) {
                Some(p) => self.segments(p),
                None => Vec::new(),
            };
            if let Some(name) = field(path, g.f_name) {
                out.push((name, self.b.text(name).trim_start_matches("r#").to_owned()));
            }
            out
        } else if k == g.generic_type || k == g.generic_type_with_turbofish {
            field(path, g.f_type).map_or_else(Vec::new, |t| self.segments(t))
        } else if k == g.identifier
            || k == g.type_identifier
            || k == g.crate_
            || k == g.self_
            || k == g.super_
            || k == g.metavariable
        {
            vec![(path, self.b.text(path).trim_start_matches("r#").to_owned())]
        } else {
            Vec::new()
        }
    }

    /// A path's segments with `self` and `super` read from inside the inline modules around the
    /// walk, joined as a module name: `super::x` inside `mod tests` is `self.x`, the file's own.
    fn normalize(&mut self, segments: &[String]) -> String {
        let mut out: Vec<String> = Vec::new();
        let mut rest = segments.iter().peekable();
        match rest.peek().map(|s| s.as_str()) {
            Some("self") => {
                rest.next();
                out.push("self".into());
                out.extend(self.modules.iter().cloned());
            }
            Some("super") => {
                let mut depth = self.modules.len();
                let mut above = 0;
                while rest.peek().map(|s| s.as_str()) == Some("super") {
                    rest.next();
                    if depth > 0 { depth -= 1 } else { above += 1 }
                }
                if above == 0 {
                    out.push("self".into());
                    out.extend(self.modules[..depth].iter().cloned());
                } else {
                    out.extend(std::iter::repeat_n("super".to_owned(), above));
                }
            }
            _ => {}
        }
        out.extend(rest.cloned());
        out.join(".")
    }

    // ----- types -----

    /// The name a type is implemented under: `Stack` of `Stack<T>`, `fmt::Display`'s `Display`,
    /// `&mut Foo`'s `Foo`.
    fn type_name(&self, ty: Node<'t>) -> Option<String> {
        let g = self.g;
        let k = ty.kind_id();
        if k == g.type_identifier || k == g.primitive_type {
            Some(self.b.text(ty))
        } else if k == g.scoped_type_identifier {
            field(ty, g.f_name).map(|n| self.b.text(n))
        } else if k == g.generic_type {
            field(ty, g.f_type).and_then(|t| self.type_name(t))
        } else if k == g.reference_type || k == g.pointer_type {
            field(ty, g.f_type).and_then(|t| self.type_name(t))
        } else {
            None
        }
    }

    // ----- paths -----

    /// A path (`a::b::c`, `Self::new`, `crate::x`) used as `kind`: its last segment takes that
    /// role qualified by the segments before it, and each segment before is a use too.
    fn path(&mut self, path: Node<'t>, kind: UseKind) {
        let g = self.g;
        let k = path.kind_id();
        if k == g.identifier || k == g.type_identifier || k == g.metavariable {
            if self.b.bytes(path) != b"Self" {
                self.b.use_name(path, kind, None);
            }
            return;
        }
        if k != g.scoped_identifier && k != g.scoped_type_identifier {
            return self.visit(path);
        }
        // Generic arguments inside the path are types.
        let mut cursor = field(path, g.f_path);
        while let Some(p) = cursor {
            if is(p, g.generic_type) || is(p, g.generic_type_with_turbofish) {
                self.with(field(p, g.f_type_arguments), Self::ty);
                cursor = field(p, g.f_type);
            } else if is(p, g.scoped_identifier) || is(p, g.scoped_type_identifier) {
                cursor = field(p, g.f_path);
            } else {
                cursor = None;
            }
        }
        if let Some(bracketed) = field(path, g.f_path).filter(|p| p.kind_id() == g.bracketed_type) {
            // `<T as Trait>::f`
            return self.ty(bracketed);
        }
        let segments = self.segments(path);
        let texts: Vec<String> = segments.iter().map(|(_, t)| t.clone()).collect();
        // `Self::x` is the impl's type's.
        let texts: Vec<String> = match (texts.first().map(String::as_str), &self.self_type) {
            (Some("Self"), Some(ty)) => std::iter::once(ty.clone()).chain(texts[1..].iter().cloned()).collect(),
            _ => texts,
        };
        let head = texts.first().cloned().unwrap_or_default();
        let relative = matches!(head.as_str(), "crate" | "self" | "super");
        for i in 0..segments.len() {
            let (node, text) = &segments[i];
            if matches!(text.as_str(), "crate" | "self" | "super" | "Self") && i == 0 {
                continue;
            }
            let role = if i + 1 == segments.len() {
                kind
            } else if i == 0 {
                UseKind::Name
            } else {
                UseKind::Attribute
            };
            if i == 0 {
                let at = self.b.index.uses.len();
                self.b.use_name(*node, role, None);
                if self.b.index.uses.len() > at {
                    self.prelude.push((at, text.clone()));
                }
                continue;
            }
            let qualifier = if relative { self.normalize(&texts[..i]) } else { texts[..i].join(".") };
            let head_binding = if relative {
                let head = qualifier.split('.').next().unwrap_or_default();
                self.relative_heads.insert(match head {
                    "crate" => "crate",
                    "super" => "super",
                    _ => "self",
                });
                Some(Binding::Import)
            } else {
                None
            };
            let at = self.b.index.uses.len();
            self.b.use_bound(*node, role, Some(qualifier), head_binding);
            if head_binding.is_none() && self.b.index.uses.len() > at {
                self.prelude.push((at, head.clone()));
            }
        }
    }

    /// The dotted text of a chain of names (`self.sink`, `a.b`, `config::Mode`), `None` for other
    /// expressions.
    fn dotted(&self, node: Node<'t>) -> Option<String> {
        let g = self.g;
        let k = node.kind_id();
        if k == g.identifier || k == g.self_ || k == g.type_identifier || k == g.field_identifier {
            return Some(self.b.text(node));
        }
        if k == g.field_expression {
            let value = self.dotted(field(node, g.f_value)?)?;
            let field = field(node, g.f_field)?;
            return Some(format!("{value}.{}", self.b.text(field)));
        }
        if k == g.scoped_identifier || k == g.scoped_type_identifier || k == g.generic_type {
            let texts: Vec<String> = self.segments(node).into_iter().map(|(_, t)| t).collect();
            let texts = match (texts.first().map(String::as_str), &self.self_type) {
                (Some("Self"), Some(ty)) => std::iter::once(ty.clone()).chain(texts[1..].iter().cloned()).collect(),
                _ => texts,
            };
            return (!texts.is_empty()).then(|| texts.join("."));
        }
        None
    }

    // ----- statements and expressions -----

    /// A block's statements in a scope of their own; its items are locals.
    fn block_contents(&mut self, block: Node<'t>) {
        self.in_scope(ScopeKind::Function, |s| {
            // Items of a block are visible in the whole block.
            for child in named_children(block) {
                let g = s.g;
                let k = child.kind_id();
                if (k == g.function_item
                    || k == g.struct_item
                    || k == g.enum_item
                    || k == g.const_item
                    || k == g.static_item)
                    && let Some(name) = field(child, g.f_name)
                {
                    s.bind_item(name);
                }
            }
            let was = std::mem::replace(&mut s.in_body, true);
            s.items(block, None);
            s.in_body = was;
        });
    }

    fn call(&mut self, node: Node<'t>) {
        let g = self.g;
        let mut callee_text = String::new();
        if let Some(function) = field(node, g.f_function) {
            let (function, type_arguments) = if is(function, g.generic_function) {
                (field(function, g.f_function).unwrap_or(function), field(function, g.f_type_arguments))
            } else {
                (function, None)
            };
            callee_text = self.b.text(function);
            if is(function, g.field_expression) {
                self.member(function, UseKind::Call);
            } else if is(function, g.identifier) || is(function, g.scoped_identifier) {
                self.path(function, UseKind::Call);
            } else {
                self.visit(function);
            }
            if let Some(arguments) = type_arguments {
                self.ty(arguments);
            }
        }
        let errors = callee_text.ends_with("expect") || callee_text.ends_with("expect_err");
        if errors {
            self.error_args += 1;
        }
        self.visit_field(node, g.f_arguments);
        if errors {
            self.error_args -= 1;
        }
    }

    /// `value.field` read, or called when `kind` is `Call`: the field qualified by the value's
    /// chain of names; `self.m()` is a member of the type the method belongs to.
    fn member(&mut self, node: Node<'t>, kind: UseKind) {
        let g = self.g;
        let (Some(value), Some(field)) = (field(node, g.f_value), field(node, g.f_field)) else {
            return self.visit_children(node);
        };
        if is(field, g.integer_literal) {
            return self.visit(value);
        }
        if is(value, g.self_) {
            return self.b.use_bound(field, kind, None, Some(Binding::OwnMember));
        }
        match self.dotted(value) {
            Some(chain) => {
                if is(value, g.field_expression) {
                    self.member(value, UseKind::Attribute);
                } else {
                    self.visit(value);
                }
                self.b.use_name(field, kind, Some(chain));
            }
            None => {
                self.visit(value);
                self.b.use_bound(field, kind, None, Some(Binding::Receiver));
            }
        }
    }

    /// `Options { retries: 3, ..base }`: an instantiation of the type, each key a keyword
    /// argument qualified by it.
    fn struct_literal(&mut self, node: Node<'t>) {
        let g = self.g;
        let name = field(node, g.f_name);
        let qualifier = name.and_then(|n| self.dotted(n)).map(|q| match &self.self_type {
            Some(ty) if q == "Self" => ty.clone(),
            _ => q,
        });
        if let Some(name) = name {
            if is(name, g.generic_type_with_turbofish)
                && let Some(arguments) = field(name, g.f_type_arguments)
            {
                self.ty(arguments);
            }
            let path = if is(name, g.generic_type_with_turbofish) { field(name, g.f_type) } else { Some(name) };
            if let Some(path) = path
                && self.b.bytes(path) != b"Self"
            {
                self.path(path, UseKind::Instantiation);
            }
        }
        let Some(body) = field(node, g.f_body) else { return };
        for initializer in named_children(body) {
            if is(initializer, g.field_initializer) {
                if let Some(field) = field(initializer, g.f_field)
                    && is(field, g.field_identifier)
                {
                    self.b.use_name(field, UseKind::KeywordArgument, qualifier.clone());
                }
                self.visit_field(initializer, g.f_value);
            } else if is(initializer, g.shorthand_field_initializer) {
                // `{ retries }`: the field's name, and a read of the variable.
                if let Some(name) = named_children(initializer).next() {
                    self.b.use_name(name, UseKind::KeywordArgument, qualifier.clone());
                    self.b.use_name(name, UseKind::Name, None);
                }
            } else {
                self.visit(initializer);
            }
        }
    }

    fn macro_invocation(&mut self, node: Node<'t>) {
        let g = self.g;
        let mut name = String::new();
        if let Some(path) = field(node, g.f_macro) {
            name = self.segments(path).last().map(|(_, t)| t.clone()).unwrap_or_default();
            self.path(path, UseKind::Call);
        }
        let errors = ERROR_MACROS.contains(&name.as_str());
        if errors {
            self.error_args += 1;
        }
        for tree in named_children(node).filter(|c| c.kind_id() == g.token_tree) {
            self.token_tree(tree, None);
        }
        if errors {
            self.error_args -= 1;
        }
    }

    /// The tokens of a macro's arguments read as code: an identifier before `(` is called,
    /// after `.` a member of the chain before it, after `::` a path segment; inside the braces
    /// after a type's name (`Options { retries: 3 }`) an identifier before `:` is a keyword.
    fn token_tree(&mut self, tree: Node<'t>, literal_of: Option<String>) {
        let g = self.g;
        self.nested(tree, |s| {
            let tokens: Vec<Node<'t>> = children(tree).collect();
            // The chain of names the current token continues (`a.b`, `a::b`).
            let mut chain: Option<String> = None;
            let mut path_head: Option<String> = None;
            for (i, &token) in tokens.iter().enumerate() {
                let k = token.kind_id();
                let prev = i.checked_sub(1).map(|j| s.b.bytes(tokens[j]));
                let next = tokens.get(i + 1).copied();
                if k == g.identifier || k == g.self_ || k == g.crate_ || k == g.super_ {
                    let text = s.b.text(token);
                    let after_dot = prev == Some(b".");
                    let after_path = prev == Some(b"::");
                    let called = next.is_some_and(|n| is(n, g.token_tree) && s.b.bytes(n).starts_with(b"("))
                        || next.is_some_and(|n| s.b.bytes(n) == b"!");
                    let braces = next.is_some_and(|n| is(n, g.token_tree) && s.b.bytes(n).starts_with(b"{"));
                    let keyword = literal_of.is_some()
                        && !after_dot
                        && !after_path
                        && next.is_some_and(|n| s.b.bytes(n) == b":")
                        && tokens.get(i + 2).is_none_or(|n| s.b.bytes(*n) != b":");
                    let kind = if called {
                        UseKind::Call
                    } else if braces && text.starts_with(char::is_uppercase) {
                        UseKind::Instantiation
                    } else if after_dot || after_path {
                        UseKind::Attribute
                    } else {
                        UseKind::Name
                    };
                    if keyword {
                        s.b.use_name(token, UseKind::KeywordArgument, literal_of.clone());
                        chain = None;
                        continue;
                    }
                    if k != g.identifier {
                        // `self.x`, `crate::x`: the chain starts here.
                        chain = Some(text);
                        path_head = None;
                        continue;
                    }
                    match (&chain, after_dot || after_path) {
                        (Some(c), true) if c == "self" && after_dot => {
                            s.b.use_bound(token, kind, None, Some(Binding::OwnMember));
                        }
                        (Some(c), true) => {
                            let relative = ["crate", "self", "super"].iter().any(|h| c.split('.').next() == Some(h));
                            if relative && after_path {
                                let segments: Vec<String> = c.split('.').map(str::to_owned).collect();
                                let qualifier = s.normalize(&segments);
                                let head = qualifier.split('.').next().unwrap_or_default();
                                s.relative_heads.insert(match head {
                                    "crate" => "crate",
                                    "super" => "super",
                                    _ => "self",
                                });
                                s.b.use_bound(token, kind, Some(qualifier), Some(Binding::Import));
                            } else {
                                let at = s.b.index.uses.len();
                                s.b.use_name(token, kind, Some(c.clone()));
                                if after_path
                                    && s.b.index.uses.len() > at
                                    && let Some(head) = &path_head
                                {
                                    s.prelude.push((at, head.clone()));
                                }
                            }
                        }
                        (None, true) => s.b.use_bound(token, kind, None, Some(Binding::Receiver)),
                        (_, false) => {
                            let at = s.b.index.uses.len();
                            s.b.use_name(token, kind, None);
                            let is_path = next.is_some_and(|n| s.b.bytes(n) == b"::");
                            if is_path && s.b.index.uses.len() > at {
                                s.prelude.push((at, text.clone()));
                                path_head = Some(text.clone());
                            } else {
                                path_head = None;
                            }
                            chain = None;
                        }
                    }
                    let extended = match (&chain, after_dot || after_path) {
                        (Some(c), true) => format!("{c}.{}", s.b.text(token)),
                        _ => s.b.text(token),
                    };
                    chain = Some(extended);
                } else if k == g.token_tree {
                    // The braces after a type's name hold a struct literal's fields.
                    let literal = (s.b.bytes(token).starts_with(b"{")
                        && prev.is_some_and(|p| p.first().is_some_and(u8::is_ascii_uppercase)))
                    .then(|| chain.clone())
                    .flatten()
                    .map(|c| match (c.split_once('.'), &s.self_type) {
                        (None, Some(ty)) if c == "Self" => ty.clone(),
                        _ => c,
                    });
                    s.token_tree(token, literal);
                    chain = None;
                    path_head = None;
                } else if k == g.string_literal || k == g.raw_string_literal {
                    s.string(token);
                    chain = None;
                } else if s.b.bytes(token) == b"." || s.b.bytes(token) == b"::" {
                    // The chain goes on.
                } else {
                    chain = None;
                    path_head = None;
                }
            }
        });
    }

    fn string(&mut self, node: Node<'t>) {
        let g = self.g;
        let value = match named_children(node).find(|c| is(*c, g.string_content)) {
            Some(content) => self.b.text(content),
            None => String::new(),
        };
        self.b.string(value, node, self.error_args > 0);
    }

    // ----- patterns -----

    /// A pattern binds its lower-case names; upper-case names and paths (`None`,
    /// `Shape::Circle`) are uses, and a struct pattern's field names are its type's fields.
    fn pattern(&mut self, pattern: Node<'t>) {
        let g = self.g;
        self.nested(pattern, |s| {
            let k = pattern.kind_id();
            if k == g.identifier {
                let text = s.b.bytes(pattern);
                if text.first().is_some_and(u8::is_ascii_uppercase) {
                    s.b.use_name(pattern, UseKind::Name, None);
                } else {
                    s.b.scopes.bind(text, Binding::Local);
                }
            } else if k == g.scoped_identifier {
                s.path(pattern, UseKind::Name);
            } else if k == g.tuple_struct_pattern {
                if let Some(ty) = field(pattern, g.f_type) {
                    s.path(ty, UseKind::Name);
                }
                for child in named_children(pattern) {
                    if Some(child) != field(pattern, g.f_type) {
                        s.pattern(child);
                    }
                }
            } else if k == g.struct_pattern {
                let ty = field(pattern, g.f_type);
                let qualifier = ty.and_then(|t| s.dotted(t));
                if let Some(ty) = ty {
                    s.path(ty, UseKind::Name);
                }
                for child in named_children(pattern) {
                    if Some(child) == ty {
                        continue;
                    }
                    if is(child, g.field_pattern) {
                        let name = field(child, g.f_name);
                        if let Some(name) = name {
                            s.b.use_name(name, UseKind::KeywordArgument, qualifier.clone());
                            if is(name, g.shorthand_field_identifier) {
                                s.b.bind(name, Binding::Local);
                            }
                        }
                        s.with(field(child, g.f_pattern), Self::pattern);
                    } else {
                        s.pattern(child);
                    }
                }
            } else if k == g.captured_pattern {
                // `name @ pattern`
                for child in named_children(pattern) {
                    s.pattern(child);
                }
            } else if k == g.string_literal || k == g.raw_string_literal {
                s.string(pattern);
            } else if k == g.range_pattern || k == g.macro_invocation || k == g.block {
                s.visit(pattern);
            } else {
                for child in named_children(pattern) {
                    s.pattern(child);
                }
            }
        });
    }
}

hintlens_tree::node_kinds! {
    /// The node kinds the walk tells apart.
    enum K as kinds(tree_sitter_rust::LANGUAGE, "tree-sitter-rust") {
        /// What [`Walk::item`] reads: definitions, `use` and `mod`.
        Item = "function_item" | "struct_item" | "enum_item" | "union_item" | "trait_item" | "impl_item"
            | "const_item" | "static_item" | "type_item" | "macro_definition" | "mod_item" | "use_declaration",
        Attribute = "attribute_item",
        InnerAttribute = "inner_attribute_item",
        Parameter = "parameter", SelfParameter = "self_parameter", VariadicParameter = "variadic_parameter",
        TypeParameter = "type_parameter", ConstParameter = "const_parameter",
        LifetimeParameter = "lifetime_parameter",
        Identifier = "identifier", TypeIdentifier = "type_identifier",
        ScopedIdentifier = "scoped_identifier", ScopedTypeIdentifier = "scoped_type_identifier",
        GenericType = "generic_type", TypeBinding = "type_binding", PrimitiveType = "primitive_type",
        Lifetime = "lifetime", SelfValue = "self", Comment = "line_comment" | "block_comment",
        Call = "call_expression", FieldExpression = "field_expression", StructExpression = "struct_expression",
        MacroInvocation = "macro_invocation", Let = "let_declaration", LetCondition = "let_condition",
        Block = "block", Closure = "closure_expression", MatchArm = "match_arm",
        /// `if` and `while`: their conditions' bindings are theirs.
        Conditional = "if_expression" | "while_expression",
        For = "for_expression", String = "string_literal", RawString = "raw_string_literal",
        Cast = "type_cast_expression", GenericFunction = "generic_function",
    }
}

hintlens_tree::grammar_ids! {
    /// Numeric kind and field ids of tree-sitter-rust, resolved once per process.
    struct Grammar as grammar(tree_sitter_rust::LANGUAGE, "tree-sitter-rust") {
        kinds {
            identifier = "identifier",
            type_identifier = "type_identifier",
            field_identifier = "field_identifier",
            shorthand_field_identifier = "shorthand_field_identifier",
            primitive_type = "primitive_type",
            metavariable = "metavariable",
            crate_ = "crate",
            self_ = "self",
            super_ = "super",
            line_comment = "line_comment",
            block_comment = "block_comment",
            attribute_item = "attribute_item",
            inner_attribute_item = "inner_attribute_item",
            attribute = "attribute",
            function_item = "function_item",
            function_signature_item = "function_signature_item",
            struct_item = "struct_item",
            union_item = "union_item",
            enum_item = "enum_item",
            enum_variant = "enum_variant",
            trait_item = "trait_item",
            impl_item = "impl_item",
            const_item = "const_item",
            static_item = "static_item",
            type_item = "type_item",
            associated_type = "associated_type",
            macro_definition = "macro_definition",
            macro_rule = "macro_rule",
            macro_invocation = "macro_invocation",
            mod_item = "mod_item",
            foreign_mod_item = "foreign_mod_item",
            use_declaration = "use_declaration",
            use_list = "use_list",
            scoped_use_list = "scoped_use_list",
            use_wildcard = "use_wildcard",
            use_as_clause = "use_as_clause",
            extern_crate_declaration = "extern_crate_declaration",
            scoped_identifier = "scoped_identifier",
            scoped_type_identifier = "scoped_type_identifier",
            generic_type = "generic_type",
            generic_type_with_turbofish = "generic_type_with_turbofish",
            generic_function = "generic_function",
            bracketed_type = "bracketed_type",
            reference_type = "reference_type",
            pointer_type = "pointer_type",
            where_clause = "where_clause",
            visibility_modifier = "visibility_modifier",
            field_declaration_list = "field_declaration_list",
            field_declaration = "field_declaration",
            self_parameter = "self_parameter",
            block = "block",
            field_expression = "field_expression",
            field_initializer = "field_initializer",
            shorthand_field_initializer = "shorthand_field_initializer",
            integer_literal = "integer_literal",
            string_literal = "string_literal",
            raw_string_literal = "raw_string_literal",
            string_content = "string_content",
            token_tree = "token_tree",
            tuple_struct_pattern = "tuple_struct_pattern",
            struct_pattern = "struct_pattern",
            field_pattern = "field_pattern",
            captured_pattern = "captured_pattern",
            range_pattern = "range_pattern",
        }
        fields {
            f_name = "name",
            f_body = "body",
            f_type = "type",
            f_trait = "trait",
            f_value = "value",
            f_field = "field",
            f_function = "function",
            f_arguments = "arguments",
            f_parameters = "parameters",
            f_type_parameters = "type_parameters",
            f_type_arguments = "type_arguments",
            f_return_type = "return_type",
            f_pattern = "pattern",
            f_alternative = "alternative",
            f_condition = "condition",
            f_path = "path",
            f_list = "list",
            f_alias = "alias",
            f_argument = "argument",
            f_macro = "macro",
            f_bounds = "bounds",
            f_right = "right",
            f_outer = "outer",
        }
    }
}
