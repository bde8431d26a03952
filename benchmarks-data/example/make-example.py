#!/usr/bin/env python3
"""Builds the small example benchmark: two git repositories and a dataset of tasks on them.

Run from anywhere: `python3 benchmarks-data/example/make-example.py`. It rewrites `repos/` (bare
repositories, committed so that the example needs no setup) and `tasks.jsonl` (SWE-bench-style
records whose `patch`/`test_patch` are `git diff`s between each task's base and solution).
Commit dates and identities are fixed, so the output is the same on every machine.
"""

import json
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ENV = {
    **os.environ,
    "GIT_AUTHOR_NAME": "hintlens",
    "GIT_AUTHOR_EMAIL": "example@hintlens.invalid",
    "GIT_COMMITTER_NAME": "hintlens",
    "GIT_COMMITTER_EMAIL": "example@hintlens.invalid",
    "GIT_AUTHOR_DATE": "2024-01-01T00:00:00Z",
    "GIT_COMMITTER_DATE": "2024-01-01T00:00:00Z",
    "GIT_CONFIG_GLOBAL": "/dev/null",
    "GIT_CONFIG_SYSTEM": "/dev/null",
}


def git(cwd, *args):
    return subprocess.run(["git", *args], cwd=cwd, env=ENV, check=True, capture_output=True, text=True).stdout


def write(root, files):
    for path, text in files.items():
        p = root / path
        if text is None:
            p.unlink()
            continue
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)


def is_test(path):
    return path.startswith("tests/") or "/test/" in path or path.endswith("Test.java")


def build(repo, base_files, tasks):
    work = Path(tempfile.mkdtemp())
    git(work, "init", "-q", "-b", "main")
    write(work, base_files)
    git(work, "add", "-A")
    git(work, "commit", "-q", "-m", "base")
    base = git(work, "rev-parse", "HEAD").strip()
    records = []
    for number, task in enumerate(tasks, 1):
        git(work, "checkout", "-q", "-b", f"task-{number}", base)
        write(work, task["files"])
        git(work, "add", "-A")
        git(work, "commit", "-q", "-m", task["statement"].splitlines()[0])
        head = git(work, "rev-parse", "HEAD").strip()
        changed = git(work, "diff", "--name-only", base, head).split()
        code = [p for p in changed if not is_test(p)]
        test = [p for p in changed if is_test(p)]
        diff = lambda paths: git(work, "diff", base, head, "--", *paths) if paths else ""
        records.append({
            "instance_id": f"{repo.replace('/', '__')}-{number}",
            "repo": repo,
            "base_commit": base,
            "solution_commit": head,
            "problem_statement": task["statement"],
            "patch": diff(code),
            "test_patch": diff(test),
        })
        git(work, "checkout", "-q", "main")
    target = HERE / "repos" / (repo.replace("/", "__") + ".git")
    shutil.rmtree(target, ignore_errors=True)
    git(HERE, "clone", "-q", "--bare", "--no-local", str(work), str(target))
    for n in range(1, len(tasks) + 1):
        git(target, "fetch", "-q", str(work), f"task-{n}:task-{n}")
    git(target, "gc", "-q", "--aggressive", "--prune=now")
    for leftover in ["hooks", "info", "branches", "description", "logs", "FETCH_HEAD"]:
        shutil.rmtree(target / leftover, ignore_errors=True) if (target / leftover).is_dir() else (target / leftover).unlink(missing_ok=True)
    # git does not track empty folders, and a bare repository without `refs/` is no repository.
    (target / "refs" / ".gitkeep").touch()
    shutil.rmtree(work)
    return records


TEXTKIT_BASE = {
    "textkit/__init__.py": '"""Small text utilities."""\n',
    "textkit/slug.py": 'def slugify(title):\n    """Lower-cases a title and joins its words with dashes."""\n    return "-".join(title.lower().split())\n',
    "tests/test_slug.py": 'from textkit.slug import slugify\n\n\ndef test_slugify():\n    assert slugify("Hello World") == "hello-world"\n',
    "README.md": "# textkit\n",
}

TEXTKIT_TASKS = [
    {
        "statement": "Allow a custom separator in slugify, and add a way to shorten long slugs.\n",
        "files": {
            "textkit/slug.py": (
                'def slugify(title, separator="-"):\n'
                '    """Lower-cases a title and joins its words with the separator."""\n'
                '    return separator.join(title.lower().split())\n\n\n'
                'def truncate_slug(slug: str, max_length: int = 20) -> str:\n'
                '    """Cuts a slug at a word boundary."""\n'
                '    if len(slug) <= max_length:\n        return slug\n'
                '    return slug[:max_length].rsplit("-", 1)[0]\n'
            ),
            "tests/test_slug.py": (
                'from textkit.slug import slugify, truncate_slug\n\n\n'
                'def test_slugify():\n    assert slugify("Hello World") == "hello-world"\n\n\n'
                'def test_separator():\n    assert slugify("Hello World", separator="_") == "hello_world"\n\n\n'
                'def test_truncate():\n    assert truncate_slug("a-very-long-slug-indeed", max_length=10) == "a-very"\n'
            ),
        },
    },
    {
        "statement": "Add text wrapping to textkit.\n",
        "files": {
            "textkit/wrap.py": (
                'class Wrapper:\n    """Wraps text to a width."""\n\n'
                '    def __init__(self, width: int = 72):\n        self.width = width\n\n'
                '    def wrap(self, text: str) -> list[str]:\n'
                '        lines, line = [], ""\n'
                '        for word in text.split():\n'
                '            if line and len(line) + 1 + len(word) > self.width:\n'
                '                lines.append(line)\n                line = word\n'
                '            else:\n                line = f"{line} {word}".strip()\n'
                '        return lines + [line] if line else lines\n'
            ),
            "tests/test_wrap.py": (
                'from textkit.wrap import Wrapper\n\n\n'
                'def test_wrap():\n    w = Wrapper(width=5)\n    assert w.wrap("aa bb cc") == ["aa bb", "cc"]\n    assert w.width == 5\n'
            ),
        },
    },
    {
        "statement": "slugify should ignore punctuation.\n",
        "files": {
            "textkit/slug.py": (
                'import re\n\n_PUNCT = re.compile(r"[^\\w\\s]")\n\n\n'
                'def _strip_punctuation(title):\n    return _PUNCT.sub("", title)\n\n\n'
                'def slugify(title):\n'
                '    """Lower-cases a title and joins its words with dashes."""\n'
                '    return "-".join(_strip_punctuation(title).lower().split())\n'
            ),
            "tests/test_slug.py": (
                'from textkit.slug import slugify\n\n\n'
                'def test_slugify():\n    assert slugify("Hello World") == "hello-world"\n\n\n'
                'def test_punctuation():\n    assert slugify("Hello, World!") == "hello-world"\n'
            ),
        },
    },
]

