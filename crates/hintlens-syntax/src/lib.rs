//! The vocabulary every layer of hintlens shares: what one source file defines and uses.
//!
//! This crate knows nothing about git, salsa or tree-sitter. A language frontend turns one
//! file's bytes into a [`FileIndex`]; everything above works on these plain values.
//!
//! Invariants:
//! - Extraction is a pure function of the file's bytes ([`Frontend::extract`]). Anything that
//!   depends on the file's *path* (its module name, its `file` definition) is added by the caller
//!   through [`Frontend::module_name`], so one blob's index can be shared by every path and every
//!   commit that holds it.
//! - Extraction never fails: a syntax error yields whatever could be read plus
//!   [`FileIndex::errors`].
//! - Positions are zero-based lines and byte columns, as tree-sitter reports them. Renderings
//!   convert to one-based lines; the language server converts to UTF-16 columns.

pub mod lexical;
pub mod reuse;
pub mod scope;
pub mod scoping;

use serde::{Deserialize, Serialize};
use std::fmt;

/// A zero-based position: line, and byte offset within that line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Serialize, Deserialize)]
pub struct Position {
    pub line: u32,
    pub column: u32,
}

/// A set of zero-based line numbers, sorted: the lines whose uses an outline keeps
/// ([`Frontend::outline_reusing`]), a changed file's added lines. Cheap to clone, hash and
/// compare with its clones, so that it can key a query asked for each definition of a file
/// (a new file's lines are all of them).
#[derive(Debug, Clone)]
pub struct Lines {
    lines: std::sync::Arc<[u32]>,
    hash: u64,
}

impl PartialEq for Lines {
    fn eq(&self, other: &Lines) -> bool {
        std::sync::Arc::ptr_eq(&self.lines, &other.lines) || (self.hash == other.hash && self.lines == other.lines)
    }
}

impl Eq for Lines {}

impl Default for Lines {
    fn default() -> Lines {
        Lines::new([])
    }
}

impl std::hash::Hash for Lines {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        state.write_u64(self.hash);
    }
}

impl Lines {
    /// No line: an outline keeping none holds only what every outline holds.
    pub fn none() -> Lines {
        Lines::new([])
    }

    pub fn new(lines: impl IntoIterator<Item = u32>) -> Lines {
        let mut lines: Vec<u32> = lines.into_iter().collect();
        lines.sort_unstable();
        lines.dedup();
        let bytes: Vec<u8> = lines.iter().flat_map(|l| l.to_le_bytes()).collect();
        Lines { hash: name_hash(&bytes), lines: lines.into() }
    }

    pub fn contains(&self, line: u32) -> bool {
        self.lines.binary_search(&line).is_ok()
    }

    /// Whether a line from `first` to `last` (both included) is in the set.
    pub fn any_within(&self, first: u32, last: u32) -> bool {
        let at = self.lines.partition_point(|&l| l < first);
        self.lines.get(at).is_some_and(|&l| l <= last)
    }

    pub fn is_empty(&self) -> bool {
        self.lines.is_empty()
    }

    pub fn iter(&self) -> impl Iterator<Item = u32> + '_ {
        self.lines.iter().copied()
    }
}

/// A half-open byte range with its start and end positions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub struct Span {
    pub start_byte: u32,
    pub end_byte: u32,
    pub start: Position,
    pub end: Position,
}

impl Span {
    pub fn contains(&self, pos: Position) -> bool {
        self.start <= pos && pos < self.end
    }
}

/// What kind of program entity a definition declares.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DefKind {
    /// A module or source file (added by the caller from the path, never by a frontend).
    File,
    Class,
    Interface,
    Enum,
    Record,
    /// A Java `@interface`.
    Annotation,
    Function,
    Method,
    Constructor,
    /// A class member variable: Python class attribute, dataclass field, `self.x = …`; Java field.
    Field,
    /// A module-level variable.
    Variable,
    /// A module-level constant (ALL_CAPS in Python) or a `static final` Java field.
    Constant,
    EnumConstant,
    Parameter,
    /// A Go or Rust `struct`.
    Struct,
    /// A Rust `trait`.
    Trait,
    /// A Rust or C `union`.
    Union,
    /// An alias that names another type: Go `type A = B`, TypeScript `type A = …`, Rust `type A = B;`.
    TypeAlias,
    /// A Go defined type that is neither struct nor interface: `type Celsius float64`.
    Type,
    /// A Rust `macro_rules!` macro.
    Macro,
    /// A module declared in code rather than by a file: Rust `mod x { … }`.
    Module,
    /// A TypeScript `namespace`.
    Namespace,
    /// A Go package new in the reference (a directory of `.go` files absent at the base).
    Package,
    /// A variant of a Rust enum.
    Variant,
    /// A property of a TypeScript interface or object type, or a class property.
    Property,
    /// A Rust `static` item.
    Static,
}

impl DefKind {
    pub fn as_str(self) -> &'static str {
        match self {
            DefKind::File => "file",
            DefKind::Class => "class",
            DefKind::Interface => "interface",
            DefKind::Enum => "enum",
            DefKind::Record => "record",
            DefKind::Annotation => "annotation",
            DefKind::Function => "function",
            DefKind::Method => "method",
            DefKind::Constructor => "constructor",
            DefKind::Field => "field",
            DefKind::Variable => "variable",
            DefKind::Constant => "constant",
            DefKind::EnumConstant => "enum_constant",
            DefKind::Parameter => "parameter",
            DefKind::Struct => "struct",
            DefKind::Trait => "trait",
            DefKind::Union => "union",
            DefKind::TypeAlias => "type_alias",
            DefKind::Type => "type",
            DefKind::Macro => "macro",
            DefKind::Module => "module",
            DefKind::Namespace => "namespace",
            DefKind::Package => "package",
            DefKind::Variant => "variant",
            DefKind::Property => "property",
            DefKind::Static => "static",
        }
    }

    /// Every kind, for parsers of the string form and for exhaustive tests.
    pub const ALL: [DefKind; 26] = [
        DefKind::File,
        DefKind::Class,
        DefKind::Interface,
        DefKind::Enum,
        DefKind::Record,
        DefKind::Annotation,
        DefKind::Function,
        DefKind::Method,
        DefKind::Constructor,
        DefKind::Field,
        DefKind::Variable,
        DefKind::Constant,
        DefKind::EnumConstant,
        DefKind::Parameter,
        DefKind::Struct,
        DefKind::Trait,
        DefKind::Union,
        DefKind::TypeAlias,
        DefKind::Type,
        DefKind::Macro,
        DefKind::Module,
        DefKind::Namespace,
        DefKind::Package,
        DefKind::Variant,
        DefKind::Property,
        DefKind::Static,
    ];

    pub fn parse(s: &str) -> Option<DefKind> {
        DefKind::ALL.into_iter().find(|k| k.as_str() == s)
    }

    /// Kinds that are invoked and so carry a parameter list in their signature.
    pub fn is_callable(self) -> bool {
        matches!(self, DefKind::Function | DefKind::Method | DefKind::Constructor)
    }

    /// Types: kinds that contain members (nested under them in renderings) and stand for a file
    /// of their name (`Foo.java`).
    pub fn is_type(self) -> bool {
        matches!(
            self,
            DefKind::Class
                | DefKind::Interface
                | DefKind::Enum
                | DefKind::Record
                | DefKind::Annotation
                | DefKind::Struct
                | DefKind::Trait
                | DefKind::Union
                | DefKind::Type
        )
    }

    /// Kinds whose name nobody chooses apart from another definition's: a constructor is
    /// invoked by its type's name.
    pub fn is_constructor(self) -> bool {
        self == DefKind::Constructor
    }
}

