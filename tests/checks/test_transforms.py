"""Transforms: mirrored nodes, FBX units and axis systems, and FBX conversions left on nodes."""

from __future__ import annotations

import numpy as np
import pytest

from assetcheck.asset.options import ValidationOptions
from assetcheck.engine import validate
from assetcheck.formats.gltf.node_transforms import local_matrix
from assetcheck.testing.fbx import MeshSpec, Scene, binary_fbx, cube, scene_nodes
from assetcheck.testing.fbx_nodes import encode_binary
from assetcheck.testing.gltf import GltfBuilder, Primitive
from tests.formats import codes, only_issue, validate_bytes


def placed_mesh_glb(**transform) -> bytes:
    """One mesh 3 m wide (the builder lays 4 vertices along x) on a node with ``transform``."""
    builder = GltfBuilder()
    node = builder.add_node(builder.add_mesh([Primitive(4, normals=True)]), name="wheel")
    builder.document["nodes"][node].update(transform)
    return builder.glb()


def fbx_with_settings(**values: int) -> bytes:
    """A cube whose GlobalSettings properties (``UpAxis``, ``FrontAxisSign``...) are changed."""
    nodes = scene_nodes(Scene(meshes=[cube()]), 7400, binary=True)
    settings = next(node for node in nodes if node.name == "GlobalSettings")
    properties = next(node for node in settings.children if node.name == "Properties70")
    for prop in properties.children:
        prop.props[-1] = values.get(prop.props[0], prop.props[-1])
    return encode_binary(nodes, 7400)


def test_node_with_a_negative_scale_is_mirrored(tmp_path):
    result = validate_bytes(tmp_path, "m.glb", placed_mesh_glb(scale=[-1.0, 1.0, 1.0]))
    issue = only_issue(result, "NODE_NEGATIVE_SCALE")
    assert (issue.pointer, issue.message.split(" draws")[0]) == ("/nodes/0", "Node wheel")


def test_mirrored_matrix_is_found_like_a_mirrored_scale(tmp_path):
    matrix = [1.0, 0, 0, 0, 0, 1.0, 0, 0, 0, 0, -1.0, 0, 0, 0, 0, 1.0]
    assert "NODE_NEGATIVE_SCALE" in codes(
        validate_bytes(tmp_path, "m.glb", placed_mesh_glb(matrix=matrix))
    )


def test_two_mirrors_in_a_row_cancel_out(tmp_path):
    builder = GltfBuilder()
    parent = builder.add_node(name="flip")
    builder.document["nodes"][parent]["scale"] = [-1.0, 1.0, 1.0]
    child = builder.add_mesh([Primitive(3, normals=True)])
    builder.document["nodes"].append({"mesh": child, "scale": [1.0, -1.0, 1.0]})
    builder.document["nodes"][parent]["children"] = [1]
    result = validate_bytes(tmp_path, "m.glb", builder.glb())
    assert "NODE_NEGATIVE_SCALE" not in codes(result)


def test_rotation_is_not_a_mirror():
    half_turn = local_matrix({"rotation": [0.0, 0.0, 1.0, 0.0], "scale": [2.0, 2.0, 2.0]})
    assert np.linalg.det(half_turn[:3, :3]) == pytest.approx(8.0)


@pytest.mark.parametrize(
    ("scale_cm", "unit"), [(2.54, "inches"), (0.1, "millimetres"), (500.0, "units of 5 m")]
)
def test_fbx_in_unusual_units_is_reported(tmp_path, scale_cm, unit):
    data = binary_fbx(Scene(meshes=[cube()], unit_scale_cm=scale_cm))
    issue = only_issue(validate_bytes(tmp_path, "m.fbx", data), "FBX_UNUSUAL_UNIT")
    assert issue.message.startswith(f"The file measures in {unit}, not in centimetres")


@pytest.mark.parametrize("scale_cm", [1.0, 100.0])
def test_fbx_in_centimetres_or_metres_is_fine(tmp_path, scale_cm):
    data = binary_fbx(Scene(meshes=[cube()], unit_scale_cm=scale_cm))
    assert "FBX_UNUSUAL_UNIT" not in codes(validate_bytes(tmp_path, "m.fbx", data))


def test_fbx_in_a_left_handed_system_is_reported(tmp_path):
    result = validate_bytes(tmp_path, "m.fbx", fbx_with_settings(FrontAxisSign=-1))
    assert only_issue(result, "FBX_UNUSUAL_AXES").message.startswith(
        "The file's axis system is left-handed (right +X, up +Y, front -Z)"
    )


def test_fbx_with_x_up_is_reported(tmp_path):
    data = fbx_with_settings(UpAxis=0, UpAxisSign=-1, CoordAxis=2, CoordAxisSign=-1, FrontAxis=1)
    assert only_issue(
        validate_bytes(tmp_path, "m.fbx", data), "FBX_UNUSUAL_AXES"
    ).message.startswith("The file's axis system is -X up (right -Z, up -X, front +Y)")


