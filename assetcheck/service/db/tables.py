"""The tables. Timestamps are naive UTC datetimes (see :func:`utcnow`).

Schema changes go through ``assetcheck.service.db.migrations``: a change here needs a new migration
step and a higher ``SCHEMA_VERSION`` there.
"""

from __future__ import annotations

from datetime import UTC, datetime

import peewee

from assetcheck.service.db import database_proxy


def utcnow() -> datetime:
    """Now, in UTC, without tzinfo: how every timestamp is stored."""
    return datetime.now(UTC).replace(tzinfo=None)


def iso(moment: datetime | None) -> str | None:
    """A stored (naive UTC) timestamp as ISO 8601 UTC: ``2025-01-31T12:00:00Z``."""
    return None if moment is None else moment.strftime("%Y-%m-%dT%H:%M:%SZ")


class BaseModel(peewee.Model):
    class Meta:
        database = database_proxy
        legacy_table_names = False


class Account(BaseModel):
    """Someone who uploads: API keys belong to an account, and so do jobs."""

    id = peewee.AutoField()
    api_keys: peewee.ModelSelect[ApiKey]  # backref of ApiKey.account
    email = peewee.CharField(max_length=320, unique=True)
    plan = peewee.CharField(max_length=32)
    password_hash = peewee.CharField(max_length=255, null=True)  # for the dashboard
    created_at = peewee.DateTimeField(default=utcnow)
    # Webhooks (assetcheck.service.webhooks.settings): the default URL of the account's jobs, and
    # the signing secret; the previous secret still signs for a while after a rotation. Both are
    # sealed (assetcheck.service.webhooks.secret_box): the database never holds them in clear.
    webhook_url = peewee.CharField(max_length=2048, null=True)
    webhook_secret_sealed = peewee.CharField(max_length=255, null=True)
    webhook_previous_secret_sealed = peewee.CharField(max_length=255, null=True)
    webhook_secret_rotated_at = peewee.DateTimeField(null=True)
    # When a worker last claimed one of the account's jobs: accounts with queued work take
    # turns, the least recently served first (assetcheck.service.jobs.queue).
    last_claimed_at = peewee.DateTimeField(null=True)
    # When a dispatcher last claimed one of the account's webhook deliveries: accounts with due
    # deliveries take turns the same way (assetcheck.service.webhooks.outbox).
    webhooks_served_at = peewee.DateTimeField(null=True)
    # Dashboard sessions (assetcheck.service.dashboard.sessions): a session cookie names the
    # generation it began in; logging out and changing the password move to the next, ending them
    # all.
    session_generation = peewee.IntegerField(default=0)


class ApiKey(BaseModel):
    """An API key, stored as the SHA-256 digest of the key and a short prefix to recognise it."""

    id = peewee.AutoField()
    account = peewee.ForeignKeyField(Account, backref="api_keys", on_delete="CASCADE")
    digest = peewee.CharField(max_length=64, unique=True)
    prefix = peewee.CharField(max_length=16, index=True)
    name = peewee.CharField(max_length=100, default="")
    created_at = peewee.DateTimeField(default=utcnow)
    last_used_at = peewee.DateTimeField(null=True)
    expires_at = peewee.DateTimeField(null=True)
    revoked_at = peewee.DateTimeField(null=True)


