"""Recording which issue codes a run raised, for the test suite's check that every registered
code is raised by some test (README, "Two commands").

The test session names a folder in :data:`RECORD_VARIABLE`; every process that inherits it (the
test process, its forked and spawned children, the services the tests start) appends each code
it raises, once per process, as a line of :data:`RECORD_FILE` there. Writes of one short line
with ``O_APPEND`` are atomic on POSIX (below ``PIPE_BUF``), so concurrent writers never tear a
line. Unset (production), :func:`code_recorder` is ``None`` and issues cost nothing more.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable
from pathlib import Path

#: Names the folder that raised codes are recorded in. Not ``ASSETCHECK_``: that prefix is the
#: configuration's (docs/operations.md), and tests drop it from the environments they build.
RECORD_VARIABLE = "RAISED_ISSUE_CODES_DIR"
#: The file of the folder that holds one raised code a line.
RECORD_FILE = "raised-codes"

#: The (file, code) pairs this process has written: each code is written once per process.
_written: set[tuple[str, str]] = set()


def code_recorder() -> Callable[[str], None] | None:
    """The function that records a raised code, or ``None`` when :data:`RECORD_VARIABLE` is
    unset or empty."""
    folder = os.environ.get(RECORD_VARIABLE)
    if not folder:
        return None
    return functools.partial(_append, os.path.join(folder, RECORD_FILE))


def recorded_codes(folder: Path) -> set[str]:
    """The codes recorded in ``folder`` so far (none when nothing was recorded)."""
    try:
        return set((folder / RECORD_FILE).read_text().split())
    except FileNotFoundError:
        return set()


def _append(path: str, code: str) -> None:
    if (path, code) in _written:
        return
    descriptor = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        os.write(descriptor, f"{code}\n".encode())
    finally:
        os.close(descriptor)
    _written.add((path, code))
