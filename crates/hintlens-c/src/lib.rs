//! The C and C++ frontends of hintlens: definitions, uses, includes and string literals of one
//! C or C++ file, read from a tree-sitter-c or tree-sitter-cpp syntax tree by one walk (C++'s
//! node kinds are a superset of C's; a kind one grammar lacks has id 0 and never matches).
//!
//! Choices the shared vocabulary leaves to each frontend:
//! - C files are `.c` and `.h`; C++ files `.cc .cpp .cxx .c++ .hpp .hh .hxx .h++ .ipp .tpp
//!   .inl`, and `.h` in a repository holding more C++ sources than C sources
//!   (`LanguageSpec::shared_extensions`).
//! - One namespace for the whole program: a top-level name of any file is visible to every
//!   other ([`Frontend::namespace`]), the linker's view. `#include`s are recorded as imports
//!   (the path as written) but not followed: a use reaches a definition by name, with the
//!   evidence saying so (`package`).
//! - `static` functions and variables at file scope and everything in an anonymous namespace
//!   are [`Definition::file_local`]: no other file reaches them.
//! - A header's declaration and a source file's definition of one function or method are one
//!   identifier, the header's ([`Frontend::is_header`]).
//! - Qualified names: C's are the names themselves (one global namespace); C++'s hang off their
//!   namespaces and classes, spelled with `::` (`fmt::v10::detail::write`). An out-of-line
//!   `T::m` is the method `m` of `T`, whether or not this file declares `T`.
//! - Constructors are `constructor` definitions; destructors and operator overloads are no
//!   definitions (nobody chooses their names).
//! - Collected tests: gtest's `TEST`/`TEST_F`/`TEST_P`/`TYPED_TEST` (named by their test's
//!   name), Unity's and CUnit's `void test_*(void)`. Catch2's and doctest's `TEST_CASE` and
//!   `SECTION` name no definition at all: their bodies are read as code.
//! - Designated initializers (`.flags = 1`) and constructor member initializers (`: size_(n)`)
//!   are uses of the field by name, like any member access.
//! - Macro bodies are read as tokens: each identifier is a use (a parameter is the macro's own).
//!   A `#define` uses its own name as well (a test configuring a library's macro), except a
//!   default under `#ifndef` of that name.
//! - A macro alone on its line between declarations (`FMT_EXPORT`, `NLOHMANN_DEFINE_TYPE_INTRUSIVE(T, a)`
//!   with no `;`) is read apart from the grammar, as a use (`macro_lines`); `NAME(args);` with no
//!   type, not a constructor, is a macro call, not a declaration.
//! - Each name of a C++ `namespace` is a `namespace` definition; a type alias records the type it
//!   names (`Definition::holds`), so a qualifier spelling the alias names that type's members.

mod definable;
mod directives;
mod macro_lines;
mod namespaces;
mod scan;
mod walk;

use hintlens_syntax::lexical::{CStyle, Dialect as Lexical};
use hintlens_syntax::{
    DefId, DefKind, Definition, Directives, FileIndex, Frontend, LanguageSpec, ModuleDefinition, UseKind,
};

/// The C [`Frontend`]: claims `*.c` and `*.h`.
#[derive(Debug, Clone, Copy, Default)]
pub struct C;

/// The C++ [`Frontend`]: claims C++'s own endings, and `*.h` where the repository holds C++
/// sources.
#[derive(Debug, Clone, Copy, Default)]
pub struct Cpp;

/// Both frontends, to register together (C first: a `.h` is C's unless C++ takes it).
pub fn frontends() -> Vec<Box<dyn Frontend>> {
    vec![Box::new(C), Box::new(Cpp)]
}

const TEST_PATTERNS: &[&str] =
    &["unittests/", "*_test.c", "*_test.cc", "*_test.cpp", "*_test.cxx", "*_tests.cc", "*_tests.cpp", "test_*.c"];

static C_SPEC: LanguageSpec = LanguageSpec {
    name: "c",
    extensions: &[".c", ".h"],
    shared_extensions: &[],
    lexical: Lexical::C(CStyle::PLAIN),
    test_patterns: TEST_PATTERNS,
    keywords: &[
        "auto", "break", "case", "char", "const", "continue", "default", "do", "double", "else", "enum", "extern",
        "float", "for", "goto", "if", "inline", "int", "long", "register", "restrict", "return", "short", "signed",
        "sizeof", "static", "struct", "switch", "typedef", "union", "unsigned", "void", "volatile", "while",
    ],
};

