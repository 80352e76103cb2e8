"""Deleting a job, or an account, and everything they stored.

The rows go first, in one transaction (an account's keys, jobs and webhook deliveries follow
it by ``ON DELETE CASCADE``), then the files. Deleting a queued job's row cancels it: no worker
can claim it any more. A job being validated is cancelled the same way: its worker's next lease
renewal (within ``lease_seconds / 4``) finds no row, kills the validation and removes whatever
it stored meanwhile (:mod:`assetcheck.service.jobs.worker`). A crash between the rows and the files
leaves files without a row, which the sweeper removes.
"""

from __future__ import annotations

import peewee

from assetcheck.service.db import write_transaction
from assetcheck.service.db.tables import Account, Job
from assetcheck.service.jobs.storage import JobStorage


def delete_job(
    database: peewee.Database, storage: JobStorage, account_id: int, job_id: str
) -> bool:
    """Delete the account's job ``job_id`` and its files; False when it has no such job."""
    with write_transaction(database):
        deleted = Job.delete().where(Job.id == job_id, Job.account == account_id).execute()
    if deleted:
        storage.delete_job(job_id)
    return bool(deleted)


def delete_account(database: peewee.Database, storage: JobStorage, account_id: int) -> int:
    """Delete the account, its keys, jobs and deliveries, and its jobs' files; returns how
    many jobs it had. Nothing happens when there is no such account (0)."""
    with write_transaction(database):
        job_ids = [job.id for job in Job.select(Job.id).where(Job.account == account_id)]
        Account.delete().where(Account.id == account_id).execute()
    for job_id in job_ids:
        storage.delete_job(job_id)
    return len(job_ids)
