"""The tables. Timestamps are naive UTC datetimes (see :func:`utcnow`).

Schema changes go through ``assetcheck.migrations``: a change here needs a new migration step
and a higher ``SCHEMA_VERSION`` there.
"""

from __future__ import annotations

from datetime import UTC, datetime

import peewee

from assetcheck.db import database_proxy


def utcnow() -> datetime:
    """Now, in UTC, without tzinfo: how every timestamp is stored."""
    return datetime.now(UTC).replace(tzinfo=None)


class BaseModel(peewee.Model):
    class Meta:
        database = database_proxy
        legacy_table_names = False


class Account(BaseModel):
    """Someone who uploads: API keys belong to an account, and so do jobs."""

    email = peewee.CharField(max_length=320, unique=True)
    plan = peewee.CharField(max_length=32)
    password_hash = peewee.CharField(max_length=255, null=True)  # for the dashboard
    created_at = peewee.DateTimeField(default=utcnow)


class ApiKey(BaseModel):
    """An API key, stored as the SHA-256 digest of the key and a short prefix to recognise it."""

    account = peewee.ForeignKeyField(Account, backref="api_keys", on_delete="CASCADE")
    digest = peewee.CharField(max_length=64, unique=True)
    prefix = peewee.CharField(max_length=16, index=True)
    name = peewee.CharField(max_length=100, default="")
    created_at = peewee.DateTimeField(default=utcnow)
    last_used_at = peewee.DateTimeField(null=True)
    expires_at = peewee.DateTimeField(null=True)
    revoked_at = peewee.DateTimeField(null=True)


class Job(BaseModel):
    """One validation of one upload. Its states are changed only by ``assetcheck.jobs.queue``."""

    id = peewee.CharField(max_length=64, primary_key=True)
    account = peewee.ForeignKeyField(Account, backref="jobs", on_delete="CASCADE")
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

    class Meta:
        indexes = (
            (("status", "created_at"), False),  # claiming the oldest queued job
            (("account", "created_at"), False),  # an account's jobs, newest first
            (("status", "finished_at"), False),  # recent durations for estimates
        )


class SchemaVersion(BaseModel):
    """One row: the schema version the database is at."""

    version = peewee.IntegerField()
    upgraded_at = peewee.DateTimeField(default=utcnow)


TABLES = (Account, ApiKey, Job, SchemaVersion)