@pytest.mark.parametrize("up_axis", [1, 2])
def test_fbx_y_up_or_z_up_right_handed_is_fine(tmp_path, up_axis):
    data = binary_fbx(Scene(meshes=[cube()], up_axis=up_axis))
    assert "FBX_UNUSUAL_AXES" not in codes(validate_bytes(tmp_path, "m.fbx", data))


def blender_cube(name: str, **transform) -> MeshSpec:
    """A cube placed as Blender's FBX exporter places objects by default: Z-up geometry stood
    upright by -90 degrees about X, scaled by 100 into the file's centimetres."""
    mesh = cube(name)
    mesh.rotation, mesh.scale = (-90.0, 0.0, 0.0), (100.0, 100.0, 100.0)
    for key, value in transform.items():
        setattr(mesh, key, value)
    return mesh


def test_conversion_on_every_node_is_reported_with_the_first_node(tmp_path):
    data = binary_fbx(Scene(meshes=[blender_cube("Chair"), blender_cube("Table")]))
    issue = only_issue(validate_bytes(tmp_path, "m.fbx", data), "FBX_CONVERSION_ON_NODES")
    assert issue.message.startswith(
        "Every node drawing a mesh (2, Chair among them) carries a rotation standing Z-up "
        "geometry upright (-90° about X) and a scale of 100:"
    )
    assert issue.headline == "Unit or axis conversion left on the nodes (2 nodes)"


@pytest.mark.parametrize(
    ("transform", "conversion"),
    [
        ({"scale": (1.0, 1.0, 1.0)}, "a rotation standing Z-up geometry upright"),
        ({"rotation": (0.0, 0.0, 0.0)}, "a scale of 100:"),
        ({"rotation": (0.0, 0.0, 0.0), "scale": (0.01, 0.01, 0.01)}, "a scale of 0.01:"),
    ],
)
def test_rotation_and_scale_are_each_a_conversion(tmp_path, transform, conversion):
    data = binary_fbx(Scene(meshes=[blender_cube("Chair", **transform)]))
    issue = only_issue(validate_bytes(tmp_path, "m.fbx", data), "FBX_CONVERSION_ON_NODES")
    assert f"carries {conversion}" in issue.message


def test_a_node_without_the_conversion_clears_the_file(tmp_path):
    data = binary_fbx(Scene(meshes=[blender_cube("Chair"), cube("Table")]))
    assert "FBX_CONVERSION_ON_NODES" not in codes(validate_bytes(tmp_path, "m.fbx", data))


@pytest.mark.parametrize("scale", [(100.0, 100.0, 50.0), (10.0, 10.0, 10.0)])
def test_other_scales_are_not_a_unit_conversion(tmp_path, scale):
    data = binary_fbx(Scene(meshes=[blender_cube("Chair", rotation=(0.0, 0.0, 0.0), scale=scale)]))
    assert "FBX_CONVERSION_ON_NODES" not in codes(validate_bytes(tmp_path, "m.fbx", data))


def test_z_up_geometry_in_a_z_up_file_needs_no_conversion(tmp_path):
    data = binary_fbx(Scene(meshes=[cube("Chair")], up_axis=2))
    assert "FBX_CONVERSION_ON_NODES" not in codes(validate_bytes(tmp_path, "m.fbx", data))


def test_a_node_scaled_to_nothing_is_no_conversion_and_no_crash(tmp_path):
    data = binary_fbx(Scene(meshes=[blender_cube("Chair", scale=(0.0, 0.0, 0.0))]))
    found = codes(validate_bytes(tmp_path, "m.fbx", data))
    assert "FBX_CONVERSION_ON_NODES" not in found and "CHECK_CRASHED" not in found


def test_a_z_up_file_was_not_converted_to_y_up(tmp_path):
    data = binary_fbx(Scene(meshes=[cube()], up_axis=2))
    issue = only_issue(validate_bytes(tmp_path, "m.fbx", data), "FBX_Z_UP")
    assert issue.severity == "info"
    assert issue.message.startswith("The file is Z up (right +X, up +Z, front -Y)")


def test_a_z_up_file_is_only_a_hint_for_unreal(tmp_path):
    path = tmp_path / "m.fbx"
    path.write_bytes(binary_fbx(Scene(meshes=[cube()], up_axis=2)))
    result = validate(path, options=ValidationOptions(engine="unreal"))
    assert only_issue(result, "FBX_Z_UP").severity == "hint"


def test_a_y_up_file_is_not_z_up(tmp_path):
    data = binary_fbx(Scene(meshes=[cube()], up_axis=1))
    assert "FBX_Z_UP" not in codes(validate_bytes(tmp_path, "m.fbx", data))
