import pytest

from assetcheck.scoring.score import grade_for, health_score, verdict_cap


def test_no_issues_scores_100_excellent():
    assert health_score({}, {}) == 100
    assert grade_for(100) == "excellent"


def test_one_error_costs_twelve_points():
    assert health_score({"E": 1}, {"E": "error"}) == 88


def test_repeats_weigh_less_and_less():
    once = 100 - health_score({"E": 1}, {"E": "error"})
    thousand = 100 - health_score({"E": 1000}, {"E": "error"})
    assert thousand == 4 * once


def test_hints_cost_nothing_and_score_never_goes_below_zero():
    assert health_score({"H": 50}, {"H": "hint"}) == 100
    codes = {f"E{i}": 1 for i in range(20)}
    assert health_score(codes, dict.fromkeys(codes, "error")) == 0


def test_critical_security_warning_caps_grade_at_critical():
    score = health_score({}, {}, {"critical"})
    assert grade_for(score) == "critical"


@pytest.mark.parametrize(
    ("score", "grade"),
    [
        (90, "excellent"),
        (89, "good"),
        (75, "good"),
        (74, "fair"),
        (50, "fair"),
        (49, "poor"),
        (25, "poor"),
        (24, "critical"),
        (0, "critical"),
    ],
)
def test_grade_bands_follow_the_design(score, grade):
    assert grade_for(score) == grade


def test_an_error_caps_the_score_at_fair():
    assert grade_for(verdict_cap(100, has_errors=True, model_read=True)) == "fair"


def test_an_upload_with_no_readable_model_caps_the_score_at_critical():
    assert grade_for(verdict_cap(88, has_errors=True, model_read=False)) == "critical"


def test_verdict_caps_keep_the_security_caps_and_never_raise_a_score():
    assert verdict_cap(100, has_errors=False, model_read=True, security_levels={"high"}) == 49
    assert verdict_cap(10, has_errors=True, model_read=True) == 10
    assert verdict_cap(96, has_errors=False, model_read=True) == 96
