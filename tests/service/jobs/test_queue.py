"""The job state machine on SQLite and PostgreSQL: claims, leases, crashes, hand-backs, and
the fair claim (accounts take turns, each below its plan's limit, each queue capped)."""

from __future__ import annotations

import threading
import time
from collections import Counter
from datetime import timedelta

import pytest

from assetcheck.service.db.tables import Account, Job, utcnow
from assetcheck.service.jobs.queue import (
    COMPLETED,
    FAILED,
    MAX_ATTEMPTS,
    PROCESSING,
    QUEUED,
    JobQueue,
    QueueFull,
    new_job_id,
)
from tests.concurrency import claim_in_threads, run_in_threads

REPORT = {"health_score": 88, "grade": "good", "result": {"meshes": [], "securityScan": {}}}
#: Jobs of one account processing at once, by plan.
MAX_PROCESSING = {"free": 1, "starter": 2, "pro": 100}


@pytest.fixture
def queue(database) -> JobQueue:
    return JobQueue(database, lease_seconds=30, workers=2, max_processing=MAX_PROCESSING)


@pytest.fixture
def account(database) -> Account:
    return Account.create(email="queue@example.com", plan="pro")


def add_job(queue: JobQueue, account: Account, **fields) -> Job:
    return queue.enqueue(
        id=new_job_id(),
        account=account,
        filename="a.glb",
        engine="generic",
        options={},
        stored_path="jobs/x/upload",
        sha256="0" * 64,
        size=1,
        **fields,
    )


def expire_leases() -> None:
    Job.update(lease_expires_at=utcnow() - timedelta(seconds=1)).where(
        Job.status == PROCESSING
    ).execute()


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
        COMPLETED,
        100,
        "good",
        None,
    )
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
        Job.id == done.id
    ).execute()
    assert queue.typical_duration() == pytest.approx(10)
    for _ in range(4):
        add_job(queue, account)
    # four queued jobs on two workers: two waves of ten seconds
    assert queue.estimate_completion(now) == now + timedelta(seconds=20)


def new_account(plan: str) -> Account:
    return Account.create(email=f"{new_job_id()}@example.com", plan=plan)


def add_jobs(queue: JobQueue, account: Account, count: int) -> list[str]:
    """``count`` queued jobs of ``account``, a second apart, oldest first: their ids."""
    start = utcnow() - timedelta(hours=1)
    return [
        add_job(queue, account, created_at=start + timedelta(seconds=index)).id
        for index in range(count)
    ]


def serve_one_at_a_time(queue: JobQueue) -> list[str]:
    """Claim and complete jobs one by one until none is left: the order they ran in."""
    order = []
    while (job := queue.claim("worker")) is not None:
        order.append(job.id)
        queue.complete(job.id, "worker", REPORT)
    return order


def test_an_account_at_its_plans_limit_is_passed_over_for_a_later_account(queue):
    free, pro = new_account("free"), new_account("pro")
    free_jobs = add_jobs(queue, free, 6)
    pro_job = add_job(queue, pro).id
    assert [queue.claim(f"worker-{n}").id for n in range(2)] == [free_jobs[0], pro_job]
    assert queue.claim("worker-2") is None  # the free account is at its limit of one


def test_a_job_ending_frees_its_accounts_place(queue):
    starter = new_account("starter")
    jobs = add_jobs(queue, starter, 3)
    first, second = queue.claim("a"), queue.claim("b")
    assert queue.claim("c") is None
    queue.fail(first.id, "a", "VALIDATION_TIMEOUT", "too slow")
    assert queue.claim("c").id == jobs[2]
    assert second.id == jobs[1]


def test_accounts_with_queued_work_take_turns_whatever_their_backlog(queue):
    big, small, late = new_account("pro"), new_account("pro"), new_account("pro")
    big_jobs = add_jobs(queue, big, 4)
    small_jobs = add_jobs(queue, small, 2)
    late_job = add_job(queue, late).id  # submitted after every other job
    assert serve_one_at_a_time(queue) == [
        big_jobs[0],
        small_jobs[0],
        late_job,
        big_jobs[1],
        small_jobs[1],
        big_jobs[2],
        big_jobs[3],
    ]


