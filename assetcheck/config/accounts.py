"""``[accounts]`` and ``[plans.<name>]``: what an account may do, and the limits of each plan
(``docs/operations.md``, ``docs/api.md``)."""

from __future__ import annotations

from typing import NamedTuple

from assetcheck.config.values import ConfigError, Table, is_number

#: Longest ``[accounts] login_max_delay``: a log-in count starts over after an hour's quiet.
MAX_LOGIN_DELAY = 3600
#: Plan keys a plan of the file's own may leave out, and what they then are: nothing is
#: removed, and there is no quota.
OPTIONAL_PLAN_KEYS = {"retention_days": 0, "max_storage_mb": 0}


class AccountSettings(NamedTuple):
    """``[accounts]``: API keys an account may have active, and the delays after failed
    log-ins (``docs/security.md``, Log-in delays), in seconds."""

    max_active_keys: int
    login_first_delay: float
    login_max_delay: float

    @classmethod
    def read(cls, table: Table) -> AccountSettings:
        first, longest = table.get("login_first_delay"), table.get("login_max_delay")
        if (
            not (is_number(first) and is_number(longest))
            or not 0 < first <= longest <= MAX_LOGIN_DELAY
        ):
            raise ConfigError(
                f"config keys accounts.login_first_delay and login_max_delay must be "
                f"seconds with 0 < first <= max <= {MAX_LOGIN_DELAY}"
            )
        return cls(
            max_active_keys=table.whole("max_active_keys"),
            login_first_delay=float(first),
            login_max_delay=float(longest),
        )


class PlanSettings(NamedTuple):
    """``[plans.<name>]``: an account's limits. ``retention_days`` and ``max_storage_mb`` of
    0 mean none; the rates are per minute."""

    max_upload_mb: int
    requests_per_minute: int
    max_processing_jobs: int
    max_queued_jobs: int
    retention_days: int
    max_storage_mb: int
    page_renders_per_minute: int

    @classmethod
    def read(cls, table: Table) -> PlanSettings:
        return cls(
            max_upload_mb=table.whole("max_upload_mb"),
            requests_per_minute=table.whole("requests_per_minute", 1),
            max_processing_jobs=table.whole("max_processing_jobs"),
            max_queued_jobs=table.whole("max_queued_jobs"),
            retention_days=table.whole("retention_days"),
            max_storage_mb=table.whole("max_storage_mb"),
            page_renders_per_minute=table.whole("page_renders_per_minute", 1),
        )

    @property
    def max_upload_bytes(self) -> int:
        return self.max_upload_mb << 20

    @property
    def max_storage_bytes(self) -> int:
        """The account's quota in bytes; 0: none."""
        return self.max_storage_mb << 20


def read_plans(plans: Table) -> dict[str, PlanSettings]:
    """Every ``[plans.<name>]`` table, by plan name, in the order they are written."""
    return {
        name: PlanSettings.read(Table(plan.name, {**OPTIONAL_PLAN_KEYS, **plan.values}))
        for name, plan in plans.tables().items()
    }
