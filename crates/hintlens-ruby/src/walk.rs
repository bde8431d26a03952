//! One walk over a Ruby syntax tree: definitions, uses, requires, strings, and the bindings of
//! every use.
//!
//! Scopes: the file is the module scope; a `def`, `class`, `module` or `class << self` body is a
//! sealed block (no outer local reaches it, the methods around it do); a `do … end` or `{ … }`
//! block and a lambda are open blocks. Locals are bound from their assignment on, methods and
//! `let`s throughout their block; constants are never bound, being the program's.

use hintlens_syntax::scope::ScopeKind;
use hintlens_syntax::{Binding, DefId, DefKind, ERROR_MESSAGE_CALLEES, FileIndex, UseKind};
use hintlens_tree::{Builder, Conventions, KindTable, TreeWalk, field, named_children, span_of};

use tree_sitter::{Node, Tree};

pub(crate) fn extract(src: &[u8], tree: &Tree) -> FileIndex {
    let root = tree.root_node();
    let g = grammar();
    let b = Builder::new(src, Conventions::default())
        .flat(&[g.identifier, g.constant], &[g.comment, g.string_content])
        .plain_name(g.identifier)
        .chains(
            &[g.identifier, g.constant, g.instance_variable, g.class_variable],
            &[(g.call, g.f_receiver, g.f_method), (g.scope_resolution, g.f_scope, g.f_name)],
        );
    let mut walk = Walk { g, kinds: kinds(), b, owner: None, prefix: String::new(), private: false, error_args: 0 };
    // The file's top level is a block like any other: a local exists from its assignment on.
    walk.in_scope(ScopeKind::OpenBlock, |w| w.statements(root));
    let mut index = walk.b.finish(root);
    // `config.retries` where `config` is no local, `Cart.new.total`: a method's value, whose
    // type is unknown — a member by name, never a path of constants (which are capitalised).
    let constants = |q: &str| q.split('.').all(|c| c.starts_with(|c: char| c.is_ascii_uppercase()));
    for u in &mut index.uses {
        if u.binding == Binding::Free
            && u.kind != UseKind::KeywordArgument
            && u.qualifier.as_deref().is_some_and(|q| !constants(q))
        {
            u.binding = Binding::Receiver;
        }
    }
    index
}

hintlens_tree::node_kinds! {
    /// The node kinds the walk tells apart.
    enum K as kinds(tree_sitter_ruby::LANGUAGE, "tree-sitter-ruby") {
        Comment = "comment", Constant = "constant", ScopeResolution = "scope_resolution",
        Class = "class", Module = "module", SingletonClass = "singleton_class",
        Method = "method", SingletonMethod = "singleton_method", Call = "call",
        Assignment = "assignment", OperatorAssignment = "operator_assignment",
        /// `a, b = …`.
        Destructure = "left_assignment_list" | "destructured_left_assignment",
        Block = "block" | "do_block",
        Lambda = "lambda", For = "for", Rescue = "rescue", Alias = "alias",
        /// `@x`, `@@x`, `$x`, `self`, `super`: no name of a definition.
        Variable = "instance_variable" | "class_variable" | "global_variable" | "self" | "super"
            | "forward_argument" | "hash_key_symbol" | "string_content" | "escape_sequence" | "heredoc_content"
            | "heredoc_end" | "heredoc_beginning" | "integer" | "float" | "character",
        String = "string" | "heredoc_body" | "bare_string",
        Symbol = "simple_symbol" | "delimited_symbol" | "bare_symbol",
        Pair = "pair",
        Parameters = "method_parameters" | "block_parameters" | "lambda_parameters",
    }
}

hintlens_tree::grammar_ids! {
    struct Grammar as grammar(tree_sitter_ruby::LANGUAGE, "tree-sitter-ruby") {
        kinds {
            identifier = "identifier", constant = "constant", comment = "comment", string_content = "string_content",
            call = "call", scope_resolution = "scope_resolution", simple_symbol = "simple_symbol",
            delimited_symbol = "delimited_symbol", hash_key_symbol = "hash_key_symbol", string = "string",
            pair = "pair", block_argument = "block_argument", argument_list = "argument_list",
            setter = "setter", self_ = "self", interpolation = "interpolation", body_statement = "body_statement",
            keyword_parameter = "keyword_parameter", exception_variable = "exception_variable",
            rest_assignment = "rest_assignment",
            instance_variable = "instance_variable",
            class_variable = "class_variable"
        }
        fields {
            f_name = "name", f_body = "body", f_parameters = "parameters", f_superclass = "superclass",
            f_receiver = "receiver", f_method = "method", f_arguments = "arguments", f_block = "block",
            f_left = "left", f_right = "right", f_value = "value", f_key = "key", f_scope = "scope",
            f_object = "object", f_alias = "alias", f_pattern = "pattern", f_variable = "variable",
            f_exceptions = "exceptions"
        }
    }
}

