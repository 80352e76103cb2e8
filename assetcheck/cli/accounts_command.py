"""``assetcheck accounts create EMAIL --plan PLAN [--password | --password-stdin]`` and
``assetcheck accounts delete EMAIL --yes``."""

from __future__ import annotations

import argparse
import getpass
import sys

from assetcheck.cli.db_command import CONFIG_OPTION, open_checked_database
from assetcheck.config.settings import Config


def add_parser(commands: argparse._SubParsersAction) -> argparse.ArgumentParser:
    parser = commands.add_parser("accounts", help="manage accounts")
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    create = actions.add_parser(
        "create",
        help="create an account",
        parents=[CONFIG_OPTION],
        description="Create an account. With --password or --password-stdin it gets a "
        "dashboard password and can log in; without, only its API keys work.",
    )
    create.add_argument("email")
    create.add_argument(
        "--plan", required=True, help="free (dashboard only), starter, pro or enterprise"
    )
    source = create.add_mutually_exclusive_group()
    source.add_argument(
        "--password", action="store_true", help="ask for a dashboard password (twice, not shown)"
    )
    source.add_argument(
        "--password-stdin",
        action="store_true",
        help="read a dashboard password from the first line of standard input",
    )
    create.set_defaults(run=run_create)
    delete = actions.add_parser(
        "delete",
        parents=[CONFIG_OPTION],
        help="delete an account and everything of it: keys, jobs, uploads, previews, reports, "
        "webhook settings and deliveries",
    )
    delete.add_argument("email")
    delete.add_argument("--yes", action="store_true", help="confirm: the deletion cannot be undone")
    delete.set_defaults(run=run_delete)
    return parser


class PasswordRefused(ValueError):
    """No usable password was given; the message says why."""


def read_password(args: argparse.Namespace) -> str | None:
    """The dashboard password the options ask for: prompted (without echo, and confirmed),
    read from standard input, or None when neither was asked. It follows the dashboard's
    rules (:func:`assetcheck.service.accounts.credentials.password_problem`)."""
    from assetcheck.service.accounts.credentials import password_problem

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


def run_create(args: argparse.Namespace, config: Config) -> int:
    from assetcheck.service.accounts.store import AccountError, create_account

    try:
        password = read_password(args)
    except (PasswordRefused, EOFError) as error:
        print(f"assetcheck accounts create: {error or 'no password given'}", file=sys.stderr)
        return 2
    if open_checked_database(config, "accounts") is None:
        return 1
    try:
        account = create_account(args.email, args.plan, list(config.plans), password)
    except AccountError as error:
        print(f"assetcheck accounts create: {error}", file=sys.stderr)
        return 1
    login = "with a dashboard password" if password else "without a dashboard password"
    print(f"created account {account.email} on the {account.plan} plan, {login}")
    return 0


def run_delete(args: argparse.Namespace, config: Config) -> int:
    from assetcheck.service.accounts.store import AccountError, find_account
    from assetcheck.service.jobs.deletion import delete_account
    from assetcheck.service.jobs.storage import StorageUnavailable, open_storage

    if not args.yes:
        print(
            f"assetcheck accounts delete: this removes {args.email} and everything of it "
            "for good; add --yes to confirm",
            file=sys.stderr,
        )
        return 2
    storage = open_storage(config.storage)
    database = open_checked_database(config, "accounts")
    if database is None:
        return 1
    try:
        account = find_account(args.email)
    except AccountError as error:
        print(f"assetcheck accounts delete: {error}", file=sys.stderr)
        return 1
    try:
        jobs = delete_account(database, storage, account.id)
    except StorageUnavailable as error:
        print(
            f"assetcheck accounts delete: the account is deleted, but some of its files "
            f"remain ({error}); the sweeper removes them within the hour",
            file=sys.stderr,
        )
        return 1
    print(f"deleted account {account.email} with its {jobs} job(s) and their files")
    return 0