JSONLITE_WRITER = """package com.acme.json;

import java.io.Writer;

/** Writes JSON values to a stream. */
public class JsonWriter {
    private final Writer out;

    public JsonWriter(Writer out) {
        this.out = out;
    }

    public void value(String s) throws java.io.IOException {
        out.write('"' + s + '"');
    }
}
"""

JSONLITE_BASE = {
    "src/main/java/com/acme/json/JsonWriter.java": JSONLITE_WRITER,
    "src/main/java/com/acme/json/Style.java": "package com.acme.json;\n\npublic enum Style {\n    COMPACT,\n    PRETTY;\n}\n",
    "src/test/java/com/acme/json/JsonWriterTest.java": (
        "package com.acme.json;\n\nimport java.io.StringWriter;\nimport org.junit.Test;\n\n"
        "public class JsonWriterTest {\n    @Test\n    public void writesStrings() throws Exception {\n"
        "        StringWriter s = new StringWriter();\n        new JsonWriter(s).value(\"a\");\n"
        "        assert s.toString().equals(\"\\\"a\\\"\");\n    }\n}\n"
    ),
}

JSONLITE_TASKS = [
    {
        "statement": "JsonWriter should support indentation.\n",
        "files": {
            "src/main/java/com/acme/json/JsonWriter.java": JSONLITE_WRITER.replace(
                "    private final Writer out;\n",
                "    public static final String DEFAULT_INDENT = \"  \";\n\n    private final Writer out;\n    private String indent = \"\";\n",
            ).replace(
                "    public void value(",
                "    /** Sets the indentation used between nested values. */\n"
                "    public JsonWriter setIndent(String indent) {\n        this.indent = indent;\n        return this;\n    }\n\n"
                "    public void value(",
            ),
            "src/test/java/com/acme/json/IndentTest.java": (
                "package com.acme.json;\n\nimport java.io.StringWriter;\nimport org.junit.Test;\n\n"
                "public class IndentTest {\n    @Test\n    public void indents() throws Exception {\n"
                "        StringWriter s = new StringWriter();\n"
                "        new JsonWriter(s).setIndent(JsonWriter.DEFAULT_INDENT).value(\"a\");\n    }\n}\n"
            ),
        },
    },
    {
        "statement": "Add a lenient style and report each written value to a listener.\n",
        "files": {
            "src/main/java/com/acme/json/Style.java": "package com.acme.json;\n\npublic enum Style {\n    COMPACT,\n    PRETTY,\n    LENIENT;\n}\n",
            "src/main/java/com/acme/json/ValueListener.java": (
                "package com.acme.json;\n\npublic interface ValueListener {\n    void onValue(String value);\n}\n"
            ),
            "src/main/java/com/acme/json/JsonWriter.java": JSONLITE_WRITER.replace(
                "    private final Writer out;\n",
                "    private final Writer out;\n    private ValueListener listener;\n",
            ).replace(
                "    public void value(String s) throws java.io.IOException {\n",
                "    public void setListener(ValueListener listener) {\n        this.listener = listener;\n    }\n\n"
                "    public void value(String s) throws java.io.IOException {\n"
                "        if (listener != null) {\n            listener.onValue(s);\n        }\n",
            ),
            "src/test/java/com/acme/json/ListenerTest.java": (
                "package com.acme.json;\n\nimport java.io.StringWriter;\nimport java.util.ArrayList;\nimport java.util.List;\nimport org.junit.Test;\n\n"
                "public class ListenerTest {\n    @Test\n    public void reports() throws Exception {\n"
                "        List<String> seen = new ArrayList<>();\n"
                "        JsonWriter w = new JsonWriter(new StringWriter());\n"
                "        w.setListener(new ValueListener() {\n            @Override\n"
                "            public void onValue(String value) {\n                seen.add(value);\n            }\n        });\n"
                "        w.value(\"a\");\n        assert Style.valueOf(\"LENIENT\") == Style.LENIENT;\n    }\n}\n"
            ),
        },
    },
]


def main():
    records = build("acme/textkit", TEXTKIT_BASE, TEXTKIT_TASKS) + build("acme/jsonlite", JSONLITE_BASE, JSONLITE_TASKS)
    with open(HERE / "tasks.jsonl", "w") as f:
        for r in records:
            f.write(json.dumps(r) + "\n")
    print(f"wrote {len(records)} tasks and {len(set(r['repo'] for r in records))} repositories under {HERE}")


if __name__ == "__main__":
    main()
