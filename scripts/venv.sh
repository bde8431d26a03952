# Sourced by the test scripts. `keyed_venv DIR REQUIREMENTS [EXECUTABLE]` makes DIR a venv with
# REQUIREMENTS installed, reused while the requirements file is unchanged (and EXECUTABLE,
# relative to DIR, exists): a fresh machine installs once, a later run checks a hash.
keyed_venv() {
    local dir=$1 req=$2 exe=${3:-bin/python} hash
    hash=$(sha256sum "$req" | cut -c1-16)
    if [ -f "$dir/.hintlens-req-hash" ] && [ "$(cat "$dir/.hintlens-req-hash")" = "$hash" ] && [ -x "$dir/$exe" ]; then
        echo "venv up to date ($hash)"
    else
        rm -rf "$dir"
        python3 -m venv "$dir"
        "$dir/bin/pip" install --quiet --disable-pip-version-check -r "$req"
        echo "$hash" > "$dir/.hintlens-req-hash"
    fi
}
