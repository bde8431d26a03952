#!/usr/bin/env bash
# Runs hintlens over the real benchmark tasks in ../shared/benchmarks against the real upstream
# repositories, and prints per dataset: tasks ok / error, DefUse non-empty tasks, mean
# identifiers per non-empty task, and wall time. Evaluation only (needs the data and the
# repositories); the test suite never runs it.
#
# Usage: scripts/eval-real.sh REPOS_DIR [OUT_DIR]
#   REPOS_DIR holds the repositories as owner__name (bare clones are fine).
set -euo pipefail
cd "$(dirname "$0")/.."
repos=${1:?usage: scripts/eval-real.sh REPOS_DIR [OUT_DIR]}
out=${2:-/tmp/hintlens-eval}
mkdir -p "$out"
python3 scripts/prepare-benchmarks.py ../shared/benchmarks "$out/datasets"
cargo build --release -q -p hintlens-cli
for ds in swe-bench-pro-qutebrowser fea-bench nocode-bench multi-swe-bench-java; do
  for reference in patches auto; do
    start=$(date +%s.%N)
    target/release/hintlens batch "$out/datasets/$ds.jsonl" --repos "$repos" --reference "$reference" \
      --out "$out/$ds-$reference.jsonl" 2>"$out/$ds-$reference.log" || true
    end=$(date +%s.%N)
    python3 - "$out/$ds-$reference.jsonl" "$ds --reference $reference" "$(echo "$end - $start" | bc)" <<'PY'
import json, sys, collections
path, label, wall = sys.argv[1], sys.argv[2], float(sys.argv[3])
records = [json.loads(l) for l in open(path)]
ok = [r for r in records if r["status"] == "ok"]
non_empty = [r for r in ok if r["selections"].get("defuse")]
ids = sum(len(r["selections"]["defuse"]) for r in non_empty)
errors = collections.Counter(r["error"]["kind"] for r in records if r["status"] != "ok")
mean = ids / len(non_empty) if non_empty else 0
print(f"{label}: {len(records)} tasks, {len(ok)} ok, {len(records) - len(ok)} error {dict(errors)}, "
      f"defuse non-empty {len(non_empty)}, mean {mean:.2f} per non-empty task, wall {wall:.1f}s")
PY
  done
done
