//! Settings: built-in defaults, overridden by `.hintlens.toml` at the work tree root, overridden
//! by the editor (`initializationOptions`, then `workspace/didChangeConfiguration`).
//!
//! An editor value that is absent or `null` leaves the file's value in place, so a client should
//! send only what the user set. Invalid values are reported and ignored, never fatal.

use hintlens_hints::Selection;
use hintlens_projection::Projection;
use hintlens_snapshot::TestPaths;
use serde::Deserialize;
use serde::de::IgnoredAny;
use std::collections::BTreeMap;

/// The settings file at the work tree root.
pub(crate) const CONFIG_FILE: &str = ".hintlens.toml";

/// The effective settings.
#[derive(Debug, Clone)]
pub(crate) struct Config {
    /// The base revision (any revspec git understands).
    pub base: String,
    /// The task statement file, relative to the root.
    pub statement: Option<String>,
    pub selection: Selection,
    pub projection: Projection,
    pub test_paths: TestPaths,
}

/// One layer of settings, as the editor (camelCase) or the file (either spelling) writes them.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Settings {
    base: Option<String>,
    statement: Option<String>,
    selection: Option<String>,
    projection: Option<String>,
    #[serde(alias = "test_patterns")]
    test_patterns: Option<Vec<String>>,
    #[serde(flatten)]
    unknown: BTreeMap<String, IgnoredAny>,
}

impl Settings {
    /// Settings from the editor: either the `hintlens` section itself or an object holding it
    /// (`{"hintlens": {…}}`, as VS Code and Neovim send `didChangeConfiguration`).
    pub(crate) fn from_json(value: &serde_json::Value) -> Result<Settings, String> {
        let section = value.get("hintlens").unwrap_or(value);
        if section.is_null() {
            return Ok(Settings::default());
        }
        Settings::deserialize(section).map_err(|e| format!("invalid hintlens settings: {e}"))
    }

    pub(crate) fn from_toml(text: &str) -> Result<Settings, String> {
        toml::from_str(text).map_err(|e| format!("invalid {CONFIG_FILE}: {e}"))
    }

    /// Whether this layer sets anything at all (an empty `didChangeConfiguration` means "ask").
    pub(crate) fn is_empty(&self) -> bool {
        self.base.is_none()
            && self.statement.is_none()
            && self.selection.is_none()
            && self.projection.is_none()
            && self.test_patterns.is_none()
    }
}

impl Config {
    /// The effective settings of the layers, lowest first, and a warning for each value that
    /// was ignored.
    /// `defaults` are the languages' test patterns ([`hintlens_db::Database::test_patterns`]);
    /// configured `test_patterns` add to them.
    pub(crate) fn resolve(defaults: &[&str], layers: &[(&str, &Settings)]) -> (Config, Vec<String>) {
        let mut warnings = Vec::new();
        let mut config = Config {
            base: "HEAD".to_owned(),
            statement: None,
            selection: Selection::DefUse,
            projection: Projection::Declaration,
            test_paths: TestPaths::new(defaults).expect("the frontends' test patterns are valid"),
        };
        for (origin, layer) in layers {
            for key in layer.unknown.keys() {
                warnings.push(format!("{origin}: unknown setting `{key}` ignored"));
            }
            if let Some(base) = layer.base.as_deref().map(str::trim) {
                match base {
                    "" => warnings.push(format!("{origin}: an empty `base` is ignored")),
                    base => config.base = base.to_owned(),
                }
            }
            if let Some(statement) = &layer.statement {
                // An empty path switches a statement configured below off.
                config.statement = Some(statement.trim_matches('/').to_owned()).filter(|s| !s.is_empty());
            }
            if let Some(selection) = &layer.selection {
                match selection.parse() {
                    Ok(selection) => config.selection = selection,
                    Err(e) => warnings.push(format!("{origin}: {e}")),
                }
            }
            if let Some(projection) = &layer.projection {
                match projection.parse() {
                    Ok(projection) => config.projection = projection,
                    Err(e) => warnings.push(format!("{origin}: {e}")),
                }
            }
            if let Some(patterns) = &layer.test_patterns {
                match TestPaths::new(defaults.iter().copied().chain(patterns.iter().map(String::as_str))) {
                    Ok(paths) => config.test_paths = paths,
                    Err(e) => warnings.push(format!("{origin}: {e}")),
                }
            }
        }
        (config, warnings)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn editor_settings_override_the_file_which_overrides_defaults() {
        let file = Settings::from_toml(
            "base = \"main\"\nstatement = \"task.md\"\nselection = \"defuse\"\ntest_patterns = [\"spec/\"]\n",
        )
        .unwrap();
        let editor = Settings::from_json(&json!({"hintlens": {"base": "v1.0", "statement": null}})).unwrap();
        let (config, warnings) = Config::resolve(&["tests/"], &[("file", &file), ("editor", &editor)]);
        assert!(warnings.is_empty(), "{warnings:?}");
        assert_eq!(config.base, "v1.0");
        assert_eq!(config.statement.as_deref(), Some("task.md"), "null leaves the file's value");
        assert_eq!(config.selection, Selection::DefUse);
        assert_eq!(config.projection, Projection::Declaration);
        assert!(config.test_paths.is_test("spec/a.py"));

        let (config, _) = Config::resolve(
            &["tests/"],
            &[("file", &file), ("editor", &Settings::from_json(&json!({"statement": ""})).unwrap())],
        );
        assert_eq!(config.statement, None, "an empty path switches the statement off");
        assert!(Settings::from_json(&json!(null)).unwrap().is_empty());
    }

    #[test]
    fn invalid_values_are_reported_and_ignored() {
        let editor = Settings::from_json(
            &json!({"selection": "nope", "projection": "declaration", "testPatterns": ["a**"], "colour": 1, "base": " "}),
        )
        .unwrap();
        let (config, warnings) = Config::resolve(&["tests/"], &[("initializationOptions", &editor)]);
        assert_eq!(config.selection, Selection::DefUse);
        assert_eq!(config.base, "HEAD");
        assert_eq!(warnings.len(), 4, "{warnings:?}");
        assert!(warnings[0].contains("unknown setting `colour`"), "{warnings:?}");
        assert!(warnings.iter().any(|w| w.contains("unknown selection `nope`")), "{warnings:?}");
        assert!(Settings::from_json(&json!({"base": 3})).unwrap_err().contains("invalid hintlens settings"));
        assert!(Settings::from_toml("base = ").unwrap_err().starts_with("invalid .hintlens.toml"));
    }
}
