"""The built-in renderers present a report safely, whatever names the asset carries."""

import json

from assetcheck.issues import IssueCollector, IssueRegistry, IssueType
from assetcheck.model import Asset, MeshPart, Result, SecurityScan
from assetcheck.profiles import BUILTIN_PROFILES
from assetcheck.reports.builtin import render_json
from assetcheck.reports.document import build_report
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
    table_rows = [line for line in text.splitlines() if line.startswith("| ")]
    assert all(row.count(" | ") == table_rows[0].count(" | ") for row in table_rows[:3])


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
