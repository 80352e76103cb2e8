"""What a job may store beside its upload, and what that leaves of its account's quota.

A job stores its upload and derives from it preview pictures, the 3D viewer's models and
overlays, and the report. The files it derives may take at most ``[storage]
max_derived_ratio`` times the upload's size plus ``derived_allowance_mb``
(:class:`DerivedLimit`), and no more than what is left of the account's ``[plans.<name>]
max_storage_mb`` when the job starts (:func:`job_budget`); the report has its own bound
(``[validation] max_report_mb``). Everything stored counts toward the quota
(:meth:`~assetcheck.service.jobs.queue.JobQueue.stored_bytes`). ``docs/operations.md`` (Retention,
quotas and deletion) states the rule.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from assetcheck.config.accounts import PlanSettings
from assetcheck.config.storage import StorageSettings
from assetcheck.previews.budget import ByteBudget, readable_size
from assetcheck.service.db.tables import Account, Job
from assetcheck.service.jobs.queue import JobQueue


@dataclass(frozen=True)
class DerivedLimit:
    """``[storage] max_derived_ratio`` and ``derived_allowance_mb``: a job may store
    ``ratio`` times its upload's size plus ``allowance`` bytes of files beside it."""

    ratio: float
    allowance: int

    @classmethod
    def from_settings(cls, storage: StorageSettings) -> DerivedLimit:
        """The limit ``[storage]`` sets."""
        return cls(
            ratio=storage.max_derived_ratio,
            allowance=int(storage.derived_allowance_mb * (1 << 20)),
        )

    def bytes_for(self, upload_size: int) -> int:
        """How many bytes a job whose upload has ``upload_size`` bytes may store beside it."""
        return int(self.ratio * upload_size) + self.allowance

    def describe(self, upload_size: int) -> str:
        return (
            f"{self.ratio:g} times its {readable_size(upload_size)} upload plus "
            f"{readable_size(self.allowance)}"
        )


def job_budget(
    limit: DerivedLimit, queue: JobQueue, plans: Mapping[str, PlanSettings], job: Job
) -> ByteBudget:
    """The budget of ``job``'s previews: the smaller of ``limit`` and what is left of its
    account's plan's ``max_storage_mb`` (its own upload already counted). Jobs of one account
    running at once may each take what is left, so an account passes its quota by at most
    the files of those jobs."""
    own = limit.bytes_for(job.size)
    plan = Account.select(Account.plan).where(Account.id == job.account_id).scalar()
    settings = plans.get(plan)
    quota = settings.max_storage_bytes if settings else 0
    if quota:
        left = max(0, quota - queue.stored_bytes(job.account_id))
        if left < own:
            return ByteBudget(
                limit=left,
                reason=f"what is left of the account's {readable_size(quota)} storage quota",
            )
    return ByteBudget(limit=own, reason=limit.describe(job.size))
