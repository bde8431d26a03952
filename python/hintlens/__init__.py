"""hintlens: which identifiers cross the code–test boundary of a coding task, as hints.

The work is done by the ``hintlens`` binary this package installs; this module finds it and
streams its records::

    import hintlens
    for record in hintlens.batch("tasks.jsonl", repos="repos/"):
        ...
"""

from ._binary import find_hintlens_bin
from ._batch import HintlensError, batch

__all__ = ["HintlensError", "batch", "find_hintlens_bin"]
