"""`assetcheck validate FOLDER --include/--exclude --jobs N`: what is picked, in which order."""

import json
from pathlib import Path

import pytest

from assetcheck.cli import main
from assetcheck.testing.gltf import GltfBuilder, Primitive
from tests.formats.obj.test_obj_reader import CUBE, MTL, png


def quad_glb(path: Path) -> Path:
    builder = GltfBuilder()
    quad = Primitive(4, index_count=6, material=builder.add_material(), normals=True)
    builder.add_node(builder.add_mesh([quad], "quad"))
    path.parent.mkdir(parents=True, exist_ok=True)
    return builder.write_glb(path)


@pytest.fixture
def assets(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """``assets/`` with models in sub-folders, a texture, a hidden folder and a broken GLB."""
    for name in (
        "props/chair.glb",
        "props/raw/chair_raw.glb",
        "chars/hero.glb",
        "chars/hero_lod1.glb",
        ".git/objects/blob.glb",
    ):
        quad_glb(tmp_path / "assets" / name)
    (tmp_path / "assets" / "props" / "wood.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    good = (tmp_path / "assets" / "chars" / "hero.glb").read_bytes()
    (tmp_path / "assets" / "broken.glb").write_bytes(good[:-10])
    monkeypatch.chdir(tmp_path)
    return Path("assets")


def validate(capsys, *args: str) -> tuple[int, list[dict], str]:
    status = main(["validate", "--format", "json", *args])
    out, err = capsys.readouterr()
    reports = json.loads(out) if out else []
    return status, reports if isinstance(reports, list) else [reports], err


def names(reports: list[dict]) -> list[str]:
    return [report["filename"] for report in reports]


def test_a_folder_yields_its_model_files_recursively_in_order_skipping_hidden_folders(
    capsys, assets
):
    status, reports, _ = validate(capsys, "--jobs", "1", str(assets))
    assert names(reports) == [
        "assets/broken.glb",
        "assets/chars/hero.glb",
        "assets/chars/hero_lod1.glb",
        "assets/props/chair.glb",
        "assets/props/raw/chair_raw.glb",
    ]
    assert status == 1  # broken.glb has errors


def test_include_and_exclude_filter_by_name_or_by_relative_path(capsys, assets):
    _, reports, _ = validate(
        capsys,
        "--jobs",
        "1",
        "--include",
        "*.glb",
        "--exclude",
        "*_lod?.glb",
        "--exclude",
        "props/raw/",
        "--exclude",
        "broken*",
        str(assets),
    )
    assert names(reports) == ["assets/chars/hero.glb", "assets/props/chair.glb"]
    _, reports, _ = validate(capsys, "--jobs", "1", "--include", "props/*", str(assets))
    assert names(reports) == ["assets/props/chair.glb", "assets/props/raw/chair_raw.glb"]


def test_a_file_named_explicitly_is_validated_once_whatever_the_patterns(capsys, assets):
    status, reports, _ = validate(
        capsys,
        "--jobs",
        "1",
        "--exclude",
        "*",
        "--include",
        "x",
        "assets/chars/hero.glb",
        "./assets/chars/hero.glb",
    )
    assert (status, names(reports)) == (0, ["assets/chars/hero.glb"])


def test_parallel_jobs_give_the_same_reports_in_the_order_of_the_inputs(capsys, assets):
    inputs = ["assets/props/chair.glb", "assets/broken.glb", "assets/chars"]
    serial_status, serial, _ = validate(capsys, "--jobs", "1", *inputs)
    parallel_status, parallel, _ = validate(capsys, "--jobs", "2", *inputs)
    assert names(parallel) == [
        "assets/props/chair.glb",
        "assets/broken.glb",
        "assets/chars/hero.glb",
        "assets/chars/hero_lod1.glb",
    ]
    without_timings = [{**report, "timings": None} for report in serial]
    assert [{**report, "timings": None} for report in parallel] == without_timings
    assert parallel_status == serial_status == 1


def test_a_folder_with_nothing_to_validate_is_a_usage_error(capsys, assets):
    status, reports, err = validate(capsys, "--exclude", "*.glb", str(assets))
    assert status == 2 and reports == []
    assert "assets: no GLB, glTF, FBX, OBJ, USD or ZIP files match the patterns" in err


def test_a_missing_path_is_named_and_the_others_still_validated(capsys, assets):
    status, reports, err = validate(capsys, "--jobs", "2", "nowhere", "assets/chars")
    assert status == 2 and "nowhere: not a readable file or folder" in err
    assert names(reports) == ["assets/chars/hero.glb", "assets/chars/hero_lod1.glb"]


def test_jobs_must_be_at_least_one(capsys, assets):
    status, _, err = validate(capsys, "--jobs", "0", str(assets))
    assert status == 2 and "--jobs takes a number of processes, at least 1" in err


def test_a_folder_yields_its_obj_files_read_with_their_mtl_and_textures(capsys, tmp_path):
    folder = tmp_path / "objs"
    (folder / "textures").mkdir(parents=True)
    (folder / "cube.obj").write_bytes(CUBE)
    (folder / "cube.mtl").write_bytes(MTL)  # a material library is no model file
    (folder / "textures" / "albedo map.png").write_bytes(png())
    (folder / "textures" / "normal.png").write_bytes(png())

    status, reports, _ = validate(capsys, str(folder))

    assert names(reports) == [f"{folder}/cube.obj"]
    (mesh,) = reports[0]["result"]["meshes"]
    assert (mesh["vertexCount"], mesh["triangleCount"], mesh["usesPBR"]) == (8, 12, True)
    assert not [group for group in reports[0]["issues"] if group["code"].startswith("OBJ_")]
    assert status == 0
