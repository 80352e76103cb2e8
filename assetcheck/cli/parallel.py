"""Validating many files, in this process or in ``jobs`` worker processes, results in input order.

Each worker builds its own plugin manager from the same plugin configuration once, then
validates the files it is handed; what comes back is the JSON report (or why the file could
not be opened), so only plain data crosses between processes. Workers are forked where the
platform can (they start with everything already imported), spawned elsewhere.

An interrupted run leaves no process behind: leaving the pool in any way but its end (Ctrl-C,
an error) kills the workers at once, and each worker, like each decoder child, is killed by
the kernel when the process that started it dies, so SIGTERM or SIGKILL of the command takes
the whole tree with it.
"""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import pluggy

from assetcheck.asset.options import ValidationOptions
from assetcheck.engine import validate
from assetcheck.plugins.manager import PluginConfig, get_plugin_manager
from assetcheck.reports import Report
from assetcheck.reports.document import build_report
from assetcheck.sandbox.containment import die_with_parent


@dataclass(frozen=True)
class Outcome:
    """One file's report, or ``error`` (why the file could not be opened) and no report."""

    path: Path
    report: Report | None
    error: str | None = None


def validate_files(
    files: Sequence[Path],
    options: ValidationOptions,
    pm: pluggy.PluginManager,
    plugin_config: PluginConfig,
    jobs: int,
) -> Iterator[Outcome]:
    """Validate ``files`` and yield their outcomes in the order of ``files``.

    With ``jobs`` above 1 and more than one file, ``min(jobs, len(files))`` worker processes
    validate them in parallel, each with a plugin manager built from ``plugin_config``;
    otherwise they are validated here with ``pm``.
    """
    workers = min(jobs, len(files))
    if workers <= 1:
        yield from (_validate_one(path, options, pm) for path in files)
        return
    # Imported here: a one-file run never pays for multiprocessing's imports.
    import multiprocessing

    context = multiprocessing.get_context(
        "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    )
    # Leaving the block terminates the pool: an interrupted run does not wait for the files
    # being validated.
    with context.Pool(
        workers, initializer=_start_worker, initargs=(plugin_config, options, os.getpid())
    ) as pool:
        yield from pool.imap(_validate_in_worker, files)


def _validate_one(path: Path, options: ValidationOptions, pm: pluggy.PluginManager) -> Outcome:
    try:
        result = validate(path, options=options, filename=path.as_posix(), plugin_manager=pm)
    except OSError as error:
        return Outcome(path, None, error.strerror or str(error))
    return Outcome(path, build_report(result))


#: In a worker process: the options and the plugin manager its initializer set up.
_worker: tuple[ValidationOptions, pluggy.PluginManager] | None = None


def _start_worker(plugin_config: PluginConfig, options: ValidationOptions, parent: int) -> None:
    global _worker
    die_with_parent(parent, signal.SIGKILL)
    _worker = (options, get_plugin_manager(plugin_config))


def _validate_in_worker(path: Path) -> Outcome:
    assert _worker is not None, "the pool's initializer sets it up"
    options, pm = _worker
    return _validate_one(path, options, pm)
