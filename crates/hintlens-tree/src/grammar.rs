//! A grammar's node kinds and fields as the small integers a walk compares, resolved once by
//! name: a walk never matches on kind names at run time, and a name the grammar lacks is
//! caught when the table is built (or, where a frontend serves several grammars that differ,
//! is id 0, which no node has).

use std::num::NonZeroU16;
use tree_sitter::{Language, Node};

/// Looks up a grammar's kind and field ids by name.
pub struct Ids<'l> {
    language: &'l Language,
    /// The grammar's name, for the message when a name is missing; `None`: a missing name is
    /// id 0.
    strict: Option<&'static str>,
}

impl<'l> Ids<'l> {
    /// Ids of a grammar that has every name asked for: a missing one panics, since a walk
    /// reading a kind its grammar lacks is a bug to catch at the first parse (each frontend's
    /// tests build its tables).
    pub fn new(language: &'l Language, grammar: &'static str) -> Ids<'l> {
        Ids { language, strict: Some(grammar) }
    }

    /// Ids of one of several grammars a walk serves (TypeScript's, TSX's, JavaScript's): a
    /// name this one lacks is id 0, which no node or field has, so comparing with it is false.
    pub fn lenient(language: &'l Language) -> Ids<'l> {
        Ids { language, strict: None }
    }

    /// The grammar the ids are looked up in.
    pub fn language(&self) -> &'l Language {
        self.language
    }

    /// The id of the named node kind `name`.
    pub fn kind(&self, name: &str) -> u16 {
        let id = self.language.id_for_node_kind(name, true);
        if let Some(grammar) = self.strict {
            assert_ne!(id, 0, "{grammar} has no node kind `{name}`");
        }
        id
    }

    /// The id of the anonymous token `name` (a keyword or punctuation: `new`, `{`).
    pub fn token(&self, name: &str) -> u16 {
        let id = self.language.id_for_node_kind(name, false);
        if let Some(grammar) = self.strict {
            assert_ne!(id, 0, "{grammar} has no token `{name}`");
        }
        id
    }

    /// The id of the field `name`.
    pub fn field(&self, name: &str) -> u16 {
        let id = self.language.field_id_for_name(name).map_or(0, NonZeroU16::get);
        if let Some(grammar) = self.strict {
            assert_ne!(id, 0, "{grammar} has no field `{name}`");
        }
        id
    }
}

/// A table of a grammar's kind and field ids, as a struct of `u16` fields the walk reads
/// (`g.identifier`, `g.f_name`), resolved by name with [`Ids`]:
///
/// ```ignore
/// hintlens_tree::grammar_ids! {
///     pub(crate) struct Grammar {
///         kinds { identifier = "identifier", call = "call_expression" }
///         fields { f_name = "name" }
///     }
/// }
/// let g = Grammar::resolve(&Ids::new(&language, "tree-sitter-go"));
/// ```
///
/// With `struct Grammar as grammar(tree_sitter_go::LANGUAGE, "tree-sitter-go") { … }` it also
/// defines `fn grammar() -> &'static Grammar`, the table resolved once per process (strictly).
#[macro_export]
macro_rules! grammar_ids {
    ($(#[$meta:meta])* $vis:vis struct $name:ident as $accessor:ident($language:expr, $grammar:literal) {
        kinds { $($kind:ident = $kname:literal),* $(,)? }
        fields { $($field:ident = $fname:literal),* $(,)? }
    }) => {
        $crate::grammar_ids! {
            $(#[$meta])*
            $vis struct $name {
                kinds { $($kind = $kname),* }
                fields { $($field = $fname),* }
            }
        }

        $vis fn $accessor() -> &'static $name {
            static GRAMMAR: std::sync::OnceLock<$name> = std::sync::OnceLock::new();
            GRAMMAR.get_or_init(|| $name::resolve(&$crate::Ids::new(&$language.into(), $grammar)))
        }
    };
    ($(#[$meta:meta])* $vis:vis struct $name:ident {
        kinds { $($kind:ident = $kname:literal),* $(,)? }
        fields { $($field:ident = $fname:literal),* $(,)? }
    }) => {
        $(#[$meta])*
        $vis struct $name {
            $(pub $kind: u16,)*
            $(pub $field: u16,)*
        }

        impl $name {
            /// The names of the kinds the table holds, in its order.
            #[allow(dead_code)]
            $vis const KIND_NAMES: &'static [&'static str] = &[$($kname),*];

            $vis fn resolve(ids: &$crate::Ids) -> $name {
                $name { $($kind: ids.kind($kname),)* $($field: ids.field($fname),)* }
            }
        }
    };
}

