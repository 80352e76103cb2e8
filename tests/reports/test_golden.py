"""Golden reports: for each crafted upload (and a failed job), the json and markdown reports
equal the files checked in under ``tests/assets/reports/``.

Versions and timings are replaced by fixed values before rendering, so the golden files change
only when a report does. Regenerate them on purpose with ``pytest --update-golden`` and review
the diff.
"""

from __future__ import annotations

import json
import tempfile
import xml.etree.ElementTree as ET
from collections.abc import Callable
from importlib.resources import files
from pathlib import Path

import jsonschema
import pytest

from assetcheck import __version__
from assetcheck.engine import validate
from assetcheck.plugins.manager import PluginConfig, get_plugin_manager
from assetcheck.reports import Report
from assetcheck.reports.badge import GRADE_COLOURS, INACTIVE_COLOUR, render_badge
from assetcheck.reports.builtin import render_json
from assetcheck.reports.document import build_report
from assetcheck.reports.markdown import render_markdown
from tests.reports.cases import UPLOADS, failed_report

GOLDEN = Path(__file__).parents[1] / "assets" / "reports"
SCHEMA = json.loads(files("assetcheck.reports").joinpath("report.schema.json").read_text())
CASES = [*UPLOADS, "failed_job"]
RENDERERS: dict[str, Callable[[Report], str]] = {"json": render_json, "md": render_markdown}
SVG = "{http://www.w3.org/2000/svg}"


def comparable(report: Report) -> Report:
    """``report`` as the service stores it, with versions and timings made constant."""
    report = json.loads(render_json(report))
    report["assetcheck"]["version"] = "VERSION"
    report["timings"] = dict.fromkeys(report["timings"], 0)
    for entry in (*report["checks"], *report["plugins"]):
        if entry["version"] == __version__:
            entry["version"] = "VERSION"
    return report


@pytest.fixture(scope="module")
def reports() -> dict[str, Report]:
    """Every case's report, validated with the built-in plugins only (installed plugins would
    add their own findings)."""
    pm = get_plugin_manager(PluginConfig(entry_points=False))
    built = {"failed_job": failed_report()}
    with tempfile.TemporaryDirectory() as folder:
        for case, upload in UPLOADS.items():
            path = Path(folder) / case
            path.write_bytes(upload.content)
            result = validate(
                path, engine=upload.engine, filename=upload.filename, plugin_manager=pm
            )
            job = {"job_id": f"val_{case.replace('_', '')}", "created_at": "2025-01-31T12:00:00Z"}
            built[case] = build_report(result, job=job)
    return {case: comparable(report) for case, report in built.items()}


@pytest.mark.parametrize("extension", RENDERERS)
@pytest.mark.parametrize("case", CASES)
def test_report_matches_its_golden_file(case, extension, reports, update_golden):
    golden = GOLDEN / f"{case}.report.{extension}"
    rendered = RENDERERS[extension](reports[case])
    if update_golden:
        golden.parent.mkdir(parents=True, exist_ok=True)
        golden.write_text(rendered, encoding="utf-8")
    assert golden.exists(), f"{golden} is missing: run pytest --update-golden"
    assert rendered == golden.read_text(encoding="utf-8")


@pytest.mark.parametrize("case", CASES)
def test_golden_json_report_follows_the_schema(case):
    report = json.loads((GOLDEN / f"{case}.report.json").read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator(SCHEMA).validate(report)


@pytest.mark.parametrize("case", CASES)
def test_badge_shows_grade_and_score_in_the_grades_colour(case, reports):
    report = reports[case]
    root = ET.fromstring(render_badge(report))
    (value, colour) = (
        (f"{report['grade']} {report['health_score']}", GRADE_COLOURS[report["grade"]])
        if report["grade"]
        else ("failed", INACTIVE_COLOUR)
    )
    assert [text.text for text in root.iter(f"{SVG}text")] == ["asset", value]
    assert root.find(f"{SVG}title").text == f"asset: {value}"
    assert colour in {rect.get("fill") for rect in root.iter(f"{SVG}rect")}
