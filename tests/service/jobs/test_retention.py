"""Retention, storage quotas and deletion, on SQLite and PostgreSQL with the local directory:
what is removed, what stays, and what a client is told afterwards."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import requests

from assetcheck.cli import main
from assetcheck.config.loading import config_from, load_config
from assetcheck.service.db.tables import (
    Account,
    Job,
    TaskRun,
    WebhookAttempt,
    WebhookDelivery,
    utcnow,
)
from assetcheck.service.jobs.queue import COMPLETED, JobQueue, new_job_id
from assetcheck.service.jobs.retention import expire_jobs, retention_days
from assetcheck.service.jobs.storage import LocalStorage, open_storage
from assetcheck.service.jobs.task_runs import take_turn
from assetcheck.service.webhooks.outbox import prune_deliveries
from assetcheck.testing.gltf import padded_glb
from tests.service.harness import (
    ServiceProcess,
    bearer,
    bind_database,
    new_key,
    service_settings,
    upload,
    wait_for_job,
    wait_until,
    write_config,
)


def job_folder(server: ServiceProcess, job_id: str) -> Path:
    return server.config.storage.data_dir / "jobs" / job_id


def delete(url: str, key: str, job_id: str) -> requests.Response:
    return requests.delete(f"{url}/api/v1/validate/{job_id}", headers=bearer(key), timeout=10)


def test_readyz_is_ready_when_the_database_and_the_storage_answer(url):
    answer = requests.get(f"{url}/readyz", timeout=10)
    assert answer.status_code == 200
    assert answer.json() == {"status": "ready", "checks": {"database": "ok", "storage": "ok"}}


def test_deleting_a_completed_job_removes_it_and_its_files_for_its_account_only(
    service, make_key, glb
):
    key, stranger = make_key(), make_key()
    job_id = upload(service.url, key, glb).json()["job_id"]
    assert wait_for_job(service.url, key, job_id)["status"] == COMPLETED
    assert job_folder(service, job_id).is_dir()

    refused = delete(service.url, stranger, job_id)
    assert refused.status_code == 404 and refused.json()["code"] == "JOB_NOT_FOUND"
    assert job_folder(service, job_id).is_dir()
    answer = delete(service.url, key, job_id)
    assert answer.status_code == 204 and answer.content == b""
    assert not job_folder(service, job_id).exists()
    assert Job.get_or_none(Job.id == job_id) is None
    assert delete(service.url, key, job_id).json()["code"] == "JOB_NOT_FOUND"
    assert (
        requests.get(
            f"{service.url}/api/v1/report/{job_id}/json", headers=bearer(key), timeout=10
        ).status_code
        == 404
    )


def test_a_queued_job_deleted_is_cancelled_and_no_worker_ever_runs_it(local_config, glb):
    server = ServiceProcess(local_config(workers={"processes": 0})).start()
    try:
        key = new_key(server.config)
        job_id = upload(server.url, key, glb).json()["job_id"]
        assert delete(server.url, key, job_id).status_code == 204
        ready = requests.get(f"{server.url}/readyz", timeout=10).json()
    finally:
        server.stop()
    assert ready["warnings"][0]["code"] == "NO_WORKERS"
    assert Job.get_or_none(Job.id == job_id) is None
    assert not job_folder(server, job_id).exists()


def test_a_job_deleted_while_it_runs_is_stopped_and_leaves_no_file(local_config, glb, tmp_path):
    server = ServiceProcess(local_config(workers={"processes": 1})).start()
    try:
        key = new_key(server.config)
        job_id = upload(server.url, key, glb, filename="slow-20.glb").json()["job_id"]
        checks_log = tmp_path / "checks.log"
        assert wait_until(lambda: checks_log.exists() and "start slow-20" in checks_log.read_text())
        assert delete(server.url, key, job_id).status_code == 204
        assert wait_until(lambda: "deleted while it ran" in server.log())
    finally:
        server.stop()
    assert not job_folder(server, job_id).exists()
    assert "end slow-20.glb" not in checks_log.read_text()


def test_uploads_past_the_plans_storage_quota_are_refused_with_the_figures(local_config):
    server = ServiceProcess(
        local_config(
            plans={"pro": {"max_upload_mb": 2, "max_storage_mb": 1, "requests_per_minute": 100_000}}
        )
    ).start()
    try:
        key = new_key(server.config)
        content = padded_glb(600_000)
        first = upload(server.url, key, content)
        second = upload(server.url, key, content)
        body = second.json()
        assert wait_for_job(server.url, key, first.json()["job_id"])["status"] == COMPLETED
        assert delete(server.url, key, first.json()["job_id"]).status_code == 204
        third = upload(server.url, key, content)
    finally:
        server.stop()
    assert first.status_code == 202 and third.status_code == 202
    assert second.status_code == 403 and body["code"] == "QUOTA_EXCEEDED"
    assert body["stored_bytes"] == len(content) and body["upload_bytes"] == len(content)
    assert body["limit_bytes"] == 1 << 20 and "1.0 MB" in body["error"]
    folders = list((server.config.storage.data_dir / "jobs").iterdir())
    assert [folder.name for folder in folders] == [third.json()["job_id"]]


def test_a_job_past_its_plans_retention_keeps_its_summary_and_its_report_is_gone(
    service, make_key, glb
):
    key = make_key()
    job_id = upload(service.url, key, glb).json()["job_id"]
    completed = wait_for_job(service.url, key, job_id)
    # The whole job moves back in time, so its duration stays what it was.
    job = Job.get_by_id(job_id)
    Job.update(
        started_at=job.started_at - timedelta(days=31),
        finished_at=job.finished_at - timedelta(days=31),
    ).where(Job.id == job_id).execute()
    storage = open_storage(service.config.storage)
    database = Job._meta.database

    assert expire_jobs(database, storage, {"pro": 30}) == 1
    assert expire_jobs(database, storage, {"pro": 30}) == 0  # nothing is expired twice
    assert not job_folder(service, job_id).exists()
    body = requests.get(
        f"{service.url}/api/v1/validate/{job_id}", headers=bearer(key), timeout=10
    ).json()
    assert body["status"] == COMPLETED and body["grade"] == completed["grade"]
    assert body["health_score"] == completed["health_score"] and body["expired_at"]
    assert "result" not in body
    report = requests.get(
        f"{service.url}/api/v1/report/{job_id}/json", headers=bearer(key), timeout=10
    )
    assert report.status_code == 410 and report.json()["code"] == "JOB_EXPIRED"
    listed = requests.get(f"{service.url}/api/v1/validate", headers=bearer(key), timeout=10).json()[
        "jobs"
    ]
    assert listed[0]["job_id"] == job_id and listed[0]["expired_at"] == body["expired_at"]


def test_retention_spares_recent_unfinished_and_unlimited_plans_jobs(database, tmp_path):
    storage = LocalStorage(tmp_path / "data")
    queue = JobQueue(database, lease_seconds=30, workers=1)
    accounts = {
        plan: Account.create(email=f"{plan}@example.com", plan=plan) for plan in ("starter", "pro")
    }
    old = utcnow() - timedelta(days=10)
    jobs = {}
    for name, plan, status, finished in (
        ("old", "starter", COMPLETED, old),
        ("recent", "starter", COMPLETED, utcnow()),
        ("running", "starter", "processing", None),
        ("unlimited", "pro", COMPLETED, old),
    ):
        file = storage.create_upload(job_id := new_job_id())
        file.write(b"glTF")
        file.commit()
        queue.enqueue(
            id=job_id,
            account=accounts[plan],
            filename=f"{name}.glb",
            engine="generic",
            options={},
            stored_path=file.stored_path,
            sha256=file.sha256,
            size=file.size,
        )
        Job.update(
            status=status, finished_at=finished, result={"grade": "good"}, grade="good"
        ).where(Job.id == job_id).execute()
        jobs[name] = job_id

    plans = {"starter": {"retention_days": 7}, "pro": {"retention_days": 0}}
    days = retention_days(config_from({"plans": plans}, environ={}).plans)
    assert days == {"starter": 7}
    assert expire_jobs(database, storage, days) == 1
    expired = Job.get_by_id(jobs["old"])
    assert expired.expired_at and expired.result is None and expired.grade == "good"
    assert queue.stored_bytes(accounts["starter"].id) == 8  # the two others still count
    assert sorted(p.name for p in storage.root.iterdir()) == sorted(
        jobs[name] for name in ("recent", "running", "unlimited")
    )


def test_a_periodic_chore_runs_on_one_node_per_interval(database):
    assert take_turn("sweep-uploads", 60, "node-a")
    assert not take_turn("sweep-uploads", 60, "node-b")
    assert take_turn("expire-jobs", 60, "node-b")  # each chore has its own turn
    TaskRun.update(next_run_at=utcnow() - timedelta(seconds=1)).where(
        TaskRun.name == "sweep-uploads"
    ).execute()
    assert take_turn("sweep-uploads", 60, "node-b")
    assert TaskRun.get_by_id("sweep-uploads").node == "node-b"


def test_old_ended_webhook_deliveries_are_pruned_with_their_attempts(database):
    account = Account.create(email="hooks@example.com", plan="pro")
    old, now = utcnow() - timedelta(days=40), utcnow()
    rows = {}
    for name, status, finished in (
        ("old", "delivered", old),
        ("abandoned", "abandoned", old),
        ("recent", "delivered", now),
        ("pending", "pending", None),
    ):
        rows[name] = WebhookDelivery.create(
            id=f"dlv_{name}",
            account=account,
            event="ping",
            body="{}",
            status=status,
            finished_at=finished,
        )
        WebhookAttempt.create(delivery=rows[name], cycle=1, number=1, started_at=old, duration_ms=5)
    assert prune_deliveries(now - timedelta(days=30)) == 2
    assert sorted(d.id for d in WebhookDelivery.select()) == ["dlv_pending", "dlv_recent"]
    assert WebhookAttempt.select().count() == 2


def test_accounts_delete_removes_the_account_and_everything_of_it(capsys, tmp_path):
    config_path = write_config(tmp_path, service_settings(tmp_path, ""))
    assert (
        main(
            [
                "accounts",
                "create",
                "gone@example.com",
                "--plan",
                "pro",
                "--config",
                str(config_path),
            ]
        )
        == 0
    )
    assert main(["keys", "create", "gone@example.com", "--config", str(config_path)]) == 0
    config = load_config(config_path)
    database = bind_database(config)
    storage = open_storage(config.storage)
    file = storage.create_upload(job_id := new_job_id())
    file.write(b"glTF")
    file.commit()
    JobQueue(database, lease_seconds=30, workers=1).enqueue(
        id=job_id,
        account=Account.get(Account.email == "gone@example.com"),
        filename="a.glb",
        engine="generic",
        options={},
        stored_path=file.stored_path,
        sha256=file.sha256,
        size=file.size,
    )
    capsys.readouterr()

    assert main(["accounts", "delete", "gone@example.com", "--config", str(config_path)]) == 2
    assert "--yes" in capsys.readouterr().err
    assert Account.select().count() == 1 and (storage.root / job_id).is_dir()
    assert (
        main(["accounts", "delete", "gone@example.com", "--yes", "--config", str(config_path)]) == 0
    )
    assert "1 job(s)" in capsys.readouterr().out
    assert Account.select().count() == 0 and Job.select().count() == 0
    assert not (storage.root / job_id).exists()
    assert (
        main(["accounts", "delete", "gone@example.com", "--yes", "--config", str(config_path)]) == 1
    )
