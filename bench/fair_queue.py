"""Fairness between accounts on a real service: does one account's backlog hold up another's job?

    python bench/fair_queue.py
    python bench/fair_queue.py --database-url postgresql://postgres@127.0.0.1:5432/bench

It starts ``assetcheck serve`` on 127.0.0.1 (a free port, as ``bench/service_load.py`` does)
with two worker processes and a check plugin that makes files named ``slow-<seconds>...`` take
that long. A free account uploads six slow files from the dashboard, then a pro account
uploads one short file with its API key; once every job is done, :func:`measure_fairness`
reports when the pro job started, relative to the free account's jobs. Target (issue 13): the
pro job starts before the free account's third, within about a worker's idle poll (1 s) of
its upload. The PostgreSQL database must exist and be empty (or at the current schema).
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import requests

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from assetcheck.config.loading import load_config
from assetcheck.service import db
from assetcheck.service.accounts.store import create_account, issue_key
from assetcheck.service.db.tables import Job
from assetcheck.testing.gltf import padded_glb
from bench.service_load import start_server

PASSWORD = "fair queue bench"
WORKERS = 2
_XSRF_TOKEN = re.compile(r'<body data-xsrf="([^"]+)"')

#: The check plugin that makes ``slow-<seconds>...`` files take that long to validate.
SLOW_CHECK = """
import re, time
from assetcheck.checks import Check
from assetcheck.plugins.hookspecs import hookimpl

def run(asset, context):
    slow = re.match(r"slow-(\\d+(?:\\.\\d+)?)", asset.filename)
    if slow:
        time.sleep(float(slow[1]))

@hookimpl
def register_checks():
    return [Check("bench_slow", "sleeps for files named slow-<seconds>", run)]
"""


def dashboard_session(url: str, email: str) -> tuple[requests.Session, str]:
    """A logged-in dashboard session of ``email`` and the XSRF token its uploads send."""
    session = requests.Session()
    token = _XSRF_TOKEN.search(session.get(f"{url}/login", timeout=10).text)[1]
    answer = session.post(
        f"{url}/login",
        data={"email": email, "password": PASSWORD, "_xsrf": token},
        allow_redirects=False,
        timeout=10,
    )
    if answer.status_code != 302:
        raise SystemExit(f"the bench account could not log in: {answer.status_code}")
    return session, token


def submit(
    session: requests.Session, url: str, content: bytes, filename: str, headers: dict[str, str]
) -> str:
    """Upload ``content`` as ``filename`` to ``url``; the job id."""
    answer = session.post(url, files={"file": (filename, content)}, headers=headers, timeout=30)
    if answer.status_code != 202:
        raise SystemExit(f"{filename} was refused: {answer.status_code} {answer.text}")
    return answer.json()["job_id"]


def wait_until_done(job_ids: list[str], timeout: float = 300) -> list[Job]:
    """The jobs once every one has ended."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        jobs = list(Job.select().where(Job.id.in_(job_ids)))
        if all(job.status in ("completed", "failed") for job in jobs):
            return jobs
        time.sleep(0.2)
    raise SystemExit("the jobs did not end in time")


def measure_fairness(
    database_url: str = "",
    free_jobs: int = 6,
    free_job_seconds: float = 2.0,
    pro_job_seconds: float = 0.5,
) -> dict[str, Any]:
    """Run the scenario on a service of its own (SQLite when ``database_url`` is empty) and
    return its figures: the pro job's place among the jobs' starts (``pro_start_rank``, 1 is
    first), how many free jobs had started before it, and seconds from its upload to its start
    and to its end."""
    folder = Path(tempfile.mkdtemp(prefix="assetcheck-fair-"))
    plugins = folder / "plugins"
    plugins.mkdir()
    (plugins / "bench_slow.py").write_text(SLOW_CHECK)
    server, url = start_server(folder, database_url, WORKERS, f'[plugins]\ndir = "{plugins}"\n')
    try:
        config = load_config(folder / "bench.toml")
        db.connect(config)
        plans = list(config.plans)
        create_account("free@bench.invalid", "free", plans, PASSWORD)
        pro_key = issue_key(create_account("pro@bench.invalid", "pro", plans))[1]
        content = padded_glb(1024)
        session, token = dashboard_session(url, "free@bench.invalid")
        free_ids = [
            submit(
                session,
                f"{url}/uploads",
                content,
                f"slow-{free_job_seconds:g}-free-{number}.glb",
                {"X-XSRFToken": token},
            )
            for number in range(1, free_jobs + 1)
        ]
        pro_id = submit(
            requests.Session(),
            f"{url}/api/v1/validate",
            content,
            f"slow-{pro_job_seconds:g}-pro.glb",
            {"Authorization": f"Bearer {pro_key}"},
        )
        jobs = {job.id: job for job in wait_until_done([*free_ids, pro_id])}
    finally:
        server.terminate()
        server.wait(60)
        shutil.rmtree(folder, ignore_errors=True)
    pro = jobs[pro_id]
    starts = sorted(jobs.values(), key=lambda job: job.started_at)
    return {
        "database": "PostgreSQL" if database_url else "SQLite",
        "workers": WORKERS,
        "free_jobs": free_jobs,
        "free_job_seconds": free_job_seconds,
        "pro_start_rank": [job.id for job in starts].index(pro_id) + 1,
        "free_jobs_started_before_pro": sum(jobs[i].started_at < pro.started_at for i in free_ids),
        "pro_wait_seconds": round((pro.started_at - pro.created_at).total_seconds(), 2),
        "pro_turnaround_seconds": round((pro.finished_at - pro.created_at).total_seconds(), 2),
        "free_last_finished_seconds": round(
            max(
                (jobs[i].finished_at - jobs[free_ids[0]].created_at).total_seconds()
                for i in free_ids
            ),
            2,
        ),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database-url", default="")
    parser.add_argument("--free-jobs", type=int, default=6)
    parser.add_argument("--free-job-seconds", type=float, default=2.0)
    args = parser.parse_args()
    print(
        json.dumps(
            measure_fairness(args.database_url, args.free_jobs, args.free_job_seconds), indent=2
        )
    )


if __name__ == "__main__":
    main()
