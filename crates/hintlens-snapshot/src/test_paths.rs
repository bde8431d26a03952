//! Which repository paths are test files, where no patch says so (the editor, a reference
//! commit read from git).
//!
//! Patterns are globs over `/`-separated repository paths:
//! - `*` matches within one path component, `?` one character, `**` any number of whole
//!   components;
//! - a pattern matches at any depth (`conftest.py` matches `a/b/conftest.py`) unless it starts
//!   with `/`, which anchors it at the repository root;
//! - a trailing `/` names a directory: every file below it matches (`tests/` matches
//!   `pkg/tests/unit/test_x.py`).

use std::fmt;

/// Test directories in every language. Each language adds its own file patterns
/// (`Frontend::test_patterns`: `test_*.py`, `*Test.java`…); the database lists them all.
pub const GENERIC_TEST_PATTERNS: &[&str] = &["test/", "tests/"];

/// A path classifier: a path is a test file when any pattern matches it.
#[derive(Debug, Clone)]
pub struct TestPaths {
    patterns: Vec<Glob>,
}

impl TestPaths {
    /// A classifier from `patterns` (see the module documentation for the syntax): the defaults
    /// of the languages in use followed by any configured ones.
    pub fn new<S: AsRef<str>>(patterns: impl IntoIterator<Item = S>) -> Result<TestPaths, PatternError> {
        Ok(TestPaths { patterns: patterns.into_iter().map(|p| Glob::parse(p.as_ref())).collect::<Result<_, _>>()? })
    }

    /// Whether `path` (relative to the repository root, `/`-separated) is a test file.
    pub fn is_test(&self, path: &str) -> bool {
        let components: Vec<&str> = path.split('/').filter(|c| !c.is_empty()).collect();
        self.patterns.iter().any(|glob| glob.matches(&components))
    }
}

/// A pattern that cannot be used, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PatternError {
    pub pattern: String,
    pub reason: &'static str,
}

impl fmt::Display for PatternError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid test path pattern `{}`: {}", self.pattern, self.reason)
    }
}

impl std::error::Error for PatternError {}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Component {
    /// `**`: zero or more whole components.
    AnyDepth,
    /// A glob over one component's characters.
    Name(Vec<Token>),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Token {
    Char(char),
    /// `?`
    One,
    /// `*`
    Many,
}

/// A compiled pattern: components matched against all of a path's components.
#[derive(Debug, Clone)]
struct Glob {
    components: Vec<Component>,
}

impl Glob {
    fn parse(pattern: &str) -> Result<Glob, PatternError> {
        let error = |reason| PatternError { pattern: pattern.to_owned(), reason };
        let anchored = pattern.starts_with('/');
        let directory = pattern.ends_with('/');
        let body = pattern.trim_matches('/');
        if body.is_empty() {
            return Err(error("the pattern names no file or directory"));
        }
        let mut components = Vec::new();
        if !anchored {
            components.push(Component::AnyDepth);
        }
        for part in body.split('/') {
            if part.is_empty() {
                return Err(error("empty path component (`//`)"));
            }
            if part == "**" {
                components.push(Component::AnyDepth);
            } else if part.contains("**") {
                return Err(error("`**` must be a whole path component"));
            } else {
                let tokens = part
                    .chars()
                    .map(|c| match c {
                        '*' => Token::Many,
                        '?' => Token::One,
                        c => Token::Char(c),
                    })
                    .collect();
                components.push(Component::Name(tokens));
            }
        }
        if directory {
            // At least one more component below the directory: the file itself.
            components.push(Component::Name(vec![Token::Many]));
            components.push(Component::AnyDepth);
        }
        Ok(Glob { components })
    }

    fn matches(&self, path: &[&str]) -> bool {
        match_components(&self.components, path)
    }
}

fn match_components(pattern: &[Component], path: &[&str]) -> bool {
    match pattern.split_first() {
        None => path.is_empty(),
        Some((Component::AnyDepth, rest)) => (0..=path.len()).any(|skip| match_components(rest, &path[skip..])),
        Some((Component::Name(tokens), rest)) => match path.split_first() {
            Some((first, others)) => {
                match_name(tokens, &first.chars().collect::<Vec<_>>()) && match_components(rest, others)
            }
            None => false,
        },
    }
}

fn match_name(tokens: &[Token], name: &[char]) -> bool {
    match tokens.split_first() {
        None => name.is_empty(),
        Some((Token::Many, rest)) => (0..=name.len()).any(|skip| match_name(rest, &name[skip..])),
        Some((Token::One, rest)) => !name.is_empty() && match_name(rest, &name[1..]),
        Some((Token::Char(c), rest)) => name.first() == Some(c) && match_name(rest, &name[1..]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The generic directories with the Python and Java frontends' patterns.
    const DEFAULTS: &[&str] = &[
        "test/", "tests/", "test_*.py", "*_test.py", "conftest.py", "src/test/", "*Test.java", "*Tests.java",
        "*IT.java",
    ];

    fn with_extra(extra: &[&str]) -> Result<TestPaths, PatternError> {
        TestPaths::new(DEFAULTS.iter().chain(extra))
    }

    #[test]
    fn defaults_follow_python_and_java_layouts() {
        let paths = with_extra(&[]).unwrap();
        for test in [
            "tests/test_api.py",
            "pkg/tests/unit/helpers.py",
            "test/foo.py",
            "test_api.py",
            "pkg/test_api.py",
            "pkg/api_test.py",
            "conftest.py",
            "pkg/conftest.py",
            "src/test/java/com/x/Helper.java",
            "module/src/test/java/com/x/Helper.java",
            "src/main/java/com/x/FooTest.java",
            "src/main/java/com/x/FooTests.java",
            "src/main/java/com/x/FooIT.java",
        ] {
            assert!(paths.is_test(test), "{test} is a test file");
        }
        for code in [
            "pkg/api.py",
            "pkg/testing.py",
            "pkg/contest.py",
            "tests.py",
            "pkg/test_api.java",
            "src/main/java/com/x/Foo.java",
            "src/main/java/com/x/Testable.java",
            "latest/x.py",
        ] {
            assert!(!paths.is_test(code), "{code} is not a test file");
        }
    }

    #[test]
    fn extra_patterns_add_to_the_defaults() {
        let paths = with_extra(&["spec/", "*_spec.py", "/checks/**/*.py", "e2e?.py"]).unwrap();
        assert!(paths.is_test("spec/a.py"));
        assert!(paths.is_test("web/spec/a/b.py"));
        assert!(paths.is_test("pkg/api_spec.py"));
        assert!(paths.is_test("checks/a.py"));
        assert!(paths.is_test("checks/deep/er/a.py"));
        assert!(!paths.is_test("pkg/checks/a.py"), "a leading `/` anchors at the root");
        assert!(paths.is_test("e2e1.py"));
        assert!(!paths.is_test("e2e12.py"));
        assert!(paths.is_test("tests/x.py"), "defaults still apply");
        assert!(!paths.is_test("spec"), "a directory pattern needs a file below the directory");
    }

    #[test]
    fn invalid_patterns_are_reported() {
        for (pattern, reason) in [
            ("", "the pattern names no file or directory"),
            ("/", "the pattern names no file or directory"),
            ("a//b", "empty path component (`//`)"),
            ("a**b", "`**` must be a whole path component"),
        ] {
            assert_eq!(TestPaths::new([pattern]).unwrap_err(), PatternError { pattern: pattern.into(), reason });
        }
        assert_eq!(
            TestPaths::new(["a**"]).unwrap_err().to_string(),
            "invalid test path pattern `a**`: `**` must be a whole path component"
        );
    }
}
