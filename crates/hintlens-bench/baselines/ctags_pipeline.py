#!/usr/bin/env python3
"""A plain definition pipeline over each task's changed files, as the baseline `hintlens-bench
demand --baseline ctags` measures hintlens against on C and C++ (where Python's `ast` parses
nothing). Not a product feature.

For every task of a JSON-lines dataset (fields: base_commit, patch, test_patch), in one
process: write the files the two patches touch, as they are at the base commit, into a fresh
directory (`git cat-file --batch`), run Universal Ctags over them, `git apply` both patches
there, and run ctags over the touched files again: the definitions at B and at R of what the
task changed, which is the least a definition-diffing hint pipeline reads. Prints the number of
tasks and of tags read.

usage: ctags_pipeline.py DATASET.jsonl GIT_DIR
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile


def touched(patch):
    """The paths a patch touches, before and after (a rename's both, from its `diff --git`)."""
    paths = re.findall(r"^(?:---|\+\+\+) [ab]/(.+)$|^rename (?:from|to) (.+)$", patch, re.M)
    return list(dict.fromkeys(a or b for a, b in paths))


def write_base(git_dir, commit, paths, tree):
    """Writes each of `paths` as it is at `commit` below `tree`; a path `commit` lacks (a file
    the patch adds) is left out."""
    specs = "".join(f"{commit}:{p}\n" for p in paths).encode()
    out = subprocess.run(
        ["git", "--git-dir", git_dir, "cat-file", "--batch"], input=specs, check=True, capture_output=True
    ).stdout
    at = 0
    for path in paths:
        end = out.index(b"\n", at)
        header = out[at:end].split()
        at = end + 1
        if header[-1] == b"missing":
            continue
        size = int(header[2])
        data = out[at : at + size]
        at += size + 1
        full = os.path.join(tree, path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "wb") as f:
            f.write(data)


def ctags(tree, paths):
    present = [p for p in paths if os.path.isfile(os.path.join(tree, p))]
    if not present:
        return 0
    out = subprocess.run(
        ["ctags", "-f", "-", "--output-format=json", "--fields=+nKzS", *present],
        cwd=tree,
        check=True,
        capture_output=True,
    ).stdout
    return out.count(b"\n")


def main():
    dataset, git_dir = sys.argv[1], sys.argv[2]
    if shutil.which("ctags") is None:
        sys.exit("ctags_pipeline.py: Universal Ctags is missing (Debian: apt-get install universal-ctags)")
    tasks = tags = 0
    for line in open(dataset, encoding="utf-8"):
        task = json.loads(line)
        work = tempfile.mkdtemp(prefix="ctags-pipeline-")
        try:
            tree = os.path.join(work, "tree")
            os.makedirs(tree)
            patches = [task[name] for name in ("patch", "test_patch") if task.get(name)]
            paths = list(dict.fromkeys(p for patch in patches for p in touched(patch) if p != "/dev/null"))
            write_base(git_dir, task["base_commit"], paths, tree)
            tags += ctags(tree, paths)
            for n, patch in enumerate(patches):
                patch_file = os.path.join(work, f"{n}.diff")
                with open(patch_file, "w", encoding="utf-8") as f:
                    f.write(patch)
                subprocess.run(
                    ["git", "apply", "--whitespace=nowarn", patch_file], cwd=tree, check=True, capture_output=True
                )
            tags += ctags(tree, paths)
            tasks += 1
        finally:
            shutil.rmtree(work, ignore_errors=True)
    print(f"{tasks} tasks, {tags} tags")


if __name__ == "__main__":
    main()
