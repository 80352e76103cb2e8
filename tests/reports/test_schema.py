"""Every JSON report AssetCheck writes follows the JSON Schema shipped in the package."""

import json
from importlib.resources import files
from pathlib import Path

import jsonschema
import pytest

from assetcheck.engine import validate
from assetcheck.reports.builtin import render_json
from assetcheck.reports.document import build_report
from tests.reports.cases import UPLOADS, clean_glb, failed_report, hostile_report

SCHEMA = json.loads(files("assetcheck.reports").joinpath("report.schema.json").read_text())
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)


def stored(report: dict) -> dict:
    return json.loads(render_json(report))


def extra_uploads(folder: Path) -> dict[str, Path]:
    """Uploads beyond the golden cases: a truncated GLB, bytes of no format at all."""
    broken = folder / "broken.glb"
    broken.write_bytes(clean_glb()[:-7])
    noise = folder / "noise.bin"
    noise.write_bytes(bytes(range(256)) * 4)
    return {"broken": broken, "unsupported": noise}


@pytest.mark.parametrize("case", sorted(UPLOADS))
def test_report_of_each_crafted_upload_follows_the_schema(tmp_path, case):
    path = tmp_path / "upload"
    path.write_bytes(UPLOADS[case].content)
    VALIDATOR.validate(stored(build_report(validate(path, engine=UPLOADS[case].engine))))


@pytest.mark.parametrize("case", ["broken", "unsupported"])
def test_report_of_an_unreadable_upload_follows_the_schema(tmp_path, case):
    VALIDATOR.validate(stored(build_report(validate(extra_uploads(tmp_path)[case]))))


def test_hand_built_and_failed_reports_follow_the_schema():
    VALIDATOR.validate(hostile_report(occurrences=3))
    VALIDATOR.validate(stored(failed_report()))


def test_the_schema_tells_a_failed_jobs_report_from_a_validations():
    completed, failed = hostile_report(), stored(failed_report())
    assert not VALIDATOR.is_valid({**completed, "result": None})
    assert not VALIDATOR.is_valid({**failed, "result": completed["result"]})
    assert not VALIDATOR.is_valid({**failed, "job": {"job_id": "val_x"}})


def test_schema_itself_is_valid():
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