/// Calls whose first symbol or string argument names a method (`send(:x)`, `receive(:x)`).
const NAMING_CALLS: &[&str] = &[
    "send",
    "__send__",
    "public_send",
    "respond_to?",
    "respond_to",
    "method",
    "public_method",
    "instance_method",
    "public_instance_method",
    "method_defined?",
    "public_method_defined?",
    "instance_methods",
    "receive",
    "have_received",
    "try",
    "try!",
    "delegate_method",
    "remove_method",
    "undef_method",
];

/// Calls whose keyword keys name methods (`instance_double(T, x: 1)`, `receive_messages(x: 1)`).
const STUB_CALLS: &[&str] = &[
    "instance_double",
    "class_double",
    "object_double",
    "double",
    "spy",
    "instance_spy",
    "receive_messages",
    "have_attributes",
    "stub",
    "stubs",
];

/// Calls that define a test-local method of an example group (`let(:cart) { … }`).
const LET_CALLS: &[&str] = &["let", "let!", "subject", "subject!", "let_it_be", "given", "given!"];

/// Calls whose arguments are RSpec's example group descriptions (`describe "#total"`).
const GROUP_CALLS: &[&str] = &["describe", "context", "feature", "shared_examples", "shared_context"];

/// The test frameworks' calls that open an example group, an example or a hook around them
/// with a block (RSpec's `describe`, `context`, `it`, `before`; Shoulda's `context`, `should`,
/// `setup`; minitest/spec's and ActiveSupport's `it`, `test`): the framework's own methods,
/// never a definition of the repository ([`Binding::External`]) — a code method `context` is
/// no example group's.
const FRAMEWORK_BLOCK_CALLS: &[&str] = &[
    "after",
    "around",
    "before",
    "context",
    "describe",
    "example",
    "feature",
    "it",
    "scenario",
    "setup",
    "shared_context",
    "shared_examples",
    "should",
    "should_not",
    "specify",
    "teardown",
    "test",
];

/// Calls whose string arguments are exception messages, beside [`ERROR_MESSAGE_CALLEES`].
const RUBY_MESSAGE_CALLEES: &[&str] = &["raise", "fail", "raise_error", "assert_raises", "raise_exception"];

struct Walk<'t> {
    g: &'static Grammar,
    kinds: &'static KindTable<K>,
    b: Builder<'t>,
    /// The class or module whose members are being read.
    owner: Option<DefId>,
    /// Its qualified name and a dot (`Shop.Cart.`), empty at the top level.
    prefix: String,
    /// Whether a bare `private` was read in the current class body.
    private: bool,
    /// How many enclosing argument lists make strings error messages.
    error_args: u32,
}

impl<'t> TreeWalk<'t> for Walk<'t> {
    const MAX_DEPTH: u32 = 128;

    fn visit_kind(&mut self, node: Node<'t>) {
        let g = self.g;
        match self.kinds.of(node) {
            K::Comment | K::Variable => {}
            K::Constant => self.b.use_name(node, UseKind::Name, None),
            K::ScopeResolution => self.constant_path(node, UseKind::Name),
            K::Class | K::Module => self.class_like(node, None),
            K::SingletonClass => {
                self.visit_field(node, g.f_value);
                let private = std::mem::replace(&mut self.private, false);
                self.in_scope(ScopeKind::SealedBlock, |s| s.with(field(node, g.f_body), Self::statements));
                self.private = private;
            }
            K::Method | K::SingletonMethod => self.method(node, None, None),
            K::Call => self.call(node),
            K::Assignment => self.assignment(node, None),
            K::OperatorAssignment => {
                self.visit_field(node, g.f_right);
                if let Some(left) = field(node, g.f_left) {
                    self.target(left, true);
                }
            }
            K::Block | K::Lambda => self.in_scope(ScopeKind::OpenBlock, |s| {
                s.with(field(node, g.f_parameters), Self::parameters);
                s.visit_field(node, g.f_body);
            }),
            K::For => {
                self.visit_field(node, g.f_value);
                if let Some(pattern) = field(node, g.f_pattern) {
                    self.target(pattern, false);
                }
                self.visit_field(node, g.f_body);
            }
            K::Rescue => {
                self.visit_field(node, g.f_exceptions);
                if let Some(variable) = field(node, g.f_variable) {
                    for id in named_children(variable).filter(|c| c.kind_id() == g.identifier) {
                        self.b.bind(id, Binding::Local);
                    }
                }
                self.visit_field(node, g.f_body);
            }
            K::Alias => {
                if let Some(name) = field(node, g.f_name) {
                    let spelled = self.method_name(name);
                    self.define_method(spelled, name, node, DefKind::Method, false);
                }
                if let Some(old) = field(node, g.f_alias) {
                    let spelled = self.method_name(old);
                    self.b.use_spelled(spelled, span_of(old), UseKind::Call, None, None);
                }
            }
            K::String => self.string(node),
            // A symbol spelling a constant names it (`%i[Deprecator Dog]` of classes a test
            // skips, `const_get(:Deprecator)`): a class or module is never a hash's key.
            K::Symbol => {
                if let Some(spelled) = self.symbol(node).filter(|s| is_constant_name(s)) {
                    let span = symbol_span(&self.b, node);
                    self.b.use_spelled(spelled, span, UseKind::Name, None, None);
                }
            }
            K::Parameters | K::Destructure => {}
            K::Pair => {
                // `:key => v` and `key: v` in a hash: the key names nothing.
                let key = field(node, g.f_key);
                if key.is_some_and(|k| !matches!(self.kinds.of(k), K::Symbol | K::Variable | K::String)) {
                    self.with(key, Self::visit);
                }
                self.visit_field(node, g.f_value);
            }
            _ => self.visit_children(node),
        }
    }

    fn builder(&mut self) -> &mut Builder<'t> {
        &mut self.b
    }
}

