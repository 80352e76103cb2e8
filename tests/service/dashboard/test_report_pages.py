"""The report part of a job page (``docs/dashboard.md``, The job page): each finding leads with
its title in plain words, and its code follows, smaller."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

from assetcheck.plugins.manager import build_registry, get_plugin_manager
from assetcheck.service.dashboard.job_page import JobView
from assetcheck.service.dashboard.report_pages import render_report
from assetcheck.service.dashboard.templating import make_environment

GOLDEN = Path(__file__).parents[2] / "assets" / "reports"


def golden_report(case: str) -> dict:
    """A golden report, as the service stores it."""
    return json.loads((GOLDEN / f"{case}.report.json").read_text())


def page_of(report: dict) -> str:
    template = make_environment().get_template("job_report.html")
    return render_report(
        template,
        json.dumps(report),
        job=SimpleNamespace(id="val_titles", finished_at=None),
        view=JobView(),
        stored={},
        registry=build_registry(get_plugin_manager()),
        static_url=lambda path: f"/static/{path}",
    )


def test_an_issue_leads_with_its_headline_and_its_code_follows_small():
    page = page_of(golden_report("flawed_glb"))
    headline = '<strong class="issue-title">Too many materials (10, limit 8)</strong>'
    code = '<code class="issue-code">BUDGET_MATERIALS</code>'
    assert headline in page and code in page
    assert page.index(headline) < page.index(code)
    assert '<strong class="issue-title">Missing normals</strong>' in page


def test_a_security_finding_leads_with_its_title():
    page = page_of(golden_report("hostile_zip"))
    title = '<strong class="issue-title">Program or script inside the file</strong>'
    assert title in page
    assert page.index(title) < page.index('<code class="issue-code">EXECUTABLE_CONTENT</code>')


def test_a_report_stored_before_titles_shows_titles_made_from_the_codes():
    report = golden_report("flawed_glb")
    for group in report["issues"]:
        del group["title"]
        for occurrence in group["occurrences"]:
            occurrence.pop("headline", None)
    assert '<strong class="issue-title">Budget materials</strong>' in page_of(report)