/// The node kinds a walk tells apart, as an enumeration to `match` on, with the [`KindTable`]
/// that maps a grammar's kinds onto it: how a frontend says what its node kinds mean.
///
/// ```ignore
/// hintlens_tree::node_kinds! {
///     enum K as kinds(tree_sitter_go::LANGUAGE, "tree-sitter-go") {
///         Comment = "comment",
///         /// Blocks and the statements whose headers are blocks.
///         Block = "block" | "if_statement" | "for_statement",
///     }
///     // Optional: anonymous tokens (keywords, punctuation) the walk also tells apart.
///     tokens {
///         LBrace = "{",
///     }
/// }
/// match kinds().of(node) { K::Comment => {} K::Block => …, K::Other | K::Error => … }
/// ```
///
/// The enumeration has two more variants: `Other`, every named kind the walk does not list and
/// every anonymous one it does not list under `tokens`, and `Error`, ERROR nodes. `K::table(&ids)`
/// maps `ids`' grammar (strict [`Ids`]: a listed name the grammar lacks panics; lenient: it is
/// simply never seen); `K::NAMES` and `K::TOKENS` list the names; `as kinds(LANGUAGE,
/// "grammar")` also defines `fn kinds() -> &'static KindTable<K>`, the grammar's table resolved
/// once per process (strictly).
#[macro_export]
macro_rules! node_kinds {
    ($(#[$meta:meta])* $vis:vis enum $name:ident as $accessor:ident($language:expr, $grammar:literal) {
        $($(#[$vmeta:meta])* $variant:ident = $($kname:literal)|+),* $(,)?
    }
    $(tokens {
        $($(#[$tmeta:meta])* $tvariant:ident = $($tname:literal)|+),* $(,)?
    })?) => {
        $crate::node_kinds! {
            $(#[$meta])*
            $vis enum $name { $($(#[$vmeta])* $variant = $($kname)|+),* }
            $(tokens { $($(#[$tmeta])* $tvariant = $($tname)|+),* })?
        }

        $vis fn $accessor() -> &'static $crate::KindTable<$name> {
            static KINDS: std::sync::OnceLock<$crate::KindTable<$name>> = std::sync::OnceLock::new();
            KINDS.get_or_init(|| $name::table(&$crate::Ids::new(&$language.into(), $grammar)))
        }
    };
    ($(#[$meta:meta])* $vis:vis enum $name:ident {
        $($(#[$vmeta:meta])* $variant:ident = $($kname:literal)|+),* $(,)?
    }
    $(tokens {
        $($(#[$tmeta:meta])* $tvariant:ident = $($tname:literal)|+),* $(,)?
    })?) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        $vis enum $name {
            /// A kind the walk does not tell apart (and every anonymous one it does not list).
            Other,
            /// An ERROR node.
            Error,
            $($(#[$vmeta])* $variant,)*
            $($($(#[$tmeta])* $tvariant,)*)?
        }

        impl $name {
            /// The named kinds the enumeration lists, in its order.
            #[allow(dead_code)]
            $vis const NAMES: &'static [&'static str] = &[$($($kname),+),*];

            /// The anonymous tokens the enumeration lists, in its order.
            #[allow(dead_code)]
            $vis const TOKENS: &'static [&'static str] = &[$($($($tname),+),*)?];

            /// The kinds of `ids`' grammar mapped onto the enumeration.
            $vis fn table(ids: &$crate::Ids) -> $crate::KindTable<$name> {
                for name in $name::NAMES {
                    ids.kind(name);
                }
                for token in $name::TOKENS {
                    ids.token(token);
                }
                $crate::KindTable::new(ids.language(), $name::Other, $name::Error, |name, named| match name {
                    $($($kname)|+ if named => $name::$variant,)*
                    $($($($tname)|+ if !named => $name::$tvariant,)*)?
                    _ => $name::Other,
                })
            }
        }
    };
}

/// Each node kind of a grammar mapped to a frontend's own enumeration of the kinds it tells
/// apart, so that a walk matches on `K::Identifier` at the cost of one load per node.
pub struct KindTable<K: Copy> {
    kinds: Box<[K]>,
    other: K,
    error: K,
}

/// The id of ERROR nodes, outside every grammar's own kinds.
const ERROR: u16 = u16::MAX;

impl<K: Copy> KindTable<K> {
    /// `classify(name, named)` gives each kind of `language` (by its name and whether it is
    /// named) its value; ERROR nodes are `error`, any other id outside the grammar's kinds
    /// `other`.
    pub fn new(language: &Language, other: K, error: K, classify: impl Fn(&str, bool) -> K) -> KindTable<K> {
        let kinds = (0..language.node_kind_count())
            .map(|id| {
                let id = id as u16;
                match language.node_kind_for_id(id) {
                    Some(name) => classify(name, language.node_kind_is_named(id)),
                    None => other,
                }
            })
            .collect();
        KindTable { kinds, other, error }
    }

    #[inline]
    pub fn of(&self, node: Node) -> K {
        self.of_id(node.kind_id())
    }

    #[inline]
    pub fn of_id(&self, id: u16) -> K {
        match self.kinds.get(usize::from(id)) {
            Some(&kind) => kind,
            None if id == ERROR => self.error,
            None => self.other,
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::{Ids, preorder};
    use tree_sitter::{Language, Parser};

    crate::node_kinds! {
        enum K {
            Identifier = "identifier",
            Definition = "function_definition" | "class_definition",
            Missing = "no_such_kind",
        }
        tokens {
            Colon = ":",
        }
    }

    fn python() -> Language {
        tree_sitter_python::LANGUAGE.into()
    }

    #[test]
    fn each_listed_name_maps_to_its_variant_and_the_rest_to_other_or_error() {
        let language = python();
        let kinds = K::table(&Ids::lenient(&language));
        let mut parser = Parser::new();
        parser.set_language(&language).unwrap();
        let tree = parser.parse("def f(): pass\nclass C: pass\n)", None).unwrap();
        let mut seen = Vec::new();
        preorder(tree.root_node(), |n| {
            seen.push((n.kind().to_owned(), kinds.of(n)));
            true
        });
        let of = |kind: &str| seen.iter().find(|(k, _)| k == kind).map(|(_, v)| *v);
        assert_eq!(of("function_definition"), Some(K::Definition));
        assert_eq!(of("class_definition"), Some(K::Definition));
        assert_eq!(of("identifier"), Some(K::Identifier));
        // An anonymous token listed (`:`), one not listed (`def`), and a named kind not listed.
        assert_eq!(of(":"), Some(K::Colon));
        assert_eq!(of("def"), Some(K::Other));
        assert_eq!(of("module"), Some(K::Other));
        assert_eq!(of("ERROR"), Some(K::Error));
        assert_eq!(K::NAMES, ["identifier", "function_definition", "class_definition", "no_such_kind"]);
        assert_eq!(K::TOKENS, [":"]);
    }

    #[test]
    #[should_panic(expected = "tree-sitter-python has no node kind `no_such_kind`")]
    fn a_strict_table_refuses_a_name_its_grammar_lacks() {
        K::table(&Ids::new(&python(), "tree-sitter-python"));
    }
}
