"""The built-in renderers present a report safely, whatever names the asset carries."""

import json
import re
import xml.etree.ElementTree as ET

from assetcheck.issues import IssueCollector, IssueRegistry, IssueType
from assetcheck.model import Asset, MeshPart, Result, SecurityScan
from assetcheck.profiles import BUILTIN_PROFILES
from assetcheck.reports.badge import render_badge
from assetcheck.reports.builtin import render_json
from assetcheck.reports.document import build_report
from assetcheck.reports.junit import render_junit
from assetcheck.reports.markdown import escape, render_markdown
from assetcheck.reports.text import render_text

HOSTILE = "<script>alert(1)</script>|`x`"
NAMED = IssueType("NAMED_THING", "warning", "Mesh {name} is odd.", "Rename {name}.", "test")


def hostile_report(occurrences: int = 1) -> dict:
    issues = IssueCollector(IssueRegistry([NAMED]))
    for _ in range(occurrences):
        issues.add("NAMED_THING", file=f"{HOSTILE}.glb", pointer="/meshes/0", name=HOSTILE)
    asset = Asset(f"{HOSTILE}.glb", "glb", 3, 1, 1, 0, True,
                  parts=[MeshPart(HOSTILE, 3, 1, 1)])
    result = Result(
        filename=f"{HOSTILE}.zip", profile=BUILTIN_PROFILES["generic"], assets=[asset],
        security=SecurityScan(scanned_files=2), issues=issues.issues,
        issue_counts=dict(issues.counts), severity_counts=issues.severity_counts(),
        truncated=issues.truncated, health_score=97, grade="excellent",
    )
    return build_report(result)


def test_escape_neutralises_html_pipes_and_backticks():
    assert escape("<b>|`x`") == "&lt;b&gt;\\|\\`x\\`"


def test_markdown_never_contains_raw_markup_from_asset_names():
    text = render_markdown(hostile_report())
    assert "<script>" not in text
    assert "&lt;script&gt;" in text
    files_table = text.split("## Files\n\n", 1)[1].split("\n\n", 1)[0].splitlines()
    assert len(files_table) == 3
    assert [len(re.findall(r"(?<!\\)\|", row)) for row in files_table] == [7, 7, 7]


def test_markdown_folds_long_location_lists():
    text = render_markdown(hostile_report(occurrences=8))
    assert "<details><summary>8 locations</summary>" in text


def test_markdown_title_has_grade_and_score():
    first = render_markdown(hostile_report()).splitlines()[0]
    assert first.startswith("# ") and "excellent (97/100)" in first


def test_json_report_round_trips_and_groups_issues_by_code():
    report = json.loads(render_json(hostile_report(occurrences=3)))
    (group,) = report["issues"]
    assert (group["code"], group["count"], len(group["occurrences"])) == ("NAMED_THING", 3, 3)
    assert report["result"]["meshes"][0]["parts"][0]["name"] == HOSTILE


def test_text_report_has_a_row_per_file_and_each_issue_code():
    text = render_text(hostile_report())
    assert "excellent (97/100)" in text
    assert "NAMED_THING (x1)" in text
    assert text.count(".glb") >= 2


SVG = "{http://www.w3.org/2000/svg}"


def test_badge_is_valid_svg_with_grade_score_colour_and_title():
    root = ET.fromstring(render_badge(hostile_report()))
    texts = [t.text for t in root.iter(f"{SVG}text")]
    assert texts == ["asset", "excellent 97"]
    assert root.find(f"{SVG}title").text == "asset: excellent 97"
    assert "#4c1" in {r.get("fill") for r in root.iter(f"{SVG}rect")}


def test_badge_width_grows_with_its_text():
    short = ET.fromstring(render_badge({"grade": "good", "health_score": 80}))
    long = ET.fromstring(render_badge({"grade": "excellent", "health_score": 100}))
    assert int(long.get("width")) > int(short.get("width"))


def test_badge_of_a_failed_job_says_failed_in_grey():
    root = ET.fromstring(render_badge({"grade": None}))
    assert [t.text for t in root.iter(f"{SVG}text")][1] == "failed"
    assert "#9f9f9f" in {r.get("fill") for r in root.iter(f"{SVG}rect")}


def test_junit_has_a_case_per_check_and_a_failure_per_erroring_case():
    report = hostile_report()
    report["checks"] = [{"name": "names", "plugin": "studio", "crashed": False}]
    report["issues"][0]["severity"] = "error"
    report["issues"][0]["occurrences"][0]["source"] = "studio:names"
    root = ET.fromstring(render_junit(report))
    cases = {case.get("name"): case for case in root.iter("testcase")}
    assert set(cases) == {"reading and security scan", "studio:names"}
    failure = cases["studio:names"].find("failure")
    assert failure.get("type") == "NAMED_THING" and HOSTILE in failure.text
    assert cases["reading and security scan"].find("failure") is None
