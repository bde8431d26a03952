#!/usr/bin/env python3
"""Compares one selection between two result files of the same dataset (evaluation only).

Usage: scripts/compare-selections.py BEFORE.jsonl AFTER.jsonl [--selection defuse] [--list]

Prints the identifiers each run selects and the other does not (per task, with the evidence
lines and rules of the run that selected them), totals, and how many selected names are one or
two characters long: the numbers a change to a selection policy is judged by. `--list` prints
every removal and addition; without it, only the totals.
"""

import argparse
import json
from collections import Counter


def load(path, selection):
    out = {}
    for line in open(path):
        if not line.strip():
            continue
        r = json.loads(line)
        if r.get("status") != "ok":
            continue
        ids = r["selections"].get(selection, [])
        out[r["instance_id"]] = {(i["path"], i["qualified_name"], i["kind"]): i for i in ids}
    return out


def evidence(ident):
    parts = []
    for e in ident.get("evidence", []):
        rule = f" [{e['rule']}]" if e.get("rule") else ""
        parts.append(f"{e['path']}:{e['line']}{rule}")
    return ", ".join(parts)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("before")
    p.add_argument("after")
    p.add_argument("--selection", default="defuse")
    p.add_argument("--list", action="store_true")
    a = p.parse_args()
    before, after = load(a.before, a.selection), load(a.after, a.selection)
    removed = added = 0
    short = Counter()
    rules = Counter()
    for task in sorted(set(before) | set(after)):
        b, f = before.get(task, {}), after.get(task, {})
        for key, ident in b.items():
            short["before"] += len(ident["name"]) <= 2
        for key, ident in f.items():
            short["after"] += len(ident["name"]) <= 2
            for e in ident.get("evidence", []):
                rules[e.get("rule", "?")] += 1
        gone = [b[k] for k in sorted(set(b) - set(f))]
        new = [f[k] for k in sorted(set(f) - set(b))]
        removed += len(gone)
        added += len(new)
        if a.list and (gone or new):
            print(f"## {task}")
            for i in gone:
                print(f"- removed {i['kind']} {i['qualified_name']} ({i['resolution']}) @ {evidence(i)}")
            for i in new:
                print(f"+ added {i['kind']} {i['qualified_name']} ({i['resolution']}) @ {evidence(i)}")
    total_b = sum(len(v) for v in before.values())
    total_a = sum(len(v) for v in after.values())
    nonempty_b = sum(1 for v in before.values() if v)
    nonempty_a = sum(1 for v in after.values() if v)
    print(
        f"{a.selection}: {total_b} -> {total_a} identifiers ({removed} removed, {added} added); "
        f"non-empty tasks {nonempty_b} -> {nonempty_a}; names of 1-2 characters {short['before']} -> {short['after']}"
    )
    print("evidence by rule after: " + ", ".join(f"{r} {n}" for r, n in rules.most_common()))


if __name__ == "__main__":
    main()
