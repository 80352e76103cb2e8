"""Skin binding: inverse bind matrices that cannot be inverted, joints out of their bind pose
(with a tolerance that scales with the skeleton), joints no vertex weighs on."""

import numpy as np
import pytest

from assetcheck.engine import validate
from assetcheck.testing.gltf import GltfBuilder
from tests.checks.skinned import skinned_glb
from tests.formats import codes, only_issue


def translation(x: float, y: float, z: float) -> np.ndarray:
    matrix = np.eye(4)
    matrix[:3, 3] = (x, y, z)
    return matrix


def _posed_skin(folder, joint_y: float, inverse_y: float):
    """One joint at ``joint_y`` whose inverse bind matrix translates by ``inverse_y``."""
    builder = GltfBuilder()
    joint = builder.add_node(name="hips")
    builder.document["nodes"][joint]["translation"] = [0.0, joint_y, 0.0]
    builder.add_skinned_triangle([joint])
    matrix = translation(0, inverse_y, 0).T.reshape(1, 16).astype(np.float32)
    accessor = builder.document["skins"][0]["inverseBindMatrices"]
    view = builder.document["accessors"][accessor]["bufferView"]
    offset = builder.document["bufferViews"][view]["byteOffset"]
    builder.binary[offset : offset + 64] = matrix.tobytes()
    return builder.write_glb(folder / "posed.glb")


def test_a_joint_in_its_bind_pose_is_not_reported(tmp_path):
    assert "SKIN_IBM_BIND_POSE_MISMATCH" not in codes(validate(_posed_skin(tmp_path, 1.5, -1.5)))


def test_a_joint_moved_from_its_bind_pose_is_reported_with_how_far(tmp_path):
    issue = only_issue(validate(_posed_skin(tmp_path, 1.5, -1.0)), "SKIN_IBM_BIND_POSE_MISMATCH")
    assert issue.severity == "info"
    assert "joint 0 (node 0), off by 0.333" in issue.message


def test_joints_no_vertex_weighs_on_are_counted_with_the_first(tmp_path):
    result = validate(skinned_glb(tmp_path, [0.5, 0.5, 0, 0], [2, 3, 0, 0]))
    issue = only_issue(result, "SKIN_JOINT_UNUSED")
    assert issue.pointer == "/skins/0/joints"
    assert issue.message.startswith(
        "No vertex of the meshes the skin deforms is weighted to 6 of its 8 joints"
    )
    assert "the first is joint 0 (node 0)" in issue.message


@pytest.mark.parametrize("engine", ["web", "mobile"])
def test_unused_joints_are_warnings_where_every_bone_costs(tmp_path, engine):
    result = validate(skinned_glb(tmp_path, [1.0, 0, 0, 0]), engine=engine)
    assert only_issue(result, "SKIN_JOINT_UNUSED").severity == "warning"


def test_a_skin_whose_joints_are_not_all_node_indices_is_left_to_the_schema_check(tmp_path):
    builder = GltfBuilder()
    builder.add_skinned_triangle([builder.add_node(name="hips")])
    builder.document["skins"][0]["joints"] = ["hips", 0]
    result = validate(builder.write_glb(tmp_path / "names.glb"))
    assert not {"SKIN_JOINT_UNUSED", "SKIN_IBM_BIND_POSE_MISMATCH"} & set(codes(result))
    assert "INVALID_INDEX" in codes(result)


def test_an_unusable_inverse_bind_matrices_reference_is_not_read_as_identities(tmp_path):
    builder = GltfBuilder()
    joint = builder.add_node(name="hips")
    builder.document["nodes"][joint]["translation"] = [0.0, 2.0, 0.0]
    builder.add_skinned_triangle([joint])
    builder.document["skins"][0]["inverseBindMatrices"] = "matrices"
    result = validate(builder.write_glb(tmp_path / "named.glb"))
    assert "SKIN_IBM_BIND_POSE_MISMATCH" not in codes(result)
    assert "TYPE_MISMATCH" in codes(result)


def test_a_negative_joint_index_weighs_on_no_joint(tmp_path):
    builder = GltfBuilder()
    joints = [builder.add_node(name="hips"), builder.add_node(name="spine")]
    weights = np.tile(np.array([1, 0, 0, 0], np.float32), (3, 1))
    builder.add_skinned_triangle(joints, weights, np.full((3, 4), 0xFFFF, np.uint16))
    joint_accessor = builder.document["meshes"][0]["primitives"][0]["attributes"]["JOINTS_0"]
    builder.document["accessors"][joint_accessor]["componentType"] = 5122  # SHORT: -1
    result = validate(builder.write_glb(tmp_path / "signed.glb"))
    assert "weighted to 2 of its 2 joints" in only_issue(result, "SKIN_JOINT_UNUSED").message
