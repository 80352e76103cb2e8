"""The SARIF report: valid SARIF 2.1.0 (the official JSON schema, and Microsoft's validator where
it is installed) in the shape GitHub code scanning reads.

``sarif-schema-2.1.0.json`` is the schema Microsoft's SARIF SDK ships (npm
``@microsoft/sarif-multitool-linux`` 5.7.0, ``sarif-2.1.0.json``). The validator is a .NET
program inside that npm package: ``npm install --prefix bench`` installs it (``.ci/run`` does).
"""

import json
import os
import re
import subprocess
from pathlib import Path

import jsonschema
import pytest

from assetcheck import DOCS_URL
from assetcheck.cli import main
from assetcheck.engine import validate
from assetcheck.plugins.builtin_codes import builtin_issue_types
from assetcheck.plugins.manager import PluginConfig, get_plugin_manager
from assetcheck.reports.document import build_report
from assetcheck.reports.sarif import render_sarif, render_sarif_combined
from tests.reports.cases import UPLOADS, failed_report, hostile_report

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
SCHEMA = json.loads((HERE / "sarif-schema-2.1.0.json").read_text())
VALIDATOR = jsonschema.validators.validator_for(SCHEMA)(
    SCHEMA, format_checker=jsonschema.FormatChecker()
)
MULTITOOL = (
    ROOT / "bench" / "node_modules" / "@microsoft" / "sarif-multitool-linux" / "Sarif.Multitool"
)
needs_multitool = pytest.mark.skipif(
    not os.access(MULTITOOL, os.X_OK),
    reason="Microsoft's SARIF validator is not installed: "
    "npm install --prefix bench (see bench/package.json)",
)
ISSUES_DOC = (ROOT / "docs" / "issues.md").read_text()
REGISTRY = {issue_type.code: issue_type for issue_type in builtin_issue_types()}


def report_of(tmp_path: Path, case: str) -> dict:
    upload = UPLOADS[case]
    path = tmp_path / upload.filename
    path.write_bytes(upload.content)
    pm = get_plugin_manager(PluginConfig(entry_points=False))
    return build_report(validate(path, engine=upload.engine, plugin_manager=pm))


def schema_errors(log: dict) -> list[str]:
    return [f"{list(error.path)}: {error.message}" for error in VALIDATOR.iter_errors(log)]


@pytest.fixture
def reports(tmp_path: Path) -> list[dict]:
    return [
        report_of(tmp_path, case)
        for case in ("clean_glb", "flawed_glb", "cube_fbx", "hostile_zip", "truncated_glb")
    ]


def test_every_report_and_their_combination_is_valid_against_the_sarif_schema(reports):
    logs = [json.loads(render_sarif(r)) for r in [*reports, hostile_report(3), failed_report()]]
    logs.append(json.loads(render_sarif_combined(reports)))
    for log in logs:
        assert schema_errors(log) == []
        assert log["version"] == "2.1.0" and len(log["runs"]) == 1


def test_one_rule_per_code_documented_with_a_help_uri_to_its_row_of_the_issue_table(reports):
    run = json.loads(render_sarif_combined(reports))["runs"][0]
    codes = [rule["id"] for rule in run["tool"]["driver"]["rules"]]
    assert len(codes) == len(set(codes))
    assert set(codes) == {result["ruleId"] for result in run["results"]}
    for rule, result in (
        (r, x) for x in run["results"] for r in [run["tool"]["driver"]["rules"][x["ruleIndex"]]]
    ):
        assert rule["id"] == result["ruleId"]
    for rule in run["tool"]["driver"]["rules"]:
        anchor = rule["helpUri"].removeprefix(f"{DOCS_URL}/issues.md#")
        (row,) = [line for line in ISSUES_DOC.splitlines() if f'<a id="{anchor}"></a>' in line]
        assert f"`{rule['id']}`" in row
        assert rule["shortDescription"]["text"] == REGISTRY[rule["id"]].title
        assert rule["fullDescription"]["text"] and rule["help"]["markdown"]


