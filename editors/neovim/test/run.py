#!/usr/bin/env python3
"""End-to-end test of editors/neovim/lsp/hintlens.lua with a real headless Neovim.

    python3 editors/neovim/test/run.py

Creates the task repository (editors/test-fixtures/make-task-repo.sh) in a
temporary directory, runs `nvim --headless --clean -u test/init.lua`, which
attaches `hintlens lsp`, waits for indexing, asks for hover and code lenses,
runs :HintlensHints and a code lens, and writes what it saw as JSON; then
checks that JSON.

Environment:
  HINTLENS_SERVER  the hintlens binary (default: <repo>/target/debug/hintlens);
                   the test is SKIPPED (exit 0) only when this file is missing
  NVIM             the nvim executable (default: `nvim` on PATH); must be >= 0.11
  KEEP             keep the temporary directory (prints its path)
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent  # editors/neovim/test
NVIM_ROOT = HERE.parent  # editors/neovim
REPO_ROOT = NVIM_ROOT.parent.parent
MAKE_REPO = REPO_ROOT / "editors" / "test-fixtures" / "make-task-repo.sh"
NVIM_TIMEOUT_S = 240


def main() -> int:
    server = Path(os.environ.get("HINTLENS_SERVER") or REPO_ROOT / "target" / "debug" / "hintlens")
    if not server.is_file():
        print(
            f"SKIP neovim e2e: server binary {server} does not exist "
            "(build it with `cargo build -p hintlens-cli` or set HINTLENS_SERVER)"
        )
        return 0
    server = server.resolve()

    nvim = shutil.which(os.environ.get("NVIM") or "nvim")
    if not nvim:
        print("FAIL neovim e2e: no nvim (set NVIM or put Neovim >= 0.11 on PATH)", file=sys.stderr)
        return 1
    version = subprocess.run([nvim, "--version"], capture_output=True, text=True, timeout=60).stdout
    m = re.search(r"NVIM v(\d+)\.(\d+)", version)
    if not m or (int(m[1]), int(m[2])) < (0, 11):
        print(f"FAIL neovim e2e: {nvim} is not Neovim >= 0.11: {version.splitlines()[:1]}", file=sys.stderr)
        return 1
    nvim = os.path.abspath(nvim)  # nvim runs with the task repository as its cwd
    print(f"neovim e2e: {version.splitlines()[0]} ({nvim}), server {server}")

    tmp = Path(tempfile.mkdtemp(prefix="hintlens-nvim-"))
    try:
        return run(Path(nvim), server, tmp)
    finally:
        if os.environ.get("KEEP"):
            print(f"neovim e2e: kept {tmp}")
        else:
            shutil.rmtree(tmp, ignore_errors=True)


def run(nvim: Path, server: Path, tmp: Path) -> int:
    repo = tmp / "repo"
    subprocess.run(["bash", str(MAKE_REPO), str(repo)], check=True)
    out = tmp / "out.json"

    env = {k: v for k, v in os.environ.items() if k != "HINTLENS_SERVER" and not k.startswith("NVIM")}
    env.update(
        {
            "HINTLENS_NVIM_ROOT": str(NVIM_ROOT),
            "HINTLENS_E2E_SERVER": str(server),
            "HINTLENS_E2E_REPO": str(repo),
            "HINTLENS_E2E_OUT": str(out),
            # Keep Neovim's state (LSP log, shada) out of the user's home.
            "XDG_STATE_HOME": str(tmp / "state"),
            "XDG_DATA_HOME": str(tmp / "data"),
            "XDG_CACHE_HOME": str(tmp / "cache"),
            "XDG_CONFIG_HOME": str(tmp / "config"),
        }
    )
    cmd = [str(nvim), "--headless", "--clean", "-u", str(HERE / "init.lua")]
    try:
        proc = subprocess.run(
            cmd, cwd=repo, env=env, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=NVIM_TIMEOUT_S
        )
    except subprocess.TimeoutExpired as e:
        print(f"FAIL neovim e2e: nvim did not finish within {NVIM_TIMEOUT_S} s", file=sys.stderr)
        print((e.stderr or b"").decode(errors="replace") if isinstance(e.stderr, bytes) else (e.stderr or ""), file=sys.stderr)
        dump_log(tmp)
        return 1

    if not out.is_file():
        print(f"FAIL neovim e2e: nvim exited {proc.returncode} without writing {out}", file=sys.stderr)
        print(proc.stdout, proc.stderr, sep="\n", file=sys.stderr)
        dump_log(tmp)
        return 1
    report = json.loads(out.read_text())

    failures = list(report.get("failures") or [])
    failures += check(report)
    if proc.returncode != 0 and not failures:
        failures.append(f"nvim exited {proc.returncode}")

    for s in report.get("steps") or []:
        print(f"  {s}")
    if failures:
        print("FAIL neovim e2e:", file=sys.stderr)
        for f in dict.fromkeys(failures):
            print(f"  - {f}", file=sys.stderr)
        print("report:", json.dumps(report, indent=2, ensure_ascii=False)[:6000], file=sys.stderr)
        dump_log(tmp)
        return 1
    print(
        "PASS neovim e2e: attached, indexed, hover mentions slugify, lenses "
        f"{report['code_lens_titles']}, :HintlensHints and the lens show the hint block, server exited 0"
    )
    return 0


def check(r: dict) -> list[str]:
    """The driver's own reading of the JSON, independent of e2e.lua's verdict."""
    f: list[str] = []
    if r.get("filetype") != "python":
        f.append(f"tests/test_text.py has filetype {r.get('filetype')!r}")
    cmd = r.get("cmd") or []
    if not cmd or cmd[-1] != "lsp" or not str(cmd[0]).endswith("hintlens"):
        f.append(f"client cmd is {cmd!r}, expected [<hintlens>, 'lsp'] from vim.g.hintlens_cmd")
    if r.get("init_options") not in ({}, []):
        f.append(f"init_options should be empty so .hintlens.toml decides: {r.get('init_options')!r}")
    hover = (r.get("hover_text") or "").lower()
    if "slugify" not in hover or "test" not in hover:
        f.append(f"hover does not mention slugify and test: {r.get('hover')!r}")
    titles = r.get("code_lens_titles") or []
    if not any(t.startswith("hint") for t in titles):
        f.append(f"no code lens titled hint…: {titles!r}")
    if not any(t.startswith("hint") for t in r.get("displayed_lens_titles") or []):
        f.append(f"vim.lsp.codelens.get() holds no hint… lens: {r.get('displayed_lens_titles')!r}")
    for key, what in (("hintlens_hints_buffer", ":HintlensHints"), ("lens_command_buffer", "the hint lens")):
        if "slugify" not in (r.get(key) or ""):
            f.append(f"{what} did not show a hint block mentioning slugify: {r.get(key)!r}")
    named = r.get("hintlens_hints_name_buffer") or ""
    if "defuse + name" not in named or "slugify" not in named or "def slugify" in named:
        f.append(f":HintlensHints defuse name did not show the name projection: {named!r}")
    if r.get("go_filetype") != "go":
        f.append(f"store/store_test.go has filetype {r.get('go_filetype')!r}")
    if "SetLimit" not in (r.get("go_hover_text") or "") or "test" not in (r.get("go_hover_text") or "").lower():
        f.append(f"the Go hover does not mention SetLimit and test: {r.get('go_hover_text')!r}")
    if not any(t.startswith("hint") for t in r.get("go_lens_titles") or []):
        f.append(f"no Go code lens titled hint…: {r.get('go_lens_titles')!r}")
    if r.get("ts_filetype") != "typescript":
        f.append(f"web/format.test.ts has filetype {r.get('ts_filetype')!r}")
    if "formatBytes" not in (r.get("ts_hover_text") or "") or "test" not in (r.get("ts_hover_text") or "").lower():
        f.append(f"the TypeScript hover does not mention formatBytes and test: {r.get('ts_hover_text')!r}")
    if r.get("php_filetype") != "php":
        f.append(f"tests/GreeterTest.php has filetype {r.get('php_filetype')!r}")
    if "shout" not in (r.get("php_hover_text") or "") or "test" not in (r.get("php_hover_text") or "").lower():
        f.append(f"the PHP hover does not mention shout and test: {r.get('php_hover_text')!r}")
    if (r.get("server_exit") or {}).get("code") != 0:
        f.append(f"server exit: {r.get('server_exit')!r}")
    return f


def dump_log(tmp: Path) -> None:
    for log in (tmp / "state").rglob("lsp.log"):
        text = log.read_text(errors="replace")
        print(f"--- {log} (tail)", file=sys.stderr)
        print(text[-6000:], file=sys.stderr)


if __name__ == "__main__":
    sys.exit(main())
