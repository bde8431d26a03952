#!/usr/bin/env python3
"""Precision and recall of DefUse's code->test names against an independent extractor
(evaluation only; no test depends on it).

Usage:
  scripts/precision.py --repos DIR [--bin HINTLENS] [--out DIR] [--results DIR]
      [--sample N --seed S] DATASET.jsonl...

For every dataset it runs `hintlens batch DATASET --repos DIR` (records in OUT/results/NAME.jsonl;
`--results DIR` reads DIR/NAME.jsonl instead of running the batch), then measures each task with
nothing of hintlens's: Universal Ctags (Debian's `universal-ctags`, installed with apt-get when
`ctags` is missing or is not Universal Ctags) and git (`git cat-file`, never a checkout).

The extractor's names of a task:
  1. the code patch's files of a language ctags reads (C, C++, Go, Java, JavaScript, PHP, Python,
     Ruby, Rust, TypeScript), at the base (the blob at base_commit) and at the reference (the
     base with the patch's hunks applied here, line by line);
  2. ctags's definitions in them (its default kinds and Python's parameters, less those that
     name something defined elsewhere: imports, packages, included headers, `impl` blocks; a
     parameter only where its callable existed at the base), each keyed by its name and
     the last segment of its scope (`adl_serializer` for `nlohmann::adl_serializer::from_json`),
     so that a change in how an outer scope is spelled does not make a definition new;
  3. new = a key at the reference that no changed file has at the base (a definition moved
     between two changed files is not new), and no namespace (C++) or module (Ruby) that a
     line of any file at the base opens (`git grep`); a scope the base lacks whose members (name, kind)
     are more than half those of a scope the reference lacks, and the other way round, is that
     scope renamed, and the members the two share are not new (`IDNumber` -> `IdNumber`);
  4. a code file the patch adds is a `file` definition named by its stem (its directory's name
     for `__init__.py` and `index.*`) in the languages whose tests name files by path (C, C++,
     JavaScript, Python, Ruby, Rust, TypeScript), and a Go file the patch adds to a directory
     with no Go file at the base a `package` named by the directory;
  5. used = the new names that occur as a word of code on a line the test patch adds to a file
     of a language above (`--uses code`, the default): not in a comment, nor in a string
     literal unless the literal is a name or a path of names (`"CreateFlag"`, `'pkg.mod.f'`,
     `"../src/foo"`; the code of an f-string's or template's `{…}` is code), and not a name
     the test file declares itself (a function or method it defines, a local it binds with
     `let`/`const`/`var`/`:=`, a type or namespace it declares, its Go `package` clause)
     unless it follows `.`, `->` or `::`; Ruby's names may end in `?` or `!`. `--uses words`
     takes every word of every added line instead, as this script did first.
hintlens's names are the `code->test` identifiers of the `defuse` selection. Both are compared as
(language, name) pairs per task; the language of a name is ctags's language of its file.

Prints, per language: tasks, names hintlens gives, names the extractor gives, both, precision
(both / hintlens's) and recall (both / the extractor's). Writes every disagreement to
OUT/disagreements.tsv (language, side, task, name, where hintlens or ctags defines it, the first
test line using it) and, with `--sample N`, N disagreements per language drawn with seed S to
OUT/sample.tsv with an empty `judgement` column for the hand check.
"""

import argparse
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
from collections import defaultdict

