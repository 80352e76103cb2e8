"""The dashboard in a real Chromium: what a newcomer does, start to finish, without docs."""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
import time
from pathlib import Path

import pytest
import requests

from assetcheck.service.webapp.handlers import XSRF_MESSAGE
from assetcheck.testing.shapes import pawn_glb
from tests.formats.obj.test_obj_reader import CUBE
from tests.service.dashboard.browser import log_in, sign_up
from tests.service.dashboard.conftest import NO_PLAYWRIGHT, PASSWORD, TIMEOUT_MS, Site
from tests.service.dashboard.receiver import start_receiver
from tests.service.harness import bearer, release_held

sync_api = pytest.importorskip("playwright.sync_api", reason=NO_PLAYWRIGHT)
Page, expect = sync_api.Page, sync_api.expect

DROP_FILES = """([zone, files]) => {
    const transfer = new DataTransfer();
    for (const [name, data] of files) {
        const bytes = Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
        transfer.items.add(new File([bytes], name));
    }
    const target = document.querySelector(zone);
    for (const type of ["dragenter", "dragover", "drop"]) {
        target.dispatchEvent(new DragEvent(type, {dataTransfer: transfer, bubbles: true,
                                                  cancelable: true}));
    }
}"""


def assert_no_sideways_scrolling(page: Page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def wait_until_ready(page: Page) -> None:
    """Wait until dashboard.js has attached its handlers (it marks the body once it has). A
    page shows before its deferred script runs: a drop, a click on Copy or Reveal or a
    confirmed form sent earlier finds no handler, and the browser does its default instead."""
    expect(page.locator("body")).to_have_attribute("data-ready", "true")


def drop_files(page: Page, files: dict[str, bytes]) -> None:
    encoded = [[name, base64.b64encode(data).decode()] for name, data in files.items()]
    wait_until_ready(page)
    page.evaluate(DROP_FILES, ["#dropzone", encoded])


def test_a_newcomer_signs_up_drops_a_glb_and_reads_its_report(
    fresh_site: Site, page: Page, artifacts: Path
):
    page.goto(fresh_site.url)
    expect(page).to_have_url(re.compile(r"/signup$"))  # a fresh install starts at sign-up
    sign_up(page, fresh_site.url, "lead@studio.example", plan="pro")
    expect(page.locator(".who")).to_contain_text("Pro plan")

    drop_files(page, {"pawns.glb": pawn_glb(copies=3)})
    item = page.locator(".upload-item", has_text="pawns.glb")
    expect(item).to_contain_text("Completed: health score")
    expect(item.locator(".chip.grade")).to_be_visible()
    item.get_by_role("link", name="Open the report").click()

    expect(page.get_by_role("heading", name="pawns.glb")).to_be_visible()
    expect(page.locator(".score-number")).to_have_text(re.compile(r"^\d{1,3}$"))
    expect(page.locator(".verdict")).to_contain_text("Any engine")
    # the server-drawn picture, in place until the 3D view is ready (then the view replaces it)
    preview = page.locator("img[alt='Preview of pawns.glb']")
    expect(preview).to_have_count(1)
    assert preview.evaluate("image => image.complete && image.naturalWidth") == 480
    stats = page.locator("table.stats tbody tr", has_text="pawns.glb")
    expect(stats).to_contain_text("448")  # the pawn's vertices
    expect(page.locator(".budget", has_text="Triangles per file")).to_contain_text("832")
    expect(page.locator("details.issue", has_text="MESH_MISSING_NORMALS")).to_contain_text(
        "How to fix"
    )
    expect(page.get_by_role("link", name="JSON report (.json)")).to_be_visible()
    badge = page.get_by_role("img", name=re.compile("AssetCheck badge"))
    assert badge.evaluate("image => image.complete && image.naturalWidth") > 0
    snippet = page.get_by_label("Markdown for a README").input_value()
    assert re.fullmatch(rf"!\[AssetCheck\]\({fresh_site.url}/badge/val_\w+/\w+\.svg\)", snippet)
    for width in (1280, 1920):  # readable from a laptop to a wide desktop screen
        page.set_viewport_size({"width": width, "height": 1000})
        assert_no_sideways_scrolling(page)
        page.screenshot(path=artifacts / f"job-page-{width}.png", full_page=True)

    with page.expect_download() as download:
        page.get_by_role("link", name="Markdown report (.md)").click()
    assert download.value.suggested_filename.endswith("-report.md")
    assert "pawns.glb" in Path(download.value.path()).read_text()


def test_the_file_picker_uploads_several_files_each_as_its_own_job(
    site: Site, page: Page, artifacts: Path
):
    log_in(page, site.url, site.account())
    page.get_by_label("Engine").select_option("web")
    with page.expect_file_chooser() as chooser:
        page.get_by_text("Choose files…").click()
    chooser.value.set_files(
        [
            {"name": "one.glb", "mimeType": "model/gltf-binary", "buffer": pawn_glb()},
            {"name": "two.glb", "mimeType": "model/gltf-binary", "buffer": pawn_glb(copies=2)},
        ]
    )
    for name in ("one.glb", "two.glb"):
        expect(page.locator(".upload-item", has_text=name)).to_contain_text("Completed")
    drop_files(page, {"three.glb": pawn_glb(copies=3)})
    expect(page.locator(".upload-item", has_text="three.glb")).to_contain_text("Completed")
    page.screenshot(path=artifacts / "upload.png", full_page=True)

    page.get_by_role("link", name="Jobs", exact=True).click()
    rows = page.locator("table.jobs tbody tr")
    expect(rows).to_have_count(3)
    expect(rows.first).to_contain_text("three.glb")  # newest first
    expect(rows.first).to_contain_text("web")
    page.screenshot(path=artifacts / "jobs.png", full_page=True)
    page.get_by_label("Status").select_option("failed")
    page.get_by_role("button", name="Filter").click()
    expect(page.get_by_text("No failed jobs.")).to_be_visible()


def test_an_obj_dropped_on_the_upload_page_completes_and_its_page_shows_it(site: Site, page: Page):
    log_in(page, site.url, site.account())
    expect(page.locator("#files")).to_have_attribute("accept", re.compile(r"\.obj"))
    drop_files(page, {"cube.obj": CUBE})
    item = page.locator(".upload-item", has_text="cube.obj")
    expect(item).to_contain_text("Completed")
    item.get_by_role("link").first.click()
    expect(page.locator("main")).to_contain_text("OBJ_MISSING_MTL")  # it came alone
    viewer = page.locator('.viewer[data-filename="cube.obj"]')
    expect(viewer).to_have_attribute("data-state", "ready", timeout=60_000)


def test_a_file_that_is_no_model_is_refused_next_to_its_name(site: Site, page: Page):
    log_in(page, site.url, site.account())
    drop_files(page, {"notes.txt": b"just some notes, not a model"})
    item = page.locator(".upload-item", has_text="notes.txt")
    expect(item).to_contain_text("not a GLB, glTF, FBX, OBJ, USD or ZIP file")
    expect(item).to_have_class(re.compile("failed"))


def test_an_upload_from_a_page_whose_token_is_stale_says_to_reload_it(site: Site, page: Page):
    log_in(page, site.url, site.account())
    stale = "2|00000000|" + "0" * 32 + "|1"  # the cookie another session would have set
    page.context.add_cookies([{"name": "_xsrf", "value": stale, "url": site.url}])
    drop_files(page, {"pawn.glb": pawn_glb()})
    item = page.locator(".upload-item", has_text="pawn.glb")
    expect(item).to_contain_text(XSRF_MESSAGE)
    expect(item).to_have_class(re.compile("failed"))


def test_a_key_created_in_the_profile_works_against_the_api_until_revoked(
    site: Site, page: Page, artifacts: Path
):
    log_in(page, site.url, site.account("pro"))
    page.get_by_role("link", name="Profile").click()
    page.get_by_label("Name (optional)").fill("CI pipeline")
    page.get_by_label("Expires").select_option("30")
    page.get_by_role("button", name="Create key").click()

    expect(page.get_by_text("you will not see it again")).to_be_visible()
    key = page.get_by_label("New API key").input_value()
    assert re.fullmatch(r"svc_[A-Za-z0-9]{32}", key)
    wait_until_ready(page)
    page.get_by_role("button", name="Copy").click()
    expect(page.get_by_role("button", name=re.compile("Copied|Ctrl\\+C"))).to_be_visible()
    assert_no_sideways_scrolling(page)
    page.screenshot(path=artifacts / "profile-new-key.png", full_page=True)
    assert (
        requests.get(f"{site.url}/api/v1/validate", headers=bearer(key), timeout=10).status_code
        == 200
    )

    page.goto(f"{site.url}/profile")  # the key is never shown again, only its prefix
    expect(page.get_by_label("New API key")).to_have_count(0)
    row = page.locator("table.keys tbody tr", has_text="CI pipeline")
    expect(row).to_contain_text(key[:12])
    expect(row).to_contain_text("active")
    wait_until_ready(page)  # the confirmation is the script's: without it the form just posts
    page.once("dialog", lambda dialog: dialog.accept())
    row.get_by_role("button", name=re.compile("Revoke")).click()
    expect(page.get_by_text("The key was revoked")).to_be_visible()
    expect(row).to_contain_text("revoked")

    answer = requests.get(f"{site.url}/api/v1/validate", headers=bearer(key), timeout=10)
    assert answer.status_code == 401 and answer.json()["code"] == "API_KEY_REVOKED"


def test_a_revocation_can_be_cancelled_at_the_confirmation(site: Site, page: Page):
    log_in(page, site.url, site.account("pro"))
    page.goto(f"{site.url}/profile")
    page.get_by_role("button", name="Create key").click()
    key = page.get_by_label("New API key").input_value()
    wait_until_ready(page)  # else the form posts unconfirmed, and the key is revoked
    page.once("dialog", lambda dialog: dialog.dismiss())
    page.get_by_role("button", name=re.compile("Revoke")).click()
    expect(page.locator("table.keys")).to_contain_text("active")
    assert (
        requests.get(f"{site.url}/api/v1/validate", headers=bearer(key), timeout=10).status_code
        == 200
    )


def test_a_free_account_signed_up_on_the_page_is_offered_no_key(
    site: Site, page: Page, artifacts: Path
):
    sign_up(page, site.url, "newcomer@studio.example")
    expect(page.locator(".who")).to_contain_text("Free plan")
    page.get_by_role("link", name="Profile").click()
    expect(page.locator("#no-api-access")).to_contain_text(
        "API keys and webhooks come with the Starter, Pro and Enterprise plans"
    )
    expect(page.get_by_role("button", name="Create key")).to_have_count(0)
    page.screenshot(path=artifacts / "profile-free.png", full_page=True)

    page.get_by_role("link", name="Webhooks").click()
    expect(page.locator("#no-webhooks")).to_be_visible()
    expect(page.get_by_label("Webhook URL")).to_have_count(0)
    page.get_by_role("link", name="Upload").click()  # uploads work on every plan
    drop_files(page, {"free.glb": pawn_glb()})
    expect(page.locator(".upload-item", has_text="free.glb")).to_contain_text("Completed")


def test_a_wrong_password_is_shown_on_the_form_and_the_right_one_logs_in(site: Site, page: Page):
    email = site.account()
    page.goto(f"{site.url}/jobs")
    expect(page).to_have_url(re.compile(r"/login\?next=%2Fjobs$"))
    page.get_by_label("Email").fill(email)
    page.get_by_label("Password").fill("not the password")
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("alert")).to_have_text("Wrong email or password.")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", name="Jobs")).to_be_visible()
    page.get_by_role("button", name="Log out").click()
    expect(page).to_have_url(re.compile(r"/login$"))