impl<'t> Walk<'t> {
    // ----- statements and definitions -----

    /// A body of statements: each definition gets the `#` comments just above it as its doc,
    /// and a bare `private` makes the methods after it private.
    fn statements(&mut self, node: Node<'t>) {
        let g = self.g;
        for (child, doc) in self.b.documented(named_children(node), g.comment) {
            if child.kind_id() == g.identifier {
                match self.b.bytes(child) {
                    b"private" | b"protected" => {
                        self.private = true;
                        continue;
                    }
                    b"public" => {
                        self.private = false;
                        continue;
                    }
                    _ => {}
                }
            }
            match self.kinds.of(child) {
                K::Class | K::Module => self.class_like(child, doc),
                K::Method | K::SingletonMethod => self.method(child, doc, None),
                K::Assignment => self.assignment(child, doc),
                _ => self.visit(child),
            }
        }
    }

    /// `class Shop::Cart < Base … end` or `module Shop … end`: the constant's last name,
    /// qualified by the path written and the modules around it.
    fn class_like(&mut self, node: Node<'t>, doc: Option<String>) {
        let g = self.g;
        let kind = if self.kinds.of(node) == K::Module { DefKind::Module } else { DefKind::Class };
        let Some(name) = field(node, g.f_name) else {
            self.visit_children(node);
            return;
        };
        let superclass = field(node, g.f_superclass);
        let Some((path, last)) = self.constant_path_text(name) else {
            self.visit_children(node);
            return;
        };
        // The scopes of `class A::B` are what the path names: its head is a use of `A`.
        if self.kinds.of(name) == K::ScopeResolution {
            self.with(field(name, g.f_scope), Self::visit);
        }
        let end = superclass.unwrap_or(name).end_byte();
        let signature = self.b.flat_text(node.start_byte(), end);
        let local = format!("{}{path}", self.prefix);
        let id = self.b.define(last, local.clone(), kind, node, signature, self.owner, doc);
        if let Some(superclass) = superclass {
            for child in named_children(superclass) {
                match self.kinds.of(child) {
                    K::Constant => self.b.use_name(child, UseKind::Base, None),
                    K::ScopeResolution => self.constant_path(child, UseKind::Base),
                    _ => {
                        self.record_members(child, id);
                        self.visit(child);
                    }
                }
            }
        }
        self.body_of(id, local, field(node, g.f_body));
    }

    /// Reads `body` as the members of the class or module `id`, named `local`.
    fn body_of(&mut self, id: DefId, local: String, body: Option<Node<'t>>) {
        let owner = self.owner.replace(id);
        let prefix = std::mem::replace(&mut self.prefix, format!("{local}."));
        let private = std::mem::replace(&mut self.private, false);
        self.in_scope(ScopeKind::SealedBlock, |s| s.with(body, Self::statements));
        self.owner = owner;
        self.prefix = prefix;
        self.private = private;
    }

    /// `def name(…)`, `def self.name(…)`, `def name = expr`.
    fn method(&mut self, node: Node<'t>, doc: Option<String>, private: Option<bool>) {
        let g = self.g;
        let Some(name) = field(node, g.f_name) else {
            self.visit_children(node);
            return;
        };
        let spelled = self.method_name(name);
        let parameters = field(node, g.f_parameters);
        let end = parameters.unwrap_or(name).end_byte();
        let mut signature = self.b.flat_text(node.start_byte(), end);
        if private.unwrap_or(self.private) && self.kinds.of(node) == K::Method {
            signature.insert_str(0, "private ");
        }
        let kind = match (self.owner, spelled.as_str()) {
            (Some(_), "initialize") => DefKind::Constructor,
            (Some(_), _) => DefKind::Method,
            (None, _) => DefKind::Function,
        };
        let local = format!("{}{spelled}", self.prefix);
        let id = self.b.define_spelled(spelled, name, local, kind, span_of(node), signature, self.owner, doc);
        self.b.bind(name, Binding::Definition);
        self.in_scope(ScopeKind::SealedBlock, |s| {
            if let Some(parameters) = parameters {
                s.method_parameters(parameters, id);
            }
            s.visit_field(node, g.f_body);
        });
    }

