//! Numeric kind and field ids of the tree-sitter-python grammar, resolved once per process so
//! that the walk compares small integers instead of strings.

use std::num::NonZeroU16;
use std::sync::OnceLock;
use tree_sitter::{Language, Node};

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

/// Field ids the walk reads. 0 would mean "absent from the grammar", and every lookup by it
/// would find nothing; a test rules that out.
pub(crate) struct Fields {
    pub name: u16,
    pub alias: u16,
    pub parameters: u16,
    pub return_type: u16,
    pub type_parameters: u16,
    pub superclasses: u16,
    pub body: u16,
    pub definition: u16,
    pub left: u16,
    pub right: u16,
    pub r#type: u16,
    pub value: u16,
    pub function: u16,
    pub arguments: u16,
    pub object: u16,
    pub attribute: u16,
    pub module_name: u16,
}

pub(crate) struct Grammar {
    pub language: Language,
    kinds: Box<[Kind]>,
    pub fields: Fields,
}

impl Grammar {
    pub fn kind(&self, node: Node) -> Kind {
        self.kinds.get(usize::from(node.kind_id())).copied().unwrap_or(Kind::Other)
    }
}

pub(crate) fn grammar() -> &'static Grammar {
    static GRAMMAR: OnceLock<Grammar> = OnceLock::new();
    GRAMMAR.get_or_init(|| {
        let language: Language = tree_sitter_python::LANGUAGE.into();
        let kinds = (0..language.node_kind_count())
            .map(|id| {
                let id = id as u16;
                if !language.node_kind_is_named(id) {
                    return Kind::Anonymous;
                }
                let name = language.node_kind_for_id(id);
                KINDS.iter().find(|(known, _)| Some(*known) == name).map_or(Kind::Other, |&(_, kind)| kind)
            })
            .collect();
        let field = |name: &str| language.field_id_for_name(name).map_or(0, NonZeroU16::get);
        let fields = Fields {
            name: field("name"),
            alias: field("alias"),
            parameters: field("parameters"),
            return_type: field("return_type"),
            type_parameters: field("type_parameters"),
            superclasses: field("superclasses"),
            body: field("body"),
            definition: field("definition"),
            left: field("left"),
            right: field("right"),
            r#type: field("type"),
            value: field("value"),
            function: field("function"),
            arguments: field("arguments"),
            object: field("object"),
            attribute: field("attribute"),
            module_name: field("module_name"),
        };
        Grammar { language, kinds, fields }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_field_the_walk_reads_exists_in_the_grammar() {
        let f = &grammar().fields;
        let ids = [
            f.name,
            f.alias,
            f.parameters,
            f.return_type,
            f.type_parameters,
            f.superclasses,
            f.body,
            f.definition,
            f.left,
            f.right,
            f.r#type,
            f.value,
            f.function,
            f.arguments,
            f.object,
            f.attribute,
            f.module_name,
        ];
        assert!(ids.iter().all(|&id| id != 0));
    }

    #[test]
    fn every_kind_the_walk_reads_exists_in_the_grammar() {
        let g = grammar();
        let missing: Vec<&str> = KINDS
            .iter()
            .filter(|&&(name, kind)| {
                let id = g.language.id_for_node_kind(name, true);
                id == 0 || g.kinds.get(usize::from(id)) != Some(&kind)
            })
            .map(|(name, _)| *name)
            .collect();
        assert!(missing.is_empty(), "unknown kinds: {missing:?}");
    }
}
