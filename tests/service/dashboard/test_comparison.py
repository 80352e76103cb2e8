"""The job page of a file uploaded again under the same name compares it with the previous
upload, in a real Chromium through the real worker: what changed, and both models side by
side, their cameras linked (docs/dashboard.md, Comparing with the previous upload)."""

from __future__ import annotations

from pathlib import Path

import pytest

from assetcheck.service.accounts.store import find_account, issue_key
from assetcheck.testing.gltf import GltfBuilder
from tests.service.dashboard.browser import log_in
from tests.service.dashboard.conftest import Site
from tests.service.dashboard.test_accessibility import (  # noqa: F401 (fixture, used by name)
    WIDTHS,
    audited,
    violations,
)
from tests.service.dashboard.test_viewer import checker_png, faulty_glb, pixels, textured_pawn
from tests.service.harness import upload, wait_for_job

sync_api = pytest.importorskip("playwright.sync_api", reason="browser tests need Playwright")
Page, expect = sync_api.Page, sync_api.expect


def retextured_pawn() -> bytes:
    """The textured pawn of :func:`faulty_glb` with its 40 duplicate triangles gone and its
    48 x 48 texture made 64 x 64: two findings fixed."""
    builder = GltfBuilder()
    texture = builder.add_texture(builder.add_image(checker_png(64)))
    builder.add_material("Checker", base_color_texture=texture)
    textured_pawn(builder)
    return builder.glb()


#: A model, then the same with fewer triangles and another texture.
ORIGINAL, DECIMATED = faulty_glb(), retextured_pawn()


def upload_twice(site: Site, page: Page) -> tuple[str, str]:
    """chair.glb, then its decimated version under the same name, by a new account logged in
    on ``page``: the two job ids."""
    email = site.account()
    key = issue_key(find_account(email), "comparison")[1]
    jobs = []
    for content in (ORIGINAL, DECIMATED):
        job_id = upload(site.url, key, content, filename="chair.glb").json()["job_id"]
        assert wait_for_job(site.url, key, job_id, timeout=120)["status"] == "completed"
        jobs.append(job_id)
    log_in(page, site.url, email)
    return jobs[0], jobs[1]


def camera(figure) -> str:
    return figure.get_attribute("data-camera")


def test_a_file_uploaded_again_is_compared_with_its_previous_upload_side_by_side(
    site: Site, page: Page, artifacts: Path
):
    first, second = upload_twice(site, page)
    page.goto(f"{site.url}/jobs/{first}")
    expect(page.get_by_role("heading", name="chair.glb")).to_be_visible()
    expect(page.locator("#comparison")).to_have_count(0)  # nothing uploaded before it

    page.goto(f"{site.url}/jobs/{second}")
    section = page.locator("#comparison")
    expect(section.get_by_role("link", name="previous upload of chair.glb")).to_have_attribute(
        "href", f"/jobs/{first}"
    )
    statistics = section.locator(".comparison-statistics")
    expect(statistics.get_by_role("row", name="Triangles")).to_contain_text("872 → 832")
    expect(statistics.get_by_role("row", name="Texture GPU memory")).to_be_visible()
    fixed = section.locator(".findings-fixed")
    expect(fixed).to_contain_text("MESH_DUPLICATE_TRIANGLES")
    expect(fixed).to_contain_text("IMAGE_NPOT_DIMENSIONS")

    previous, current = section.locator(".viewer").nth(0), section.locator(".viewer").nth(1)
    for figure in (previous, current):
        expect(figure).to_have_attribute("data-state", "ready", timeout=60_000)
    expect(previous).to_have_attribute("data-camera", camera(current))  # they start together
    start, before = camera(previous), pixels(page, previous)[0]

    current.locator("canvas").focus()
    page.keyboard.press("ArrowLeft")  # turn the new version: the previous one turns too
    expect(previous).not_to_have_attribute("data-camera", start)
    expect(previous).to_have_attribute("data-camera", camera(current))
    assert pixels(page, previous)[0] != before

    turned = camera(current)
    box = previous.locator("canvas").bounding_box()
    assert box is not None
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + 120, y + 40, steps=8)  # drag the previous version round
    page.mouse.up()
    expect(current).not_to_have_attribute("data-camera", turned)
    expect(current).to_have_attribute("data-camera", camera(previous))
    section.screenshot(path=artifacts / "job-comparison.png")


def test_the_comparison_has_no_accessibility_violation(site: Site, audited: Page):  # noqa: F811
    _, second = upload_twice(site, audited)
    audited.goto(f"{site.url}/jobs/{second}")
    for width in WIDTHS:
        audited.set_viewport_size({"width": width, "height": 900})
        audited.reload()
        for figure in audited.locator("#comparison .viewer").all():
            expect(figure).to_have_attribute("data-state", "ready", timeout=60_000)
        assert violations(audited, site) == [], f"the comparison at {width} px"
