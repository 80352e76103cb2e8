"""Reports on a real server (``docs/security.md``, Reports): huge names are cut before they are
stored. That a large report is read and rendered off the event loop is proven in
``test_page_threads.py``; how long other requests wait meanwhile is measured by
``bench/expensive_pages.py``."""

from __future__ import annotations

import requests

from assetcheck.issues.names import CUT_MARK, MAX_NAME_LENGTH
from assetcheck.service.accounts.store import find_account, issue_key
from assetcheck.testing.zip import tiny_glb, zip_of
from tests.service.dashboard.conftest import Site
from tests.service.harness import (
    bearer,
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
