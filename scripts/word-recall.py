#!/usr/bin/env python3
"""Word recall of a C/C++ DefUse run: how many names a task's code patch defines and its test
patch uses does `defuse` select (evaluation only; no test depends on it).

Usage:
  scripts/word-recall.py --repos DIR DATASET.jsonl RESULTS.jsonl [DATASET.jsonl RESULTS.jsonl]...
      [--sample N --seed S] [--quiet]

DIR holds the repositories in the `--repos` layout (`owner__name`, bare or not); every
repository is read with `git` only (`git show`, `git grep`), never checked out.

An *expected name* of a task is a word W such that
  1. the code patch introduces W in a defining position in a C or C++ file (by ending: .c .h
     .cc .cpp .cxx .c++ .hpp .hh .hxx .h++ .ipp .tpp .inl): the token stands on a line the patch
     adds, and a small declaration scanner over the patched file (comments, strings and
     preprocessor lines blanked; braces tracked as namespace / class / enum / function /
     initializer blocks) places it as
       - the name of a `#define` (object- or function-like), on an added line;
       - the name after `namespace` (each part of `a::b`, `inline namespace` too), after
         `class`/`struct`/`union`/`enum` [`class`] when a body, a base list or `;` follows, or
         after `concept`;
       - an enumerator (the first word of an item of an enum body);
       - `using W =`, the declared name of a `typedef` (the one after `(*` for a function
         pointer, else the last word);
       - at namespace, file or class scope (never inside a function body or an initializer):
         a function's or method's name (the word before the declaration's first `(` at bracket
         depth 0, after at least one word of return type or a specifier; a destructor, an
         `operator` and a name followed by `(` with nothing before it — a macro invocation —
         are not), or a variable's or field's name (the last word before the first `=`, `[`,
         `{`, `:` or `;` of the first declarator, after at least one word of type);
     this is an approximation of C's and C++'s grammar, not a parser: it reads one file at a
     time and does not expand macros (a declaration wrapped in a macro call is missed, a macro
     invocation with a type-like word before it may be taken for a declaration);
  2. W occurs as a word (git grep -w: [A-Za-z0-9_] boundaries) in no text file of the base
     tree (`git grep -I`, so binary files are not read);
  3. W occurs as a word on a line the test patch adds, in any file of the test patch (comments
     and the contents of string literals left out in C and C++ files; other files — jq's
     `.test` programs, shell scripts — are read whole, and a miss there says so).

Recall = expected names `defuse` selects, by simple name (an identifier's `name` or a member's,
in either direction: a prototype the code adds for a function the test defines is selected
test->code) / expected names, counted once per (task, name). Printed per repository and
pooled; every miss is listed with the task id, the name, where the code patch defines it and the
first added test line using it. `--sample N --seed S` also prints N expected names drawn at random,
for checking the measure by hand.
"""

import argparse
import json
import os
import random
import re
import subprocess
import sys
from collections import defaultdict

C_ENDINGS = (".c", ".h", ".cc", ".cpp", ".cxx", ".c++", ".hpp", ".hh", ".hxx", ".h++", ".ipp", ".tpp", ".inl")
WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
KEYWORDS = {
    "alignas", "alignof", "auto", "bool", "break", "case", "catch", "char", "class", "const", "const_cast",
    "consteval", "constexpr", "constinit", "continue", "decltype", "default", "delete", "do", "double",
    "dynamic_cast", "else", "enum", "explicit", "export", "extern", "false", "float", "for", "friend", "goto",
    "if", "inline", "int", "long", "mutable", "namespace", "new", "noexcept", "nullptr", "operator", "private",
    "protected", "public", "register", "reinterpret_cast", "return", "short", "signed", "sizeof", "static",
    "static_assert", "static_cast", "struct", "switch", "template", "this", "throw", "true", "try", "typedef",
    "typeid", "typename", "union", "unsigned", "using", "virtual", "void", "volatile", "while", "override",
    "final", "concept", "requires", "co_return", "co_await", "co_yield",
}
# Words that cannot end a type before a declared name (`return f(x);` declares nothing).
NOT_TYPES = {"return", "else", "case", "goto", "throw", "new", "delete", "co_return", "co_await", "co_yield",
             "static_assert", "friend", "using", "do"}