impl fmt::Display for DefKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Index of a definition within its [`FileIndex::definitions`].
pub type DefId = u32;

/// A named entity the file declares.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Definition {
    /// Simple name, as a use would spell it: `strict`, `remove_color`, `JsonWriter`.
    pub name: String,
    /// Qualified name within the file: `Segment.remove_color`, `fetch.strict`. The database
    /// prefixes the module name to get the repository-wide qualified name.
    pub local_name: String,
    pub kind: DefKind,
    /// The whole declaration (from decorators/annotations/modifiers to the end of its body).
    pub span: Span,
    /// The name token alone.
    pub name_span: Span,
    /// The declaration as written, flattened to one line and without decorators or body:
    /// `def fetch(url, *, strict: bool = False) -> str`, `class Foo(Base)`,
    /// `public static String quote(String s) throws IOException`, `x: int`, `strict=False`.
    pub signature: String,
    /// The docstring or Javadoc, with quotes and comment markers removed.
    pub doc: Option<String>,
    /// The enclosing definition (class of a method, callable of a parameter).
    pub parent: Option<DefId>,
    /// A field that constructing its type names by keyword, so a keyword argument to the type
    /// can select it: dataclass, attrs, NamedTuple and pydantic fields (`Config(strict=True)`),
    /// Go struct fields (`Options{Timeout: d}`), Rust struct fields (`Options { retries: 3 }`).
    /// A plain attribute a method sets (`self.x = …`) is not one.
    #[serde(default)]
    pub constructor_keyword: bool,
    /// A callable whose keyword arguments are the properties of types, by those types' names as
    /// written: a React component's props (`function Banner({ title }: BannerProps)` takes
    /// `<Banner title=…>`), a function or constructor taking an options object
    /// (`constructor(opts: ClientOptions)`, `update(caller: Caller, data: UserData)`). The
    /// types' constructor keywords are then this callable's keywords too.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub keywords_from: Vec<String>,
    /// A test a framework runs by itself, marked so in the source: JUnit's `@Test` methods,
    /// Rust's `#[test]` functions. No code names one ([`Frontend::is_collected`] adds what
    /// names and paths decide).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub collected: bool,
    /// An attribute assigned a bare name (`module = eric_eccli_command` in a class body,
    /// `self.klass = Widget` in a method): that name, as the file binds it. Where the file
    /// imports it, `self.module.main()` is a use through that import (Ansible's module tests
    /// hold the module under test so, and call it from a base class in another file). For a
    /// type alias, the type it names, by its last name (`basic_json` of C++'s
    /// `using json = basic_json<>;`): a qualifier spelling the alias names that type's members.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub holds: Option<String>,
    /// Visible only in its own file, whatever its name: C's and C++'s `static` functions and
    /// variables at file scope, everything in a C++ anonymous namespace. No other file's use
    /// reaches it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub file_local: bool,
}

/// How a use reaches a name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum UseKind {
    /// `f(…)`, `obj.m(…)`, Java `m(…)`, method references `Foo::m`.
    Call,
    /// `obj.attr` read or written, Java `obj.field`.
    Attribute,
    /// An imported name: `c` in `from a.b import c`, `Foo` in `import a.b.Foo;`.
    Import,
    /// A component of an imported module path: `a`, `b` in `from a.b import c` or `import a.b`.
    ImportModule,
    /// A name in a type annotation or Java type position.
    Type,
    /// Java `new Foo(…)`.
    Instantiation,
    /// A decorator or Java annotation.
    Decorator,
    /// A base class, `extends` or `implements` clause.
    Base,
    /// `strict` in `f(strict=True)`.
    KeywordArgument,
    /// A parameter a test framework fills with the fixture of that name: pytest's
    /// `def test_x(caplog)` uses the fixture `caplog`.
    Fixture,
    /// Any other identifier read in an expression.
    Name,
}

impl UseKind {
    pub fn as_str(self) -> &'static str {
        match self {
            UseKind::Call => "call",
            UseKind::Attribute => "attribute",
            UseKind::Import => "import",
            UseKind::ImportModule => "import_module",
            UseKind::Type => "type",
            UseKind::Instantiation => "instantiation",
            UseKind::Decorator => "decorator",
            UseKind::Base => "base",
            UseKind::KeywordArgument => "keyword_argument",
            UseKind::Fixture => "fixture",
            UseKind::Name => "name",
        }
    }
}

/// A reference to a name.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Use {
    pub name: String,
    pub kind: UseKind,
    /// The name token alone.
    pub span: Span,
    /// What the name was reached through, where cheaply known: the receiver's source text for
    /// `mod.name`/`obj.name` (`mod`, `self.helper`), the module of an import
    /// (`a.b` for `from a.b import c`), the callee's text for a keyword argument (`None` when
    /// the callee is no chain of names, as in `make()(k=1)`).
    pub qualifier: Option<String>,
    /// How the use's *head* is bound where the use stands: the name itself for a bare use, the
    /// first component of the qualifier for `head.….name`, the callee's first component for a
    /// keyword argument. Scope is the frontend's knowledge; what the binding means for
    /// selection (the import it goes through, the package it shares) is the core's.
    #[serde(default)]
    pub binding: Binding,
}

/// How a name is bound at the place it is used (see [`Use::binding`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Binding {
    /// Bound nowhere in the file: a builtin, a name a wildcard import brings, or (Java, Go) a
    /// name of the same package, which needs no import.
    #[default]
    Free,
    /// Bound by the file itself in a scope enclosing the use, to a value: an assignment,
    /// parameter, loop/with/except/comprehension target, local declaration. Such a name never
    /// refers to another file's definition; as a callee it could hold anything.
    Local,
    /// Bound by a definition of the file itself (a function, class or type, nested or top
    /// level): never another file's definition, and as a callee a known one.
    Definition,
    /// Bound by one of the file's imports ([`FileIndex::imports`], matched by
    /// [`Import::bound_name`]); import statements' own uses are bound so too.
    Import,
    /// A member reached through a receiver that is no chain of names (`make().run()`, so the
    /// use has no qualifier) or through an implicit one: Java's unqualified call of an
    /// inherited method or read of an inherited field (`this.` left out). Matched by name, like
    /// `obj.name`.
    Receiver,
    /// A method of the file's own class called through the implicit receiver (Java's
    /// `check()` where the class defines `check`): it runs that method or a subclass's override
    /// of it — perhaps a test's, when the file is code.
    OwnMember,
    /// Bound outside the repository by the language or the test framework the file runs in,
    /// as the frontend knows without reading anything else: C++'s `std::tuple` (the namespace
    /// the standard reserves), an RSpec or Shoulda example group's `context "…" do`. Such a use
    /// never refers to a definition of the repository.
    External,
}

impl Binding {
    pub fn as_str(self) -> &'static str {
        match self {
            Binding::Free => "free",
            Binding::Local => "local",
            Binding::Definition => "definition",
            Binding::Import => "import",
            Binding::Receiver => "receiver",
            Binding::OwnMember => "own_member",
            Binding::External => "external",
        }
    }
}

impl Use {
    /// The first name of the use's qualifier, or the use's own name when it has none: the name
    /// [`Use::binding`] describes (for keyword arguments, the callee's first name).
    pub fn head(&self) -> &str {
        match &self.qualifier {
            Some(q) => q.split('.').next().unwrap_or(q),
            None if self.kind == UseKind::KeywordArgument => "",
            None => &self.name,
        }
    }
}

