"""Job pages of huge reports on a real server (``docs/dashboard.md``, The job page): bounded in
size whatever the upload, rendered once per report and view, and rendered for one account
only so often, while other accounts' pages are still served."""

from __future__ import annotations

import secrets
from collections.abc import Iterator

import pytest

from assetcheck.service.accounts.store import create_account, find_account
from assetcheck.service.dashboard.job_page import FILES_SHOWN, OCCURRENCES_SHOWN
from tests.reports.test_schema import many_files_report
from tests.service.dashboard.conftest import PASSWORD
from tests.service.dashboard.test_accounts_http import Visitor
from tests.service.harness import (
    ServiceProcess,
    bind_database,
    service_settings,
    stored_completed_job,
    write_config,
)

MEMBERS = 3_000
OCCURRENCES = 1_000
#: The page of a 3,000-member ZIP was 11 MB when it listed everything.
MAX_PAGE_BYTES = 400_000
#: Renders a starter account gets per minute on this module's server.
STARTER_RENDERS = 2


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServiceProcess]:
    folder = tmp_path_factory.mktemp("pages")
    starter = {
        "max_upload_mb": 1,
        "requests_per_minute": 100,
        "page_renders_per_minute": STARTER_RENDERS,
    }
    process = ServiceProcess(
        write_config(folder, service_settings(folder, "", plans={"starter": starter}))
    ).start()
    yield process
    process.stop()


def large_report(members: int = MEMBERS) -> dict:
    """The report of a ZIP of ``members`` model files whose first code has 1,000
    occurrences."""
    report = many_files_report(members)
    group = report["issues"][0]
    group["occurrences"] = [
        {**group["occurrences"][0], "message": f"Finding number {i}."} for i in range(OCCURRENCES)
    ]
    group["count"] = OCCURRENCES
    return report


def visitor_with_large_job(server: ServiceProcess, plan: str) -> tuple[Visitor, str]:
    """A logged-in account of ``plan`` with a completed job of a 3,000-member ZIP whose report
    lists 1,000 occurrences of one code."""
    bind_database(server.config)
    email = f"pages-{secrets.token_hex(4)}@example.com"
    create_account(email, plan, list(server.config.plans), PASSWORD)
    job = stored_completed_job(find_account(email), large_report(), "members.zip")
    visitor = Visitor(server.url)
    assert visitor.log_in(email).status_code == 302
    return visitor, job.id


def test_the_page_of_a_huge_zip_is_bounded_and_links_to_the_rest(server: ServiceProcess):
    visitor, job_id = visitor_with_large_job(server, "pro")
    page = visitor.get(f"/jobs/{job_id}")
    assert page.status_code == 200
    assert len(page.content) < MAX_PAGE_BYTES, len(page.content)
    assert page.text.count('<th scope="row">') == FILES_SHOWN
    assert f"Model files 1\N{EN DASH}{FILES_SHOWN} of {MEMBERS:,}." in page.text
    assert "Finding number 0." in page.text
    assert f"Finding number {OCCURRENCES_SHOWN}." not in page.text
    assert f"Show the other {OCCURRENCES - OCCURRENCES_SHOWN:,} listed occurrences" in page.text

    later = visitor.get(f"/jobs/{job_id}?files={FILES_SHOWN}")
    assert later.status_code == 200 and len(later.content) < MAX_PAGE_BYTES
    assert f'title="{FILES_SHOWN}.glb">{FILES_SHOWN}.glb</span></th>' in later.text
    assert 'title="0.glb">0.glb</span></th>' not in later.text
    code = many_files_report(1)["issues"][0]["code"]
    expanded = visitor.get(f"/jobs/{job_id}?code={code}")
    assert f"Finding number {OCCURRENCES - 1}." in expanded.text


def test_a_page_is_rendered_once_then_served_from_memory(server: ServiceProcess):
    visitor, job_id = visitor_with_large_job(server, "pro")
    first = visitor.get(f"/jobs/{job_id}")
    second = visitor.get(f"/jobs/{job_id}")
    assert (first.status_code, second.status_code) == (200, 200)
    assert (first.headers["X-Page-Cache"], second.headers["X-Page-Cache"]) == ("miss", "hit")
    assert len(first.content) == len(second.content)


def test_a_greedy_account_gets_429_while_another_accounts_page_is_served(server: ServiceProcess):
    greedy, job_id = visitor_with_large_job(server, "starter")
    other, other_job = visitor_with_large_job(server, "starter")
    views = [f"/jobs/{job_id}?files={FILES_SHOWN * n}" for n in range(STARTER_RENDERS + 1)]
    answers = [greedy.get(view) for view in views]
    assert [answer.status_code for answer in answers] == [200] * STARTER_RENDERS + [429]
    refused = answers[-1]
    assert int(refused.headers["Retry-After"]) >= 1
    assert "Too many requests" in refused.text and "Reload it then" in refused.text
    assert greedy.get(views[0]).status_code == 200  # rendered already: served from memory
    assert other.get(f"/jobs/{other_job}").status_code == 200
