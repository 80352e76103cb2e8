"""Every page passes an axe-core audit (WCAG 2.1 A and AA, and axe's best practices) signed in
and out, on a desktop and on a phone, and works from the keyboard with a visible focus
(docs/dashboard.md, Accessibility).

axe-core is vendored under ``axe/`` (test-only: README.md there). The page's content security
policy stays on during the audit: the script is served to the page from its own origin by
the test (a Playwright route), never by the service.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from assetcheck.testing.shapes import pawn_glb
from tests.service.dashboard.conftest import Site
from tests.service.dashboard.gallery import PAGES, Gallery
from tests.service.dashboard.test_browser import NO_PLAYWRIGHT, drop_files, log_in
from tests.service.dashboard.test_layout import open_page, settle

sync_api = pytest.importorskip("playwright.sync_api", reason=NO_PLAYWRIGHT)
Page, expect = sync_api.Page, sync_api.expect

AXE = Path(__file__).with_name("axe")
AXE_VERSION = "4.14.1"
#: Where the test serves axe to the page: a path of the site's origin the service never has.
AXE_PATH = "/__test__/axe.min.js"
#: WCAG 2.0 and 2.1, levels A and AA, and axe's best practices.
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]
#: A desktop and a phone.
WIDTHS = (1280, 390)
RUN_AXE = """tags => axe.run(document, {runOnly: {type: "tag", values: tags},
                                         resultTypes: ["violations"]})"""
#: Everything the keyboard can reach: ``[[index in the document, outlined?], ...]``.
CONTROLS = """() => {
    const all = [...document.querySelectorAll("*")];
    const selector = "a[href], button, input:not([type=hidden]), select, textarea, summary, "
        + "[tabindex]";
    return [...document.querySelectorAll(selector)]
        .filter(e => e.tabIndex >= 0 && !e.disabled && e.checkVisibility())
        .map(e => all.indexOf(e));
}"""
#: The focused element (its index in the document) and whether its focus shows: its outline,
#: or for a file input hidden from sight, the outline of the label that stands for it.
FOCUSED = """() => {
    const e = document.activeElement;
    if (!e || e === document.body) return null;
    const shown = e.classList.contains("visually-hidden") && e.labels && e.labels.length
        ? e.labels[0] : e;
    const style = getComputedStyle(shown);
    const outlined = style.outlineStyle !== "none" && parseFloat(style.outlineWidth) >= 2;
    return [[...document.querySelectorAll("*")].indexOf(e), outlined, e.outerHTML.slice(0, 120)];
}"""


@pytest.fixture
def audited(page: Page, site: Site) -> Page:
    """The page, with axe served at :data:`AXE_PATH` of the site."""
    script = (AXE / "axe.min.js").read_bytes()
    page.route(
        f"{site.url}{AXE_PATH}",
        lambda route: route.fulfill(body=script, content_type="text/javascript"),
    )
    return page


def violations(page: Page, site: Site) -> list[str]:
    """What axe finds wrong with the page as it is now, one line per rule and element."""
    if not page.evaluate("typeof axe !== 'undefined'"):
        page.add_script_tag(url=f"{site.url}{AXE_PATH}")
    found = page.evaluate(RUN_AXE, AXE_TAGS)["violations"]
    return [
        f"{rule['id']} ({rule['impact']}): {rule['help']} at {node['target']}"
        for rule in found
        for node in rule["nodes"]
    ]


def test_the_vendored_axe_core_is_the_recorded_release():
    lines = (AXE / "SHA256SUMS").read_text().splitlines()
    sums = dict(reversed(line.split("  ")) for line in lines)
    assert set(sums) == {"axe.min.js", "LICENSE", "LICENSE-3RD-PARTY.txt"}
    for name, digest in sums.items():
        assert hashlib.sha256((AXE / name).read_bytes()).hexdigest() == digest, name
    header = (AXE / "axe.min.js").read_text()[:600]
    assert header.startswith(f"/*! axe v{AXE_VERSION}") and "Mozilla Public" in header
    assert f"**{AXE_VERSION}**" in (AXE / "README.md").read_text()


@pytest.mark.parametrize("name", PAGES)
def test_no_page_has_an_accessibility_violation_on_a_desktop_or_a_phone(
    site: Site, gallery: Gallery, audited: Page, name: str
):
    open_page(audited, site, gallery, name)
    for width in WIDTHS:
        audited.set_viewport_size({"width": width, "height": 900})
        audited.reload()
        settle(audited)
        assert violations(audited, site) == [], f"{name} at {width} px"


def test_pages_in_their_other_states_have_no_accessibility_violation(
    site: Site, gallery: Gallery, audited: Page
):
    """An upload list (one refused, one done), a refused filter, a missing job, a wrong
    password: what a person also meets."""
    audited.goto(f"{site.url}/login")
    audited.get_by_label("Email").fill(gallery.email)
    audited.get_by_label("Password").fill("not the password")
    audited.get_by_role("button", name="Log in").click()
    expect(audited.get_by_role("alert")).to_be_visible()
    assert violations(audited, site) == [], "a refused log-in"

    log_in(audited, site.url, gallery.email)
    drop_files(audited, {"notes.txt": b"not a model", "pawn.glb": pawn_glb()})
    expect(audited.locator(".upload-item", has_text="pawn.glb")).to_contain_text("Completed")
    expect(audited.locator(".upload-item.failed")).to_have_count(1)
    for width in WIDTHS:
        audited.set_viewport_size({"width": width, "height": 900})
        assert violations(audited, site) == [], f"an upload list at {width} px"
    for state, path in {
        "a refused filter": "/jobs?status=finished",
        "a missing job": "/jobs/val_doesnotexist",
    }.items():
        audited.goto(site.url + path)
        for width in WIDTHS:
            audited.set_viewport_size({"width": width, "height": 900})
            assert violations(audited, site) == [], f"{state} at {width} px"


@pytest.mark.parametrize("name", PAGES)
def test_the_tab_key_reaches_every_control_and_shows_where_the_focus_is(
    site: Site, gallery: Gallery, page: Page, name: str
):
    open_page(page, site, gallery, name)
    controls = page.evaluate(CONTROLS)
    reached, unseen = [], []
    for _ in range(len(controls) + 5):
        page.keyboard.press("Tab")
        focused = page.evaluate(FOCUSED)
        if focused is None or (reached and focused[0] == reached[0]):
            break  # past the last control, or round to the first again
        index, outlined, html = focused
        reached.append(index)
        if not outlined:
            unseen.append(html)
    assert set(controls) <= set(reached), f"{name}: Tab never reaches some controls"
    assert not unseen, f"{name}: focus without a visible outline on {unseen}"


def test_the_jobs_filter_and_an_issue_open_with_the_keyboard_alone(
    site: Site, gallery: Gallery, page: Page
):
    open_page(page, site, gallery, "jobs")
    tab_to(page, "#status")
    page.keyboard.type("Failed")  # a focused list box picks the option typed
    page.keyboard.press("Tab")
    expect(page.get_by_role("button", name="Filter")).to_be_focused()
    page.keyboard.press("Enter")
    expect(page).to_have_url(f"{site.url}/jobs?status=failed")
    expect(page.locator("table.jobs tbody tr")).to_have_count(1)

    open_page(page, site, gallery, "job-gltf")
    issue = page.locator("details.issue", has_text="MESH_ZERO_AREA_TRIANGLES")
    expect(issue).not_to_have_attribute("open", "")
    tab_to(page, "details.issue:has-text('MESH_ZERO_AREA_TRIANGLES') > summary")
    page.keyboard.press("Enter")
    expect(issue).to_have_attribute("open", "")
    expect(issue.get_by_text("How to fix")).to_be_visible()


def tab_to(page: Page, selector: str) -> None:
    """Press Tab until the element ``selector`` has the focus (at most once per control)."""
    target = page.locator(selector)
    for _ in range(len(page.evaluate(CONTROLS)) + 1):
        if target.evaluate("element => element === document.activeElement"):
            return
        page.keyboard.press("Tab")
    expect(target).to_be_focused()