    /// A method's name as callers spell it: `total`, `total=` (a setter), `[]`.
    fn method_name(&self, name: Node<'t>) -> String {
        let text = self.b.text(name);
        text.strip_prefix(':').unwrap_or(&text).to_owned()
    }

    /// A method's parameters: each bound in its body, and a keyword parameter (`retries: 3`)
    /// a definition, for `T.new(retries: 1)` and `m(retries: 1)`.
    fn method_parameters(&mut self, node: Node<'t>, callable: DefId) {
        let g = self.g;
        for parameter in named_children(node) {
            if parameter.kind_id() == g.keyword_parameter
                && let Some(name) = field(parameter, g.f_name)
            {
                let signature = self.b.flat_text(parameter.start_byte(), parameter.end_byte());
                let local = format!("{}.{}", self.b.index.definition(callable).local_name, self.b.str(name));
                self.b.define(name, local, DefKind::Parameter, parameter, signature, Some(callable), None);
            }
        }
        self.parameters(node);
    }

    /// Binds the names of a parameter list; default values are read.
    fn parameters(&mut self, node: Node<'t>) {
        let g = self.g;
        for parameter in named_children(node) {
            if parameter.kind_id() == g.identifier {
                self.b.bind(parameter, Binding::Local);
                continue;
            }
            self.visit_field(parameter, g.f_value);
            match field(parameter, g.f_name) {
                Some(name) => self.b.bind(name, Binding::Local),
                // `|(a, b)|`, `|a; b|`: every name inside.
                None => hintlens_tree::preorder(parameter, |n| {
                    if n.kind_id() == g.identifier {
                        self.b.bind(n, Binding::Local);
                    }
                    true
                }),
            }
        }
    }

    /// A method the walk spells itself (`attr_reader :x`, `define_method(:x)`, `alias`),
    /// found at `name`, declared by `whole`, bound for bare calls in the current scope.
    fn define_method(&mut self, spelled: String, name: Node<'t>, whole: Node<'t>, kind: DefKind, collected: bool) {
        if !is_method_name(&spelled) {
            return;
        }
        let local = format!("{}{spelled}", self.prefix);
        let signature = self.b.flat_text(whole.start_byte(), whole.end_byte().min(line_end(self.b.src, whole)));
        let id = self.b.define_spelled(spelled.clone(), name, local, kind, span_of(whole), signature, self.owner, None);
        self.b.index.definitions[id as usize].collected = collected;
        self.b.scopes.bind(spelled.as_bytes(), Binding::Definition);
    }

    /// `NAME = …` in a class, module or file: a constant — a class when it is
    /// `Struct.new(:a, :b)`, `Data.define(:a)` or `Class.new(Base)`. Elsewhere assignments bind
    /// locals, and `obj.name = v` calls `name=`.
    fn assignment(&mut self, node: Node<'t>, doc: Option<String>) {
        let g = self.g;
        let (left, right) = (field(node, g.f_left), field(node, g.f_right));
        let constant = left.filter(|l| self.kinds.of(*l) == K::Constant);
        let Some(name) = constant else {
            self.with(right, Self::visit);
            if let Some(left) = left {
                self.target(left, false);
            }
            return;
        };
        let local = format!("{}{}", self.prefix, self.b.str(name));
        let class = right.filter(|r| self.class_constructor(*r).is_some());
        let kind = if class.is_some() { DefKind::Class } else { DefKind::Constant };
        let end = line_end(self.b.src, node);
        let signature = self.b.flat_text(node.start_byte(), end.min(node.end_byte()));
        let id = self.b.define(name, local.clone(), kind, node, signature, self.owner, doc);
        match class {
            Some(call) => {
                self.record_members(call, id);
                if let Some(receiver) = field(call, g.f_receiver) {
                    self.visit(receiver);
                }
                // `Struct.new(…) do … end`: the block is the class's body.
                let block = field(call, g.f_block);
                if let Some(arguments) = field(call, g.f_arguments) {
                    self.visit_arguments(arguments, false, None, &[]);
                }
                self.body_of(id, local, block.and_then(|b| field(b, g.f_body)));
            }
            None => self.with(right, Self::visit),
        }
    }

