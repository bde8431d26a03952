#!/usr/bin/env python3
"""Joins the real benchmark records under ../shared/benchmarks into one dataset per benchmark.

Usage: scripts/prepare-benchmarks.py [SHARED_BENCHMARKS_DIR] [OUT_DIR]
(defaults: ../shared/benchmarks beside the project, and /tmp/hintlens-datasets).

SWE-bench Pro's reconstructed patches lack the official fields (problem statement, interface,
requirements); they are joined from instances.jsonl on instance_id. The repositories with no
reconstructed patches (ansible, openlibrary, ...) get one dataset each of the official records
as they are: no patch, only `solution_commit`, from which hintlens reads the reference snapshot.
Evaluation only: the test suite never reads these files.
"""

import json
import sys
from pathlib import Path

root = Path(__file__).resolve().parent.parent
src = Path(sys.argv[1]) if len(sys.argv) > 1 else root.parent / "shared" / "benchmarks"
out = Path(sys.argv[2]) if len(sys.argv) > 2 else Path("/tmp/hintlens-datasets")
out.mkdir(parents=True, exist_ok=True)


def read(path):
    return [json.loads(line) for line in open(path) if line.strip()]


def write(name, records):
    with open(out / name, "w") as f:
        for r in records:
            f.write(json.dumps(r) + "\n")
    print(f"{out / name}: {len(records)} tasks")


official = {r["instance_id"]: r for r in read(src / "swe-bench-pro" / "instances.jsonl")}
reconstructed = set()
# One dataset per reconstructed repository: qutebrowser (Python), flipt and vuls (Go), NodeBB
# (JavaScript), tutanota (TypeScript).
for path in sorted((src / "swe-bench-pro").glob("patches_*.jsonl")):
    name = path.stem.removeprefix("patches_").split("+")[-1].lower()
    pro = []
    for r in read(path):
        o = official.get(r["instance_id"], {})
        for key in ["problem_statement", "interface", "requirements", "solution_commit"]:
            if key in o:
                r[key] = o[key]
        pro.append(r)
        reconstructed.add(r["instance_id"])
    write(f"swe-bench-pro-{name}.jsonl", pro)

by_repo = {}
for r in official.values():
    if r["instance_id"] not in reconstructed:
        by_repo.setdefault(r["repo"].split("/")[-1].lower(), []).append(r)
for name, records in sorted(by_repo.items()):
    write(f"swe-bench-pro-{name}-commits.jsonl", records)

for bench in ["fea-bench", "nocode-bench", "multi-swe-bench-java", "multi-swe-bench-rust", "swe-rebench"]:
    records = []
    for path in sorted((src / bench).glob("recon_*.jsonl")):
        records += read(path)
    write(f"{bench}.jsonl", records)
