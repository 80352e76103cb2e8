"""Findings: issues found by pure code and reported later, as the same issues."""

from assetcheck.issues import IssueCollector, IssueRegistry, IssueType
from assetcheck.issues.findings import Finding, Findings

WIDGET = IssueType("WIDGET_BROKEN", "warning", "Widget {name} is broken.", "Fix {name}.", "test")
GADGET = IssueType("GADGET_LOST", "error", "Gadget lost in {file}.", "Find it.", "test")


def collector() -> IssueCollector:
    return IssueCollector(IssueRegistry([WIDGET, GADGET]))


def test_a_reported_finding_is_the_issue_adding_it_at_once_would_have_made():
    added, reported = collector(), collector()
    added.add("WIDGET_BROKEN", file="a.glb", pointer="/meshes/0", offset=12, name="left")
    Finding("WIDGET_BROKEN", file="a.glb", pointer="/meshes/0", offset=12, name="left").report_to(
        reported
    )
    assert reported.issues == added.issues
    assert reported.counts == added.counts


def test_a_finding_without_a_file_takes_the_file_of_the_view_it_is_reported_to():
    issues = collector()
    Finding("GADGET_LOST").report_to(issues.for_file("b.fbx", source="scan"))
    (issue,) = issues.issues
    assert (issue.file, issue.pointer, issue.offset, issue.source) == ("b.fbx", None, None, "scan")
    assert issue.message == "Gadget lost in b.fbx."


def test_placing_a_finding_sets_the_parts_given_and_keeps_the_others():
    found = Finding("WIDGET_BROKEN", offset=7, name="left")
    placed = found.at(pointer="/accessors/3")
    assert placed == Finding("WIDGET_BROKEN", pointer="/accessors/3", offset=7, name="left")
    assert found.pointer is None  # placing makes a new finding; the cached one is unchanged
    assert placed.at(file="x.zip/a.glb").file == "x.zip/a.glb"


def test_findings_record_in_order_what_issues_add_would_have_added():
    recorded = Findings()
    recorded.add("GADGET_LOST", file="c.glb")
    recorded.add("WIDGET_BROKEN", pointer="/nodes/1", name="right")
    assert recorded == [
        Finding("GADGET_LOST", file="c.glb"),
        Finding("WIDGET_BROKEN", pointer="/nodes/1", name="right"),
    ]
    added, reported = collector(), collector()
    added.add("GADGET_LOST", file="c.glb")
    added.add("WIDGET_BROKEN", file="c.glb", pointer="/nodes/1", name="right")
    for finding in recorded:
        finding.at(file="c.glb").report_to(reported)
    assert reported.issues == added.issues
