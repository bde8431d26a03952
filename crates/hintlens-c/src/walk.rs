//! One walk over a C or C++ syntax tree: definitions, uses, includes, strings, and the bindings
//! of every use.
//!
//! The walk recurses over named children, matching on the node's kind ([`K`], one `KindTable`
//! per grammar, lenient: C lacks C++'s kinds, which it never sees). Declarators nest
//! (`*(*f)[3]`), so a declaration's name is found by a loop down its declarator chain; chains
//! of member accesses are read as one (`a.b->c`). Both branches of `#if`/`#ifdef` are read:
//! tree-sitter parses them as nodes holding declarations or statements.

use crate::macro_lines::{GtestHeader, Notes};
use hintlens_syntax::scope::{MODULE, ScopeKind};
use hintlens_syntax::scoping;
use hintlens_syntax::{Binding, DefId, DefKind, FileIndex, Lines, UseKind};
use hintlens_tree::{Builder, Conventions, Ids, KindTable, TreeWalk, field, fields, named_children, unquote};
use std::collections::HashSet;
use std::sync::OnceLock;
use tree_sitter::{Node, Tree};

hintlens_tree::grammar_ids! {
    /// The ids the builder is handed (what reads flat, what chains of names are made of).
    pub(crate) struct Grammar {
        kinds {
            comment = "comment", string_literal = "string_literal", this = "this", identifier = "identifier",
            field_identifier = "field_identifier", type_identifier = "type_identifier",
            field_expression = "field_expression",
        }
        fields {
            f_name = "name", f_value = "value", f_parameters = "parameters", f_path = "path", f_type = "type",
            f_declarator = "declarator", f_body = "body", f_scope = "scope", f_argument = "argument",
            f_field = "field", f_function = "function", f_arguments = "arguments", f_designator = "designator",
            f_default_value = "default_value",
        }
    }
}

hintlens_tree::node_kinds! {
    /// The node kinds the walk tells apart (of C's grammar or C++'s: a kind one lacks is never
    /// seen in its trees).
    enum K {
        // Names.
        Identifier = "identifier", FieldIdentifier = "field_identifier", TypeIdentifier = "type_identifier",
        NamespaceIdentifier = "namespace_identifier", QualifiedIdentifier = "qualified_identifier",
        TemplateFunction = "template_function", TemplateType = "template_type",
        TemplateMethod = "template_method", This = "this", TypeDescriptor = "type_descriptor",
        /// `~T`, `operator==`: named by their class.
        Operator = "destructor_name" | "operator_name",
        OperatorCast = "operator_cast",
        /// Names of nothing a definition is: labels, characters, `public:`.
        Unnamed = "char_literal" | "statement_identifier" | "access_specifier",
        Comment = "comment",
        // The preprocessor.
        Include = "preproc_include", SystemLibString = "system_lib_string", Ifdef = "preproc_ifdef",
        MacroDefinition = "preproc_def" | "preproc_function_def",
        MacroCall = "preproc_call",
        /// A directive's text (a macro's body).
        MacroText = "preproc_arg",
        // Declarations.
        FunctionDefinition = "function_definition", TypeDefinition = "type_definition",
        Declaration = "declaration" | "field_declaration",
        StorageClassSpecifier = "storage_class_specifier",
        Struct = "struct_specifier", Union = "union_specifier", Class = "class_specifier", Enum = "enum_specifier",
        Enumerator = "enumerator", BaseClassClause = "base_class_clause",
        Template = "template_declaration", Namespace = "namespace_definition",
        Using = "using_declaration", Alias = "alias_declaration",
        TypeParameter = "type_parameter_declaration"
            | "optional_type_parameter_declaration"
            | "variadic_type_parameter_declaration",
        Parameter = "parameter_declaration",
        /// `T x = 1`, `T... xs`.
        OptionalParameter = "optional_parameter_declaration" | "variadic_parameter_declaration",
        // Declarators.
        FunctionDeclarator = "function_declarator", InitDeclarator = "init_declarator",
        /// `*x`, `x[3]`: the declared name in their `declarator` field.
        PointerDeclarator = "pointer_declarator" | "array_declarator",
        /// `(x)`, `&x`, `x [[attr]]`: the declared name among their children.
        WrappedDeclarator = "parenthesized_declarator" | "reference_declarator" | "attributed_declarator",
        // Statements and expressions.
        CompoundStatement = "compound_statement",
        /// Statements whose header's names live in the statement's scope.
        ScopedStatement = "for_statement" | "for_range_loop" | "if_statement" | "while_statement"
            | "do_statement" | "switch_statement" | "catch_clause",
        Lambda = "lambda_expression", Call = "call_expression", FieldExpression = "field_expression",
        New = "new_expression", String = "string_literal", RawString = "raw_string_literal",
        InitializerPair = "initializer_pair", FieldDesignator = "field_designator",
        FieldInitializer = "field_initializer",
    }
}

/// C's ids and kinds, or C++'s.
fn grammar(cpp: bool) -> &'static (Grammar, KindTable<K>) {
    static GRAMMARS: OnceLock<[(Grammar, KindTable<K>); 2]> = OnceLock::new();
    let grammars = GRAMMARS.get_or_init(|| {
        [tree_sitter_c::LANGUAGE.into(), tree_sitter_cpp::LANGUAGE.into()].map(|l| {
            let ids = Ids::lenient(&l);
            (Grammar::resolve(&ids), K::table(&ids))
        })
    });
    &grammars[usize::from(cpp)]
}

pub(crate) fn extract_c(src: &[u8], tree: &Tree, notes: &Notes) -> FileIndex {
    extract(src, tree, false, None, notes)
}

pub(crate) fn extract_cpp(src: &[u8], tree: &Tree, notes: &Notes) -> FileIndex {
    extract(src, tree, true, None, notes)
}

/// [`extract_c`]'s outline ([`hintlens_syntax::Frontend::outline_reusing`]): the blocks that
/// cannot hold a definition ([`may_define`]) and hold none of the `kept` lines are not read.
pub(crate) fn outline_c(src: &[u8], tree: &Tree, kept: &Lines, notes: &Notes) -> FileIndex {
    extract(src, tree, false, Some(kept.clone()), notes)
}

/// [`extract_cpp`]'s outline.
pub(crate) fn outline_cpp(src: &[u8], tree: &Tree, kept: &Lines, notes: &Notes) -> FileIndex {
    extract(src, tree, true, Some(kept.clone()), notes)
}

/// Whether a block's text can hold a definition: in a function body only a type's definition
/// (its members, a scoped enum's constants) and a `#define` are definitions, and each spells
/// its keyword or its `#`; a namespace, ill-formed there, is read too, whatever error recovery
/// made of the braces. A block spelling none of them holds uses alone.
fn may_define(block: &[u8]) -> bool {
    // Built once: a searcher built for each of the outline's blocks cost more than its search.
    static WORDS: OnceLock<[memchr::memmem::Finder<'static>; 5]> = OnceLock::new();
    let words = WORDS
        .get_or_init(|| [&b"struct"[..], b"class", b"union", b"enum", b"namespace"].map(memchr::memmem::Finder::new));
    memchr::memchr(b'#', block).is_some() || words.iter().any(|word| word.find(block).is_some())
}

/// The walk of `src`, whose [`READING`](crate::macro_lines::READING) noted `notes`: its stray
/// macro lines and gtest headers, which the grammar read blank or respelled.
fn extract<'t>(src: &'t [u8], tree: &'t Tree, cpp: bool, outline: Option<Lines>, notes: &'t Notes) -> FileIndex {
    let root = tree.root_node();
    let (g, kinds) = grammar(cpp);
    let reserved = if cpp { crate::CPP_SPEC.keywords } else { crate::C_SPEC.keywords };
    let b = Builder::new(src, Conventions { reserved, ..Conventions::default() })
        .flat(&[g.identifier, g.type_identifier, g.field_identifier], &[g.comment, g.string_literal])
        .plain_name(g.identifier)
        .type_name(g.type_identifier)
        .chains(&[g.identifier, g.this], &[(g.field_expression, g.f_argument, g.f_field)])
        .keeping(outline.clone());
    let mut walk = Walk {
        g,
        kinds,
        b,
        cpp,
        prefix: Vec::new(),
        namespace_prefix: Vec::new(),
        // C has no namespaces to misplace.
        lexical: (cpp && root.has_error()).then(|| crate::namespaces::namespaces(src)),
        anonymous: false,
        class: None,
        in_body: false,
        in_class: false,
        doc: None,
        namespaces: HashSet::new(),
        outline,
        gtest: &notes.gtest,
    };
    walk.members(root);
    walk.stray_macro_lines(root, &notes.stray);
    // Read from the text, as the preprocessor reads them: following includes then needs no
    // parse, and the grammar reads a directive's body only up to a `/*` comment in it
    // (`}  /* namespace nlohmann */ \`), and the rest as an error.
    // (Not the macros it defines: the index has them from the tree.)
    walk.b.index.imports = crate::directives::includes(src);
    walk.b.index.scope_macros = crate::macro_lines::scope_macros(src);
    walk.b.finish(root)
}

