"""Workers and the service under failure: killed workers, a killed service, graceful stops,
and several ``assetcheck worker`` processes sharing one PostgreSQL queue."""

from __future__ import annotations

import os
import signal
import threading
from collections import Counter
from pathlib import Path

import pytest
import requests

from assetcheck.config.loading import load_config
from assetcheck.service.db import migrations
from assetcheck.service.db.tables import Account, Job
from assetcheck.service.jobs.queue import COMPLETED, JobQueue, new_job_id
from assetcheck.service.jobs.storage import open_storage
from tests.service.harness import (
    ServiceProcess,
    bind_database,
    check_runs,
    new_key,
    release_held,
    service_settings,
    upload,
    wait_for_job,
    wait_until,
    write_config,
)

pytestmark = pytest.mark.slow


def runs_of(folder: Path, filename: str) -> Counter:
    return Counter(event for event, name, _ in check_runs(folder) if name == filename)


def test_a_worker_killed_mid_job_loses_its_lease_and_the_job_completes_once(service, url, key, glb):
    folder = service.config_path.parent
    job_id = upload(url, key, glb, "slow-1-killed.glb").json()["job_id"]
    assert wait_until(lambda: runs_of(folder, "slow-1-killed.glb")["start"] == 1)
    owner = Job.get_by_id(job_id).lease_owner
    worker_pid = int(owner.rsplit(":", 1)[1])
    os.kill(worker_pid, signal.SIGKILL)
    body = wait_for_job(url, key, job_id, timeout=30)
    assert body["status"] == "completed"
    assert Job.get_by_id(job_id).attempts == 2
    assert runs_of(folder, "slow-1-killed.glb") == {"start": 2, "end": 1}
    finishers = {
        pid
        for event, name, pid in check_runs(folder)
        if name == "slow-1-killed.glb" and event == "end"
    }
    assert finishers != {str(worker_pid)}
    assert wait_until(lambda: "restarting it" in service.log())


# Waits up to 300 s for the uploads, then up to 300 s for each job after the restart.
@pytest.mark.timeout(1800)
def test_a_killed_service_loses_no_accepted_upload_and_finishes_them_after_a_restart(
    local_config, glb
):
    # A job may take minutes on a busy machine: only the kill may end an attempt here.
    config_path = local_config(workers={"processes": 1, "job_timeout": 300})
    folder = config_path.parent
    server = ServiceProcess(config_path).start()
    key = new_key(server.config)
    accepted: list[str] = []

    def keep_uploading() -> None:
        for index in range(200):
            try:
                response = upload(server.url, key, glb, f"burst-{index}.glb")
            except requests.RequestException:  # the service is gone
                return
            if response.status_code == 202:
                accepted.append(response.json()["job_id"])

    uploader = threading.Thread(target=keep_uploading)
    uploader.start()
    assert wait_until(lambda: len(accepted) >= 10, timeout=300)
    server.kill()
    uploader.join()
    restarted = ServiceProcess(config_path).start()
    try:
        bodies = [wait_for_job(restarted.url, key, job_id, timeout=300) for job_id in accepted]
    finally:
        restarted.stop()
    assert [body["status"] for body in bodies] == [COMPLETED] * len(accepted)
    for body in bodies:
        assert runs_of(folder, body["filename"])["end"] == 1


def test_sigterm_lets_a_short_job_finish_and_hands_a_long_one_back(local_config, glb):
    # Both jobs hold their workers until released: the short one is released once the server
    # is stopping, and so ends within the grace period; the long one never is.
    config_path = local_config(workers={"shutdown_grace": 8})
    server = ServiceProcess(config_path).start()
    key = new_key(server.config)
    short = upload(server.url, key, glb, "held-graceful-short.glb").json()["job_id"]
    long = upload(server.url, key, glb, "held-graceful-long.glb").json()["job_id"]
    assert wait_until(lambda: Job.select().where(Job.status == "processing").count() == 2)
    server.request_stop()
    assert wait_until(lambda: "stopping: no new connections" in server.log())
    release_held(config_path.parent, "held-graceful-short.glb")
    assert server.stop(timeout=60) == 0
    assert Job.get_by_id(short).status == COMPLETED
    handed_back = Job.get_by_id(long)
    assert handed_back.status == "queued" and handed_back.attempts == 0
    assert "handed back at shutdown" in server.log()


def test_a_jobs_validation_inherits_the_workers_objects_frozen(local_config, glb):
    # The worker freezes what it loaded before forking a child per job, so the child's
    # collections never walk (nor copy the pages of) the plugins, the schema and the rest.
    config_path = local_config()
    server = ServiceProcess(config_path).start()
    try:
        key = new_key(server.config)
        job_id = upload(server.url, key, glb, "frozen-probe.glb").json()["job_id"]
        assert wait_for_job(server.url, key, job_id)["status"] == COMPLETED
    finally:
        server.stop()
    assert int((config_path.parent / "frozen-count").read_text()) > 10_000


def test_two_worker_commands_on_postgresql_process_200_jobs_exactly_once(
    tmp_path, database_factory, glb
):
    url = database_factory("postgresql")
    settings = service_settings(tmp_path, url, workers={"processes": 1, "lease_seconds": 5})
    config_path = write_config(tmp_path, settings)
    config = load_config(config_path)
    database = bind_database(config)
    migrations.upgrade(database)
    queue_jobs(config, database, glb, count=200)
    workers = [ServiceProcess(config_path, command="worker").start() for _ in range(2)]
    try:
        done = wait_until(
            lambda: Job.select().where(Job.status == COMPLETED).count() == 200, timeout=300
        )
    finally:
        exits = [worker.stop() for worker in workers]
    assert done, Counter(job.status for job in Job.select(Job.status))
    assert exits == [0, 0], "\n".join(worker.log() for worker in workers)
    runs = check_runs(tmp_path)
    ends = Counter(name for event, name, _ in runs if event == "end")
    assert len(ends) == 200 and set(ends.values()) == {1}
    assert len({pid for _, _, pid in runs}) == 2  # both workers took jobs
    assert {job.attempts for job in Job.select(Job.attempts)} == {1}


def queue_jobs(config, database, content: bytes, count: int) -> None:
    storage = open_storage(config.storage)
    queue = JobQueue(database, lease_seconds=5, workers=2)
    account = Account.create(email="bulk@example.com", plan="pro")
    for index in range(count):
        job_id = new_job_id()
        file = storage.create_upload(job_id)
        file.write(content)
        file.commit()
        queue.enqueue(
            id=job_id,
            account=account,
            filename=f"bulk-{index}.glb",
            engine="generic",
            options={"engine": "generic"},
            stored_path=file.stored_path,
            sha256=file.sha256,
            size=file.size,
        )