LANGUAGES = ["C", "C++", "Go", "Java", "JavaScript", "PHP", "Python", "Ruby", "Rust", "TypeScript"]
# File endings ctags is asked to read, and as what. `.h` is read as C++ only in a repository
# whose code patch set has another C++ ending anywhere in the dataset's tasks, else as C.
ENDINGS = {
    ".c": "C", ".h": "C", ".cc": "C++", ".cpp": "C++", ".cxx": "C++", ".hpp": "C++", ".hh": "C++",
    ".hxx": "C++", ".ipp": "C++", ".tpp": "C++", ".inl": "C++", ".go": "Go", ".java": "Java",
    ".js": "JavaScript", ".jsx": "JavaScript", ".mjs": "JavaScript", ".cjs": "JavaScript",
    ".php": "PHP", ".py": "Python", ".pyi": "Python", ".rb": "Ruby", ".rs": "Rust",
    ".ts": "TypeScript", ".tsx": "TypeScript", ".mts": "TypeScript", ".cts": "TypeScript",
}
# Kinds that name something defined elsewhere, or a container rather than a definition.
SKIP_KINDS = {
    "Python": {"namespace", "unknown", "module"},
    "Go": {"packageName", "package", "unknown"},
    "Java": {"package"},
    "C": {"header"},
    "C++": {"header"},
    "PHP": {"alias", "namespace"},
    "Rust": {"implementation"},
}
# A keyword argument as written (`f(a, regex='x')`, a line `    regex='x',` of a call: no blanks
# around `=`, as against an assignment), or a key of a dict of keywords (`{'regex': 'x'}`).
KEYWORD = re.compile(r"""(?:^|[(,])\s*([A-Za-z_]\w*)=(?!=)|['"]([A-Za-z_]\w*)['"]\s*:""")
WORD = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*")
RUBY_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*[?!]?")
# A string literal that is a name, or a path of names (`a.b`, `a::b`, `a/b`, `../a/b`).
NAME_LITERAL = re.compile(r"^(?:\.{1,2}/)*[A-Za-z_$][\w$]*(?:(?:\.|::|/|\\|-)[A-Za-z_$][\w$]*)*(?:\.\w+)?$")
# The languages whose tests name a file by its path, so that a file the change adds is a name.
FILE_LANGUAGES = {"C", "C++", "JavaScript", "Python", "Ruby", "Rust", "TypeScript"}
# Comment syntax: (line comment openers, block comment (open, close) pairs).
COMMENTS = {
    "Python": (["#"], [('"""', '"""'), ("'''", "'''")]),
    "Ruby": (["#"], [("=begin", "=end")]),
    "PHP": (["//", "#"], [("/*", "*/")]),
}
C_COMMENTS = (["//"], [("/*", "*/")])
# The lines that open a scope of a name at the base, per (language, ctags kind).
REOPENED = {
    ("C++", "namespace"): r"^\s*(inline\s+)?namespace\s+([A-Za-z_]\w*::)*{}\b",
    ("Ruby", "module"): r"^\s*module\s+([A-Z]\w*::)*{}\b",
}
TYPE_DECLARATION = re.compile(r"\b(?:class|struct|union|enum|interface|trait|namespace|module)\s+([A-Za-z_]\w*)\b")
# Declarations of a name a test file makes its own (see `code_words`).
DECLARES = [
    re.compile(r"\b(?:func|def|function|fn)\s+(?:\([^)]*\)\s*)?([A-Za-z_$][\w$]*[?!]?)"),
    re.compile(r"\b(?:public|private|protected|override)\b[^=;(){}]*?\b([A-Za-z_$][\w$]*)\s*\("),
    re.compile(r"\b(?:let|const|var)\s+(?:mut\s+)?([A-Za-z_$][\w$]*)"),
    re.compile(r"(?:^|[\s(])([A-Za-z_]\w*)(?:\s*,\s*[A-Za-z_]\w*)*\s*:="),
    # The package a Go test file stands in is where it is, not a name it uses.
    re.compile(r"^\s*package\s+(\w+)\s*$"),
]
HUNK = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")


def fail(message):
    sys.exit(f"precision: {message}")


def ensure_ctags():
    def universal():
        try:
            out = subprocess.run(["ctags", "--version"], capture_output=True, text=True).stdout
        except FileNotFoundError:
            return None
        return out.splitlines()[0] if "Universal Ctags" in out else None

    version = universal()
    if version is None:
        print("precision: installing Debian's universal-ctags (apt-get)", file=sys.stderr)
        env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
        for cmd in (["apt-get", "update", "-q"], ["apt-get", "install", "-y", "-q", "--no-install-recommends", "universal-ctags"]):
            if subprocess.run(cmd, env=env).returncode != 0:
                fail(f"`{' '.join(cmd)}` failed: install Universal Ctags (Debian package universal-ctags) and rerun")
        version = universal()
        if version is None:
            fail("`ctags` is still not Universal Ctags after apt-get install universal-ctags")
    return version


# --- patches -------------------------------------------------------------------------------------


