#!/usr/bin/env bash
# Acceptance on real benchmark data (run by hand; the test suite never reads this data).
#
#   scripts/evaluate.sh BENCHMARKS_DIR MIRRORS_DIR OUT_DIR
#
# First, per dataset (SWE-bench Pro qutebrowser, FEA-Bench, NoCode-bench, Multi-SWE-bench Java):
# tasks ok / error with the reasons, DefUse non-empty tasks, mean identifiers per non-empty task
# and wall time, with the reference built from the patches and with `--reference auto`. Then
# the policy reports: FEA-Bench agreement and renderings, SWE-bench Pro interface agreement,
# Table 2 statistics.
#
# BENCHMARKS_DIR holds fea-bench/recon_*.jsonl and swe-bench-pro/{instances,patches_*}.jsonl;
# MIRRORS_DIR holds bare clones as <owner>+<name>/repo. Writes results, agreement and
# statistics reports to OUT_DIR. `--reference auto` reads R from the record's head commit when a
# reconstructed patch does not apply at its base (one FEA task); the record notes it.
set -euo pipefail
bench=${1:?benchmarks dir}
mirrors=${2:?mirrors dir}
out=${3:?output dir}
mkdir -p "$out"
cd "$(dirname "$0")/.."
cargo build --release -p hintlens-cli
hintlens=target/release/hintlens

repo_args() {
    # One --repo override per repository named in the dataset; benchmarks disagree with GitHub
    # on case (`fasterxml` vs `FasterXML`), so mirrors are matched case-insensitively.
    python3 - "$1" "$mirrors" <<'PY'
import json, os, sys
dataset, mirrors = sys.argv[1], sys.argv[2]
folders = {name.lower(): name for name in os.listdir(mirrors)}
for repo in sorted({json.loads(l)["repo"] for l in open(dataset)}):
    folder = folders.get(repo.replace("/", "+").lower(), repo.replace("/", "+"))
    print("--repo")
    print(f"{repo}={mirrors}/{folder}/repo")
PY
}

python3 scripts/prepare-benchmarks.py "$bench" "$out/datasets"
for ds in swe-bench-pro-qutebrowser fea-bench nocode-bench multi-swe-bench-java; do
    mapfile -t repos < <(repo_args "$out/datasets/$ds.jsonl")
    for reference in patches auto; do
        start=$(date +%s.%N)
        "$hintlens" batch "$out/datasets/$ds.jsonl" "${repos[@]}" --reference "$reference" \
            --out "$out/$ds-$reference.jsonl" 2>"$out/$ds-$reference.log" || true
        wall=$(echo "$(date +%s.%N) - $start" | bc)
        python3 - "$out/$ds-$reference.jsonl" "$ds --reference $reference" "$wall" <<'PY'
import collections, json, sys
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

# FEA-Bench: every recon task, FEA's rule reproduced, against the released new_components.
cp "$out/datasets/fea-bench.jsonl" "$out/fea.jsonl"
mapfile -t fea_repos < <(repo_args "$out/fea.jsonl")
"$hintlens" batch "$out/fea.jsonl" "${fea_repos[@]}" --reference auto --compat fea \
    --selection fea --selection defuse --selection doc2feat --selection all-new \
    --projection fea-brief --projection fea-detailed --projection declaration --out "$out/fea-results.jsonl"
"$hintlens" agree "$out/fea-results.jsonl" --selection fea --reference new_components > "$out/fea-agree.md"
"$hintlens" agree "$out/fea-results.jsonl" --selection defuse --reference new_components > "$out/fea-defuse-agree.md"
"$hintlens" stats "$out/fea-results.jsonl" > "$out/fea-stats.md"
# The renderings byte for byte: how many tasks' fea-brief/fea-detailed equal the released text.
python3 - "$out/fea-results.jsonl" "$out/fea.jsonl" > "$out/fea-renderings.txt" <<'PY'
import json, sys
released = {r["instance_id"]: r for r in map(json.loads, open(sys.argv[2]))}
same = {"brief": 0, "detailed": 0}
results = [json.loads(l) for l in open(sys.argv[1])]
for r in results:
    rel = released[r["instance_id"]]
    for kind in same:
        ok = r["hints"].get(f"fea+fea-{kind}") == rel[f"definitions_{kind}"]
        same[kind] += ok
        if not ok:
            print(f"{r['instance_id']}: fea-{kind} differs")
print(f"identical fea-brief {same['brief']}/{len(results)}, fea-detailed {same['detailed']}/{len(results)}")
PY

# SWE-bench Pro, qutebrowser: patches joined with the official interface and requirements.
cp "$out/datasets/swe-bench-pro-qutebrowser.jsonl" "$out/pro-qutebrowser.jsonl"
mapfile -t pro_repos < <(repo_args "$out/pro-qutebrowser.jsonl")
"$hintlens" batch "$out/pro-qutebrowser.jsonl" "${pro_repos[@]}" --reference auto \
    --selection defuse --selection pro --selection doc2feat --selection fea --selection all-new --selection strings \
    --projection declaration --projection pro --projection pro-interface --out "$out/pro-results.jsonl" || true
"$hintlens" agree "$out/pro-results.jsonl" --selection defuse --reference interface > "$out/pro-defuse-agree.md"
"$hintlens" agree "$out/pro-results.jsonl" --selection pro --reference interface > "$out/pro-pro-agree.md"
"$hintlens" stats "$out/pro-results.jsonl" > "$out/pro-stats.md"
echo "reports in $out"
