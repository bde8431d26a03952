//! String literals and docstrings.

check!(
    string_literals_of_every_form,
    r#"
plain = "double"
single = 'single'
raw = r"C:\path\n"
data = b"bytes"
triple = """line one
line two"""
joined = ("first " 'second ' f"third {x}")
empty = ""
escaped = "tab\there {{not}}"
formatted = f"{a!r:>10} and {b:{width}.{precision}f}"
calls(key="value")
"#
);

check!(
    docstrings_of_module_class_and_function,
    r#"
"""Module summary.

Details of the module.
"""

import os


class Widget:
    """A widget.

    Indented details
        keep relative indentation.
    """

    def render(self):
        '''Render it.'''
        return "not a doc"

    def nodoc(self):
        x = 1
        "a string statement after the first is not a docstring"


def raw_doc():
    r"""Raw \d docstring."""


def concatenated():
    "First " "second."


def fstring_is_not_a_doc():
    f"""Not a {doc}."""


def empty_doc():
    """"""
"#
);

check!(
    module_without_docstring_has_none,
    r#"
import os
"""This string follows an import: not the module docstring."""
"#
);

check!(
    comments_do_not_hide_the_docstring,
    r#"
#!/usr/bin/env python
# -*- coding: utf-8 -*-
"""Docstring after comments."""

def f():
    # comment first
    """Still the docstring."""
"#
);

check!(
    comments_and_continuations_are_not_part_of_signatures,
    r##"
def connect(host,  # the server
            port: int = 80,  # its port
            sep: str = "#") -> None:
    pass

class Handler(Base,  # first base
              Mixin):
    pass

x = y  # comment
"##
);

check!(
    crlf_line_ends,
    "class A:\r\n    \"\"\"Summary.\r\n\r\n    Details.\r\n    \"\"\"\r\n    def f(self,\r\n          x):\r\n        pass\r\n"
);

#[test]
fn error_contexts() {
    use hintlens_syntax::Frontend;
    let src = r#"
raise ValueError("bad width")
raise ValueError(fmt("nested %s", x))
raise errors.Usage(f"no {', '.join(names)}").with_traceback(tb) from Cause("not raised")
msg = "plain"
with pytest.raises(ValueError, match="bad width"):
    f(key="not an error")
self.assertRaisesRegex(KeyError, "missing", g)
self.assertEqual(record.getMessage(), "logged")
self.assertEqual(record.getMessage(), fmt("inner"))
"#;
    let index = hintlens_python::Python.extract(src.as_bytes());
    let flagged = |s: &str| {
        let at = src.find(s).unwrap() as u32;
        index.strings.iter().find(|l| l.span.start_byte == at).unwrap().error_context
    };
    assert!(flagged("\"bad width\")"));
    assert!(flagged("\"nested %s\""));
    assert!(flagged("f\"no {"));
    assert!(!flagged("', '"), "a string inside a message's interpolation is no message");
    assert!(!flagged("\"not raised\""));
    assert!(!flagged("\"plain\""));
    assert!(flagged("\"bad width\"):"));
    assert!(!flagged("\"not an error\""));
    assert!(flagged("\"missing\""));
    assert!(flagged("\"logged\""));
    assert!(!flagged("\"inner\""));
}
