"""Nothing a job starts outlives it: the validation child and the decoder children it forks
are all gone after a job timeout, a DELETE of the running job, or the death of its worker;
and a validation child's answer is loaded without running anything it names."""

from __future__ import annotations

import os
import signal
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import pytest
import requests

from assetcheck.service.db.tables import Job
from assetcheck.testing.compressed import truncated_draco_glb
from tests.process_tree import Process, kill_all, wait_for_descendants, wait_until_gone
from tests.service.harness import (
    ServiceProcess,
    bearer,
    bind_database,
    new_key,
    upload,
    validate_on_own_service,
    wait_for_job,
    wait_until,
)

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def slow_glb() -> bytes:
    """A GLB whose Draco payloads keep a decoder child busy for minutes."""
    return truncated_draco_glb()


@pytest.fixture
def one_worker(local_config) -> Iterator[Callable[[int], ServiceProcess]]:
    """``one_worker(job_timeout)``: a running service of its own with one worker. The job time
    limit leaves room for the validation to reach its decoder, however busy the machine."""
    servers: list[ServiceProcess] = []

    def start(job_timeout: int) -> ServiceProcess:
        config = local_config(workers={"processes": 1, "job_timeout": job_timeout})
        servers.append(ServiceProcess(config).start())
        return servers[-1]

    yield start
    for server in servers:
        server.stop()


def worker_of(job_id: str) -> int:
    """The pid of the worker process running ``job_id`` (named in its lease)."""
    owner = wait_until(lambda: Job.get_by_id(job_id).lease_owner, timeout=60)
    assert owner, "no worker took the job"
    return int(owner.rsplit(":", 1)[1])


@dataclass(frozen=True)
class DecodingJob:
    """A job whose decoder child runs: its key, its id, the pid of its worker, and the
    processes it started (the validation child and the decoder)."""

    key: str
    job_id: str
    worker: int
    started: set[Process]


@contextmanager
def decoding(server: ServiceProcess, content: bytes) -> Iterator[DecodingJob]:
    """Upload ``content`` with a new key and wait until its job's decoder child runs; every
    process the job started is killed on leaving, whatever the test saw."""
    key = new_key(server.config)
    job_id = upload(server.url, key, content, "decoding.glb").json()["job_id"]
    worker = worker_of(job_id)
    started = wait_for_descendants(worker, depth=2, timeout=120)
    try:
        assert len(started) >= 2, "the decoder never started"
        yield DecodingJob(key, job_id, worker, started)
    finally:
        kill_all(started)


def delete(url: str, key: str, job_id: str) -> requests.Response:
    return requests.delete(f"{url}/api/v1/validate/{job_id}", headers=bearer(key), timeout=10)


def test_a_job_past_its_time_limit_leaves_no_process_running(one_worker, slow_glb):
    server = one_worker(job_timeout=30)
    with decoding(server, slow_glb) as job:
        body = wait_for_job(server.url, job.key, job.job_id, timeout=120)
        assert body["status"] == "failed"
        assert body["error"]["code"] == "VALIDATION_TIMEOUT"
        assert wait_until_gone(job.started) == set()


def test_a_running_job_deleted_leaves_no_process_running(one_worker, slow_glb):
    server = one_worker(job_timeout=300)
    with decoding(server, slow_glb) as job:
        assert delete(server.url, job.key, job.job_id).status_code == 204
        assert wait_until_gone(job.started) == set()


def test_a_killed_worker_leaves_no_process_of_its_job_running(one_worker, slow_glb):
    server = one_worker(job_timeout=300)
    with decoding(server, slow_glb) as job:
        os.kill(job.worker, signal.SIGKILL)
        assert wait_until_gone(job.started) == set()


#: A check plugin that does what a validation child subverted through a parser bug could do:
#: answer the worker, on every pipe it may write to, with a pickle framed as the sandbox frames
#: answers (its length, the stream's length, no arrays, the stream) that names a function to
#: call (here: create a file).
SUBVERTING_PLUGIN = """
import fcntl, os, pickle, stat, struct
from assetcheck.checks import Check
from assetcheck.plugins.hookspecs import hookimpl
from assetcheck.service.jobs.worker import Outcome

class CreateFile:
    def __reduce__(self):
        return (open, ({marker!r}, "w"))

def writable_pipes():
    for name in os.listdir("/proc/self/fd"):
        fd = int(name)
        try:
            mode, flags = os.fstat(fd).st_mode, fcntl.fcntl(fd, fcntl.F_GETFL)
        except OSError:
            continue
        if fd > 2 and stat.S_ISFIFO(mode) and flags & os.O_ACCMODE == os.O_WRONLY:
            yield fd

def run(asset, context):
    stream = pickle.dumps(("returned", Outcome("completed", report={{"grade": CreateFile()}})))
    body = struct.pack("<QQ", len(stream), 0) + stream
    for fd in writable_pipes():
        os.write(fd, struct.pack("<Q", len(body)) + body)
    os._exit(0)

@hookimpl
def register_checks():
    return [Check("test_subverted", "answers the worker with a hostile pickle", run)]
"""


def test_an_answer_naming_a_disallowed_type_is_refused_and_the_job_fails_cleanly(
    local_config, glb, tmp_path
):
    config_path = local_config(workers={"processes": 1})
    marker = tmp_path / "subverted"
    (tmp_path / "plugins" / "test_subverted.py").write_text(
        SUBVERTING_PLUGIN.format(marker=str(marker))
    )
    server, body = validate_on_own_service(config_path, glb, timeout=60)
    assert body["status"] == "failed"
    assert body["error"]["code"] == "VALIDATION_CRASHED"
    assert "open is not an expected type" in body["error"]["message"]
    assert not marker.exists()
    bind_database(server.config)
    assert Job.get_by_id(body["job_id"]).attempts == 3