/// gtest's test macros ([`crate::macro_lines::GTEST_TESTS`]: `TEST(Suite, Name) { … }` defines
/// the test `Name` of `Suite`) and `FRIEND_TEST`, which names one.
fn is_gtest(name: &[u8]) -> bool {
    crate::macro_lines::GTEST_TESTS.contains(&name) || name == b"FRIEND_TEST"
}

/// Catch2's and doctest's: their bodies are tests, named by a string.
const CATCH: &[&str] = &[
    "TEST_CASE",
    "TEST_CASE_METHOD",
    "SCENARIO",
    "TEMPLATE_TEST_CASE",
    "TEMPLATE_PRODUCT_TEST_CASE",
    "TEMPLATE_LIST_TEST_CASE",
    "TEST_CASE_TEMPLATE",
    "TEST_CASE_FIXTURE",
    "SECTION",
    "SUBCASE",
];

struct Walk<'t> {
    g: &'static Grammar,
    kinds: &'static KindTable<K>,
    b: Builder<'t>,
    cpp: bool,
    /// The enclosing namespaces' and classes' names: the prefix of a local name.
    prefix: Vec<String>,
    /// Which of [`Walk::prefix`] are namespaces, by index.
    namespace_prefix: Vec<usize>,
    /// The namespaces the text's braces open, where the tree has errors: they, not the
    /// tree's, enclose a definition ([`crate::namespaces`]).
    lexical: Option<crate::namespaces::Namespaces>,
    /// Inside an anonymous namespace: everything declared is file-local.
    anonymous: bool,
    /// The class, struct or union whose members are being read.
    class: Option<DefId>,
    /// Inside a function body: declarations are locals, not definitions.
    in_body: bool,
    /// Inside a class, struct or union body (perhaps an anonymous one, or a specialization's,
    /// with no [`Walk::class`]): declarations are members.
    in_class: bool,
    /// The comment block above the declaration being read, for its first definition.
    doc: Option<String>,
    /// The namespaces this file opens, so that `ns::f(…) { … }` is a function, `T::m` a method.
    namespaces: HashSet<String>,
    /// Only the definitions and the uses of these lines are wanted: a block that cannot hold
    /// a definition and holds none of the lines is passed over. C's blocks scope what they
    /// declare, so a block that is read sees every local a full walk would bind there: the
    /// blocks around it hold its lines too, and are read.
    outline: Option<Lines>,
    /// gtest's tests the grammar read as functions ([`crate::macro_lines::gtest_headers`]), in
    /// the text's order.
    gtest: &'t [GtestHeader],
}

impl<'t> TreeWalk<'t> for Walk<'t> {
    /// Within a 1 MiB stack even in a debug build.
    const MAX_DEPTH: u32 = 128;

    fn visit_kind(&mut self, node: Node<'t>) {
        let g = self.g;
        match self.kinds.of(node) {
            K::Include => self.include(node),
            K::MacroDefinition => self.macro_definition(node),
            K::MacroCall => self.with(field(node, g.f_argument), Self::macro_body),
            K::FunctionDefinition => self.function_definition(node),
            K::Declaration => self.declaration(node),
            K::TypeDefinition => self.type_definition(node),
            K::Struct | K::Union | K::Class | K::Enum => self.specifier(node),
            K::Namespace => self.namespace(node),
            K::Template => self.template(node),
            K::Alias => self.alias(node),
            K::Using => {
                for child in named_children(node) {
                    self.visit_type(child, UseKind::Name);
                }
            }
            K::CompoundStatement if self.passes_over(node) => {}
            K::CompoundStatement => {
                // A block is a body wherever it stands (a Catch2 `TEST_CASE`'s, after a macro
                // call the grammar reads as an expression).
                let was = std::mem::replace(&mut self.in_body, true);
                self.in_scope(ScopeKind::Block, |s| s.visit_children(node));
                self.in_body = was;
            }
            K::ScopedStatement => self.in_scope(ScopeKind::Block, |s| s.visit_children(node)),
            K::Lambda => {
                let was = std::mem::replace(&mut self.in_body, true);
                self.in_scope(ScopeKind::Function, |s| s.visit_children(node));
                self.in_body = was;
            }
            K::Parameter | K::OptionalParameter => self.parameter(node),
            K::Call
            | K::FieldExpression
            | K::QualifiedIdentifier
            | K::TemplateFunction
            | K::TemplateMethod
            | K::TemplateType
            | K::New
            | K::InitializerPair
            | K::FieldInitializer
                if self.outline_skips(node) => {}
            K::Call => self.call(node),
            K::FieldExpression => self.member(node, UseKind::Attribute),
            K::QualifiedIdentifier | K::TemplateFunction | K::TemplateMethod => self.name_use(node, UseKind::Name),
            K::TypeIdentifier | K::TemplateType => self.ty(node),
            K::New => {
                self.with(field(node, g.f_type), |s, t| s.ty_as(t, UseKind::Instantiation));
                let ty = field(node, g.f_type);
                for child in named_children(node).filter(|c| Some(*c) != ty) {
                    self.visit(child);
                }
            }
            K::InitializerPair => {
                for designator in fields(node, g.f_designator) {
                    self.designator(designator);
                }
                self.visit_field(node, g.f_value);
            }
            K::FieldInitializer => {
                for child in named_children(node) {
                    if self.kinds.of(child) == K::FieldIdentifier {
                        self.b.use_bound(child, UseKind::Attribute, None, Some(Binding::Receiver));
                    } else {
                        self.visit(child);
                    }
                }
            }
            K::FieldDesignator => self.designator(node),
            K::String | K::RawString => self.string(node),
            K::Identifier | K::FieldIdentifier | K::NamespaceIdentifier | K::Operator | K::This => {}
            K::Comment | K::Unnamed => {}
            _ => self.visit_children(node),
        }
    }

    /// A type: the names it references are uses of `kind`; template arguments are types or
    /// expressions.
    fn visit_type(&mut self, node: Node<'t>, kind: UseKind) {
        match self.kinds.of(node) {
            K::TypeIdentifier | K::Identifier => self.b.use_name(node, kind, None),
            K::QualifiedIdentifier | K::TemplateType | K::TemplateFunction => self.name_use(node, kind),
            K::Struct | K::Union | K::Class | K::Enum => self.specifier(node),
            _ => self.visit_kind(node),
        }
    }

    fn builder(&mut self) -> &mut Builder<'t> {
        &mut self.b
    }
}

/// A declaration's name, as its declarator chain ends: the name node, and the function
/// declarator when it declares a function.
struct Declared<'t> {
    name: Option<Node<'t>>,
    function: Option<Node<'t>>,
}

