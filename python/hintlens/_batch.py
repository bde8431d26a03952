"""``hintlens.batch``: result records streamed from ``hintlens batch``."""

from __future__ import annotations

import collections
import json
import os
import subprocess
import sys
import tempfile
import threading
from typing import Any, Dict, Iterable, Iterator, Mapping, Optional, Sequence, Union

from ._binary import find_hintlens_bin

PathLike = Union[str, "os.PathLike[str]"]

# How much of the binary's standard error an exception quotes.
_STDERR_TAIL = 40


class HintlensError(RuntimeError):
    """``hintlens batch`` could not run (a usage error, an unreadable dataset, a crash).

    A task that fails is no error here: its record says ``"status": "error"`` and why.
    """

    def __init__(self, message: str, returncode: Optional[int] = None, stderr: str = ""):
        super().__init__(message)
        self.returncode = returncode
        self.stderr = stderr


def batch(
    dataset_or_records: Union[PathLike, Iterable[Mapping[str, Any]]],
    repos: Optional[PathLike] = None,
    *,
    repo: Optional[Mapping[str, PathLike]] = None,
    selections: Union[str, Sequence[str], None] = None,
    projections: Union[str, Sequence[str], None] = None,
    jobs: Optional[int] = None,
    reference: Optional[str] = None,
    compat: Optional[str] = None,
    config: Optional[PathLike] = None,
    shard: Optional[str] = None,
    verbose: bool = False,
) -> Iterator[Dict[str, Any]]:
    """Run every task and yield one result record (a dict) per task, as each finishes.

    ``dataset_or_records`` is a dataset file (JSON lines, a JSON array, Parquet, or a directory
    of Parquet shards), or records in memory: any iterable of mappings, such as a list of dicts
    or a ``datasets.Dataset``, or a pandas DataFrame. ``repos`` is the directory holding the
    repositories (``owner__name``, ``owner/name`` or ``name``, bare or not); ``repo`` maps
    ``owner/name`` to a repository's path. The other arguments are ``hintlens batch``'s options
    (``selections=["defuse", "fea"]``, ``projections="declaration"``, ``jobs=8``,
    ``reference="auto"``, ``shard="0/4"``…). ``verbose`` passes the binary's progress lines to
    standard error.

    The records are those ``hintlens batch`` writes, in the order tasks finish (sort by
    ``instance_id`` or join on it for dataset order). Raises :class:`HintlensError` when the
    batch cannot run at all.
    """
    with tempfile.TemporaryDirectory(prefix="hintlens-") as scratch:
        if isinstance(dataset_or_records, (str, os.PathLike)):
            dataset = os.fspath(dataset_or_records)
        else:
            dataset = os.path.join(scratch, "tasks.jsonl")
            _write_records(dataset_or_records, dataset)
        args = [find_hintlens_bin(), "batch", dataset]
        if repos is not None:
            args += ["--repos", os.fspath(repos)]
        for name, path in (repo or {}).items():
            args += ["--repo", f"{name}={os.fspath(path)}"]
        for value in _many(selections):
            args += ["--selection", value]
        for value in _many(projections):
            args += ["--projection", value]
        for flag, value in (("--jobs", jobs), ("--reference", reference), ("--compat", compat), ("--shard", shard)):
            if value is not None:
                args += [flag, str(value)]
        if config is not None:
            args += ["--config", os.fspath(config)]
        yield from _stream(args, verbose)


def _many(value: Union[str, Sequence[str], None]) -> Sequence[str]:
    if value is None:
        return []
    if isinstance(value, str):
        return [value]
    return list(value)


def _write_records(records: Any, path: str) -> None:
    # A pandas DataFrame iterates over its column names, not its rows.
    if hasattr(records, "to_dict") and hasattr(records, "columns") and hasattr(records, "iterrows"):
        records = records.to_dict(orient="records")
    with open(path, "w", encoding="utf-8") as out:
        for i, record in enumerate(records):
            if not isinstance(record, Mapping):
                raise TypeError(f"record {i + 1} is a {type(record).__name__}, not a mapping of field names to values")
            # Timestamps and the like, as Parquet readers give them, become text.
            out.write(json.dumps(dict(record), ensure_ascii=False, default=str))
            out.write("\n")


def _stream(args: Sequence[str], verbose: bool) -> Iterator[Dict[str, Any]]:
    process = subprocess.Popen(
        args,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
        text=True,
        encoding="utf-8",
        bufsize=1,
    )
    tail: collections.deque = collections.deque(maxlen=_STDERR_TAIL)

    def drain() -> None:
        # Read all the time, so that a chatty run never blocks on a full pipe.
        assert process.stderr is not None
        for line in process.stderr:
            tail.append(line)
            if verbose:
                sys.stderr.write(line)

    reader = threading.Thread(target=drain, name="hintlens-stderr", daemon=True)
    reader.start()
    finished = False
    try:
        assert process.stdout is not None
        for line in process.stdout:
            if line.strip():
                yield json.loads(line)
        finished = True
    finally:
        if not finished and process.poll() is None:
            # The caller stopped early: hintlens finishes the tasks it is running and exits.
            process.terminate()
        returncode = process.wait()
        reader.join()
        if process.stdout is not None:
            process.stdout.close()
    # 0: every task ok; 1: some tasks failed, and their records say why.
    if finished and returncode not in (0, 1):
        stderr = "".join(tail)
        raise HintlensError(
            f"hintlens batch exited with status {returncode}: {stderr.strip() or '(no message)'}",
            returncode=returncode,
            stderr=stderr,
        )