def is_c(path):
    return path.endswith(C_ENDINGS)


# ----- patches -----

def parse_patch(text):
    """{path: (is_new, [(old_start, old_lines, new_start, [(tag, line)])])} of a unified diff."""
    files = {}
    cur = None
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("diff --git "):
            cur = None
        elif line.startswith("--- "):
            old = line[4:].strip()
            new = lines[i + 1][4:].strip() if i + 1 < len(lines) and lines[i + 1].startswith("+++ ") else ""
            i += 1
            if new == "/dev/null":
                cur = None
            else:
                path = new[2:] if new.startswith("b/") else new
                path = path.split("\t")[0]
                cur = files.setdefault(path, [old == "/dev/null", []])
        elif line.startswith("@@") and cur is not None:
            m = re.match(r"@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@", line)
            old_start, old_n = int(m.group(1)), int(m.group(2) or 1)
            new_n = int(m.group(4) or 1)
            body = []
            i += 1
            o, n = old_n, new_n
            while i < len(lines) and (o > 0 or n > 0):
                l = lines[i]
                if l.startswith("\\"):
                    i += 1
                    continue
                tag, rest = (l[:1] or " "), l[1:]
                body.append((tag, rest))
                if tag in " -":
                    o -= 1
                if tag in " +":
                    n -= 1
                i += 1
            cur[1].append((old_start, old_n, int(m.group(3)), body))
            continue
        i += 1
    return files


def apply_hunks(base_lines, hunks):
    """The patched file's lines and the (1-based) numbers of the lines the hunks add."""
    out, added = [], set()
    pos = 0  # index into base_lines
    for old_start, old_n, _new_start, body in hunks:
        start = old_start - 1 if old_n > 0 else old_start
        out.extend(base_lines[pos:start])
        pos = start
        for tag, text in body:
            if tag == " ":
                out.append(base_lines[pos] if pos < len(base_lines) else text)
                pos += 1
            elif tag == "-":
                pos += 1
            else:
                out.append(text)
                added.add(len(out))
    out.extend(base_lines[pos:])
    return out, added


def added_lines(hunks):
    """(new line number, text) of every added line."""
    for _old_start, _old_n, new_start, body in hunks:
        n = new_start
        for tag, text in body:
            if tag == "+":
                yield n, text
            if tag in " +":
                n += 1


# ----- C and C++ text -----

def blank_code(text):
    """The text with comments, string and character literals and preprocessor lines blanked
    (newlines kept), and the `#define`d names with their line numbers."""
    out = []
    defines = []
    i, n = 0, len(text)
    line = 1
    at_line_start = True
    while i < n:
        c = text[i]
        if c == "\n":
            out.append(c)
            line += 1
            at_line_start = True
            i += 1
            continue
        if at_line_start and c in " \t":
            out.append(c)
            i += 1
            continue
        if at_line_start and c == "#":
            # A directive, with its continuation lines.
            j = i
            while j < n:
                k = text.find("\n", j)
                if k == -1:
                    k = n
                if k > j and text[k - 1] == "\\":
                    j = k + 1
                    continue
                break
            directive = text[i:k]
            m = re.match(r"#\s*define\s+([A-Za-z_]\w*)", directive)
            if m:
                defines.append((m.group(1), line))
            for ch in directive:
                out.append("\n" if ch == "\n" else " ")
                if ch == "\n":
                    line += 1
            i = k
            continue
        at_line_start = False
        if c == "/" and text.startswith("//", i):
            k = text.find("\n", i)
            k = n if k == -1 else k
            out.append(" " * (k - i))
            i = k
        elif c == "/" and text.startswith("/*", i):
            k = text.find("*/", i + 2)
            k = n if k == -1 else k + 2
            for ch in text[i:k]:
                out.append("\n" if ch == "\n" else " ")
                line += ch == "\n"
            i = k
        elif c == "R" and text.startswith('R"', i) and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            m = re.match(r'R"([^(\s]{0,16})\(', text[i:])
            if m:
                end = text.find(")" + m.group(1) + '"', i)
                end = n if end == -1 else end + len(m.group(1)) + 2
                for ch in text[i:end]:
                    out.append("\n" if ch == "\n" else " ")
                    line += ch == "\n"
                i = end
            else:
                out.append(c)
                i += 1
        elif c in "\"'":
            if c == "'" and i > 0 and text[i - 1].isalnum() and i + 1 < n and text[i + 1].isalnum():
                out.append(" ")  # a digit separator (1'000)
                i += 1
                continue
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
            out.append(" " * (j - i))
            i = j
        else:
            out.append(c)
            i += 1
    return "".join(out), defines