/// One imported binding, kept so that a use's qualifier can be resolved to a module.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Import {
    /// The module as written: `a.b`, `.sibling`, `..pkg.mod` (Python relative imports keep
    /// their dots); Java: the package or type path before the last component.
    pub module: String,
    /// The imported member, `None` for `import a.b` (the module itself) and for wildcards.
    pub name: Option<String>,
    /// `f` in `from m import new_fn as f` / `import numpy as np`.
    pub alias: Option<String>,
    /// `from m import *`, `import a.b.*;`.
    pub wildcard: bool,
    pub line: u32,
}

impl Import {
    /// The name this import binds in the importing file.
    pub fn bound_name(&self) -> Option<&str> {
        if let Some(alias) = &self.alias {
            return Some(alias);
        }
        match &self.name {
            Some(name) => Some(name),
            // `import a.b` binds `a`.
            None if !self.wildcard => self.module.split('.').find(|s| !s.is_empty()),
            None => None,
        }
    }
}

/// A string literal's value (quotes and prefixes removed, escapes left as written).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StringLiteral {
    pub value: String,
    pub span: Span,
    /// Inside the arguments of a raise/throw, of an exception-message matcher such as
    /// `pytest.raises(match=…)`/`assertThrows`/`hasMessage`, or of an assertion on a line
    /// reading `getMessage()`.
    #[serde(default)]
    pub error_context: bool,
}

/// Callees whose string arguments are error messages (matched against the last component of
/// the callee): pytest's `raises(match=…)`, unittest's `assertRaisesRegex`, JUnit's
/// `expectMessage`, AssertJ's `hasMessage`…
pub const ERROR_MESSAGE_CALLEES: &[&str] = &[
    "raises",
    "assertRaisesRegex",
    "assertRaisesRegexp",
    "assertRaisesMessage",
    "expectMessage",
    "hasMessage",
    "hasMessageContaining",
    "hasMessageStartingWith",
    "hasMessageEndingWith",
    "withMessage",
    "withMessageContaining",
];

/// Whether `line` (the source line holding a string) reads an exception's message, which
/// makes the strings of an assertion on it error messages.
pub fn reads_exception_message(line: &[u8]) -> bool {
    line.windows(12).any(|w| w == b"getMessage()")
}

/// The line of `text` that holds byte `at`.
pub fn line_around(text: &[u8], at: usize) -> &[u8] {
    let at = at.min(text.len());
    let start = text[..at].iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    let end = text[at..].iter().position(|&b| b == b'\n').map_or(text.len(), |i| at + i);
    &text[start..end]
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SyntaxError {
    pub span: Span,
    pub message: String,
}

/// Everything one file defines and uses. Produced by [`Frontend::extract`].
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileIndex {
    /// In source order; a parent always precedes its children.
    pub definitions: Vec<Definition>,
    /// In source order.
    pub uses: Vec<Use>,
    pub imports: Vec<Import>,
    pub strings: Vec<StringLiteral>,
    /// The declared package (Java `package a.b;`), `None` where the language has none.
    pub package: Option<String>,
    /// The module docstring / the primary type's Javadoc, if any.
    pub doc: Option<String>,
    pub errors: Vec<SyntaxError>,
    /// Regions of the file that are test code although the file's path does not say so: Rust's
    /// `#[cfg(test)]` modules and `#[test]` functions in a source file. What a change adds
    /// there is the test change when changes are split by path (a commit's diff, the editor's
    /// work tree), and what is defined there is never the code change's.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tests: Vec<Span>,
    /// The module roots a manifest declares ([`Frontend::manifest_roots`]: `go.mod`,
    /// `Cargo.toml`, `composer.json`), directories relative to the manifest's; empty for any
    /// other file.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub roots: Vec<ModuleRoot>,
    /// Lines naming a macro alone at namespace level, where a scope macro defined elsewhere may
    /// open or close namespaces ([`scoping`]; C and C++).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub scope_marks: Vec<scoping::ScopeMark>,
    /// The macros this file defines whose bodies only open and close scopes ([`scoping`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub scope_macros: Vec<scoping::ScopeMacro>,
    /// The inline namespaces the file's own `inline namespace` blocks open (ABI tags its users
    /// never spell, [`scoping::identity`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub inline_scopes: Vec<String>,
    /// The type of a use's head where the file states it, by index into [`FileIndex::uses`],
    /// ascending: a local bound to a value of a type the file names (Go's `m := &MockClient{}`,
    /// `var m MockClient`, a parameter `m *MockClient`), as the type's bare name. Only uses whose
    /// head is such a local ([`Binding::Local`]) are here ([`FileIndex::head_type`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub head_types: Vec<(u32, String)>,
}

/// A root of a tree of modules: the names beginning with `prefix` lie below `dir`. A manifest
/// declares one (Go's `go.mod`: `go.flipt.io/flipt` below its directory; a Rust crate's
/// `Cargo.toml`) or several (PHP's `composer.json`: `App\` in `src/`, `App\Tests\` in
/// `tests/`), or the language's convention does (Ruby's Zeitwerk: every constant below `lib/`).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ModuleRoot {
    /// In the notation of the language's imports (`go.flipt.io/flipt`, `clap`, `App.Http` for
    /// PHP's `App\Http\`); empty for a root of every name.
    pub prefix: String,
    /// The directory, relative to the manifest's in a manifest's index and to the repository
    /// once found; empty for the manifest's own (or the repository's top).
    pub dir: String,
    /// Whether a name keeps its prefix in its path below `dir` (PSR-0: `Foo_Bar` is
    /// `lib/Foo/Bar.php` for `"Foo_": "lib/"`), rather than only what follows the prefix
    /// (PSR-4, `go.mod`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub prefix_in_path: bool,
}

impl ModuleRoot {
    /// What follows the prefix in `module` when the prefix is a whole leading part of it
    /// (`errors` of `go.flipt.io/flipt/errors` below `go.flipt.io/flipt`, `builder` of
    /// `clap.builder` below `clap`, nothing of the prefix itself).
    pub fn rest_of<'m>(&self, module: &'m str) -> Option<&'m str> {
        let rest = module.strip_prefix(self.prefix.as_str())?;
        match rest.strip_prefix(['/', '.']) {
            Some(rest) => Some(rest),
            None if rest.is_empty() => Some(rest),
            None => None,
        }
    }

    /// `rest` in the directory `dir`, joined with `/`.
    pub fn join(dir: &str, rest: &str) -> String {
        match (dir, rest) {
            ("", rest) => rest.to_owned(),
            (dir, "") => dir.to_owned(),
            (dir, rest) => format!("{dir}/{rest}"),
        }
    }
}

impl FileIndex {
    /// What of this index the file's outline ([`Frontend::outline_reusing`]) holds as it is:
    /// all but its uses, strings and head types, which are left empty here.
    pub fn outlined(&self) -> FileIndex {
        self.kept(&Lines::none())
    }

    /// What of this index an outline keeping `lines` holds as it is: all but its uses, strings
    /// and head types, of which only those starting on `lines` are left (the head types
    /// renumbered with their uses).
    pub fn kept(&self, lines: &Lines) -> FileIndex {
        let mut head_types = Vec::new();
        let mut uses = Vec::new();
        for (i, u) in self.uses.iter().enumerate().filter(|(_, u)| lines.contains(u.span.start.line)) {
            if let Some(t) = self.head_type(i) {
                head_types.push((uses.len() as u32, t.to_owned()));
            }
            uses.push(u.clone());
        }
        let strings = self.strings.iter().filter(|s| lines.contains(s.span.start.line)).cloned().collect();
        FileIndex { uses, strings, head_types, ..self.clone() }
    }

    /// The type the file states for the head of its use at `index` ([`FileIndex::head_types`]).
    pub fn head_type(&self, index: usize) -> Option<&str> {
        let at = self.head_types.binary_search_by_key(&(index as u32), |(i, _)| *i).ok()?;
        Some(self.head_types[at].1.as_str())
    }