def parse_patch(text):
    """[(old_path or None, new_path or None, hunks)], hunks = [(old_start, [lines with their sign])]."""
    files = []
    cur = None
    for line in text.splitlines():
        if line.startswith("diff --git "):
            cur = {"old": None, "new": None, "hunks": [], "binary": False}
            files.append(cur)
            m = re.match(r"diff --git a/(.*) b/(.*)$", line)
            if m:
                cur["old"], cur["new"] = m.group(1), m.group(2)
            continue
        if cur is None:
            continue
        if line.startswith("--- ") and not cur["hunks"]:
            path = line[4:].split("\t")[0]
            cur["old"] = None if path == "/dev/null" else path[2:] if path.startswith("a/") else path
        elif line.startswith("+++ ") and not cur["hunks"]:
            path = line[4:].split("\t")[0]
            cur["new"] = None if path == "/dev/null" else path[2:] if path.startswith("b/") else path
        elif line.startswith("new file mode"):
            cur["old"] = None
        elif line.startswith("deleted file mode"):
            cur["new"] = None
        elif line.startswith("Binary files") or line.startswith("GIT binary patch"):
            cur["binary"] = True
        elif line.startswith("@@"):
            m = HUNK.match(line)
            if m:
                cur["hunks"].append((int(m.group(1)), []))
        elif cur["hunks"] and line[:1] in (" ", "+", "-"):
            cur["hunks"][-1][1].append(line)
        elif cur["hunks"] and line == "":
            cur["hunks"][-1][1].append(" ")
    return files


def apply_hunks(base, hunks):
    """The file after the hunks, from its base text (hunks apply at their stated lines)."""
    old = base.split("\n")
    out = []
    at = 0  # next base line (0-based) not yet copied
    for start, lines in hunks:
        begin = max(start - 1, 0) if any(l[:1] in (" ", "-") for l in lines) else start
        out.extend(old[at:begin])
        at = begin
        for l in lines:
            if l[:1] == "+":
                out.append(l[1:])
            elif l[:1] == "-":
                at += 1
            else:
                out.append(old[at] if at < len(old) else l[1:])
                at += 1
    out.extend(old[at:])
    return "\n".join(out)


def added_lines(text):
    """[(path, line number, text)] of the lines a patch adds."""
    out = []
    path, line_no = None, 0
    for line in text.splitlines():
        if line.startswith("+++ "):
            p = line[4:].split("\t")[0]
            path = p[2:] if p.startswith("b/") else p
        elif line.startswith("@@"):
            m = HUNK.match(line)
            line_no = int(m.group(3)) if m else 0
        elif line.startswith("+"):
            out.append((path, line_no, line[1:]))
            line_no += 1
        elif line.startswith(" "):
            line_no += 1
    return out


def code_words(lang, lines):
    """[(line number, text, words)] of one file's added lines [(number, text)]: the words of
    code, as `--uses code` reads them (see the module's doc). A block comment or a Python
    docstring open at the end of a line stays open on the next added line if it follows at
    once."""
    line_comments, blocks = COMMENTS.get(lang, C_COMMENTS)
    word = RUBY_WORD if lang == "Ruby" else WORD
    out = []
    open_block, last = None, None
    for no, text in lines:
        if last is None or no != last + 1:
            open_block = None
        last = no
        code = []
        i = 0
        n = len(text)
        while i < n:
            if open_block is not None:
                end = text.find(open_block, i)
                if end < 0:
                    i = n
                    break
                i = end + len(open_block)
                open_block = None
                continue
            rest = text[i:]
            if any(rest.startswith(c) for c in line_comments) and not (lang == "PHP" and rest.startswith("#[")):
                break
            block = next((b for b in blocks if rest.startswith(b[0])), None)
            if block and not (lang == "Ruby" and i > 0):
                open_block = block[1]
                i += len(block[0])
                continue
            c = text[i]
            if c in "\"'`" and not (c == "'" and lang == "Rust" and not re.match(r"'(\\.|[^'\\])'", rest)):
                # A string literal (one line): its text if it is a name, its `{…}` code if it
                # interpolates, else nothing.
                j = i + 1
                while j < n and text[j] != c:
                    j += 2 if text[j] == "\\" else 1
                body = text[i + 1:j]
                prefix = re.search(r"[A-Za-z]*$", text[:i]).group(0).lower()
                if NAME_LITERAL.match(body):
                    code.append(" " + body.replace("/", " ").replace(".", " ") + " ")
                elif c == "`" or (lang == "Python" and "f" in prefix) or (lang == "Ruby" and c == '"'):
                    code.extend(f" {inner} " for inner in re.findall(r"\{([^{}]*)\}", body))
                code.append(" ")
                i = j + 1
                continue
            code.append(c)
            i += 1
        out.append((no, text, "".join(code)))
    # A name the file declares itself (a function or method it defines, a local it binds) is
    # its own where it stands bare: a fake's `func (m *mock) CreateFlag(…)`, `store := …`.
    own = {m.group(1) for _, _, code in out for pattern in DECLARES for m in pattern.finditer(code)}
    # A type or namespace it declares (`struct adl_serializer;` of a vendored copy of the
    # library); not a C++ specialization, which names the template (`struct locking<T>`).
    for _, _, code in out:
        for m in TYPE_DECLARATION.finditer(code):
            if not (lang in ("C", "C++") and code[m.end():].lstrip().startswith("<")):
                own.add(m.group(1))
    words = []
    for no, text, code in out:
        found = []
        for m in word.finditer(code):
            member = code[:m.start()].rstrip()[-1:] in (".", ">", ":")
            if m.group(0) not in own or member:
                found.append(m.group(0))
        words.append((no, text, found))
    return words


