"""A file format added by a plugin through the public hooks alone (MESH1,
``tests/plugins/mesh_format.py``) is recognised, read, scanned, checked, scored and reported
like a built-in one, by the engine and by ``assetcheck validate`` (``docs/architecture.md``,
Adding a format). The service takes it too: ``tests/service/webapp/test_uploads.py``."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pluggy
import pytest

from assetcheck.asset.options import ValidationOptions
from assetcheck.cli import main
from assetcheck.engine import validate
from assetcheck.plugins.manager import PluginConfig, get_plugin_manager
from assetcheck.reports import render
from assetcheck.reports.document import build_report
from assetcheck.testing import zip_of
from tests.plugins import mesh_format

#: A clean MESH1 file: one triangle.
TRIANGLE = "MESH1\nv 0 0 0\nv 1 0 0\nv 0 1 0\nf 0 1 2\n"
#: A triangle with no area, and an include that leaves the upload.
FLAWED = TRIANGLE + "f 0 0 1\ninclude ../../etc/passwd\n"


@pytest.fixture(scope="module")
def pm() -> pluggy.PluginManager:
    return get_plugin_manager(PluginConfig(entry_points=False, extra=(mesh_format,)))


def write(folder: Path, name: str, content: str | bytes) -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(content.encode() if isinstance(content, str) else content)
    return path


def test_its_files_are_recognised_by_content_and_read_by_its_reader(tmp_path, pm):
    result = validate(write(tmp_path, "triangle.txt", TRIANGLE), plugin_manager=pm)
    (asset,) = result.assets
    assert (asset.format, asset.vertex_count, asset.triangle_count) == ("mesh", 3, 1)
    assert result.issues == [] and (result.health_score, result.grade) == (100, "excellent")


def test_a_name_claiming_another_format_is_a_mismatch_advising_its_extension(tmp_path, pm):
    result = validate(write(tmp_path, "triangle.glb", TRIANGLE), plugin_manager=pm)
    (issue,) = result.issues
    assert issue.message == "triangle.glb is named like a glb file but its content is mesh."
    assert issue.fix == "Rename the file with the extension of its real format (.mesh)."
    assert [asset.format for asset in result.assets] == ["mesh"]


def test_its_security_rule_feeds_the_security_scan(tmp_path, pm):
    result = validate(write(tmp_path, "flawed.mesh", FLAWED), plugin_manager=pm)
    (warning,) = result.security.warnings
    assert (warning.code, warning.severity) == ("MESH_UNSAFE_INCLUDE", "high")
    assert warning.message == "flawed.mesh includes ../../etc/passwd, which is outside the upload."
    assert not result.security.safe and result.security.scanned_files == 1


def test_its_check_runs_on_its_files(tmp_path, pm):
    result = validate(write(tmp_path, "flawed.mesh", FLAWED), plugin_manager=pm)
    (degenerate,) = [i for i in result.issues if i.code == "MESH_DEGENERATE_TRIANGLE"]
    assert (degenerate.pointer, degenerate.source) == (
        "/triangles/1",
        "tests.plugins.mesh_format:mesh-triangles",
    )
    assert not any(run.crashed for run in result.checks)


def test_the_checks_of_every_format_run_on_it_too(tmp_path, pm):
    options = ValidationOptions(budget_overrides={"triangles_per_file": 1})
    flawed = write(tmp_path, "flawed.mesh", FLAWED)  # two triangles
    (over,) = [
        i
        for i in validate(flawed, options=options, plugin_manager=pm).issues
        if i.code.startswith("BUDGET_")
    ]
    assert (over.code, over.source) == (
        "BUDGET_TRIANGLES_PER_FILE",
        "assetcheck.checks.budgets:engine-budgets",
    )


def test_its_findings_are_scored_like_any_format(tmp_path, pm):
    clean = validate(write(tmp_path, "triangle.mesh", TRIANGLE), plugin_manager=pm)
    degenerate = validate(
        write(tmp_path, "degenerate.mesh", TRIANGLE + "f 0 0 1\n"), plugin_manager=pm
    )
    flawed = validate(write(tmp_path, "flawed.mesh", FLAWED), plugin_manager=pm)
    assert clean.health_score > degenerate.health_score > flawed.health_score
    assert (degenerate.severity_counts["warning"], flawed.severity_counts["error"]) == (1, 1)
    assert build_report(degenerate)["valid"] and not build_report(flawed)["valid"]


@pytest.mark.parametrize("format_name", ["markdown", "text", "junit", "sarif"])
def test_it_is_reported_in_json_markdown_text_junit_and_sarif(tmp_path, pm, format_name):
    report = build_report(validate(write(tmp_path, "flawed.mesh", FLAWED), plugin_manager=pm))
    (entry,) = report["files"]
    assert (entry["format"], entry["details"]) == ("mesh", {"version": 1})  # lists stay out
    assert {group["code"] for group in report["issues"]} == {
        "MESH_DEGENERATE_TRIANGLE",
        "MESH_UNSAFE_INCLUDE",
    }
    rendered, _ = render(pm, json.loads(json.dumps(report)), format_name)
    assert "MESH_DEGENERATE_TRIANGLE" in rendered and "flawed.mesh" in rendered


def test_its_files_inside_a_zip_are_read_as_members(tmp_path, pm):
    archive = zip_of({"models/triangle.mesh": TRIANGLE.encode(), "notes.txt": b"hello"})
    result = validate(write(tmp_path, "pack.zip", archive), plugin_manager=pm)
    assert [(asset.filename, asset.format) for asset in result.assets] == [
        ("models/triangle.mesh", "mesh")
    ]
    assert result.security.scanned_files == 3


def test_the_upload_messages_name_it_and_do_not_without_the_plugin(tmp_path, pm):
    other = write(tmp_path, "model.bin", "MESH2\n")
    (issue,) = validate(other, plugin_manager=pm).issues
    assert issue.message == (
        "model.bin is not a GLB, glTF, FBX, OBJ, USD, ZIP or MESH1 file (its content matches none "
        "of them)."
    )
    assert issue.fix == (
        "Export the model as GLB, glTF, FBX, OBJ, USD or MESH1, or pack such files in a ZIP."
    )
    without = get_plugin_manager(PluginConfig(entry_points=False))
    (issue,) = validate(write(tmp_path, "triangle.mesh", TRIANGLE), plugin_manager=without).issues
    assert issue.message.startswith("triangle.mesh is not a GLB, glTF, FBX, OBJ, USD or ZIP file")


def validate_command(tmp_path: Path, *args: str, plugins: bool = True) -> int:
    """``assetcheck validate`` with a config file whose ``[plugins] dir`` holds the MESH1
    plugin (or an empty one)."""
    rules = tmp_path / "rules"
    rules.mkdir(exist_ok=True)
    if plugins:
        shutil.copy(mesh_format.__file__, rules / "mesh_format.py")
    config = write(tmp_path, "assetcheck.toml", '[plugins]\ndir = "rules"\n')
    return main(["validate", "--config", str(config), *args])


@pytest.fixture
def assets(tmp_path: Path) -> Path:
    """A folder with a clean and a flawed MESH1 file, and a file of no format."""
    write(tmp_path, "assets/triangle.mesh", TRIANGLE)
    write(tmp_path, "assets/parts/flawed.mesh", FLAWED)
    write(tmp_path, "assets/readme.txt", "not a model")
    return tmp_path / "assets"


def test_the_command_line_picks_its_files_out_of_folders_and_reports_them(tmp_path, assets, capsys):
    status = validate_command(tmp_path, "--format", "json", "--jobs", "2", str(assets))
    reports = json.loads(capsys.readouterr().out)
    assert status == 1  # the flawed file has errors
    assert [(Path(r["filename"]).name, r["files"][0]["format"], r["grade"]) for r in reports] == [
        ("triangle.mesh", "mesh", "excellent"),
        ("flawed.mesh", "mesh", "poor"),
    ]
    validate_command(tmp_path, "--format", "junit", str(assets / "parts"))
    assert "MESH_UNSAFE_INCLUDE" in capsys.readouterr().out


def test_without_the_plugin_the_command_line_finds_no_files_in_the_folder(tmp_path, assets, capsys):
    assert validate_command(tmp_path, str(assets), plugins=False) == 2
    assert f"{assets}: no GLB, glTF, FBX, OBJ, USD or ZIP files" in capsys.readouterr().err