    pub fn definition(&self, id: DefId) -> &Definition {
        &self.definitions[id as usize]
    }

    /// A compact, stable text form for tests: one line per definition, use, import and string.
    ///
    /// ```text
    /// def method Widget.render @2:8 parent=Widget sig=`def render(self, width: int) -> str` doc=`Draws.`
    /// use call render @7:4 via=w
    /// ```
    pub fn dump(&self) -> String {
        use std::fmt::Write;
        let mut out = String::new();
        if let Some(p) = &self.package {
            let _ = writeln!(out, "package {p}");
        }
        if let Some(d) = &self.doc {
            let _ = writeln!(out, "doc `{d}`");
        }
        for d in &self.definitions {
            let _ =
                write!(out, "def {} {} @{}:{}", d.kind, d.local_name, d.name_span.start.line, d.name_span.start.column);
            if let Some(p) = d.parent {
                let _ = write!(out, " parent={}", self.definition(p).local_name);
            }
            let _ = write!(out, " sig=`{}`", d.signature);
            if d.constructor_keyword {
                out.push_str(" keyword");
            }
            if !d.keywords_from.is_empty() {
                let _ = write!(out, " keywords_from={}", d.keywords_from.join(","));
            }
            if let Some(held) = &d.holds {
                let _ = write!(out, " holds={held}");
            }
            if d.collected {
                out.push_str(" collected");
            }
            if d.file_local {
                out.push_str(" file_local");
            }
            if let Some(doc) = &d.doc {
                let _ = write!(out, " doc=`{doc}`");
            }
            out.push('\n');
        }
        for i in &self.imports {
            let _ = write!(out, "import {}", i.module);
            if let Some(n) = &i.name {
                let _ = write!(out, " name={n}");
            }
            if let Some(a) = &i.alias {
                let _ = write!(out, " as={a}");
            }
            if i.wildcard {
                out.push_str(" *");
            }
            let _ = writeln!(out, " line={}", i.line);
        }
        for (at, u) in self.uses.iter().enumerate() {
            let _ = write!(out, "use {} {} @{}:{}", u.kind.as_str(), u.name, u.span.start.line, u.span.start.column);
            if let Some(q) = &u.qualifier {
                let _ = write!(out, " via={q}");
            }
            if u.binding != Binding::Free {
                let _ = write!(out, " {}", u.binding.as_str());
            }
            if let Some(ty) = self.head_type(at) {
                let _ = write!(out, " type={ty}");
            }
            out.push('\n');
        }
        for s in &self.strings {
            let error = if s.error_context { " error" } else { "" };
            let _ = writeln!(out, "string {:?} @{}:{}{error}", s.value, s.span.start.line, s.span.start.column);
        }
        for e in &self.errors {
            let _ = writeln!(out, "error @{}:{} {}", e.span.start.line, e.span.start.column, e.message);
        }
        for t in &self.tests {
            let _ = writeln!(out, "tests @{}-{}", t.start.line, t.end.line);
        }
        out
    }

    /// Whether line `line` (zero-based) lies in one of the file's [`FileIndex::tests`] regions.
    pub fn in_tests(&self, line: u32) -> bool {
        self.tests.iter().any(|t| t.start.line <= line && line <= t.end.line)
    }

    /// The chain of enclosing definitions, innermost first.
    pub fn ancestors(&self, id: DefId) -> impl Iterator<Item = DefId> + '_ {
        std::iter::successors(self.definition(id).parent, move |&p| self.definition(p).parent)
    }
}

/// What a frontend's language is, as data: the facts about it that need no parse, which
/// repository-wide name facts and path classifiers read ([`Frontend::spec`]).
#[derive(Debug, Clone, Copy)]
pub struct LanguageSpec {
    /// A stable identifier, e.g. `"python"`, `"java"`.
    pub name: &'static str,
    /// The endings of the files the language's frontend claims: `.py`, `.d.ts`.
    pub extensions: &'static [&'static str],
    /// Endings another language claims too, which this one takes in a snapshot holding more
    /// files of its own endings than of the other's: a `.h` header is C++ where the repository
    /// holds more C++ sources than C sources, else C's ([`Frontend::claims_shared`]).
    pub shared_extensions: &'static [&'static str],
    /// The comment and string syntax, for telling a name in code from a mention in a comment
    /// or string without parsing ([`lexical::words`]).
    pub lexical: lexical::Dialect,
    /// Path patterns (see `hintlens_snapshot::TestPaths`) of the language's test files, beyond
    /// the generic `test/` and `tests/` directories: `test_*.py`, `*Test.java`, `*_test.go`.
    pub test_patterns: &'static [&'static str],
    /// The reserved words, sorted: a word of the code that is one of them is no identifier
    /// (`function` in JavaScript is no use of a Python parameter `function`).
    pub keywords: &'static [&'static str],
}

/// What a preprocessor reads of a file ([`Frontend::directives`]): its `#include`s, in order,
/// as [`Import`]s of the path as written, the macros it defines that open and close scopes, and
/// the names of all the macros it defines.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Directives {
    pub includes: Vec<Import>,
    pub scope_macros: Vec<scoping::ScopeMacro>,
    /// Each name a `#define` outside comments defines, include guards aside (a `#define X`
    /// with no body right after `#ifndef X`, which the index does not hold either), in order:
    /// the macros as the preprocessor defines them, whatever the grammar makes of the lines
    /// around them. None for a language without a preprocessor (its macros, if any, are its
    /// index's, scoped as its other definitions are).
    pub macros: Vec<String>,
}

