"""A real service on loopback and Debian's Chromium driven by Playwright, for the dashboard's
tests and for the tools that drive its pages (``bench/viewer_first_frame.py``,
``tools/dashboard_screenshots.py``).

The browser is Debian's Chromium (``/usr/bin/chromium``); Playwright's own browser downloads
are never used. Nothing here imports Playwright: its callers hand in the driver.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from tests.service.harness import ServiceProcess, service_settings, write_config

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PASSWORD = "correct horse battery"
TIMEOUT_MS = 20_000
#: The heading of the upload page, where signing up and logging in end.
UPLOAD_HEADING = "Check your 3D assets"


def start_site(folder: Path, **overrides: Any) -> ServiceProcess:
    """``assetcheck serve`` on SQLite in ``folder``, with the harness's test settings;
    webhooks may go to receivers on 127.0.0.1 (and nowhere else off the internet), and a job
    may take minutes: a busy machine must not fail the pages' jobs with a time limit.
    ``overrides`` change settings by section, as in
    :func:`~tests.service.harness.service_settings`."""
    sections: dict[str, dict[str, Any]] = {
        "webhooks": {"allowed_cidrs": ["127.0.0.1/32"]},
        "workers": {"job_timeout": 300},
    }
    for section, values in overrides.items():
        sections.setdefault(section, {}).update(values)
    return ServiceProcess(write_config(folder, service_settings(folder, "", **sections))).start()


def open_chromium(
    driver: Any, profile: Path, *, width: int = 1280, height: int = 900, args: Iterable[str] = ()
) -> Any:
    """A headless Chromium with a fresh profile in ``profile`` and a ``width`` x ``height``
    viewport (a Playwright browser context; ``driver`` is a running sync Playwright)."""
    context = driver.chromium.launch_persistent_context(
        profile,
        executable_path=str(CHROMIUM),
        args=[*CHROMIUM_ARGS, *args],
        headless=True,
        viewport={"width": width, "height": height},
        accept_downloads=True,
    )
    context.set_default_timeout(TIMEOUT_MS)
    return context


def sign_up(page: Any, url: str, email: str, plan: str | None = None) -> None:
    """Sign ``email`` up with :data:`PASSWORD` on the sign-up page (``plan`` is offered to the
    first account of a fresh install only), and wait for the upload page."""
    page.goto(f"{url}/signup")
    page.get_by_label("Email").fill(email)
    page.get_by_label("Password").fill(PASSWORD)
    if plan is not None:
        page.get_by_label("Plan").select_option(plan)
    page.get_by_role("button", name="Create account").click()
    page.get_by_role("heading", name=UPLOAD_HEADING).wait_for()


def log_in(page: Any, url: str, email: str) -> None:
    """Log ``email`` in with :data:`PASSWORD`, and wait for the upload page."""
    page.goto(f"{url}/login")
    page.get_by_label("Email").fill(email)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.get_by_role("heading", name=UPLOAD_HEADING).wait_for()