def test_webhook_settings_change_the_url_reveal_the_secret_and_log_deliveries(
    site: Site, page: Page, artifacts: Path
):
    receiver = start_receiver()
    try:
        # Pro: the test site gives Starter 3 requests a minute, and this test makes more.
        log_in(page, site.url, site.account("pro"))
        page.get_by_role("link", name="Webhooks").click()
        url_field = page.get_by_label("Webhook URL")
        url_field.fill("http://127.0.0.2:9/hooks")  # loopback, but outside the allowlist
        page.get_by_role("button", name="Save URL").click()
        expect(page.locator("#webhook_url-error")).to_contain_text("refused")
        expect(url_field).to_have_value("http://127.0.0.2:9/hooks")

        url_field.fill(receiver.url)
        page.get_by_role("button", name="Save URL").click()
        expect(page.get_by_role("status")).to_contain_text("The webhook URL was saved")
        expect(url_field).to_have_value(receiver.url)

        wait_until_ready(page)
        page.get_by_role("button", name="Reveal").click()
        secret_field = page.get_by_label("Secret", exact=True)
        expect(secret_field).to_have_value(re.compile(r"^whsec_[A-Za-z0-9]{32}$"))
        secret = secret_field.input_value()

        page.get_by_role("button", name="Send test event").click()
        expect(page.get_by_role("status")).to_contain_text("A test event (ping) is on its way")
        row = page.locator("table.deliveries tbody tr").first
        refresh_until(page, row, "delivered")
        # A busy machine may fail the first attempt and deliver on a retry: count what was made.
        row.locator("summary").click()
        attempts = row.locator("ol.attempts li")
        expect(attempts.last).to_contain_text("HTTP 204")
        made = attempts.count()
        ping = receiver.requests[-1]
        expected = hmac.new(secret.encode(), ping.body, hashlib.sha256).hexdigest()
        assert ping.headers["x-service-signature"] == expected

        row.get_by_role("button", name=re.compile("Redeliver")).click()
        expect(page.get_by_role("status")).to_contain_text("queued again")
        refresh_until(page, page.locator("table.deliveries tbody tr").first, f"{made + 1} attempts")
        assert receiver.requests[-1].headers["webhook-id"] == ping.headers["webhook-id"]

        wait_until_ready(page)
        page.once("dialog", lambda dialog: dialog.accept())
        page.get_by_role("button", name="Rotate secret").click()
        expect(page.get_by_text("The previous secret also signs deliveries until")).to_be_visible()
        assert_no_sideways_scrolling(page)
        page.screenshot(path=artifacts / "webhooks.png", full_page=True)
    finally:
        receiver.stop()


