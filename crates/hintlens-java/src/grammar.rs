//! The tree-sitter-java node kinds and fields the walker distinguishes, resolved once to ids.
//!
//! Matching a `u16` kind id through a lookup table costs one load per node, where comparing
//! `kind()` strings would cost a chain of string comparisons on every node of every file.

use hintlens_tree::KindTable;
use std::sync::OnceLock;
use tree_sitter::Language;

/// The node kinds the walker treats specially; everything else is [`K::Other`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum K {
    Other,
    Identifier,
    TypeIdentifier,
    ScopedIdentifier,
    ScopedTypeIdentifier,
    GenericType,
    AnnotatedType,
    TypeParameter,
    TypeParameters,
    TypeList,
    Superclass,
    SuperInterfaces,
    ExtendsInterfaces,
    ClassDeclaration,
    InterfaceDeclaration,
    EnumDeclaration,
    RecordDeclaration,
    AnnotationTypeDeclaration,
    MethodDeclaration,
    ConstructorDeclaration,
    CompactConstructorDeclaration,
    AnnotationTypeElementDeclaration,
    FieldDeclaration,
    ConstantDeclaration,
    VariableDeclarator,
    EnumConstant,
    FormalParameters,
    FormalParameter,
    SpreadParameter,
    Modifiers,
    LambdaExpression,
    ObjectCreationExpression,
    MethodInvocation,
    FieldAccess,
    MethodReference,
    Annotation,
    MarkerAnnotation,
    AnnotationArgumentList,
    ElementValuePair,
    AssignmentExpression,
    PackageDeclaration,
    ImportDeclaration,
    Asterisk,
    /// `module m { … }` and its `requires`/`exports`/`opens` directives: names of modules and
    /// packages, not of types.
    ModuleName,
    /// `uses`/`provides … with …` directives, which name service types.
    ServiceDirective,
    StringLiteral,
    /// The kinds that decide a string's error context.
    ThrowStatement,
    AssertStatement,
    ArgumentList,
    ParenthesizedExpression,
    BlockComment,
    LineComment,
    /// A declaration whose `name` field binds a local name rather than using one.
    LocalBinder,
    /// A node all of whose identifiers bind or label rather than use.
    AllBinder,
    RecordPattern,
    This,
    Super,
    /// The `new` keyword (`Foo::new`).
    New,
    Static,
    Final,
    /// The plain `=` operator.
    Assign,
    Error,
    LBrace,
    RBrace,
    Semicolon,
    /// The keywords that introduce a type declaration, seen loose inside an ERROR node.
    KwClass,
    KwInterface,
    KwEnum,
    KwRecord,
    KwAnnotation,
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
        let kinds = KindTable::new(&language, K::Other, K::Error, kind_for);
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

fn kind_for(name: &str, named: bool) -> K {
    if !named {
        return match name {
            "new" => K::New,
            "static" => K::Static,
            "final" => K::Final,
            "=" => K::Assign,
            "{" => K::LBrace,
            "}" => K::RBrace,
            ";" => K::Semicolon,
            "class" => K::KwClass,
            "interface" => K::KwInterface,
            "enum" => K::KwEnum,
            "record" => K::KwRecord,
            "@interface" => K::KwAnnotation,
            _ => K::Other,
        };
    }
    match name {
        "identifier" => K::Identifier,
        "type_identifier" => K::TypeIdentifier,
        "scoped_identifier" => K::ScopedIdentifier,
        "scoped_type_identifier" => K::ScopedTypeIdentifier,
        "generic_type" => K::GenericType,
        "annotated_type" => K::AnnotatedType,
        "type_parameter" => K::TypeParameter,
        "type_parameters" => K::TypeParameters,
        "type_list" => K::TypeList,
        "superclass" => K::Superclass,
        "super_interfaces" => K::SuperInterfaces,
        "extends_interfaces" => K::ExtendsInterfaces,
        "class_declaration" => K::ClassDeclaration,
        "interface_declaration" => K::InterfaceDeclaration,
        "enum_declaration" => K::EnumDeclaration,
        "record_declaration" => K::RecordDeclaration,
        "annotation_type_declaration" => K::AnnotationTypeDeclaration,
        "method_declaration" => K::MethodDeclaration,
        "constructor_declaration" => K::ConstructorDeclaration,
        "compact_constructor_declaration" => K::CompactConstructorDeclaration,
        "annotation_type_element_declaration" => K::AnnotationTypeElementDeclaration,
        "field_declaration" => K::FieldDeclaration,
        "constant_declaration" => K::ConstantDeclaration,
        "variable_declarator" => K::VariableDeclarator,
        "enum_constant" => K::EnumConstant,
        "formal_parameters" => K::FormalParameters,
        "formal_parameter" => K::FormalParameter,
        "spread_parameter" => K::SpreadParameter,
        "modifiers" => K::Modifiers,
        "lambda_expression" => K::LambdaExpression,
        "object_creation_expression" => K::ObjectCreationExpression,
        "method_invocation" => K::MethodInvocation,
        "field_access" => K::FieldAccess,
        "method_reference" => K::MethodReference,
        "annotation" => K::Annotation,
        "marker_annotation" => K::MarkerAnnotation,
        "annotation_argument_list" => K::AnnotationArgumentList,
        "element_value_pair" => K::ElementValuePair,
        "assignment_expression" => K::AssignmentExpression,
        "package_declaration" => K::PackageDeclaration,
        "import_declaration" => K::ImportDeclaration,
        "asterisk" => K::Asterisk,
        "module_declaration" | "requires_module_directive" | "exports_module_directive" | "opens_module_directive" => {
            K::ModuleName
        }
        "uses_module_directive" | "provides_module_directive" => K::ServiceDirective,
        "string_literal" => K::StringLiteral,
        "throw_statement" => K::ThrowStatement,
        "assert_statement" => K::AssertStatement,
        "argument_list" => K::ArgumentList,
        "parenthesized_expression" => K::ParenthesizedExpression,
        "block_comment" => K::BlockComment,
        "line_comment" => K::LineComment,
        "catch_formal_parameter" | "enhanced_for_statement" | "resource" | "instanceof_expression" => K::LocalBinder,
        "inferred_parameters"
        | "type_pattern"
        | "record_pattern_component"
        | "labeled_statement"
        | "break_statement"
        | "continue_statement"
        | "receiver_parameter" => K::AllBinder,
        "record_pattern" => K::RecordPattern,
        "this" => K::This,
        "super" => K::Super,
        _ => K::Other,
    }
}