/// A language frontend: recognises its files and extracts their definitions and uses.
///
/// Implementations are stateless and thread-safe; adding a language means adding a crate that
/// implements this trait (its [`LanguageSpec`], its extraction, and whatever of the defaults its
/// language does otherwise) and registering it where frontends are listed, nothing else.
pub trait Frontend: Send + Sync + 'static {
    /// The language's facts as data.
    fn spec(&self) -> &'static LanguageSpec;

    /// A stable identifier, e.g. `"python"`, `"java"`.
    fn language(&self) -> &'static str {
        self.spec().name
    }

    /// Whether a repository path (forward slashes, relative to the root) is a file of this
    /// language: a source file by its ending, or a manifest ([`Frontend::is_manifest`]).
    fn claims(&self, path: &str) -> bool {
        self.spec().extensions.iter().any(|e| path.ends_with(e)) || self.is_manifest(path)
    }

    /// Whether `path` has one of the endings this language shares with another
    /// ([`LanguageSpec::shared_extensions`]): it is this language's in a snapshot holding more
    /// files this language [claims](Frontend::claims) than the other claims, the other's
    /// elsewhere.
    fn claims_shared(&self, path: &str) -> bool {
        self.spec().shared_extensions.iter().any(|e| path.ends_with(e))
    }

    /// Definitions, uses, imports and string literals of one file. Never panics on any input.
    fn extract(&self, text: &[u8]) -> FileIndex {
        self.extract_reusing(text, None).0
    }

    /// [`Frontend::extract`], starting from the parse of an earlier version of the same file
    /// when one is given ([`reuse::Earlier`]: what was left unedited is not parsed again), and
    /// handing back this version's parse (if it made one) for a later version. The index is the
    /// same whatever is given: only the time differs.
    fn extract_reusing(&self, text: &[u8], earlier: Option<reuse::Earlier>) -> (FileIndex, Option<reuse::Parse>) {
        match self.manifest_roots(text) {
            Some(roots) => (FileIndex { roots, ..FileIndex::default() }, None),
            None => self.extract_source(text, earlier),
        }
    }

    /// Whether [`Frontend::outline_reusing`] reads less of a file than
    /// [`Frontend::extract_reusing`] does: a caller that needs only what an outline holds then
    /// asks for it.
    fn has_outline(&self) -> bool {
        false
    }

    /// An outline of `text`: [`Frontend::extract_reusing`]'s index with every definition,
    /// import, scope mark and macro, inline scope, test region, root, package, doc and error
    /// the same, and the same uses, strings and head types on the `kept` lines and none
    /// elsewhere ([`FileIndex::kept`]; a frontend with no outline, [`Frontend::has_outline`],
    /// gives its whole index). What reads a file of a base only for its definitions
    /// (whether a definition is new) asks for this keeping no line; what reads a changed file
    /// for its definitions and the uses its change adds, keeping the added lines.
    /// [`Frontend::module_name`], [`Frontend::qualified_name`] and [`Frontend::namespace`] read
    /// nothing an outline leaves out. A manifest's is its index.
    fn outline_reusing(
        &self,
        text: &[u8],
        earlier: Option<reuse::Earlier>,
        kept: &Lines,
    ) -> (FileIndex, Option<reuse::Parse>) {
        match self.manifest_roots(text) {
            Some(_) => self.extract_reusing(text, earlier),
            None => self.outline_source(text, earlier, kept),
        }
    }

    /// [`Frontend::outline_reusing`] of a text that is no manifest; by default its index
    /// ([`Frontend::extract_source`]).
    fn outline_source(
        &self,
        text: &[u8],
        earlier: Option<reuse::Earlier>,
        _kept: &Lines,
    ) -> (FileIndex, Option<reuse::Parse>) {
        self.extract_source(text, earlier)
    }

    /// What a preprocessor reads of `text` without parsing it ([`Directives`]), for a language
    /// that has one: the index's imports and scope macros are these, so that following a chain
    /// of `#include`s (a test's headers into a vendored 450 KB `gmock.h`) costs a read of each
    /// file, not a parse. `None` (the default) where imports are known only from the parse.
    fn directives(&self, _text: &[u8]) -> Option<Directives> {
        None
    }

    /// Whether a file of `text` may define one of `wanted` (a qualified name as
    /// [`Frontend::qualified_name`] spells it, and a kind), read without a parse: a definition
    /// of that kind whose qualified name, or whose identity ([`scoping::identity`]), is that
    /// name. `false` only where no index of the text could hold one; `is_scope_macro` says
    /// whether a macro the text may use as a scope mark opens scopes. The default, `true`,
    /// decides nothing. What reads a file of a base only to learn whether it defines a name
    /// moved out of another asks this first: an amalgamated header names every word of its
    /// library, and is parsed only where a name stands as a definition of it could.
    fn may_define(
        &self,
        _text: &[u8],
        _wanted: &[(&str, DefKind)],
        _is_scope_macro: &mut dyn FnMut(&str) -> bool,
    ) -> bool {
        true
    }

    /// [`Frontend::extract_reusing`] of a text that is no manifest: the parse and walk of a
    /// source file.
    fn extract_source(&self, text: &[u8], earlier: Option<reuse::Earlier>) -> (FileIndex, Option<reuse::Parse>);

    /// The module roots a manifest's text declares, each a name prefix and a directory relative
    /// to the manifest's, which its index carries as [`FileIndex::roots`]; `None` for any other
    /// text, read from the text alone as extraction is. Go's `go.mod` (`module
    /// go.flipt.io/flipt` — the package in `internal/server` beside it is imported as
    /// `go.flipt.io/flipt/internal/server`), a Rust crate's `Cargo.toml` (`name = "clap"` —
    /// `clap::builder` is the module `builder` of the crate's `src/`; a workspace's has none),
    /// PHP's `composer.json` (its `autoload` and `autoload-dev` PSR-4 and PSR-0 maps). Where the
    /// reference snapshot holds roots of a language, an import of that language leads to the
    /// directory below the root whose prefix begins it ([`Frontend::module_below_root`]), and
    /// out of the repository (the standard library, a dependency) when no root's does. Only the
    /// paths [`Frontend::is_manifest`] accepts are read for roots, so that finding a snapshot's
    /// roots parses its manifests and nothing else.
    fn manifest_roots(&self, text: &[u8]) -> Option<Vec<ModuleRoot>> {
        let _ = text;
        None
    }

    /// The repository-wide dotted name of the module the file is: `pkg.formatting` for
    /// `pkg/formatting.py`, `com.google.gson.JsonWriter` for a Java file declaring
    /// `package com.google.gson;` at `…/JsonWriter.java`. A manifest is no module: its name is
    /// its path, which no import spells.
    fn module_name(&self, path: &str, index: &FileIndex) -> String {
        if self.is_manifest(path) { path.to_owned() } else { self.source_module_name(path, index) }
    }

    /// [`Frontend::module_name`] of a source file.
    fn source_module_name(&self, path: &str, index: &FileIndex) -> String;

    /// Whether [`Frontend::module_name`] reads the file (Java's `package` clause) rather than
    /// its path alone. A frontend whose module names are its paths' says `false`, and a batch
    /// looking a module up among a snapshot's files parses none of those it passes over.
    fn module_name_reads_file(&self) -> bool {
        true
    }

    /// The last component of [`Frontend::module_name`] when the path decides it although the
    /// rest is read from the file (Java: the file's stem), so that a lookup of a module passes
    /// over the files that cannot be it without reading them. `None`: unknown until read.
    fn module_name_last<'p>(&self, _path: &'p str) -> Option<&'p str> {
        None
    }

    /// The repository-wide qualified name of a definition whose file-local name is `local_name`.
    /// By default the module name is the prefix (`pkg.formatting.Segment.remove_color`);
    /// languages whose names live in packages rather than files override it
    /// (Java: `com.google.gson.JsonWriter.setIndent`).
    fn qualified_name(&self, path: &str, index: &FileIndex, local_name: &str) -> String {
        format!("{}.{}", self.module_name(path, index), local_name)
    }

    /// Whether a use of kind `use_` can refer to a definition of kind `def` at all. Languages
    /// with separate namespaces say so here (in Java a method is only ever called, so the
    /// field access `this.htmlSafe` cannot mean the method `htmlSafe()`); the default, for
    /// languages like Python where any name can be read as an attribute, is yes.
    fn use_can_reach(&self, def: DefKind, use_: UseKind) -> bool {
        let _ = (def, use_);
        true
    }

    /// Whether the definition is private by the language's rules or conventions (Python's
    /// leading underscore, Java's `private`), for policies that list only public names.
    fn is_private(&self, def: &Definition) -> bool {
        let _ = def;
        false
    }

    /// Whether a test framework collects and runs the definition `id` of the test file `path`,
    /// or the file is out of the code's reach: then no code names it, whatever a code line
    /// spells (pytest's `test_*` functions and `Test*` classes, JUnit's `@Test` methods, Go's
    /// `TestXxx` functions, Rust's `#[test]` functions and integration-test crates). Asked only
    /// of definitions on the test side of a change. By default the marks the walk read
    /// ([`Definition::collected`]).
    fn is_collected(&self, path: &str, index: &FileIndex, id: DefId) -> bool {
        let _ = path;
        index.definition(id).collected
    }

    /// Whether a module-level definition is reached as the member of an object all the same, by
    /// a mechanism of the language's ecosystem: pytest's hooks (`pytest_*` functions of a
    /// conftest or plugin), which pluggy calls through its hook relay (`hook.pytest_x(…)`).
    fn is_hook(&self, index: &FileIndex, id: DefId) -> bool {
        let _ = (index, id);
        false
    }

    /// Whether `path` is a header: a file of declarations whose definitions other files hold
    /// under the same name (C's and C++'s `.h`). `None` where the language has no headers. A
    /// header's declaration and a source file's definition new together are one identifier,
    /// the header's (its path and its signature as declared).
    fn is_header(&self, path: &str) -> Option<bool> {
        let _ = path;
        None
    }

    /// Whether the definition's name is fixed by the language rather than chosen by its author
    /// (Python's `__eq__`, `__enter__`, PHP's `__toString`): the language calls such a method by
    /// itself, which discloses no name, so DefUse selects one only where a use calls it by that
    /// name (`$money->__toString()`).
    fn is_special(&self, def: &Definition) -> bool {
        let _ = def;
        false
    }

    /// The unit within which a file's top-level names are visible to other files without an
    /// import: Java's package, Go's package directory. `None` (the default) where every name
    /// from another file needs an import (Python, TypeScript).
    fn namespace(&self, path: &str, index: &FileIndex) -> Option<String> {
        let _ = (path, index);
        None
    }

    /// Whether an unqualified name of a definition of kind `def` that its file's namespace
    /// lacks is the global namespace's: PHP's functions and constants (`strlen()` in
    /// `namespace App` is `\strlen` unless `App\strlen` exists), never its classes.
    fn falls_back_to_global(&self, def: DefKind) -> bool {
        let _ = def;
        false
    }

    /// Whether a definition of kind `def` is seen only by the files that import (include) the
    /// file defining it, never by name across the namespace: C's macros, which the preprocessor
    /// expands only in a translation unit that includes them.
    fn seen_only_through_imports(&self, def: DefKind) -> bool {
        let _ = def;
        false
    }

    /// Whether a [`Frontend::namespace`]'s files may lie in any directory rather than in one
    /// (Java's and Go's packages): Ruby's constants, where a class is reopened in any file
    /// (`class Shop::Cart` in `lib/shop/cart/discounts.rb`), and is new only if no file of B
    /// defined it.
    fn namespace_spans_directories(&self) -> bool {
        false
    }

    /// The repository-wide module an import names, in the notation of
    /// [`Frontend::module_name`]: Python resolves leading dots against the importing module
    /// (`importing_module`, the module name of `importing_path`), Rust `crate::`, `self::` and
    /// `super::`. The default is the module as written. A module returned other than as written
    /// is taken to be the repository's; one returned as written goes through the module roots
    /// ([`Frontend::manifest_roots`]) where the language has any.
    fn import_target(&self, importing_path: &str, importing_module: &str, module: &str) -> String {
        let _ = (importing_path, importing_module);
        module.to_owned()
    }

    /// Whether a string literal spelling a dotted path (`'pkg.mod.new_fn'`) can name a module of
    /// the repository and its members, as `mock.patch('pkg.mod.fn')` and `importlib.import_module`
    /// in Python or `Class.forName("pkg.Name")` in Java do.
    fn strings_name_modules(&self) -> bool {
        false
    }

    /// Whether a qualified name whose head is imported names only what its path leads to: in
    /// Rust, `Command::new` is `Command`'s `new` (or a trait's), never another type's `new`, so
    /// a path that resolves to another definition is no use of a new one. Where a qualified name
    /// can be a value's member (`mod.obj.method` in Python), the default, it is matched by name.
    fn paths_are_static(&self) -> bool {
        false
    }

    /// Whether the callable `id` of `index` accepts keywords it does not declare and so may
    /// hand them on (Python's `**kwargs`): a keyword argument to it can be meant for whatever it
    /// calls. A class answers for its constructor.
    fn takes_any_keyword(&self, index: &FileIndex, id: DefId) -> bool {
        let _ = (index, id);
        false
    }

    /// Whether a callable can take its keyword arguments from a type's properties
    /// ([`Definition::keywords_from`]: TypeScript's React props and options objects). Where none
    /// can, a type's constructor keywords (a Go struct's fields) have no other takers to look for.
    fn keywords_from_types(&self) -> bool {
        false
    }

    /// Whether a module's imports are members of it, so that `module.name` can reach what one
    /// of its files imports as `name`: Python's `from .impl import run` in `pkg/__init__.py`
    /// makes `pkg.run`, as do Rust's `pub use` and TypeScript's `export … from` (the default).
    /// Where imports bind only in the importing file (Go, Java), a module's members are its
    /// files' own top-level definitions, and a lookup reads only the files that name the member.
    fn imports_are_members(&self) -> bool {
        true
    }

    /// Whether a qualified name's last qualifier names the definition's owner (C++'s `T::m`,
    /// `ns::f`, `E::Member`), so that `X<V>::value` reaches no `value` of another type. Where a
    /// qualifier can be a value (`obj.field` in Python), the default, it says nothing of the
    /// owner.
    fn qualifiers_name_owners(&self) -> bool {
        false
    }

    /// Whether a bare name can name a member of a type (a method, a field): in Java it can, an
    /// inherited method called without `this.`; in Go a bare name is only ever package-level,
    /// so `IfNoMatch(d)` is the function, never a struct field or interface method of that name.
    fn bare_names_reach_members(&self) -> bool {
        true
    }

    /// [`LanguageSpec::test_patterns`].
    fn test_patterns(&self) -> &'static [&'static str] {
        self.spec().test_patterns
    }

    /// What a module new in the reference stands for as a definition: by default the file
    /// itself (kind `file`, named by the last component of its module name); a language whose
    /// modules are directories says so (Go: the package, named by its `package` clause, whose
    /// path is the directory).
    fn module_definition(&self, path: &str, index: &FileIndex) -> ModuleDefinition {
        let module = self.module_name(path, index);
        ModuleDefinition { name: file_definition_name(&module).to_owned(), kind: DefKind::File, path: path.to_owned() }
    }

    /// Whether a claimed path is a manifest ([`Frontend::manifest_roots`]) rather than a source
    /// file: decided by the path alone (`go.mod`, `Cargo.toml`).
    fn is_manifest(&self, path: &str) -> bool {
        let _ = path;
        false
    }

    /// The root directory a source file lies in by the language's convention rather than by a
    /// manifest (Ruby's Zeitwerk: `lib/` in `lib/shop/cart.rb`, `app/models` in
    /// `app/models/user.rb`), a root of every name for [`Frontend::file_below_root`] only: such
    /// roots lead constants to their files, never an import out of the repository. Decided by
    /// the path alone, so that finding them reads no file.
    fn conventional_root<'p>(&self, path: &'p str) -> Option<&'p str> {
        let _ = path;
        None
    }

    /// The name a repository's code must hold for the convention's loader to load the files
    /// below the conventional root `root_dir` by their constants' names, so that where a file
    /// lies is something a test depends on; `None` when the convention always loads them. Ruby:
    /// a gem's `lib/` is loaded so only by `Zeitwerk` (faker requires every file by a glob,
    /// rubocop by a list: a spec passes wherever the class lies); Rails loads `app/*` always.
    fn conventional_loader(&self, root_dir: &str) -> Option<&'static str> {
        let _ = root_dir;
        None
    }

    /// The module an import of `module` reaches below `root` (its directory relative to the
    /// repository), in the notation of [`Frontend::module_name`]; `None` when the root holds no
    /// such module. By default a directory below the root's (Go: `go.flipt.io/flipt/internal/server`
    /// below `go.flipt.io/flipt` is `internal/server`).
    fn module_below_root(&self, root: &ModuleRoot, module: &str) -> Option<String> {
        Some(ModuleRoot::join(&root.dir, root.rest_of(module)?))
    }

    /// The file an autoloader loads for the fully qualified name `name` (dotted) below `root`:
    /// PHP's composer (`App.Http.Client` → `src/Http/Client.php` for PSR-4's `"App\\": "src/"`),
    /// Ruby's Zeitwerk (`Shop.Cart` → `lib/shop/cart.rb`). `None` where the language loads no
    /// file by name, or the root holds no such name.
    fn file_below_root(&self, root: &ModuleRoot, name: &str) -> Option<String> {
        let _ = (root, name);
        None
    }

    /// [`LanguageSpec::lexical`]: what repository-wide name facts read of the files nobody
    /// asked to parse.
    fn lexical(&self) -> lexical::Dialect {
        self.spec().lexical
    }

    /// [`LanguageSpec::keywords`].
    fn keywords(&self) -> &'static [&'static str] {
        self.spec().keywords
    }

    /// Parses `text` and does nothing else: the baseline extraction speed is measured against.
    /// Returns a number derived from the tree so the parse cannot be optimised away.
    fn bare_parse(&self, text: &[u8]) -> usize;
}

