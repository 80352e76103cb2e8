"""Pages that fit what they show, from a 360 px phone to a desktop (docs/dashboard.md, Small
screens): no page scrolls sideways, long names end in an ellipsis, a failure says what to do."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from assetcheck.issues.names import cut_name
from assetcheck.plugins.manager import get_plugin_manager
from assetcheck.reports import report_formats
from assetcheck.service.dashboard.sessions import SESSION_COOKIE
from assetcheck.testing.shapes import pawn_glb
from tests.service.dashboard.conftest import Site
from tests.service.dashboard.gallery import (
    LONG_NAME,
    PAGES,
    SIGNED_OUT_PAGES,
    Gallery,
)
from tests.service.dashboard.test_browser import (
    NO_PLAYWRIGHT,
    assert_no_sideways_scrolling,
    drop_files,
    log_in,
    wait_until_ready,
)

sync_api = pytest.importorskip("playwright.sync_api", reason=NO_PLAYWRIGHT)
Page, expect = sync_api.Page, sync_api.expect

#: A small phone, a common phone, a tablet upright.
NARROW_WIDTHS = (360, 390, 768)
#: The 3D viewer of a small model loads with its page; layouts are measured once it has.
VIEWER_TIMEOUT_MS = 60_000
CRITICAL_RED = "rgb(196, 50, 31)"
ACCENT_BLUE = "rgb(36, 86, 201)"


def open_page(page: Page, site: Site, gallery: Gallery, name: str) -> None:
    """Open the gallery's page ``name`` (logging in first for an account's page) and wait
    until its scripts have run and each 3D view that loads by itself is drawn."""
    signed_in = any(cookie["name"] == SESSION_COOKIE for cookie in page.context.cookies())
    if name not in SIGNED_OUT_PAGES and not signed_in:
        log_in(page, site.url, gallery.email)
    page.goto(site.url + gallery.path(name))
    settle(page)


def settle(page: Page) -> None:
    """Wait until dashboard.js has run and each 3D view that loads with the page is drawn."""
    wait_until_ready(page)
    for viewer in page.locator('.viewer[data-autoload="true"]').all():
        expect(viewer).to_have_attribute("data-state", "ready", timeout=VIEWER_TIMEOUT_MS)


@pytest.mark.parametrize("name", PAGES)
def test_no_page_scrolls_sideways_on_a_phone_or_a_tablet(
    site: Site, gallery: Gallery, page: Page, artifacts: Path, name: str
):
    open_page(page, site, gallery, name)
    for width in NARROW_WIDTHS:
        page.set_viewport_size({"width": width, "height": 800})
        page.reload()
        settle(page)
        scroll_width = page.evaluate("document.documentElement.scrollWidth")
        assert scroll_width <= width, f"{name} is {scroll_width} px wide at {width} px"
        page.screenshot(path=artifacts / f"layout-{name}-{width}.png", full_page=True)


def test_the_header_keeps_its_navigation_and_account_inside_on_a_phone(
    site: Site, gallery: Gallery, page: Page
):
    page.set_viewport_size({"width": 360, "height": 800})
    open_page(page, site, gallery, "jobs")
    header = page.locator(".top-bar").bounding_box()
    top, bottom = header["y"], header["y"] + header["height"]
    for control in (
        *(page.get_by_role("link", name=label, exact=True) for label in ("Upload", "Jobs")),
        page.get_by_role("link", name="Profile"),
        page.get_by_role("link", name="Webhooks"),
        page.get_by_role("button", name="Log out"),
        page.locator(".who .plan"),
    ):
        box = control.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 360
        assert top <= box["y"] and box["y"] + box["height"] <= bottom
    expect(page.locator(".who .email")).to_have_attribute("title", gallery.email)


@pytest.mark.parametrize("width", [1280, 390])
def test_a_5000_character_name_ends_in_an_ellipsis_with_the_whole_name_on_hover(
    site: Site, gallery: Gallery, page: Page, width: int
):
    kept = cut_name(LONG_NAME)
    page.set_viewport_size({"width": width, "height": 900})
    open_page(page, site, gallery, "jobs")
    link = page.locator("table.jobs a.file-name", has_text=kept[:40])
    expect(link).to_have_attribute("title", kept)
    assert link.evaluate("a => getComputedStyle(a).textOverflow") == "ellipsis"
    assert link.evaluate("a => a.scrollWidth > a.clientWidth")  # cut short on the screen
    table = page.locator("table.jobs").bounding_box()
    card = page.locator("table.jobs").locator("xpath=ancestor::section[1]").bounding_box()
    assert table["x"] + table["width"] <= card["x"] + card["width"]
    assert_no_sideways_scrolling(page)

    link.click()
    heading = page.get_by_role("heading", level=1)
    expect(heading).to_have_text(kept)  # all of it for screen readers and searches
    expect(heading).to_have_attribute("title", kept)
    assert heading.evaluate("h => h.scrollHeight > h.clientHeight")  # two lines, then "…"
    line_height = heading.evaluate("h => parseFloat(getComputedStyle(h).lineHeight)")
    assert heading.bounding_box()["height"] <= 2 * line_height + 1
    assert_no_sideways_scrolling(page)


@pytest.mark.parametrize("width", [1280, 390])
def test_a_refused_upload_shows_a_red_bar_and_all_bars_have_one_width(
    site: Site, page: Page, artifacts: Path, width: int
):
    page.set_viewport_size({"width": width, "height": 900})
    log_in(page, site.url, site.account())
    drop_files(
        page,
        {
            "notes.txt": b"just some notes, not a model",
            "p.glb": pawn_glb(),
            "a-pawn-with-a-much-longer-name-than-the-others.glb": pawn_glb(copies=2),
        },
    )
    refused = page.locator(".upload-item", has_text="notes.txt")
    expect(refused).to_contain_text("not a GLB, glTF, FBX, OBJ, USD or ZIP file")
    for name in ("p.glb", "a-pawn-with-a-much-longer-name-than-the-others.glb"):
        expect(page.locator(".upload-item", has_text=name)).to_contain_text("Completed")
    bars = page.locator(".upload-item progress")
    colours = [bar.evaluate("bar => getComputedStyle(bar).accentColor") for bar in bars.all()]
    assert colours == [CRITICAL_RED, ACCENT_BLUE, ACCENT_BLUE]
    widths = {round(bar.bounding_box()["width"]) for bar in bars.all()}
    assert len(widths) == 1, widths
    assert_no_sideways_scrolling(page)
    page.screenshot(path=artifacts / f"upload-list-{width}.png", full_page=True)


def test_a_failed_job_page_says_what_to_do_in_the_words_of_its_report(
    site: Site, gallery: Gallery, page: Page
):
    open_page(page, site, gallery, "job-failed")
    job_id = gallery.jobs["failed"]
    error = page.request.get(f"{site.url}/jobs/{job_id}/report/json").json()["job"]["error"]
    alert = page.get_by_role("alert")
    expect(alert).to_contain_text("The validation could not be done")
    expect(alert).to_contain_text(error["code"])
    expect(page.locator("#failure-advice")).to_have_text(f"What to do: {error['advice']}")
    expect(page.get_by_role("heading", name=re.compile("Budgets"))).to_have_count(0)


def test_a_file_that_could_not_be_read_has_no_budgets_only_its_issues(
    site: Site, gallery: Gallery, page: Page
):
    open_page(page, site, gallery, "job-unreadable")
    expect(page.get_by_role("heading", name="Issues")).to_be_visible()
    expect(page.locator("details.issue", has_text="GLB_LENGTH_MISMATCH")).to_be_visible()
    expect(page.get_by_role("heading", name=re.compile("Budgets"))).to_have_count(0)
    expect(page.get_by_text("/ 2,000,000")).to_have_count(0)


def test_the_reports_card_offers_every_format_the_api_serves(
    site: Site, gallery: Gallery, page: Page
):
    formats = report_formats(get_plugin_manager())
    files = [name for name, kind in formats.items() if not kind.content_type.startswith("image/")]
    assert {"json", "markdown", "junit", "text", "sarif"} <= set(files)
    for kind in ("gltf", "failed"):
        open_page(page, site, gallery, f"job-{kind}")
        links = page.locator("a[download]")
        hrefs = [link.get_attribute("href") for link in links.all()]
        assert hrefs == [f"/jobs/{gallery.jobs[kind]}/report/{name}" for name in files]
        for href in hrefs:
            assert page.request.get(site.url + href).status == 200, href
    open_page(page, site, gallery, "job-gltf")
    expect(page.get_by_role("link", name="Text report (.txt)")).to_be_visible()
    expect(page.get_by_role("link", name="SARIF report (.sarif)")).to_be_visible()


def test_a_status_filter_that_does_not_exist_shows_the_list_and_says_so(
    site: Site, gallery: Gallery, page: Page
):
    open_page(page, site, gallery, "jobs")
    answer = page.goto(f"{site.url}/jobs?status=finished")
    assert answer is not None and answer.status == 400
    expect(page.get_by_role("alert")).to_have_text(
        "There is no status “finished”: all jobs are shown."
    )
    expect(page.locator("table.jobs tbody tr")).to_have_count(len(gallery.jobs))
    expect(page.get_by_label("Status")).to_have_value("")

    answer = page.goto(f"{site.url}/jobs?cursor=not-a-cursor")
    assert answer is not None and answer.status == 400
    expect(page.get_by_role("alert")).to_contain_text("the newest are shown")
    expect(page.locator("table.jobs tbody tr")).to_have_count(len(gallery.jobs))
