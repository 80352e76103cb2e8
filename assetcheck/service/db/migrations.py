"""Explicit, versioned schema creation and upgrades.

An empty database gets the current schema in one step (the tables of
``assetcheck.service.db.tables``, stamped with :data:`SCHEMA_VERSION`); that is what lets ``./dev
start`` work on a fresh clone. A database that already has a schema is only ever changed by
``assetcheck db upgrade``, which runs the steps of :data:`UPGRADE_STEPS` from its version up, each
in its own transaction. Everything else (``serve``, ``worker``, the admin commands) refuses an
outdated schema.

A step is a function of the database and an :class:`UpgradeContext` (what a step needs from
outside the database, such as the key that seals webhook secrets); write it with
``playhouse.migrate`` operations (``SchemaMigrator.from_database(db)``) and snapshot models, not
with the current models, since those describe the newest schema. Bump :data:`SCHEMA_VERSION`
with every step.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

import peewee
from playhouse.migrate import SchemaMigrator, migrate

from assetcheck.service.db.tables import TABLES, SchemaVersion, utcnow

SCHEMA_VERSION = 9


class SchemaError(RuntimeError):
    """The database's schema is not the one this version of AssetCheck needs."""


@dataclass(frozen=True)
class UpgradeContext:
    """What upgrade steps need besides the database. ``seal_webhook_secret(secret,
    account_id)`` returns the stored form of a webhook secret (``assetcheck db upgrade`` makes
    it from the server secret: ``SecretBox(server_secret).seal``)."""

    seal_webhook_secret: Callable[[str, int], str] | None = None


#: ``version -> step`` that upgrades a database from ``version - 1`` to ``version``.
UpgradeStep = Callable[[peewee.Database, UpgradeContext], None]


class _Snapshot(peewee.Model):
    """The base of the tables as a step sees them (never the current models)."""

    class Meta:
        legacy_table_names = False


def add_webhooks(database: peewee.Database, context: UpgradeContext) -> None:
    """Version 2: the account's webhook URL and secrets, the delivery outbox, its attempts.

    The tables are declared here as they are at version 2, not taken from the models.
    """

    class Account(_Snapshot):
        pass

    class Job(_Snapshot):
        id = peewee.CharField(max_length=64, primary_key=True)

    class WebhookDelivery(_Snapshot):
        id = peewee.CharField(max_length=64, primary_key=True)
        account = peewee.ForeignKeyField(Account, on_delete="CASCADE")
        job = peewee.ForeignKeyField(Job, null=True, on_delete="CASCADE")
        event = peewee.CharField(max_length=32)
        url = peewee.CharField(max_length=2048, null=True)
        body = peewee.TextField()
        status = peewee.CharField(max_length=16)
        cycle = peewee.SmallIntegerField(default=1)
        attempts_made = peewee.SmallIntegerField(default=0)
        next_attempt_at = peewee.DateTimeField(null=True)
        lease_owner = peewee.CharField(max_length=128, null=True)
        lease_expires_at = peewee.DateTimeField(null=True)
        created_at = peewee.DateTimeField()
        finished_at = peewee.DateTimeField(null=True)

        class Meta:
            indexes = ((("status", "next_attempt_at"), False), (("account", "created_at"), False))

    class WebhookAttempt(_Snapshot):
        delivery = peewee.ForeignKeyField(WebhookDelivery, on_delete="CASCADE")
        cycle = peewee.SmallIntegerField()
        number = peewee.SmallIntegerField()
        started_at = peewee.DateTimeField()
        status_code = peewee.SmallIntegerField(null=True)
        error = peewee.TextField(null=True)
        duration_ms = peewee.IntegerField()

    account_columns = {
        "webhook_url": peewee.CharField(max_length=2048, null=True),
        "webhook_secret": peewee.CharField(max_length=64, null=True),
        "webhook_previous_secret": peewee.CharField(max_length=64, null=True),
        "webhook_secret_rotated_at": peewee.DateTimeField(null=True),
    }
    migrator = SchemaMigrator.from_database(database)
    migrate(
        *(migrator.add_column("account", name, field) for name, field in account_columns.items())
    )
    with database.bind_ctx([WebhookDelivery, WebhookAttempt]):
        database.create_tables([WebhookDelivery, WebhookAttempt])


