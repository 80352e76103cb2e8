"""``assetcheck accounts create EMAIL --plan PLAN [--password | --password-stdin]``."""

from __future__ import annotations

import argparse
import getpass
import sys

from assetcheck.cli.db_command import CONFIG_OPTION, open_checked_database
from assetcheck.config import Config


def add_parser(commands: argparse._SubParsersAction) -> argparse.ArgumentParser:
    parser = commands.add_parser("accounts", help="manage accounts")
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    create = actions.add_parser(
        "create", help="create an account", parents=[CONFIG_OPTION],
        description="Create an account. With --password or --password-stdin it gets a "
                    "dashboard password and can log in; without, only its API keys work.")
    create.add_argument("email")
    create.add_argument("--plan", required=True,
                        help="free (dashboard only), starter, pro or enterprise")
    source = create.add_mutually_exclusive_group()
    source.add_argument("--password", action="store_true",
                        help="ask for a dashboard password (twice, not shown)")
    source.add_argument("--password-stdin", action="store_true",
                        help="read a dashboard password from the first line of standard input")
    parser.set_defaults(run=run)
    return parser


class PasswordRefused(ValueError):
    """No usable password was given; the message says why."""


def read_password(args: argparse.Namespace) -> str | None:
    """The dashboard password the options ask for: prompted (without echo, and confirmed),
    read from standard input, or None when neither was asked. It follows the dashboard's
    rules (:func:`assetcheck.accounts.credentials.password_problem`)."""
    from assetcheck.accounts.credentials import password_problem

    if args.password_stdin:
        password = sys.stdin.readline().rstrip("\r\n")
        if not password:
            raise PasswordRefused("no password on standard input")
    elif args.password:
        password = getpass.getpass("Dashboard password: ")
        if getpass.getpass("Same password again: ") != password:
            raise PasswordRefused("the two passwords differ")
    else:
        return None
    if problem := password_problem(password):
        raise PasswordRefused(f"the password is refused: {problem}")
    return password


def run(args: argparse.Namespace, config: Config) -> int:
    from assetcheck.accounts.store import AccountError, create_account

    try:
        password = read_password(args)
    except (PasswordRefused, EOFError) as error:
        print(f"assetcheck accounts create: {error or 'no password given'}", file=sys.stderr)
        return 2
    if open_checked_database(config, "accounts") is None:
        return 1
    try:
        account = create_account(args.email, args.plan, list(config["plans"]), password)
    except AccountError as error:
        print(f"assetcheck accounts create: {error}", file=sys.stderr)
        return 1
    login = "with a dashboard password" if password else "without a dashboard password"
    print(f"created account {account.email} on the {account.plan} plan, {login}")
    return 0
