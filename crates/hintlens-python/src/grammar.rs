//! Node kinds and field ids of the tree-sitter-python grammar, resolved once per process so
//! that the walk compares small integers instead of strings.

use hintlens_tree::{Ids, KindTable};
use std::sync::OnceLock;
use tree_sitter::Language;

hintlens_tree::node_kinds! {
    /// The node kinds the walk treats specially; every other kind, punctuation and keywords
    /// included, is `Other`.
    pub(crate) enum Kind {
        Comment = "comment",
        LineContinuation = "line_continuation",
        Identifier = "identifier",
        Attribute = "attribute",
        Call = "call",
        ArgumentList = "argument_list",
        KeywordArgument = "keyword_argument",
        Subscript = "subscript",
        ExpressionStatement = "expression_statement",
        Assignment = "assignment",
        FunctionDefinition = "function_definition",
        ClassDefinition = "class_definition",
        DecoratedDefinition = "decorated_definition",
        Decorator = "decorator",
        ForStatement = "for_statement",
        ExceptClause = "except_clause",
        AsPattern = "as_pattern",
        AsPatternTarget = "as_pattern_target",
        CaseClause = "case_clause",
        CasePattern = "case_pattern",
        ClassPattern = "class_pattern",
        KeywordPattern = "keyword_pattern",
        DottedName = "dotted_name",
        SplatPattern = "splat_pattern",
        ImportStatement = "import_statement",
        ImportFromStatement = "import_from_statement",
        FutureImportStatement = "future_import_statement",
        AliasedImport = "aliased_import",
        RelativeImport = "relative_import",
        ImportPrefix = "import_prefix",
        WildcardImport = "wildcard_import",
        GlobalStatement = "global_statement",
        NonlocalStatement = "nonlocal_statement",
        TypeAliasStatement = "type_alias_statement",
        Lambda = "lambda",
        NamedExpression = "named_expression",
        ForInClause = "for_in_clause",
        String = "string",
        ConcatenatedString = "concatenated_string",
        StringStart = "string_start",
        StringContent = "string_content",
        Interpolation = "interpolation",
        Type = "type",
        GenericType = "generic_type",
        TypeParameter = "type_parameter",
        UnionType = "union_type",
        ConstrainedType = "constrained_type",
        MemberType = "member_type",
        SplatType = "splat_type",
        BinaryOperator = "binary_operator",
        List = "list",
        Tuple = "tuple",
        ParenthesizedExpression = "parenthesized_expression",
        RaiseStatement = "raise_statement",
        ListSplat = "list_splat",
        DefaultParameter = "default_parameter",
        TypedParameter = "typed_parameter",
        TypedDefaultParameter = "typed_default_parameter",
        ListSplatPattern = "list_splat_pattern",
        DictionarySplatPattern = "dictionary_splat_pattern",
        TuplePattern = "tuple_pattern",
        ListPattern = "list_pattern",
        PatternList = "pattern_list",
        ListComprehension = "list_comprehension",
        SetComprehension = "set_comprehension",
        DictionaryComprehension = "dictionary_comprehension",
        GeneratorExpression = "generator_expression",
        AugmentedAssignment = "augmented_assignment",
    }
}

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
        // Strict ids: a kind or field the grammar lacks panics here, at the first parse.
        let ids = Ids::new(&language, "tree-sitter-python");
        let (kinds, fields) = (Kind::table(&ids), Fields::resolve(&ids));
        Grammar { language, kinds, fields }
    })
}
