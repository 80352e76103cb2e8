"""The ``assetcheck`` command: one sub-command module per area, each adding its own parser.

Only the module of the command being run is imported (``validate`` never loads the server, the
database or the scheduler); ``--help`` and unknown commands load them all, so argparse can list
and suggest every command.
"""

from __future__ import annotations

import argparse
import importlib
import os
import signal
import sys
from collections.abc import Sequence

from assetcheck import __version__
from assetcheck.config.loading import find_config_file, load_config
from assetcheck.config.values import ConfigError
from assetcheck.daemon.client import command_name
from assetcheck.plugins.errors import PluginError

from .fast_exit import exit_now

# Set before any command imports numpy: the checks never do large linear algebra, and an OpenBLAS
# thread pool would cost about a third of numpy's import time and compete with the worker
# processes (`validate --jobs`, the service's workers) for the cores. A user's setting wins.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

CONFIG_HELP = (
    "TOML configuration file (default: $ASSETCHECK_CONFIG, else ./assetcheck.toml, "
    "else $XDG_CONFIG_HOME/assetcheck/assetcheck.toml, else built-in defaults)"
)
#: The exit statuses every command that judges files shares (``validate``, ``submit``).
EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2
#: The exit status of a command stopped by Ctrl-C (SIGINT), as shells report it.
EXIT_INTERRUPTED = 128 + signal.SIGINT

#: Command name -> the module that adds its parser (``add_parser(commands)``) and runs it.
COMMANDS = {
    "validate": "assetcheck.cli.validate_command",
    "submit": "assetcheck.cli.submit_command",
    "plugins": "assetcheck.cli.plugins_command",
    "serve": "assetcheck.cli.serve_command",
    "worker": "assetcheck.cli.worker_command",
    "accounts": "assetcheck.cli.accounts_command",
    "keys": "assetcheck.cli.keys_command",
    "webhooks": "assetcheck.cli.webhooks_command",
    "db": "assetcheck.cli.db_command",
    "daemon": "assetcheck.cli.daemon_command",
    "diff": "assetcheck.cli.diff_command",
}
#: Commands that leave no thread, child or file behind, so their process may skip the teardown.
EXIT_WITHOUT_TEARDOWN = frozenset({"validate", "diff"})


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser, with only ``command``'s sub-parser when it names a known command."""
    parser = argparse.ArgumentParser(
        prog="assetcheck", description="Validate 3D assets: GLB, glTF, FBX and ZIP archives."
    )
    parser.add_argument("--version", action="version", version=f"assetcheck {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    modules = [COMMANDS[command]] if command in COMMANDS else list(COMMANDS.values())
    for module in modules:
        sub = importlib.import_module(module).add_parser(commands)
        sub.add_argument("--config", metavar="FILE", help=CONFIG_HELP)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; the return value is the process exit status.

    The configuration file is found by :func:`assetcheck.config.loading.find_config_file`. A
    configuration or plugin error is one line on stderr and exit status 2, never a traceback;
    so is Ctrl-C, with the shell's status for it, 130. Run as the process itself (``argv``
    None), a command of :data:`EXIT_WITHOUT_TEARDOWN` ends it once its output is flushed
    (:func:`~assetcheck.cli.fast_exit.exit_now`) instead of returning.
    """
    whole_process = argv is None
    argv = list(sys.argv[1:] if argv is None else argv)
    args = build_parser(command_name(argv)).parse_args(argv)
    status: int = _run_command(args)
    if whole_process and args.command in EXIT_WITHOUT_TEARDOWN:
        exit_now(status)
    return status


def _run_command(args: argparse.Namespace) -> int:
    """The command's exit status; a configuration or plugin error and Ctrl-C are one line."""
    try:
        return args.run(args, load_config(find_config_file(args.config)))
    except (ConfigError, PluginError) as error:
        print(f"assetcheck: {error}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("assetcheck: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED


if __name__ == "__main__":
    sys.exit(main())