# --- git -----------------------------------------------------------------------------------------


class Blobs:
    """`git cat-file --batch` on one repository, kept open."""

    def __init__(self, git_dir):
        self.git_dir = git_dir
        self.grepped = {}
        self.proc = subprocess.Popen(["git", "--git-dir", git_dir, "cat-file", "--batch"],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE)

    def read(self, commit, path):
        self.proc.stdin.write(f"{commit}:{path}\n".encode())
        self.proc.stdin.flush()
        header = self.proc.stdout.readline().decode()
        if header.endswith("missing\n") or header.endswith("ambiguous\n"):
            return None
        size = int(header.split()[2])
        data = self.proc.stdout.read(size)
        self.proc.stdout.read(1)
        return data.decode("utf-8", "replace")

    def declares(self, commit, pattern):
        """Whether a file of `commit` holds a line matching the extended regex `pattern`."""
        key = (commit, pattern)
        if key not in self.grepped:
            res = subprocess.run(["git", "--git-dir", self.git_dir, "grep", "-q", "-E", pattern, commit],
                                 capture_output=True)
            self.grepped[key] = res.returncode == 0
        return self.grepped[key]

    def listing(self, commit, directory):
        """The names of the files `directory` holds at `commit` (none if it is missing)."""
        res = subprocess.run(["git", "--git-dir", self.git_dir, "ls-tree", "--name-only", f"{commit}:{directory}"],
                             capture_output=True, text=True)
        return res.stdout.split() if res.returncode == 0 else []

    def close(self):
        self.proc.stdin.close()
        self.proc.wait()


def git_dir(repos, repo):
    """The git directory of OWNER/NAME in the `--repos` layout (owner__name, owner/name or name;
    GitHub's names are case-insensitive, so is this lookup)."""
    wanted = {repo.replace("/", "__").lower(), repo.split("/")[-1].lower()}
    names = [n for n in os.listdir(repos) if n.lower() in wanted]
    owner_dir = os.path.join(repos, repo.split("/")[0])
    if os.path.isdir(owner_dir):
        names += [os.path.join(repo.split("/")[0], n) for n in os.listdir(owner_dir) if n.lower() == repo.split("/")[-1].lower()]
    for name in names:
        for cand in (os.path.join(repos, name, ".git"), os.path.join(repos, name)):
            if os.path.isdir(os.path.join(cand, "objects")):
                return cand
    return None


# --- ctags ---------------------------------------------------------------------------------------


