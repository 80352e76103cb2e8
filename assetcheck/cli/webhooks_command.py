"""``assetcheck webhooks set-url|clear-url|secret|ping|deliveries``: an account's webhooks.

``secret`` prints the signing secret on standard output (and nothing else there), so it can be
piped into a receiver's configuration. The webhook modules are imported when an action runs,
so other commands start quickly.
"""

from __future__ import annotations

import argparse
import sys
from datetime import datetime
from typing import TYPE_CHECKING

from assetcheck.cli.db_command import CONFIG_OPTION, open_checked_database, secret_box
from assetcheck.config.settings import Config

if TYPE_CHECKING:
    from assetcheck.service.db.tables import Account

DEFAULT_LISTED = 20


def add_parser(commands: argparse._SubParsersAction) -> argparse.ArgumentParser:
    parser = commands.add_parser(
        "webhooks",
        help="manage an account's webhooks",
        description="The default webhook URL of an account's jobs, "
        "its signing secret and its deliveries.",
    )
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    common = {"parents": [CONFIG_OPTION]}
    set_url = actions.add_parser(
        "set-url", help="set the default webhook URL (checked now)", **common
    )
    set_url.add_argument("email")
    set_url.add_argument("url")
    actions.add_parser("clear-url", help="remove the default webhook URL", **common).add_argument(
        "email"
    )
    secret = actions.add_parser("secret", help="print the signing secret", **common)
    secret.add_argument("email")
    secret.add_argument(
        "--rotate", action="store_true", help="replace it; the old one keeps signing for 24 hours"
    )
    actions.add_parser(
        "ping", help="queue a ping event to the default URL (sent by the running service)", **common
    ).add_argument("email")
    deliveries = actions.add_parser("deliveries", help="list recent deliveries", **common)
    deliveries.add_argument("email")
    deliveries.add_argument(
        "--limit",
        type=int,
        default=DEFAULT_LISTED,
        metavar="N",
        help=f"how many, newest first (default {DEFAULT_LISTED})",
    )
    parser.set_defaults(run=run)
    return parser


def run(args: argparse.Namespace, config: Config) -> int:
    from assetcheck.service.accounts.store import AccountError, find_account
    from assetcheck.service.webhooks.outbox import DeliveryError
    from assetcheck.service.webhooks.secret_box import SecretUnreadable
    from assetcheck.service.webhooks.settings import WebhookPlanError
    from assetcheck.service.webhooks.urls import WebhookUrlError

    if open_checked_database(config, "webhooks") is None:
        return 1
    action = _ACTIONS[args.action]
    try:
        action(args, config, find_account(args.email))
    except (
        AccountError,
        DeliveryError,
        SecretUnreadable,
        WebhookPlanError,
        WebhookUrlError,
    ) as error:
        print(f"assetcheck webhooks {args.action}: {error}", file=sys.stderr)
        return 1
    return 0


def _set_url(args: argparse.Namespace, config: Config, account: Account) -> None:
    from assetcheck.service.webhooks.settings import set_webhook_url

    set_webhook_url(account, args.url, secret_box(config), config.webhooks.allowed_cidrs)
    print(f"webhook URL of {account.email} set to {args.url}")
    print(
        "receivers verify deliveries with the secret `assetcheck webhooks secret "
        f"{account.email}` prints",
        file=sys.stderr,
    )


def _clear_url(args: argparse.Namespace, config: Config, account: Account) -> None:
    from assetcheck.service.webhooks.settings import clear_webhook_url

    clear_webhook_url(account)
    print(f"{account.email} has no default webhook URL now")


def _secret(args: argparse.Namespace, config: Config, account: Account) -> None:
    from assetcheck.service.webhooks.settings import reveal_secret, rotate_secret, rotation_ends_at

    box = secret_box(config)
    print(rotate_secret(account, box) if args.rotate else reveal_secret(account, box))
    ends = rotation_ends_at(account)
    if ends is not None:
        print(f"the previous secret also signs deliveries until {_when(ends)} UTC", file=sys.stderr)


def _ping(args: argparse.Namespace, config: Config, account: Account) -> None:
    from assetcheck.service.webhooks.outbox import queue_ping

    delivery = queue_ping(account)
    print(
        f"queued ping {delivery.id} to {account.webhook_url}; see `assetcheck webhooks "
        f"deliveries {account.email}`"
    )


def _deliveries(args: argparse.Namespace, config: Config, account: Account) -> None:
    from assetcheck.service.webhooks.outbox import list_deliveries

    deliveries, _ = list_deliveries(account.id, limit=max(1, args.limit))
    if not deliveries:
        print(f"{account.email} has no webhook deliveries")
        return
    print(
        f"{'DELIVERY':<28} {'EVENT':<20} {'JOB':<28} {'STATUS':<9} {'CREATED':<19} "
        "ATTEMPTS  LAST RESULT"
    )
    for delivery in deliveries:
        last = delivery.attempts[-1] if delivery.attempts else None
        result = "-" if last is None else (last.error or f"HTTP {last.status_code}")
        print(
            f"{delivery.id:<28} {delivery.event:<20} {delivery.job_id or '-':<28} "
            f"{delivery.status:<9} {_when(delivery.created_at):<19} "
            f"{len(delivery.attempts):>8}  {result}"
        )


def _when(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%d %H:%M:%S")


_ACTIONS = {
    "set-url": _set_url,
    "clear-url": _clear_url,
    "secret": _secret,
    "ping": _ping,
    "deliveries": _deliveries,
}
