"""``assetcheck accounts create EMAIL --plan PLAN [--password-stdin]`` and ``assetcheck
accounts delete EMAIL --yes``."""

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
    create.set_defaults(run=run_create)
    delete = actions.add_parser(
        "delete", parents=[CONFIG_OPTION],
        help="delete an account and everything of it: keys, jobs, uploads, previews, reports, "
             "webhook settings and deliveries")
    delete.add_argument("email")
    delete.add_argument("--yes", action="store_true",
                        help="confirm: the deletion cannot be undone")
    delete.set_defaults(run=run_delete)
    return parser


def run_create(args: argparse.Namespace, config: Config) -> int:
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


def run_delete(args: argparse.Namespace, config: Config) -> int:
    from assetcheck.accounts.store import AccountError, find_account
    from assetcheck.jobs.deletion import delete_account
    from assetcheck.jobs.storage import StorageUnavailable, open_storage

    if not args.yes:
        print(f"assetcheck accounts delete: this removes {args.email} and everything of it "
              "for good; add --yes to confirm", file=sys.stderr)
        return 2
    storage = open_storage(config)
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
        print(f"assetcheck accounts delete: the account is deleted, but some of its files "
              f"remain ({error}); the sweeper removes them within the hour", file=sys.stderr)
        return 1
    print(f"deleted account {account.email} with its {jobs} job(s) and their files")
    return 0