def ctags_defs(files, scratch):
    """{label: [(name, scope_tail, kind, line, language)]} for {label: (language, text)}."""
    paths = {}
    for i, (label, (lang, text)) in enumerate(files.items()):
        ext = os.path.splitext(label[1])[1]
        p = os.path.join(scratch, f"{i}{ext}")
        with open(p, "w") as f:
            f.write(text)
        paths[p] = (label, lang)
    out = defaultdict(list)
    if not paths:
        return out
    # --language-force applies to every file of a run: one run per language.
    by_lang = defaultdict(list)
    for p, (_, lang) in paths.items():
        by_lang[lang].append(p)
    for lang, ps in by_lang.items():
        # Python's parameters too (off by default): a keyword a test passes to an existing
        # callable is a name the change chose.
        kinds = ["--kinds-Python=+z"] if lang == "Python" else []
        res = subprocess.run(["ctags", "--output-format=json", "--fields=+nKZ", *kinds, f"--language-force={lang}", "-f", "-", *ps],
                             capture_output=True, text=True)
        for line in res.stdout.splitlines():
            try:
                tag = json.loads(line)
            except json.JSONDecodeError:
                continue
            if tag.get("_type") != "tag":
                continue
            label, _ = paths[tag["path"]]
            kind = tag.get("kind", "")
            if kind in SKIP_KINDS.get(lang, ()):
                continue
            scope = tag.get("scope", "")
            tail = re.split(r"::|\.|\\|/", scope)[-1] if scope else ""
            # An anonymous scope's name is ctags's own, a hash that differs between B and R.
            if tail.startswith("__anon"):
                tail = "<anonymous>"
            out[label].append((tag["name"], tail, kind, tag.get("line", 0), lang))
        for p in ps:
            os.unlink(p)
    return out


# --- one task ------------------------------------------------------------------------------------


def renamed_members(defs):
    """The (name, scope) keys of the reference's members that a renamed scope kept: a scope only
    the reference has whose members (name, kind) share more than half of each side's with a
    scope only the base has (the one sharing most)."""
    members = {"B": defaultdict(set), "R": defaultdict(set)}
    for (side, _), ds in defs.items():
        for name, tail, kind, *_ in ds:
            if tail:
                members[side][tail].add((name, kind))
    base_only = [t for t in members["B"] if t not in members["R"]]
    kept = set()
    for tail, ours in members["R"].items():
        if tail in members["B"]:
            continue
        shares = [(len(ours & members["B"][b]), b) for b in base_only]
        shares = [(n, b) for n, b in shares if 2 * n > len(ours) and 2 * n > len(members["B"][b])]
        if shares:
            _, b = max(shares)
            kept |= {(name, tail) for name, kind in ours & members["B"][b]}
    return kept


def patch_of(task):
    for key in ("patch", "fix_patch", "feature_patch"):
        if task.get(key):
            return task[key]
    return ""