TOKEN = re.compile(r"[A-Za-z_]\w*|::|->|[<>=!+\-*/%&|^]=|\d[\w.']*|\S")


def tokens(text):
    line = 1
    pos = 0
    for m in TOKEN.finditer(text):
        line += text.count("\n", pos, m.start())
        pos = m.start()
        yield m.group(0), line


def is_word(t):
    return bool(WORD.fullmatch(t)) and t != "<body>"


def strip_template(head):
    """The head without its leading `template <…>` clauses and `[[attributes]]`."""
    while head:
        if head[0][0] == "template" and len(head) > 1 and head[1][0] == "<":
            depth, paren, k = 0, 0, 1
            while k < len(head):
                t = head[k][0]
                if t == "(":
                    paren += 1
                elif t == ")":
                    paren -= 1
                elif paren == 0 and t == "<":
                    depth += 1
                elif paren == 0 and t == ">":
                    depth -= 1
                    if depth == 0:
                        break
                k += 1
            head = head[k + 1:]
        elif head[0][0] == "[" and len(head) > 1 and head[1][0] == "[":
            k = 2
            while k + 1 < len(head) and not (head[k][0] == "]" and head[k + 1][0] == "]"):
                k += 1
            head = head[k + 2:]
        else:
            break
    return head


def top_level(head):
    """(index, token) of the head's tokens outside parentheses and brackets."""
    depth = 0
    for k, (t, _) in enumerate(head):
        if t in ")]":
            depth -= 1
        if depth == 0:
            yield k, t
        if t in "([":
            depth += 1


def class_name(head, keys):
    """The name after the first class key of `keys` in the head (skipping attributes and
    `class`/`struct` of `enum class`), or None."""
    for k, (t, _) in enumerate(head):
        if t in keys:
            j = k + 1
            while j < len(head) and head[j][0] in ("class", "struct", "alignas", "[", "]") or (
                    j < len(head) and head[j][0] in ("(", ")")):
                j += 1
            # Skip attribute and export macros (`FMT_API`, `CATCH_EXPORT`): the name is the
            # last word before `{`, `:`, `;`, `<` or `final`.
            last = None
            while j < len(head) and head[j][0] not in (":", ";", "<", "{", "final", "<body>"):
                if is_word(head[j][0]) and head[j][0] not in KEYWORDS:
                    last = head[j]
                elif head[j][0] == "::":
                    last = None
                j += 1
            return last
    return None


def declaration_names(head, scope):
    """The names a statement of a namespace, file or class scope declares, as (word, line)."""
    # Access specifiers (`public:`) end nothing here but must not count as types.
    cleaned = []
    k = 0
    while k < len(head):
        if head[k][0] in ("public", "private", "protected") and k + 1 < len(head) and head[k + 1][0] == ":":
            k += 2
            continue
        cleaned.append(head[k])
        k += 1
    head = strip_template(cleaned)
    if not head:
        return []
    words = [t for t, _ in head]
    if "friend" in words or words[0] in ("static_assert", "return"):
        return []
    if words[0] == "using":
        if len(words) > 2 and is_word(words[1]) and words[2] == "=" and words[1] != "namespace":
            return [head[1]]
        return []
    if words[0] == "typedef":
        for k in range(len(head) - 2):
            if words[k] == "(" and words[k + 1] in ("*", "^", "&") and is_word(words[k + 2]):
                return [head[k + 2]]
        idx = [k for k, t in top_level(head) if is_word(t) and t not in KEYWORDS]
        return [head[idx[-1]]] if idx else []
    if "concept" in words:
        k = words.index("concept")
        return [head[k + 1]] if k + 1 < len(head) and is_word(words[k + 1]) else []
    if any(w in ("class", "struct", "union", "enum") for w in words) and "(" not in words:
        name = class_name(head, ("class", "struct", "union", "enum"))
        # `struct x y;` declares y too.
        names = [name] if name else []
        return names + variable_names(head, after_type=True)
    if "=" in [t for _, t in top_level(head)]:
        eq = next(k for k, t in top_level(head) if t == "=")
        # `f(…) const = default;` declares a function; `T x = …;` a variable.
        if ")" not in [t for _, t in top_level(head[:eq])][-3:]:
            return variable_names(head[:eq + 1])
    if "(" in words:
        return function_name(head)
    return variable_names(head)