class Job(BaseModel):
    """One validation of one upload. Its states are changed only by
    ``assetcheck.service.jobs.queue``."""

    id = peewee.CharField(max_length=64, primary_key=True)
    account = peewee.ForeignKeyField(Account, backref="jobs", on_delete="CASCADE")
    account_id: int  # the foreign key's column, read without loading the account
    status = peewee.CharField(max_length=16)
    progress = peewee.SmallIntegerField(default=0)
    filename = peewee.CharField(max_length=255)
    engine = peewee.CharField(max_length=64)
    options = peewee.JSONField(default=dict)
    stored_path = peewee.CharField(max_length=255)  # relative to storage.data_dir
    sha256 = peewee.CharField(max_length=64)
    size = peewee.BigIntegerField()
    attempts = peewee.SmallIntegerField(default=0)
    lease_owner = peewee.CharField(max_length=128, null=True)
    lease_expires_at = peewee.DateTimeField(null=True)
    error_code = peewee.CharField(max_length=64, null=True)
    error_message = peewee.TextField(null=True)
    result = peewee.JSONField(null=True)  # the full JSON report
    health_score = peewee.SmallIntegerField(null=True)
    grade = peewee.CharField(max_length=16, null=True)
    created_at = peewee.DateTimeField(default=utcnow)
    started_at = peewee.DateTimeField(null=True)
    finished_at = peewee.DateTimeField(null=True)
    # When retention removed the job's upload, previews and report (the row keeps its summary).
    expired_at = peewee.DateTimeField(null=True)
    # The X-Request-Id of the upload that made the job: the worker's log lines name it too.
    request_id = peewee.CharField(max_length=64, null=True)
    # Bytes the job stores beside its upload (previews, viewer files, overlays, report): with
    # ``size``, what it counts toward its account's quota (docs/operations.md).
    derived_bytes = peewee.BigIntegerField(default=0)

    class Meta:
        indexes = (
            (("status", "created_at"), False),  # the queue's length, oldest first
            (("account", "created_at"), False),  # an account's jobs, newest first
            # A claim: the accounts with queued jobs, then one account's running jobs and
            # its oldest queued one.
            (("status", "account"), False),
            (("account", "status", "created_at"), False),
            (("status", "finished_at"), False),  # recent durations for estimates
        )


class WebhookDelivery(BaseModel):
    """One event for one account's webhook: the outbox row, written in the transaction that
    ends its job. Its states are changed only by ``assetcheck.service.webhooks.outbox``."""

    id = peewee.CharField(max_length=64, primary_key=True)  # sent as webhook-id
    account = peewee.ForeignKeyField(Account, backref="webhook_deliveries", on_delete="CASCADE")
    account_id: int
    job = peewee.ForeignKeyField(
        Job, null=True, backref="webhook_deliveries", on_delete="CASCADE"
    )  # none for a ping
    job_id: str | None
    attempts: peewee.ModelSelect[WebhookAttempt]  # backref of WebhookAttempt.delivery
    event = peewee.CharField(max_length=32)
    url = peewee.CharField(max_length=2048, null=True)  # none: the account's default URL
    body = peewee.TextField()  # the exact bytes every attempt sends (ASCII JSON)
    status = peewee.CharField(max_length=16)
    cycle = peewee.SmallIntegerField(default=1)  # 1, then +1 for each redelivery
    attempts_made = peewee.SmallIntegerField(default=0)  # in this cycle
    next_attempt_at = peewee.DateTimeField(null=True)
    lease_owner = peewee.CharField(max_length=128, null=True)
    lease_expires_at = peewee.DateTimeField(null=True)
    created_at = peewee.DateTimeField(default=utcnow)
    finished_at = peewee.DateTimeField(null=True)

    class Meta:
        indexes = (
            (("status", "next_attempt_at"), False),  # claiming due deliveries
            (("account", "created_at"), False),  # an account's deliveries, newest first
            (("account", "status"), False),  # an account's deliveries being sent, or pending
        )


class WebhookAttempt(BaseModel):
    """One POST of a delivery and how it ended."""

    id = peewee.AutoField()
    delivery = peewee.ForeignKeyField(WebhookDelivery, backref="attempts", on_delete="CASCADE")
    cycle = peewee.SmallIntegerField()
    number = peewee.SmallIntegerField()  # 1 to len(retry_delays), within the cycle
    started_at = peewee.DateTimeField()
    status_code = peewee.SmallIntegerField(null=True)  # none: no answer
    error = peewee.TextField(null=True)  # none: delivered
    duration_ms = peewee.IntegerField()


class TaskRun(BaseModel):
    """When a periodic task of the scheduler last ran on any node: a node runs the task only
    when it moves ``next_run_at`` forward itself (``assetcheck.service.jobs.task_runs``)."""

    name = peewee.CharField(max_length=64, primary_key=True)
    next_run_at = peewee.DateTimeField()
    node = peewee.CharField(max_length=128, null=True)


class SchemaVersion(BaseModel):
    """One row: the schema version the database is at."""

    version = peewee.IntegerField()
    upgraded_at = peewee.DateTimeField(default=utcnow)


TABLES = (Account, ApiKey, Job, WebhookDelivery, WebhookAttempt, TaskRun, SchemaVersion)