def measure(task, record, blobs, scratch, h_is_cpp, uses="code"):
    """(extractor's {(lang, name): where}, hintlens's {(lang, name): where}, languages, test words)."""
    base = task["base_commit"]
    code = [f for f in parse_patch(patch_of(task)) if not f["binary"]]

    def lang_of(path):
        ext = os.path.splitext(path or "")[1].lower()
        lang = ENDINGS.get(ext)
        if ext == ".h" and h_is_cpp:
            lang = "C++"
        return lang

    files = {}
    languages = set()
    for f in code:
        lang = lang_of(f["new"] or f["old"])
        if lang is None:
            continue
        languages.add(lang)
        before = blobs.read(base, f["old"]) if f["old"] else ""
        if before is None:
            before = ""
        after = apply_hunks(before, f["hunks"]) if f["new"] else ""
        if f["old"]:
            files[("B", f["old"])] = (lang, before)
        if f["new"]:
            files[("R", f["new"])] = (lang, after)
    defs = ctags_defs(files, scratch)
    at_base = {(name, tail) for (side, _), ds in defs.items() if side == "B" for name, tail, *_ in ds}
    at_base |= renamed_members(defs)
    base_names = {name for name, _ in at_base}
    tests = added_lines(task.get("test_patch", ""))
    if uses == "code":
        by_file = defaultdict(list)
        for path, no, text in tests:
            if lang_of(path) is not None:
                by_file[path].append((no, text))
        tests = [(path, no, text) for path, lines in by_file.items() for no, text in lines]
        worded = [(path, no, text, words) for path, lines in by_file.items()
                  for no, text, words in code_words(lang_of(path), lines)]
    else:
        worded = [(path, no, text, WORD.findall(text)) for path, no, text in tests]
    first_use = {}
    for path, no, text, words in worded:
        for w in words:
            first_use.setdefault(w, f"{path}:{no}: {text.strip()[:100]}")
    keywords = {m.group(1) or m.group(2) for _, _, text in tests for m in KEYWORD.finditer(text)}
    extractor = {}
    for (side, path), ds in defs.items():
        if side != "R":
            continue
        for name, tail, kind, line, lang in ds:
            if (name, tail) in at_base or name not in first_use:
                continue
            # A scope any file of the base opens (a C++ namespace, a Ruby module, which every
            # file of a library reopens) is no new one.
            reopened = REOPENED.get((lang, kind))
            if reopened and blobs.declares(base, reopened.format(re.escape(name))):
                continue
            # A new callable's parameters are its signature, not names of their own; a
            # parameter is used as a keyword (`name=`, or a `'name':` of a dict of keywords).
            if kind == "parameter" and (tail not in base_names or name not in keywords):
                continue
            extractor.setdefault((lang, name), f"{path}:{line} {kind} {tail + '::' if tail else ''}{name}")
    if uses == "code":
        for f in code:
            lang = lang_of(f["new"])
            if f["old"] or not f["new"] or lang not in FILE_LANGUAGES:
                continue
            stem = os.path.splitext(os.path.basename(f["new"]))[0]
            if stem in ("__init__", "index", "mod"):
                stem = os.path.basename(os.path.dirname(f["new"]))
            if stem in first_use and (stem, "") not in at_base:
                extractor.setdefault((lang, stem), f"{f['new']}:1 file {stem}")
        # A Go package is a directory: new where B had no Go file in it.
        for directory in {os.path.dirname(f["new"]) for f in code if f["new"] and not f["old"] and lang_of(f["new"]) == "Go"}:
            name = os.path.basename(directory)
            if name in first_use and not any(n.endswith(".go") for n in blobs.listing(base, directory or ".")):
                extractor.setdefault(("Go", name), f"{directory}:1 package {name}")
    lang_by_path = {path: lang for (side, path), (lang, _) in files.items()}
    hintlens = {}
    for ident in record.get("selections", {}).get("defuse", []):
        if ident.get("direction") != "code->test":
            continue
        # A package's path is its directory: the language of the changed files in it.
        in_dir = next((l for p, l in lang_by_path.items() if os.path.dirname(p) == ident["path"]), None)
        lang = lang_by_path.get(ident["path"]) or lang_of(ident["path"]) or in_dir or "other"
        ev = ident.get("evidence", [])
        use = f"{ev[0]['path']}:{ev[0]['line']}" if ev else ""
        hintlens.setdefault((lang, ident["name"]),
                            f"{ident['path']}:{ident['line']} {ident['kind']} {ident['qualified_name']} (use {use})")
    return extractor, hintlens, languages, first_use


