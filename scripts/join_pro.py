#!/usr/bin/env python3
"""Joins reconstructed SWE-bench Pro patches with the official instances on instance_id.

The patches files (`patches_<owner>+<name>.jsonl`) carry patch/test_patch but not the
`interface`, `requirements` and `problem_statement` the `pro` selection and projection read;
`instances.jsonl` carries those. Writes the joined records as JSON lines to standard output.

    scripts/join_pro.py PATCHES.jsonl INSTANCES.jsonl > joined.jsonl
"""

import json
import sys


def main(patches_path: str, instances_path: str) -> None:
    with open(instances_path) as f:
        instances = {r["instance_id"]: r for r in map(json.loads, f)}
    missing = 0
    with open(patches_path) as f:
        for line in f:
            record = json.loads(line)
            official = instances.get(record["instance_id"])
            if official is None:
                missing += 1
                continue
            for key in ("interface", "requirements", "problem_statement", "solution_commit"):
                record.setdefault(key, official.get(key))
            print(json.dumps(record))
    if missing:
        print(f"{missing} records have no official instance", file=sys.stderr)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
