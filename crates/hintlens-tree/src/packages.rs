//! Names in languages whose definitions live in packages declared by each file (Java's
//! `package`, PHP's `namespace`) and whose files are named after the type they hold: the
//! module a file is, the qualified name of what it defines, and modifiers read from
//! signatures.

use hintlens_syntax::{Definition, FileIndex};

/// `Name` for `…/Name.ext`: the type the file is named after (`extension` with its dot).
pub fn file_stem<'p>(path: &'p str, extension: &str) -> &'p str {
    let file = path.rsplit('/').next().unwrap_or(path);
    file.strip_suffix(extension).unwrap_or(file)
}

/// `name` inside the file's package ([`FileIndex::package`]): `com.acme.Name`, or `name` alone
/// where the file declares none.
pub fn in_package(index: &FileIndex, name: &str) -> String {
    match index.package.as_deref() {
        Some(package) if !package.is_empty() => format!("{package}.{name}"),
        _ => name.to_owned(),
    }
}

/// Whether the definition's signature carries `modifier` before its name
/// (`private static int count`).
pub fn has_modifier(def: &Definition, modifier: &str) -> bool {
    modifier_before(&def.signature, &def.name, modifier)
}

fn modifier_before(signature: &str, name: &str, modifier: &str) -> bool {
    // The words before the one holding the name: not a split at the name's first occurrence,
    // which for `at` in `private function at()` falls inside `private`.
    let is_name = |word: &str| {
        word.trim_start_matches(['$', '&', '*'])
            .strip_prefix(name)
            .is_some_and(|rest| !rest.starts_with(|c: char| c.is_alphanumeric() || c == '_'))
    };
    signature.split_whitespace().take_while(|w| !is_name(w)).any(|w| w == modifier)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn package_names_and_stems() {
        assert_eq!(file_stem("src/main/java/com/acme/Util.java", ".java"), "Util");
        assert_eq!(file_stem("Client.php", ".php"), "Client");
        let mut index = FileIndex::default();
        assert_eq!(in_package(&index, "Util"), "Util");
        index.package = Some("com.acme".to_owned());
        assert_eq!(in_package(&index, "Util.check"), "com.acme.Util.check");
    }

    #[test]
    fn modifiers_before_the_name() {
        assert!(modifier_before("private function at(): int", "at", "private"));
        assert!(modifier_before("private static function e()", "e", "static"));
        assert!(modifier_before("private int $count", "count", "private"));
        assert!(modifier_before("protected int in()", "in", "protected"));
        assert!(!modifier_before("public void run(final int private_)", "run", "private"));
        assert!(!modifier_before("void helper()", "helper", "private"));
    }
}
