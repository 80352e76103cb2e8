"""A service job's comparison with its baseline job, in each report format: a short section
of the text and Markdown reports, properties in SARIF and JUnit, read from the report's
``comparison`` (the diff document, or why there is none)."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from importlib.resources import files

import jsonschema
import pytest

from assetcheck.diff import diff_reports
from assetcheck.reports.junit import render_junit
from assetcheck.reports.markdown import render_markdown
from assetcheck.reports.sarif import render_sarif
from assetcheck.reports.text import render_text
from tests.diff.models import glb, report

SCHEMA = json.loads(files("assetcheck.reports").joinpath("report.schema.json").read_text())
UNAVAILABLE = {
    "old": "val_old",
    "new": "val_new",
    "unavailable": "The baseline job val_old was deleted before this job completed.",
}


@pytest.fixture(scope="module")
def compared(tmp_path_factory) -> dict:
    """The report of a decimated, re-textured model with its comparison with the original."""
    folder = tmp_path_factory.mktemp("versions")
    old = report(glb(folder / "old" / "chair.glb"), "chair.glb")
    new = report(glb(folder / "new" / "chair.glb", triangles=100, texture_side=128), "chair.glb")
    diff = diff_reports([old], [new], old_label="val_old", new_label="val_new")
    return json.loads(json.dumps({**new, "comparison": diff.to_dict()}))


def test_a_report_with_a_comparison_or_its_absence_matches_the_schema(compared):
    jsonschema.validate(compared, SCHEMA)
    jsonschema.validate({**compared, "comparison": UNAVAILABLE}, SCHEMA)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({**compared, "comparison": {"old": "val_old"}}, SCHEMA)


def test_the_text_report_ends_with_the_verdict_and_what_changed(compared):
    text = render_text(compared)
    section = text[text.index("Compared with the baseline job val_old") :].splitlines()
    assert section[0] == (
        "Compared with the baseline job val_old: nothing got worse; findings 0 added, 0 fixed."
    )
    assert "  triangles: 200 → 100 (-100, -50%)" in section
    assert "  vertices: 600 → 300 (-300, -50%)" in section
    assert any(line.startswith("  textures_gpu_memory: ") for line in section)
    assert "Compared with" not in render_text(
        {k: v for k, v in compared.items() if k != "comparison"}
    )


def test_the_markdown_report_has_a_comparison_section(compared):
    markdown = render_markdown(compared)
    assert (
        "## Comparison\n\nCompared with the baseline job val\\_old: nothing got worse" in markdown
    )
    assert "- triangles: 200 → 100 (-100, -50%)" in markdown
    assert markdown.index("## Comparison") < markdown.index("AssetCheck 0")  # before the footer


def test_an_unavailable_comparison_says_why_in_text_and_markdown(compared):
    gone = {**compared, "comparison": UNAVAILABLE}
    assert f"Compared with the baseline job val_old: {UNAVAILABLE['unavailable']}" in render_text(
        gone
    )
    assert "was deleted before this job completed" in render_markdown(gone)


def test_sarif_and_junit_carry_the_verdict_and_counts(compared):
    facts = {
        "baselineJob": "val_old",
        "worse": False,
        "findingsAdded": 0,
        "findingsFixed": 0,
        "regressions": 0,
    }
    (artifact,) = json.loads(render_sarif(compared))["runs"][0]["artifacts"]
    assert artifact["properties"]["comparison"] == facts
    suite = ET.fromstring(render_junit(compared)).find("testsuite")
    assert suite is not None
    assert len(suite.findall("properties")) == 1  # beside the bytes figures, not a second one
    properties = {p.get("name"): p.get("value") for p in suite.iter("property")}
    compared_properties = {k: v for k, v in properties.items() if k.startswith("comparison.")}
    assert compared_properties == {
        "comparison.baselineJob": "val_old",
        "comparison.worse": "false",
        "comparison.findingsAdded": "0",
        "comparison.findingsFixed": "0",
        "comparison.regressions": "0",
    }
    gone = {**compared, "comparison": UNAVAILABLE}
    (artifact,) = json.loads(render_sarif(gone))["runs"][0]["artifacts"]
    assert artifact["properties"]["comparison"] == {
        "baselineJob": "val_old",
        "unavailable": UNAVAILABLE["unavailable"],
    }