    /// Whether `call` makes a class: `Struct.new(…)`, `Data.define(…)`, `Class.new(…)`;
    /// `Some(true)` when its symbol arguments are members.
    fn class_constructor(&self, call: Node<'t>) -> Option<bool> {
        let g = self.g;
        if call.kind_id() != g.call {
            return None;
        }
        let receiver = self.b.bytes(field(call, g.f_receiver)?);
        let method = self.b.bytes(field(call, g.f_method)?);
        match (receiver, method) {
            (b"Struct" | b"::Struct", b"new") | (b"Data" | b"::Data", b"define") => Some(true),
            (b"Class" | b"::Class", b"new") => Some(false),
            _ => None,
        }
    }

    /// The members a `Struct.new(:a, :b)` or `Data.define(:a)` gives the class `id`: readers,
    /// writers for a struct, each named by keyword by `T.new(a: …)`.
    fn record_members(&mut self, call: Node<'t>, id: DefId) {
        let g = self.g;
        if self.class_constructor(call) != Some(true) {
            return;
        }
        let data = field(call, g.f_method).is_some_and(|m| self.b.bytes(m) == b"define");
        let Some(arguments) = field(call, g.f_arguments) else { return };
        let local = self.b.index.definition(id).local_name.clone();
        for argument in named_children(arguments) {
            let Some(member) = self.symbol(argument) else { continue };
            let names = if data { vec![member.clone()] } else { vec![member.clone(), format!("{member}=")] };
            for spelled in names {
                let signature = self.b.text(argument);
                let at = self.b.define_spelled(
                    spelled.clone(),
                    argument,
                    format!("{local}.{spelled}"),
                    DefKind::Method,
                    span_of(argument),
                    signature,
                    Some(id),
                    None,
                );
                // The reader is what `T.new(a: …)` names.
                self.b.index.definitions[at as usize].constructor_keyword = !spelled.ends_with('=');
            }
        }
    }

    /// What an assignment, `for` or operator-assignment writes: a local it binds, or the
    /// setter it calls (`obj.name = v` calls `name=`; `obj.name ||= v` reads `name` too).
    fn target(&mut self, node: Node<'t>, reads: bool) {
        let g = self.g;
        match self.kinds.of(node) {
            _ if node.kind_id() == g.identifier => {
                if reads {
                    self.b.use_name(node, UseKind::Name, None);
                }
                self.b.bind(node, Binding::Local);
            }
            K::Call => {
                let receiver = field(node, g.f_receiver);
                self.with(receiver, Self::visit);
                self.with(field(node, g.f_arguments), Self::visit);
                if let Some(method) = field(node, g.f_method) {
                    let (qualifier, binding) = self.receiver(receiver);
                    if reads {
                        self.b.use_bound(method, UseKind::Call, qualifier.clone(), binding);
                    }
                    let spelled = format!("{}=", self.b.str(method));
                    self.b.use_spelled(spelled, span_of(method), UseKind::Call, qualifier, binding);
                }
            }
            K::Destructure => {
                for child in named_children(node) {
                    self.target(child, reads);
                }
            }
            K::Constant | K::ScopeResolution => self.visit(node),
            _ if node.kind_id() == g.rest_assignment => {
                for child in named_children(node) {
                    self.target(child, reads);
                }
            }
            _ => self.visit(node),
        }
    }

    // ----- uses -----

    /// `A::B::C`: a use of `C` qualified by `A.B` (and of `A`, and of `B` qualified by `A`);
    /// `::C` is the top level's `C`.
    fn constant_path(&mut self, node: Node<'t>, kind: UseKind) {
        let g = self.g;
        let Some(name) = field(node, g.f_name) else { return };
        match field(node, g.f_scope) {
            Some(scope) => {
                let qualifier = self.b.dotted(scope);
                self.visit(scope);
                self.b.use_name(name, kind, qualifier);
            }
            None => self.b.use_bound(name, kind, None, Some(Binding::Free)),
        }
    }

    /// The dotted path of a constant (`Shop.Cart` for `Shop::Cart`, `Cart` for `::Cart`) and
    /// its last name's node.
    fn constant_path_text(&self, node: Node<'t>) -> Option<(String, Node<'t>)> {
        let g = self.g;
        match self.kinds.of(node) {
            K::Constant => Some((self.b.text(node), node)),
            K::ScopeResolution => {
                let name = field(node, g.f_name)?;
                match field(node, g.f_scope) {
                    Some(scope) => Some((format!("{}.{}", self.b.dotted(scope)?, self.b.str(name)), name)),
                    None => Some((self.b.text(name), name)),
                }
            }
            _ => None,
        }
    }

    /// How a member reached through `receiver` is qualified and bound: by the receiver's chain
    /// of names, looked up where it stands; through `self` or an expression, as a member of a
    /// value whose type is unknown.
    fn receiver(&self, receiver: Option<Node<'t>>) -> (Option<String>, Option<Binding>) {
        match receiver {
            None => (None, None),
            Some(r) => match self.b.dotted(r) {
                Some(q) => (Some(q), None),
                None => (None, Some(Binding::Receiver)),
            },
        }
    }

