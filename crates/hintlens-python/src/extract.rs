//! One walk over the syntax tree that collects definitions, uses, imports and strings.
//!
//! The walk is recursive descent over named children, dispatching on the node kind and on the
//! context the parent established (expression, assignment target, type, decorator, base class,
//! match pattern). Kinds it does not know are walked as expressions, which is also how the
//! readable parts of syntax errors are extracted.

use crate::grammar::{Grammar, Kind, grammar};
use crate::text::{cleandoc, is_constant_name, is_keyword};
use hintlens_syntax::scope::{MODULE, ScopeId, ScopeKind};
use hintlens_syntax::{
    Binding, DefId, DefKind, ERROR_MESSAGE_CALLEES, FileIndex, Import, UseKind, flatten_whitespace, line_around,
    reads_exception_message,
};
use hintlens_tree::{Builder, Conventions, TreeWalk, opens_bracket_around, preorder, span_of};
use std::collections::HashSet;
use tree_sitter::{Node, Tree};

/// Calls whose second argument names an attribute of their first, as a string (matched against
/// the whole callee or its last components): the builtins, pytest's `monkeypatch` and `mock`'s
/// `patch.object`.
const ATTRIBUTE_BY_STRING_CALLEES: &[&str] = &["setattr", "getattr", "hasattr", "delattr", "patch.object"];

/// unittest.mock's methods and helpers whose keyword arguments are those of the mocked callable.
const MOCK_CALLEES: &[&str] = &[
    "assert_called_with",
    "assert_called_once_with",
    "assert_any_call",
    "assert_not_called_with",
    "call",
    "assert_awaited_with",
    "assert_awaited_once_with",
    "assert_any_await",
];

pub(crate) fn extract(text: &[u8], tree: &Tree) -> FileIndex {
    let root = tree.root_node();
    let mut walk = Walk {
        g: grammar(),
        b: Builder::new(text, Conventions::default()),
        scope: Scope::Module,
        recovering: root.has_error(),
        assigned: HashSet::new(),
        raised: None,
        error_depth: 0,
        in_string: 0,
        param_scope: MODULE,
    };
    walk.b.index.doc = walk.body(root);
    walk.b.finish(root)
}

/// Where the walk is, which decides what an assignment declares.
#[derive(Clone, Copy)]
enum Scope<'t> {
    Module,
    /// `keyword_fields`: the class is a dataclass (or attrs, NamedTuple, pydantic model…), so
    /// its fields are constructor keywords.
    Class {
        id: DefId,
        keyword_fields: bool,
    },
    /// Function bodies declare no variables. In a method, `receiver` is the class and the first
    /// parameter's name: `self.x = …` declares field `x` of that class.
    Function {
        id: DefId,
        receiver: Option<(DefId, &'t [u8])>,
    },
}

impl Scope<'_> {
    fn parent(self) -> Option<DefId> {
        match self {
            Scope::Module => None,
            Scope::Class { id, .. } | Scope::Function { id, .. } => Some(id),
        }
    }
}

/// How an assignment target binds.
#[derive(Clone, Copy)]
enum Target<'t> {
    /// `for`, `with … as`, `except … as`, comprehension targets: they declare nothing.
    Bind,
    /// `=` declares module variables, class fields and `self` fields; `annotation` is the
    /// `int` of `x: int = …`.
    Assign { statement: Node<'t>, annotation: Option<Node<'t>> },
}

struct Walk<'t> {
    g: &'static Grammar,
    b: Builder<'t>,
    scope: Scope<'t>,
    /// Whether the tree has syntax errors: error recovery may turn keywords into identifiers.
    recovering: bool,
    /// Names already declared by an assignment, with their parent: only the first assignment
    /// of a name declares it.
    assigned: HashSet<(Option<DefId>, String)>,
    /// The call a `raise` statement raises (`raise E(…)`), while its statement is walked.
    raised: Option<usize>,
    /// How many enclosing call arguments make strings error messages: those of `raise E(…)`
    /// and of the exception-message matchers ([`ERROR_MESSAGE_CALLEES`]).
    error_depth: u32,
    /// How many strings enclose the walk (f-string interpolations): their strings are part of
    /// a message, not messages.
    in_string: u32,
    /// The scope of the function whose parameters are being declared.
    param_scope: ScopeId,
}

impl<'t> TreeWalk<'t> for Walk<'t> {
    fn visit_kind(&mut self, node: Node<'t>) {
        let f = &self.g.fields;
        let kind = self.kind(node);
        match kind {
            Kind::Identifier => self.push_use(node, UseKind::Name, None),
            Kind::Attribute => self.reference(node, UseKind::Attribute),
            Kind::Call => self.call(node, UseKind::Call),
            Kind::String => self.string(node, true),
            Kind::RaiseStatement => {
                // `raise E(…)`, also as in `raise E(…).with_traceback(tb)`: the call of a name
                // chain the statement starts with (the exception raised, not its `from` cause).
                let mut target = (0..node.named_child_count() as u32)
                    .filter_map(|i| node.named_child(i))
                    .find(|c| !self.skipped(*c));
                let mut raised = None;
                while let Some(t) = target {
                    target = match self.kind(t) {
                        Kind::Call => {
                            let function = t.child_by_field_id(f.function);
                            if function.is_some_and(|f| self.dotted(f).is_some()) {
                                raised = Some(t.id());
                                break;
                            }
                            function
                        }
                        Kind::Attribute => t.child_by_field_id(f.object),
                        _ => None,
                    };
                }
                let outer = std::mem::replace(&mut self.raised, raised);
                self.each_child(node, |s, child| s.visit(child));
                self.raised = outer;
            }
            Kind::Type => self.annotation(node),
            Kind::Assignment => self.assignment(node),
            Kind::FunctionDefinition => self.function(node, node, false),
            Kind::ClassDefinition => self.class(node, node),
            Kind::DecoratedDefinition => self.decorated(node),
            // One child binds (the loop variable, the `as` name); the others are read.
            Kind::ForStatement | Kind::ForInClause | Kind::ExceptClause | Kind::AsPattern => {
                let field = if matches!(kind, Kind::ForStatement | Kind::ForInClause) { f.left } else { f.alias };
                let [bound] = self.fields(node, [field]);
                self.each_child(node, |s, child| {
                    if Some(child) == bound {
                        s.target(child, Target::Bind);
                    } else {
                        s.visit(child);
                    }
                });
            }
            Kind::NamedExpression => {
                let [name] = self.fields(node, [f.name]);
                self.each_child(node, |s, child| {
                    if Some(child) == name {
                        s.b.scopes.bind_walrus(s.b.bytes(child));
                    } else {
                        s.visit(child);
                    }
                });
            }
            Kind::ListComprehension
            | Kind::SetComprehension
            | Kind::DictionaryComprehension
            | Kind::GeneratorExpression => {
                self.in_scope(ScopeKind::Comprehension, |s| {
                    s.each_child(node, |s, child| s.visit(child));
                });
            }
            Kind::AugmentedAssignment => {
                // `x += 1` reads `x` and makes it a local of the scope.
                let [left] = self.fields(node, [f.left]);
                if let Some(left) = left.filter(|l| self.kind(*l) == Kind::Identifier) {
                    self.b.bind(left, Binding::Local);
                }
                self.each_child(node, |s, child| s.visit(child));
            }
            Kind::Lambda => self.lambda(node),
            Kind::CaseClause => self.each_child(node, |s, child| {
                if s.kind(child) == Kind::CasePattern {
                    s.pattern(child);
                } else {
                    s.visit(child);
                }
            }),
            Kind::ImportStatement => self.import(node),
            Kind::ImportFromStatement | Kind::FutureImportStatement => self.import_from(node),
            Kind::TypeAliasStatement => self.type_alias(node),
            Kind::GlobalStatement | Kind::NonlocalStatement => self.each_child(node, |s, name| {
                if s.kind(name) == Kind::Identifier {
                    s.b.scopes.declare_outer(s.b.bytes(name));
                }
            }),
            _ => self.each_child(node, |s, child| s.visit(child)),
        }
    }

    /// The context-free fallback for over-deep subtrees: identifiers are plain name uses, and
    /// strings are strings.
    fn flat(&mut self, node: Node<'t>) {
        preorder(node, |current| match self.kind(current) {
            Kind::Identifier => {
                self.push_use(current, UseKind::Name, None);
                false
            }
            Kind::String => {
                self.string(current, false);
                true
            }
            Kind::Comment | Kind::LineContinuation => false,
            _ => true,
        });
    }

    fn builder(&mut self) -> &mut Builder<'t> {
        &mut self.b
    }
}

