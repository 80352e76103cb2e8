"""OBJ files get a preview picture and a viewer GLB, drawn as FBX files are: every OBJ of
Debian's assimp-testmodels with faces (skipped, saying so, where absent), and the viewer's GLB
and overlays of a small one."""

from __future__ import annotations

from pathlib import Path

import pytest

from assetcheck.plugins.manager import get_plugin_manager
from assetcheck.previews.drawing import preview_path
from tests.formats.obj.test_obj_reader import CUBE
from tests.previews import draw_previews
from tests.previews.test_viewer_files import viewer_files

ASSIMP_OBJ = Path("/usr/share/assimp/models/OBJ")
#: The assimp models without faces: nothing to draw.
WITHOUT_FACES = {"box_UTF16BE.obj", "point_cloud.obj", "testline.obj", "testpoints.obj"}


def drawable_obj_files() -> list:
    if not ASSIMP_OBJ.is_dir():
        reason = "Debian's assimp-testmodels package is absent"
        return [pytest.param(None, marks=pytest.mark.skip(reason=reason))]
    return [
        pytest.param(path, id=path.name)
        for path in sorted(ASSIMP_OBJ.glob("*.obj"))
        if path.name not in WITHOUT_FACES
    ]


@pytest.fixture(scope="module")
def plugin_manager():
    return get_plugin_manager()


@pytest.mark.parametrize("path", drawable_obj_files())
def test_a_real_obj_file_gets_a_preview_picture(tmp_path, plugin_manager, path: Path):
    upload = tmp_path / "upload"
    upload.write_bytes(path.read_bytes())
    assert draw_previews(upload, path.name, plugin_manager) == 1
    assert preview_path(tmp_path, path.name).stat().st_size > 0


def test_an_obj_becomes_a_glb_of_its_meshes_in_clay(tmp_path: Path, plugin_manager):
    _, document, overlays = viewer_files(tmp_path, plugin_manager, "cube.obj", CUBE)

    assert [mesh["name"] for mesh in document["meshes"]] == ["cube (painted)", "cube (plain)"]
    assert [node["name"] for node in document["nodes"]] == ["cube (painted)", "cube (plain)"]
    for mesh in document["meshes"]:
        [primitive] = mesh["primitives"]
        assert primitive["extras"] == {"name": mesh["name"]} and primitive["material"] == 0
        assert document["accessors"][primitive["indices"]]["count"] == 6 * 3
    assert document["materials"][0]["name"] == "clay"
    assert overlays["entries"] == []


def test_the_viewer_marks_an_objs_zero_area_triangles(tmp_path: Path, plugin_manager):
    flat = b"o strip\nv 0 0 0\nv 1 0 0\nv 2 0 0\nv 0 1 0\nf 1 2 4\nf 1 2 3\n"

    _, _, overlays = viewer_files(tmp_path, plugin_manager, "flat.obj", flat)

    [entry] = overlays["entries"]
    assert (entry["code"], entry["name"], entry["count"]) == (
        "MESH_ZERO_AREA_TRIANGLES",
        "strip",
        1,
    )
