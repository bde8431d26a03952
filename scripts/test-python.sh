#!/usr/bin/env bash
# Tests the `hintlens` wheel as a benchmark builder uses it (python/tests).
#
#   scripts/test-python.sh
#
# Builds the wheel with the debug profile (reusing `cargo build`'s artifacts), installs it alone
# into a fresh venv — the README example runs there through the command and the Python API —
# and into the tools venv, which runs pytest with pyarrow and datasets. Installs what it needs
# under the repository, reusing it while its inputs are unchanged:
#   .cache/python/tools   maturin, pyarrow, datasets, pytest, keyed on python/tests/requirements.txt
# Nothing else is fetched: `datasets` runs offline, its cache in a scratch directory.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
start=$(date +%s)
# shellcheck source=scripts/venv.sh
. "$root/scripts/venv.sh"
step() { printf '\n==> [%3ss] %s\n' "$(($(date +%s) - start))" "$*"; }

step "tools venv (.cache/python/tools)"
tools=.cache/python/tools
keyed_venv "$tools" python/tests/requirements.txt bin/maturin

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

step "wheel (scripts/build-wheel --profile dev)"
MATURIN=$root/$tools/bin/maturin scripts/build-wheel --profile dev --out "$scratch/wheels"
wheel=$(ls "$scratch"/wheels/hintlens-*.whl)
ls -l "$wheel"

step "a fresh venv with the wheel alone"
python3 -m venv "$scratch/fresh"
before=$(date +%s%N)
"$scratch/fresh/bin/pip" install --quiet --disable-pip-version-check --no-index "$wheel"
echo "installed in $(( ($(date +%s%N) - before) / 1000000 )) ms"
"$scratch/fresh/bin/hintlens" --version

step "the wheel in the tools venv"
"$tools/bin/pip" install --quiet --disable-pip-version-check --no-index --no-deps --force-reinstall "$wheel"

step "pytest python/tests"
export HINTLENS_FRESH_VENV=$scratch/fresh
export HF_HOME=$scratch/hf HF_DATASETS_OFFLINE=1 HF_HUB_OFFLINE=1 HF_HUB_DISABLE_TELEMETRY=1
"$tools/bin/python" -m pytest -q -p no:cacheprovider python/tests