/// Whether `text` is one identifier as strings spell names (`job_path`, `matchpathcon`): a
/// letter or underscore, then letters, digits and underscores.
pub fn is_identifier(text: &str) -> bool {
    text.chars().next().is_some_and(|c| c.is_alphabetic() || c == '_')
        && text.chars().all(|c| c.is_alphanumeric() || c == '_')
}

/// A stable 64-bit hash of a name (the same in every run), for sets of names that must cost no
/// allocation per name: scopes, name sets, and the words of every base blob a batch reads.
/// Eight bytes at a time, each folded in by a full 64×64→128-bit multiply (wyhash's "mum"),
/// which mixes every input bit into every output bit, so that its low 32 bits are a hash too.
/// FNV's byte at a time showed in profiles of a batch; a plain multiply (FxHash's) lets two
/// chunks' differences cancel (4,200 collisions in the low 32 bits of 200,000 `name_{i}`,
/// against the 5 that 32 bits give by chance).
pub fn name_hash(name: &[u8]) -> u64 {
    const K: u64 = 0x517c_c1b7_2722_0a95;
    let mum = |a: u64, b: u64| {
        let product = u128::from(a) * u128::from(b);
        (product as u64) ^ ((product >> 64) as u64)
    };
    let mut h = name.len() as u64 ^ 0xe703_7ed1_a0b4_28db;
    let mut chunks = name.chunks_exact(8);
    for chunk in &mut chunks {
        let bytes: [u8; 8] = chunk.try_into().unwrap_or_default();
        h = mum(h ^ u64::from_le_bytes(bytes), K);
    }
    // The last 1 to 7 bytes, zero-padded, without copying them out (the copy was a call per
    // word): two overlapping 4-byte reads, or the first, middle and last byte, each shifted
    // to its place; where reads overlap they hold the same bytes, so OR-ing them is exact.
    let rest = chunks.remainder();
    let n = rest.len();
    if n > 0 {
        let tail = if n >= 4 {
            let word = |at: usize| u64::from(u32::from_le_bytes([rest[at], rest[at + 1], rest[at + 2], rest[at + 3]]));
            word(0) | (word(n - 4) << (8 * (n - 4)))
        } else {
            u64::from(rest[0]) | (u64::from(rest[n / 2]) << (8 * (n / 2))) | (u64::from(rest[n - 1]) << (8 * (n - 1)))
        };
        h = mum(h ^ tail, K);
    }
    mum(h, 0x8ebc_6af0_9c88_c6e3)
}