def function_name(head):
    """The name of a function a head declares: the word before the first top-level `(` whose
    word is no keyword (`enable_if_t<sizeof(T) < 4, T> f(…)`) and has a type before it."""
    for first, t in top_level(head):
        if t != "(" or first == 0 or not is_word(head[first - 1][0]) or head[first - 1][0] in KEYWORDS:
            continue
        names = function_named(head, first)
        if names:
            return names
    # A function pointer: `int (*name)(…)`.
    for first, t in top_level(head):
        if t == "(" and first + 2 < len(head) and head[first + 1][0] in ("*", "&", "^") and is_word(head[first + 2][0]):
            before = [t for t, _ in head[:first] if is_word(t)]
            return [head[first + 2]] if before else []
    return []


def function_named(head, first):
    k = first - 1
    # The qualified name's parts (`ns::T::f`).
    while k >= 2 and head[k - 1][0] == "::" and is_word(head[k - 2][0]):
        k -= 2
    if k >= 1 and head[k - 1][0] == "::":
        k -= 1
    if k >= 1 and head[k - 1][0] in ("~", "operator"):
        return []
    before = head[:k]
    if not any(is_word(t) and t not in NOT_TYPES or t in ("*", "&", ">", "<body>", "]") for t, _ in before):
        return []
    if any(t in NOT_TYPES or t in ("=", ".", "->", "?", "return") for t, _ in before):
        return []
    return [head[first - 1]]


def variable_names(head, after_type=False):
    stop = None
    for k, t in top_level(head):
        if t in ("=", "[", "{", ";", ",") or (t == ":" and k > 0):
            stop = k
            break
    part = head[:stop] if stop is not None else head
    if len(part) < 2:
        return []
    last = part[-1]
    if not is_word(last[0]) or last[0] in KEYWORDS:
        return []
    before = part[:-1]
    if before[-1][0] in (".", "->", "::", "~", "operator"):
        return []
    if any(t in NOT_TYPES or t in ("=", "(", ")") for t, _ in before):
        return []
    if not any(is_word(t) or t in ("*", "&", ">", "<body>") for t, _ in before):
        return []
    return [last]


