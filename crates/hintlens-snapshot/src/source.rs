//! Which paths are source code, whatever frontends exist: the one table by extension that tells
//! a changed file nobody could read (a `.go` change with no Go frontend) from documentation,
//! configuration or data, which no frontend is meant to read.

/// Extensions of source code (lower case, without the dot). Shell scripts and SQL count: a test
/// can name what they define. Markup, templates, configuration (YAML, TOML, JSON, INI), lock
/// files, documentation and data do not.
pub const SOURCE_EXTENSIONS: &[&str] = &[
    "py", "pyi", "pyx", "java", "kt", "kts", "scala", "groovy", "go", "rs", "ts", "tsx", "mts", "cts", "js", "jsx",
    "mjs", "cjs", "vue", "svelte", "c", "h", "cc", "cpp", "cxx", "c++", "hh", "hpp", "hxx", "h++", "ipp", "tpp", "inl",
    "m", "mm", "cs", "fs", "swift", "rb", "rake", "gemspec", "php", "pl", "pm", "lua", "r", "jl", "dart", "ex", "exs",
    "erl", "hs", "ml", "mli", "clj", "elm", "zig", "nim", "tcl", "sh", "bash", "zsh", "ps1", "sql", "proto",
];

/// The source-code extension of `path` (lower case), or `None` for anything else.
pub fn source_extension(path: &str) -> Option<String> {
    let name = path.rsplit('/').next().unwrap_or(path);
    let (stem, extension) = name.rsplit_once('.')?;
    let extension = extension.to_ascii_lowercase();
    (!stem.is_empty() && SOURCE_EXTENSIONS.contains(&extension.as_str())).then_some(extension)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn source_files_by_extension() {
        for (path, extension) in [
            ("pkg/api.py", "py"),
            ("internal/server/store.go", "go"),
            ("src/App.TSX", "tsx"),
            ("src/lib.rs", "rs"),
            ("scripts/build.sh", "sh"),
            ("db/schema.sql", "sql"),
            // Redis's tests: a change to them is an unread test file, not documentation.
            ("tests/unit/type/list.tcl", "tcl"),
            ("include/fmt/format.h++", "h++"),
        ] {
            assert_eq!(source_extension(path).as_deref(), Some(extension), "{path}");
        }
        for path in [
            "README.md",
            "docs/index.rst",
            "config.yaml",
            "Cargo.toml",
            "package.json",
            "go.sum",
            "Cargo.lock",
            "templates/page.html",
            "Makefile",
            ".gitignore",
            "src/.go",
            "data/fixture.csv",
        ] {
            assert_eq!(source_extension(path), None, "{path}");
        }
    }
}
