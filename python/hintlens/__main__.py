"""``python -m hintlens ARGS…`` runs the bundled ``hintlens ARGS…``."""

import os
import subprocess
import sys

from ._binary import find_hintlens_bin


def main() -> int:
    binary = find_hintlens_bin()
    if os.name == "posix":
        os.execv(binary, [binary, *sys.argv[1:]])
    return subprocess.run([binary, *sys.argv[1:]]).returncode


if __name__ == "__main__":
    sys.exit(main())
