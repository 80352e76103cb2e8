"""Ending a command's process without the interpreter's teardown, once its output is out.

Tearing the interpreter down (freeing every module, numpy's included) costs a one-file
``assetcheck validate`` about as much as validating the file. A command that leaves nothing
behind has nothing for the teardown to do, so :func:`exit_now` flushes what is buffered and
ends the process at once; it declines (and the command returns as usual) when a thread or a
child process is still alive, or when the output cannot be flushed (a closed pipe), which
Python's own exit then reports as before.
"""

from __future__ import annotations

import os
import sys


def exit_now(status: int) -> None:
    """End the process with ``status`` now if nothing is left to clean up; else return."""
    if not _nothing_left_running():
        return
    if "logging" in sys.modules:
        import logging

        logging.shutdown()
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):
        return
    os._exit(status)


def _nothing_left_running() -> bool:
    """No thread but this one, and no child process multiprocessing started still alive."""
    threading = sys.modules.get("threading")
    if threading is not None and threading.active_count() > 1:
        return False
    multiprocessing = sys.modules.get("multiprocessing")
    return multiprocessing is None or not multiprocessing.active_children()
