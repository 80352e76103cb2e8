"""``assetcheck accounts create EMAIL --plan PLAN [--password-stdin]``."""

from __future__ import annotations

import argparse
import sys

from assetcheck.cli.db_command import CONFIG_OPTION, open_checked_database
from assetcheck.config import Config


def add_parser(commands: argparse._SubParsersAction) -> argparse.ArgumentParser:
    parser = commands.add_parser("accounts", help="manage accounts")
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    create = actions.add_parser("create", help="create an account", parents=[CONFIG_OPTION])
    create.add_argument("email")
    create.add_argument("--plan", required=True,
                        help="free (dashboard only), starter, pro or enterprise")
    create.add_argument("--password-stdin", action="store_true",
                        help="read a dashboard password from the first line of standard input")
    parser.set_defaults(run=run)
    return parser


def run(args: argparse.Namespace, config: Config) -> int:
    from assetcheck.accounts.store import AccountError, create_account

    password = sys.stdin.readline().rstrip("\r\n") if args.password_stdin else None
    if args.password_stdin and not password:
        print("assetcheck accounts create: no password on standard input", file=sys.stderr)
        return 2
    if open_checked_database(config, "accounts") is None:
        return 1
    try:
        account = create_account(args.email, args.plan, list(config["plans"]), password)
    except AccountError as error:
        print(f"assetcheck accounts create: {error}", file=sys.stderr)
        return 1
    print(f"created account {account.email} on the {account.plan} plan")
    return 0