def add_fair_queue(database: peewee.Database, context: UpgradeContext) -> None:
    """Version 3: the fair queue. The account's ``last_claimed_at`` (whose turn it is), and two
    indexes on jobs: by status then account (the accounts with queued work), by account, status
    and age (an account's running jobs, and its oldest queued one)."""
    migrator = SchemaMigrator.from_database(database)
    migrate(
        migrator.add_column("account", "last_claimed_at", peewee.DateTimeField(null=True)),
        migrator.add_index("job", ("status", "account_id")),
        migrator.add_index("job", ("account_id", "status", "created_at")),
    )


def seal_webhook_secrets(database: peewee.Database, context: UpgradeContext) -> None:
    """Version 4: webhook secrets are stored sealed (``docs/security.md``, Data at rest).

    New columns ``webhook_secret_sealed`` and ``webhook_previous_secret_sealed`` receive each
    secret sealed by ``context.seal_webhook_secret``; the clear-text columns are then dropped.
    Raises :class:`SchemaError` when a secret exists and the context cannot seal it.
    """

    class Account(_Snapshot):
        id = peewee.AutoField()
        webhook_secret = peewee.CharField(max_length=64, null=True)
        webhook_previous_secret = peewee.CharField(max_length=64, null=True)
        webhook_secret_sealed = peewee.CharField(max_length=255, null=True)
        webhook_previous_secret_sealed = peewee.CharField(max_length=255, null=True)

    migrator = SchemaMigrator.from_database(database)
    migrate(
        migrator.add_column(
            "account", "webhook_secret_sealed", peewee.CharField(max_length=255, null=True)
        ),
        migrator.add_column(
            "account", "webhook_previous_secret_sealed", peewee.CharField(max_length=255, null=True)
        ),
    )
    with database.bind_ctx([Account]):
        holders = list(
            Account.select().where(
                Account.webhook_secret.is_null(False)
                | Account.webhook_previous_secret.is_null(False)
            )
        )
        seal = context.seal_webhook_secret
        if seal is None:
            if holders:
                raise SchemaError(
                    "schema version 4 seals the stored webhook secrets: it needs the server secret"
                )
        else:
            for row in holders:
                Account.update(
                    webhook_secret_sealed=row.webhook_secret and seal(row.webhook_secret, row.id),
                    webhook_previous_secret_sealed=(
                        row.webhook_previous_secret and seal(row.webhook_previous_secret, row.id)
                    ),
                ).where(Account.id == row.id).execute()
    migrate(
        migrator.drop_column("account", "webhook_secret"),
        migrator.drop_column("account", "webhook_previous_secret"),
    )


def add_session_generation(database: peewee.Database, context: UpgradeContext) -> None:
    """Version 5: ``account.session_generation`` (0 for every account), which logging out and
    changing the password raise, ending the account's sessions (``docs/security.md``,
    Sessions)."""
    migrator = SchemaMigrator.from_database(database)
    migrate(migrator.add_column("account", "session_generation", peewee.IntegerField(default=0)))


def add_retention(database: peewee.Database, context: UpgradeContext) -> None:
    """Version 6: ``job.expired_at`` (when retention removed the job's files and report) and
    the ``task_run`` table, through which nodes share the scheduler's periodic tasks."""

    class TaskRun(_Snapshot):
        name = peewee.CharField(max_length=64, primary_key=True)
        next_run_at = peewee.DateTimeField()
        node = peewee.CharField(max_length=128, null=True)

    migrator = SchemaMigrator.from_database(database)
    migrate(migrator.add_column("job", "expired_at", peewee.DateTimeField(null=True)))
    with database.bind_ctx([TaskRun]):
        database.create_tables([TaskRun])


def add_job_request_id(database: peewee.Database, context: UpgradeContext) -> None:
    """Version 7: ``job.request_id``, the ``X-Request-Id`` of the upload that made the job
    (null for jobs made before), so the worker's log lines name the request
    (``docs/operations.md``, Logs)."""
    migrator = SchemaMigrator.from_database(database)
    migrate(migrator.add_column("job", "request_id", peewee.CharField(max_length=64, null=True)))


