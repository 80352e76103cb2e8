"""The ``assetcheck`` program (``python -m assetcheck``, and the console script).

A ``validate`` command goes to a running daemon when there is one (``docs/daemon.md``); any
other command, or no daemon to take it, runs :func:`assetcheck.cli.main` in this process. Only
the daemon's client is imported before that choice: it must cost less than numpy's import. A
``validate`` run here starts with the garbage collector paused (:mod:`assetcheck.start_up`).
"""

import sys

from assetcheck.daemon.client import DELEGATED_COMMANDS, command_name, delegate
from assetcheck.start_up import pause_collector


def main() -> None:
    """Run the command ``sys.argv`` names and exit with its status."""
    argv = sys.argv[1:]
    if command_name(argv) in DELEGATED_COMMANDS:
        status = delegate(argv)
        if status is not None:
            sys.exit(status)
        pause_collector()  # the command resumes it once its plugins are loaded
    from assetcheck.cli import main as run_here

    sys.exit(run_here())


if __name__ == "__main__":
    main()
