"""A USDZ's statistics in every report format, and through the command line."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

import pytest

from assetcheck.cli import main
from assetcheck.engine import validate
from assetcheck.plugins.manager import get_plugin_manager
from assetcheck.reports import render, report_formats
from assetcheck.reports.document import build_report
from tests.formats.usd.test_usd_reader import ASSETS, TRIANGLE

PM = get_plugin_manager()
#: The formats that present statistics; the others (badge, JUnit, SARIF) show the grade and
#: the issues only, for a USDZ as for any format.
WITH_STATISTICS = {"json", "markdown", "text"}


@pytest.fixture(scope="module")
def report():
    return build_report(validate(ASSETS / "cube.usdz"))


def test_the_report_lists_the_usdz_with_its_format_and_facts(report):
    (file,) = report["files"]
    assert (file["filename"], file["format"]) == ("cube.usdz", "usd")
    assert file["details"] == {
        "encoding": "usdz",
        "up_axis": "Y",
        "meters_per_unit": 1.0,
        "default_prim": "Root",
        "prims": 6,
        "meshes": 1,
        "time_codes_per_second": 24.0,
    }
    (mesh,) = report["result"]["meshes"]
    assert (mesh["vertexCount"], mesh["triangleCount"], mesh["animationCount"]) == (8, 12, 2)
    assert mesh["usesPBR"] is True


@pytest.mark.parametrize("name", sorted(report_formats(PM)))
def test_every_report_format_renders_a_usdz(report, name):
    text, _ = render(PM, report, name)

    assert text
    if name in WITH_STATISTICS:
        assert "cube.usdz" in text
        assert "12" in text and "8" in text


def test_the_command_line_validates_a_usdz_and_a_hostile_one_fails_it():
    program = "import sys; from assetcheck.cli import main; sys.exit(main(sys.argv[1:]))"
    run = [sys.executable, "-c", program, "validate", "--format", "json"]
    clean = subprocess.run([*run, str(ASSETS / "cube.usdz")], capture_output=True, check=False)
    hostile = subprocess.run([*run, str(ASSETS / "leaving.usdz")], capture_output=True, check=False)

    assert clean.returncode == 0, clean.stderr
    assert json.loads(clean.stdout)["result"]["meshes"][0]["triangleCount"] == 12
    assert hostile.returncode == 1
    warnings = json.loads(hostile.stdout)["result"]["securityScan"]["warnings"]
    assert [w["code"] for w in warnings] == ["USD_PATH_TRAVERSAL"]
    assert b"Warning" not in clean.stderr + hostile.stderr  # USD's own diagnostics stay quiet


def test_a_folder_yields_its_usd_files_by_their_extensions(capsys, tmp_path):
    shutil.copy(ASSETS / "cube.usdz", tmp_path / "cube.usdz")
    (tmp_path / "tri.usda").write_bytes(TRIANGLE)
    (tmp_path / "notes.txt").write_text("not a model")

    status = main(["validate", "--format", "json", str(tmp_path)])

    reports = json.loads(capsys.readouterr().out)
    assert status == 0
    assert [(r["filename"], r["result"]["meshes"][0]["triangleCount"]) for r in reports] == [
        (f"{tmp_path}/cube.usdz", 12),
        (f"{tmp_path}/tri.usda", 1),
    ]