/// A new module as a definition ([`Frontend::module_definition`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModuleDefinition {
    pub name: String,
    /// [`DefKind::File`], or [`DefKind::Package`] for a module that is a directory.
    pub kind: DefKind,
    /// The file, or for a package its directory (no trailing `/`; empty for the root).
    pub path: String,
}

/// The name a `file` definition carries: the last component of the module name.
pub fn file_definition_name(module_name: &str) -> &str {
    module_name.rsplit('.').next().unwrap_or(module_name)
}

/// Builds a [`Span`] from tree-sitter-like coordinates; shared by frontends so they agree.
pub fn span(start_byte: usize, end_byte: usize, start: (usize, usize), end: (usize, usize)) -> Span {
    Span {
        start_byte: start_byte as u32,
        end_byte: end_byte as u32,
        start: Position { line: start.0 as u32, column: start.1 as u32 },
        end: Position { line: end.0 as u32, column: end.1 as u32 },
    }
}

/// The span of bytes `start..end` of `src` inside a node that begins at byte `anchor.0`, line
/// `anchor.1`, column `anchor.2` — an import path's component, a name inside a string — which
/// no syntax node spans. Positions are counted from the anchor, not from the file's start, so a
/// file of many such ranges costs no more than its text. The range is clamped to the text.
pub fn span_within(src: &[u8], anchor: (usize, usize, usize), start: usize, end: usize) -> Span {
    let (from, row, column) = anchor;
    let end = end.min(src.len());
    let from = from.min(end);
    let start = start.clamp(from, end);
    let position = |at: usize| {
        let between = &src[from..at];
        match between.iter().rposition(|&b| b == b'\n') {
            None => (row, column + between.len()),
            Some(last) => (row + between.iter().filter(|&&b| b == b'\n').count(), between.len() - last - 1),
        }
    };
    span(start, end, position(start), position(end))
}

/// The `/`-separated components of the quoted string literal at bytes `start..end` of `src`
/// (an import path: `"github.com/org/pkg"`, `'../src/user'`), each with its byte range. Ranges
/// come from the bytes as written and names are decoded lossily, so an invalid byte (which
/// decodes to three) never moves a range; an unterminated literal keeps its last component.
pub fn quoted_path_components(src: &[u8], start: usize, end: usize) -> Vec<(usize, usize, String)> {
    let Some(literal) = src.get(start..end.min(src.len())) else { return Vec::new() };
    let Some(&quote) = literal.first() else { return Vec::new() };
    let closed = literal.len() >= 2 && literal.last() == Some(&quote);
    let content = &literal[1..literal.len() - usize::from(closed)];
    let mut at = start + 1;
    let mut out = Vec::new();
    for component in content.split(|&b| b == b'/') {
        out.push((at, at + component.len(), String::from_utf8_lossy(component).into_owned()));
        at += component.len() + 1;
    }
    out
}

/// A comment's text without its markers (`// x`, `/* x */`, `/** x */`, leading `*` of each
/// line; `# x`, `## x`): the doc comment of a Go, TypeScript or Ruby definition.
pub fn comment_text(comment: &str) -> String {
    if let Some(line) = comment.strip_prefix("//") {
        return line.strip_prefix(' ').unwrap_or(line).trim_end().to_owned();
    }
    if comment.starts_with('#') {
        let line = comment.trim_start_matches('#');
        return line.strip_prefix(' ').unwrap_or(line).trim_end().to_owned();
    }
    let inner = comment.strip_prefix("/*").unwrap_or(comment);
    let inner = inner.strip_suffix("*/").unwrap_or(inner);
    inner.lines().map(|l| l.trim().trim_start_matches('*').trim()).collect::<Vec<_>>().join("\n").trim().to_owned()
}