impl<'t> Walk<'t> {
    // ----- plumbing -------------------------------------------------------------------------

    fn kind(&self, node: Node) -> Kind {
        self.g.kinds.of(node)
    }

    /// Calls `f` with each named child, skipping comments, line continuations and the
    /// zero-width nodes error recovery inserts.
    fn each_child(&mut self, node: Node<'t>, mut f: impl FnMut(&mut Self, Node<'t>)) {
        // Indexed access beats a cursor here: it skips anonymous tokens and hidden
        // repetition nodes without stopping at each of them.
        for i in 0..node.named_child_count() as u32 {
            if let Some(child) = node.named_child(i)
                && !self.skipped(child)
            {
                f(self, child);
            }
        }
    }

    fn skipped(&self, node: Node<'t>) -> bool {
        let skipped = match self.kind(node) {
            Kind::Comment | Kind::LineContinuation => true,
            // Punctuation and keywords.
            Kind::Other => !node.is_named(),
            _ => false,
        };
        skipped || self.recovering && node.is_missing()
    }

    /// The first child in each of the given fields.
    fn fields<const N: usize>(&self, node: Node<'t>, ids: [u16; N]) -> [Option<Node<'t>>; N] {
        ids.map(|id| node.child_by_field_id(id).filter(|c| !self.skipped(*c)))
    }

    /// The source text of `start..end` within `node` on one line, without comments or line
    /// continuations.
    fn flat_text(&mut self, node: Node<'t>, start: usize, end: usize) -> String {
        let end = end.max(start);
        let raw = self.b.src.get(start..end).unwrap_or_default();
        if !raw.iter().any(|&b| b == b'#' || b == b'\\') {
            return flatten_whitespace(&String::from_utf8_lossy(raw));
        }
        // Rare: walk the range for comment and continuation nodes and cut them out (a `#` or
        // `\` may as well be inside a string, so the text alone cannot tell).
        let mut kept = Vec::with_capacity(raw.len());
        let mut from = start;
        let src = self.b.src;
        preorder(node, |current| {
            let overlaps = current.start_byte() < end && current.end_byte() > start;
            overlaps
                && match self.kind(current) {
                    Kind::Comment | Kind::LineContinuation => {
                        let cut = current.start_byte().clamp(from, end);
                        kept.extend_from_slice(src.get(from..cut).unwrap_or_default());
                        kept.push(b' ');
                        from = current.end_byte().clamp(from, end);
                        false
                    }
                    _ => true,
                }
        });
        kept.extend_from_slice(src.get(from..end).unwrap_or_default());
        flatten_whitespace(&String::from_utf8_lossy(&kept))
    }

    fn node_text_flat(&mut self, node: Node<'t>) -> String {
        self.flat_text(node, node.start_byte(), node.end_byte())
    }

    /// The dotted text of a name chain (`obj`, `self.helper`, `pkg.mod`), `None` for any other
    /// expression.
    fn dotted(&self, node: Node<'t>) -> Option<String> {
        if !matches!(self.kind(node), Kind::Identifier | Kind::Attribute) {
            return None;
        }
        // An attribute whose text is only names, dots and blanks is a name chain: anything else
        // in the object (a call, a subscript, brackets, a literal) brings other characters.
        // That saves walking the chain for every attribute of it.
        let bytes = self.b.bytes(node);
        let is_chain = bytes.first().is_some_and(|&b| b.is_ascii_alphabetic() || b == b'_' || b >= 0x80)
            && bytes
                .iter()
                .all(|&b| b.is_ascii_alphanumeric() || b == b'_' || b == b'.' || b >= 0x80 || b.is_ascii_whitespace());
        if !is_chain {
            return None;
        }
        let text = String::from_utf8_lossy(bytes);
        Some(if bytes.iter().any(u8::is_ascii_whitespace) {
            text.split_ascii_whitespace().collect()
        } else {
            text.into_owned()
        })
    }

    fn push_use(&mut self, name: Node<'t>, kind: UseKind, qualifier: Option<String>) {
        self.push_use_of(name, kind, qualifier, false);
    }

    /// A use of `name`; `member` when it is an attribute of some object (`obj.name`,
    /// `make().name`), so that with no name chain to qualify it, its binding is the receiver's.
    fn push_use_of(&mut self, name: Node<'t>, kind: UseKind, qualifier: Option<String>, member: bool) {
        // Error recovery may turn a keyword into an identifier.
        if self.recovering && is_keyword(self.b.bytes(name)) {
            return;
        }
        let binding = binding_of(kind, qualifier.as_deref(), member);
        self.b.use_bound(name, kind, qualifier, binding);
    }

    /// A use of the name `text`, found at `at_node` (a string holding it).
    fn push_spelled_use(
        &mut self,
        text: String,
        at_node: Node<'t>,
        kind: UseKind,
        qualifier: Option<String>,
        member: bool,
    ) {
        let binding = binding_of(kind, qualifier.as_deref(), member);
        self.b.use_spelled(text, span_of(at_node), kind, qualifier, binding);
    }

    // ----- statements and expressions -------------------------------------------------------

    /// Walks a module, class or function body; returns its docstring.
    fn body(&mut self, block: Node<'t>) -> Option<String> {
        let mut doc = None;
        let mut first = true;
        self.each_child(block, |s, statement| {
            if std::mem::take(&mut first)
                && let Some(d) = s.docstring(statement)
            {
                doc = Some(d);
                return;
            }
            s.visit(statement);
        });
        doc.filter(|d| !d.is_empty())
    }

    /// A name or attribute chain whose last name is used as `kind` (`Call` for a callee, `Type`
    /// in an annotation…); the names before it are read as usual. Other expressions are
    /// walked as expressions.
    fn reference(&mut self, node: Node<'t>, kind: UseKind) {
        self.nested(node, |s| match s.kind(node) {
            Kind::Identifier => s.push_use(node, kind, None),
            Kind::Attribute => {
                let [object, attribute] = s.fields(node, [s.g.fields.object, s.g.fields.attribute]);
                s.each_child(node, |s, child| {
                    if Some(child) == object {
                        let receiver_kind = match s.kind(child) {
                            Kind::Attribute => UseKind::Attribute,
                            _ => UseKind::Name,
                        };
                        s.reference(child, receiver_kind);
                    } else if Some(child) == attribute {
                        let qualifier = object.and_then(|o| s.dotted(o));
                        s.push_use_of(child, kind, qualifier, true);
                    } else {
                        s.visit(child);
                    }
                });
            }
            _ => s.visit(node),
        });
    }

    /// A call, or a decorator call when `kind` is `Decorator`.
    fn call(&mut self, node: Node<'t>, kind: UseKind) {
        let [function, arguments] = self.fields(node, [self.g.fields.function, self.g.fields.arguments]);
        let raised = self.raised == Some(node.id());
        let error =
            raised || function.and_then(|f| self.callee_name(f)).is_some_and(|n| ERROR_MESSAGE_CALLEES.contains(&n));
        self.each_child(node, |s, child| {
            let error = error && Some(child) == arguments;
            s.error_depth += u32::from(error);
            if Some(child) == function {
                s.reference(child, kind);
            } else if Some(child) == arguments && s.kind(child) == Kind::ArgumentList {
                s.arguments(child, function);
            } else {
                s.visit(child);
            }
            s.error_depth -= u32::from(error);
        });
    }

    /// The last name of a callee: `f` of `f(…)`, `raises` of `pytest.raises(…)`.
    fn callee_name(&self, function: Node<'t>) -> Option<&'t str> {
        let name = match self.kind(function) {
            Kind::Identifier => function,
            Kind::Attribute => function.child_by_field_id(self.g.fields.attribute)?,
            _ => return None,
        };
        std::str::from_utf8(self.b.bytes(name)).ok()
    }

    /// Whether `node` (a string) is an argument of an assertion (`assertEqual(…)`,
    /// `assert (…)`) with no bracket in between, on a line that reads `getMessage()`.
    fn in_message_assertion(&self, node: Node<'t>) -> bool {
        if !reads_exception_message(line_around(self.b.src, node.start_byte())) {
            return false;
        }
        // Rare enough to afford `parent()`: the innermost ancestor with a bracket open around
        // the string.
        let at = node.start_byte();
        let mut current = node;
        while let Some(up) = current.parent() {
            current = up;
            if !opens_bracket_around(up, at) {
                continue;
            }
            let Some(parent) = up.parent() else { return false };
            return match parent.kind() {
                "call" => {
                    parent.child_by_field_id(self.g.fields.arguments) == Some(up)
                        && parent
                            .child_by_field_id(self.g.fields.function)
                            .and_then(|f| self.callee_name(f))
                            .is_some_and(|n| n.starts_with("assert"))
                }
                "assert_statement" => parent.named_child(0) == Some(up),
                _ => false,
            };
        }
        false
    }

    fn arguments(&mut self, node: Node<'t>, callee: Option<Node<'t>>) {
        self.attribute_by_string(node, callee);
        // Computed at the first keyword argument: most calls have none.
        let mut qualifier: Option<Option<String>> = None;
        self.each_child(node, |s, child| {
            if s.kind(child) == Kind::KeywordArgument {
                let q = qualifier
                    .get_or_insert_with(|| {
                        // A mock's `assert_called_with(k=…)` and `call(k=…)` name the keywords of
                        // whatever the mock stands for: no callee the call spells.
                        let mocked = callee.and_then(|c| s.callee_name(c)).is_some_and(|n| MOCK_CALLEES.contains(&n));
                        if mocked { None } else { callee.and_then(|c| s.dotted(c)) }
                    })
                    .clone();
                s.keyword_argument(child, q);
            } else {
                s.visit(child);
            }
        });
    }

    /// `setattr(mod, 'name', v)`, `monkeypatch.setattr(mod, 'name', v)`,
    /// `mock.patch.object(Cls, 'name')`: the string names an attribute of the first argument, and
    /// the call fails (or patches nothing) when the code spells it otherwise. A use of `name`
    /// qualified by the first argument, as `mod.name` would be.
    fn attribute_by_string(&mut self, arguments: Node<'t>, callee: Option<Node<'t>>) {
        // The last name first, which costs no allocation: this runs for every call.
        let Some(callee) = callee else { return };
        if !self.callee_name(callee).is_some_and(|n| ATTRIBUTE_BY_STRING_CALLEES.iter().any(|c| c.ends_with(n))) {
            return;
        }
        let Some(callee) = self.dotted(callee) else { return };
        let names = |c: &&str| callee.strip_suffix(c).is_some_and(|rest| rest.is_empty() || rest.ends_with('.'));
        if !ATTRIBUTE_BY_STRING_CALLEES.iter().any(names) {
            return;
        }
        let mut positional = (0..arguments.named_child_count() as u32)
            .filter_map(|i| arguments.named_child(i))
            .filter(|a| !matches!(self.kind(*a), Kind::Comment));
        let (Some(object), Some(name)) = (positional.next(), positional.next()) else { return };
        let Some(qualifier) = self.dotted(object) else { return };
        if self.kind(name) != Kind::String {
            return;
        }
        // A plain string whose whole content is one identifier (no interpolation, no prefix
        // other than quotes).
        let mut text = String::new();
        let mut plain = true;
        self.each_child(name, |s, part| match s.kind(part) {
            Kind::StringContent => text.push_str(&s.b.str(part)),
            Kind::Interpolation => plain = false,
            _ => {}
        });
        if plain && hintlens_syntax::is_identifier(&text) {
            self.push_spelled_use(text, name, UseKind::Attribute, Some(qualifier), true);
        }
    }

    fn keyword_argument(&mut self, node: Node<'t>, qualifier: Option<String>) {
        let [name] = self.fields(node, [self.g.fields.name]);
        let mut qualifier = Some(qualifier);
        self.each_child(node, |s, child| {
            if Some(child) == name
                && let Some(q) = qualifier.take()
            {
                s.push_use(child, UseKind::KeywordArgument, q);
            } else {
                s.visit(child);
            }
        });
    }

    fn lambda(&mut self, node: Node<'t>) {
        let [parameters] = self.fields(node, [self.g.fields.parameters]);
        let scope = self.b.scopes.open(ScopeKind::Function);
        self.each_child(node, |s, child| {
            if Some(child) != parameters {
                let outer = s.b.scopes.enter(scope);
                s.visit(child);
                s.b.scopes.leave(outer);
                return;
            }
            // Lambda parameters declare no definitions, but bind in the lambda's body; their
            // defaults are read outside it.
            s.each_child(child, |s, param| match s.kind(param) {
                Kind::Identifier => s.b.scopes.bind_in(scope, s.b.bytes(param), Binding::Local),
                Kind::DefaultParameter => {
                    let [name, value] = s.fields(param, [s.g.fields.name, s.g.fields.value]);
                    if let Some(name) = name {
                        s.b.scopes.bind_in(scope, s.b.bytes(name), Binding::Local);
                    }
                    if let Some(value) = value {
                        s.visit(value);
                    }
                }
                Kind::ListSplatPattern | Kind::DictionarySplatPattern => s.each_child(param, |s, inner| {
                    if s.kind(inner) == Kind::Identifier {
                        s.b.scopes.bind_in(scope, s.b.bytes(inner), Binding::Local);
                    }
                }),
                _ => {}
            });
        });
    }

    fn string(&mut self, node: Node<'t>, walk_interpolations: bool) {
        // Reserved before the interpolations are walked, which may hold strings of their own.
        let slot = self.b.index.strings.len();
        let error_context = self.in_string == 0 && (self.error_depth > 0 || self.in_message_assertion(node));
        self.b.string(String::new(), node, error_context);
        self.in_string += 1;
        let mut value = String::new();
        self.each_child(node, |s, part| match s.kind(part) {
            Kind::StringContent => value.push_str(&s.b.str(part)),
            Kind::Interpolation => {
                value.push_str("{}");
                if walk_interpolations {
                    s.visit(part);
                }
            }
            _ => {}
        });
        self.b.index.strings[slot].value = value;
        self.in_string -= 1;
    }

    /// The docstring, if `statement` is one: a lone plain string expression (f-strings and
    /// bytes are not docstrings in Python).
    fn docstring(&mut self, statement: Node<'t>) -> Option<String> {
        if self.kind(statement) != Kind::ExpressionStatement {
            return None;
        }
        let mut only = None;
        let mut count = 0;
        self.each_child(statement, |_, child| {
            count += 1;
            only = Some(child);
        });
        let expression = only.filter(|_| count == 1)?;
        let mut raw = String::new();
        let is_doc = match self.kind(expression) {
            Kind::String => self.docstring_part(expression, &mut raw),
            Kind::ConcatenatedString => {
                let mut all = true;
                self.each_child(expression, |s, part| {
                    all = all && s.kind(part) == Kind::String && s.docstring_part(part, &mut raw);
                });
                all
            }
            _ => false,
        };
        is_doc.then(|| cleandoc(&raw))
    }

    fn docstring_part(&mut self, string: Node<'t>, raw: &mut String) -> bool {
        let mut plain = true;
        self.each_child(string, |s, part| match s.kind(part) {
            Kind::StringStart => {
                plain &= !s.b.bytes(part).iter().any(|b| matches!(b.to_ascii_lowercase(), b'f' | b'b' | b't'));
            }
            Kind::StringContent => raw.push_str(&s.b.str(part)),
            Kind::Interpolation => plain = false,
            _ => {}
        });
        plain
    }

    // ----- assignments ----------------------------------------------------------------------

    fn assignment(&mut self, node: Node<'t>) {
        let [left, annotation, right] =
            self.fields(node, [self.g.fields.left, self.g.fields.r#type, self.g.fields.right]);
        self.each_child(node, |s, child| {
            if Some(child) == left {
                s.target(child, Target::Assign { statement: node, annotation });
            } else {
                s.visit(child);
            }
        });
        // `webview = pytest.importorskip('pkg.browser.webview')`: `import pkg.browser.webview
        // as webview`, done at run time; `mod = __import__('a.b').b` likewise.
        if let (Some(name), Some(module)) = (left, right.and_then(|r| self.imported_at_run_time(r)))
            && self.kind(name) == Kind::Identifier
        {
            let alias = self.b.text(name);
            self.push_import(name, module, None, Some(alias), false);
        }
    }

    /// The module an expression imports by its dotted name, given as a plain string:
    /// `pytest.importorskip('a.b')`, `importlib.import_module('a.b')`, and `__import__('a.b')`
    /// (which is the top package `a`) followed by the attributes leading to the module
    /// (`__import__('a.b').b`).
    fn imported_at_run_time(&self, value: Node<'t>) -> Option<String> {
        let f = &self.g.fields;
        let mut attributes = Vec::new();
        let mut call = value;
        while self.kind(call) == Kind::Attribute {
            attributes.push(std::str::from_utf8(self.b.bytes(call.child_by_field_id(f.attribute)?)).ok()?);
            call = call.child_by_field_id(f.object)?;
        }
        if self.kind(call) != Kind::Call {
            return None;
        }
        let [function, arguments] = self.fields(call, [f.function, f.arguments]);
        let top_package = match self.callee_name(function?)? {
            "importorskip" | "import_module" if attributes.is_empty() => false,
            "__import__" => true,
            _ => return None,
        };
        let first = (0..arguments?.named_child_count() as u32)
            .filter_map(|i| arguments?.named_child(i))
            .find(|c| !self.skipped(*c))?;
        if self.kind(first) != Kind::String {
            return None;
        }
        let mut value = String::new();
        for i in 0..first.named_child_count() as u32 {
            let part = first.named_child(i)?;
            match self.kind(part) {
                Kind::StringContent => value.push_str(std::str::from_utf8(self.b.bytes(part)).ok()?),
                Kind::Interpolation => return None,
                _ => {}
            }
        }
        if value.is_empty() || !value.split('.').all(hintlens_syntax::is_identifier) {
            return None;
        }
        if !top_package {
            return Some(value);
        }
        let top = value.split('.').next().unwrap_or_default();
        Some(std::iter::once(top).chain(attributes.iter().rev().copied()).collect::<Vec<_>>().join("."))
    }

    fn target(&mut self, node: Node<'t>, binding: Target<'t>) {
        self.nested(node, |s| match (s.kind(node), binding) {
            (Kind::Identifier, Target::Assign { statement, annotation }) => s.declare_name(node, statement, annotation),
            (Kind::Identifier, Target::Bind) => s.b.bind(node, Binding::Local),
            (Kind::Attribute, _) => {
                let declared = match binding {
                    Target::Assign { statement, annotation } => s.declare_field(node, statement, annotation),
                    Target::Bind => false,
                };
                if !declared {
                    s.reference(node, UseKind::Attribute);
                }
            }
            (
                Kind::PatternList
                | Kind::TuplePattern
                | Kind::ListPattern
                | Kind::Tuple
                | Kind::List
                | Kind::ListSplatPattern
                | Kind::ListSplat
                | Kind::ParenthesizedExpression
                | Kind::AsPatternTarget,
                _,
            ) => {
                // An annotation belongs to a single name, never to the parts of a tuple.
                let binding = match binding {
                    Target::Assign { statement, .. } => Target::Assign { statement, annotation: None },
                    Target::Bind => Target::Bind,
                };
                s.each_child(node, |s, child| s.target(child, binding));
            }
            _ => s.visit(node),
        });
    }

    /// A name assigned at module or class level declares a variable, constant or field.
    fn declare_name(&mut self, name: Node<'t>, statement: Node<'t>, annotation: Option<Node<'t>>) {
        self.b.bind(name, Binding::Local);
        let (parent, keyword) = match self.scope {
            Scope::Module => (None, false),
            Scope::Class { id, keyword_fields } => (Some(id), keyword_fields),
            Scope::Function { .. } => return,
        };
        let text = self.b.text(name);
        let kind = match parent {
            Some(_) => DefKind::Field,
            None if is_constant_name(&text) => DefKind::Constant,
            None => DefKind::Variable,
        };
        if !self.assigned.insert((parent, text.clone())) {
            return;
        }
        let local_name = self.b.local_name(parent, &text);
        let signature = self.assigned_signature(&text, annotation);
        let id = self.b.define_spelled(text, name, local_name, kind, span_of(statement), signature, parent, None);
        self.b.index.definitions[id as usize].constructor_keyword = keyword && self.declares_init_field(statement);
        if parent.is_some() {
            self.b.index.definitions[id as usize].holds = self.held_name(statement);
        }
    }

    /// The bare name an attribute's assignment gives it (`module = eric_eccli_command`), if
    /// that is its whole value and the attribute its whole target (not `a, b = pair`).
    fn held_name(&self, statement: Node<'t>) -> Option<String> {
        let f = &self.g.fields;
        let [Some(target), Some(value)] = self.fields(statement, [f.left, f.right]) else { return None };
        let single = matches!(self.kind(target), Kind::Identifier | Kind::Attribute);
        (self.kind(statement) == Kind::Assignment && single && self.kind(value) == Kind::Identifier)
            .then(|| self.b.text(value))
    }

    /// Whether a class-level assignment of a dataclass-like class declares an `__init__`
    /// field: annotated (`x: int = 0`), or an attrs/dataclass field call (`x = attr.ib()`).
    /// A plain `count = 0` is a class attribute, not a field.
    fn declares_init_field(&self, statement: Node<'t>) -> bool {
        let f = &self.g.fields;
        if statement.child_by_field_id(f.r#type).is_some() {
            return true;
        }
        let Some(value) = statement.child_by_field_id(self.g.fields.right) else { return false };
        self.kind(value) == Kind::Call
            && value
                .child_by_field_id(f.function)
                .and_then(|c| self.callee_name(c))
                .is_some_and(|n| matches!(n, "ib" | "attrib" | "field"))
    }

    /// `self.x = …` in a method declares field `x` of its class, unless already declared.
    /// Returns whether it did (the caller records an attribute use otherwise).
    fn declare_field(&mut self, attribute: Node<'t>, statement: Node<'t>, annotation: Option<Node<'t>>) -> bool {
        let Scope::Function { receiver: Some((class, receiver)), .. } = self.scope else {
            return false;
        };
        let f = &self.g.fields;
        let [object, name] = self.fields(attribute, [f.object, f.attribute]);
        let (Some(object), Some(name)) = (object, name) else {
            return false;
        };
        if self.kind(object) != Kind::Identifier || self.b.bytes(object) != receiver {
            return false;
        }
        let text = self.b.text(name);
        if !self.assigned.insert((Some(class), text.clone())) {
            return false;
        }
        self.push_use(object, UseKind::Name, None);
        let local_name = self.b.local_name(Some(class), &text);
        let signature = self.assigned_signature(&text, annotation);
        let id = self.b.define_spelled(
            text,
            name,
            local_name,
            DefKind::Field,
            span_of(statement),
            signature,
            Some(class),
            None,
        );
        self.b.index.definitions[id as usize].holds = self.held_name(statement);
        true
    }

    fn assigned_signature(&mut self, name: &str, annotation: Option<Node<'t>>) -> String {
        match annotation {
            Some(t) => format!("{name}: {}", self.node_text_flat(t)),
            None => name.to_owned(),
        }
    }

    /// `type Alias[T] = …` declares `Alias` like an assignment would.
    fn type_alias(&mut self, node: Node<'t>) {
        let [left] = self.fields(node, [self.g.fields.left]);
        self.each_child(node, |s, child| {
            if Some(child) != left {
                s.visit(child);
                return;
            }
            s.each_child(child, |s, inner| match s.kind(inner) {
                Kind::Identifier => s.declare_name(inner, node, None),
                Kind::GenericType => s.each_child(inner, |s, part| match s.kind(part) {
                    Kind::Identifier => s.declare_name(part, node, None),
                    Kind::TypeParameter => s.type_parameters(part),
                    _ => s.visit(part),
                }),
                _ => s.annotation(inner),
            });
        });
    }

    // ----- definitions ----------------------------------------------------------------------

    /// Decorators, then the function or class they decorate (whose span includes them).
    fn decorated(&mut self, node: Node<'t>) {
        let [definition] = self.fields(node, [self.g.fields.definition]);
        let mut is_static = false;
        self.each_child(node, |s, child| match s.kind(child) {
            Kind::FunctionDefinition if Some(child) == definition => {
                s.function(child, node, is_static);
            }
            Kind::ClassDefinition if Some(child) == definition => s.class(child, node),
            Kind::Decorator => is_static |= s.decorator(child),
            _ => s.visit(child),
        });
    }

    /// Returns whether the decorator is `@staticmethod`, whose first parameter is no receiver.
    fn decorator(&mut self, node: Node<'t>) -> bool {
        let mut is_static = false;
        self.each_child(node, |s, child| match s.kind(child) {
            Kind::Call => s.call(child, UseKind::Decorator),
            kind => {
                is_static |= kind == Kind::Identifier && s.b.bytes(child) == b"staticmethod";
                s.reference(child, UseKind::Decorator);
            }
        });
        is_static
    }

    /// `outer` is the decorated definition when there are decorators, else `node`.
    fn function(&mut self, node: Node<'t>, outer: Node<'t>, is_static: bool) {
        let f = &self.g.fields;
        let [name, type_parameters, parameters, return_type, body] =
            self.fields(node, [f.name, f.type_parameters, f.parameters, f.return_type, f.body]);
        let (kind, class) = match self.scope {
            // `__init__` is what `Cls(…)` calls: a constructor, as in Java.
            Scope::Class { id, .. } if name.is_some_and(|n| self.b.bytes(n) == b"__init__") => {
                (DefKind::Constructor, Some(id))
            }
            Scope::Class { id, .. } => (DefKind::Method, Some(id)),
            _ => (DefKind::Function, None),
        };
        let header = [type_parameters, parameters, return_type];
        let Some(id) = self.define_header(node, outer, name, header, kind) else {
            return self.each_child(node, |s, child| s.visit(child));
        };
        // Parameters bind in the function's scope; their defaults and annotations are read in
        // the enclosing one.
        let scope = self.b.scopes.open(ScopeKind::Function);
        let mut receiver = None;
        self.each_child(node, |s, child| {
            if Some(child) == type_parameters {
                s.type_parameters(child);
            } else if Some(child) == parameters {
                let outer_params = std::mem::replace(&mut s.param_scope, scope);
                let fixtures = s.takes_fixtures(name, outer);
                let first = s.parameters(child, id, fixtures, class.is_some() && !is_static);
                s.param_scope = outer_params;
                receiver = class.zip(first.filter(|_| !is_static));
            } else if Some(child) == body {
                s.definition_body(child, id, Scope::Function { id, receiver }, scope);
            } else if Some(child) != name {
                s.visit(child);
            }
        });
    }

    /// `outer` is the decorated definition when there are decorators, else `node`.
    fn class(&mut self, node: Node<'t>, outer: Node<'t>) {
        let f = &self.g.fields;
        let [name, type_parameters, superclasses, body] =
            self.fields(node, [f.name, f.type_parameters, f.superclasses, f.body]);
        let header = [type_parameters, superclasses];
        let Some(id) = self.define_header(node, outer, name, header, DefKind::Class) else {
            return self.each_child(node, |s, child| s.visit(child));
        };
        let keyword_fields = self.has_keyword_fields(outer, superclasses);
        let scope = self.b.scopes.open(ScopeKind::Class);
        self.each_child(node, |s, child| {
            if Some(child) == type_parameters {
                s.type_parameters(child);
            } else if Some(child) == superclasses {
                s.superclasses(child);
            } else if Some(child) == body {
                s.definition_body(child, id, Scope::Class { id, keyword_fields }, scope);
            } else if Some(child) != name {
                s.visit(child);
            }
        });
    }

    /// Whether the class's fields are its constructor's keywords: a dataclass, an attrs class,
    /// a `NamedTuple`, `TypedDict` or pydantic model. Read from the names alone (the last
    /// component of each decorator and base), since the decorator's import is not followed.
    fn has_keyword_fields(&self, outer: Node<'t>, superclasses: Option<Node<'t>>) -> bool {
        const DECORATORS: &[&[u8]] = &[b"dataclass", b"s", b"attrs", b"define", b"frozen", b"mutable"];
        const BASES: &[&[u8]] = &[b"NamedTuple", b"TypedDict", b"BaseModel", b"BaseSettings", b"Struct"];
        let last_name = |node: Node<'t>| -> Option<&'t [u8]> {
            let mut node = node;
            // `@dataclass(frozen=True)`: the callee names the decorator.
            if self.kind(node) == Kind::Call {
                node = node.child_by_field_id(self.g.fields.function)?;
            }
            match self.kind(node) {
                Kind::Identifier => Some(self.b.bytes(node)),
                Kind::Attribute => node.child_by_field_id(self.g.fields.attribute).map(|a| self.b.bytes(a)),
                _ => None,
            }
        };
        let named = |node: Node<'t>, names: &[&[u8]]| last_name(node).is_some_and(|n| names.contains(&n));
        let decorated = (0..outer.named_child_count() as u32)
            .filter_map(|i| outer.named_child(i))
            .filter(|c| self.kind(*c) == Kind::Decorator)
            .any(|d| d.named_child(0).is_some_and(|e| named(e, DECORATORS)));
        decorated
            || superclasses.is_some_and(|list| {
                (0..list.named_child_count() as u32).filter_map(|i| list.named_child(i)).any(|b| named(b, BASES))
            })
    }

    /// Declares a function or class; its signature is its header up to the last of `header`
    /// (the colon and body excluded). `None` when error recovery left it without a name.
    fn define_header<const N: usize>(
        &mut self,
        node: Node<'t>,
        outer: Node<'t>,
        name: Option<Node<'t>>,
        header: [Option<Node<'t>>; N],
        kind: DefKind,
    ) -> Option<DefId> {
        let name = name?;
        let end = header.into_iter().flatten().map(|n| n.end_byte()).fold(name.end_byte(), usize::max);
        let signature = self.flat_text(node, node.start_byte(), end);
        let parent = self.scope.parent();
        self.b.bind(name, Binding::Definition);
        let text = self.b.text(name);
        let local_name = self.b.local_name(parent, &text);
        Some(self.b.define_spelled(text, name, local_name, kind, span_of(outer), signature, parent, None))
    }

    fn definition_body(&mut self, body: Node<'t>, id: DefId, scope: Scope<'t>, lexical: ScopeId) {
        let outer_scope = std::mem::replace(&mut self.scope, scope);
        let outer_lexical = self.b.scopes.enter(lexical);
        let doc = self.body(body);
        self.b.index.definitions[id as usize].doc = doc;
        self.b.scopes.leave(outer_lexical);
        self.scope = outer_scope;
    }

    fn superclasses(&mut self, node: Node<'t>) {
        self.each_child(node, |s, child| match s.kind(child) {
            // `metaclass=M` configures the class statement, no callee to qualify it with.
            Kind::KeywordArgument => s.keyword_argument(child, None),
            _ => s.base(child),
        });
    }

    /// `Base`, `mod.Mixin`, `Generic[T]` (the subscript holds types).
    fn base(&mut self, node: Node<'t>) {
        self.nested(node, |s| match s.kind(node) {
            Kind::Identifier | Kind::Attribute => s.reference(node, UseKind::Base),
            Kind::Subscript => {
                let [value] = s.fields(node, [s.g.fields.value]);
                s.each_child(node, |s, child| {
                    if Some(child) == value {
                        s.base(child);
                    } else {
                        s.annotation(child);
                    }
                });
            }
            _ => s.visit(node),
        });
    }

    /// `[T: Bound, *Ts]` of a generic function, class or alias: the names it declares are not
    /// uses, their bounds are types.
    fn type_parameters(&mut self, node: Node<'t>) {
        self.each_child(node, |s, param| {
            s.each_child(param, |s, inner| match s.kind(inner) {
                Kind::Identifier | Kind::SplatType => {}
                Kind::ConstrainedType => {
                    let mut declared = false;
                    s.each_child(inner, |s, part| {
                        if std::mem::replace(&mut declared, true) {
                            s.annotation(part);
                        }
                    });
                }
                _ => s.annotation(inner),
            });
        });
    }

    /// Declares the parameters of `function`; returns the first one's name when it is a plain
    /// name, the receiver if `function` is a method. With `fixtures`, the plain parameters after
    /// the receiver (`skip_first`) are also uses of the pytest fixtures of their names.
    fn parameters(&mut self, node: Node<'t>, function: DefId, fixtures: bool, skip_first: bool) -> Option<&'t [u8]> {
        let mut first = None;
        let mut seen = false;
        self.each_child(node, |s, param| {
            let name = s.parameter(param, param, function);
            let is_first = !std::mem::replace(&mut seen, true);
            if is_first {
                first = name.map(|n| s.b.bytes(n));
            }
            if let Some(name) = name.filter(|_| fixtures && !(is_first && skip_first)) {
                // The parameter is the binding; the fixture it requests is looked up by name.
                s.b.use_spelled(s.b.text(name), span_of(name), UseKind::Fixture, None, Some(Binding::Free));
            }
        });
        first
    }

    /// Whether pytest fills the function's parameters with fixtures: a test (`test*`) or a
    /// fixture (`@pytest.fixture`, `@fixture(…)`).
    fn takes_fixtures(&self, name: Option<Node<'t>>, outer: Node<'t>) -> bool {
        if name.is_some_and(|n| self.b.bytes(n).starts_with(b"test")) {
            return true;
        }
        (0..outer.named_child_count() as u32)
            .filter_map(|i| outer.named_child(i))
            .filter(|c| self.kind(*c) == Kind::Decorator)
            .any(|d| self.b.bytes(d).windows(7).any(|w| w == b"fixture"))
    }

    /// Declares the names in `part` of parameter `declaration` (`strict` of
    /// `strict: bool = False`, `args` of `*args`) and walks its annotation and default.
    /// Returns the name when the parameter is a plain one (not `*args`, `**kwargs`).
    fn parameter(&mut self, part: Node<'t>, declaration: Node<'t>, function: DefId) -> Option<Node<'t>> {
        let mut plain = None;
        self.nested(part, |s| match s.kind(part) {
            Kind::Identifier => {
                s.b.scopes.bind_in(s.param_scope, s.b.bytes(part), Binding::Local);
                let text = s.b.text(part);
                let local_name = s.b.local_name(Some(function), &text);
                let signature = s.node_text_flat(declaration);
                s.b.define_spelled(
                    text,
                    part,
                    local_name,
                    DefKind::Parameter,
                    span_of(declaration),
                    signature,
                    Some(function),
                    None,
                );
                plain = Some(part);
            }
            Kind::ListSplatPattern | Kind::DictionarySplatPattern | Kind::TuplePattern => {
                s.each_child(part, |s, inner| {
                    s.parameter(inner, declaration, function);
                });
            }
            Kind::TypedParameter | Kind::DefaultParameter | Kind::TypedDefaultParameter if part == declaration => {
                // What is neither the annotation nor the default is the name.
                let [annotation, default] = s.fields(part, [s.g.fields.r#type, s.g.fields.value]);
                s.each_child(part, |s, inner| {
                    if Some(inner) == annotation || Some(inner) == default {
                        s.visit(inner);
                    } else {
                        plain = s.parameter(inner, declaration, function);
                    }
                });
            }
            _ => s.visit(part),
        });
        plain
    }

    // ----- types and patterns ---------------------------------------------------------------

    fn annotation(&mut self, node: Node<'t>) {
        self.nested(node, |s| match s.kind(node) {
            Kind::Identifier | Kind::Attribute => s.reference(node, UseKind::Type),
            Kind::Type
            | Kind::Subscript
            | Kind::GenericType
            | Kind::TypeParameter
            | Kind::UnionType
            | Kind::ConstrainedType
            | Kind::MemberType
            | Kind::SplatType
            | Kind::BinaryOperator
            | Kind::List
            | Kind::Tuple
            | Kind::ParenthesizedExpression => s.each_child(node, |s, child| s.annotation(child)),
            _ => s.visit(node),
        });
    }

    /// A `case` pattern: bare names capture (no use), dotted names and class patterns refer.
    fn pattern(&mut self, node: Node<'t>) {
        self.nested(node, |s| match s.kind(node) {
            Kind::DottedName => {
                let mut components = 0;
                let mut first = None;
                s.each_child(node, |_, part| {
                    components += 1;
                    first = first.or(Some(part));
                });
                if components > 1 {
                    s.dotted_name(node, "", UseKind::Name, UseKind::Attribute);
                } else if let Some(name) = first {
                    // A lone name is a capture pattern: it binds.
                    s.b.bind(name, Binding::Local);
                }
            }
            Kind::ClassPattern => {
                let mut class = None;
                s.each_child(node, |s, child| match s.kind(child) {
                    Kind::DottedName if class.is_none() => {
                        class = Some(s.dotted_name(child, "", UseKind::Name, UseKind::Attribute));
                    }
                    Kind::CasePattern => s.class_pattern_argument(child, class.as_deref()),
                    _ => s.pattern(child),
                });
            }
            // A capture pattern binds the name.
            Kind::Identifier => s.b.bind(node, Binding::Local),
            Kind::SplatPattern => s.each_child(node, |s, inner| {
                if s.kind(inner) == Kind::Identifier {
                    s.b.bind(inner, Binding::Local);
                }
            }),
            Kind::String => s.string(node, true),
            _ => s.each_child(node, |s, child| s.pattern(child)),
        });
    }

    /// `x=0` in `Point(x=0)` names an attribute of the class, like a keyword argument.
    fn class_pattern_argument(&mut self, node: Node<'t>, class: Option<&str>) {
        self.each_child(node, |s, child| {
            if s.kind(child) != Kind::KeywordPattern {
                return s.pattern(child);
            }
            let mut keyword = true;
            s.each_child(child, |s, part| {
                if std::mem::take(&mut keyword) && s.kind(part) == Kind::Identifier {
                    s.push_use(part, UseKind::KeywordArgument, class.map(str::to_owned));
                } else {
                    s.pattern(part);
                }
            });
        });
    }

    /// Uses for the components of a dotted name, each qualified by what precedes it (starting
    /// from `prefix`, e.g. the dots of a relative import). The first component is used as
    /// `first` when nothing precedes it, every other as `rest`. Returns the components joined.
    fn dotted_name(&mut self, node: Node<'t>, prefix: &str, first: UseKind, rest: UseKind) -> String {
        let mut own = String::new();
        self.each_child(node, |s, part| {
            if s.kind(part) != Kind::Identifier {
                return s.visit(part);
            }
            let qualifier = join_module(prefix, &own);
            let kind = if qualifier.is_empty() { first } else { rest };
            s.push_use(part, kind, Some(qualifier).filter(|q| !q.is_empty()));
            if !own.is_empty() {
                own.push('.');
            }
            own.push_str(&s.b.str(part));
        });
        own
    }

    // ----- imports --------------------------------------------------------------------------

    /// `import a.b.c`, `import a.b as ab`.
    fn import(&mut self, node: Node<'t>) {
        self.each_child(node, |s, child| match s.kind(child) {
            Kind::DottedName | Kind::AliasedImport => {
                if let (Some(module), alias) = s.imported(child, "", UseKind::ImportModule) {
                    s.push_import(child, module, None, alias, false);
                }
            }
            _ => s.visit(child),
        });
    }

    /// `from a.b import c, d as e`, `from ..pkg import *`, `from __future__ import x`.
    fn import_from(&mut self, node: Node<'t>) {
        let [module_name] = self.fields(node, [self.g.fields.module_name]);
        let mut module = String::new();
        if self.kind(node) == Kind::FutureImportStatement {
            // `__future__` is a keyword token here, not an identifier node.
            if let Some(token) =
                (0..node.child_count()).filter_map(|i| node.child(i)).find(|c| c.kind() == "__future__")
            {
                self.push_use(token, UseKind::ImportModule, None);
            }
            module.push_str("__future__");
        }
        self.each_child(node, |s, child| match s.kind(child) {
            _ if Some(child) == module_name => {
                module = match s.kind(child) {
                    Kind::RelativeImport => s.relative_import(child),
                    _ => s.dotted_name(child, "", UseKind::ImportModule, UseKind::ImportModule),
                };
            }
            Kind::DottedName | Kind::AliasedImport => {
                if let (Some(name), alias) = s.imported(child, &module, UseKind::Import) {
                    s.push_import(child, module.clone(), Some(name), alias, false);
                }
            }
            Kind::WildcardImport => s.push_import(child, module.clone(), None, None, true),
            _ => s.visit(child),
        });
    }

    /// `a.b` or `a.b as ab` after `import`: uses of the components as `kind`, qualified from
    /// `prefix`; returns the dotted name and the alias.
    fn imported(&mut self, node: Node<'t>, prefix: &str, kind: UseKind) -> (Option<String>, Option<String>) {
        if self.kind(node) == Kind::DottedName {
            return (Some(self.dotted_name(node, prefix, kind, kind)), None);
        }
        let [alias] = self.fields(node, [self.g.fields.alias]);
        let mut name = None;
        self.each_child(node, |s, part| match s.kind(part) {
            _ if Some(part) == alias => {}
            Kind::DottedName => name = Some(s.dotted_name(part, prefix, kind, kind)),
            _ => s.visit(part),
        });
        (name, alias.map(|a| self.b.text(a)))
    }

    /// `..pkg.mod`: the dots, then uses for the components qualified by what precedes them.
    fn relative_import(&mut self, node: Node<'t>) -> String {
        let mut module = String::new();
        self.each_child(node, |s, part| match s.kind(part) {
            Kind::ImportPrefix => {
                let dots = s.b.bytes(part).iter().filter(|&&b| b == b'.').count();
                module.extend(std::iter::repeat_n('.', dots));
            }
            Kind::DottedName => {
                let path = s.dotted_name(part, &module, UseKind::ImportModule, UseKind::ImportModule);
                module.push_str(&path);
            }
            _ => s.visit(part),
        });
        module
    }

    fn push_import(
        &mut self,
        name_node: Node<'t>,
        module: String,
        name: Option<String>,
        alias: Option<String>,
        wildcard: bool,
    ) {
        let line = name_node.start_position().row as u32;
        let import = Import { module, name, alias, wildcard, line };
        if let Some(bound) = import.bound_name() {
            self.b.scopes.bind(bound.as_bytes(), Binding::Import);
        }
        self.b.index.imports.push(import);
    }

    // ----- errors ---------------------------------------------------------------------------
}

/// The binding a use has where it stands, when its kind decides it: an import statement's own
/// names are what the import binds, and a member of an object that is no chain of names is the
/// receiver's. `None`: looked up from the use's scope.
fn binding_of(kind: UseKind, qualifier: Option<&str>, member: bool) -> Option<Binding> {
    match kind {
        UseKind::Import | UseKind::ImportModule => Some(Binding::Import),
        _ if member && qualifier.is_none() => Some(Binding::Receiver),
        _ => None,
    }
}

/// `a.b` + `c` → `a.b.c`; `..` + `pkg` → `..pkg`.
fn join_module(prefix: &str, rest: &str) -> String {
    match (prefix.is_empty(), rest.is_empty()) {
        (_, true) => prefix.to_owned(),
        (true, false) => rest.to_owned(),
        (false, false) if prefix.ends_with('.') => format!("{prefix}{rest}"),
        (false, false) => format!("{prefix}.{rest}"),
    }
}