def refresh_until(page: Page, locator, text: str) -> None:
    """Follow the page's Refresh link until ``locator`` shows ``text`` (deliveries are sent
    by the service's scheduler, so the log changes without the page knowing), for as long as
    any other wait of these tests (a count of refreshes runs out sooner on a slow machine)."""
    deadline = time.monotonic() + TIMEOUT_MS / 1000
    while text not in (locator.text_content() or "") and time.monotonic() < deadline:
        page.wait_for_timeout(250)  # the pace of the polling: the scheduler ticks every second
        # Read the log only once the new page is in: a read racing the navigation sees the old
        # page, and the caller's next click would land on a page about to go away.
        with page.expect_navigation():
            page.get_by_role("link", name="Refresh").click()
    expect(locator).to_contain_text(text)


def test_a_job_page_opened_while_the_job_runs_turns_into_its_report(
    site: Site, page: Page, artifacts: Path
):
    log_in(page, site.url, site.account())
    drop_files(page, {"held-pawn.glb": pawn_glb()})  # the test check holds it till released
    item = page.locator(".upload-item", has_text="held-pawn.glb")
    item.get_by_role("link", name="Job page").click()
    expect(page.get_by_role("heading", name="Validating…")).to_be_visible()
    expect(page.locator("#job-progress-text")).to_contain_text(re.compile("Queued|Processing"))
    page.screenshot(path=artifacts / "job-running.png", full_page=True)
    release_held(site.server.config_path.parent, "held-pawn.glb")
    expect(page.locator(".score-number")).to_be_visible()
    expect(page.get_by_role("heading", name="Validating…")).to_have_count(0)


