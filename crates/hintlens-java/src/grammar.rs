//! The tree-sitter-java node kinds and fields the walker distinguishes, resolved once to ids.
//!
//! Matching a `u16` kind id through a lookup table costs one load per node, where comparing
//! `kind()` strings would cost a chain of string comparisons on every node of every file.

use hintlens_tree::{Ids, KindTable};
use std::sync::OnceLock;
use tree_sitter::Language;

hintlens_tree::node_kinds! {
    /// The node kinds the walker treats specially; everything else is [`K::Other`].
    pub(crate) enum K {
        Identifier = "identifier",
        TypeIdentifier = "type_identifier",
        ScopedIdentifier = "scoped_identifier",
        ScopedTypeIdentifier = "scoped_type_identifier",
        GenericType = "generic_type",
        AnnotatedType = "annotated_type",
        TypeParameter = "type_parameter",
        TypeParameters = "type_parameters",
        TypeList = "type_list",
        Superclass = "superclass",
        SuperInterfaces = "super_interfaces",
        ExtendsInterfaces = "extends_interfaces",
        ClassDeclaration = "class_declaration",
        InterfaceDeclaration = "interface_declaration",
        EnumDeclaration = "enum_declaration",
        RecordDeclaration = "record_declaration",
        AnnotationTypeDeclaration = "annotation_type_declaration",
        MethodDeclaration = "method_declaration",
        ConstructorDeclaration = "constructor_declaration",
        CompactConstructorDeclaration = "compact_constructor_declaration",
        AnnotationTypeElementDeclaration = "annotation_type_element_declaration",
        FieldDeclaration = "field_declaration",
        ConstantDeclaration = "constant_declaration",
        VariableDeclarator = "variable_declarator",
        EnumConstant = "enum_constant",
        FormalParameters = "formal_parameters",
        FormalParameter = "formal_parameter",
        SpreadParameter = "spread_parameter",
        Modifiers = "modifiers",
        LambdaExpression = "lambda_expression",
        ObjectCreationExpression = "object_creation_expression",
        MethodInvocation = "method_invocation",
        FieldAccess = "field_access",
        MethodReference = "method_reference",
        Annotation = "annotation",
        MarkerAnnotation = "marker_annotation",
        AnnotationArgumentList = "annotation_argument_list",
        ElementValuePair = "element_value_pair",
        AssignmentExpression = "assignment_expression",
        PackageDeclaration = "package_declaration",
        ImportDeclaration = "import_declaration",
        Asterisk = "asterisk",
        /// `module m { … }` and its `requires`/`exports`/`opens` directives: names of modules and
        /// packages, not of types.
        ModuleName = "module_declaration" | "requires_module_directive" | "exports_module_directive" | "opens_module_directive",
        /// `uses`/`provides … with …` directives, which name service types.
        ServiceDirective = "uses_module_directive" | "provides_module_directive",
        StringLiteral = "string_literal",
        /// The kinds that decide a string's error context.
        ThrowStatement = "throw_statement",
        AssertStatement = "assert_statement",
        ArgumentList = "argument_list",
        ParenthesizedExpression = "parenthesized_expression",
        BlockComment = "block_comment",
        LineComment = "line_comment",
        /// A declaration whose `name` field binds a local name rather than using one.
        LocalBinder = "catch_formal_parameter" | "enhanced_for_statement" | "resource" | "instanceof_expression",
        /// A node all of whose identifiers bind or label rather than use.
        AllBinder = "inferred_parameters" | "type_pattern" | "record_pattern_component" | "labeled_statement" | "break_statement" | "continue_statement" | "receiver_parameter",
        RecordPattern = "record_pattern",
        This = "this",
        Super = "super",
    }
    tokens {
        /// The `new` keyword (`Foo::new`).
        New = "new",
        Static = "static",
        Final = "final",
        /// The plain `=` operator.
        Assign = "=",
        LBrace = "{",
        RBrace = "}",
        Semicolon = ";",
        /// The keywords that introduce a type declaration, seen loose inside an ERROR node.
        KwClass = "class",
        KwInterface = "interface",
        KwEnum = "enum",
        KwRecord = "record",
        KwAnnotation = "@interface",
    }
}

pub(crate) struct Grammar {
    pub language: Language,
    pub kinds: KindTable<K>,
    pub name: u16,
    pub object: u16,
    pub arguments: u16,
    pub field: u16,
    pub key: u16,
    pub left: u16,
    pub operator: u16,
    pub parameters: u16,
    pub body: u16,
    pub scope: u16,
    pub r#type: u16,
    pub dimensions: u16,
}

pub(crate) fn grammar() -> &'static Grammar {
    static GRAMMAR: OnceLock<Grammar> = OnceLock::new();
    GRAMMAR.get_or_init(|| {
        let language = Language::new(tree_sitter_java::LANGUAGE);
        // Several ids can share a name (aliases such as `type_identifier`); mapping every id
        // by name covers them all.
        let kinds = K::table(&Ids::new(&language, "tree-sitter-java"));
        let field = |name: &str| language.field_id_for_name(name).map_or(0, std::num::NonZeroU16::get);
        Grammar {
            kinds,
            name: field("name"),
            object: field("object"),
            arguments: field("arguments"),
            field: field("field"),
            key: field("key"),
            left: field("left"),
            operator: field("operator"),
            parameters: field("parameters"),
            body: field("body"),
            scope: field("scope"),
            r#type: field("type"),
            dimensions: field("dimensions"),
            language,
        }
    })
}
