"""Event bodies: the interface's fields from a stored report, serialised to stable bytes."""

import json
import math

import pytest

from assetcheck.engine import validate
from assetcheck.reports.document import build_report
from assetcheck.service.webhooks.payload import completed_event, failed_event
from assetcheck.testing.zip import tiny_glb


@pytest.fixture
def stored_report(tmp_path):
    """A real report, as the service keeps it: built from a validation, stored as JSON."""
    path = tmp_path / "crate.glb"
    path.write_bytes(tiny_glb())
    return json.loads(json.dumps(build_report(validate(path))))


def test_completed_event_has_exactly_the_interface_fields(stored_report):
    event = json.loads(completed_event("job_1", stored_report))
    assert list(event) == ["event", "job_id", "result"]
    assert event["event"] == "validation.completed"
    assert event["job_id"] == "job_1"
    assert event["result"] == {
        "valid": stored_report["valid"],
        "health_score": stored_report["health_score"],
        "grade": stored_report["grade"],
        "meshes": stored_report["result"]["meshes"],
        "securityScan": stored_report["result"]["securityScan"],
    }


def test_completed_event_carries_the_values_types_the_interface_names(stored_report):
    result = json.loads(completed_event("job_1", stored_report))["result"]
    assert isinstance(result["valid"], bool)
    assert isinstance(result["health_score"], int)
    assert isinstance(result["grade"], str)
    assert isinstance(result["meshes"], list)
    assert isinstance(result["securityScan"], dict)


def test_the_same_report_always_gives_the_same_bytes(stored_report):
    assert completed_event("job_1", stored_report) == completed_event("job_1", stored_report)


def test_bodies_are_ascii_with_other_characters_escaped(stored_report):
    stored_report["result"]["meshes"][0]["name"] = "Tür"
    body = completed_event("job_1", stored_report)
    assert body.isascii()
    assert json.loads(body)["result"]["meshes"][0]["name"] == "Tür"


def test_failed_event_carries_the_error_code_and_message():
    body = failed_event("job_2", "VALIDATION_CRASHED", "The validator crashed 3 times.")
    assert json.loads(body) == {
        "event": "validation.failed",
        "job_id": "job_2",
        "error": {"code": "VALIDATION_CRASHED", "message": "The validator crashed 3 times."},
    }


def test_a_value_json_cannot_express_is_refused(stored_report):
    stored_report["health_score"] = math.nan
    with pytest.raises(ValueError):
        completed_event("job_1", stored_report)


def test_a_job_compared_with_a_baseline_job_carries_the_comparison_in_its_result(stored_report):
    comparison = {"old": "val_old", "new": "job_1", "unavailable": "The baseline job was deleted."}
    event = json.loads(completed_event("job_1", {**stored_report, "comparison": comparison}))
    assert event["result"]["comparison"] == comparison
    assert "comparison" not in json.loads(completed_event("job_1", stored_report))["result"]
