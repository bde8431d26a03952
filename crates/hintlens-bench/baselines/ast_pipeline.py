#!/usr/bin/env python3
"""The per-task pipeline benchmark builders run today (FEA-Bench's and NoCode-bench's shape),
as the baseline `hintlens-bench demand` measures hintlens against. Not a product feature.

For every task of a JSON-lines dataset (fields: base_commit, patch, test_patch), in one
process: check the base commit out into a fresh directory, `git apply` the code and the test
patch, and parse every touched Python file with `ast` (files of other languages are read: the
pipeline's parse step is Python's, so for them this is a lower bound of its cost). Prints the
number of tasks and of parsed files.

usage: ast_pipeline.py DATASET.jsonl GIT_DIR
"""
import ast
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile


def touched(patch):
    return [m.group(1) for m in re.finditer(r"^\+\+\+ b/(.+)$", patch, re.M)]


def checkout(git_dir, commit, tree):
    """Writes every file of `commit` below `tree`, as `git checkout` does. Blobs missing from
    the object database (a partial clone's largest files) are skipped, where checkout would stop."""
    git = ["git", "--git-dir", git_dir]
    listing = subprocess.run(git + ["ls-tree", "-r", "-z", commit], check=True, capture_output=True).stdout
    entries = []
    for item in listing.split(b"\0"):
        if not item:
            continue
        meta, path = item.split(b"\t", 1)
        mode, kind, sha = meta.split(b" ")
        if kind == b"blob":
            entries.append((sha, path))
    # The ids go in through a file: written through a pipe, they would fill it while git's
    # answers fill the other one, and both would wait forever.
    ids = os.path.join(os.path.dirname(tree), "ids")
    with open(ids, "wb") as f:
        f.write(b"".join(sha + b"\n" for sha, _ in entries))
    cat = subprocess.Popen(git + ["cat-file", "--batch"], stdin=open(ids, "rb"), stdout=subprocess.PIPE)
    for sha, path in entries:
        header = cat.stdout.readline().split()
        if header[1] == b"missing":
            continue
        data = cat.stdout.read(int(header[2]))
        cat.stdout.read(1)
        full = os.path.join(tree.encode(), path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "wb") as f:
            f.write(data)
    cat.wait()


def main():
    dataset, git_dir = sys.argv[1], sys.argv[2]
    tasks = parsed = 0
    for line in open(dataset, encoding="utf-8"):
        task = json.loads(line)
        work = tempfile.mkdtemp(prefix="ast-pipeline-")
        try:
            tree = os.path.join(work, "tree")
            checkout(git_dir, task["base_commit"], tree)
            paths = []
            for name in ("patch", "test_patch"):
                if not task.get(name):
                    continue
                patch_file = os.path.join(work, name + ".diff")
                with open(patch_file, "w", encoding="utf-8") as f:
                    f.write(task[name])
                subprocess.run(["git", "apply", "--whitespace=nowarn", patch_file], cwd=tree, check=True)
                paths += touched(task[name])
            for path in dict.fromkeys(paths):
                full = os.path.join(tree, path)
                if not os.path.isfile(full):
                    continue
                with open(full, "rb") as f:
                    source = f.read()
                if path.endswith(".py"):
                    try:
                        ast.parse(source)
                        parsed += 1
                    except (SyntaxError, ValueError):
                        pass
            tasks += 1
        finally:
            shutil.rmtree(work, ignore_errors=True)
    print(f"{tasks} tasks, {parsed} files parsed")


if __name__ == "__main__":
    main()