def defined_names(text):
    """(word, line) of every name the file defines, as the module docstring says."""
    code, defines = blank_code(text)
    out = list(defines)
    stack = [("file", None)]
    head = []
    paren = 0
    enum_item = []
    for t, line in tokens(code):
        scope = stack[-1][0]
        if scope in ("function", "expr", "block"):
            if t == "{":
                stack.append(("block", None))
            elif t == "}":
                kind, saved = stack.pop()
                if stack[-1][0] in ("file", "namespace", "class", "enum") and kind != "block":
                    head = saved if saved is not None else []
            continue
        if scope == "enum":
            if t == "{":
                stack.append(("expr", enum_item + [("<body>", line)]))
                enum_item = []
                continue
            if t in (",", "}"):
                item = strip_template(enum_item)
                if item and is_word(item[0][0]):
                    out.append(item[0])
                enum_item = []
                if t == "}":
                    _, saved = stack.pop()
                    head = saved
                continue
            enum_item.append((t, line))
            continue
        # A namespace, file or class scope: statements.
        if t in "([":
            paren += 1
        elif t in ")]":
            paren = max(0, paren - 1)
        if paren > 0 and t not in "([":
            if t == "{":
                # A lambda or braced value inside parentheses: the statement goes on after it.
                stack.append(("expr", head + [("{}", line)]))
                head = []
                continue
            head.append((t, line))
            continue
        if t == ";":
            out.extend(declaration_names(head, scope))
            head = []
            continue
        if t == ":" and scope == "class" and len(head) == 1 and head[0][0] in ("public", "private", "protected"):
            head = []
            continue
        if t == "{":
            h = strip_template(head)
            words = [w for w, _ in h]
            if "namespace" in words and "=" not in words:
                k = words.index("namespace")
                out.extend(x for x in h[k + 1:] if is_word(x[0]) and x[0] not in KEYWORDS)
                stack.append(("namespace", None))
                head = []
            elif words and words[0] == "extern" and len(words) == 1:
                stack.append(("namespace", None))
                head = []
            elif "enum" in words and "(" not in words and "=" not in words:
                name = class_name(h, ("enum",))
                if name:
                    out.append(name)
                stack.append(("enum", head + [("<body>", line)]))
                head = []
                enum_item = []
            elif any(w in ("class", "struct", "union") for w in words) and "=" not in [t for _, t in top_level(h)] and (
                    "(" not in words or ":" in words and words.index(":") < words.index("(")):
                name = class_name(h, ("class", "struct", "union"))
                if name:
                    out.append(name)
                stack.append(("class", head + [("<body>", line)]))
                head = []
            elif "=" in [t for _, t in top_level(h)] or ("(" not in words and words):
                # A braced value: `T x = {…}`, `T x{…}`: x is declared, the statement goes on.
                if "=" not in [t for _, t in top_level(h)]:
                    out.extend(variable_names(h + [("{", line)]))
                    stack.append(("expr", [("<init>", line)]))
                else:
                    stack.append(("expr", head + [("<init>", line)]))
                head = []
            elif "(" in words:
                out.extend(function_name(h))
                stack.append(("function", None))
                head = []
            else:
                stack.append(("block", None))
                head = []
            continue
        if t == "}":
            if len(stack) > 1:
                kind, saved = stack.pop()
                if kind in ("class",):
                    head = saved
                else:
                    head = []
            continue
        head.append((t, line))
    # `<init>` marks a declaration already recorded.
    return sorted({(w, l) for w, l in out if w not in ("<init>", "<body>")}, key=lambda x: x[1])


def test_words(path, text, state):
    """The words of an added test line: code only in C and C++ files."""
    if not is_c(path):
        return set(WORD.findall(text))
    out = []
    i = 0
    while i < len(text):
        if state["comment"]:
            k = text.find("*/", i)
            if k == -1:
                return set(WORD.findall(" ".join(out)))
            state["comment"] = False
            i = k + 2
            continue
        c = text[i]
        if text.startswith("//", i):
            break
        if text.startswith("/*", i):
            state["comment"] = True
            i += 2
            continue
        if c in "\"'" and not (c == "'" and i > 0 and text[i - 1].isalnum()):
            j = i + 1
            while j < len(text) and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            i = j + 1
            out.append(" ")
            continue
        out.append(c)
        i += 1
    return set(WORD.findall("".join(out)))


# ----- git -----

def git(repo, *args, input=None):
    return subprocess.run(["git", "-C", repo, *args], input=input, capture_output=True, check=False).stdout


def base_file(repo, commit, path):
    out = subprocess.run(["git", "-C", repo, "show", f"{commit}:{path}"], capture_output=True)
    return out.stdout.decode("utf-8", "replace") if out.returncode == 0 else ""


def words_in_base(repo, commit, words):
    """The words of `words` occurring as a word in some text file of the base tree."""
    found = set()
    words = sorted(words)
    for start in range(0, len(words), 200):
        chunk = words[start:start + 200]
        args = ["grep", "-I", "-w", "-F", "-o", "-h"]
        for w in chunk:
            args += ["-e", w]
        args.append(commit)
        out = git(repo, *args).decode("utf-8", "replace")
        for line in out.splitlines():
            found.add(line.split(":", 2)[-1] if line.startswith(commit) else line)
    return found & set(words)


