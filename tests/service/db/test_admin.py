"""Operators' commands (accounts, keys, db upgrade), schema versions, passwords, rate limits."""

from __future__ import annotations

import io
import re
from datetime import timedelta

import pytest
from playhouse.migrate import SchemaMigrator, migrate

from assetcheck.cli import main
from assetcheck.config.loading import load_config
from assetcheck.service.accounts.passwords import hash_password, verify_password
from assetcheck.service.db import migrations
from assetcheck.service.db.tables import Account, ApiKey, Job, SchemaVersion, utcnow
from assetcheck.service.jobs.queue import JobQueue
from assetcheck.service.webapp.ratelimit import RateLimiter
from tests.service.harness import bind_database, service_settings, write_config
from tests.service.webhooks.test_webhooks_cli import new_schema, schema_of, version_1_schema

KEY = re.compile(r"svc_[A-Za-z0-9]{32}")


@pytest.fixture
def config_file(tmp_path):
    return str(write_config(tmp_path, service_settings(tmp_path, "")))


def run(capsys, *args: str) -> tuple[int, str, str]:
    status = main(list(args))
    out, err = capsys.readouterr()
    return status, out, err


def test_an_account_and_a_key_are_created_and_the_key_is_printed_once(capsys, config_file):
    assert (
        run(
            capsys,
            "accounts",
            "create",
            "Dev@Example.com",
            "--plan",
            "pro",
            "--config",
            config_file,
        )[0]
        == 0
    )
    status, out, _ = run(
        capsys,
        "keys",
        "create",
        "dev@example.com",
        "--name",
        "ci",
        "--expires-in",
        "30d",
        "--config",
        config_file,
    )
    assert status == 0 and KEY.fullmatch(out.strip())
    key = ApiKey.get()
    assert key.name == "ci" and key.prefix == out.strip()[:12]
    assert timedelta(days=29) < key.expires_at - utcnow() <= timedelta(days=30)
    listing = run(capsys, "keys", "list", "dev@example.com", "--config", config_file)[1]
    assert key.prefix in listing and out.strip() not in listing and "active" in listing


def test_keys_are_revoked_by_prefix_or_id(capsys, config_file):
    run(capsys, "accounts", "create", "a@example.com", "--plan", "starter", "--config", config_file)
    first = run(capsys, "keys", "create", "a@example.com", "--config", config_file)[1].strip()
    run(capsys, "keys", "create", "a@example.com", "--config", config_file)
    assert run(capsys, "keys", "revoke", first[:12], "--config", config_file)[0] == 0
    second_id = str(ApiKey.get(ApiKey.revoked_at.is_null()).id)
    assert run(capsys, "keys", "revoke", second_id, "--config", config_file)[0] == 0
    assert ApiKey.select().where(ApiKey.revoked_at.is_null()).count() == 0
    assert "revoked" in run(capsys, "keys", "list", "a@example.com", "--config", config_file)[1]


def test_admin_commands_explain_what_is_wrong(capsys, config_file):
    run(capsys, "accounts", "create", "b@example.com", "--plan", "pro", "--config", config_file)
    cases = [
        (["accounts", "create", "b@example.com", "--plan", "pro"], "already exists"),
        (["accounts", "create", "c@example.com", "--plan", "gold"], "unknown plan"),
        (["accounts", "create", "not-an-email", "--plan", "pro"], "not an email"),
        (["keys", "create", "nobody@example.com"], "no account"),
        (["keys", "revoke", "svc_nothing"], "no API key matches"),
    ]
    for args, message in cases:
        status, _, err = run(capsys, *args, "--config", config_file)
        assert status == 1 and message in err, args


def test_an_account_with_its_maximum_of_active_keys_is_refused_another(capsys, tmp_path):
    config_file = str(
        write_config(tmp_path, service_settings(tmp_path, "", accounts={"max_active_keys": 2}))
    )
    run(capsys, "accounts", "create", "k@example.com", "--plan", "pro", "--config", config_file)
    created = [
        run(capsys, "keys", "create", "k@example.com", "--config", config_file)[0] for _ in range(2)
    ]
    status, out, err = run(capsys, "keys", "create", "k@example.com", "--config", config_file)
    assert created == [0, 0] and status == 1 and not KEY.search(out)
    assert "already has 2 active API keys" in err and "revoke one" in err
    first = ApiKey.select().order_by(ApiKey.id).first()
    ApiKey.update(expires_at=utcnow() - timedelta(days=1)).where(ApiKey.id == first.id).execute()
    assert run(capsys, "keys", "create", "k@example.com", "--config", config_file)[0] == 0
    assert ApiKey.select().count() == 3  # an expired key no longer counts


def test_a_password_from_stdin_is_stored_as_a_scrypt_hash(capsys, config_file, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO("correct horse\n"))
    run(
        capsys,
        "accounts",
        "create",
        "p@example.com",
        "--plan",
        "free",
        "--password-stdin",
        "--config",
        config_file,
    )
    stored = Account.get().password_hash
    assert stored.startswith("scrypt$") and "correct horse" not in stored
    assert verify_password("correct horse", stored) and not verify_password("wrong", stored)


def test_password_hashes_are_salted():
    assert hash_password("same") != hash_password("same")


def test_db_upgrade_creates_the_schema_then_has_nothing_to_do(
    capsys, backend, tmp_path, database_factory
):
    config = str(write_config(tmp_path, service_settings(tmp_path, database_factory(backend))))
    first = run(capsys, "db", "upgrade", "--config", config)
    again = run(capsys, "db", "upgrade", "--config", config)
    assert first[0] == again[0] == 0
    assert f"version {migrations.SCHEMA_VERSION}" in first[1] and "already" in again[1]


