"""Transforms and scale: mirrored nodes, absurd model sizes, FBX units and axis systems."""

from __future__ import annotations

import numpy as np
import pytest

from assetcheck.checks.transforms import describe_length
from assetcheck.formats.gltf.node_transforms import local_matrix
from assetcheck.testing.fbx import Scene, binary_fbx, cube, scene_nodes
from assetcheck.testing.fbx_nodes import encode_binary
from assetcheck.testing.gltf import GltfBuilder, Primitive
from tests.formats import codes, only_issue, validate_bytes

SIZE_CODES = {"MODEL_EXTREMELY_LARGE", "MODEL_EXTREMELY_SMALL"}


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


def test_model_kilometres_wide_is_in_the_wrong_unit(tmp_path):
    result = validate_bytes(tmp_path, "m.glb", placed_mesh_glb(scale=[1000.0, 1.0, 1.0]))
    assert only_issue(result, "MODEL_EXTREMELY_LARGE").message.startswith(
        "The model is 3 km across, more than 1 km"
    )


def test_model_a_hundredth_of_a_millimetre_wide_is_in_the_wrong_unit(tmp_path):
    result = validate_bytes(tmp_path, "m.glb", placed_mesh_glb(scale=[1e-5, 1e-5, 1e-5]))
    assert only_issue(result, "MODEL_EXTREMELY_SMALL").message.startswith(
        "The model is 0.03 mm across, less than 0.1 mm"
    )


def test_human_sized_model_is_fine(tmp_path):
    result = validate_bytes(tmp_path, "m.glb", placed_mesh_glb(translation=[500.0, 0.0, 0.0]))
    assert SIZE_CODES.isdisjoint(codes(result))


def test_size_spans_every_placed_instance(tmp_path):
    builder = GltfBuilder()
    mesh = builder.add_mesh([Primitive(3, normals=True)])
    builder.add_node(mesh)
    builder.document["nodes"][builder.add_node(mesh)]["translation"] = [1500.0, 0.0, 0.0]
    assert "MODEL_EXTREMELY_LARGE" in codes(validate_bytes(tmp_path, "m.glb", builder.glb()))


def test_skinned_mesh_is_sized_by_its_joints_not_its_own_node(tmp_path):
    # Vertices in millimetres under a joint scaled to metres: 3 m, as skinning places them.
    builder = GltfBuilder()
    corners = np.array([[0, 0, 0], [3000, 0, 0], [0, 3000, 0]], np.float32)
    position = builder.add_accessor(corners, "VEC3", minmax=True)
    builder.document["meshes"] = [{"primitives": [{"attributes": {"POSITION": position}}]}]
    joint = builder.add_node(name="hips")
    builder.document["nodes"][joint]["scale"] = [0.001, 0.001, 0.001]
    skinned = builder.add_node(0, name="body")
    builder.document["skins"] = [{"joints": [joint]}]
    unskinned = validate_bytes(tmp_path, "u.glb", builder.glb())
    builder.document["nodes"][skinned]["skin"] = 0
    skinned_result = validate_bytes(tmp_path, "s.glb", builder.glb())
    assert "MODEL_EXTREMELY_LARGE" in codes(unskinned)
    assert SIZE_CODES.isdisjoint(codes(skinned_result))


@pytest.mark.parametrize(
    ("meters", "text"), [(1500, "1.5 km"), (1.8, "1.8 m"), (0.04, "4 cm"), (0.00005, "0.05 mm")]
)
def test_lengths_read_in_the_best_unit(meters, text):
    assert describe_length(meters) == text


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
