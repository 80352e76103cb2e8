"""Reports on a real server (``docs/security.md``, Reports): huge names are cut before they are
stored, and a large report is rendered off the event loop, so other requests keep being served
while it is."""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor

import requests

from assetcheck.accounts.store import find_account, issue_key
from assetcheck.names import CUT_MARK, MAX_NAME_LENGTH
from tests.builders.zip import tiny_glb, zip_of
from tests.dashboard.conftest import Site
from tests.dashboard.test_accounts_http import Visitor
from tests.reports.test_schema import many_files_report
from tests.service.harness import (
    bearer,
    bind_database,
    stored_completed_job,
    upload,
    wait_for_job,
)

MEMBERS = 30
NAME_LENGTH = 10_000


def test_a_zip_of_huge_member_names_makes_a_small_report_with_every_name_cut(site: Site):
    email = site.account()
    key = issue_key(find_account(email), "test")[1]
    archive = zip_of({f"{i:02d}" + "m" * NAME_LENGTH + ".glb": tiny_glb() for i in range(MEMBERS)})
    job_id = upload(site.url, key, archive, filename="names.zip").json()["job_id"]
    assert wait_for_job(site.url, key, job_id)["status"] == "completed"

    report = requests.get(
        f"{site.url}/api/v1/report/{job_id}/json", headers=bearer(key), timeout=30
    )
    markdown = requests.get(
        f"{site.url}/api/v1/report/{job_id}/markdown", headers=bearer(key), timeout=30
    )
    names = [mesh["filename"] for mesh in report.json()["result"]["meshes"]]
    assert len(names) == MEMBERS and {len(name) for name in names} == {MAX_NAME_LENGTH}
    assert all(f"{CUT_MARK}{NAME_LENGTH + 6:,}]" in name for name in names)
    # 30 names of 10,000 characters, kept whole, would make each at least 300 kB
    assert len(report.content) < 100_000 and len(markdown.content) < 100_000


def test_large_reports_render_off_the_event_loop_while_health_checks_stay_quick(site: Site):
    email = site.account()
    visitor = Visitor(site.url)
    assert visitor.log_in(email).status_code == 302
    bind_database(site.server.config)
    job = stored_completed_job(find_account(email), many_files_report(40_000), "large.zip")
    paths = [f"/jobs/{job.id}", f"/jobs/{job.id}/report/markdown", f"/jobs/{job.id}"]

    def fetch_each() -> list[tuple[int, float]]:
        answers = []
        for path in paths:
            started = time.monotonic()
            status = visitor.http.get(site.url + path, timeout=120).status_code
            answers.append((status, time.monotonic() - started))
        return answers

    latencies = []
    with ThreadPoolExecutor(1) as pool:
        pages = pool.submit(fetch_each)
        while not pages.done():
            started = time.monotonic()
            assert requests.get(f"{site.url}/healthz", timeout=30).status_code == 200
            latencies.append(time.monotonic() - started)
            time.sleep(0.02)
    statuses, durations = zip(*pages.result(), strict=True)
    assert statuses == (200,) * len(paths)
    # Rendered on the event loop, a page holds every other request for about as long as it
    # takes itself; off it, only decoding the stored report (one C call, which no thread
    # interrupts) does. Compared with the page's own time, so a loaded machine cannot fail it.
    assert len(latencies) > 3 and max(latencies) < max(durations) / 2, (
        sorted(latencies)[-3:],
        durations,
    )
