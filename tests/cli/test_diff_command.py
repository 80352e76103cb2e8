"""`assetcheck diff OLD NEW` through the real CLI: model files (GLB, glTF, FBX), folders and
reports (JSON, SARIF); text, JSON and Markdown; the exit status and --fail-on."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from assetcheck.cli import main
from assetcheck.reports.markdown import WORD_JOINER
from tests.diff.models import fbx, glb, gltf
from tests.reports.test_markdown import rendered

METRIC_ROWS = {
    "vertices": "Vertices",
    "triangles": "Triangles",
    "textures": "Textures",
    "textures_gpu_memory": "Texture GPU memory",
    "file_size": "File size",
}


def diff(capsys, *args: object) -> tuple[int, str, str]:
    status = main(["diff", "--jobs", "1", *map(str, args)])
    out, err = capsys.readouterr()
    return status, out, err


def diff_json(capsys, *args: object) -> tuple[int, dict]:
    status, out, _ = diff(capsys, *args, "--format", "json")
    return status, json.loads(out)


def changed(document: dict) -> set[str]:
    (entry,) = document["files"]
    return {name for name, change in entry["statistics"].items() if change["old"] != change["new"]}


# Each format: the original, and a decimated and re-textured version (fewer triangles, and a
# larger texture for glTF, one more texture for FBX), with the statistics that change.
VERSIONS = {
    "glb": (
        lambda tmp: glb(tmp / "old" / "chair.glb"),
        lambda tmp: glb(tmp / "new" / "chair.glb", triangles=100, texture_side=128),
        {"vertices", "triangles", "textures_gpu_memory", "file_size"},
    ),
    "gltf": (
        lambda tmp: gltf(tmp / "old"),
        lambda tmp: gltf(tmp / "new", triangles=100, texture_side=128),
        {"vertices", "triangles", "textures_gpu_memory", "file_size"},
    ),
    "fbx": (
        lambda tmp: fbx(tmp / "old" / "floor.fbx"),
        lambda tmp: fbx(tmp / "new" / "floor.fbx", cells=5, textures=2),
        {"vertices", "triangles", "textures", "textures_gpu_memory", "file_size"},
    ),
}


@pytest.mark.parametrize("kind", VERSIONS)
def test_a_model_against_itself_has_no_changes(capsys, tmp_path, kind):
    model = VERSIONS[kind][0](tmp_path)
    status, out, _ = diff(capsys, model, model)
    assert status == 0
    assert out == f"{model} → {model}: No changes (1 file compared).\n"
    assert diff_json(capsys, model, model)[1]["summary"]["changed"] == 0


@pytest.mark.parametrize("kind", VERSIONS)
def test_a_decimated_and_retextured_version_names_every_change(capsys, tmp_path, kind):
    make_old, make_new, changes = VERSIONS[kind]
    old, new = make_old(tmp_path), make_new(tmp_path)
    status, document = diff_json(capsys, old, new)
    assert status == 0  # nothing got worse: fewer triangles, no new finding
    assert changed(document) == changes
    (entry,) = document["files"]
    assert entry["findings"]["added"] == [] == entry["findings"]["fixed"]
    assert any(
        b["budget"] == "triangles_per_file" and b["old"] != b["new"] for b in entry["budgets"]
    )
    _, out, _ = diff(capsys, old, new)
    for metric in changes:
        (line,) = [
            line for line in out.splitlines() if line.strip().startswith(METRIC_ROWS[metric])
        ]
        assert "→" in line
    assert "budget triangles_per_file:" in out


def test_a_new_error_exits_1_and_fixing_it_exits_0(capsys, tmp_path):
    good = glb(tmp_path / "good.glb")
    broken = glb(tmp_path / "broken.glb", texcoords=False)
    status, out, _ = diff(capsys, good, broken)
    assert status == 1
    assert f"{broken}: new error MESH_PRIMITIVE_TOO_FEW_TEXCOORDS" in out
    assert "+ error MESH_PRIMITIVE_TOO_FEW_TEXCOORDS" in out
    status, out, _ = diff(capsys, broken, good)
    assert status == 0 and "- error MESH_PRIMITIVE_TOO_FEW_TEXCOORDS" in out and "(fixed)" in out


def test_a_budget_newly_exceeded_exits_1(capsys, tmp_path):
    old, new = glb(tmp_path / "old.glb", materials=4), glb(tmp_path / "new.glb", materials=10)
    status, document = diff_json(capsys, old, new, "--engine", "mobile")
    assert status == 1
    assert {
        "kind": "budget",
        "file": str(new),
        "message": "newly over the materials budget: 10 (limit 8)",
    } in document["regressions"]
    assert diff(capsys, old, new)[0] == 0  # the generic profile allows 64 materials


def test_fail_on_thresholds_exit_1_when_a_statistic_grows_more_than_allowed(capsys, tmp_path):
    old, new = glb(tmp_path / "old.glb"), glb(tmp_path / "new.glb", triangles=230)
    assert diff(capsys, old, new, "--fail-on", "triangles:+20%")[0] == 0  # +15%
    status, out, _ = diff(
        capsys, old, new, "--fail-on", "triangles:+10%", "--fail-on", "vertices:+500"
    )
    assert status == 1
    assert "triangles grew more than triangles:+10% allows: 200 → 230 (+30, +15%)" in out
    assert "vertices" not in out.split("Worse:")[1]  # +90 vertices is within +500


@pytest.mark.parametrize(
    ("threshold", "says"),
    [
        ("triangles+10%", "argument --fail-on: write METRIC:+AMOUNT, e.g. triangles:+10%"),
        ("polys:+1", "argument --fail-on: unknown statistic 'polys'; choose one of vertices,"),
        ("file_size:+1XB", "unknown unit 'XB' for file_size; use %, B, KB, MB, GB or none"),
    ],
)
def test_a_malformed_fail_on_is_a_usage_error_saying_what_is_wrong(
    capsys, tmp_path, threshold, says
):
    model = glb(tmp_path / "chair.glb")
    with pytest.raises(SystemExit) as ended:
        diff(capsys, model, model, "--fail-on", threshold)
    assert ended.value.code == 2 and says in capsys.readouterr().err


def test_folders_pair_files_by_relative_path_and_list_added_and_removed_ones(capsys, tmp_path):
    for side in ("old", "new"):
        glb(tmp_path / side / "props" / "chair.glb", triangles=200 if side == "old" else 150)
        glb(tmp_path / side / "same.glb")
    glb(tmp_path / "old" / "gone.glb")
    glb(tmp_path / "new" / "props" / "table.glb", texcoords=False)
    status, document = diff_json(capsys, tmp_path / "old", tmp_path / "new")
    assert status == 1  # the added table has an error
    statuses = {entry["file"]: entry["status"] for entry in document["files"]}
    assert statuses == {
        "props/chair.glb": "changed",
        "props/table.glb": "added",
        "same.glb": "unchanged",
        "gone.glb": "removed",
    }
    assert [r["file"] for r in document["regressions"]] == ["props/table.glb"]
    _, out, _ = diff(capsys, tmp_path / "old", tmp_path / "new", "--exclude", "table.glb")
    assert "props/table.glb" not in out and "gone.glb: removed" in out


def test_reports_compare_as_the_models_they_were_written_from(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    glb(Path("v1/chair.glb"))
    glb(Path("v2/chair.glb"), triangles=100, texcoords=False)
    for version in ("v1", "v2"):
        main(["validate", "--jobs", "1", version, "--format", "json"])
        Path(f"{version}.json").write_text(capsys.readouterr().out)
        main(["validate", "--jobs", "1", version, "--format", "sarif"])
        Path(f"{version}.sarif").write_text(capsys.readouterr().out)
    from_models = diff_json(capsys, "v1", "v2")
    from_reports = diff_json(capsys, "v1.json", "v2.json")
    assert from_reports[0] == from_models[0] == 1
    assert from_reports[1]["files"][0]["statistics"] == from_models[1]["files"][0]["statistics"]
    # The reports name the files v1/chair.glb and v2/chair.glb, the folders' models chair.glb:
    # the same findings, with other fingerprints (the file is part of a finding's identity).
    assert said(from_reports[1]["files"][0]["findings"]) == said(
        from_models[1]["files"][0]["findings"]
    )
    # SARIF holds findings, no statistics: the findings compare, the statistics are unknown.
    status, sarif = diff_json(capsys, "v1.sarif", "v2.sarif")
    (entry,) = sarif["files"]
    assert status == 1
    assert [f["code"] for f in entry["findings"]["added"]] == ["MESH_PRIMITIVE_TOO_FEW_TEXCOORDS"]
    assert entry["statistics"]["triangles"] == {
        "old": None,
        "new": None,
        "change": None,
        "percent": None,
    }
    # A report against a model: the model is validated, the report read.
    # A report against the model it was written from: nothing changed.
    (same,) = diff_json(capsys, "v2.json", "v2/chair.glb")[1]["files"]
    assert same["status"] == "unchanged" and same["findings"]["unchanged"] > 0
    mixed = diff_json(capsys, "v1.json", "v2/chair.glb")[1]["files"][0]["findings"]
    assert said(mixed) == said(entry["findings"])


def test_the_markdown_table_parses_as_a_table_a_pull_request_shows(capsys, tmp_path):
    old = glb(tmp_path / "old.glb")
    new = glb(tmp_path / "new.glb", triangles=100, texture_side=128, texcoords=False)
    status, out, _ = diff(capsys, old, new, "--format", "markdown")
    assert status == 1
    page = rendered(out)
    files, budgets = page.tables
    assert files[0] == [
        "File",
        "Status",
        "Vertices",
        "Triangles",
        "Materials",
        "Textures",
        "Texture GPU memory",
        "File size",
        "Findings",
    ]
    assert files[1][:4] == [str(new), "changed", "600 → 300 (-300, -50%)", "200 → 100 (-100, -50%)"]
    assert files[1][-1] == "+1 / -0"
    assert budgets[0][:4] == ["Budget", "Old", "New", "Limit"]
    assert ["Triangles per file", "200", "100", "2,000,000", "✅"] in budgets
    assert (
        "AssetCheck diff: worse" in page.text
        and "MESH_PRIMITIVE_TOO_FEW_TEXCOORDS" in page.details[0]
    )


def test_no_changes_in_markdown_says_so(capsys, tmp_path):
    model = glb(tmp_path / "chair.glb")
    status, out, _ = diff(capsys, model, model, "--format", "markdown")
    page = rendered(out)
    assert status == 0 and page.tables == []
    assert "nothing got worse" in page.text and "no changes" in page.text


@pytest.mark.parametrize(
    ("make", "says"),
    [
        (
            lambda tmp: (tmp / "missing.glb", glb(tmp / "a.glb")),
            "missing.glb: not a readable file or folder",
        ),
        (lambda tmp: (tmp, glb(tmp / "a.glb")), "is a folder and"),
        (
            lambda tmp: (_write(tmp / "notes.json", '[{"hello": 1}]'), glb(tmp / "a.glb")),
            "notes.json is no report AssetCheck wrote",
        ),
        (
            lambda tmp: (_write(tmp / "fake.glb", "hello"), glb(tmp / "a.glb")),
            "fake.glb is neither a GLB, glTF, FBX, OBJ or ZIP file nor a report",
        ),
        (lambda tmp: (_write(tmp / "empty.glb", ""), glb(tmp / "a.glb")), "empty.glb is empty"),
    ],
)
def test_what_cannot_be_compared_is_a_usage_error_saying_why(capsys, tmp_path, make, says):
    old, new = make(tmp_path)
    status, out, err = diff(capsys, old, new)
    assert (status, out) == (2, "") and says in err


def test_an_unknown_format_or_engine_is_a_usage_error(capsys, tmp_path):
    model = glb(tmp_path / "chair.glb")
    with pytest.raises(SystemExit) as ended:
        diff(capsys, model, model, "--format", "sarif")
    assert ended.value.code == 2 and "invalid choice: 'sarif'" in capsys.readouterr().err
    status, _, err = diff(capsys, model, model, "--engine", "playstation")
    assert status == 2 and "playstation" in err


def said(findings: dict) -> dict:
    """The findings added and fixed, as the code and message of each."""
    return {
        state: [(f["code"], f["message"]) for f in findings[state]] for state in ("added", "fixed")
    }


def _write(path: Path, text: str) -> Path:
    path.write_text(text)
    return path


def test_the_command_as_a_process_prints_everything_and_exits_with_its_status(tmp_path):
    good, broken = glb(tmp_path / "good.glb"), glb(tmp_path / "broken.glb", texcoords=False)
    command = [str(Path(sys.executable).with_name("assetcheck")), "diff", "--format", "json"]
    done = subprocess.run([*command, good, broken], capture_output=True, text=True, check=False)
    assert done.returncode == 1 and json.loads(done.stdout)["worse"] is True


def test_names_in_the_markdown_stay_text_and_keep_the_table_whole(capsys, tmp_path):
    name = "<b>x</b>|*y*_@team.glb"
    glb(tmp_path / "old" / name)
    glb(tmp_path / "new" / name, triangles=100)
    _, out, _ = diff(capsys, tmp_path / "old", tmp_path / "new", "--format", "markdown")
    page = rendered(out)
    (files, _) = page.tables
    assert files[1][0].replace(WORD_JOINER, "") == name and len(files[1]) == len(files[0])
    assert {"b", "em", "a"}.isdisjoint(page.tags)
