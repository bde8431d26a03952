//! The Java frontend of hintlens: definitions, uses, imports and string literals of one Java
//! file, read from a tree-sitter-java syntax tree in a single pass.
//!
//! Choices the shared vocabulary leaves to each frontend:
//! - Receivers are reported by syntax alone: `Foo` in `Foo.bar()` is a [`UseKind::Name`] like
//!   any variable (a capitalisation heuristic would misreport `LOG.info()`).
//! - Methods, fields and parameters of anonymous classes are definitions whose parent is the
//!   enclosing definition (`FooTest.testX.onEvent`, `Outer.COMPARATOR.compare`); the anonymous
//!   class itself has none. Methods of an enum constant's body belong to the constant.
//! - Uses of types reached through a dotted path report every component: `java.util.List`
//!   gives `Type java`, `Type util via java` and `Type List via java.util` (the grammar cannot
//!   tell packages from enclosing types). `Receiver::new` is an instantiation of `Receiver`.
//!   `var` is no type use.
//! - `x = …` is no use of `x`, but compound assignments (`x += …`) read it and are.
//! - Signatures never contain annotations or comments; annotation elements keep their
//!   `default …`. A field declaration's span and Javadoc are shared by all its declarators.
//! - `ImportModule` uses are qualified by the path before them (`x via com` in
//!   `import com.x.Foo;`).
//! - A Javadoc comment documents the next declaration among its siblings, even across ordinary
//!   comments. Its text keeps paragraphs (blank line) and puts block tags on lines of their own.
//!   A file without top-level types (`package-info.java`) takes its package's Javadoc as doc.
//! - Text blocks are stored with their incidental indentation stripped, as the compiler does.
//! - `module-info.java` names service types (`uses`, `provides … with …`) as type uses; its
//!   module and package names are no uses.
//! - Declarations tree-sitter leaves loose in an ERROR node (an unterminated string swallows
//!   the rest of the file) are recovered: types, methods, constructors and their parameters.
//! - Spans are positions in the bytes given, even where those are invalid UTF-8 (the text of
//!   names and signatures is then decoded lossily).
//! - Definitions nest at most 128 deep; deeper declarations yield uses only.
//!
//! [`UseKind::Name`]: hintlens_syntax::UseKind::Name

mod grammar;
mod text;
mod walk;

use hintlens_syntax::lexical::{CStyle, Dialect};
use hintlens_syntax::{DefKind, Definition, Frontend, LanguageSpec, UseKind};
use hintlens_tree::packages;
use tree_sitter::Tree;

/// The Java [`Frontend`]: claims `*.java` files.
pub struct Java;

static SPEC: LanguageSpec = LanguageSpec {
    name: "java",
    extensions: &[".java"],
    shared_extensions: &[],
    lexical: Dialect::C(CStyle { text_blocks: true, ..CStyle::PLAIN }),
    test_patterns: &["src/test/", "*Test.java", "*Tests.java", "*IT.java"],
    keywords: &[
        "abstract", "assert", "boolean", "break", "byte", "case", "catch", "char", "class", "const", "continue",
        "default", "do", "double", "else", "enum", "extends", "false", "final", "finally", "float", "for", "goto",
        "if", "implements", "import", "instanceof", "int", "interface", "long", "native", "new", "null", "package",
        "private", "protected", "public", "return", "short", "static", "strictfp", "super", "switch", "synchronized",
        "this", "throw", "throws", "transient", "true", "try", "void", "volatile", "while",
    ],
};

impl Frontend for Java {
    hintlens_tree::frontend!(spec: SPEC, grammar: tree_sitter_java::LANGUAGE, walk: walk::extract);

    // Java names live in packages, not files: the module is `package.Stem`
    // (`com.google.gson.JsonWriter`); qualified names `com.google.gson.JsonWriter.setIndent`.
    hintlens_tree::package_names!(extension: ".java");

    /// Methods and fields live in separate namespaces: a method is only ever called (or
    /// imported statically, or named as an annotation element), a field never called — except
    /// a record component, whose accessor is a call.
    fn use_can_reach(&self, def: DefKind, use_: UseKind) -> bool {
        match def {
            DefKind::Method => matches!(use_, UseKind::Call | UseKind::Import | UseKind::KeywordArgument),
            DefKind::Field | DefKind::Constant | DefKind::EnumConstant => {
                matches!(use_, UseKind::Attribute | UseKind::Name | UseKind::Import | UseKind::Call)
            }
            _ => true,
        }
    }

    /// A `private` modifier: modifiers precede the name in the signature
    /// (`private static int count`).
    fn is_private(&self, def: &Definition) -> bool {
        packages::has_modifier(def, "private")
    }

    /// `Class.forName("pkg.Name")`, reflection by name.
    fn strings_name_modules(&self) -> bool {
        true
    }

    /// `import a.B;` lets the importing file write `B`; it adds nothing to the file's class.
    fn imports_are_members(&self) -> bool {
        false
    }
}

/// Parses without extracting anything: the baseline extraction is measured against.
pub fn parse_only(text: &[u8]) -> Option<Tree> {
    hintlens_tree::parse(&grammar::grammar().language, text, None)
}