    fn call(&mut self, node: Node<'t>) {
        let g = self.g;
        let receiver = field(node, g.f_receiver);
        let method = field(node, g.f_method);
        let arguments = field(node, g.f_arguments);
        let block = field(node, g.f_block);
        let name = method.map(|m| self.b.text(m)).unwrap_or_default();
        if receiver.is_none() && self.directive(node, &name, arguments, block) {
            return;
        }
        if GROUP_CALLS.contains(&name.as_str())
            && let Some(arguments) = arguments
        {
            self.described_methods(arguments);
        }
        self.with(receiver, Self::visit);
        let (qualifier, binding) = self.receiver(receiver);
        let framework = receiver.is_none() && block.is_some() && FRAMEWORK_BLOCK_CALLS.contains(&name.as_str());
        let binding = if framework { Some(Binding::External) } else { binding };
        if let Some(method) = method
            && (method.kind_id() == g.identifier || method.kind_id() == g.constant)
        {
            self.b.use_bound(method, UseKind::Call, qualifier.clone(), binding);
        }
        // Keyword arguments name the parameters of the method called, or of `T#initialize` for
        // `T.new(…)`.
        let callee = match (&qualifier, name.as_str()) {
            (Some(q), "new") => Some(q.clone()),
            (Some(q), _) => Some(format!("{q}.{name}")),
            (None, _) if receiver.is_none() => Some(name.clone()),
            (None, _) => None,
        };
        let error = RUBY_MESSAGE_CALLEES.contains(&name.as_str()) || ERROR_MESSAGE_CALLEES.contains(&name.as_str());
        self.error_args += u32::from(error);
        if let Some(arguments) = arguments {
            let naming = if NAMING_CALLS.contains(&name.as_str()) { 1 } else { 0 };
            let stub = STUB_CALLS.contains(&name.as_str());
            if stub {
                self.stub_keys(arguments);
            }
            self.visit_arguments(arguments, !stub, callee.as_deref(), &[naming]);
            if naming == 1 {
                self.named_method(arguments);
            }
        }
        self.error_args -= u32::from(error);
        self.with(block, Self::visit);
    }

    /// A receiverless call that declares rather than calls: `require`, `attr_reader`,
    /// `define_method`, `alias_method`, `let`, `include`, `private def`, an RSpec group. `true`
    /// when it was read here.
    fn directive(&mut self, node: Node<'t>, name: &str, arguments: Option<Node<'t>>, block: Option<Node<'t>>) -> bool {
        match name {
            "require" | "require_relative" | "load" | "autoload" => {
                if let Some(arguments) = arguments {
                    self.required_file(arguments, name == "require_relative");
                    self.visit_children(arguments);
                }
            }
            "attr_reader" | "attr_writer" | "attr_accessor" | "attr" | "cattr_accessor" | "mattr_accessor"
            | "cattr_reader" | "mattr_reader" => {
                let Some(arguments) = arguments else { return false };
                let reader = !name.ends_with("_writer");
                let writer = name.ends_with("_writer") || name.ends_with("_accessor");
                for argument in named_children(arguments) {
                    let Some(attribute) = self.symbol(argument) else { continue };
                    if reader {
                        self.define_method(attribute.clone(), argument, node, DefKind::Method, false);
                    }
                    if writer {
                        self.define_method(format!("{attribute}="), argument, node, DefKind::Method, false);
                    }
                }
            }
            "define_method" | "define_singleton_method" => {
                let Some(arguments) = arguments else { return false };
                if let Some(first) = named_children(arguments).next()
                    && let Some(spelled) = self.symbol(first)
                {
                    let kind = if self.owner.is_some() { DefKind::Method } else { DefKind::Function };
                    self.define_method(spelled, first, node, kind, false);
                }
                self.visit_arguments(arguments, false, None, &[0]);
                self.with(block, Self::visit);
            }
            "alias_method" => {
                let Some(arguments) = arguments else { return false };
                let mut symbols = named_children(arguments);
                if let (Some(new), Some(old)) = (symbols.next(), symbols.next()) {
                    if let Some(spelled) = self.symbol(new) {
                        self.define_method(spelled, new, node, DefKind::Method, false);
                    }
                    if let Some(spelled) = self.symbol(old) {
                        let span = symbol_span(&self.b, old);
                        self.b.use_spelled(spelled, span, UseKind::Call, None, None);
                    }
                }
            }
            _ if LET_CALLS.contains(&name) => {
                let first = arguments.and_then(|a| named_children(a).next());
                if let Some(first) = first
                    && let Some(spelled) = self.symbol(first)
                {
                    self.define_method(spelled, first, node, DefKind::Method, true);
                }
                self.with(block, Self::visit);
            }
            "include" | "extend" | "prepend" => {
                let Some(arguments) = arguments else { return false };
                for argument in named_children(arguments) {
                    match self.kinds.of(argument) {
                        K::Constant => self.b.use_name(argument, UseKind::Base, None),
                        K::ScopeResolution => self.constant_path(argument, UseKind::Base),
                        _ => self.visit(argument),
                    }
                }
            }
            "private"
            | "protected"
            | "public"
            | "private_class_method"
            | "module_function"
            | "public_class_method"
            | "private_constant" => {
                let Some(arguments) = arguments else { return false };
                for argument in named_children(arguments) {
                    match self.kinds.of(argument) {
                        // `private def helper`: a private method.
                        K::Method | K::SingletonMethod => self.method(argument, None, Some(name == "private")),
                        // `private :helper, :other` makes methods its class defined before private
                        // (`attr_reader :x` then `private :x` too).
                        K::Symbol if name == "private" => {
                            let Some(method) = self.symbol(argument) else { continue };
                            let owner = self.owner;
                            for d in self.b.index.definitions.iter_mut().filter(|d| {
                                d.parent == owner
                                    && d.name == method
                                    && d.kind == DefKind::Method
                                    && !d.signature.starts_with("private ")
                            }) {
                                d.signature.insert_str(0, "private ");
                            }
                        }
                        K::Symbol => {}
                        _ => self.visit(argument),
                    }
                }
            }
            _ => return false,
        }
        true
    }

