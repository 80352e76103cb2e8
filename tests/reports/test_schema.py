"""Every JSON report AssetCheck writes follows the JSON Schema shipped in the package, names cut
to 255 characters and reports capped to a size included."""

import json
import re
from importlib.resources import files
from pathlib import Path

import jsonschema
import pytest

from assetcheck.engine import validate
from assetcheck.issues.names import CUT_MARK, MAX_NAME_LENGTH
from assetcheck.reports.builtin import render_json
from assetcheck.reports.document import build_report, cap_report
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


def many_files_report(copies: int, name: str = "SM_Crate") -> dict:
    """A stored report of ``copies`` model files, each with its mesh, budget use and details."""
    report = hostile_report(name=name)
    mesh, entry, usage = (report["result"]["meshes"][0], report["files"][0], report["budgetUse"][0])
    report["result"]["meshes"] = [{**mesh, "filename": f"{i}.glb"} for i in range(copies)]
    report["files"] = [{**entry, "filename": f"{i}.glb"} for i in range(copies)]
    report["budgetUse"] = [{**usage, "file": f"{i}.glb"} for i in range(copies)]
    report["summary"]["files"] = copies
    return report


def strings_of(value) -> list[tuple[str, str]]:
    """Every ``(key, text)`` of a report, the texts of lists under their list's key."""
    if isinstance(value, dict):
        return [
            found
            for key, item in value.items()
            for found in ([(key, item)] if isinstance(item, str) else strings_of(item))
        ]
    if isinstance(value, list):
        return [found for item in value for found in strings_of(item)]
    return []


def test_names_of_60000_characters_are_cut_to_255_and_marked_in_every_text():
    report = hostile_report(occurrences=3, name="n" * 60_000)
    VALIDATOR.validate(report)
    texts = strings_of(report)
    names = [text for key, text in texts if key not in ("message", "fix")]
    assert max(len(text) for text in names) == MAX_NAME_LENGTH
    assert max(len(text) for _, text in texts) < 1000  # messages quote the cut names
    cut = [text for _, text in texts if "n" * 200 in text]
    marked = re.compile(re.escape(CUT_MARK) + r"60,00\d\]")  # name, plus .glb or an index
    assert cut and all(marked.search(text) for text in cut)
    assert report["summary"]["namesCut"] == len(cut)


def test_a_nul_in_a_plain_ascii_name_is_stored_as_a_replacement_character():
    report = hostile_report(name="crate\x00lid")
    assert report["result"]["meshes"][0]["parts"][0]["name"] == "crate\ufffdlid"
    assert all("\x00" not in text for _, text in strings_of(report))
    assert "namesCut" not in report["summary"]


def test_a_report_over_the_cap_is_trimmed_to_it_still_valid_and_says_what_it_left_out():
    report = many_files_report(2000)
    capped = cap_report(report, 100_000)
    VALIDATOR.validate(capped)
    assert len(json.dumps(capped, ensure_ascii=False).encode()) <= 100_000
    summary = capped["summary"]
    assert summary["truncated"] and summary["capped"]["maxBytes"] == 100_000
    assert summary["capped"]["omitted"][:3] == [
        "result.meshes[].parts",
        "issues[].occurrences",
        "files[].details",
    ]
    kept = len(capped["files"])
    assert 0 < kept < 2000 and f"files[{kept}:]" in summary["capped"]["omitted"]
    assert (summary["files"], summary["severityCounts"], capped["grade"]) == (
        2000,
        report["summary"]["severityCounts"],
        report["grade"],
    )
    assert cap_report(many_files_report(3), 100_000) == many_files_report(3)  # fits: unchanged
