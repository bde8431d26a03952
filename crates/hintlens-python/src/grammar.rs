//! Numeric kind and field ids of the tree-sitter-python grammar, resolved once per process so
//! that the walk compares small integers instead of strings.

use hintlens_tree::{Ids, KindTable};
use std::sync::OnceLock;
use tree_sitter::Language;

/// The node kinds the walk treats specially; every other named kind is `Other`, every unnamed
/// one (punctuation, keywords) `Anonymous`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// Punctuation and keywords.
    Anonymous,
    Other,
    Comment,
    LineContinuation,
    Identifier,
    Attribute,
    Call,
    ArgumentList,
    KeywordArgument,
    Subscript,
    ExpressionStatement,
    Assignment,
    FunctionDefinition,
    ClassDefinition,
    DecoratedDefinition,
    Decorator,
    ForStatement,
    ExceptClause,
    AsPattern,
    AsPatternTarget,
    CaseClause,
    CasePattern,
    ClassPattern,
    KeywordPattern,
    DottedName,
    SplatPattern,
    ImportStatement,
    ImportFromStatement,
    FutureImportStatement,
    AliasedImport,
    RelativeImport,
    ImportPrefix,
    WildcardImport,
    GlobalStatement,
    NonlocalStatement,
    TypeAliasStatement,
    Lambda,
    NamedExpression,
    ForInClause,
    String,
    ConcatenatedString,
    StringStart,
    StringContent,
    Interpolation,
    Type,
    GenericType,
    TypeParameter,
    UnionType,
    ConstrainedType,
    MemberType,
    SplatType,
    BinaryOperator,
    List,
    Tuple,
    ParenthesizedExpression,
    RaiseStatement,
    ListSplat,
    DefaultParameter,
    TypedParameter,
    TypedDefaultParameter,
    ListSplatPattern,
    DictionarySplatPattern,
    TuplePattern,
    ListPattern,
    PatternList,
    ListComprehension,
    SetComprehension,
    DictionaryComprehension,
    GeneratorExpression,
    AugmentedAssignment,
}

/// The grammar's name of every kind in [`Kind`] but `Other`.
const KINDS: [(&str, Kind); 68] = [
    ("comment", Kind::Comment),
    ("line_continuation", Kind::LineContinuation),
    ("identifier", Kind::Identifier),
    ("attribute", Kind::Attribute),
    ("call", Kind::Call),
    ("argument_list", Kind::ArgumentList),
    ("keyword_argument", Kind::KeywordArgument),
    ("subscript", Kind::Subscript),
    ("expression_statement", Kind::ExpressionStatement),
    ("assignment", Kind::Assignment),
    ("function_definition", Kind::FunctionDefinition),
    ("class_definition", Kind::ClassDefinition),
    ("decorated_definition", Kind::DecoratedDefinition),
    ("decorator", Kind::Decorator),
    ("for_statement", Kind::ForStatement),
    ("except_clause", Kind::ExceptClause),
    ("as_pattern", Kind::AsPattern),
    ("as_pattern_target", Kind::AsPatternTarget),
    ("case_clause", Kind::CaseClause),
    ("case_pattern", Kind::CasePattern),
    ("class_pattern", Kind::ClassPattern),
    ("keyword_pattern", Kind::KeywordPattern),
    ("dotted_name", Kind::DottedName),
    ("splat_pattern", Kind::SplatPattern),
    ("import_statement", Kind::ImportStatement),
    ("import_from_statement", Kind::ImportFromStatement),
    ("future_import_statement", Kind::FutureImportStatement),
    ("aliased_import", Kind::AliasedImport),
    ("relative_import", Kind::RelativeImport),
    ("import_prefix", Kind::ImportPrefix),
    ("wildcard_import", Kind::WildcardImport),
    ("global_statement", Kind::GlobalStatement),
    ("nonlocal_statement", Kind::NonlocalStatement),
    ("type_alias_statement", Kind::TypeAliasStatement),
    ("lambda", Kind::Lambda),
    ("named_expression", Kind::NamedExpression),
    ("for_in_clause", Kind::ForInClause),
    ("string", Kind::String),
    ("concatenated_string", Kind::ConcatenatedString),
    ("string_start", Kind::StringStart),
    ("string_content", Kind::StringContent),
    ("interpolation", Kind::Interpolation),
    ("type", Kind::Type),
    ("generic_type", Kind::GenericType),
    ("type_parameter", Kind::TypeParameter),
    ("union_type", Kind::UnionType),
    ("constrained_type", Kind::ConstrainedType),
    ("member_type", Kind::MemberType),
    ("splat_type", Kind::SplatType),
    ("binary_operator", Kind::BinaryOperator),
    ("list", Kind::List),
    ("tuple", Kind::Tuple),
    ("parenthesized_expression", Kind::ParenthesizedExpression),
    ("raise_statement", Kind::RaiseStatement),
    ("list_splat", Kind::ListSplat),
    ("default_parameter", Kind::DefaultParameter),
    ("typed_parameter", Kind::TypedParameter),
    ("typed_default_parameter", Kind::TypedDefaultParameter),
    ("list_splat_pattern", Kind::ListSplatPattern),
    ("dictionary_splat_pattern", Kind::DictionarySplatPattern),
    ("tuple_pattern", Kind::TuplePattern),
    ("list_pattern", Kind::ListPattern),
    ("pattern_list", Kind::PatternList),
    ("list_comprehension", Kind::ListComprehension),
    ("set_comprehension", Kind::SetComprehension),
    ("dictionary_comprehension", Kind::DictionaryComprehension),
    ("generator_expression", Kind::GeneratorExpression),
    ("augmented_assignment", Kind::AugmentedAssignment),
];

hintlens_tree::grammar_ids! {
    /// Field ids the walk reads (one the grammar lacks panics as the table is built).
    pub(crate) struct Fields {
        kinds {}
        fields {
            name = "name",
            alias = "alias",
            parameters = "parameters",
            return_type = "return_type",
            type_parameters = "type_parameters",
            superclasses = "superclasses",
            body = "body",
            definition = "definition",
            left = "left",
            right = "right",
            r#type = "type",
            value = "value",
            function = "function",
            arguments = "arguments",
            object = "object",
            attribute = "attribute",
            module_name = "module_name",
        }
    }
}

pub(crate) struct Grammar {
    pub language: Language,
    pub kinds: KindTable<Kind>,
    pub fields: Fields,
}

pub(crate) fn grammar() -> &'static Grammar {
    static GRAMMAR: OnceLock<Grammar> = OnceLock::new();
    GRAMMAR.get_or_init(|| {
        let language: Language = tree_sitter_python::LANGUAGE.into();
        let kinds = KindTable::new(&language, Kind::Other, Kind::Other, |name, named| {
            if !named {
                return Kind::Anonymous;
            }
            KINDS.iter().find(|(known, _)| *known == name).map_or(Kind::Other, |&(_, kind)| kind)
        });
        let fields = Fields::resolve(&Ids::new(&language, "tree-sitter-python"));
        Grammar { language, kinds, fields }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_the_walk_reads_exists_in_the_grammar() {
        let g = grammar();
        let missing: Vec<&str> = KINDS
            .iter()
            .filter(|&&(name, kind)| {
                let id = g.language.id_for_node_kind(name, true);
                id == 0 || g.kinds.of_id(id) != kind
            })
            .map(|(name, _)| *name)
            .collect();
        assert!(missing.is_empty(), "unknown kinds: {missing:?}");
    }
}
