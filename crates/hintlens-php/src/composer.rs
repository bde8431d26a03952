//! Composer's autoload maps: where the class a fully qualified name names lives.
//!
//! `composer.json`'s `autoload` and `autoload-dev` sections map namespace prefixes to
//! directories. PSR-4 (`"App\\": "src/"`) drops the prefix: `App\Http\Client` is
//! `src/Http/Client.php`. PSR-0 (`"Foo_": "lib/"`, `"Foo\\": "lib/"`) keeps the whole name in the
//! path, and an `_` in the class name is a directory: `Foo_Bar` is `lib/Foo/Bar.php`. A
//! `classmap` directory can hold any class under any file name: a root of every name whose files
//! are found by what they declare. (`files` are loaded eagerly and name no class: they make no
//! root.)

use hintlens_syntax::ModuleRoot;
use serde_json::Value;

/// The roots of a `composer.json`'s text, directories relative to its own; `None` when the text
/// is no JSON object (a PHP source file).
pub(crate) fn roots(text: &[u8]) -> Option<Vec<ModuleRoot>> {
    // A PHP file never opens with `{`: most texts are turned away before any parse.
    if text.iter().find(|b| !b.is_ascii_whitespace()) != Some(&b'{') {
        return None;
    }
    let Ok(Value::Object(manifest)) = serde_json::from_slice::<Value>(text) else { return None };
    let mut roots = Vec::new();
    for section in ["autoload", "autoload-dev"].iter().filter_map(|s| manifest.get(*s)) {
        for (standard, prefix_in_path) in [("psr-4", false), ("psr-0", true)] {
            let Some(Value::Object(map)) = section.get(standard) else { continue };
            for (prefix, dirs) in map {
                let prefix = dotted(prefix);
                for dir in directories(dirs) {
                    roots.push(ModuleRoot { prefix: prefix.clone(), dir, prefix_in_path });
                }
            }
        }
        for dir in section.get("classmap").map(directories).unwrap_or_default() {
            // A classmap entry may be a file: its directory holds the classes.
            let dir = if dir.ends_with(".php") { dir.rsplit_once('/').map_or("", |(d, _)| d).to_owned() } else { dir };
            roots.push(ModuleRoot { prefix: String::new(), dir, prefix_in_path: false });
        }
    }
    Some(roots)
}

/// `App\Http\` → `App.Http`: a namespace prefix in the notation of module names.
fn dotted(prefix: &str) -> String {
    prefix.trim_matches('\\').replace('\\', ".")
}

/// A map value: one directory or several, each normalised (`./src/` → `src`, `""` → the
/// manifest's own).
fn directories(value: &Value) -> Vec<String> {
    let normal = |d: &str| d.trim_start_matches("./").trim_end_matches('/').trim_start_matches('.').to_owned();
    match value {
        Value::String(d) => vec![normal(d)],
        Value::Array(ds) => ds.iter().filter_map(Value::as_str).map(normal).collect(),
        _ => Vec::new(),
    }
}

/// Whether the namespace (or class, for PSR-0's `Foo_` prefixes) `module` may lie below `root`:
/// in its PSR-4 namespace or below it, or beginning with its PSR-0 prefix. A name of one
/// component or none is no namespace a map decides: a top namespace (`App` of `App\Http`), the
/// global namespace (`use Legacy_Mail;`, a PSR-0 or classmap class), or the stem of a file an
/// `include` names.
pub(crate) fn holds(root: &ModuleRoot, module: &str) -> bool {
    if root.prefix.is_empty() || !module.contains('.') {
        return true;
    }
    if root.prefix_in_path {
        return module.starts_with(root.prefix.as_str());
    }
    root.rest_of(module).is_some()
}

/// The file the class `name` (dotted: `App.Http.Client`) is in below `root`, by PSR-4 or PSR-0.
pub(crate) fn class_file(root: &ModuleRoot, name: &str) -> Option<String> {
    let below = if root.prefix_in_path {
        if !name.starts_with(root.prefix.as_str()) {
            return None;
        }
        // PSR-0: `_` in the class name (not in the namespace) is a directory separator.
        let (namespace, class) = name.rsplit_once('.').unwrap_or(("", name));
        let class = class.replace('_', "/");
        if namespace.is_empty() { class } else { format!("{}/{class}", namespace.replace('.', "/")) }
    } else {
        let rest = if root.prefix.is_empty() { name } else { root.rest_of(name)? };
        rest.replace('.', "/")
    };
    if below.is_empty() {
        return None;
    }
    Some(format!("{}.php", ModuleRoot::join(&root.dir, &below)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(roots: &[ModuleRoot]) -> Vec<(&str, &str, bool)> {
        roots.iter().map(|r| (r.prefix.as_str(), r.dir.as_str(), r.prefix_in_path)).collect()
    }

    #[test]
    fn psr4_psr0_and_classmap_roots() {
        let text = br#"{
            "name": "acme/app",
            "autoload": {
                "psr-4": {"App\\": "src/", "App\\Util\\": ["lib/util/", "./extra"]},
                "psr-0": {"Twig_": "lib/"},
                "classmap": ["legacy/", "database/Seeder.php"],
                "files": ["src/helpers.php"]
            },
            "autoload-dev": {"psr-4": {"App\\Tests\\": "tests/"}}
        }"#;
        let roots = roots(text).unwrap();
        assert_eq!(
            pairs(&roots),
            [
                ("App", "src", false),
                ("App.Util", "lib/util", false),
                ("App.Util", "extra", false),
                ("Twig_", "lib", true),
                ("", "legacy", false),
                ("", "database", false),
                ("App.Tests", "tests", false),
            ]
        );
        assert_eq!(super::roots(b"<?php\nclass A {}\n"), None);
        assert_eq!(super::roots(b"{ not json"), None);
        assert_eq!(super::roots(b"{\"name\": \"x\"}"), Some(Vec::new()));
    }

    #[test]
    fn class_files_by_psr4_and_psr0() {
        let psr4 = ModuleRoot { prefix: "App".into(), dir: "src".into(), prefix_in_path: false };
        assert_eq!(class_file(&psr4, "App.Http.Client").as_deref(), Some("src/Http/Client.php"));
        assert_eq!(class_file(&psr4, "Apps.Client"), None);
        assert_eq!(class_file(&psr4, "App"), None);
        let psr0 = ModuleRoot { prefix: "Twig_".into(), dir: "lib".into(), prefix_in_path: true };
        assert_eq!(class_file(&psr0, "Twig_Node_Print").as_deref(), Some("lib/Twig/Node/Print.php"));
        let psr0_ns = ModuleRoot { prefix: "Foo".into(), dir: "lib".into(), prefix_in_path: true };
        assert_eq!(class_file(&psr0_ns, "Foo.Bar_Baz").as_deref(), Some("lib/Foo/Bar/Baz.php"));
        let fallback = ModuleRoot { prefix: String::new(), dir: String::new(), prefix_in_path: false };
        assert_eq!(class_file(&fallback, "Vendor.Thing").as_deref(), Some("Vendor/Thing.php"));
        assert!(holds(&psr4, "App.Http") && holds(&psr4, "App") && !holds(&psr4, "PHPUnit.Framework"));
        assert!(holds(&psr4, "") && holds(&psr4, "helpers") && !holds(&psr0, "Foo.Bar"));
        assert!(holds(&psr0_ns, "Foo.Bar") && holds(&fallback, "Vendor.Thing"));
    }
}
