"""The geometry checks on FBX files built in code, binary and ASCII, FBX 6 and 7 layouts."""

from __future__ import annotations

import pytest

from assetcheck.asset.options import ValidationOptions
from assetcheck.engine import validate
from assetcheck.testing.fbx import (
    MaterialSpec,
    MeshSpec,
    Scene,
    VideoSpec,
    ascii_fbx,
    binary_fbx,
    cube,
)
from assetcheck.testing.gltf import png_bytes
from assetcheck.testing.zip import zip_of
from tests.formats import codes, only_issue, validate_bytes

ENCODINGS = {
    "binary-6100": lambda scene: binary_fbx(scene, 6100),
    "binary-7400-zlib": lambda scene: binary_fbx(scene, 7400, compress=True),
    "binary-7700": lambda scene: binary_fbx(scene, 7700),
    "ascii-6100": lambda scene: ascii_fbx(scene, 6100),
    "ascii-7400": lambda scene: ascii_fbx(scene, 7400),
}
encodings = pytest.mark.parametrize("encode", ENCODINGS.values(), ids=ENCODINGS.keys())

SQUARE = [(0.0, 0.0, 0.0), (1.0, 0.0, 0.0), (1.0, 1.0, 0.0), (0.0, 1.0, 0.0)]


def triangles(name: str, points: list, polygons: list, **options) -> MeshSpec:
    return MeshSpec(name, points, polygons, **options)


def check(tmp_path, encode, *meshes: MeshSpec, **scene_options):
    return validate_bytes(tmp_path, "m.fbx", encode(Scene(meshes=list(meshes), **scene_options)))


@encodings
def test_a_clean_cube_has_no_geometry_issue(tmp_path, encode):
    result = check(tmp_path, encode, cube("Crate"))
    geometry = {
        "MESH_ZERO_AREA_TRIANGLES",
        "MESH_DUPLICATE_TRIANGLES",
        "MESH_UNUSED_VERTICES",
        "MESH_MISSING_NORMALS",
        "FBX_NON_UNIT_NORMALS",
        "NODE_NEGATIVE_SCALE",
        "MODEL_EXTREMELY_LARGE",
        "MODEL_EXTREMELY_SMALL",
        "FBX_INVALID_GEOMETRY",
    }
    assert geometry.isdisjoint(codes(result))


@encodings
def test_collinear_and_repeated_corners_are_zero_area_triangles(tmp_path, encode):
    points = [*SQUARE, (2.0, 0.0, 0.0)]
    mesh = triangles("Sliver", points, [[0, 1, 2], [0, 1, 4], [0, 2, 2]])
    issue = only_issue(check(tmp_path, encode, mesh), "MESH_ZERO_AREA_TRIANGLES")
    assert issue.message.startswith("Mesh Sliver: 2 of 3 triangles have zero area")


@encodings
def test_a_triangle_drawn_twice_the_same_way_is_a_duplicate(tmp_path, encode):
    mesh = triangles("Twice", SQUARE, [[0, 1, 2], [1, 2, 0], [0, 2, 1], [0, 2, 3]])
    issue = only_issue(check(tmp_path, encode, mesh), "MESH_DUPLICATE_TRIANGLES")
    assert issue.message.startswith("Mesh Twice: 1 of 4 triangles lie exactly on another")


@encodings
def test_control_points_no_polygon_uses_are_unused_vertices(tmp_path, encode):
    mesh = triangles("Loose", [*SQUARE, (5.0, 5.0, 5.0)], [[0, 1, 2, 3]])
    issue = only_issue(check(tmp_path, encode, mesh), "MESH_UNUSED_VERTICES")
    assert issue.message.startswith("Mesh Loose: 1 of 5 vertices belong to no triangle")


@encodings
def test_a_mesh_without_normals_misses_normals(tmp_path, encode):
    mesh = triangles("Flat", SQUARE, [[0, 1, 2, 3]], normals=False)
    assert only_issue(check(tmp_path, encode, mesh), "MESH_MISSING_NORMALS").message.startswith(
        "Mesh Flat has no vertex normals"
    )


@encodings
def test_normals_longer_than_one_are_not_unit(tmp_path, encode):
    mesh = triangles("Long", SQUARE, [[0, 1, 2, 3]], normal=(0.0, 0.0, 2.0))
    issue = only_issue(check(tmp_path, encode, mesh), "FBX_NON_UNIT_NORMALS")
    assert issue.message.startswith(
        "Mesh Long: 4 of 4 normals are not of unit length; the first, number 0, has length 2.0."
    )


@encodings
def test_a_negative_scale_mirrors_the_node(tmp_path, encode):
    mesh = cube("Mirror")
    mesh.scale = (-1.0, 1.0, 1.0)
    issue = only_issue(check(tmp_path, encode, mesh), "NODE_NEGATIVE_SCALE")
    assert issue.message.startswith("Node Mirror draws its mesh mirrored")


@encodings
def test_size_is_measured_in_metres_after_the_unit_scale(tmp_path, encode):
    # A 2-unit cube scaled 1000 times, in metres (100 cm per unit): 2 km across.
    mesh = cube("Tower")
    mesh.scale = (1000.0, 1000.0, 1000.0)
    large = check(tmp_path, encode, mesh, unit_scale_cm=100.0)
    in_centimetres = check(tmp_path, encode, mesh, unit_scale_cm=1.0)  # 20 m: fine
    assert only_issue(large, "MODEL_EXTREMELY_LARGE").message.startswith("The model is 2 km across")
    assert "MODEL_EXTREMELY_LARGE" not in codes(in_centimetres)


