import pytest

from assetcheck.issues import IssueCollector, IssuePolicy, IssueRegistry, IssueType

WIDGET = IssueType("WIDGET_BROKEN", "warning", "Widget {name} is broken.", "Fix {name}.", "test")
GADGET = IssueType("GADGET_LOST", "error", "Gadget lost.", "Find it.", "test")
LEAK = IssueType(
    "SECRET_LEAK", "info", "Leak in {file}.", "Plug it.", "test", security_level="critical"
)


def collector(**policy) -> IssueCollector:
    return IssueCollector(IssueRegistry([WIDGET, GADGET, LEAK]), IssuePolicy(**policy))


def test_added_issue_has_formatted_message_fix_and_location():
    issues = collector()
    issues.add("WIDGET_BROKEN", file="a.glb", pointer="/meshes/0", name="left")
    (issue,) = issues.issues
    assert issue.to_dict() == {
        "code": "WIDGET_BROKEN",
        "severity": "warning",
        "title": "Widget broken",
        "headline": "Widget broken",
        "message": "Widget left is broken.",
        "fix": "Fix left.",
        "file": "a.glb",
        "pointer": "/meshes/0",
    }


def test_headline_counts_what_the_issue_is_about_in_singular_or_plural():
    normals = IssueType(
        "NORMALS_BROKEN",
        "error",
        "{count} normals are broken.",
        "Recompute them.",
        "test",
        title="Broken normals",
        count_phrase="on {count:,} {count:vertex|vertices}",
    )
    issues = IssueCollector(IssueRegistry([normals]))
    for count in (1, 1200):
        issues.add("NORMALS_BROKEN", count=count)
    assert [i.headline for i in issues.issues] == [
        "Broken normals on 1 vertex",
        "Broken normals on 1,200 vertices",
    ]
    assert {i.title for i in issues.issues} == {"Broken normals"}


def test_a_type_declared_without_a_title_gets_one_made_from_its_code():
    plain = IssueType("MESH_PRIMITIVE_TANGENT_WITHOUT_NORMAL", "warning", "m", "f", "plugin")
    assert plain.title == "Mesh primitive tangent without normal"
    assert plain.headline({}) == plain.title


def test_a_count_phrase_missing_its_field_is_an_error_naming_code_and_field():
    counted = IssueType("X_COUNTED", "info", "m", "f", "t", title="X", count_phrase="({count})")
    with pytest.raises(KeyError, match=r"X_COUNTED.*count"):
        IssueCollector(IssueRegistry([counted])).add("X_COUNTED")


def test_security_level_decides_severity():
    assert LEAK.severity == "error"
    assert IssueType("X_LOW", "error", "m", "f", "t", security_level="low").severity == "info"


def test_unknown_code_is_an_error_naming_the_code():
    with pytest.raises(KeyError, match="NOPE"):
        collector().add("NOPE")


def test_missing_template_field_is_an_error_naming_the_field():
    with pytest.raises(KeyError, match="name"):
        collector().add("WIDGET_BROKEN")


def test_code_defined_twice_differently_is_rejected():
    registry = IssueRegistry([WIDGET])
    registry.add(WIDGET)
    with pytest.raises(ValueError, match="defined twice"):
        registry.add(IssueType("WIDGET_BROKEN", "error", "other", "f", "test"))


def test_invalid_severity_and_lowercase_codes_are_rejected():
    with pytest.raises(ValueError):
        IssueType("BAD", "fatal", "m", "f", "t")
    with pytest.raises(ValueError):
        IssueType("bad_code", "error", "m", "f", "t")


def test_ignored_codes_are_neither_kept_nor_counted():
    issues = collector(ignore=frozenset({"GADGET_LOST"}))
    issues.add("GADGET_LOST")
    assert issues.issues == [] and issues.counts == {}


def test_severity_override_applies_to_issue_and_counts():
    issues = collector(severity_overrides={"GADGET_LOST": "info"})
    issues.add("GADGET_LOST")
    assert issues.issues[0].severity == "info"
    assert issues.severity_counts() == {"error": 0, "warning": 0, "info": 1, "hint": 0}


def test_repeated_code_is_capped_but_fully_counted():
    issues = collector(max_per_code=3)
    for _ in range(1_000_000 // 1000):
        issues.add("GADGET_LOST")
    issues.add("WIDGET_BROKEN", name="w")
    assert issues.counts["GADGET_LOST"] == 1000
    assert [i.code for i in issues.issues] == ["GADGET_LOST"] * 3 + ["WIDGET_BROKEN"]
    assert issues.truncated


def test_total_cap_keeps_at_most_max_issues():
    issues = collector(max_issues=2, max_per_code=10)
    for name in "abc":
        issues.add("WIDGET_BROKEN", name=name)
    assert len(issues.issues) == 2 and issues.counts["WIDGET_BROKEN"] == 3 and issues.truncated


def test_file_view_fills_file_and_source():
    issues = collector()
    issues.for_file("x/y.gltf", source="reader").add("GADGET_LOST", offset=12)
    issue = issues.issues[0]
    assert (issue.file, issue.source, issue.offset) == ("x/y.gltf", "reader", 12)


def test_add_count_counts_occurrences_without_listing_them_and_marks_truncation():
    collector = IssueCollector(IssueRegistry([WIDGET]))
    collector.add("WIDGET_BROKEN", name="a")
    collector.add_count("WIDGET_BROKEN", 41)
    assert collector.counts["WIDGET_BROKEN"] == 42 and len(collector.issues) == 1
    assert collector.truncated and collector.severity_counts()["warning"] == 42


def test_add_count_of_an_ignored_code_counts_nothing():
    collector = IssueCollector(
        IssueRegistry([WIDGET]), IssuePolicy(ignore=frozenset({"WIDGET_BROKEN"}))
    )
    collector.add_count("WIDGET_BROKEN", 5)
    assert not collector.counts and not collector.truncated