    /// The arguments of a call: keyword arguments (`retries: 1`) are uses of the parameter of
    /// `callee` (when `keywords`: a stub's keys are methods, read apart), a `&:name` block argument a call of `name`; the arguments at positions `skip`
    /// that are symbols or strings naming methods are read by the caller.
    fn visit_arguments(&mut self, arguments: Node<'t>, keywords: bool, callee: Option<&str>, skip: &[usize]) {
        let g = self.g;
        let mut position = 0;
        for argument in named_children(arguments) {
            if argument.kind_id() == g.pair {
                match field(argument, g.f_key) {
                    // A callee that is no chain of names (`make().run(k: 1)`): by name.
                    Some(key) if key.kind_id() == g.hash_key_symbol && keywords => {
                        self.b.use_name(key, UseKind::KeywordArgument, callee.map(str::to_owned));
                    }
                    Some(key) if key.kind_id() == g.hash_key_symbol => {}
                    Some(key) => self.visit(key),
                    None => {}
                }
                self.visit_field(argument, g.f_value);
                continue;
            }
            position += 1;
            if argument.kind_id() == g.block_argument {
                match named_children(argument).next() {
                    Some(symbol) if symbol.kind_id() == g.simple_symbol => {
                        if let Some(spelled) = self.symbol(symbol) {
                            let span = symbol_span(&self.b, symbol);
                            self.b.use_spelled(spelled, span, UseKind::Call, None, Some(Binding::Receiver));
                        }
                    }
                    Some(other) => self.visit(other),
                    None => {}
                }
                continue;
            }
            if skip.contains(&position) && self.symbol(argument).is_some() {
                if self.kinds.of(argument) == K::String {
                    self.string(argument);
                }
                continue;
            }
            self.visit(argument);
        }
    }

    /// `send(:name)`, `receive("name")`: the first argument names a method of a value whose
    /// type is unknown.
    fn named_method(&mut self, arguments: Node<'t>) {
        let Some(first) = named_children(arguments).next() else { return };
        if let Some(spelled) = self.symbol(first)
            && is_method_name(&spelled)
        {
            let span = symbol_span(&self.b, first);
            self.b.use_spelled(spelled, span, UseKind::Call, None, Some(Binding::Receiver));
        }
    }

    /// `instance_double(Cart, total: 1)`, `receive_messages(total: 1)`: each key is a method.
    fn stub_keys(&mut self, arguments: Node<'t>) {
        let g = self.g;
        let mut pairs = Vec::new();
        hintlens_tree::preorder(arguments, |n| {
            if n.kind_id() == g.pair {
                pairs.extend(field(n, g.f_key));
                return true;
            }
            n.kind_id() == g.argument_list || n.kind_id() == arguments.kind_id() || self.kinds.of(n) == K::Other
        });
        for key in pairs {
            let spelled = if key.kind_id() == g.hash_key_symbol { Some(self.b.text(key)) } else { self.symbol(key) };
            if let Some(spelled) = spelled.filter(|s| is_method_name(s)) {
                let span = if key.kind_id() == g.hash_key_symbol { span_of(key) } else { symbol_span(&self.b, key) };
                self.b.use_spelled(spelled, span, UseKind::Call, None, Some(Binding::Receiver));
            }
        }
    }