def test_an_unknown_job_is_a_page_that_says_so(site: Site, page: Page):
    log_in(page, site.url, site.account())
    answer = page.goto(f"{site.url}/jobs/val_doesnotexist")
    assert answer.status == 404
    expect(page.get_by_role("heading", name="Not found")).to_be_visible()
    expect(page.get_by_text("No job val_doesnotexist exists for this account.")).to_be_visible()


def test_the_upload_page_works_from_the_keyboard_with_a_visible_focus(site: Site, page: Page):
    email = site.account()
    page.goto(f"{site.url}/login")
    page.keyboard.press("Tab")  # the first stop is the skip link
    expect(page.get_by_role("link", name="Skip to content")).to_be_focused()
    page.get_by_label("Email").focus()
    page.keyboard.type(email)
    page.keyboard.press("Tab")
    page.keyboard.type(PASSWORD)
    page.keyboard.press("Enter")
    expect(page.get_by_role("heading", name="Check your 3D assets")).to_be_visible()

    for _ in range(20):
        if page.evaluate("document.activeElement.id") == "files":
            break
        page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "files"
    label = page.locator("label[for=files]")  # it shows where the hidden input's focus is
    assert label.evaluate("label => getComputedStyle(label).outlineStyle") == "solid"
    with page.expect_file_chooser() as chooser:
        # Opening this block asks Chromium, over DevTools, to catch the chooser, and does not
        # wait for the answer; a key press travels another way and could overtake the request:
        # Chromium then opens its own (unseen) chooser and the test waits for nothing. An
        # assertion on the page is a DevTools round trip answered after the request is in.
        expect(page.locator("#files")).to_be_focused()
        page.keyboard.press("Space")
    chooser.value.set_files(
        [{"name": "keys.glb", "mimeType": "model/gltf-binary", "buffer": pawn_glb()}]
    )
    expect(page.locator(".upload-item", has_text="keys.glb")).to_contain_text("Completed")


