#!/usr/bin/env python3
"""Writes the fuzz targets' seed corpora from the project's own test fixtures.

Usage: scripts/fuzz-seeds.py [OUT_DIR]   (default: fuzz/corpus)

- python, java, go, ts (TS, TSX and JS blocks), rust, c, cpp, php, ruby: every source block of tests/scenarios/**/*.md in that language;
- patch: each scenario's code and test stages as git-style diffs, joined by a NUL byte (the
  target splits there); git's binary patches of the patch parser's tests;
- dataset: benchmarks-data/example/tasks.jsonl, whole and a line at a time;
- lsp: framed messages of an editing session (hover, lenses, edits, the hints request).
Nothing comes from ../shared: seeds are our fixtures.
"""

import difflib
import hashlib
import json
import re
import sys
from pathlib import Path

root = Path(__file__).resolve().parent.parent
out = Path(sys.argv[1]) if len(sys.argv) > 1 else root / "fuzz" / "corpus"


def seed(target, data):
    data = data if isinstance(data, bytes) else data.encode()
    folder = out / target
    folder.mkdir(parents=True, exist_ok=True)
    (folder / hashlib.sha1(data).hexdigest()).write_bytes(data)


def diff(before, after):
    text = []
    for path in sorted(set(before) | set(after)):
        old, new = before.get(path), after.get(path)
        if old == new:
            continue
        text.append(f"diff --git a/{path} b/{path}\n")
        if old is None:
            text.append("new file mode 100644\n")
        if new is None:
            text.append("deleted file mode 100644\n")
        lines = difflib.unified_diff(
            (old or "").splitlines(True),
            (new or "").splitlines(True),
            f"a/{path}" if old is not None else "/dev/null",
            f"b/{path}" if new is not None else "/dev/null",
        )
        text.extend(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n" for line in lines)
    return "".join(text)


fence = re.compile(r"^```(\S+) (base|code|test) (\S+)([^\n]*)\n(.*?)^```$", re.S | re.M)
for md in sorted((root / "tests" / "scenarios").rglob("*.md")):
    stages = {"base": {}, "code": {}, "test": {}}
    for lang, stage, path, rest, body in fence.findall(md.read_text()):
        stages[stage][path] = None if "deleted" in rest else body
        target = {"py": "python", "java": "java", "go": "go", "ts": "ts", "tsx": "ts", "js": "ts", "rust": "rust", "rs": "rust", "c": "c", "cpp": "cpp", "php": "php", "ruby": "ruby", "rb": "ruby"}.get(lang)
        if target and body:
            seed(target, body)
    base = stages["base"]
    code = {**base, **stages["code"]}
    code = {p: t for p, t in code.items() if t is not None}
    test = {**code, **stages["test"]}
    test = {p: t for p, t in test.items() if t is not None}
    seed("patch", diff(base, code).encode() + b"\0" + diff(code, test).encode())

# `git diff --binary` output (literal and delta hunks), as the patch parser's unit tests hold it.
snapshot_tests = (root / "crates" / "hintlens-snapshot" / "src" / "tests.rs").read_text()
binary = re.search(r'const GIT_BINARY_PATCH: &str = "\\\n(.*?)";', snapshot_tests, re.S)
assert binary, "GIT_BINARY_PATCH moved: update scripts/fuzz-seeds.py"
seed("patch", binary.group(1).encode())
for file_diff in re.split(r"(?=^diff --git )", binary.group(1), flags=re.M):
    if file_diff:
        seed("patch", file_diff.encode())

tasks = (root / "benchmarks-data" / "example" / "tasks.jsonl").read_text()
seed("dataset", tasks)
for line in tasks.splitlines():
    seed("dataset", line + "\n")
    record = json.loads(line)
    seed("dataset", json.dumps([record]))
    seed("patch", (record.get("patch", "") + "\0" + record.get("test_patch", "")).encode())


def frame(message):
    body = json.dumps(message)
    return f"Content-Length: {len(body)}\r\n\r\n{body}"


uri = "file:///work/repo/pkg/api.py"
session = [
    {"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {"uri": uri, "languageId": "python", "version": 1, "text": "def f(x):\n    return x\n"}}},
    {"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {"textDocument": {"uri": uri, "version": 2}, "contentChanges": [{"range": {"start": {"line": 1, "character": 4}, "end": {"line": 1, "character": 10}}, "text": "yield"}]}},
    {"jsonrpc": "2.0", "id": 2, "method": "textDocument/hover", "params": {"textDocument": {"uri": uri}, "position": {"line": 0, "character": 4}}},
    {"jsonrpc": "2.0", "id": 3, "method": "textDocument/codeLens", "params": {"textDocument": {"uri": uri}}},
    {"jsonrpc": "2.0", "id": 4, "method": "hintlens/hints", "params": {"projection": "name"}},
    {"jsonrpc": "2.0", "id": 5, "method": "workspace/executeCommand", "params": {"command": "hintlens.showHints", "arguments": []}},
    {"jsonrpc": "2.0", "method": "workspace/didChangeConfiguration", "params": {"settings": {"hintlens": {"base": "HEAD~1"}}}},
    {"jsonrpc": "2.0", "method": "$/cancelRequest", "params": {"id": 3}},
    {"jsonrpc": "2.0", "method": "textDocument/didClose", "params": {"textDocument": {"uri": uri}}},
]
# The lsp target frames each NUL-separated body itself (and also reads the whole input as a
# raw stream).
seed("lsp", "\0".join(json.dumps(m) for m in session))
for message in session:
    seed("lsp", json.dumps(message))
seed("lsp", '{"jsonrpc":"2.0","id":5,"method":"textDocument/hover","params":')
seed("lsp", "".join(frame(m) for m in session))
print(f"seeds written to {out}")