@encodings
def test_a_tiny_model_is_extremely_small(tmp_path, encode):
    mesh = cube("Speck")
    mesh.scale = (0.001, 0.001, 0.001)  # 2 mm in units of 1 cm: 0.02 mm
    assert "MODEL_EXTREMELY_SMALL" in codes(check(tmp_path, encode, mesh))


@pytest.mark.parametrize(
    ("raw", "reason"),
    [
        ([0, 1, 2, -4], "control point 3"),
        ([0, 1, 2], "its last polygon has no end"),
        ([0, 1, 9, -1], "control point 9"),
    ],
)
@encodings
def test_damaged_polygon_indices_are_invalid_geometry(tmp_path, encode, raw, reason):
    mesh = triangles("Broken", SQUARE[:3], [[0, 1, 2]], raw_indices=raw)
    result = check(tmp_path, encode, mesh)
    if "FBX_PARSE_ERROR" in codes(result):  # ufbx refused it first: as clear an issue
        return
    assert reason in only_issue(result, "FBX_INVALID_GEOMETRY").message
    assert "MESH_ZERO_AREA_TRIANGLES" not in codes(result)


def two_triangles(name: str, **options) -> MeshSpec:
    """A square of two triangles with one material and distinct UVs at its corners."""
    uvs = [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)]
    return triangles(
        name, SQUARE, [[0, 1, 2], [0, 2, 3]], materials=["Paint"], uv_values=uvs, **options
    )


def check_square(tmp_path, encode, mesh: MeshSpec):
    return check(tmp_path, encode, mesh, materials=[MaterialSpec("Paint")])


@encodings
def test_uv_indices_of_minus_one_leave_corners_unset_a_warning_not_invalid_geometry(
    tmp_path, encode
):
    mesh = two_triangles("Patchy", uv_index=[0, 1, 2, -1, -1, -1])

    result = check_square(tmp_path, encode, mesh)

    issue = only_issue(result, "FBX_UNSET_LAYER_VALUES")
    assert issue.severity == "warning"
    assert issue.message.startswith("Mesh Patchy: 3 of 6 polygon corners have no UVs")
    assert [i.code for i in result.issues if i.severity == "error"] == []


@encodings
def test_a_material_slot_of_minus_one_leaves_a_polygon_unset(tmp_path, encode):
    result = check_square(tmp_path, encode, two_triangles("Bare", material_slots=[0, -1]))

    issue = only_issue(result, "FBX_UNSET_LAYER_VALUES")
    assert issue.message.startswith("Mesh Bare: 1 of 2 polygons have no material")
    assert "FBX_INVALID_GEOMETRY" not in codes(result)


@pytest.mark.parametrize(
    ("options", "reason"),
    [
        ({"uv_index": [0, 1, 2, 0, 2, 9]}, "it reads UV number 9, but there are 4"),
        ({"uv_index": [0, 1, 2, 0, 2, -2]}, "it reads UV number -2, but there are 4"),
        ({"material_slots": [0, -2]}, "a polygon uses material slot -2"),
    ],
)
@encodings
def test_layer_indices_outside_their_values_stay_invalid_geometry(
    tmp_path, encode, options, reason
):
    result = check_square(tmp_path, encode, two_triangles("Hostile", **options))
    if "FBX_PARSE_ERROR" in codes(result):  # ufbx refused it first: as clear an issue
        return
    assert reason in only_issue(result, "FBX_INVALID_GEOMETRY").message
    assert "FBX_UNSET_LAYER_VALUES" not in codes(result)


@pytest.mark.parametrize("encode", [binary_fbx, ascii_fbx], ids=["binary", "ascii"])
def test_a_geometry_without_a_name_is_reported_under_its_nodes_name(tmp_path, encode):
    mesh = triangles("Lever", SQUARE[:3], [[0, 1, 2]], normals=False, geometry_name="")

    issue = only_issue(check(tmp_path, encode, mesh), "MESH_MISSING_NORMALS")

    assert issue.message.startswith("Mesh Lever has no vertex normals")


def test_an_embedded_npot_texture_is_reported(tmp_path):
    scene = Scene(meshes=[cube()], videos=[VideoSpec("Odd", "odd.png", png_bytes(3, 5))])
    issue = only_issue(
        validate_bytes(tmp_path, "m.fbx", binary_fbx(scene)), "IMAGE_NPOT_DIMENSIONS"
    )
    assert issue.message.startswith("The image is 3x5")


def test_a_texture_beside_the_fbx_in_a_zip_is_measured(tmp_path):
    scene = Scene(meshes=[cube()], videos=[VideoSpec("Odd", "maps/odd.png", b"")])
    upload = zip_of({"model/m.fbx": ascii_fbx(scene), "model/maps/odd.png": png_bytes(6, 4)})
    issue = only_issue(validate_bytes(tmp_path, "m.zip", upload), "IMAGE_NPOT_DIMENSIONS")
    assert issue.message.startswith("The image is 6x4")


def test_embedded_textures_over_the_gpu_budget_report_their_memory(tmp_path):
    # A 256 px budget allows 1.4 MB; a 1024 px image takes 5.6 MB.
    scene = Scene(meshes=[cube()], videos=[VideoSpec("Big", "big.png", png_bytes(1024, 1024))])
    path = tmp_path / "m.fbx"
    path.write_bytes(binary_fbx(scene))
    result = validate(path, options=ValidationOptions(budget_overrides={"texture_size": 256}))
    assert only_issue(result, "TEXTURE_GPU_MEMORY").message.startswith(
        "The textures take about 6 MB of GPU memory (1 images"
    )
