"""The ``assetcheck`` command: one sub-command module per area, each adding its own parser."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from assetcheck import __version__
from assetcheck.cli import (
    accounts_command,
    db_command,
    keys_command,
    plugins_command,
    serve_command,
    validate_command,
    webhooks_command,
    worker_command,
)
from assetcheck.config import ConfigError, load_config

EXIT_USAGE = 2
COMMANDS = (validate_command, plugins_command, serve_command, worker_command, accounts_command,
            keys_command, webhooks_command, db_command)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="assetcheck", description="Validate 3D assets: GLB, glTF, FBX and ZIP archives.")
    parser.add_argument("--version", action="version", version=f"assetcheck {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for command in COMMANDS:
        sub = command.add_parser(commands)
        sub.add_argument("--config", metavar="FILE", help="TOML configuration file")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; the return value is the process exit status."""
    args = build_parser().parse_args(argv)
    try:
        config = load_config(args.config)
    except ConfigError as error:
        print(f"assetcheck: {error}", file=sys.stderr)
        return EXIT_USAGE
    return args.run(args, config)


if __name__ == "__main__":
    sys.exit(main())
