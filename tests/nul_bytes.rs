//! A NUL byte in a source file. No language allows one, git takes a file holding one for binary,
//! and tree-sitter's external scanners take one for the end of the input (Python's strings). The
//! file is read whole all the same, in every language and whichever way the change is read, and
//! each run of NUL bytes is reported as a syntax error.

use hintlens_hints::Selection;
use std::collections::BTreeMap;

/// A definition after NUL bytes: between two definitions, in a string, in a comment.
const CASES: &[(&str, &str)] = &[
    ("a.py", "def first():\n    return 1\n@@\ndef second():\n    return 2\n"),
    ("a.py", "x = 'a@@b'\ndef second():\n    return 2\n"),
    ("a.py", "x = \"\"\"a@@b\"\"\"\ndef second():\n    return 2\n"),
    ("a.py", "x = 1 # c@@c\ndef second():\n    return 2\n"),
    ("A.java", "class A {\n void first() {}\n@@\n void second() {}\n}\n"),
    ("A.java", "class A {\n String s = \"a@@b\";\n void second() {}\n}\n"),
    ("A.java", "class A {\n /* a@@b */\n void second() {}\n}\n"),
    ("a.go", "package p\nfunc first() {}\n@@\nfunc second() {}\n"),
    ("a.go", "package p\nvar s = `a@@b`\nfunc second() {}\n"),
    ("a.go", "package p\n// a@@b\nfunc second() {}\n"),
    ("a.ts", "function first() {}\n@@\nfunction second() {}\n"),
    ("a.ts", "const s = `a@@b`;\nfunction second() {}\n"),
    ("a.tsx", "const s = 'a@@b';\nfunction second() {}\n"),
    ("a.js", "const r = /a@@b/;\nfunction second() {}\n"),
    ("a.js", "/* a@@b */\nfunction second() {}\n"),
    ("a.rs", "fn first() {}\n@@\nfn second() {}\n"),
    ("a.rs", "const S: &str = r#\"a@@b\"#;\nfn second() {}\n"),
    ("a.rs", "// a@@b\nfn second() {}\n"),
    ("a.php", "<?php\nfunction first() {}\n@@\nfunction second() {}\n"),
    ("a.php", "<?php\n$s = 'a@@b';\nfunction second() {}\n"),
    ("a.php", "<?php\n# a@@b\nfunction second() {}\n"),
    ("a.rb", "def first; end\n@@\ndef second; end\n"),
    ("a.rb", "s = 'a@@b'\ndef second; end\n"),
    ("a.rb", "# a@@b\ndef second; end\n"),
];

#[test]
fn every_language_reads_past_nul_bytes_and_reports_them() {
    let frontends = hintlens_batch::frontends();
    for (path, source) in CASES {
        let text = source.replace("@@", "\0\0");
        let frontend = frontends.iter().find(|f| f.claims(path)).unwrap_or_else(|| panic!("no frontend claims {path}"));
        let index = frontend.extract(text.as_bytes());
        assert!(index.definitions.iter().any(|d| d.name == "second"), "{path} {source:?}:\n{}", index.dump());
        let line = source[..source.find("@@").unwrap()].matches('\n').count() as u32;
        let nul = index.errors.iter().find(|e| e.message == "2 NUL bytes, read as spaces");
        assert_eq!(nul.map(|e| e.span.start.line), Some(line), "{path} {source:?}:\n{}", index.dump());
    }
}

/// The function after the NUL bytes is selected, whether the change is read from the patches or
/// from the two snapshots' line diff (`--reference commit`, the editor), where git's rule would
/// have taken the file for binary, with no lines added.
#[test]
fn a_function_after_nul_bytes_is_selected() {
    let plain_test = "from pkg.mod import second\n\n\ndef test_second():\n    assert second() == 2\n";
    let nul_test = "from pkg.mod import second\n\n\ndef test_second():\n    assert second() == 2, 'a\0\0b'\n";
    for (code, test) in [
        ("def first():\n    return 1\n\n\0\0\n\ndef second():\n    return 2\n", plain_test),
        ("GREETING = 'a\0\0b'\n\n\ndef second():\n    return 2\n", plain_test),
        ("def first():\n    return 1\n\n\ndef second():\n    return 2\n", nul_test),
    ] {
        let base = "def first():\n    return 1\n";
        let scenario = hintlens_tests::Scenario {
            title: "nul".into(),
            base: BTreeMap::from([
                ("pkg/__init__.py".to_owned(), String::new()),
                ("pkg/mod.py".to_owned(), base.into()),
            ]),
            code: BTreeMap::from([("pkg/mod.py".to_owned(), Some(code.to_owned()))]),
            test: BTreeMap::from([("tests/test_mod.py".to_owned(), Some(test.to_owned()))]),
            expected: BTreeMap::from([("defuse".to_owned(), Vec::new()), ("defuse --by-path".to_owned(), Vec::new())]),
            ..Default::default()
        };
        let outcome = hintlens_tests::run(&scenario).unwrap();
        for (name, selection) in &outcome.selections {
            let selected: Vec<String> = selection.iter().map(hintlens_tests::describe).collect();
            assert_eq!(
                selected,
                [
                    "code->test function pkg.mod.second (import) @ tests/test_mod.py:1 [import], tests/test_mod.py:5 [import]"
                ],
                "{name}, {code:?}, {test:?}"
            );
        }
        assert!(outcome.selections.contains_key(Selection::DefUse.as_str()));
    }
}
