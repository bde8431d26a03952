//! The Ruby frontend of hintlens: definitions, uses, requires and string literals of one Ruby
//! file, read from a tree-sitter-ruby syntax tree in one walk.
//!
//! Choices the shared vocabulary leaves to each frontend:
//! - Constants live in one namespace for the whole program, not in files: `Shop::Cart#total` is
//!   `Shop.Cart.total` wherever it is written ([`Frontend::qualified_name`]), every file sees
//!   every other's constants without a `require` ([`Frontend::namespace`]), and a class or
//!   module reopened in a file that B already had it in is no new definition.
//! - A module (`module Shop`) is a [`DefKind::Module`]; a class (also `Point = Struct.new(:x)`,
//!   `Data.define(:x)`) a [`DefKind::Class`]. Methods (`def m`, `def self.m`, `class << self`,
//!   `attr_reader :x` → `x`, `attr_writer :x` → `x=`, `define_method(:x)`, `alias_method`) are
//!   methods; `initialize` is the constructor, whose keyword parameters are what `T.new(k: …)`
//!   names. Only keyword parameters are parameters: no caller names a positional one.
//! - A bare name is a local where its scope assigned it before, else a method call; a `def`,
//!   `class` or `module` body sees no local around it, but the methods and `let`s around it.
//! - Every member access is a call: `obj.name` and `obj.name = v` (a use of `name=`).
//! - Symbols and strings naming methods are uses of them: `send(:x)`, `public_send`,
//!   `respond_to?(:x)`, `method(:x)`, RSpec's `receive(:x)`, `have_received(:x)`,
//!   `instance_double(T, x: …)`, `receive_messages(x: …)`, `&:x`, and `describe "#x"`. A symbol
//!   spelling a constant (`:Deprecator`, `%i[Deprecator]`) is a use of that constant.
//! - `require "shop/cart"` and `require_relative "../lib/shop/cart"` are uses of the file they
//!   load: a module is a file's path without its extension (`lib.shop.cart`), matched by suffix,
//!   so `lib/` (or any directory) on the load path needs no configuration.
//! - Constants are autoloaded by Zeitwerk's convention ([`Frontend::conventional_root`]):
//!   `Shop::Cart` is `shop/cart.rb` below `lib/` or an `app/*/` directory (`app/models`,
//!   `app/models/concerns`), so a test naming the constant loads the file as a `require` would.
//! - Test code: `spec/`, `test/`, `*_spec.rb`, `*_test.rb`. Collected, hence never reached from
//!   code: minitest's and test-unit's `test_*` methods, and whatever a spec defines outside a
//!   class (`let(:x)`, `subject(:x)`, helper `def`s of an example group). RSpec's `it` blocks
//!   and `test "…" do` blocks define nothing.

mod walk;

use hintlens_syntax::lexical::Dialect;
use hintlens_syntax::{DefId, DefKind, Definition, FileIndex, Frontend, LanguageSpec, ModuleRoot, UseKind};
use tree_sitter::Tree;

/// The Ruby [`Frontend`]: claims `*.rb`, `*.rake` and `*.gemspec` files.
#[derive(Debug, Clone, Copy, Default)]
pub struct Ruby;

const EXTENSIONS: &[&str] = &[".rb", ".rake", ".gemspec"];

static SPEC: LanguageSpec = LanguageSpec {
    name: "ruby",
    extensions: EXTENSIONS,
    shared_extensions: &[],
    // `#` comments and `'`/`"` strings; `"#{name}"` interpolations are code.
    lexical: Dialect::Ruby,
    test_patterns: &["*_spec.rb", "*_test.rb", "spec/"],
    keywords: &[
        "BEGIN", "END", "__ENCODING__", "__FILE__", "__LINE__", "alias", "and", "begin", "break", "case", "class",
        "def", "do", "else", "elsif", "end", "ensure", "false", "for", "if", "in", "module", "next", "nil", "not",
        "or", "redo", "rescue", "retry", "return", "self", "super", "then", "true", "undef", "unless", "until", "when",
        "while", "yield",
    ],
};

/// Methods Ruby calls by itself, whose names nobody chooses: hooks and conversions.
const SPECIAL_METHODS: &[&str] = &[
    "initialize",
    "initialize_copy",
    "initialize_clone",
    "initialize_dup",
    "method_missing",
    "respond_to_missing?",
    "const_missing",
    "inherited",
    "included",
    "extended",
    "prepended",
    "method_added",
    "singleton_method_added",
    "to_s",
    "to_str",
    "to_proc",
    "to_ary",
    "to_hash",
    "inspect",
    "hash",
    "eql?",
    "coerce",
];