impl<'t> Walk<'t> {
    /// Whether an outline passes over this block ([`Walk::outline`]).
    fn passes_over(&self, block: Node<'t>) -> bool {
        self.outline.as_ref().is_some_and(|kept| {
            !kept.any_within(block.start_position().row as u32, block.end_position().row as u32)
                && !may_define(self.b.bytes(block))
        })
    }

    /// Whether an outline passes over this expression or type ([`Walk::outline`]): one that holds
    /// none of its lines records nothing there, and one the grammar read without an error binds
    /// nothing outside itself (a lambda's and a block's names are their own scopes') and defines
    /// nothing unless it spells a type's keyword or a `#` ([`may_define`]). A `requires`
    /// expression's parameters are the one binding an expression leaks: one is read.
    fn outline_skips(&self, node: Node<'t>) -> bool {
        self.passes_over(node) && !node.has_error() && memchr::memmem::find(self.b.bytes(node), b"requires").is_none()
    }

    // ----- scopes of declarations -----

    /// The members of a file, namespace, class body or linkage block, each with its doc.
    fn members(&mut self, node: Node<'t>) {
        for (child, doc) in self.b.documented(named_children(node), self.g.comment) {
            self.doc = doc;
            self.visit(child);
            self.doc = None;
        }
    }

    fn local_name(&self, name: &str, at: usize) -> String {
        let mut parts = self.scope(at);
        parts.push(name);
        parts.join(".")
    }

    /// The names enclosing byte `at`: [`Walk::prefix`], its namespaces the text's where the
    /// tree has errors ([`Walk::lexical`]) — then the classes of the prefix stay the tree's.
    fn scope(&self, at: usize) -> Vec<&str> {
        match &self.lexical {
            None => self.prefix.iter().map(String::as_str).collect(),
            Some(lexical) => {
                let classes = self.prefix.iter().enumerate().filter(|(i, _)| !self.namespace_prefix.contains(i));
                lexical.at(at).iter().map(String::as_str).chain(classes.map(|(_, c)| c.as_str())).collect()
            }
        }
    }

    fn define(&mut self, name: Node<'t>, spelled: String, kind: DefKind, whole: Node<'t>, signature: String) -> DefId {
        let local_name = self.local_name(&spelled, name.start_byte());
        self.define_as(name, spelled, local_name, kind, whole, signature)
    }

    /// [`Walk::define`] under the local name `local_name`.
    fn define_as(
        &mut self,
        name: Node<'t>,
        spelled: String,
        local_name: String,
        kind: DefKind,
        whole: Node<'t>,
        signature: String,
    ) -> DefId {
        let doc = self.doc.take();
        let id = self.b.define_spelled(
            spelled,
            name,
            local_name,
            kind,
            hintlens_tree::span_of(whole),
            signature,
            self.class,
            doc,
        );
        // A member of a class of an anonymous namespace is still reached through its objects
        // (a test's override the code calls virtually); the class's own name is not.
        if self.anonymous && !self.in_class {
            self.b.index.definitions[id as usize].file_local = true;
        }
        id
    }

    /// `namespace a::b { … }`, `inline namespace v10 { … }`: each name is a `namespace`
    /// definition (a name the library chose, which `using namespace a::b;` and qualifiers name),
    /// and the prefix of what the body declares. Not bound in the file: a use of the namespace's
    /// name in a file that opens it still reaches the other files' definitions in it.
    fn namespace(&mut self, node: Node<'t>) {
        let g = self.g;
        let name = field(node, g.f_name);
        let mut parts = Vec::new();
        if let Some(name) = name {
            hintlens_tree::preorder(name, |n| {
                if self.kinds.of(n) == K::NamespaceIdentifier {
                    parts.push(n);
                }
                true
            });
        }
        // `inline namespace v10`: an ABI tag its users never spell (`hintlens_syntax::scoping`).
        if node.child(0).is_some_and(|c| c.kind() == "inline") {
            for part in &parts {
                let spelled = self.b.text(*part);
                if !self.b.index.inline_scopes.contains(&spelled) {
                    self.b.index.inline_scopes.push(spelled);
                }
            }
        }
        let was_anonymous = self.anonymous;
        self.anonymous |= name.is_none();
        let (depth, marks) = (self.prefix.len(), self.namespace_prefix.len());
        // `b` of `namespace a::b` is `a`'s, wherever the text's braces say `a` stands.
        let mut outer: Vec<String> = self.scope(node.start_byte()).into_iter().map(str::to_owned).collect();
        for part in parts {
            let spelled = self.b.text(part);
            if !self.in_body {
                let signature = self.b.flat_text(node.start_byte(), part.end_byte());
                let local_name = [outer.as_slice(), std::slice::from_ref(&spelled)].concat().join(".");
                self.define_as(part, spelled.clone(), local_name, DefKind::Namespace, node, signature);
            }
            self.namespaces.insert(spelled.clone());
            self.namespace_prefix.push(self.prefix.len());
            self.prefix.push(spelled.clone());
            outer.push(spelled);
        }
        if let Some(body) = field(node, g.f_body) {
            self.members(body);
        }
        self.prefix.truncate(depth);
        self.namespace_prefix.truncate(marks);
        self.anonymous = was_anonymous;
    }

    fn template(&mut self, node: Node<'t>) {
        let g = self.g;
        self.in_scope(ScopeKind::Function, |s| {
            if let Some(parameters) = field(node, g.f_parameters) {
                for p in named_children(parameters) {
                    if s.kinds.of(p) == K::TypeParameter {
                        for child in named_children(p) {
                            if s.kinds.of(child) == K::TypeIdentifier && Some(child) != field(p, g.f_default_value) {
                                s.b.bind(child, Binding::Local);
                            } else {
                                s.ty(child);
                            }
                        }
                    } else {
                        s.visit(p);
                    }
                }
            }
            let parameters = field(node, g.f_parameters);
            for child in named_children(node).filter(|c| Some(*c) != parameters) {
                s.visit(child);
            }
        });
    }

    // ----- the preprocessor -----

    fn include(&mut self, node: Node<'t>) {
        let g = self.g;
        let Some(path) = field(node, g.f_path) else { return };
        let written = if self.kinds.of(path) == K::SystemLibString {
            unquote(self.b.bytes(path), &['<', '>'])
        } else if self.kinds.of(path) == K::String {
            unquote(self.b.bytes(path), &['"'])
        } else {
            // `#include MACRO`: a use of the macro.
            return self.visit(path);
        };
        // The file it names, as a use of a new file's definition (its stem) on this line.
        let stem = written.rsplit('/').next().unwrap_or(&written);
        let stem = stem.split_once('.').map_or(stem, |(stem, _)| stem).to_owned();
        self.b.use_spelled(stem, hintlens_tree::span_of(path), UseKind::Import, Some(written), Some(Binding::Import));
        // Its import is the preprocessor's ([`crate::directives`]), read from the text.
    }

    fn macro_definition(&mut self, node: Node<'t>) {
        let g = self.g;
        let Some(name) = field(node, g.f_name) else { return };
        // An include guard (`#ifndef X_H` / `#define X_H`) is no name anyone chose to be used.
        let guarded = node.parent().filter(|p| self.kinds.of(*p) == K::Ifdef).and_then(|p| field(p, g.f_name));
        if field(node, g.f_value).is_none() && guarded.is_some_and(|guard| self.b.bytes(guard) == self.b.bytes(name)) {
            return;
        }
        let end = field(node, g.f_parameters).unwrap_or(name).end_byte();
        let signature = self.b.flat_text(node.start_byte(), end);
        // A macro is no namespace's.
        let (class, prefix, lexical) = (self.class.take(), std::mem::take(&mut self.prefix), self.lexical.take());
        let spelled = self.b.text(name);
        // Defining a macro another file defines too configures that one (a test's `#define
        // NLOHMANN_JSON_NAMESPACE_NO_VERSION 1` before an include, against the header's
        // `#ifndef` default): the name is used as well as defined, looked up beyond the file.
        // The default itself, under `#ifndef` (or `#ifdef`) of its own name, configures nothing.
        if guarded.is_none_or(|guard| self.b.bytes(guard) != self.b.bytes(name)) {
            self.b.use_bound(name, UseKind::Name, None, Some(Binding::Free));
        }
        self.b.scopes.bind_in(MODULE, spelled.as_bytes(), Binding::Definition);
        self.define(name, spelled, DefKind::Macro, node, signature);
        (self.class, self.prefix, self.lexical) = (class, prefix, lexical);
        self.in_scope(ScopeKind::Function, |s| {
            if let Some(parameters) = field(node, g.f_parameters) {
                for p in named_children(parameters).filter(|p| s.kinds.of(*p) == K::Identifier) {
                    s.b.bind(p, Binding::Local);
                }
            }
            s.with(field(node, g.f_value), Self::macro_body);
        });
    }