def test_a_result_per_issue_group_located_in_the_file_and_at_its_json_pointers(tmp_path):
    report = report_of(tmp_path, "flawed_glb")
    run = json.loads(render_sarif(report))["runs"][0]
    assert len(run["results"]) == len(report["issues"])
    missing_normals = next(g for g in report["issues"] if g["code"] == "MESH_MISSING_NORMALS")
    result = next(r for r in run["results"] if r["ruleId"] == "MESH_MISSING_NORMALS")
    (location,) = result["locations"]
    assert location["physicalLocation"]["artifactLocation"]["uri"] == "crates.glb"
    assert [logical["fullyQualifiedName"] for logical in location["logicalLocations"]] == [
        o["pointer"] for o in missing_normals["occurrences"]
    ]
    assert result["message"]["text"].endswith(f"({missing_normals['count']} occurrences)")


def test_levels_follow_severities_and_security_findings_are_ranked(tmp_path):
    report = report_of(tmp_path, "hostile_zip")
    run = json.loads(render_sarif(report))["runs"][0]
    levels = {r["ruleId"]: r["level"] for r in run["results"]}
    expected = {"error": "error", "warning": "warning", "info": "note", "hint": "note"}
    assert levels == {g["code"]: expected[g["severity"]] for g in report["issues"]}
    security = [
        rule for rule in run["tool"]["driver"]["rules"] if "security" in rule["properties"]["tags"]
    ]
    assert security and all(
        re.fullmatch(r"\d+\.\d", rule["properties"]["security-severity"]) for rule in security
    )


def test_the_health_score_and_grade_are_run_properties_the_lowest_of_several_files(reports):
    run = json.loads(render_sarif_combined(reports))["runs"][0]
    scored = [r for r in reports if r["health_score"] is not None]
    lowest = min(scored, key=lambda r: r["health_score"])
    assert (run["properties"]["healthScore"], run["properties"]["grade"]) == (
        lowest["health_score"],
        lowest["grade"],
    )
    assert [a["properties"]["grade"] for a in run["artifacts"]] == [r["grade"] for r in reports]
    single = json.loads(render_sarif(reports[0]))["runs"][0]["properties"]
    assert (single["healthScore"], single["grade"]) == (100, "excellent")


def test_a_failed_jobs_report_is_one_error_result_with_the_advice():
    run = json.loads(render_sarif(failed_report()))["runs"][0]
    (result,) = run["results"]
    assert (result["ruleId"], result["level"]) == ("VALIDATION_TIMEOUT", "error")
    assert run["tool"]["driver"]["rules"][0]["help"]["text"]
    assert run["properties"]["healthScore"] is None


def test_the_cli_writes_one_sarif_log_for_a_folder_with_paths_as_artifacts(
    tmp_path, monkeypatch, capsys
):
    for case in ("clean_glb", "flawed_glb"):
        (tmp_path / "assets" / case).mkdir(parents=True)
        (tmp_path / "assets" / case / UPLOADS[case].filename).write_bytes(UPLOADS[case].content)
    monkeypatch.chdir(tmp_path)
    status = main(["validate", "--format", "sarif", "--jobs", "1", "assets"])
    log = json.loads(capsys.readouterr().out)
    assert status == 0 and schema_errors(log) == []
    assert [a["location"]["uri"] for a in log["runs"][0]["artifacts"]] == [
        "assets/clean_glb/rock.glb",
        "assets/flawed_glb/crates.glb",
    ]


@needs_multitool
def test_microsofts_sarif_validator_finds_nothing_to_say(tmp_path, reports):
    paths = []
    for name, text in (
        ("one", render_sarif(reports[1])),
        ("all", render_sarif_combined(reports)),
        ("failed", render_sarif(failed_report())),
    ):
        paths.append(tmp_path / f"{name}.sarif")
        paths[-1].write_text(text, encoding="utf-8")
    findings = multitool_findings(paths, tmp_path / "validation.sarif")
    assert findings == [], [r["message"] for r in findings]


def multitool_findings(paths: list[Path], output: Path) -> list[dict]:
    """What Microsoft's SARIF validator says of the SARIF files ``paths`` (its results, written
    to ``output``); it must run to the end."""
    done = subprocess.run(
        [MULTITOOL, "validate", *paths, "--output", output, "--log", "ForceOverwrite"],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        env={**os.environ, "DOTNET_SYSTEM_GLOBALIZATION_INVARIANT": "1"},
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return [r for run in json.loads(output.read_text())["runs"] for r in run["results"]]
