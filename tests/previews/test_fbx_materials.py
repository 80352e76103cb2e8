"""The viewer's GLB of an FBX file split by material, with the images its materials sample,
and the overlays' list of texture uses under the names the texture findings give them."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from assetcheck.plugins.manager import get_plugin_manager
from assetcheck.previews.viewer_glb import CLAY
from assetcheck.testing.fbx import MaterialSpec, MeshSpec, Scene, VideoSpec, binary_fbx, cube
from assetcheck.testing.shapes import pawn_glb
from assetcheck.testing.zip import zip_of
from tests.formats.gltf.texture_cases import OBJECT_SPACE, channels, encoded, ramp
from tests.formats.obj.test_obj_reader import CUBE
from tests.previews.test_viewer_files import viewer_files

#: The polygons of :func:`~assetcheck.testing.fbx.cube` that face +x, +y and +z (the
#: viewer's camera sees them) are drawn with material slot 0, the others with slot 1.
FACING_SLOTS = [1, 0, 1, 0, 1, 0]
#: A base colour whose alpha an opaque material ignores (TEXTURE_ALPHA_IGNORED): red
#: from 60 to 200 on green and blue 100.
SEE_THROUGH = encoded(channels(ramp(60, 200), 100, 100, ramp(0, 255)))
#: A base colour with an alpha channel that is fully opaque (TEXTURE_ALPHA_OPAQUE).
OPAQUE_ALPHA = encoded(channels(ramp(60, 200), 100, 100, 255))


def textured_box(name: str = "Box") -> MeshSpec:
    """A cube whose three facing polygons are drawn with ``Wood`` and the others with
    ``Stone``, each polygon showing a whole texture (UVs by corner)."""
    box = cube(name, ["Wood", "Stone"])
    box.material_slots = FACING_SLOTS
    box.uv_values = [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)]
    box.uv_index = [0, 1, 2, 3] * 6
    return box


def textured_parts_fbx() -> bytes:
    """:func:`textured_box` beside an untextured cube ``Crate``: ``Wood`` embeds an
    object-space normal map (NORMAL_MAP_NOT_TANGENT_SPACE), a base colour with transparent
    texels though it is opaque (TEXTURE_ALPHA_IGNORED) and a one-colour specular map
    (TEXTURE_SINGLE_COLOR), the textures of ``tests/reports/cases.py``'s ``textured_fbx``;
    ``Stone`` has no texture; ``Spare``, which no polygon is drawn with, a base colour with
    an alpha channel that is fully opaque (TEXTURE_ALPHA_OPAQUE)."""
    crate = replace(cube("Crate"), translation=(3.0, 0.0, 0.0))
    return binary_fbx(
        Scene(
            meshes=[textured_box(), crate],
            materials=[MaterialSpec("Wood"), MaterialSpec("Stone"), MaterialSpec("Spare")],
            videos=[
                VideoSpec("bumps", "bumps.png", encoded(OBJECT_SPACE), [("Wood", "NormalMap")]),
                VideoSpec("wood", "wood.png", SEE_THROUGH, [("Wood", "DiffuseColor")]),
                VideoSpec(
                    "shine", "shine.png", encoded(channels(90, 90, 90)), [("Wood", "SpecularColor")]
                ),
                VideoSpec("glass", "glass.png", OPAQUE_ALPHA, [("Spare", "DiffuseColor")]),
            ],
        )
    )


@pytest.fixture(scope="module")
def plugin_manager():
    return get_plugin_manager()


def test_each_material_gets_its_primitives_and_the_images_it_samples_come_inside_the_glb(
    tmp_path: Path, plugin_manager
):
    model, document, overlays = viewer_files(
        tmp_path, plugin_manager, "wood.fbx", textured_parts_fbx()
    )
    names = [material["name"] for material in document["materials"]]
    assert names == ["clay", "Wood", "Stone", "Spare"]
    assert all(
        m["pbrMetallicRoughness"] == CLAY["pbrMetallicRoughness"] for m in document["materials"]
    )
    box, crate = document["meshes"]
    assert [p["material"] for p in box["primitives"]] == [1, 2]
    counts = [document["accessors"][p["indices"]]["count"] for p in box["primitives"]]
    assert counts == [3 * 2 * 3, 3 * 2 * 3]  # three quads each
    assert all(p["extras"] == {"name": "Box"} for p in box["primitives"])
    assert [p["material"] for p in crate["primitives"]] == [0]
    assert [image["mimeType"] for image in document["images"]] == ["image/png"] * 4
    assert document["textures"] == [{"source": n} for n in range(4)]
    binary = model.read_bytes()
    second = document["bufferViews"][document["images"][1]["bufferView"]]
    start = len(binary) - document["buffers"][0]["byteLength"] + second["byteOffset"]
    assert binary[start : start + second["byteLength"]] == SEE_THROUGH

    assert overlays["textures"] == [
        {
            "material": "Wood (slot NormalMap)",
            "images": ["bumps (bumps.png)"],
            "viewerMaterial": 1,
            "viewerImage": 0,
        },
        {
            "material": "Wood (slot DiffuseColor)",
            "images": ["wood (wood.png)"],
            "viewerMaterial": 1,
            "viewerImage": 1,
        },
        {
            "material": "Wood (slot SpecularColor)",
            "images": ["shine (shine.png)"],
            "viewerMaterial": 1,
            "viewerImage": 2,
        },
        {
            "material": "Spare (slot DiffuseColor)",
            "images": ["glass (glass.png)"],
            "viewerMaterial": 3,
            "viewerImage": 3,
        },
    ]


def test_an_image_file_beside_the_fbx_in_its_zip_comes_inside_the_glb(
    tmp_path: Path, plugin_manager
):
    scene = Scene(
        meshes=[textured_box()],
        materials=[MaterialSpec("Wood"), MaterialSpec("Stone")],
        videos=[VideoSpec("wood", "textures\\wood.png", b"", [("Wood", "DiffuseColor")])],
    )
    upload = zip_of({"box.fbx": binary_fbx(scene), "textures/wood.png": SEE_THROUGH})
    _, document, overlays = viewer_files(tmp_path, plugin_manager, "box.zip", upload)
    assert len(document["images"]) == 1
    [use] = overlays["textures"]
    assert use["images"] == ["wood (textures\\wood.png)"] and use["viewerImage"] == 0


def test_a_texture_the_browser_cannot_decode_or_the_upload_lacks_still_names_its_parts(
    tmp_path: Path, plugin_manager
):
    targa = bytes([0, 0, 2]) + b"\0" * 15 + b"\x80" * 48
    scene = Scene(
        meshes=[textured_box()],
        materials=[MaterialSpec("Wood"), MaterialSpec("Stone")],
        videos=[
            VideoSpec("bumps", "bumps.tga", targa, [("Wood", "NormalMap")]),
            VideoSpec("wood", "wood.png", b"", [("Wood", "DiffuseColor")]),  # not uploaded
        ],
    )
    _, document, overlays = viewer_files(tmp_path, plugin_manager, "box.fbx", binary_fbx(scene))
    assert "images" not in document and "textures" not in document
    assert overlays["textures"] == [
        {"material": "Wood (slot NormalMap)", "images": ["bumps (bumps.tga)"], "viewerMaterial": 1},
        {
            "material": "Wood (slot DiffuseColor)",
            "images": ["wood (wood.png)"],
            "viewerMaterial": 1,
        },
    ]
    assert [p["material"] for p in document["meshes"][0]["primitives"]] == [1, 2]


def test_names_are_cut_as_the_report_cuts_them(tmp_path: Path, plugin_manager):
    long = "W" * 300
    scene = Scene(
        meshes=[cube("Box", [long])],
        materials=[MaterialSpec(long)],
        videos=[VideoSpec("wood", "wood.png", SEE_THROUGH, [(long, "DiffuseColor")])],
    )
    _, _, overlays = viewer_files(tmp_path, plugin_manager, "box.fbx", binary_fbx(scene))
    [use] = overlays["textures"]
    assert len(use["material"]) == 255 and use["material"].endswith("[cut from 320]")


@pytest.mark.parametrize(
    ("name", "content"),
    [("pawn.glb", pawn_glb()), ("cube.obj", CUBE)],
)
def test_other_formats_list_no_texture_uses_and_obj_meshes_stay_in_clay(
    tmp_path: Path, plugin_manager, name: str, content: bytes
):
    _, document, overlays = viewer_files(tmp_path, plugin_manager, name, content)
    assert "textures" not in overlays
    if name.endswith(".obj"):
        assert document["materials"] == [CLAY]
        assert {p["material"] for m in document["meshes"] for p in m["primitives"]} == {0}


def test_a_material_whose_polygons_have_no_finite_corner_gets_no_primitive(
    tmp_path: Path, plugin_manager
):
    nan = float("nan")
    quads = MeshSpec(
        "Quads",
        [(0.0, 0.0, 0.0), (1.0, 0.0, 0.0), (1.0, 1.0, 0.0), (0.0, 1.0, 0.0)] + [(nan,) * 3] * 4,
        [[0, 1, 2, 3], [4, 5, 6, 7]],
        ["Wood", "Stone"],
        material_slots=[0, 1],
    )
    scene = Scene(meshes=[quads], materials=[MaterialSpec("Wood"), MaterialSpec("Stone")])
    _, document, _ = viewer_files(tmp_path, plugin_manager, "quads.fbx", binary_fbx(scene))
    [primitive] = document["meshes"][0]["primitives"]
    assert primitive["material"] == 1
    assert document["accessors"][primitive["indices"]]["count"] == 6