static CPP_SPEC: LanguageSpec = LanguageSpec {
    name: "cpp",
    extensions: &[".cc", ".cpp", ".cxx", ".c++", ".hpp", ".hh", ".hxx", ".h++", ".ipp", ".tpp", ".inl"],
    shared_extensions: &[".h"],
    lexical: Lexical::C(CStyle::PLAIN),
    test_patterns: TEST_PATTERNS,
    keywords: &[
        "alignas",
        "alignof",
        "auto",
        "bool",
        "break",
        "case",
        "catch",
        "char",
        "char16_t",
        "char32_t",
        "char8_t",
        "class",
        "const",
        "const_cast",
        "consteval",
        "constexpr",
        "constinit",
        "continue",
        "decltype",
        "default",
        "delete",
        "do",
        "double",
        "dynamic_cast",
        "else",
        "enum",
        "explicit",
        "export",
        "extern",
        "false",
        "float",
        "for",
        "friend",
        "goto",
        "if",
        "inline",
        "int",
        "long",
        "mutable",
        "namespace",
        "new",
        "noexcept",
        "nullptr",
        "operator",
        "private",
        "protected",
        "public",
        "register",
        "reinterpret_cast",
        "return",
        "short",
        "signed",
        "sizeof",
        "static",
        "static_assert",
        "static_cast",
        "struct",
        "switch",
        "template",
        "this",
        "throw",
        "true",
        "try",
        "typedef",
        "typeid",
        "typename",
        "union",
        "unsigned",
        "using",
        "virtual",
        "void",
        "volatile",
        "wchar_t",
        "while",
    ],
};

/// The endings of headers, either language's.
const HEADERS: &[&str] = &[".h", ".hpp", ".hh", ".hxx", ".h++", ".ipp", ".tpp", ".inl"];

/// Every ending either frontend claims, for module names.
const ALL_EXTENSIONS: &[&str] =
    &[".c", ".h", ".cc", ".cpp", ".cxx", ".c++", ".hpp", ".hh", ".hxx", ".h++", ".ipp", ".tpp", ".inl"];

/// What the two frontends answer alike.
macro_rules! shared_answers {
    () => {
        fn source_module_name(&self, path: &str, _index: &FileIndex) -> String {
            module_of_path(path)
        }

        fn module_name_reads_file(&self) -> bool {
            false
        }

        fn directives(&self, text: &[u8]) -> Option<Directives> {
            Some(directives::directives(text))
        }

        /// One program-wide namespace: what the linker sees.
        fn namespace(&self, _path: &str, _index: &FileIndex) -> Option<String> {
            Some(String::new())
        }

        /// The program's one namespace spans every directory: a C++ namespace is reopened in any
        /// file, and a function moved to a file of another directory is the same symbol to the
        /// linker. A definition is new only if no file of the base defines it.
        fn namespace_spans_directories(&self) -> bool {
            true
        }

        fn is_header(&self, path: &str) -> Option<bool> {
            Some(HEADERS.iter().any(|e| path.ends_with(e)))
        }

        fn is_collected(&self, _path: &str, index: &FileIndex, id: DefId) -> bool {
            let d = index.definition(id);
            d.collected || (d.kind == DefKind::Function && d.parent.is_none() && d.name.starts_with("test_"))
        }

        /// `main`, destructors and operators (never defined, but a recovered tree may spell them).
        fn is_special(&self, def: &Definition) -> bool {
            def.name == "main" || def.name.starts_with('~') || def.name.starts_with("operator")
        }

        /// A type position names a type (or a macro standing for one); a file is named only by
        /// an `#include` (a bare `std_fs` is a namespace or a variable, never the header
        /// `std_fs.hpp`).
        fn use_can_reach(&self, def: DefKind, use_: UseKind) -> bool {
            match use_ {
                _ if def == DefKind::File => use_ == UseKind::Import,
                UseKind::Type | UseKind::Instantiation | UseKind::Base => def.is_type() || is_type_like(def),
                _ => true,
            }
        }

        /// A bare name is never a member: C has none, and C++'s implicit `this` is the class's
        /// own business.
        fn bare_names_reach_members(&self) -> bool {
            false
        }

        /// A macro is expanded only where its header is included.
        fn seen_only_through_imports(&self, def: DefKind) -> bool {
            def == DefKind::Macro
        }

        /// An include is no member of the including file.
        fn imports_are_members(&self) -> bool {
            false
        }

        /// A new file is named by its stem (`execute` for `src/execute.c`).
        fn module_definition(&self, path: &str, _index: &FileIndex) -> ModuleDefinition {
            let module = module_of_path(path);
            let name = module.rsplit('/').next().unwrap_or(&module).to_owned();
            ModuleDefinition { name, kind: DefKind::File, path: path.to_owned() }
        }
    };
}

