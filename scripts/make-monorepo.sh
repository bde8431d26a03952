#!/usr/bin/env bash
# Builds a monorepo for the language server's latency benchmark (crates/hintlens-lsp/examples/latency.rs):
# the HEAD tree of each repository given read into a subdirectory of one commit, then a commit
# adding one Go function and its test to a Go package of the tree (the task an author would open).
#
#   scripts/make-monorepo.sh OUT [NAME=]REPO...            # REPO: a git directory (bare or not), read only
#   scripts/make-monorepo.sh --synthetic N OUT [NAME=]REPO...   # also copies the tree until N files
#
# The repositories' objects are reached through git alternates (nothing is copied into OUT's
# object store), so OUT stays valid as long as the repositories do. The subdirectory of a
# repository is NAME, else its directory's name (`/x/tokio-rs+tokio/repo` → `tokio`: the part after `+`
# or `__`, or the directory's own name). `--synthetic N` repeats the trees under `copy-K/`
# until the commit holds at least N files: a larger repository of the same content, which
# tests how time and memory grow with size rather than with the task.
set -euo pipefail

synthetic=0
if [[ ${1:-} == --synthetic ]]; then
    synthetic=$2
    shift 2
fi
if [[ $# -lt 2 ]]; then
    echo "usage: $0 [--synthetic N] OUT REPO..." >&2
    exit 2
fi
out=$1
shift
if [[ -e $out ]]; then
    echo "$out exists; remove it first" >&2
    exit 2
fi

git init --quiet "$out"
out=$(cd "$out" && pwd)
mono() { git -C "$out" "$@"; }
export GIT_AUTHOR_NAME=hintlens GIT_AUTHOR_EMAIL=hintlens@example.invalid
export GIT_COMMITTER_NAME=hintlens GIT_COMMITTER_EMAIL=hintlens@example.invalid
export GIT_AUTHOR_DATE='2026-01-01T00:00:00Z' GIT_COMMITTER_DATE='2026-01-01T00:00:00Z'

name_of() {
    local dir
    dir=$(cd "$1" && pwd)
    [[ $(basename "$dir") == repo || $(basename "$dir") == .git ]] && dir=$(dirname "$dir")
    dir=$(basename "$dir")
    dir=${dir##*+}
    dir=${dir##*__}
    echo "${dir%.git}"
}

trees=()
for arg in "$@"; do
    repo=${arg#*=}
    echo "$(git -C "$repo" rev-parse --absolute-git-dir)/objects" >> "$out/.git/objects/info/alternates"
    tree=$(git -C "$repo" rev-parse 'HEAD^{tree}')
    if [[ $arg == *=* ]]; then name=${arg%%=*}; else name=$(name_of "$repo"); fi
    trees+=("$name:$tree")
    mono read-tree --prefix="$name/" "$tree"
    echo "$name: $(git -C "$repo" ls-tree -r "$tree" | wc -l) files" >&2
done

if [[ $synthetic -gt 0 ]]; then
    copy=1
    while [[ $(mono ls-files | wc -l) -lt $synthetic ]]; do
        for entry in "${trees[@]}"; do
            mono read-tree --prefix="copy-$copy/${entry%%:*}/" "${entry#*:}"
        done
        copy=$((copy + 1))
    done
fi

mono commit --quiet --no-verify -m "monorepo: the HEAD trees of $(($#)) repositories"
mono checkout-index --all --force

# The task: a new exported function in the first Go package found that has a test file,
# and a test that calls it.
# (awk reads to the end: `head` would end git early, which pipefail reports.)
first() { awk 'NR == 1'; }
package_of() { sed -n 's/^package \([A-Za-z0-9_]*\).*/\1/p' "$out/$1" | first; }
test_file=""
for candidate in $(mono ls-files '*_test.go' | grep -v '/testdata/'); do
    dir=$(dirname "$candidate")
    code=$(mono ls-files "$dir/" | grep "^$dir/[^/]*\.go$" | grep -v '_test.go$' | first || true)
    if [[ -n $code && $(package_of "$candidate") == "$(package_of "$code")" ]] && grep -q '"testing"' "$out/$candidate"; then
        test_file=$candidate code_file=$code package_dir=$dir
        break
    fi
done
if [[ -z $test_file ]]; then
    echo "no Go package with an internal test file that imports testing" >&2
    exit 1
fi
cat >> "$out/$code_file" <<EOF

// TruncateLabel shortens label to at most max bytes, marking a cut with an ellipsis.
func TruncateLabel(label string, max int) string {
	if len(label) <= max {
		return label
	}
	return label[:max] + "…"
}
EOF
cat >> "$out/$test_file" <<EOF

func TestTruncateLabel(t *testing.T) {
	if got := TruncateLabel("monorepo", 4); got != "mono…" {
		t.Fatalf("TruncateLabel = %q", got)
	}
}
EOF
mono add "$code_file" "$test_file"
mono commit --quiet --no-verify -m "task: TruncateLabel in $package_dir, and its test"
echo "monorepo $out: $(mono ls-files | wc -l) files; task: $code_file, $test_file" >&2
