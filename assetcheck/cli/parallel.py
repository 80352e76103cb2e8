"""Validating many files, in this process or in ``jobs`` worker processes, results in input order.

One file, or ``--jobs 1``, is validated here; more go to worker processes
(:mod:`assetcheck.cli.worker_pool`, imported only then: a one-file run loads no sockets, no
polling and no messages).
"""

from __future__ import annotations

import argparse
import contextlib
import os
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import NamedTuple

import pluggy

from assetcheck.asset.options import ValidationOptions
from assetcheck.engine import validate
from assetcheck.reports import Report
from assetcheck.reports.document import build_report
from assetcheck.sandbox.cores import available_cores


class Outcome(NamedTuple):
    """One file's report, or ``error`` (why the file could not be opened or validated) and no
    report."""

    path: Path
    report: Report | None
    error: str | None = None


def add_jobs_option(parser: argparse.ArgumentParser) -> None:
    """``--jobs N``: how many files a command validates at a time (:func:`validate_files`)."""
    parser.add_argument(
        "--jobs",
        "-j",
        type=int,
        default=available_cores(),
        metavar="N",
        help="validate N files at a time in worker processes (default: the number of cores)",
    )


@contextlib.contextmanager
def validate_files(
    files: Sequence[Path],
    options: ValidationOptions,
    pm: pluggy.PluginManager,
    jobs: int,
    names: Sequence[str] | None = None,
) -> Iterator[Iterator[Outcome]]:
    """The outcomes of validating ``files``, in the order of ``files``; each report names its
    file by ``names`` (one per file; default: the path as given).

    With ``jobs`` above 1 and more than one file, ``min(jobs, len(files))`` worker processes,
    forked on entering the block, validate them in parallel with ``pm``; otherwise they are
    validated here, one by one as the outcomes are taken. Leaving the block kills the workers.
    """
    named = list(names) if names is not None else [path.as_posix() for path in files]
    workers = min(jobs, len(files))
    if workers <= 1 or not hasattr(os, "fork"):
        yield (
            validate_one(path, name, options, pm) for path, name in zip(files, named, strict=True)
        )
        return
    from .worker_pool import WorkerPool

    pool = WorkerPool(files, named, options, pm, workers)
    try:
        yield pool.outcomes()
    finally:
        pool.close()


def validate_one(
    path: Path, name: str, options: ValidationOptions, pm: pluggy.PluginManager
) -> Outcome:
    """``path``'s outcome: its report (named ``name``), or why it could not be opened."""
    try:
        result = validate(path, options=options, filename=name, plugin_manager=pm)
    except OSError as error:
        return Outcome(path, None, error.strerror or str(error))
    return Outcome(path, build_report(result))