    /// `describe "#total"` and `describe ".build"`: RSpec's convention for the method an
    /// example group is about.
    fn described_methods(&mut self, arguments: Node<'t>) {
        let g = self.g;
        for argument in named_children(arguments).filter(|a| a.kind_id() == g.string) {
            let Some(content) = named_children(argument).next().filter(|c| c.kind_id() == g.string_content) else {
                continue;
            };
            let text = self.b.bytes(content);
            let Some((&mark, rest)) = text.split_first() else { continue };
            let name = String::from_utf8_lossy(rest);
            if (mark == b'#' || mark == b'.') && argument.named_child_count() == 1 && is_method_name(&name) {
                let at = content.start_byte();
                let span = self.b.span_within(content, at + 1, at + text.len());
                self.b.use_spelled(name.into_owned(), span, UseKind::Call, None, Some(Binding::Receiver));
            }
        }
    }

    /// `require "shop/cart"` / `require_relative "../lib/shop/cart"`: a use of the file it
    /// loads, qualified by its directory (relative ones as `./dir`, which
    /// [`hintlens_syntax::Frontend::import_target`] resolves against the requiring file).
    fn required_file(&mut self, arguments: Node<'t>, relative: bool) {
        let g = self.g;
        // The first string: `autoload :Cart, "shop/cart"` names the constant first.
        let Some(literal) = named_children(arguments).find(|a| a.kind_id() == g.string) else { return };
        if literal.named_child_count() != 1 {
            return;
        }
        let Some(content) = named_children(literal).next().filter(|c| c.kind_id() == g.string_content) else {
            return;
        };
        let text = self.b.bytes(content);
        let text = text.strip_suffix(b".rb").unwrap_or(text);
        let start = text.iter().rposition(|&b| b == b'/').map_or(0, |i| i + 1);
        let stem = String::from_utf8_lossy(&text[start..]).into_owned();
        if stem.is_empty() {
            return;
        }
        let dir = String::from_utf8_lossy(&text[..start.saturating_sub(1)]).into_owned();
        let qualifier = match (relative, dir.is_empty()) {
            (true, _) => Some(format!("./{dir}")),
            (false, true) => None,
            (false, false) => Some(dir),
        };
        let at = content.start_byte();
        let span = self.b.span_within(content, at + start, at + start + stem.len());
        self.b.use_spelled(stem, span, UseKind::ImportModule, qualifier, Some(Binding::Import));
    }

    /// The name a symbol (`:total`, `:"total"`) or a plain string (`"total"`) spells.
    fn symbol(&self, node: Node<'t>) -> Option<String> {
        let g = self.g;
        match self.kinds.of(node) {
            K::Symbol if node.kind_id() == g.simple_symbol => {
                Some(self.b.text(node).trim_start_matches(':').to_owned())
            }
            K::Symbol | K::String => {
                let mut children = named_children(node);
                let content = children.next().filter(|c| c.kind_id() == g.string_content)?;
                children.next().is_none().then(|| self.b.text(content))
            }
            _ => None,
        }
    }

    /// A string literal: its value (interpolations as written), and the code of its
    /// interpolations read.
    fn string(&mut self, node: Node<'t>) {
        let g = self.g;
        let value = hintlens_tree::unquote(self.b.bytes(node), &['"', '\'']);
        self.b.string(value, node, self.error_args > 0);
        for child in named_children(node).filter(|c| c.kind_id() == g.interpolation) {
            self.visit_children(child);
        }
    }
}

/// Whether `name` is a constant's name as a symbol spells it: `Deprecator`, `HTML`.
fn is_constant_name(name: &str) -> bool {
    name.starts_with(|c: char| c.is_ascii_uppercase()) && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
}

/// Whether `name` can be a method's name as symbols spell it: `total`, `valid?`, `save!`,
/// `total=`.
fn is_method_name(name: &str) -> bool {
    let base = name.strip_suffix(['?', '!', '=']).unwrap_or(name);
    hintlens_syntax::is_identifier(base)
}

/// The span of the name a symbol or string spells, without its `:` or quotes.
fn symbol_span(b: &Builder<'_>, node: Node<'_>) -> hintlens_syntax::Span {
    let text = b.bytes(node);
    let lead = text.iter().take_while(|&&c| c == b':' || c == b'"' || c == b'\'').count();
    let trail = text.iter().rev().take_while(|&&c| c == b'"' || c == b'\'').count();
    let start = node.start_byte() + lead;
    let end = node.end_byte().saturating_sub(trail).max(start);
    b.span_within(node, start, end)
}

/// Where the line of `node`'s start ends (or `node` itself, if sooner).
fn line_end(src: &[u8], node: Node<'_>) -> usize {
    let start = node.start_byte();
    let rest = src.get(start..node.end_byte()).unwrap_or_default();
    start + rest.iter().position(|&b| b == b'\n').unwrap_or(rest.len())
}
