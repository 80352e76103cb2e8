"""USD files get a preview picture and a viewer GLB, drawn as FBX and OBJ files are: placed by
the prims that draw them, in metres with +Y up."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from assetcheck.plugins.manager import get_plugin_manager
from assetcheck.previews.drawing import preview_path
from tests.formats.usd.test_usd_reader import ASSETS, TRIANGLE
from tests.previews import draw_previews
from tests.previews.test_viewer_files import viewer_files


@pytest.fixture(scope="module")
def plugin_manager():
    return get_plugin_manager()


def test_a_usdz_gets_a_preview_picture(tmp_path: Path, plugin_manager):
    upload = tmp_path / "upload"
    upload.write_bytes((ASSETS / "cube.usdz").read_bytes())

    assert draw_previews(upload, "cube.usdz", plugin_manager) == 1
    assert preview_path(tmp_path, "cube.usdz").stat().st_size > 0


def test_a_usdz_becomes_a_glb_of_its_meshes_in_clay(tmp_path: Path, plugin_manager):
    _, document, overlays = viewer_files(
        tmp_path, plugin_manager, "cube.usdz", (ASSETS / "cube.usdz").read_bytes()
    )

    [mesh] = document["meshes"]
    [primitive] = mesh["primitives"]
    assert mesh["name"] == "/Root/Cube" and document["nodes"][0]["name"] == "/Root/Cube"
    assert document["accessors"][primitive["indices"]]["count"] == 12 * 3
    assert document["materials"][0]["name"] == "clay"
    assert overlays["entries"] == []


def test_a_z_up_layer_in_centimetres_is_drawn_in_metres_with_y_up(tmp_path, plugin_manager):
    layer = TRIANGLE.replace(b"metersPerUnit = 1", b"metersPerUnit = 0.01")
    layer = layer.replace(b'upAxis = "Y"', b'upAxis = "Z"').replace(b"(0, 1, 0)]", b"(0, 0, 100)]")

    _, document, _ = viewer_files(tmp_path, plugin_manager, "tri.usda", layer)

    [primitive] = document["meshes"][0]["primitives"]
    position = document["accessors"][primitive["attributes"]["POSITION"]]
    assert np.allclose(position["max"], [0.01, 1, 0], atol=1e-6)  # 100 cm up is 1 m up