    /// A macro's body, as tokens: each identifier is a use, each after `.` or `->` a member's;
    /// comments, strings and characters name nothing.
    fn macro_body(&mut self, node: Node<'t>) {
        let at = node.start_position();
        self.macro_tokens(node.byte_range(), (node.start_byte(), at.row, at.column), UseKind::Name);
    }

    /// The macro lines the grammar read as blank ([`crate::macro_lines`]): the macro is used
    /// (called, when it has arguments), and so is every name of its arguments. A line inside a
    /// comment, a string or a directive (a macro body's last line) is that node's.
    fn stray_macro_lines(&mut self, root: Node<'t>, strays: &[crate::macro_lines::StrayLine]) {
        for stray in strays {
            let (start, end) = (stray.range.start, stray.range.end);
            let alone = &self.b.src[start..end];
            let marks = alone.iter().all(|b| b.is_ascii_alphanumeric() || *b == b'_');
            // Off an outline's kept lines, a macro's uses and strings go unrecorded: only a scope
            // mark is left to read there. (Its text may start on the line before the macro's
            // name, and its arguments run over several lines.)
            let last = stray.line + memchr::memchr_iter(b'\n', alone).count();
            if !marks && self.outline.as_ref().is_some_and(|kept| !kept.any_within(stray.line as u32, last as u32)) {
                continue;
            }
            let within = root.descendant_for_byte_range(start, end).is_some_and(|n| {
                hintlens_tree::ancestry(root, n).any(|n| {
                    matches!(
                        self.kinds.of(n),
                        K::Comment | K::String | K::RawString | K::MacroDefinition | K::MacroCall | K::MacroText
                    )
                })
            });
            if within {
                continue;
            }
            if marks && let Some(depth) = self.namespace_depth(root, start..end) {
                let name = String::from_utf8_lossy(alone).into_owned();
                self.b.index.scope_marks.push(scoping::ScopeMark { name, line: stray.line as u32, depth });
            }
            let line_start = self.b.src[..start].iter().rposition(|&b| b == b'\n').map_or(0, |p| p + 1);
            let first = if self.b.src[start..end].ends_with(b")") { UseKind::Call } else { UseKind::Name };
            self.macro_tokens(start..end, (line_start, stray.line, 0), first);
            self.macro_strings(start..end, (line_start, stray.line, 0));
        }
    }

    /// The string literals of a stray macro's arguments (`TEST_CASE("parses")`), which the
    /// grammar, reading the line as blank, does not: strings as the grammar reads them
    /// elsewhere, their value between the quotes.
    fn macro_strings(&mut self, range: std::ops::Range<usize>, anchor: (usize, usize, usize)) {
        let text = &self.b.src[..range.end];
        let mut i = range.start;
        while i < range.end {
            match text[i] {
                quote @ (b'"' | b'\'') => {
                    let (end, closed) = crate::scan::literal_end(text, i + 1, quote);
                    if quote == b'"' {
                        let value = String::from_utf8_lossy(&text[i + 1..end - usize::from(closed)]).into_owned();
                        let span = hintlens_syntax::span_within(text, anchor, i, end);
                        self.b.string_spelled(value, span, false);
                    }
                    i = end;
                }
                _ => i += 1,
            }
        }
    }

    /// How many namespace segments enclose `range`, if it stands at namespace level (not in a
    /// class, a function or a statement).
    fn namespace_depth(&self, root: Node<'t>, range: std::ops::Range<usize>) -> Option<u32> {
        let mut depth = 0;
        let Some(within) = root.descendant_for_byte_range(range.start, range.end) else { return Some(0) };
        for n in hintlens_tree::ancestry(root, within) {
            match self.kinds.of(n) {
                K::Namespace => {
                    let mut parts = 0;
                    if let Some(name) = field(n, self.g.f_name) {
                        hintlens_tree::preorder(name, |p| {
                            parts += u32::from(self.kinds.of(p) == K::NamespaceIdentifier);
                            true
                        });
                    }
                    depth += parts;
                }
                K::FunctionDefinition
                | K::Struct
                | K::Union
                | K::Class
                | K::Enum
                | K::CompoundStatement
                | K::Lambda
                | K::Call
                | K::Declaration => return None,
                _ => {}
            }
        }
        Some(depth)
    }

    /// The tokens of macro text at `range` (the position of byte `anchor.0` is line `anchor.1`,
    /// column `anchor.2`), as uses: the first name's of kind `first`, the others' names, those
    /// after `.` or `->` members', those after `a::b::` qualified by the names before them as
    /// the grammar's qualified names are (`std::tuple` in a macro's arguments is the standard
    /// library's, not a bare `tuple`).
    fn macro_tokens(&mut self, range: std::ops::Range<usize>, anchor: (usize, usize, usize), first: UseKind) {
        let src = self.b.src;
        let text = &src[range.clone()];
        let base = range.start;
        let mut first = Some(first);
        let mut i = 0;
        let mut member = false;
        // The names of an `a::b::` chain read so far, and whether a `::` ends it.
        let mut chain: Vec<String> = Vec::new();
        let mut scoped = false;
        while i < text.len() {
            if text[i] == b':' && text.get(i + 1) == Some(&b':') {
                scoped = true;
                member = false;
                i += 2;
                continue;
            }
            let c = text[i];
            if !(c.is_ascii_alphabetic() || c == b'_' || c.is_ascii_whitespace()) {
                chain.clear();
                scoped = false;
            }
            if c == b'"' || c == b'\'' {
                i += 1;
                while i < text.len() && text[i] != c {
                    i += if text[i] == b'\\' { 2 } else { 1 };
                }
                i += 1;
                member = false;
            } else if c == b'/' && text.get(i + 1) == Some(&b'*') {
                i += 2;
                while i + 1 < text.len() && !(text[i] == b'*' && text[i + 1] == b'/') {
                    i += 1;
                }
                i += 2;
            } else if c == b'/' && text.get(i + 1) == Some(&b'/') {
                break;
            } else if c.is_ascii_alphabetic() || c == b'_' {
                let start = i;
                while i < text.len() && (text[i].is_ascii_alphanumeric() || text[i] == b'_') {
                    i += 1;
                }
                let word = String::from_utf8_lossy(&text[start..i]).into_owned();
                let span = hintlens_syntax::span_within(src, anchor, base + start, base + i);
                let kind = first.take().unwrap_or(UseKind::Name);
                // A keyword names nothing (`float` of `TEMPLATE_TEST_CASE("…", "[…]", float)`).
                if !member && self.b.is_reserved(word.as_bytes()) {
                    chain.clear();
                    scoped = false;
                    continue;
                }
                if !scoped {
                    chain.clear();
                }
                if member {
                    self.b.use_spelled(word.clone(), span, UseKind::Attribute, None, Some(Binding::Receiver));
                } else {
                    let qualifier = (!chain.is_empty()).then(|| chain.join("."));
                    let head = chain.first().unwrap_or(&word);
                    let binding = external(head);
                    self.b.use_spelled(word.clone(), span, kind, qualifier, binding);
                }
                chain.push(word);
                scoped = false;
                member = false;
            } else if c.is_ascii_digit() {
                while i < text.len() && (text[i].is_ascii_alphanumeric() || text[i] == b'.' || text[i] == b'_') {
                    i += 1;
                }
                member = false;
            } else {
                // Whitespace between `->` and the member keeps it a member.
                if !c.is_ascii_whitespace() {
                    member = c == b'.' || (c == b'>' && i > 0 && text[i - 1] == b'-');
                }
                i += 1;
            }
        }
    }

