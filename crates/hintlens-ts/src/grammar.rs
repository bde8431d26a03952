//! Numeric kind and field ids of the three grammars, resolved once per process. A kind one
//! grammar lacks (`interface_declaration` in JavaScript) gets id 0, which no node of a parsed
//! tree has, so comparisons with it are simply false.

use crate::Dialect;
use hintlens_tree::Ids;
use std::sync::OnceLock;

hintlens_tree::grammar_ids! {
    pub(crate) struct Grammar {
        kinds {
            comment = "comment",
            identifier = "identifier",
            property_identifier = "property_identifier",
            private_property_identifier = "private_property_identifier",
            shorthand_property_identifier = "shorthand_property_identifier",
            shorthand_property_identifier_pattern = "shorthand_property_identifier_pattern",
            type_identifier = "type_identifier",
            nested_type_identifier = "nested_type_identifier",
            generic_type = "generic_type",
            predefined_type = "predefined_type",
            this = "this",
            import_kw = "import",
            import_statement = "import_statement",
            import_clause = "import_clause",
            named_imports = "named_imports",
            import_specifier = "import_specifier",
            namespace_import = "namespace_import",
            export_statement = "export_statement",
            export_clause = "export_clause",
            export_specifier = "export_specifier",
            namespace_export = "namespace_export",
            function_declaration = "function_declaration",
            generator_function_declaration = "generator_function_declaration",
            function_signature = "function_signature",
            function_expression = "function_expression",
            generator_function = "generator_function",
            arrow_function = "arrow_function",
            class_declaration = "class_declaration",
            abstract_class_declaration = "abstract_class_declaration",
            class = "class",
            class_body = "class_body",
            class_heritage = "class_heritage",
            extends_clause = "extends_clause",
            implements_clause = "implements_clause",
            method_definition = "method_definition",
            method_signature = "method_signature",
            abstract_method_signature = "abstract_method_signature",
            public_field_definition = "public_field_definition",
            field_definition = "field_definition",
            interface_declaration = "interface_declaration",
            object_type = "object_type",
            property_signature = "property_signature",
            type_alias_declaration = "type_alias_declaration",
            enum_declaration = "enum_declaration",
            enum_assignment = "enum_assignment",
            internal_module = "internal_module",
            module = "module",
            ambient_declaration = "ambient_declaration",
            lexical_declaration = "lexical_declaration",
            variable_declaration = "variable_declaration",
            variable_declarator = "variable_declarator",
            expression_statement = "expression_statement",
            assignment_expression = "assignment_expression",
            augmented_assignment_expression = "augmented_assignment_expression",
            member_expression = "member_expression",
            subscript_expression = "subscript_expression",
            call_expression = "call_expression",
            new_expression = "new_expression",
            object = "object",
            pair = "pair",
            formal_parameters = "formal_parameters",
            required_parameter = "required_parameter",
            optional_parameter = "optional_parameter",
            accessibility_modifier = "accessibility_modifier",
            object_pattern = "object_pattern",
            array_pattern = "array_pattern",
            pair_pattern = "pair_pattern",
            rest_pattern = "rest_pattern",
            assignment_pattern = "assignment_pattern",
            object_assignment_pattern = "object_assignment_pattern",
            decorator = "decorator",
            string = "string",
            template_string = "template_string",
            template_substitution = "template_substitution",
            statement_block = "statement_block",
            for_statement = "for_statement",
            for_in_statement = "for_in_statement",
            catch_clause = "catch_clause",
            jsx_opening_element = "jsx_opening_element",
            jsx_self_closing_element = "jsx_self_closing_element",
            jsx_closing_element = "jsx_closing_element",
            jsx_attribute = "jsx_attribute",
            jsx_text = "jsx_text",
            type_annotation = "type_annotation",
            type_parameter = "type_parameter",
            type_arguments = "type_arguments",
            labeled_statement = "labeled_statement",
            statement_identifier = "statement_identifier",
            computed_property_name = "computed_property_name",
            number = "number",
        }
        fields {
            f_name = "name",
            f_body = "body",
            f_parameters = "parameters",
            f_parameter = "parameter",
            f_return_type = "return_type",
            f_type_parameters = "type_parameters",
            f_value = "value",
            f_left = "left",
            f_right = "right",
            f_object = "object",
            f_property = "property",
            f_function = "function",
            f_arguments = "arguments",
            f_constructor = "constructor",
            f_source = "source",
            f_key = "key",
            f_alias = "alias",
            f_declaration = "declaration",
            f_type = "type",
            f_pattern = "pattern",
            f_kind = "kind",
            f_module = "module",
            f_type_arguments = "type_arguments",
        }
    }
}

pub(crate) fn grammar(dialect: Dialect) -> &'static Grammar {
    static GRAMMARS: OnceLock<[Grammar; 3]> = OnceLock::new();
    let grammars = GRAMMARS.get_or_init(|| {
        [Dialect::TypeScript, Dialect::Tsx, Dialect::JavaScript].map(|d| Grammar::resolve(&Ids::lenient(&d.language())))
    });
    &grammars[match dialect {
        Dialect::TypeScript => 0,
        Dialect::Tsx => 1,
        Dialect::JavaScript => 2,
    }]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shared_kinds_exist_in_every_grammar() {
        // Kinds of TypeScript alone (types, interfaces, enums…) are 0 in JavaScript; the
        // expressions and statements the walk reads must exist in all three.
        let shared = ["identifier", "member_expression", "call_expression", "class_declaration", "string", "object"];
        for dialect in [Dialect::TypeScript, Dialect::Tsx, Dialect::JavaScript] {
            let language = dialect.language();
            for kind in shared {
                assert_ne!(language.id_for_node_kind(kind, true), 0, "{dialect:?} lacks {kind}");
            }
        }
        let ts = Dialect::TypeScript.language();
        let missing: Vec<&str> = Grammar::KIND_NAMES
            .iter()
            .copied()
            .filter(|k| ts.id_for_node_kind(k, true) == 0 && !k.starts_with("jsx_"))
            .collect();
        assert!(missing.iter().all(|k| ["field_definition"].contains(k)), "TypeScript lacks {missing:?}");
    }
}