impl Frontend for C {
    hintlens_tree::frontend!(
        spec: C_SPEC,
        grammar: tree_sitter_c::LANGUAGE,
        walk: walk::extract_c,
        reading: macro_lines::READING,
        outline: walk::outline_c
    );
    shared_answers!();

    fn qualified_name(&self, _path: &str, _index: &FileIndex, local_name: &str) -> String {
        local_name.to_owned()
    }
}

impl Frontend for Cpp {
    hintlens_tree::frontend!(
        spec: CPP_SPEC,
        grammar: tree_sitter_cpp::LANGUAGE,
        walk: walk::extract_cpp,
        reading: macro_lines::READING,
        outline: walk::outline_cpp
    );
    shared_answers!();

    /// A qualifier free where it stands is mostly a path (`T::m`, `ns::f`): a value's member is
    /// reached through a local (`obj.m`, `p->m`), which binds. (C has no paths: its `g.field` of
    /// a global `g` is a member by name.)
    fn qualifiers_name_owners(&self) -> bool {
        true
    }

    /// `fmt.v10.detail.write` → `fmt::v10::detail::write`.
    fn qualified_name(&self, _path: &str, _index: &FileIndex, local_name: &str) -> String {
        local_name.replace('.', "::")
    }

    /// Read from the namespaces the braces open and the qualifier before each name
    /// ([`definable`]). (C's names are the names themselves: any file spelling one may define it.)
    fn may_define(
        &self,
        text: &[u8],
        wanted: &[(&str, DefKind)],
        is_scope_macro: &mut dyn FnMut(&str) -> bool,
    ) -> bool {
        definable::may_define(text, wanted, is_scope_macro)
    }
}

fn is_type_like(def: DefKind) -> bool {
    matches!(def, DefKind::TypeAlias | DefKind::Macro | DefKind::Enum)
}

/// `src/jv_parse.c` → `src/jv_parse`; `include/fmt/core.h` → `include/fmt/core`.
pub fn module_of_path(path: &str) -> String {
    ALL_EXTENSIONS.iter().find_map(|e| path.strip_suffix(e)).unwrap_or(path).to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn endings_and_headers() {
        assert!(C.claims("src/jv.c") && C.claims("src/jv.h") && !C.claims("src/jv.cc"));
        assert!(Cpp.claims("src/os.cc") && Cpp.claims("include/fmt/core.hpp") && !Cpp.claims("include/fmt/core.h"));
        assert!(Cpp.claims_shared("include/fmt/core.h") && !C.claims_shared("include/fmt/core.h"));
        assert_eq!(C.is_header("src/jv.h"), Some(true));
        assert_eq!(Cpp.is_header("src/os.cc"), Some(false));
        let index = FileIndex::default();
        assert_eq!(C.module_name("src/jv.c", &index), "src/jv");
        assert_eq!(C.module_definition("src/execute.c", &index).name, "execute");
        assert_eq!(Cpp.qualified_name("include/fmt/core.h", &index, "fmt.v10.detail.write"), "fmt::v10::detail::write");
        assert_eq!(C.qualified_name("src/jv.c", &index, "jv_parser.flags"), "jv_parser.flags");
    }

    #[test]
    fn type_positions_name_types() {
        assert!(C.use_can_reach(DefKind::Struct, UseKind::Type));
        assert!(C.use_can_reach(DefKind::TypeAlias, UseKind::Type));
        assert!(!C.use_can_reach(DefKind::Function, UseKind::Type));
        assert!(C.use_can_reach(DefKind::Function, UseKind::Call));
    }
}