/// Collapses runs of whitespace (including newlines) into single spaces: signatures are shown
/// on one line whatever their layout in the source. No space is kept after an opening bracket
/// or before a closing one or a comma (`( a, b )` → `(a, b)`): a line break there is layout, not
/// content.
///
/// Every signature of every definition goes through here, so it takes one pass and one
/// allocation, and a text already flat (most signatures are written on one line) is copied as
/// it is.
pub fn flatten_whitespace(text: &str) -> String {
    let text = text.trim();
    let bytes = text.as_bytes();
    let flat = bytes.iter().all(|&b| b.is_ascii() && (b == b' ' || !b.is_ascii_whitespace()))
        && !bytes.windows(2).any(|w| matches!(w, [b' ', b' ' | b')' | b']' | b','] | [b'(' | b'[', b' ']));
    if flat {
        return text.to_owned();
    }
    let mut out = String::with_capacity(text.len());
    for word in text.split_whitespace() {
        let glued = out.ends_with(['(', '[']) || word.starts_with([')', ']', ',']);
        if !out.is_empty() && !glued {
            out.push(' ');
        }
        out.push_str(word);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A set of lines is its lines, however they were given; it finds a line within a range.
    #[test]
    fn lines_are_a_set_that_answers_ranges() {
        assert_eq!(Lines::new([7, 3, 3]), Lines::new([3, 7]));
        assert_eq!(Lines::none(), Lines::new([]));
        assert_ne!(Lines::new([3]), Lines::new([4]));
        let lines = Lines::new([3, 7]);
        assert!(lines.contains(7) && !lines.contains(5));
        assert!(lines.any_within(4, 7) && lines.any_within(3, 3) && !lines.any_within(4, 6) && !lines.any_within(8, 9));
        let state = std::collections::hash_map::RandomState::new();
        let hash = |l: Lines| std::hash::BuildHasher::hash_one(&state, l);
        assert_eq!(hash(Lines::new([7, 3])), hash(lines), "equal sets hash alike");
    }

    /// Word sets keep only the low 32 bits of a name's hash, so those must collide no more
    /// than chance: for 200,000 names, about 5 pairs. Families of names that differ in one
    /// place (a counter at the end, at the start, in the middle, names of every length up to
    /// 20) are where weak mixing shows.
    #[test]
    fn the_low_half_of_a_name_hash_collides_as_rarely_as_chance() {
        let families: [fn(u32) -> String; 4] = [
            |i| format!("name_{i}"),
            |i| format!("{i}_name"),
            |i| format!("get{i}Value"),
            |i| "x".repeat(i as usize % 20 + 1) + &format!("{:x}", i / 20),
        ];
        for (f, family) in families.iter().enumerate() {
            let mut low: Vec<u32> = (0..200_000).map(|i| name_hash(family(i).as_bytes()) as u32).collect();
            low.sort_unstable();
            let collisions = low.windows(2).filter(|w| w[0] == w[1]).count();
            assert!(collisions < 30, "family {f}: {collisions} collisions in 200,000 names");
        }
        assert_ne!(name_hash(b"ab"), name_hash(b"ab\0"), "the length is part of the hash");
        assert_ne!(name_hash(b"abcd"), name_hash(b"abdc"));
    }

    /// The tail of a name (its last 1 to 7 bytes) is read in overlapping pieces; the number
    /// they make must be the tail zero-padded, whatever its length.
    #[test]
    fn a_name_hash_reads_its_tail_as_the_zero_padded_bytes() {
        let padded = |name: &[u8]| {
            let mum = |a: u64, b: u64| {
                let product = u128::from(a) * u128::from(b);
                (product as u64) ^ ((product >> 64) as u64)
            };
            let mut h = name.len() as u64 ^ 0xe703_7ed1_a0b4_28db;
            for chunk in name.chunks(8) {
                let mut bytes = [0u8; 8];
                bytes[..chunk.len()].copy_from_slice(chunk);
                h = mum(h ^ u64::from_le_bytes(bytes), 0x517c_c1b7_2722_0a95);
            }
            mum(h, 0x8ebc_6af0_9c88_c6e3)
        };
        let text: Vec<u8> = (1..=40u8).map(|b| b.wrapping_mul(37) ^ 0xa5).collect();
        for len in 0..=text.len() {
            assert_eq!(name_hash(&text[..len]), padded(&text[..len]), "length {len}");
        }
    }

    #[test]
    fn path_components_keep_byte_ranges_of_the_text_as_written() {
        let src = b"x = '../a/b\xffc'";
        let parts = quoted_path_components(src, 4, src.len());
        let names: Vec<&str> = parts.iter().map(|p| p.2.as_str()).collect();
        assert_eq!(names, ["..", "a", "b\u{fffd}c"]);
        assert_eq!(&src[parts[2].0..parts[2].1], b"b\xffc");
        // Unterminated: the last component runs to the end.
        let open = b"'lib/x";
        let parts = quoted_path_components(open, 0, open.len());
        assert_eq!((parts[1].0, parts[1].1, parts[1].2.as_str()), (5, 6, "x"));
        let s = span_within(b"ab\ncd", (0, 0, 0), 3, 99);
        assert_eq!((s.start.line, s.start.column, s.end_byte), (1, 0, 5));
        // From an anchor at line 7, column 4 (byte 2 of this text).
        let s = span_within(b"x 'a\nbc'", (2, 7, 4), 3, 7);
        assert_eq!((s.start.line, s.start.column, s.end.line, s.end.column), (7, 5, 8, 2));
    }

    #[test]
    fn def_kind_round_trips_through_its_string_form() {
        for kind in DefKind::ALL {
            assert_eq!(DefKind::parse(kind.as_str()), Some(kind));
        }
        assert_eq!(DefKind::parse("nonsense"), None);
    }

    #[test]
    fn flatten_whitespace_joins_multiline_signatures() {
        assert_eq!(flatten_whitespace("def f(\n    a,\n    b: int = 3,\n) -> str"), "def f(a, b: int = 3,) -> str");
    }

    /// The rule as first written: words joined by one space, then the spaces next to brackets
    /// and before commas taken out. The one-pass version must agree with it everywhere.
    #[test]
    fn flatten_whitespace_agrees_with_its_definition() {
        let definition = |text: &str| {
            let joined = text.split_whitespace().collect::<Vec<_>>().join(" ");
            joined.replace("( ", "(").replace(" )", ")").replace("[ ", "[").replace(" ]", "]").replace(" ,", ",")
        };
        for text in [
            "",
            "self",
            "def f(\n    a,\n    b: int = 3,\n) -> str",
            "class A( B ,C )",
            "x: dict[ str , list[ int ] ]",
            "f( ( a ) , [ b ] )",
            "  leading\tand\r\ntrailing  ",
            "a\u{a0}b\u{2003}c",
            "( )",
            "[ , ]",
            "public void f(int a)",
            "  public void f(int a) ",
            "void f( int a )",
            "void f(int a ,int b)",
            "int  x",
            "List<String>\n  names()",
            "a\tb",
            "int[ ] a",
            "caf\u{e9}\u{a0}x",
            "a ( ] ,",
            "x( y",
        ] {
            assert_eq!(flatten_whitespace(text), definition(text), "{text:?}");
        }
    }

    #[test]
    fn import_bound_name() {
        let imp = |module: &str, name: Option<&str>, alias: Option<&str>| Import {
            module: module.into(),
            name: name.map(Into::into),
            alias: alias.map(Into::into),
            wildcard: false,
            line: 0,
        };
        assert_eq!(imp("a.b", None, None).bound_name(), Some("a"));
        assert_eq!(imp("a.b", None, Some("ab")).bound_name(), Some("ab"));
        assert_eq!(imp("m", Some("new_fn"), Some("f")).bound_name(), Some("f"));
        assert_eq!(imp("m", Some("new_fn"), None).bound_name(), Some("new_fn"));
    }

    #[test]
    fn dump_marks_strings_in_an_error_context() {
        let string =
            |value: &str, error_context| StringLiteral { value: value.into(), span: Span::default(), error_context };
        let index = FileIndex { strings: vec![string("boom", true), string("key", false)], ..FileIndex::default() };
        assert_eq!(index.dump(), "string \"boom\" @0:0 error\nstring \"key\" @0:0\n");
    }

    #[test]
    fn file_definition_name_is_last_component() {
        assert_eq!(file_definition_name("pkg.formatting"), "formatting");
        assert_eq!(file_definition_name("setup"), "setup");
    }
}
