"""``assetcheck keys create|list|revoke``: API keys of an account. A new key is printed once.

The account modules are imported when an action runs, so other commands start quickly.
"""

from __future__ import annotations

import argparse
import re
import sys
from datetime import datetime, timedelta

from assetcheck.cli.db_command import CONFIG_OPTION, open_checked_database
from assetcheck.config.settings import Config

_DURATION = re.compile(r"(\d+)([dhm])")
_UNITS = {"d": "days", "h": "hours", "m": "minutes"}


def add_parser(commands: argparse._SubParsersAction) -> argparse.ArgumentParser:
    parser = commands.add_parser("keys", help="manage API keys")
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    common = {"parents": [CONFIG_OPTION]}
    create = actions.add_parser(
        "create", help="create a key and print it (shown only once)", **common
    )
    create.add_argument("email")
    create.add_argument("--name", default="", help="a label to recognise the key by")
    create.add_argument(
        "--expires-in",
        type=duration,
        metavar="DURATION",
        help="lifetime such as 30d, 12h or 90m (default: no expiry)",
    )
    listing = actions.add_parser("list", help="list an account's keys (never the keys)", **common)
    listing.add_argument("email")
    revoke = actions.add_parser("revoke", help="revoke a key", **common)
    revoke.add_argument(
        "key",
        metavar="KEY_PREFIX_OR_ID",
        help="the key's id or display prefix, as `keys list` shows them",
    )
    parser.set_defaults(run=run)
    return parser


def duration(text: str) -> timedelta:
    match = _DURATION.fullmatch(text.strip())
    if match is None or int(match[1]) == 0:
        raise argparse.ArgumentTypeError(f"{text!r} is not a duration like 30d, 12h or 90m")
    return timedelta(**{_UNITS[match[2]]: int(match[1])})


def run(args: argparse.Namespace, config: Config) -> int:
    from assetcheck.service.accounts.store import AccountError

    if open_checked_database(config, "keys") is None:
        return 1
    try:
        if args.action == "create":
            _create(args, config)
        elif args.action == "list":
            _list(args.email)
        else:
            _revoke(args.key)
    except AccountError as error:
        print(f"assetcheck keys {args.action}: {error}", file=sys.stderr)
        return 1
    return 0


def _create(args: argparse.Namespace, config: Config) -> None:
    from assetcheck.service.accounts.store import find_account, issue_key
    from assetcheck.service.db.tables import utcnow

    expires_at = utcnow() + args.expires_in if args.expires_in else None
    row, key = issue_key(
        find_account(args.email),
        args.name,
        expires_at,
        max_active=config.accounts.max_active_keys,
    )
    print(key)
    print(
        f"key {row.id} ({row.prefix}...) for {args.email}, "
        f"{'expires ' + _when(expires_at) if expires_at else 'no expiry'}: "
        "store it now, it is not shown again",
        file=sys.stderr,
    )


def _list(email: str) -> None:
    from assetcheck.service.accounts.store import account_keys, find_account, key_status

    keys = account_keys(find_account(email))
    if not keys:
        print(f"{email} has no API keys")
        return
    print(
        f"{'ID':>5}  {'PREFIX':<14} {'STATUS':<8} {'CREATED':<17} {'LAST USED':<17} "
        f"{'EXPIRES':<17} NAME"
    )
    for key in keys:
        print(
            f"{key.id:>5}  {key.prefix + '...':<14} {key_status(key):<8} "
            f"{_when(key.created_at):<17} {_when(key.last_used_at):<17} "
            f"{_when(key.expires_at):<17} {key.name}"
        )


def _revoke(reference: str) -> None:
    from assetcheck.service.accounts.store import find_key, revoke_key

    key = find_key(reference)
    if revoke_key(key):
        print(f"revoked key {key.id} ({key.prefix}...)")
    else:
        print(f"key {key.id} ({key.prefix}...) was already revoked")


def _when(moment: datetime | None) -> str:
    return moment.strftime("%Y-%m-%d %H:%M") if moment else "-"
