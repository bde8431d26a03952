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

/// The source-code extension a program without one would have by its `#!` line
/// (`#!/usr/bin/env ruby` → `rb`, `#!/bin/sh` → `sh`; an interpreter the table does not know
/// by its own name): an extensionless file that is a program (`exe/rubocop`,
/// `bin/django-admin`) is source code, not documentation.
pub fn script_extension(text: &[u8]) -> Option<String> {
    let line = text.strip_prefix(b"#!")?.split(|&b| b == b'\n').next()?;
    let line = String::from_utf8_lossy(line);
    let mut words = line.split_whitespace();
    let mut program = words.next()?.rsplit('/').next()?;
    if program == "env" {
        program = words.find(|w| !w.starts_with('-') && !w.contains('='))?;
    }
    let name = program.trim_end_matches(|c: char| c.is_ascii_digit() || c == '.');
    let extension = match name {
        "ruby" => "rb",
        "python" | "pypy" => "py",
        "node" | "deno" | "bun" => "js",
        "perl" => "pl",
        "Rscript" => "r",
        "elixir" => "exs",
        "" => return None,
        other => other,
    };
    Some(extension.to_ascii_lowercase())
}

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
    fn programs_without_an_extension_by_their_interpreter() {
        for (text, extension) in [
            (&b"#!/usr/bin/env ruby\n$LOAD_PATH.unshift"[..], Some("rb")),
            (b"#!/usr/bin/env -S python3 -u\n", Some("py")),
            (b"#!/usr/bin/python3.11\nimport sys\n", Some("py")),
            (b"#!/bin/bash -e\n", Some("bash")),
            (b"#!/usr/bin/env node\n", Some("js")),
            (b"#!/usr/bin/php\n", Some("php")),
            (b"#!\n", None),
            (b"# a heading\n", None),
            (b"plain text", None),
        ] {
            assert_eq!(script_extension(text).as_deref(), extension, "{}", String::from_utf8_lossy(text));
        }
    }

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
