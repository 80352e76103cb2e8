"""The built-in renderers present a report safely, whatever names the asset carries, and
explain a failed job in every format."""

import json
import re
import xml.etree.ElementTree as ET

import pytest

from assetcheck.engine import validate
from assetcheck.issues import IssueType
from assetcheck.plugins.manager import get_plugin_manager
from assetcheck.reports import render, report_formats, visible
from assetcheck.reports.badge import GRADE_COLOURS, INACTIVE_COLOUR, pending_badge, render_badge
from assetcheck.reports.builtin import render_json
from assetcheck.reports.document import build_report
from assetcheck.reports.junit import render_junit
from assetcheck.reports.markdown import FOLD_AFTER, escape, render_markdown
from assetcheck.reports.text import render_text
from tests.reports.cases import (
    BROKEN,
    HOSTILE,
    STORED_HOSTILE,
    UPLOADS,
    failed_report,
    hostile_report,
)

SVG = "{http://www.w3.org/2000/svg}"
FORMATS = sorted(report_formats(get_plugin_manager()))


def test_escape_neutralises_html_pipes_backticks_and_math():
    assert escape("<b>|`x`$y$") == "&lt;b&gt;\\|\\`x\\`\\$y\\$"


def test_visible_writes_controls_bidi_overrides_and_lone_surrogates_as_escapes():
    assert visible("a\x1b[31m\u202eb\ud800\nc é😀") == "a\\u001b[31m\\u202eb\\ud800\\u000ac é😀"


@pytest.mark.parametrize("report", [hostile_report(), failed_report()], ids=["done", "failed"])
@pytest.mark.parametrize("name", FORMATS)
def test_every_format_is_printable_utf8_whatever_the_names(name, report):
    text, _ = render(get_plugin_manager(), report, name)
    text.encode("utf-8")  # a lone surrogate would raise here
    assert not re.search("[\x00-\x08\x0b-\x1f\x7f\u202e]", text)


def test_json_keeps_every_name_exactly_and_groups_issues_by_code():
    report = hostile_report(occurrences=3)
    parsed = json.loads(render_json(report))
    (group,) = parsed["issues"]
    assert (group["code"], group["count"], len(group["occurrences"])) == ("NAMED_THING", 3, 3)
    assert parsed["result"]["meshes"][0]["parts"][0]["name"] == STORED_HOSTILE


def test_markdown_title_has_grade_and_score():
    first = render_markdown(hostile_report()).splitlines()[0]
    assert first.startswith("# ") and "excellent (97/100)" in first


def test_markdown_folds_locations_beyond_the_first_few():
    text = render_markdown(hostile_report(occurrences=FOLD_AFTER + 3))
    assert "<details><summary>3 more locations</summary>" in text


def test_markdown_puts_security_findings_and_what_to_fix_first_before_the_files():
    report = hostile_report()
    report["result"]["securityScan"]["warnings"] = [
        {
            "code": "ZIP_SYMLINK",
            "severity": "high",
            "message": f"{HOSTILE} is a link",
            "file": HOSTILE,
        }
    ]
    text = render_markdown(report)
    order = [
        text.index(heading)
        for heading in (
            "## 🛡️ Security findings (1)",
            "## What to fix first",
            "## Model files",
            "## Issues",
        )
    ]
    assert order == sorted(order)


def test_text_report_has_a_row_per_file_and_each_issue_led_by_its_title():
    text = render_text(hostile_report())
    assert "excellent (97/100)" in text
    assert "Named thing (x1)  NAMED_THING" in text
    assert visible(f"{STORED_HOSTILE}.glb") in text


def test_text_report_shows_each_occurrences_own_fix_under_it():
    lines = render_text(hostile_report(occurrences=3)).splitlines()
    fixes = [line.strip() for line in lines if line.strip().startswith("fix:")]
    assert fixes == [f"fix: Rename {visible(STORED_HOSTILE)}{index}." for index in range(3)]


def test_text_report_shows_a_shared_fix_once_for_the_group():
    shared = IssueType("SHARED_FIX", "warning", "Mesh {name} is odd.", "Rename the meshes.", "t")
    text = render_text(hostile_report(occurrences=3, issue_type=shared))
    assert text.count("fix: Rename the meshes.") == 1


def test_badge_is_valid_svg_with_grade_score_colour_and_title():
    root = ET.fromstring(render_badge(hostile_report()))
    assert [t.text for t in root.iter(f"{SVG}text")] == ["asset", "excellent 97"]
    assert root.find(f"{SVG}title").text == "asset: excellent 97"
    assert GRADE_COLOURS["excellent"] in {r.get("fill") for r in root.iter(f"{SVG}rect")}


def test_badge_width_grows_with_its_text():
    short = ET.fromstring(render_badge({"grade": "good", "health_score": 80}))
    long = ET.fromstring(render_badge({"grade": "excellent", "health_score": 100}))
    assert int(long.get("width")) > int(short.get("width"))


@pytest.mark.parametrize(
    ("svg", "value"),
    [
        (render_badge(failed_report()), "failed"),
        (pending_badge("queued"), "queued"),
        (pending_badge("processing"), "processing"),
    ],
)
def test_badges_without_a_grade_say_why_in_grey(svg, value):
    root = ET.fromstring(svg)
    assert [t.text for t in root.iter(f"{SVG}text")] == ["asset", value]
    assert INACTIVE_COLOUR in {r.get("fill") for r in root.iter(f"{SVG}rect")}


def test_junit_has_a_case_per_check_and_a_failure_per_erroring_case():
    report = hostile_report(issue_type=BROKEN)
    report["checks"] = [{"name": "names", "plugin": "studio", "version": "1.0", "crashed": False}]
    root = ET.fromstring(render_junit(report))
    cases = {case.get("name"): case for case in root.iter("testcase")}
    assert set(cases) == {"reading and security scan", "studio:names"}
    failure = cases["studio:names"].find("failure")
    assert failure.get("type") == "NAMED_ERROR" and visible(STORED_HOSTILE) in failure.text
    assert cases["reading and security scan"].find("failure") is None


def test_a_failed_job_explains_itself_in_markdown_text_and_junit():
    report = failed_report()
    markdown = render_markdown(report)
    assert markdown.splitlines()[0].endswith(": not validated")
    assert "`VALIDATION_TIMEOUT`" in markdown and "Try a lighter export" in markdown
    assert "validation FAILED (VALIDATION_TIMEOUT)" in render_text(report)
    (case,) = ET.fromstring(render_junit(report)).iter("testcase")
    assert case.get("name") == "validation"
    assert case.find("failure").get("type") == "VALIDATION_TIMEOUT"


@pytest.mark.parametrize("name", [name for name in FORMATS if name != "badge"])
def test_every_format_shows_fbx_texture_findings_with_their_material_and_slot(name, tmp_path):
    upload = UPLOADS["textured_fbx"]
    path = tmp_path / upload.filename
    path.write_bytes(upload.content)
    report = build_report(validate(path, engine=upload.engine))

    text, _ = render(get_plugin_manager(), report, name)

    assert "NORMAL_MAP_NOT_TANGENT_SPACE" in text
    assert "Wood (slot NormalMap)" in text