    // ----- declarations -----

    /// Follows a declarator chain down to the declared name.
    fn declared(&self, declarator: Node<'t>) -> Declared<'t> {
        let g = self.g;
        let mut out = Declared { name: None, function: None };
        let mut n = declarator;
        for _ in 0..hintlens_tree::MAX_CHAIN {
            let inner = match self.kinds.of(n) {
                K::FunctionDeclarator => {
                    out.function.get_or_insert(n);
                    field(n, g.f_declarator)
                }
                K::PointerDeclarator | K::InitDeclarator => field(n, g.f_declarator),
                K::WrappedDeclarator => {
                    named_children(n).find(|c| !c.kind().starts_with("attribute") && !c.kind().starts_with("ms_"))
                }
                _ => {
                    out.name = Some(n);
                    return out;
                }
            };
            match inner {
                Some(inner) => n = inner,
                None => return out,
            }
        }
        out
    }

    /// The expressions and types inside a declarator chain: array sizes, initial values,
    /// parameters (bound in a scope of their own), which are uses.
    fn declarator_uses(&mut self, declarator: Node<'t>, name: Option<Node<'t>>) {
        let g = self.g;
        if Some(declarator) == name {
            return;
        }
        match self.kinds.of(declarator) {
            K::FunctionDeclarator => {
                self.with(field(declarator, g.f_declarator), |s, d| s.declarator_uses(d, name));
                self.in_scope(ScopeKind::Function, |s| {
                    s.with(field(declarator, g.f_parameters), Self::visit_children);
                    let skipped = [field(declarator, g.f_declarator), field(declarator, g.f_parameters)];
                    for child in named_children(declarator).filter(|c| !skipped.contains(&Some(*c))) {
                        s.visit(child);
                    }
                });
            }
            K::InitDeclarator => {
                self.with(field(declarator, g.f_declarator), |s, d| s.declarator_uses(d, name));
                self.visit_field(declarator, g.f_value);
            }
            K::PointerDeclarator | K::WrappedDeclarator => {
                for child in named_children(declarator) {
                    self.declarator_uses(child, name);
                }
            }
            K::QualifiedIdentifier | K::Identifier | K::FieldIdentifier | K::TypeIdentifier | K::Operator => {}
            _ => self.visit(declarator),
        }
    }

    /// Whether a declaration says `static` (or, with `extern`, only declares).
    fn storage(&self, node: Node<'t>, word: &str) -> bool {
        named_children(node).any(|c| self.kinds.of(c) == K::StorageClassSpecifier && self.b.bytes(c) == word.as_bytes())
    }

    /// A parameter: its type's names are uses, its name is bound where it is declared.
    fn parameter(&mut self, node: Node<'t>) {
        let g = self.g;
        self.with(field(node, g.f_type), Self::ty);
        self.visit_field(node, g.f_default_value);
        if let Some(declarator) = field(node, g.f_declarator) {
            let declared = self.declared(declarator);
            self.declarator_uses(declarator, declared.name);
            if let Some(name) = declared.name.filter(|n| self.kinds.of(*n) == K::Identifier) {
                self.b.bind(name, Binding::Local);
            }
        }
    }

    /// A variable, field or function declaration (a prototype, a member function, a field).
    fn declaration(&mut self, node: Node<'t>) {
        let g = self.g;
        if let Some(ty) = field(node, g.f_type) {
            self.ty(ty);
        }
        let file_local = self.storage(node, "static") && !self.in_class;
        for declarator in fields(node, g.f_declarator) {
            if field(node, g.f_type).is_none() && self.macro_invocation(declarator) {
                continue;
            }
            let declared = self.declared(declarator);
            self.declarator_uses(declarator, declared.name);
            let Some(name) = declared.name else { continue };
            if self.in_body {
                if self.kinds.of(name) == K::Identifier {
                    self.b.bind(name, Binding::Local);
                }
                continue;
            }
            let Some((spelled, qualified, kind)) = self.declared_name(name, declared.function.is_some()) else {
                continue;
            };
            if qualified {
                // `int T::count = 0;`: the definition of a member declared in the class.
                continue;
            }
            let signature = self.b.flat_text(node.start_byte(), declarator.end_byte());
            let signature = signature.trim_end_matches(';').to_owned();
            if declared.function.is_none() && !self.in_class {
                self.b.scopes.bind_in(MODULE, spelled.as_bytes(), Binding::Definition);
            }
            let id = self.define(name, spelled, kind, node, signature);
            if file_local {
                self.b.index.definitions[id as usize].file_local = true;
            }
        }
        self.visit_field(node, g.f_default_value);
        self.visit_field(node, g.f_value);
        // A bit field's width, attributes: uses.
        let read = [field(node, g.f_type), field(node, g.f_default_value), field(node, g.f_value)];
        let declarators = fields(node, g.f_declarator);
        for child in named_children(node) {
            if self.kinds.of(child) != K::StorageClassSpecifier
                && !read.contains(&Some(child))
                && !declarators.contains(&child)
            {
                self.visit(child);
            }
        }
    }

    /// `NAME(args)` declared with no type before it, not its class's constructor: the grammar's
    /// reading of a macro invoked where a declaration may stand (`MY_MACRO(T, a);` in a class
    /// body). A use of the macro, and of the names of its arguments; nothing is declared.
    fn macro_invocation(&mut self, declarator: Node<'t>) -> bool {
        let g = self.g;
        if self.kinds.of(declarator) != K::FunctionDeclarator {
            return false;
        }
        let Some(name) = field(declarator, g.f_declarator).filter(|n| self.kinds.of(*n) == K::Identifier) else {
            return false;
        };
        let constructor =
            self.in_class && self.prefix.last().is_some_and(|class| class.as_bytes() == self.b.bytes(name));
        if constructor {
            return false;
        }
        self.b.use_name(name, UseKind::Call, None);
        if let Some(arguments) = field(declarator, g.f_parameters) {
            let at = arguments.start_position();
            self.macro_tokens(arguments.byte_range(), (arguments.start_byte(), at.row, at.column), UseKind::Name);
        }
        true
    }

    /// What a declared name defines here: its spelling, whether it is qualified (`T::m`, an
    /// out-of-line member), and its kind. `None` for destructors and operators.
    fn declared_name(&self, name: Node<'t>, function: bool) -> Option<(String, bool, DefKind)> {
        let member_kind = if function { DefKind::Method } else { DefKind::Field };
        let free_kind = if function { DefKind::Function } else { DefKind::Variable };
        match self.kinds.of(name) {
            K::Identifier | K::FieldIdentifier | K::TypeIdentifier => {
                let spelled = self.b.text(name);
                let kind = match self.class {
                    Some(class) if function && self.b.index.definition(class).name == spelled => DefKind::Constructor,
                    _ if self.in_class => member_kind,
                    _ => free_kind,
                };
                Some((spelled, false, kind))
            }
            K::TemplateFunction => self.declared_name(field(name, self.g.f_name)?, function),
            K::QualifiedIdentifier => Some((String::new(), true, member_kind)),
            _ => None,
        }
    }

    /// A function with a body: a function, a method (in its class or out of line, `T::m`), a
    /// constructor, or a test (gtest's `TEST(Suite, Name)`).
    fn function_definition(&mut self, node: Node<'t>) {
        let g = self.g;
        if let Ok(at) = self.gtest.binary_search_by_key(&node.start_byte(), |test| test.suite.start) {
            return self.gtest_test(node, self.gtest[at].clone());
        }
        if let Some(ty) = field(node, g.f_type) {
            self.ty(ty);
        }
        let Some(declarator) = field(node, g.f_declarator) else { return self.body(node) };
        let declared = self.declared(declarator);
        let _ = if self.in_body {
            None
        } else {
            declared.name.and_then(|name| self.function_name(node, declarator, name, declared.function))
        };
        // gtest's `TEST(Suite, Name)` names no parameters: its suite is a use of the fixture.
        let gtest = declared.name.is_some_and(|n| is_gtest(self.b.bytes(n))) && field(node, g.f_type).is_none();
        self.in_scope(ScopeKind::Function, |s| {
            let was = std::mem::replace(&mut s.in_body, true);
            if !gtest {
                s.declarator_uses_of_function(declarator, declared.name);
            }
            s.body(node);
            s.in_body = was;
        });
    }

    /// A gtest test the grammar read as `Suite Name() { … }`: defined as [`Walk::function_name`]
    /// defines one the grammar reads as `TEST(Suite, Name)`, a fixture's name (not `TEST`'s
    /// suite) a use of the fixture.
    fn gtest_test(&mut self, node: Node<'t>, test: GtestHeader) {
        let g = self.g;
        let name = field(node, g.f_declarator).and_then(|d| field(d, g.f_declarator));
        if let Some(name) = name.filter(|_| !self.in_body && !self.in_class) {
            let src = self.b.src;
            if &src[test.name.clone()] != b"TEST" {
                self.with(field(node, g.f_type), |s, t| s.ty_as(t, UseKind::Base));
            }
            let text = |range: std::ops::Range<usize>| String::from_utf8_lossy(&src[range]).into_owned();
            let (suite, test_name) = (text(test.suite.clone()), text(test.test.clone()));
            let local = self.local_name(&format!("{suite}.{test_name}"), test.name.start);
            let signature = self.b.flat_text(test.name.start, test.close + 1);
            // The span a function from the macro's name would have.
            let line_start = src[..test.name.start].iter().rposition(|&b| b == b'\n').map_or(0, |p| p + 1);
            let row = node.start_position().row
                - memchr::memchr_iter(b'\n', &src[test.name.start..node.start_byte()]).count();
            let end = node.end_position();
            let span = hintlens_syntax::span(
                test.name.start,
                node.end_byte(),
                (row, test.name.start - line_start),
                (end.row, end.column),
            );
            let doc = self.doc.take();
            let id = self.b.define_spelled(test_name, name, local, DefKind::Function, span, signature, None, doc);
            self.b.index.definitions[id as usize].collected = true;
        }
        self.in_scope(ScopeKind::Function, |s| {
            let was = std::mem::replace(&mut s.in_body, true);
            s.body(node);
            s.in_body = was;
        });
    }

    /// A function's parameters (bound in the function's scope) and the rest of its declarator.
    fn declarator_uses_of_function(&mut self, declarator: Node<'t>, name: Option<Node<'t>>) {
        let g = self.g;
        let Some(function) = self.declared(declarator).function else { return self.declarator_uses(declarator, name) };
        self.with(field(function, g.f_parameters), Self::visit_children);
        let skipped = [field(function, g.f_declarator), field(function, g.f_parameters)];
        for child in named_children(function).filter(|c| !skipped.contains(&Some(*c))) {
            self.visit(child);
        }
    }

    fn body(&mut self, node: Node<'t>) {
        let g = self.g;
        let skipped = [field(node, g.f_type), field(node, g.f_declarator)];
        for child in named_children(node) {
            if skipped.contains(&Some(child)) {
                continue;
            }
            if self.kinds.of(child) == K::StorageClassSpecifier {
                continue;
            }
            self.visit(child);
        }
    }

    /// Defines the function `node` names (`name`, found down its declarator).
    fn function_name(
        &mut self,
        node: Node<'t>,
        declarator: Node<'t>,
        name: Node<'t>,
        function: Option<Node<'t>>,
    ) -> Option<DefId> {
        let g = self.g;
        let signature = self.b.flat_text(node.start_byte(), declarator.end_byte());
        let file_local = self.storage(node, "static") && !self.in_class;
        let k = self.kinds.of(name);
        let spelled = self.b.text(name);
        // gtest: `TEST(Suite, Name) { … }` parses as a function named `TEST` without a type.
        if field(node, g.f_type).is_none()
            && !self.in_class
            && (is_gtest(spelled.as_bytes()) || CATCH.contains(&spelled.as_str()))
        {
            let parameters = function.and_then(|f| field(f, g.f_parameters))?;
            let names: Vec<Node<'t>> = named_children(parameters).collect();
            if !is_gtest(spelled.as_bytes()) || names.len() < 2 {
                return None;
            }
            let (suite, test) = (names[0], names[1]);
            let suite_name = self.b.text(suite);
            if spelled != "TEST" && self.kinds.of(suite) == K::Parameter {
                // A fixture's name: a use of the fixture class.
                self.with(field(suite, g.f_type), |s, t| s.ty_as(t, UseKind::Base));
            }
            let test = field(test, g.f_type).unwrap_or(test);
            let suite_name = field(suite, g.f_type).map_or(suite_name, |t| self.b.text(t));
            let test_name = self.b.text(test);
            let local = self.local_name(&format!("{suite_name}.{test_name}"), node.start_byte());
            let doc = self.doc.take();
            let id = self.b.define_spelled(
                test_name,
                test,
                local,
                DefKind::Function,
                hintlens_tree::span_of(node),
                signature,
                None,
                doc,
            );
            self.b.index.definitions[id as usize].collected = true;
            return Some(id);
        }
        function?;
        let id = if k == K::QualifiedIdentifier
            || (k == K::TemplateFunction
                && field(name, g.f_name).is_some_and(|n| self.kinds.of(n) == K::QualifiedIdentifier))
        {
            self.out_of_line(node, name, signature)
        } else {
            let (spelled, _, kind) = self.declared_name(name, true)?;
            if !self.in_class {
                self.b.scopes.bind_in(MODULE, spelled.as_bytes(), Binding::Definition);
            }
            let name_node = if k == K::TemplateFunction { field(name, g.f_name).unwrap_or(name) } else { name };
            Some(self.define(name_node, spelled, kind, node, signature))
        };
        if let Some(id) = id.filter(|_| file_local) {
            self.b.index.definitions[id as usize].file_local = true;
        }
        id
    }

    /// `T::m(…) { … }`, `ns::f(…) { … }`: a method of `T` (its class's member when this file
    /// declares `T`), or a function of a namespace this file opens.
    fn out_of_line(&mut self, node: Node<'t>, name: Node<'t>, signature: String) -> Option<DefId> {
        let g = self.g;
        let mut scopes: Vec<String> = Vec::new();
        let mut n = name;
        for _ in 0..hintlens_tree::MAX_CHAIN {
            match self.kinds.of(n) {
                K::TemplateFunction | K::TemplateType => n = field(n, g.f_name)?,
                K::QualifiedIdentifier => {
                    if let Some(scope) = field(n, g.f_scope) {
                        let scope_name = field(scope, g.f_name).unwrap_or(scope);
                        scopes.push(self.b.text(scope_name));
                        if self.kinds.of(scope) == K::TemplateType {
                            self.with(field(scope, g.f_arguments), Self::visit_children);
                        }
                    }
                    n = field(n, g.f_name)?;
                }
                _ => break,
            }
        }
        if !matches!(self.kinds.of(n), K::Identifier | K::FieldIdentifier | K::TypeIdentifier) {
            return None;
        }
        let spelled = self.b.text(n);
        let owner = scopes.last().cloned().unwrap_or_default();
        let in_namespace = self.namespaces.contains(&owner);
        let kind = if in_namespace {
            DefKind::Function
        } else if owner == spelled {
            DefKind::Constructor
        } else {
            DefKind::Method
        };
        let parent = if in_namespace {
            None
        } else {
            self.b.index.definitions.iter().rposition(|d| d.name == owner && d.kind.is_type()).map(|p| p as DefId)
        };
        let local_name = match parent {
            Some(p) => format!("{}.{spelled}", self.b.index.definition(p).local_name),
            None => {
                let mut parts = self.scope(n.start_byte());
                parts.extend(scopes.iter().map(String::as_str));
                parts.push(&spelled);
                parts.join(".")
            }
        };
        let doc = self.doc.take();
        let id =
            self.b.define_spelled(spelled, n, local_name, kind, hintlens_tree::span_of(node), signature, parent, doc);
        if self.anonymous && parent.is_none() && kind == DefKind::Function {
            self.b.index.definitions[id as usize].file_local = true;
        }
        Some(id)
    }

    /// `typedef struct x { … } y;`: the struct (if it has a body and a name) and the alias.
    fn type_definition(&mut self, node: Node<'t>) {
        let g = self.g;
        // `typedef struct { … } jv;`: the struct is `jv` (its fields `jv.kind`), no alias beside.
        let declarators = fields(node, g.f_declarator);
        let anonymous = field(node, g.f_type)
            .filter(|t| self.is_specifier(*t) && field(*t, g.f_name).is_none() && field(*t, g.f_body).is_some());
        let named_by = declarators
            .first()
            .copied()
            .filter(|d| self.kinds.of(*d) == K::TypeIdentifier)
            .filter(|_| anonymous.is_some());
        match (anonymous, named_by) {
            (Some(ty), Some(name)) => self.specifier_named(ty, Some(name)),
            _ => self.with(field(node, g.f_type), Self::ty),
        }
        for declarator in declarators {
            if Some(declarator) == named_by {
                continue;
            }
            let declared = self.declared(declarator);
            self.declarator_uses(declarator, declared.name);
            let Some(name) =
                declared.name.filter(|n| self.kinds.of(*n) == K::TypeIdentifier || self.kinds.of(*n) == K::Identifier)
            else {
                continue;
            };
            if self.in_body {
                self.b.bind(name, Binding::Local);
                continue;
            }
            let spelled = self.b.text(name);
            let signature = self.b.flat_text(node.start_byte(), node.end_byte());
            let signature = signature.trim_end_matches(';').to_owned();
            self.b.scopes.bind_in(MODULE, spelled.as_bytes(), Binding::Definition);
            // `typedef struct jq_state jq_state;` declares the struct a source file defines: one
            // identifier with it (the header's), not an alias beside it.
            let kind = field(node, g.f_type)
                .filter(|t| self.is_specifier(*t) && field(*t, g.f_body).is_none())
                .filter(|t| field(*t, g.f_name).is_some_and(|n| self.b.bytes(n) == spelled.as_bytes()))
                .map_or(DefKind::TypeAlias, |t| self.specifier_kind(t));
            let id = self.define(name, spelled, kind, node, signature);
            if kind == DefKind::TypeAlias {
                self.b.index.definitions[id as usize].holds = field(node, g.f_type).and_then(|t| self.type_name(t));
            }
        }
    }

    fn specifier_kind(&self, node: Node<'t>) -> DefKind {
        match self.kinds.of(node) {
            K::Enum => DefKind::Enum,
            K::Union => DefKind::Union,
            K::Class => DefKind::Class,
            _ => DefKind::Struct,
        }
    }

    /// `using X = Y;`.
    fn alias(&mut self, node: Node<'t>) {
        let g = self.g;
        self.with(field(node, g.f_type), Self::ty);
        if let (Some(name), true) = (field(node, g.f_name), self.in_body) {
            return self.b.bind(name, Binding::Local);
        }
        if let Some(name) = field(node, g.f_name) {
            let spelled = self.b.text(name);
            let signature = self.b.flat_text(node.start_byte(), node.end_byte()).trim_end_matches(';').to_owned();
            let id = self.define(name, spelled, DefKind::TypeAlias, node, signature);
            self.b.index.definitions[id as usize].holds = field(node, g.f_type).and_then(|t| self.type_name(t));
        }
    }

    /// The name of the type a type expression names: `basic_json` of `nlohmann::basic_json<>`,
    /// `cbor_tag_handler_t` of `detail::cbor_tag_handler_t` (what an alias of it stands for).
    fn type_name(&self, node: Node<'t>) -> Option<String> {
        let g = self.g;
        let mut n = node;
        for _ in 0..hintlens_tree::MAX_CHAIN {
            n = match self.kinds.of(n) {
                K::TypeDescriptor => field(n, g.f_type)?,
                K::QualifiedIdentifier | K::TemplateType => field(n, g.f_name)?,
                K::TypeIdentifier | K::Identifier => return Some(self.b.text(n)),
                _ => return None,
            };
        }
        None
    }

    /// A struct, union, class or enum specifier: a definition when it has a body and a name,
    /// a use of the type it names otherwise.
    fn is_specifier(&self, node: Node<'t>) -> bool {
        matches!(self.kinds.of(node), K::Struct | K::Union | K::Class | K::Enum)
    }

    fn specifier(&mut self, node: Node<'t>) {
        self.specifier_named(node, field(node, self.g.f_name));
    }

    /// [`Walk::specifier`] of a type named `name` (its own, or a typedef's for an anonymous
    /// one). A specialization (`struct formatter<T> { … }`) defines no new name: it uses the
    /// template's, and its members are members (of a type this file does not declare).
    fn specifier_named(&mut self, node: Node<'t>, name: Option<Node<'t>>) {
        let g = self.g;
        let Some(body) = field(node, g.f_body) else {
            self.with(name, Self::ty);
            return;
        };
        let kind = self.specifier_kind(node);
        let own_name = field(node, g.f_name);
        for child in named_children(node) {
            if self.kinds.of(child) == K::BaseClassClause {
                for base in named_children(child) {
                    self.ty_as(base, UseKind::Base);
                }
            } else if Some(child) != name && Some(child) != own_name && child != body {
                self.ty(child);
            }
        }
        let specialization = name.filter(|n| self.kinds.of(*n) == K::TemplateType);
        if let Some(specialization) = specialization {
            self.ty(specialization);
        }
        // In a function body a type is the function's own; it still holds its members.
        let id = match name {
            Some(name) if self.kinds.of(name) == K::TypeIdentifier => {
                let spelled = self.b.text(name);
                let mut signature = self.b.flat_text(node.start_byte(), body.start_byte());
                if field(node, g.f_name).is_none() {
                    signature = format!("typedef {signature} {spelled}");
                }
                if self.in_body {
                    self.b.bind(name, Binding::Local);
                } else {
                    self.b.scopes.bind_in(MODULE, spelled.as_bytes(), Binding::Definition);
                }
                Some(self.define(name, spelled, kind, node, signature))
            }
            Some(other) if Some(other) != specialization => {
                self.ty(other);
                None
            }
            _ => None,
        };
        if kind == DefKind::Enum {
            self.enumerators(node, body, id);
        } else {
            let (class, in_class, depth) = (self.class, self.in_class, self.prefix.len());
            if let Some(id) = id {
                self.class = Some(id);
                self.prefix.push(self.b.index.definition(id).name.clone());
            } else if let Some(template) = specialization.and_then(|s| field(s, g.f_name)) {
                self.class = None;
                self.prefix.push(self.b.text(template));
            }
            self.in_class = true;
            // An anonymous struct of a function body holds the function's own names.
            let local = self.in_body && id.is_none();
            let was = std::mem::replace(&mut self.in_body, local);
            self.members(body);
            self.in_body = was;
            self.prefix.truncate(depth);
            (self.class, self.in_class) = (class, in_class);
        }
    }

    /// An enum's members: C's enumerators are global names (bound in the file); those of a
    /// C++ `enum class` are the enum's members, named through it.
    fn enumerators(&mut self, node: Node<'t>, body: Node<'t>, id: Option<DefId>) {
        let g = self.g;
        let scoped = self.cpp && hintlens_tree::children(node).any(|c| matches!(c.kind(), "class" | "struct"));
        let class = self.class;
        let depth = self.prefix.len();
        if let Some(id) = id.filter(|_| scoped) {
            self.class = Some(id);
            self.prefix.push(self.b.index.definition(id).name.clone());
        } else {
            self.class = None;
        }
        for (child, doc) in self.b.documented(named_children(body), g.comment) {
            if self.kinds.of(child) != K::Enumerator {
                self.visit(child);
                continue;
            }
            if let Some(name) = field(child, g.f_name) {
                let spelled = self.b.text(name);
                if !scoped {
                    if self.in_body {
                        self.b.bind(name, Binding::Local);
                    } else {
                        self.b.scopes.bind_in(MODULE, spelled.as_bytes(), Binding::Definition);
                    }
                }
                if !self.in_body || scoped {
                    let signature = self.b.flat_text(child.start_byte(), child.end_byte());
                    self.doc = doc;
                    self.define(name, spelled, DefKind::EnumConstant, child, signature);
                    self.doc = None;
                }
            }
            self.visit_field(child, g.f_value);
        }
        self.prefix.truncate(depth);
        self.class = class;
    }

    // ----- uses -----

    fn call(&mut self, node: Node<'t>) {
        let g = self.g;
        if let Some(function) = field(node, g.f_function) {
            match self.kinds.of(function) {
                K::Identifier => self.b.use_name(function, UseKind::Call, None),
                K::FieldExpression => self.member(function, UseKind::Call),
                K::QualifiedIdentifier | K::TemplateFunction => self.name_use(function, UseKind::Call),
                _ => self.visit(function),
            }
        }
        self.visit_field(node, g.f_arguments);
    }

    /// `a.b`, `a->b`: a use of the member `b` through `a` (as a chain of names when it is one).
    fn member(&mut self, node: Node<'t>, kind: UseKind) {
        let g = self.g;
        let argument = field(node, g.f_argument);
        let qualifier = argument.and_then(|a| self.b.dotted(a));
        match argument {
            Some(a) if qualifier.is_some() => {
                // The chain's head is a use too (`s` of `s.store`), its links are members.
                match self.kinds.of(a) {
                    K::FieldExpression => self.member(a, UseKind::Attribute),
                    K::Identifier => self.b.use_name(a, UseKind::Name, None),
                    _ => {}
                }
            }
            Some(a) => self.visit(a),
            None => {}
        }
        let Some(member) = field(node, g.f_field) else { return };
        let member = if self.kinds.of(member) == K::TemplateMethod {
            self.with(field(member, g.f_arguments), Self::visit_children);
            field(member, g.f_name).unwrap_or(member)
        } else {
            member
        };
        if self.kinds.of(member) != K::FieldIdentifier {
            return;
        }
        let binding = if qualifier.is_none() { Some(Binding::Receiver) } else { None };
        self.b.use_bound(member, kind, qualifier, binding);
    }

    /// `ns::T::f`, `f<T>`, `T<int>`: a use of the last name, qualified by the ones before it
    /// (dotted: `ns.T`); template arguments are uses of their own.
    fn name_use(&mut self, node: Node<'t>, kind: UseKind) {
        let g = self.g;
        let mut scopes: Vec<String> = Vec::new();
        let mut n = node;
        let template_arguments = |s: &mut Self, template: Node<'t>| {
            s.with(field(template, g.f_arguments), |s, a| {
                for argument in named_children(a) {
                    s.ty(argument);
                }
            });
        };
        for _ in 0..hintlens_tree::MAX_CHAIN {
            match self.kinds.of(n) {
                K::TemplateFunction | K::TemplateType | K::TemplateMethod => template_arguments(self, n),
                K::QualifiedIdentifier => {
                    if let Some(scope) = field(n, g.f_scope) {
                        let scope_name = if self.kinds.of(scope) == K::TemplateType {
                            template_arguments(self, scope);
                            field(scope, g.f_name).unwrap_or(scope)
                        } else {
                            scope
                        };
                        // `E::Member`, `ns::T::m`: the enum, the type, the namespace are used
                        // too, each through the ones before it.
                        let qualifier = (!scopes.is_empty()).then(|| scopes.join("."));
                        let head = scopes.first().cloned().unwrap_or_else(|| self.b.text(scope_name));
                        let outside = external(&head);
                        match self.kinds.of(scope_name) {
                            K::TypeIdentifier => self.b.use_bound(scope_name, UseKind::Type, qualifier, outside),
                            K::NamespaceIdentifier => self.b.use_bound(scope_name, UseKind::Name, qualifier, outside),
                            _ => {}
                        }
                        scopes.push(self.b.text(scope_name));
                    }
                }
                _ => break,
            }
            match field(n, g.f_name) {
                Some(name) => n = name,
                None => return,
            }
        }
        match self.kinds.of(n) {
            K::Identifier | K::TypeIdentifier | K::FieldIdentifier => {}
            K::Operator | K::OperatorCast => return,
            _ => return self.visit(n),
        }
        let outside = scopes.first().and_then(|head| external(head));
        let qualifier = (!scopes.is_empty()).then(|| scopes.join("."));
        self.b.use_bound(n, kind, qualifier, outside);
    }

