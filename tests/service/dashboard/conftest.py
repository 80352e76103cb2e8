"""Fixtures for the dashboard tests: real servers on loopback and a real Chromium.

The browser is Debian's Chromium (``/usr/bin/chromium``, installed by ``.ci/run``), driven by
Playwright from PyPI; Playwright's own browser downloads are never used. Browser tests skip,
saying why, when either is missing.
"""

from __future__ import annotations

import secrets
import shutil
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from assetcheck.service.accounts.store import create_account
from tests.service.conftest import (  # noqa: F401 (fixtures, used by name)
    backend,
    database,
    database_factory,
    postgres_databases,
)
from tests.service.dashboard.browser import (
    CHROMIUM,
    PASSWORD,
    TIMEOUT_MS,
    open_chromium,
    start_site,
)
from tests.service.harness import ServiceProcess, bind_database

ARTIFACTS = Path(__file__).resolve().parents[3] / "test-artifacts"
NO_PLAYWRIGHT = "browser tests need Playwright (pip install playwright)"


@dataclass
class Site:
    """A running service and a way to make accounts on it."""

    server: ServiceProcess

    @property
    def url(self) -> str:
        return self.server.url

    def account(self, plan: str = "pro") -> str:
        """A new account on ``plan`` with the password :data:`PASSWORD`; its email."""
        bind_database(self.server.config)
        email = f"artist-{secrets.token_hex(4)}@example.com"
        create_account(email, plan, list(self.server.config.plans), PASSWORD)
        return email


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    """A server shared by a module's tests (it already has accounts: no fresh install)."""
    server = start_site(tmp_path_factory.mktemp("dashboard"))
    site = Site(server)
    site.account()
    yield site
    server.stop()


@pytest.fixture
def fresh_site(tmp_path: Path) -> Iterator[Site]:
    """A server of its own, on an empty database: a fresh install."""
    server = start_site(tmp_path / "service")
    yield Site(server)
    server.stop()


# Package scope: Playwright's sync API keeps an event loop running in this thread until it
# stops, and later tests (webhook deliveries) run event loops of their own.
@pytest.fixture(scope="package")
def playwright_driver():
    sync_api = pytest.importorskip("playwright.sync_api", reason=NO_PLAYWRIGHT)
    if not CHROMIUM.exists():
        pytest.skip(
            f"browser tests need Debian's Chromium at {CHROMIUM} (apt-get install chromium)"
        )
    # Jobs run on the server's workers: give them time before an assertion gives up.
    sync_api.expect.set_options(timeout=TIMEOUT_MS)
    with sync_api.sync_playwright() as driver:
        yield driver


@pytest.fixture
def page(playwright_driver, tmp_path: Path):
    """A page in a fresh Chromium profile, 1280 px wide. The test fails on a script error, a
    console error (such as a resource the content security policy blocked) and any answer
    of the server with a 5xx status; 4xx answers are what some tests expect."""
    context = open_chromium(playwright_driver, tmp_path / "chromium-profile")
    errors: list[str] = []
    page = context.pages[0] if context.pages else context.new_page()
    page.on(
        "console",
        lambda message: (
            errors.append(message.text)
            if message.type == "error" and not message.text.startswith("Failed to load resource")
            else None
        ),
    )
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on(
        "response",
        lambda response: (
            errors.append(f"{response.status} {response.url}") if response.status >= 500 else None
        ),
    )
    yield page
    context.close()
    assert not errors, f"the page logged errors: {errors}"


@pytest.fixture(scope="session")
def artifacts() -> Path:
    """``test-artifacts/`` at the top of the repository (ignored by git), emptied once."""
    shutil.rmtree(ARTIFACTS / "dashboard", ignore_errors=True)
    (ARTIFACTS / "dashboard").mkdir(parents=True)
    return ARTIFACTS / "dashboard"


@pytest.fixture(scope="module")
def gallery(site: Site):
    """An account of ``site`` with something on every page (``gallery.py``), made once per
    module."""
    from tests.service.dashboard.gallery import make_gallery  # it imports this module

    return make_gallery(site)
