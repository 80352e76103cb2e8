"""Sharing the service between accounts, on a live server: jobs handed out fairly, a cap on each
account's queue (429 QUEUE_FULL), one rate budget per account: docs/operations.md (Fair queue)
and docs/security.md (Limits)."""

from __future__ import annotations

import secrets
import threading
from collections import Counter
from pathlib import Path

import pytest

from assetcheck.service.accounts.store import create_account, find_account, issue_key
from assetcheck.service.db.tables import Job
from tests.service.dashboard.test_accounts_http import PASSWORD, Visitor
from tests.service.harness import (
    ServiceProcess,
    bind_database,
    check_runs,
    release_held,
    upload,
    wait_until,
)

pytestmark = pytest.mark.slow


def new_account(server: ServiceProcess, plan: str) -> str:
    """A new account on ``plan`` with the password :data:`PASSWORD`; its email."""
    bind_database(server.config)
    email = f"{secrets.token_hex(6)}@example.com"
    create_account(email, plan, list(server.config.plans), PASSWORD)
    return email


def new_key(server: ServiceProcess, email: str) -> str:
    bind_database(server.config)
    return issue_key(find_account(email))[1]


def logged_in(server: ServiceProcess, email: str) -> Visitor:
    visitor = Visitor(server.url)
    assert visitor.log_in(email).status_code == 302
    return visitor


def job_folders(server: ServiceProcess) -> set[str]:
    jobs = server.config.storage.data_dir / "jobs"
    return {path.name for path in jobs.iterdir()} if jobs.exists() else set()


def started(folder: Path) -> set[str]:
    """The files whose validation has started on the service made in ``folder``."""
    return {name for event, name, _ in check_runs(folder) if event == "start"}


def test_a_pro_job_submitted_after_six_free_ones_starts_before_the_free_accounts_third(
    local_config, glb
):
    # The server takes the uploads with no worker of its own; two workers start once every
    # job is queued, so the order they are claimed in depends on the queue alone. The free
    # account's first job holds its worker until the pro job has started: the free plan runs
    # one job at a time, so the other worker must take the pro job, however late it starts.
    config_path = local_config(workers={"processes": 0})
    server = ServiceProcess(config_path).start()
    try:
        free = logged_in(server, new_account(server, "free"))
        assert free.upload(glb, "held-free-1.glb").status_code == 202
        for number in range(2, 7):
            assert free.upload(glb, f"slow-0.3-free-{number}.glb").status_code == 202
        pro_key = new_key(server, new_account(server, "pro"))
        assert upload(server.url, pro_key, glb, "slow-0.3-pro.glb").status_code == 202
        workers = ServiceProcess(config_path, "--processes", "2", command="worker").start()
        try:
            assert wait_until(lambda: "slow-0.3-pro.glb" in started(config_path.parent))
            release_held(config_path.parent, "held-free-1.glb")
            assert wait_until(
                lambda: Job.select().where(Job.status == "completed").count() == 7, timeout=60
            )
        finally:
            workers.stop()
    finally:
        server.stop()
    starts = [name for event, name, _ in check_runs(config_path.parent) if event == "start"]
    assert starts.index("slow-0.3-pro.glb") < starts.index("slow-0.3-free-3.glb")
    # The two workers start together, so either may log its start first.
    assert set(starts[:2]) == {"held-free-1.glb", "slow-0.3-pro.glb"}
    assert len({pid for _, _, pid in check_runs(config_path.parent)}) == 2


@pytest.fixture
def capped_server(local_config):
    """A server without workers (queued jobs stay queued) whose pro plan queues two jobs."""
    server = ServiceProcess(
        local_config(workers={"processes": 0}, plans={"pro": {"max_queued_jobs": 2}})
    ).start()
    yield server
    server.stop()


def test_an_account_with_its_plans_queued_jobs_gets_queue_full_and_nothing_is_stored(
    capped_server, glb
):
    email = new_account(capped_server, "pro")
    key = new_key(capped_server, email)
    accepted = [upload(capped_server.url, key, glb).status_code for _ in range(2)]
    folders = job_folders(capped_server)
    refused = upload(capped_server.url, key, glb)
    from_dashboard = logged_in(capped_server, email).upload(glb)
    assert accepted == [202, 202]
    for response in (refused, from_dashboard):
        assert response.status_code == 429
        assert response.json() == {"error": response.json()["error"], "code": "QUEUE_FULL"}
        assert int(response.headers["Retry-After"]) >= 1
    assert job_folders(capped_server) == folders
    other = new_key(capped_server, new_account(capped_server, "pro"))
    assert upload(capped_server.url, other, glb).status_code == 202


def test_concurrent_uploads_past_the_queue_limit_are_refused_and_leave_no_file(capped_server, glb):
    key = new_key(capped_server, new_account(capped_server, "pro"))
    statuses: list[int] = []

    def submit() -> None:
        statuses.append(upload(capped_server.url, key, glb).status_code)

    threads = [threading.Thread(target=submit) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert Counter(statuses) == {202: 2, 429: 6}
    assert job_folders(capped_server) == {job.id for job in Job.select(Job.id)}


def test_the_dashboard_and_the_api_keys_share_the_accounts_rate(local_config, glb):
    server = ServiceProcess(local_config(workers={"processes": 0})).start()
    try:
        email = new_account(server, "starter")  # 3 requests per minute in the test config
        key = new_key(server, email)
        statuses = [upload(server.url, key, glb).status_code for _ in range(3)]
        limited = logged_in(server, email).upload(glb)
    finally:
        server.stop()
    assert statuses == [202, 202, 202]
    assert limited.status_code == 429 and limited.json()["code"] == "RATE_LIMITED"