def test_upgrade_steps_run_in_order_from_the_databases_version(database):
    applied = []
    first, second = migrations.SCHEMA_VERSION + 1, migrations.SCHEMA_VERSION + 2
    steps = {
        first: lambda db, context: applied.append(first),
        second: lambda db, context: applied.append(second),
    }
    assert migrations.upgrade(database, steps, target=second) == [first, second]
    assert applied == [first, second] and SchemaVersion.get().version == second


def test_an_outdated_schema_is_refused_until_db_upgrade(database):
    with pytest.raises(migrations.SchemaError, match="run `assetcheck db upgrade`"):
        migrations.prepare_schema(database, target=migrations.SCHEMA_VERSION + 1)
    SchemaVersion.update(version=migrations.SCHEMA_VERSION + 1).execute()
    with pytest.raises(migrations.SchemaError, match="newer"):
        migrations.prepare_schema(database)


def test_db_upgrade_brings_a_version_2_database_to_the_fair_queue_schema(
    capsys, backend, tmp_path, database_factory
):
    expected = new_schema(tmp_path / "fresh", database_factory(backend))
    config = str(write_config(tmp_path, service_settings(tmp_path, database_factory(backend))))
    old = bind_database(load_config(config))
    version_1_schema(old)
    assert migrations.upgrade(old, target=2) == [2]

    status, out, err = run(capsys, "db", "upgrade", "--config", config)
    assert status == 0 and "(applied 3, 4, 5, 6, 7, 8, 9)" in out, err
    upgraded = bind_database(load_config(config))
    assert schema_of(upgraded) == expected
    assert Account.get(Account.email == "old@example.com").last_claimed_at is None


def test_db_upgrade_from_version_7_counts_earlier_jobs_by_their_upload(database):
    migrations.create_schema(database, version=7)
    migrator = SchemaMigrator.from_database(database)
    migrate(
        migrator.drop_column("job", "derived_bytes"),  # added in 9
        migrator.drop_column("account", "webhooks_served_at"),  # added in 8
        migrator.drop_index("webhook_delivery", "webhook_delivery_account_id_status"),
    )
    account = Account.create(email="old@example.com", plan="pro")
    columns = {
        "id": "val_old",
        "account_id": account.id,
        "status": "completed",
        "progress": 100,
        "filename": "old.glb",
        "engine": "generic",
        "options": "{}",
        "stored_path": "jobs/val_old/upload",
        "sha256": "0" * 64,
        "size": 1234,
        "attempts": 1,
        "created_at": utcnow(),
    }
    database.execute_sql(
        f"INSERT INTO job ({', '.join(columns)}) VALUES "
        f"({', '.join([database.param] * len(columns))})",
        list(columns.values()),
    )

    assert migrations.upgrade(database) == [8, 9]
    assert Job.get_by_id("val_old").derived_bytes == 0
    queue = JobQueue(database, lease_seconds=30, workers=1)
    assert queue.stored_bytes(account.id) == 1234


def test_serve_refuses_to_start_on_an_outdated_schema(capsys, config_file):
    run(capsys, "db", "upgrade", "--config", config_file)
    SchemaVersion.update(version=0).execute()
    status, _, err = run(capsys, "serve", "--config", config_file, "--port", "0")
    assert status == 1 and "assetcheck db upgrade" in err


def test_the_rate_limiter_refills_at_the_plans_pace():
    now = [0.0]
    limiter = RateLimiter(clock=lambda: now[0])
    assert [limiter.acquire("k", 2) for _ in range(3)] == [0, 0, 30]
    assert limiter.acquire("other", 2) == 0
    now[0] = 30.0
    assert limiter.acquire("k", 2) == 0


def test_keys_create_refuses_a_free_account_with_the_plan_rule(capsys, config_file):
    run(capsys, "accounts", "create", "f@example.com", "--plan", "free", "--config", config_file)
    status, out, err = run(capsys, "keys", "create", "f@example.com", "--config", config_file)
    assert status == 1 and not KEY.search(out + err)
    assert "The free plan has no API access" in err and "starter, pro or enterprise" in err
    assert ApiKey.select().count() == 0


def test_accounts_create_asks_for_a_password_twice_without_echo(capsys, config_file, monkeypatch):
    answers = iter(["s3cret pass", "s3cret pass", "one", "other"])
    prompts = []
    monkeypatch.setattr("getpass.getpass", lambda prompt: prompts.append(prompt) or next(answers))
    status, out, _ = run(
        capsys,
        "accounts",
        "create",
        "p@example.com",
        "--plan",
        "pro",
        "--password",
        "--config",
        config_file,
    )
    assert status == 0 and "with a dashboard password" in out and len(prompts) == 2
    assert verify_password("s3cret pass", Account.get().password_hash)
    status, _, err = run(
        capsys,
        "accounts",
        "create",
        "q@example.com",
        "--plan",
        "pro",
        "--password",
        "--config",
        config_file,
    )
    assert status == 2 and "the two passwords differ" in err
    monkeypatch.setattr("sys.stdin", io.StringIO("short\n"))
    status, _, err = run(
        capsys,
        "accounts",
        "create",
        "r@example.com",
        "--plan",
        "pro",
        "--password-stdin",
        "--config",
        config_file,
    )
    assert status == 2 and "Use at least 10 characters" in err
    assert Account.select().count() == 1


def test_database_commands_say_which_database_and_configuration_they_used(capsys, config_file):
    _, _, err = run(
        capsys, "accounts", "create", "w@example.com", "--plan", "pro", "--config", config_file
    )
    data_dir = load_config(config_file).storage.data_dir
    assert f"database SQLite {data_dir}/assetcheck.db (configuration {config_file})" in err