# --- main ----------------------------------------------------------------------------------------


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("datasets", nargs="+")
    p.add_argument("--repos", required=True)
    p.add_argument("--bin", default="target/release/hintlens")
    p.add_argument("--out", default="target/precision")
    p.add_argument("--results", help="read DIR/NAME.jsonl instead of running the batch")
    p.add_argument("--sample", type=int, default=0)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--uses", choices=["code", "words"], default="code",
                   help="what of the test patch's added lines is a use (see above)")
    a = p.parse_args()
    version = ensure_ctags()
    print(f"extractor: {version}", file=sys.stderr)
    os.makedirs(os.path.join(a.out, "results"), exist_ok=True)
    scratch = tempfile.mkdtemp(prefix="precision-")

    totals = {l: defaultdict(int) for l in LANGUAGES + ["other"]}
    disagreements = []
    for ds in a.datasets:
        name = os.path.splitext(os.path.basename(ds))[0]
        parent = os.path.basename(os.path.dirname(os.path.abspath(ds)))
        if parent not in ("datasets",):
            name = f"{parent}-{name}"
        if a.results:
            results = os.path.join(a.results, f"{name}.jsonl")
            if not os.path.exists(results):
                fail(f"no results for {ds} at {results}")
        else:
            results = os.path.join(a.out, "results", f"{name}.jsonl")
            if not os.path.exists(a.bin):
                fail(f"no hintlens binary at {a.bin}: `cargo build --release -p hintlens-cli` or pass --bin")
            run = subprocess.run([a.bin, "batch", ds, "--repos", a.repos, "--out", results],
                                 capture_output=True, text=True)
            # The batch exits 1 when some task failed; its records (the failed ones too) are
            # written all the same, and the failed tasks are left out below.
            if run.returncode != 0 and not (os.path.exists(results) and os.path.getsize(results)):
                print(f"precision: batch of {ds} failed ({run.returncode}): {run.stderr.strip()[-400:]}", file=sys.stderr)
                continue
            if run.returncode != 0:
                print(f"precision: {ds}: {run.stderr.strip().splitlines()[-1]}", file=sys.stderr)
        records = {}
        for line in open(results):
            if line.strip():
                r = json.loads(line)
                records[r["instance_id"]] = r
        tasks = [json.loads(l) for l in open(ds) if l.strip()]
        # `.h` is C++ in a repository whose code patches touch any C++ ending.
        cpp_repos = {t["repo"] for t in tasks
                     if any(ENDINGS.get(os.path.splitext(f["new"] or f["old"] or "")[1].lower()) == "C++"
                            for f in parse_patch(patch_of(t)))}
        cpp_repos |= {r.get("repo") for r in records.values() if r.get("coverage", {}).get("read_as", {}).get(".h") == "cpp"}
        blobs_by_repo = {}
        for t in tasks:
            r = records.get(t["instance_id"])
            if r is None or r.get("status") != "ok":
                continue
            gd = git_dir(a.repos, t["repo"])
            if gd is None:
                print(f"precision: no repository for {t['repo']} under {a.repos}", file=sys.stderr)
                continue
            blobs = blobs_by_repo.get(gd) or blobs_by_repo.setdefault(gd, Blobs(gd))
            ex, hl, langs, uses = measure(t, r, blobs, scratch, t["repo"] in cpp_repos, a.uses)
            for l in langs:
                totals[l]["tasks"] += 1
            for key in set(ex) | set(hl):
                lang, nm = key
                tot = totals.setdefault(lang, defaultdict(int))
                if key in hl:
                    tot["hintlens"] += 1
                if key in ex:
                    tot["extractor"] += 1
                if key in hl and key in ex:
                    tot["both"] += 1
                    continue
                side = "hintlens-only" if key in hl else "extractor-only"
                where = hl.get(key) or ex.get(key)
                disagreements.append((lang, side, t["instance_id"], nm, where, uses.get(nm, "")))
        for b in blobs_by_repo.values():
            b.close()
    shutil.rmtree(scratch, ignore_errors=True)

    def ratio(n, d):
        return f"{n / d:.2f}" if d else "-"

    print(f"{'language':<11} {'tasks':>5} {'hintlens':>8} {'ctags':>6} {'both':>5} {'precision':>9} {'recall':>6}")
    pooled = defaultdict(int)
    for lang in LANGUAGES + ["other"]:
        t = totals.get(lang, {})
        if not t.get("tasks") and not t.get("hintlens"):
            continue
        for k in ("tasks", "hintlens", "extractor", "both"):
            pooled[k] += t.get(k, 0)
        print(f"{lang:<11} {t.get('tasks', 0):>5} {t.get('hintlens', 0):>8} {t.get('extractor', 0):>6} {t.get('both', 0):>5} "
              f"{ratio(t.get('both', 0), t.get('hintlens', 0)):>9} {ratio(t.get('both', 0), t.get('extractor', 0)):>6}")
    print(f"{'all':<11} {pooled['tasks']:>5} {pooled['hintlens']:>8} {pooled['extractor']:>6} {pooled['both']:>5} "
          f"{ratio(pooled['both'], pooled['hintlens']):>9} {ratio(pooled['both'], pooled['extractor']):>6}")

    header = "language\tside\ttask\tname\tdefinition\tfirst test use\n"
    with open(os.path.join(a.out, "disagreements.tsv"), "w") as f:
        f.write(header)
        for d in sorted(disagreements):
            f.write("\t".join(d) + "\n")
    print(f"{len(disagreements)} disagreements in {os.path.join(a.out, 'disagreements.tsv')}", file=sys.stderr)
    if a.sample:
        rng = random.Random(a.seed)
        with open(os.path.join(a.out, "sample.tsv"), "w") as f:
            f.write("judgement\t" + header)
            for lang in LANGUAGES + ["other"]:
                mine = [d for d in sorted(disagreements) if d[0] == lang]
                for d in rng.sample(mine, min(a.sample, len(mine))):
                    f.write("\t" + "\t".join(d) + "\n")
        print(f"sample of {a.sample} per language in {os.path.join(a.out, 'sample.tsv')}", file=sys.stderr)


if __name__ == "__main__":
    main()
