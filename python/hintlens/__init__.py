"""hintlens: which identifiers cross the code–test boundary of a coding task, as hints.

The work is done by the ``hintlens`` binary this package installs; this module finds it and
streams its records::

    import hintlens
    for record in hintlens.batch("tasks.jsonl", repos="repos/"):
        ...
"""

import json as _json
from importlib import resources as _resources

from ._binary import find_hintlens_bin
from ._batch import HintlensError, batch

__all__ = ["HintlensError", "batch", "find_hintlens_bin", "record_schema"]


def record_schema() -> dict:
    """The JSON Schema (draft 2020-12) of the records ``batch`` yields: the book's
    ``reference/record.schema.json``, generated from the Rust types that write them."""
    text = _resources.files(__name__).joinpath("record.schema.json").read_text(encoding="utf-8")
    return _json.loads(text)