def test_files_chosen_before_the_page_script_runs_are_uploaded_when_it_does(site: Site, page: Page):
    # The picker opens without the page's script (it is the input's own): the script, deferred,
    # may come later than a quick hand, so it must not lose what was chosen in the meantime.
    log_in(page, site.url, site.account())
    script = page.locator("script[src*='dashboard.js']").get_attribute("src")
    page.route("**/static/dashboard.js*", lambda route: route.abort())
    page.reload()
    with page.expect_file_chooser() as chooser:
        page.get_by_text("Choose files…").click()
    chooser.value.set_files(
        [{"name": "early.glb", "mimeType": "model/gltf-binary", "buffer": pawn_glb()}]
    )
    expect(page.locator("body")).not_to_have_attribute("data-ready", "true")
    expect(page.locator(".upload-item")).to_have_count(0)
    page.unroute("**/static/dashboard.js*")
    page.add_script_tag(url=script)  # the script comes at last
    expect(page.locator(".upload-item", has_text="early.glb")).to_contain_text("Completed")


def test_deleting_a_job_from_its_page_asks_first_then_removes_it_and_its_files(
    site: Site, page: Page, artifacts: Path
):
    log_in(page, site.url, site.account())
    drop_files(page, {"doomed-pawn.glb": pawn_glb()})
    page.locator(".upload-item", has_text="doomed-pawn.glb").get_by_role(
        "link", name="Job page"
    ).click()
    expect(page.locator(".score-number")).to_be_visible()
    job_id = page.url.rsplit("/", 1)[-1]
    folder = site.server.config.storage.data_dir / "jobs" / job_id
    assert (folder / "upload").is_file()
    page.screenshot(path=artifacts / "job-with-delete-button.png", full_page=True)
    questions: list[str] = []

    wait_until_ready(page)  # the confirmation is the script's: without it the form just posts
    page.once("dialog", lambda dialog: (questions.append(dialog.message), dialog.dismiss()))
    page.get_by_role("button", name="Delete job").click()
    expect(page.locator(".score-number")).to_be_visible()
    assert page.url.endswith(f"/jobs/{job_id}") and folder.is_dir()

    page.once("dialog", lambda dialog: (questions.append(dialog.message), dialog.accept()))
    page.get_by_role("button", name="Delete job").click()
    expect(page.get_by_text("The job and everything stored of it were deleted.")).to_be_visible()
    assert all("doomed-pawn.glb" in question for question in questions) and len(questions) == 2
    assert not folder.exists()
    expect(page.get_by_text("doomed-pawn.glb")).to_have_count(0)
    assert page.goto(f"{site.url}/jobs/{job_id}").status == 404
