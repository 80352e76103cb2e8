"""``assetcheck webhooks ...``, the ``[webhooks]`` config checks, and ``assetcheck db upgrade``
from schema version 1 (before webhooks) and 2 (webhook secrets in clear) to the current one."""

from __future__ import annotations

import re
from datetime import timedelta
from pathlib import Path

import peewee
import pytest
from playhouse.migrate import SchemaMigrator, migrate

from assetcheck.cli import main
from assetcheck.config.loading import load_config
from assetcheck.service.accounts.store import create_account
from assetcheck.service.db import migrations
from assetcheck.service.db.tables import Account, ApiKey, Job, SchemaVersion, utcnow
from assetcheck.service.webapp.server_secret import load_server_secret
from assetcheck.service.webhooks.outbox import queue_ping
from assetcheck.service.webhooks.secret_box import SecretBox
from assetcheck.service.webhooks.settings import ROTATION_WINDOW
from tests.service.harness import bind_database, service_settings, write_config
from tests.service.webhooks.harness import webhook_settings

SECRET = re.compile(r"whsec_[A-Za-z0-9]{32}")
RECEIVER = "http://127.0.0.1:9/hooks"


def run(capsys, *args: str) -> tuple[int, str, str]:
    status = main(list(args))
    out, err = capsys.readouterr()
    return status, out, err


@pytest.fixture
def cli(tmp_path, capsys):
    """``cli(*args)``: run ``assetcheck`` with a config allowing receivers on 127.0.0.1, on a
    database that holds dev@example.com (pro) and free@example.com (free)."""
    config = write_config(tmp_path, service_settings(tmp_path, "", webhooks=webhook_settings()))
    migrations.upgrade(bind_database(load_config(config)))
    for email, plan in (("dev@example.com", "pro"), ("free@example.com", "free")):
        create_account(email, plan, ["pro", "free"])
    return lambda *args: run(capsys, *args, "--config", str(config))


@pytest.fixture
def box(cli, tmp_path) -> SecretBox:
    """The secret box of the ``cli`` fixture's service (its server secret is in data_dir)."""
    return SecretBox(load_server_secret(load_config(tmp_path / "assetcheck.toml")))


def opened(account: Account, box: SecretBox) -> tuple[str | None, str | None]:
    """The account's current and previous webhook secrets, opened from their sealed columns."""
    return tuple(
        None if sealed is None else box.open(sealed, account.id)
        for sealed in (account.webhook_secret_sealed, account.webhook_previous_secret_sealed)
    )


def test_set_url_checks_the_url_then_stores_it(cli, box):
    status, out, err = cli("webhooks", "set-url", "dev@example.com", RECEIVER)
    assert status == 0 and RECEIVER in out and "webhooks secret" in err
    account = Account.get(Account.email == "dev@example.com")
    assert account.webhook_url == RECEIVER and SECRET.fullmatch(opened(account, box)[0])


@pytest.mark.parametrize(
    ("email", "url", "message"),
    [
        ("dev@example.com", "http://127.0.0.2:9/hooks", "127.0.0.2 is a loopback address"),
        ("dev@example.com", "ftp://127.0.0.1/hooks", "scheme must be http or https"),
        ("free@example.com", RECEIVER, "free plan has no webhooks"),
        ("nobody@example.com", RECEIVER, "no account for nobody@example.com"),
    ],
)
def test_set_url_refuses_what_cannot_be_used(cli, email, url, message):
    status, _, err = cli("webhooks", "set-url", email, url)
    assert status == 1 and message in err
    assert Account.select().where(Account.webhook_url.is_null(False)).count() == 0


def test_clear_url_removes_the_default(cli):
    cli("webhooks", "set-url", "dev@example.com", RECEIVER)
    assert cli("webhooks", "clear-url", "dev@example.com")[0] == 0
    assert Account.get(Account.email == "dev@example.com").webhook_url is None


def test_the_secret_is_shown_the_same_until_rotated_and_the_old_one_overlaps(cli, box):
    shown = cli("webhooks", "secret", "dev@example.com")[1].strip()
    assert SECRET.fullmatch(shown)
    assert cli("webhooks", "secret", "dev@example.com")[1].strip() == shown
    status, rotated, err = cli("webhooks", "secret", "dev@example.com", "--rotate")
    assert status == 0 and SECRET.fullmatch(rotated.strip()) and rotated.strip() != shown
    assert "previous secret also signs deliveries until" in err
    account = Account.get(Account.email == "dev@example.com")
    assert opened(account, box) == (rotated.strip(), shown)
    assert account.webhook_secret_rotated_at + ROTATION_WINDOW > utcnow() + timedelta(hours=23)


def test_ping_queues_a_delivery_that_deliveries_lists(cli):
    assert "has no webhook deliveries" in cli("webhooks", "deliveries", "dev@example.com")[1]
    assert "no webhook URL" in cli("webhooks", "ping", "dev@example.com")[2]
    cli("webhooks", "set-url", "dev@example.com", RECEIVER)
    status, out, _ = cli("webhooks", "ping", "dev@example.com")
    delivery_id = re.search(r"dlv_\w+", out)[0]
    listing = cli("webhooks", "deliveries", "dev@example.com")[1]
    assert status == 0 and delivery_id in listing and "pending" in listing


def test_a_secret_is_never_printed_by_the_other_actions(cli, box):
    cli("webhooks", "set-url", "dev@example.com", RECEIVER)
    queue_ping(Account.get(Account.email == "dev@example.com"))
    secret = opened(Account.get(Account.email == "dev@example.com"), box)[0]
    for action in ("set-url", "ping", "deliveries"):
        args = [RECEIVER] if action == "set-url" else []
        _, out, err = cli("webhooks", action, "dev@example.com", *args)
        assert secret not in out + err, action