    /// `.flags = 1` in an initializer: a use of the field `flags`.
    fn designator(&mut self, node: Node<'t>) {
        match self.kinds.of(node) {
            K::FieldIdentifier => self.b.use_bound(node, UseKind::Attribute, None, Some(Binding::Receiver)),
            K::FieldDesignator => {
                for child in named_children(node).filter(|c| self.kinds.of(*c) == K::FieldIdentifier) {
                    self.b.use_bound(child, UseKind::Attribute, None, Some(Binding::Receiver));
                }
            }
            _ => self.visit(node),
        }
    }

    /// A string literal's value: what its quotes hold (a raw string's delimiters left out),
    /// escapes as written.
    fn string(&mut self, node: Node<'t>) {
        let value = if self.kinds.of(node) == K::RawString {
            named_children(node).filter(|c| c.kind().ends_with("content")).map(|c| self.b.text(c)).collect()
        } else {
            let bytes = self.b.bytes(node);
            // After the prefix (`L`, `u8`…).
            let open = bytes.iter().position(|&b| b == b'"').unwrap_or(0);
            unquote(&bytes[open..], &['"'])
        };
        self.b.string(value, node, false);
    }
}

/// The namespace the C++ standard reserves for its library: a name qualified by it (`std::tuple`,
/// `std::chrono::seconds`) is the library's, whatever the repository defines. A program may add
/// specializations of the library's templates to it, never names of its own.
const STANDARD_NAMESPACE: &str = "std";

/// How a qualified name whose first scope is `head` is bound when that is known where it
/// stands: [`Binding::External`] for the standard library's namespace, else looked up.
fn external(head: &str) -> Option<Binding> {
    (head == STANDARD_NAMESPACE).then_some(Binding::External)
}

#[cfg(test)]
mod tests {
    use super::{Grammar, K};
    use tree_sitter::Language;

    #[test]
    fn every_kind_the_walk_reads_is_c_or_cpp() {
        // The tables are lenient (C lacks C++'s kinds): a misspelt name would never match.
        let grammars: [Language; 2] = [tree_sitter_c::LANGUAGE.into(), tree_sitter_cpp::LANGUAGE.into()];
        for name in K::NAMES.iter().chain(Grammar::KIND_NAMES) {
            assert!(grammars.iter().any(|l| l.id_for_node_kind(name, true) != 0), "neither grammar has `{name}`");
        }
    }
}
