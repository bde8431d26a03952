"""Where the ``hintlens`` binary of this installation is."""

from __future__ import annotations

import os
import sys
import sysconfig


def find_hintlens_bin() -> str:
    """The path of the ``hintlens`` binary installed with this package.

    Looked for where pip puts scripts: the environment's scripts directory, the user scheme's
    (``pip install --user``), then ``bin/`` beside the package (``pip install --target``).
    ``HINTLENS_BIN`` overrides the search (a development build, say).
    """
    override = os.environ.get("HINTLENS_BIN")
    if override:
        return override
    exe = "hintlens" + (sysconfig.get_config_var("EXE") or "")
    candidates = [os.path.join(sysconfig.get_path("scripts"), exe)]
    if sys.version_info >= (3, 10):
        user_scheme = sysconfig.get_preferred_scheme("user")
    elif os.name == "nt":
        user_scheme = "nt_user"
    elif sys.platform == "darwin" and getattr(sys, "_framework", None):
        user_scheme = "osx_framework_user"
    else:
        user_scheme = "posix_user"
    candidates.append(os.path.join(sysconfig.get_path("scripts", scheme=user_scheme), exe))
    package_root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    candidates.append(os.path.join(package_root, "bin", exe))
    for path in candidates:
        if os.path.isfile(path):
            return path
    raise FileNotFoundError(
        "the hintlens binary is not where this package installs it (looked in: "
        + ", ".join(candidates)
        + "); reinstall the package, or set HINTLENS_BIN to a hintlens binary"
    )
