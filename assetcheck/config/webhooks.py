"""``[webhooks]``: the delivery schedule, the receivers' time limit and the networks the
address guard opens (``docs/webhooks.md``). The rules on the values are here, where the file
is read; the service's schedule and guard use them on what they are given."""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable, Sequence
from typing import NamedTuple

from assetcheck.config.values import ConfigError, Table, is_number

IPNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network


class WebhookSettings(NamedTuple):
    """``[webhooks]``: the delay before each attempt (``retry_delays``, the first 0: attempt 1
    is immediate), a receiver's time to answer, the private networks receivers may be on, how
    often each node looks for due deliveries, how long ended deliveries are kept (0: always),
    and how many deliveries of one account may be under way and waiting. Times are seconds."""

    retry_delays: tuple[float, ...]
    timeout: float
    allowed_cidrs: tuple[str, ...]
    poll_interval: float
    keep_deliveries_days: float
    max_sending_per_account: int
    max_pending_per_account: int

    @classmethod
    def read(cls, table: Table) -> WebhookSettings:
        delays, cidrs = table.get("retry_delays"), table.get("allowed_cidrs")
        if not isinstance(delays, list) or not isinstance(cidrs, list):
            raise ConfigError("config keys webhooks.retry_delays and allowed_cidrs must be lists")
        try:
            check_retry_delays(delays)
        except ValueError as error:
            raise ConfigError(f"config key {error}") from None
        try:
            parse_allowed_cidrs(cidrs)
        except (TypeError, ValueError) as error:
            raise ConfigError(f"config key webhooks.allowed_cidrs: {error}") from None
        if delays[0] != 0:
            table.refuse("retry_delays", "must start with 0: the first attempt is immediate")
        return cls(
            retry_delays=tuple(delays),
            timeout=table.seconds("timeout"),
            allowed_cidrs=tuple(cidrs),
            poll_interval=table.seconds("poll_interval"),
            keep_deliveries_days=table.number("keep_deliveries_days"),
            max_sending_per_account=table.whole("max_sending_per_account", 1),
            max_pending_per_account=table.whole("max_pending_per_account", 1),
        )


def check_retry_delays(delays: Sequence[float]) -> None:
    """Raise ``ValueError`` unless ``delays`` is a non-empty list of seconds, none negative."""
    if not delays:
        raise ValueError("webhooks.retry_delays needs at least one delay (the first attempt's)")
    if not all(is_number(delay) and delay >= 0 for delay in delays):
        raise ValueError(f"webhooks.retry_delays must be seconds, none negative: {list(delays)}")


def parse_allowed_cidrs(cidrs: Iterable[str]) -> tuple[IPNetwork, ...]:
    """The networks of ``[webhooks] allowed_cidrs``; a host part set in one (``10.0.0.1/8``)
    is a ``ValueError`` rather than a silently wider network."""
    return tuple(ipaddress.ip_network(cidr) for cidr in cidrs)
