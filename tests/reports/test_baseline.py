"""Comparing a run's findings with a baseline's: twins count, unlisted findings (beyond a
report's cap) pair with whatever their file and code left over, and baselines written as JSON
and as SARIF hold the same findings."""

import json

import pytest

from assetcheck.reports.baseline import (
    BaselineError,
    baseline_text,
    compare,
    mark,
    read_baseline,
    report_findings,
)


def occurrence(fingerprint: str) -> dict:
    return {"message": f"finding {fingerprint}", "fingerprint": fingerprint.ljust(32, "0")}


def report(filename: str, *groups: tuple[str, str, int, list[str]]) -> dict:
    """A report whose issue groups are (code, severity, count, listed fingerprints)."""
    return {
        "filename": filename,
        "grade": "good",
        "health_score": 80,
        "valid": True,
        "engine": {"name": "generic"},
        "issues": [
            {
                "code": code,
                "severity": severity,
                "count": count,
                "fix": "",
                "occurrences": [occurrence(f) for f in listed],
            }
            for code, severity, count, listed in groups
        ],
    }


def counts(run: list[dict], baseline: list[dict]) -> tuple[int, int, int]:
    comparison = compare(report_findings(run), report_findings(baseline))
    return len(comparison.new), len(comparison.unchanged), len(comparison.fixed)


def test_twins_are_counted_one_new_for_a_third_where_the_baseline_had_two():
    baseline = [report("a.glb", ("CODE", "error", 2, ["aa", "aa"]))]
    run = [report("a.glb", ("CODE", "error", 3, ["aa", "aa", "aa"]))]
    assert counts(run, baseline) == (1, 2, 0)
    assert counts(baseline, run) == (0, 2, 1)


def test_the_same_fingerprint_in_another_file_or_under_another_code_is_another_finding():
    baseline = [report("a.glb", ("CODE", "error", 1, ["aa"]))]
    assert counts([report("b.glb", ("CODE", "error", 1, ["aa"]))], baseline) == (1, 0, 0)
    assert counts([report("a.glb", ("OTHER", "error", 1, ["aa"]))], baseline) == (1, 0, 1)


def test_unlisted_findings_pair_with_the_listed_ones_the_other_side_left_over():
    # The cap kept other occurrences this time: the same three findings, none new or fixed.
    baseline = [report("a.glb", ("CODE", "warning", 3, ["aa", "bb"]))]
    run = [report("a.glb", ("CODE", "warning", 3, ["aa", "cc"]))]
    assert counts(run, baseline) == (0, 3, 0)
    # One more than the baseline counted is new, whichever the report lists.
    run = [report("a.glb", ("CODE", "warning", 4, ["aa", "cc"]))]
    assert counts(run, baseline) == (1, 3, 0)


def test_marks_say_new_unchanged_or_updated_on_each_group_and_listed_occurrence():
    baseline = [report("a.glb", ("ONE", "error", 1, ["aa"]), ("TWO", "error", 1, ["bb"]))]
    run = [
        report(
            "a.glb",
            ("ONE", "error", 2, ["aa", "xx"]),
            ("TWO", "error", 1, ["bb"]),
            ("NEW", "warning", 1, ["cc"]),
        )
    ]
    comparison = compare(report_findings(run), report_findings(baseline))
    mark(comparison)
    groups = {g["code"]: g for g in run[0]["issues"]}
    assert [g["baselineState"] for g in groups.values()] == ["updated", "unchanged", "new"]
    assert [o["baselineState"] for o in groups["ONE"]["occurrences"]] == ["unchanged", "new"]
    assert [k.code for k in comparison.new_at("error")] == ["ONE"]


@pytest.mark.parametrize("form", ["json", "sarif"])
def test_a_baseline_written_in_either_format_reads_back_as_the_same_findings(form):
    reports = [
        report("assets/a b.glb", ("ONE", "error", 3, ["aa", "bb"])),
        report("assets/c.glb", ("TWO", "warning", 1, ["cc"])),
    ]
    findings, read_form = read_baseline(baseline_text(reports, form))
    assert read_form == form
    assert [k.key for k in findings] == [k.key for k in report_findings(reports)]
    assert counts(reports, reports) == (0, 4, 0)


@pytest.mark.parametrize(
    "text",
    ["not json", "[1, 2]", '{"filename": "a.glb"}', '{"runs": [{"results": [{"ruleId": "X"}]}]}'],
)
def test_a_document_assetcheck_did_not_write_is_refused_with_a_reason(text):
    with pytest.raises(BaselineError):
        read_baseline(text)


def test_a_report_without_fingerprints_is_still_compared_by_its_messages_and_pointers():
    old = report("a.glb", ("CODE", "error", 1, ["aa"]))
    for group in old["issues"]:
        for found in group["occurrences"]:
            del found["fingerprint"]
    findings, _ = read_baseline(json.dumps(old))
    assert len(findings) == 1 and len(findings[0].fingerprint) == 32
