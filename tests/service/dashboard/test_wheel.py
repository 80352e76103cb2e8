"""The built wheel carries the dashboard (web/ as assetcheck/web) and serves it installed."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
import requests

from tests.service.harness import ServiceProcess, service_settings, write_config
from tests.wheels import build_wheel

SHIPPED = (
    "assetcheck/web/templates/base.html",
    "assetcheck/web/templates/job.html",
    "assetcheck/web/static/dashboard.css",
    "assetcheck/web/static/dashboard.js",
    "assetcheck/web/static/viewer.js",
    "assetcheck/web/static/vendor/three.bundle.min.js",
    "assetcheck/web/static/vendor/three.LICENSE",
    "assetcheck/scaffold/template/package/__init__.py.tmpl",
    "assetcheck/testing/pytest_plugin.py",
)


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The project built into a wheel, offline: with the installed hatchling, no index."""
    pytest.importorskip(
        "hatchling", reason="building the wheel offline needs hatchling (it is in the test extras)"
    )
    return build_wheel(tmp_path_factory.mktemp("wheel"))


@pytest.mark.slow
def test_the_wheel_ships_the_templates_and_static_files_inside_the_package(wheel: Path):
    names = set(zipfile.ZipFile(wheel).namelist())
    assert set(SHIPPED) <= names
    assert not any(name.startswith("web/") for name in names)


@pytest.mark.slow
def test_the_installed_wheel_serves_the_dashboard(
    wheel: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    site = tmp_path / "site"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--no-deps",
            "--no-index",
            "--quiet",
            "--target",
            str(site),
            str(wheel),
        ],
        check=True,
    )
    # The server imports the installed copy: its folder first, and not run from the checkout.
    monkeypatch.setenv("PYTHONPATH", str(site))
    monkeypatch.chdir(tmp_path)
    web_root = subprocess.run(
        [
            sys.executable,
            "-c",
            "from assetcheck.service.dashboard import WEB_ROOT; print(WEB_ROOT)",
        ],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    assert Path(web_root) == site / "assetcheck" / "web"

    config = write_config(tmp_path, service_settings(tmp_path, ""))
    server = ServiceProcess(config).start()
    try:
        page = requests.get(f"{server.url}/signup", timeout=10)
        assert page.status_code == 200 and "Create an account" in page.text
        stylesheet = requests.get(f"{server.url}/static/dashboard.css", timeout=10)
        assert stylesheet.status_code == 200 and "--accent" in stylesheet.text
        three = requests.get(f"{server.url}/static/vendor/three.bundle.min.js", timeout=10)
        assert three.status_code == 200 and three.text.startswith("/* three.js ")
    finally:
        server.stop()