def add_fair_webhooks(database: peewee.Database, context: UpgradeContext) -> None:
    """Version 8: fair webhook deliveries. The account's ``webhooks_served_at`` (whose turn it
    is to have a delivery claimed) and an index on deliveries by account and status (its
    deliveries being sent, and those still pending) (``docs/webhooks.md``, Fair deliveries)."""
    migrator = SchemaMigrator.from_database(database)
    migrate(
        migrator.add_column("account", "webhooks_served_at", peewee.DateTimeField(null=True)),
        migrator.add_index("webhook_delivery", ("account_id", "status")),
    )


def add_job_derived_bytes(database: peewee.Database, context: UpgradeContext) -> None:
    """Version 9: ``job.derived_bytes``, the bytes a job stores beside its upload, counted
    toward its account's quota with the upload (``docs/operations.md``, Retention, quotas and
    deletion). Jobs made before count 0: what they stored was never measured."""
    migrator = SchemaMigrator.from_database(database)
    migrate(migrator.add_column("job", "derived_bytes", peewee.BigIntegerField(default=0)))


UPGRADE_STEPS: Mapping[int, UpgradeStep] = {
    2: add_webhooks,
    3: add_fair_queue,
    4: seal_webhook_secrets,
    5: add_session_generation,
    6: add_retention,
    7: add_job_request_id,
    8: add_fair_webhooks,
    9: add_job_derived_bytes,
}


def schema_version(database: peewee.Database) -> int | None:
    """The database's schema version, or None when it has no AssetCheck tables at all."""
    if not database.table_exists(SchemaVersion._meta.table_name):
        if any(database.table_exists(model._meta.table_name) for model in TABLES):
            raise SchemaError(
                "the database has AssetCheck tables but no schema version: "
                "it was not created by `assetcheck db upgrade`"
            )
        return None
    row = SchemaVersion.select(SchemaVersion.version).first()
    return row.version if row else None


def create_schema(database: peewee.Database, version: int = SCHEMA_VERSION) -> None:
    """Create every table in an empty database and stamp it with ``version``."""
    with database.atomic():
        database.create_tables(TABLES)
        SchemaVersion.delete().execute()
        SchemaVersion.create(version=version)


def upgrade(
    database: peewee.Database,
    steps: Mapping[int, UpgradeStep] = UPGRADE_STEPS,
    target: int = SCHEMA_VERSION,
    context: UpgradeContext | None = None,
) -> list[int]:
    """Bring the database to ``target``; returns the versions applied (empty when current).

    An empty database is created at ``target`` directly, and ``[target]`` is returned. Each
    step gets ``context`` (an empty one when None).
    """
    current = schema_version(database)
    if current is None:
        create_schema(database, target)
        return [target]
    _refuse_newer(current, target)
    applied = []
    for version in range(current + 1, target + 1):
        if version not in steps:
            raise SchemaError(f"no upgrade step to schema version {version}")
        with database.atomic():
            steps[version](database, context or UpgradeContext())
            SchemaVersion.update(version=version, upgraded_at=utcnow()).execute()
        applied.append(version)
    return applied


def prepare_schema(database: peewee.Database, target: int = SCHEMA_VERSION) -> bool:
    """Create the schema of an empty database; refuse any other version than ``target``.

    Returns True when the schema was just created. Raises :class:`SchemaError` with a message
    that tells the operator what to run when the database is behind.
    """
    current = schema_version(database)
    if current is None:
        create_schema(database, target)
        return True
    _refuse_newer(current, target)
    if current < target:
        raise SchemaError(
            f"the database schema is at version {current} and this AssetCheck "
            f"needs version {target}: run `assetcheck db upgrade` first"
        )
    return False


def _refuse_newer(current: int, target: int) -> None:
    if current > target:
        raise SchemaError(
            f"the database schema is at version {current}, newer than this "
            f"AssetCheck knows ({target}): upgrade AssetCheck"
        )