def repo_dir(repos, name):
    for candidate in (name.replace("/", "__"), name, name.split("/")[-1]):
        p = os.path.join(repos, candidate)
        if os.path.isdir(p):
            return p
    sys.exit(f"no repository for {name} under {repos}")


# ----- the measure -----

def expected_names(repo, task):
    """{name: (def path, def line, test path, test line, test text)} of one task."""
    code = parse_patch(task.get("patch") or "")
    tests = parse_patch(task.get("test_patch") or "")
    defined = {}
    for path, (is_new, hunks) in code.items():
        if not is_c(path):
            continue
        base = "" if is_new else base_file(repo, task["base_commit"], path)
        lines, added = apply_hunks(base.split("\n") if base else [], hunks)
        for word, line in defined_names("\n".join(lines)):
            if line in added and word not in KEYWORDS:
                defined.setdefault(word, (path, line))
    used = {}
    for path, (_is_new, hunks) in tests.items():
        state = {"comment": False}
        for n, text in added_lines(hunks):
            for w in test_words(path, text, state):
                if w in defined:
                    used.setdefault(w, (path, n, text.strip()))
    if not used:
        return {}
    in_base = words_in_base(repo, task["base_commit"], used)
    return {w: defined[w] + used[w] for w in used if w not in in_base}


def selected_names(record):
    names = set()

    def walk(idents):
        for i in idents:
            names.add(i["name"])
            walk(i.get("members") or [])

    walk((record.get("selections") or {}).get("defuse") or [])
    return names


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repos", required=True)
    ap.add_argument("pairs", nargs="+", help="DATASET.jsonl RESULTS.jsonl, repeated")
    ap.add_argument("--sample", type=int, default=0)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--quiet", action="store_true", help="totals only, no misses")
    args = ap.parse_args()
    if len(args.pairs) % 2:
        sys.exit("give DATASET RESULTS pairs")
    per_repo = defaultdict(lambda: [0, 0])
    misses, everything = [], []
    for dataset, results in zip(args.pairs[::2], args.pairs[1::2]):
        records = {}
        for line in open(results):
            if line.strip():
                r = json.loads(line)
                records[r["instance_id"]] = r
        for line in open(dataset):
            if not line.strip():
                continue
            task = json.loads(line)
            repo = repo_dir(args.repos, task["repo"])
            expected = expected_names(repo, task)
            record = records.get(task["instance_id"])
            selected = selected_names(record) if record else set()
            for name, where in sorted(expected.items()):
                hit = name in selected
                per_repo[task["repo"]][0] += 1
                per_repo[task["repo"]][1] += hit
                everything.append((task["instance_id"], name, where, hit))
                if not hit:
                    status = record.get("status") if record else "no record"
                    misses.append((task["instance_id"], name, where, status))
    total = [0, 0]
    print("repository\texpected\tselected\trecall")
    for repo, (e, s) in sorted(per_repo.items()):
        total[0] += e
        total[1] += s
        print(f"{repo}\t{e}\t{s}\t{s / e:.3f}" if e else f"{repo}\t0\t0\t-")
    if total[0]:
        print(f"pooled\t{total[0]}\t{total[1]}\t{total[1] / total[0]:.3f}")
    if not args.quiet:
        print(f"\nmisses ({len(misses)}):")
        for iid, name, (dp, dl, tp, tl, text), status in misses:
            note = "" if status == "ok" else f" [{status}]"
            print(f"{iid}\t{name}\tdefined {dp}:{dl}\tused {tp}:{tl}: {text[:120]}{note}")
    if args.sample:
        rng = random.Random(args.seed)
        print(f"\nsample of {args.sample} expected names (seed {args.seed}):")
        for iid, name, (dp, dl, tp, tl, text), hit in rng.sample(everything, min(args.sample, len(everything))):
            print(f"{iid}\t{name}\t{'hit' if hit else 'MISS'}\tdefined {dp}:{dl}\tused {tp}:{tl}: {text[:100]}")


if __name__ == "__main__":
    main()