def test_an_account_that_was_served_waits_behind_one_never_served(queue):
    regular, newcomer = new_account("pro"), new_account("pro")
    add_jobs(queue, regular, 1)
    serve_one_at_a_time(queue)
    again = add_jobs(queue, regular, 1)  # older than the newcomer's job
    first_time = add_job(queue, newcomer).id
    assert serve_one_at_a_time(queue) == [first_time, again[0]]


def test_a_plan_the_queue_does_not_know_runs_one_job_at_a_time(queue):
    retired = new_account("legacy")
    add_jobs(queue, retired, 2)
    assert queue.claim("a") is not None and queue.claim("b") is None


def test_racing_claimers_never_exceed_an_accounts_limit_nor_share_a_job(queue, database):
    accounts = [new_account("free"), new_account("starter"), new_account("starter")]
    for account in accounts:
        add_jobs(queue, account, 15)
    limits = {account.id: MAX_PROCESSING[account.plan] for account in accounts}
    held: Counter = Counter()  # jobs each account has in the threads' hands right now
    most_held: Counter = Counter()
    most_running: Counter = Counter()  # the most jobs seen processing in the database
    ran: list[str] = []
    lock = threading.Lock()

    def claim_and_complete(owner: str) -> None:
        """Claim and complete jobs until none is left to claim (or a minute passed)."""
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and Job.select().where(Job.status == QUEUED).exists():
            job = queue.claim(owner)
            if job is None:  # the other threads hold every place left
                time.sleep(0.001)
                continue
            account = job.account_id
            with lock:
                held[account] += 1
                most_held[account] = max(most_held[account], held[account])
                ran.append(job.id)
            running = Job.select().where(Job.account == account, Job.status == PROCESSING).count()
            with lock:
                most_running[account] = max(most_running[account], running)
                held[account] -= 1
            queue.complete(job.id, owner, REPORT)

    run_in_threads(claim_and_complete, database, owners=6)
    assert len(ran) == 45 and len(set(ran)) == 45
    assert all(most_held[account] <= limit for account, limit in limits.items())
    assert all(most_running[account] <= limit for account, limit in limits.items())
    assert Job.select().where(Job.status == COMPLETED).count() == 45


def test_an_account_with_its_plans_queued_jobs_is_refused_another(queue):
    account = new_account("pro")
    add_job(queue, account, max_queued=2)
    add_job(queue, account, max_queued=2)
    with pytest.raises(QueueFull) as refusal:
        add_job(queue, account, max_queued=2)
    assert (refusal.value.queued, refusal.value.limit) == (2, 2)
    queue.claim("worker")  # a job that started no longer counts
    add_job(queue, account, max_queued=2)
    assert queue.queued_count(account.id) == 2


def test_concurrent_uploads_of_one_account_never_pass_its_queue_limit(queue, database):
    account = new_account("pro")
    outcomes: list[str] = []

    def submit(owner: str) -> None:
        for _ in range(3):
            try:
                add_job(queue, account, max_queued=5)
                outcomes.append("queued")
            except QueueFull:
                outcomes.append("full")

    run_in_threads(submit, database, owners=6)
    assert Counter(outcomes) == {"queued": 5, "full": 13}
    assert queue.queued_count(account.id) == 5


def test_a_job_that_seems_to_end_before_it_started_does_not_count_toward_estimates(queue, account):
    now = utcnow()
    for started in (now - timedelta(seconds=10), now + timedelta(days=31)):
        job = add_job(queue, account)
        queue.claim("w")
        queue.complete(job.id, "w", REPORT)
        Job.update(started_at=started, finished_at=now).where(Job.id == job.id).execute()
    assert queue.typical_duration() == pytest.approx(10)
