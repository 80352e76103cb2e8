"""The job state machine on SQLite and PostgreSQL: claims, leases, crashes, hand-backs."""

from __future__ import annotations

from datetime import timedelta

import pytest

from assetcheck.db.tables import Account, Job, utcnow
from assetcheck.jobs.queue import (
    COMPLETED,
    FAILED,
    MAX_ATTEMPTS,
    PROCESSING,
    QUEUED,
    JobQueue,
    new_job_id,
)
from tests.concurrency import claim_in_threads

REPORT = {"health_score": 88, "grade": "good", "result": {"meshes": [], "securityScan": {}}}


@pytest.fixture
def queue(database) -> JobQueue:
    return JobQueue(database, lease_seconds=30, workers=2)


@pytest.fixture
def account(database) -> Account:
    return Account.create(email="queue@example.com", plan="pro")


def add_job(queue: JobQueue, account: Account, **fields) -> Job:
    return queue.enqueue(id=new_job_id(), account=account, filename="a.glb", engine="generic",
                         options={}, stored_path="jobs/x/upload", sha256="0" * 64, size=1,
                         **fields)


def expire_leases() -> None:
    Job.update(lease_expires_at=utcnow() - timedelta(seconds=1)).where(
        Job.status == PROCESSING).execute()


def test_claims_take_the_oldest_queued_job_with_a_lease(queue, account):
    old = add_job(queue, account, created_at=utcnow() - timedelta(minutes=1))
    add_job(queue, account)
    claimed = queue.claim("worker-a")
    assert claimed.id == old.id and claimed.status == PROCESSING
    assert claimed.lease_owner == "worker-a" and claimed.attempts == 1
    assert claimed.lease_expires_at > utcnow() + timedelta(seconds=25)


def test_an_empty_queue_gives_no_job(queue):
    assert queue.claim("worker-a") is None


def test_concurrent_claims_never_hand_out_a_job_twice(queue, account, database):
    for _ in range(40):
        add_job(queue, account)
    claimed = claim_in_threads(queue.claim, database)
    assert len(claimed) == 40 and len(set(claimed)) == 40


def test_only_the_lease_owner_renews_completes_or_fails(queue, account):
    job = add_job(queue, account)
    queue.claim("worker-a")
    assert not queue.renew(job.id, "worker-b", 50)
    assert not queue.complete(job.id, "worker-b", REPORT)
    assert not queue.fail(job.id, "worker-b", "X", "y")
    assert queue.renew(job.id, "worker-a", 50)
    assert Job.get_by_id(job.id).progress == 50
    assert queue.complete(job.id, "worker-a", REPORT)
    done = Job.get_by_id(job.id)
    assert (done.status, done.progress, done.grade, done.lease_owner) == (
        COMPLETED, 100, "good", None)
    assert done.result == REPORT


def test_a_finished_job_cannot_be_finished_again(queue, account):
    job = add_job(queue, account)
    queue.claim("worker-a")
    assert queue.fail(job.id, "worker-a", "VALIDATION_TIMEOUT", "too slow")
    assert not queue.complete(job.id, "worker-a", REPORT)
    assert Job.get_by_id(job.id).status == FAILED


def test_an_expired_lease_puts_the_job_back_and_its_old_worker_cannot_record(queue, account):
    job = add_job(queue, account)
    queue.claim("worker-a")
    expire_leases()
    assert queue.reap_expired_leases() == (1, 0)
    back = Job.get_by_id(job.id)
    assert (back.status, back.progress, back.lease_owner) == (QUEUED, 0, None)
    assert not queue.complete(job.id, "worker-a", REPORT)
    assert queue.claim("worker-b").attempts == 2


def test_the_third_expired_lease_fails_the_job_validation_crashed(queue, account):
    job = add_job(queue, account)
    for attempt in range(MAX_ATTEMPTS):
        assert queue.claim(f"worker-{attempt}").id == job.id
        expire_leases()
        queue.reap_expired_leases()
    failed = Job.get_by_id(job.id)
    assert failed.status == FAILED and failed.error_code == "VALIDATION_CRASHED"
    assert failed.finished_at is not None


def test_crashes_recorded_by_the_worker_count_towards_the_same_limit(queue, account):
    job = add_job(queue, account)
    statuses = []
    for attempt in range(MAX_ATTEMPTS):
        queue.claim(f"worker-{attempt}")
        statuses.append(queue.record_crash(job.id, f"worker-{attempt}", "died from SIGSEGV"))
    assert statuses == [QUEUED, QUEUED, FAILED]
    assert Job.get_by_id(job.id).error_message == "died from SIGSEGV"


def test_a_job_handed_back_at_shutdown_does_not_count_an_attempt(queue, account):
    job = add_job(queue, account)
    queue.claim("worker-a")
    assert queue.hand_back(job.id, "worker-a")
    back = Job.get_by_id(job.id)
    assert back.status == QUEUED and back.attempts == 0


def test_estimates_follow_the_queue_length_and_recent_durations(queue, account):
    now = utcnow()
    done = add_job(queue, account)
    queue.claim("w")
    queue.complete(done.id, "w", REPORT)
    Job.update(started_at=now - timedelta(seconds=10), finished_at=now).where(
        Job.id == done.id).execute()
    assert queue.typical_duration() == pytest.approx(10)
    for _ in range(4):
        add_job(queue, account)
    # four queued jobs on two workers: two waves of ten seconds
    assert queue.estimate_completion(now) == now + timedelta(seconds=20)