impl Frontend for Ruby {
    hintlens_tree::frontend!(spec: SPEC, grammar: tree_sitter_ruby::LANGUAGE, walk: walk::extract);

    /// `lib/shop/cart.rb` → `lib.shop.cart`: what `require "shop/cart"` names, up to the
    /// load-path directory, which resolution's suffix match leaves out.
    fn module_name_reads_file(&self) -> bool {
        false
    }

    fn source_module_name(&self, path: &str, _index: &FileIndex) -> String {
        let stem = EXTENSIONS.iter().find_map(|e| path.strip_suffix(e)).unwrap_or(path);
        stem.split('/').filter(|c| !c.is_empty() && *c != ".").collect::<Vec<_>>().join(".")
    }

    /// Zeitwerk's root directories: `lib` (of the repository or of a gem in it), `app/<kind>`
    /// and `app/<kind>/concerns` — never below a test directory.
    fn conventional_root<'p>(&self, path: &'p str) -> Option<&'p str> {
        zeitwerk_root(path)
    }

    /// A `lib/` is Zeitwerk's only where the code sets it up (`Zeitwerk::Loader.for_gem`);
    /// Rails autoloads `app/*` by itself.
    fn conventional_loader(&self, root_dir: &str) -> Option<&'static str> {
        (root_dir == "lib" || root_dir.ends_with("/lib")).then_some("Zeitwerk")
    }

    /// `Shop.Cart` → `shop/cart.rb` below the root (Zeitwerk's inflection, the inverse of
    /// `camelize`: `HTMLParser` → `html_parser`).
    fn file_below_root(&self, root: &ModuleRoot, name: &str) -> Option<String> {
        let rest = if root.prefix.is_empty() { name } else { root.rest_of(name)? };
        let parts: Vec<String> = rest.split('.').filter(|p| !p.is_empty()).map(underscore).collect();
        if parts.is_empty() || !parts.iter().all(|p| hintlens_syntax::is_identifier(p)) {
            return None;
        }
        Some(format!("{}.rb", ModuleRoot::join(&root.dir, &parts.join("/"))))
    }

    /// Constants are the program's, not a file's: `Shop.Cart.total` wherever it is defined.
    fn qualified_name(&self, _path: &str, _index: &FileIndex, local_name: &str) -> String {
        local_name.to_owned()
    }

    /// Every loaded file's constants and methods are visible to every other: one namespace.
    fn namespace(&self, _path: &str, _index: &FileIndex) -> Option<String> {
        Some(String::new())
    }

    /// A class or module is reopened in any file: it is new only if no file of B has it.
    fn namespace_spans_directories(&self) -> bool {
        true
    }

    /// `require_relative` (written `./dir`): the directory relative to the requiring file's, as
    /// a module path (`spec/shop` + `../../lib/shop` → `lib.shop`).
    fn import_target(&self, importing_path: &str, _importing_module: &str, module: &str) -> String {
        let Some(relative) = module.strip_prefix("./") else { return module.to_owned() };
        hintlens_tree::relative_path(importing_path, relative).join(".")
    }

    /// Methods are called, with or without a receiver and parentheses (a bare name is a call
    /// unless assigned); constants (classes, modules, constants) are never called.
    fn use_can_reach(&self, def: DefKind, use_: UseKind) -> bool {
        match def {
            DefKind::Method | DefKind::Constructor | DefKind::Function => {
                matches!(use_, UseKind::Call | UseKind::Name | UseKind::Import | UseKind::KeywordArgument)
            }
            DefKind::Class | DefKind::Module | DefKind::Constant => !matches!(use_, UseKind::Call),
            _ => true,
        }
    }

    /// A method after `private` in its class, or marked `private def`.
    fn is_private(&self, def: &Definition) -> bool {
        def.signature.starts_with("private ")
    }

    /// Hooks and conversions Ruby calls itself (`initialize`, `method_missing`, `to_s`) and
    /// operators (`==`, `<=>`, `[]`).
    fn is_special(&self, def: &Definition) -> bool {
        matches!(def.kind, DefKind::Method | DefKind::Constructor | DefKind::Function)
            && (SPECIAL_METHODS.contains(&def.name.as_str())
                || !def.name.starts_with(|c: char| c.is_alphabetic() || c == '_'))
    }

    /// minitest's and test-unit's `test_*` methods, and whatever a test file defines outside
    /// every class or module (`let`, `subject`, an example group's helper `def`s), with their
    /// parameters: none is reachable from code. A test's classes (fakes handed to the code) and
    /// their other methods are.
    fn is_collected(&self, _path: &str, index: &FileIndex, id: DefId) -> bool {
        let d = index.definition(id);
        if d.collected {
            return true;
        }
        match d.kind {
            DefKind::Parameter => d.parent.is_some_and(|p| self.is_collected(_path, index, p)),
            DefKind::Method | DefKind::Function => match d.parent {
                None => true,
                Some(p) => d.name.starts_with("test_") && index.definition(p).kind == DefKind::Class,
            },
            _ => false,
        }
    }
}

