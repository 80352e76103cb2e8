"""Another account's API poll while clients render the job page of a 3,000-member ZIP.

    python bench/expensive_pages.py [--clients 8] [--seconds 20]

Starts ``assetcheck serve`` on 127.0.0.1 (SQLite in a temporary folder), stores a completed
job whose report lists 3,000 model files and 1,000 occurrences of one code, then ``--clients``
threads of one account fetch its page (each a different view, so the cache cannot answer them
all) while another account polls ``GET /api/v1/validate/{id}`` of its own job. Prints the
page's size, the answers the page clients got, the poll's median and maximum latency, and the
server's resident memory afterwards.
"""

from __future__ import annotations

import argparse
import secrets
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

import requests

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from assetcheck.service.accounts.store import create_account, find_account, issue_key
from tests.service.dashboard.conftest import PASSWORD
from tests.service.dashboard.test_accounts_http import Visitor
from tests.service.dashboard.test_expensive_pages import MEMBERS, large_report
from tests.service.harness import (
    ServiceProcess,
    bearer,
    bind_database,
    memory_kb,
    service_settings,
    stored_completed_job,
    write_config,
)


def stored_job(email: str, members: int = MEMBERS) -> str:
    return stored_completed_job(find_account(email), large_report(members), "members.zip").id


def account(server: ServiceProcess, plan: str = "pro") -> str:
    email = f"bench-{secrets.token_hex(4)}@example.com"
    create_account(email, plan, list(server.config.plans), PASSWORD)
    return email


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=20.0)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="pages-bench-"))
    settings = service_settings(
        folder, "", plans={"pro": {"page_renders_per_minute": 60, "requests_per_minute": 100_000}}
    )
    server = ServiceProcess(write_config(folder, settings)).start()
    try:
        bind_database(server.config)
        greedy = account(server)
        job_id = stored_job(greedy)
        other = account(server)
        key = issue_key(find_account(other), "bench")[1]
        other_job = stored_job(other, members=1)
        visitor = Visitor(server.url)
        visitor.log_in(greedy)
        print(f"page: {len(visitor.http.get(f'{server.url}/jobs/{job_id}').content):,} bytes")

        statuses: list[int] = []
        stop = threading.Event()

        def render(number: int) -> None:
            client = Visitor(server.url)
            client.http.cookies.update(visitor.http.cookies)
            view = 0
            while not stop.is_set():
                view += 1
                path = f"/jobs/{job_id}?files={24 * ((number * 1000 + view) % 125)}"
                statuses.append(client.http.get(server.url + path, timeout=300).status_code)

        threads = [threading.Thread(target=render, args=(n,)) for n in range(args.clients)]
        for thread in threads:
            thread.start()
        latencies = []
        deadline = time.monotonic() + args.seconds
        while time.monotonic() < deadline:
            started = time.monotonic()
            requests.get(
                f"{server.url}/api/v1/validate/{other_job}", headers=bearer(key), timeout=300
            )
            latencies.append(time.monotonic() - started)
            time.sleep(0.05)
        stop.set()
        for thread in threads:
            thread.join()
        counts = {status: statuses.count(status) for status in sorted(set(statuses))}
        print(f"{args.clients} clients rendering: answers {counts}")
        print(
            f"other account's poll: median {statistics.median(latencies) * 1000:.0f} ms, "
            f"max {max(latencies) * 1000:.0f} ms over {len(latencies)} polls"
        )
        print(f"server RSS afterwards: {memory_kb(server.process.pid) / 1024:.0f} MB")
    finally:
        server.stop()


if __name__ == "__main__":
    main()