@pytest.mark.parametrize(
    ("webhooks", "message"),
    [
        ({"allowed_cidrs": ["10.0.0.1/8"]}, "webhooks.allowed_cidrs: 10.0.0.1/8 has host bits set"),
        ({"retry_delays": [5, 60]}, "retry_delays must start with 0"),
        ({"retry_delays": [0, -1]}, "none negative"),
        ({"timeout": 0}, "webhooks.timeout must be a number of seconds over 0"),
    ],
)
def test_an_unusable_webhooks_table_stops_every_command(tmp_path, capsys, webhooks, message):
    config = write_config(tmp_path, {"webhooks": webhooks})
    status, _, err = run(capsys, "webhooks", "secret", "dev@example.com", "--config", str(config))
    assert status == 2 and message in err


def version_1_schema(database: peewee.Database) -> None:
    """The tables as schema version 1 had them: the account had no webhook columns (nor the
    fair queue's turn), the job none of the fair queue's indexes, retention's column, the
    request id nor the bytes derived from the upload."""

    class Account(peewee.Model):
        email = peewee.CharField(max_length=320, unique=True)
        plan = peewee.CharField(max_length=32)
        password_hash = peewee.CharField(max_length=255, null=True)
        created_at = peewee.DateTimeField()

        class Meta:
            table_name = "account"

    class VersionOneJob(Job):
        class Meta:
            table_name = "job"
            indexes = (
                (("status", "created_at"), False),
                (("account", "created_at"), False),
                (("status", "finished_at"), False),
            )

    with database.bind_ctx([Account, VersionOneJob]):
        database.create_tables([Account, ApiKey, VersionOneJob, SchemaVersion])
        migrator = SchemaMigrator.from_database(database)
        migrate(
            migrator.drop_column("job", "expired_at"),  # added in 6
            migrator.drop_column("job", "request_id"),  # added in 7
            migrator.drop_column("job", "derived_bytes"),
        )  # added in 9
        SchemaVersion.create(version=1)
        Account.create(email="old@example.com", plan="pro", created_at=utcnow())


def schema_of(database: peewee.Database) -> dict:
    return {
        table: (
            sorted((c.name, c.data_type.lower(), c.null) for c in database.get_columns(table)),
            sorted((i.name, tuple(i.columns), i.unique) for i in database.get_indexes(table)),
            sorted((f.column, f.dest_table) for f in database.get_foreign_keys(table)),
        )
        for table in ("account", "api_key", "job", "webhook_delivery", "webhook_attempt")
    }


def new_schema(folder: Path, database_url: str) -> dict:
    """The schema of a database created at the current version (in ``folder`` for SQLite)."""
    fresh = bind_database(load_config(write_config(folder, service_settings(folder, database_url))))
    try:
        migrations.create_schema(fresh)
        return schema_of(fresh)
    finally:
        fresh.close()


def test_db_upgrade_brings_a_version_1_database_to_the_webhook_schema(
    tmp_path, capsys, backend, database_factory
):
    expected = new_schema(tmp_path / "fresh", database_factory(backend))
    config = write_config(
        tmp_path, service_settings(tmp_path, database_factory(backend), webhooks=webhook_settings())
    )
    version_1_schema(bind_database(load_config(config)))

    status, out, _ = run(capsys, "db", "upgrade", "--config", str(config))
    assert status == 0 and "applied 2, 3" in out
    upgraded = bind_database(load_config(config))
    assert SchemaVersion.get().version == migrations.SCHEMA_VERSION
    assert schema_of(upgraded) == expected
    assert (
        run(capsys, "webhooks", "set-url", "old@example.com", RECEIVER, "--config", str(config))[0]
        == 0
    )
    assert Account.get(Account.email == "old@example.com").webhook_url == RECEIVER


def test_db_upgrade_seals_the_webhook_secrets_a_version_2_database_held_in_clear(
    tmp_path, capsys, backend, database_factory
):
    config = write_config(
        tmp_path, service_settings(tmp_path, database_factory(backend), webhooks=webhook_settings())
    )
    database = bind_database(load_config(config))
    version_1_schema(database)
    migrations.upgrade(database, target=2)
    current, previous = "whsec_" + "C" * 32, "whsec_" + "P" * 32
    database.execute_sql(
        "UPDATE account SET webhook_url = %s, webhook_secret = %s, "
        "webhook_previous_secret = %s, webhook_secret_rotated_at = %s".replace(
            "%s", database.param
        ),
        (RECEIVER, current, previous, utcnow()),
    )

    status, out, _ = run(capsys, "db", "upgrade", "--config", str(config))
    assert status == 0 and "applied 3, 4" in out
    upgraded = bind_database(load_config(config))
    columns = {column.name for column in upgraded.get_columns("account")}
    assert not columns & {"webhook_secret", "webhook_previous_secret"}
    [row] = upgraded.execute_sql("SELECT * FROM account").fetchall()
    assert not [
        value
        for value in row
        if isinstance(value, str) and ("C" * 32 in value or "P" * 32 in value)
    ]
    account = Account.get(Account.email == "old@example.com")
    assert opened(account, SecretBox(load_server_secret(load_config(config)))) == (
        current,
        previous,
    )
    shown = run(capsys, "webhooks", "secret", "old@example.com", "--config", str(config))
    assert shown[1].strip() == current