/// The Zeitwerk root directory of a Ruby file (`lib` of `lib/shop/cart.rb`, `app/models` of
/// `app/models/user.rb`, `app/models/concerns` of `app/models/concerns/named.rb`).
fn zeitwerk_root(path: &str) -> Option<&str> {
    if !path.ends_with(".rb") {
        return None;
    }
    let parts: Vec<&str> = path.split('/').collect();
    let files = &parts[..parts.len() - 1];
    let end = files.iter().enumerate().find_map(|(i, &part)| match part {
        "spec" | "test" | "tests" => Some(None),
        "lib" => Some(Some(i + 1)),
        "app" if i + 1 < files.len() => Some(Some(if files.get(i + 2) == Some(&"concerns") { i + 3 } else { i + 2 })),
        _ => None,
    })??;
    let len: usize = parts[..end].iter().map(|p| p.len() + 1).sum::<usize>() - 1;
    Some(&path[..len])
}

/// ActiveSupport's `underscore` of one constant name: `HTMLParser` → `html_parser`, `Cart` →
/// `cart`, `V2Client` → `v2_client`.
fn underscore(name: &str) -> String {
    let chars: Vec<char> = name.chars().collect();
    let mut out = String::with_capacity(name.len() + 4);
    for (i, &c) in chars.iter().enumerate() {
        if c.is_ascii_uppercase() && i > 0 {
            let before = chars[i - 1];
            let after_lower = chars.get(i + 1).is_some_and(|n| n.is_ascii_lowercase());
            if before.is_ascii_lowercase() || before.is_ascii_digit() || (before.is_ascii_uppercase() && after_lower) {
                out.push('_');
            }
        }
        out.push(c.to_ascii_lowercase());
    }
    out
}

/// Parses without extracting anything: the baseline extraction is measured against.
pub fn parse_only(text: &[u8]) -> Option<Tree> {
    hintlens_tree::parse(&tree_sitter_ruby::LANGUAGE.into(), text, None)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn modules_are_paths_and_names_are_the_programs() {
        let index = FileIndex::default();
        assert_eq!(Ruby.module_name("lib/shop/cart.rb", &index), "lib.shop.cart");
        assert_eq!(Ruby.qualified_name("lib/shop/cart.rb", &index, "Shop.Cart.total"), "Shop.Cart.total");
        assert_eq!(Ruby.import_target("spec/shop/cart_spec.rb", "", "./../../lib/shop"), "lib.shop");
        assert_eq!(Ruby.import_target("spec/cart_spec.rb", "", "./"), "spec");
        assert_eq!(Ruby.import_target("spec/cart_spec.rb", "", "shop"), "shop");
    }

    #[test]
    fn zeitwerk_roots_and_files() {
        assert_eq!(Ruby.conventional_root("lib/shop/cart.rb"), Some("lib"));
        assert_eq!(Ruby.conventional_root("gems/core/lib/core.rb"), Some("gems/core/lib"));
        assert_eq!(Ruby.conventional_root("app/models/user.rb"), Some("app/models"));
        assert_eq!(Ruby.conventional_root("app/models/concerns/named.rb"), Some("app/models/concerns"));
        assert_eq!(Ruby.conventional_root("spec/lib/helper.rb"), None);
        assert_eq!(Ruby.conventional_root("exe/tool.rb"), None);
        assert_eq!(Ruby.conventional_root("lib/tasks/x.rake"), None);
        let lib = ModuleRoot { prefix: String::new(), dir: "lib".into(), prefix_in_path: false };
        assert_eq!(Ruby.file_below_root(&lib, "Shop.Cart").as_deref(), Some("lib/shop/cart.rb"));
        assert_eq!(
            Ruby.file_below_root(&lib, "RuboCop.Cop.Style.HTMLParser").as_deref(),
            Some("lib/rubo_cop/cop/style/html_parser.rb")
        );
        assert_eq!(underscore("V2Client"), "v2_client");
        assert_eq!(underscore("TimeNow"), "time_now");
        assert_eq!(Ruby.file_below_root(&lib, ""), None);
        assert_eq!(Ruby.conventional_loader("lib"), Some("Zeitwerk"));
        assert_eq!(Ruby.conventional_loader("gems/core/lib"), Some("Zeitwerk"));
        assert_eq!(Ruby.conventional_loader("app/models"), None, "Rails autoloads app/*");
    }
}
