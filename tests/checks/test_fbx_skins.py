"""FBX skins: the clusters' weights and bind matrices under the rules of glTF skins, on files
the FBX writers of ``assetcheck.testing`` build (binary and ASCII, FBX 7 and FBX 6 layouts)."""

from __future__ import annotations

import pytest

from assetcheck.checks.fbx_skins import CODES
from assetcheck.engine import validate
from assetcheck.testing.fbx import (
    ClusterSpec,
    MeshSpec,
    Scene,
    ascii_fbx,
    binary_fbx,
    scene_nodes,
)
from assetcheck.testing.fbx_nodes import encode_binary
from tests.formats import codes, only_issue, validate_bytes
from tests.formats.fbx import ALL_WRITERS

SKIN_CODES = {*CODES, "BUDGET_INFLUENCES"}
#: A strip of two quads: control points 0-1 at x=0, 2-3 at x=1, 4-5 at x=2.
STRIP = [(float(x), float(y), 0.0) for x in range(3) for y in range(2)]
QUADS = [[0, 2, 3, 1], [2, 4, 5, 3]]
#: Root at the origin weighs the left half, Tip at x=2 the right half; the middle is shared.
ROOT = ClusterSpec("Root", [0, 1, 2, 3], [1.0, 1.0, 0.5, 0.5])
TIP = ClusterSpec("Tip", [2, 3, 4, 5], [0.5, 0.5, 1.0, 1.0], translation=(2.0, 0.0, 0.0))


def skinned(*clusters: ClusterSpec) -> bytes:
    return binary_fbx(Scene(meshes=[MeshSpec("Strip", STRIP, QUADS, skin=clusters)]))


def skin_codes(result) -> set[str]:
    return SKIN_CODES & set(codes(result))


@pytest.mark.parametrize("writer", ALL_WRITERS.values(), ids=ALL_WRITERS.keys())
def test_a_well_made_skin_raises_no_skin_issue_in_any_layout(tmp_path, writer):
    data = writer(Scene(meshes=[MeshSpec("Strip", STRIP, QUADS, skin=[ROOT, TIP])]))
    result = validate_bytes(tmp_path, "strip.fbx", data)

    (asset,) = result.assets
    assert skin_codes(result) == set()
    assert asset.metrics["influences_per_vertex"] == 2


@pytest.mark.parametrize("writer", ALL_WRITERS.values(), ids=ALL_WRITERS.keys())
def test_weights_that_do_not_sum_to_one_are_found_in_any_layout(tmp_path, writer):
    heavy = ClusterSpec("Tip", [2, 3, 4, 5], [0.6, 0.5, 1.0, 1.0], translation=(2.0, 0, 0))
    data = writer(Scene(meshes=[MeshSpec("Strip", STRIP, QUADS, skin=[ROOT, heavy])]))
    issue = only_issue(validate_bytes(tmp_path, "s.fbx", data), "FBX_SKIN_WEIGHTS_NOT_NORMALIZED")

    assert issue.severity == "warning"
    assert issue.message.startswith(
        "Mesh Strip: the bone weights of 1 of its 6 weighted control points do not sum to 1; "
        "the first, control point 2, sums to 1.1."
    )


def test_sums_within_one_step_of_an_8_bit_weight_are_normalized(tmp_path):
    close = ClusterSpec("Tip", [2, 3, 4, 5], [0.499, 0.503, 0.997, 1.0], translation=(2.0, 0, 0))
    assert skin_codes(validate_bytes(tmp_path, "s.fbx", skinned(ROOT, close))) == set()


def test_vertices_no_cluster_weighs_are_left_to_the_mesh_node(tmp_path):
    root_only = ClusterSpec("Root", [0, 1], [1.0, 1.0])
    assert skin_codes(validate_bytes(tmp_path, "s.fbx", skinned(root_only))) == set()


def test_negative_weights_name_their_bone_and_control_point(tmp_path):
    negative = ClusterSpec("Tip", [2, 3, 4, 5], [0.5, 0.5, 1.2, 1.0], translation=(2.0, 0, 0))
    brace = ClusterSpec("Brace", [4], [-0.2], translation=(1.0, 0, 0))
    result = validate_bytes(tmp_path, "s.fbx", skinned(ROOT, negative, brace))

    issue = only_issue(result, "FBX_SKIN_WEIGHTS_NEGATIVE")
    assert issue.severity == "warning"
    assert issue.message == (
        "Mesh Strip: 1 bone weights are negative; the first weighs control point 4 on bone "
        "Brace by -0.2."
    )
    assert "FBX_SKIN_WEIGHTS_NOT_NORMALIZED" not in codes(result)  # 1.2 - 0.2 = 1


def test_weights_on_control_points_the_mesh_lacks_are_reported(tmp_path):
    beyond = ClusterSpec("Tip", [2, 3, 4, 5, 9], [0.5, 0.5, 1, 1, 1], translation=(2.0, 0, 0))
    issue = only_issue(
        validate_bytes(tmp_path, "s.fbx", skinned(ROOT, beyond)), "FBX_SKIN_INDEX_OUT_OF_RANGE"
    )
    assert issue.message.startswith(
        "Mesh Strip: 1 weights of its skin name control points the mesh does not have (it has "
        "6); the first is 9, on bone Tip."
    )


def test_a_cluster_linked_to_no_bone_is_reported_and_ufbx_drops_it(tmp_path):
    loose = ClusterSpec(None, [2, 3, 4, 5], [0.5, 0.5, 1.0, 1.0])
    result = validate_bytes(tmp_path, "s.fbx", skinned(ROOT, loose))

    issue = only_issue(result, "FBX_SKIN_CLUSTER_WITHOUT_BONE")
    assert issue.severity == "warning"
    assert "1 of its skin's 2 clusters weigh vertices but are linked to no bone" in issue.message
    assert "the first is StripCluster1" in issue.message
    assert result.assets[0].fbx.meshes[0].bones == 1  # ufbx kept the bound cluster only


def test_a_bone_no_vertex_is_weighted_to_is_information_or_a_web_warning(tmp_path):
    end = ClusterSpec("End", [4, 5], [0.0, 0.0], translation=(3.0, 0, 0))
    data = skinned(ROOT, TIP, end)

    issue = only_issue(validate_bytes(tmp_path, "s.fbx", data), "FBX_SKIN_BONE_UNUSED")
    assert (issue.severity, issue.message) == (
        "info",
        "Mesh Strip: no control point is weighted to 1 of its skin's 3 bones; the first is End.",
    )
    (tmp_path / "web").mkdir()
    (tmp_path / "web" / "s.fbx").write_bytes(data)
    web = only_issue(validate(tmp_path / "web" / "s.fbx", engine="web"), "FBX_SKIN_BONE_UNUSED")
    assert web.severity == "warning"


def test_a_bind_matrix_that_flattens_space_cannot_be_inverted(tmp_path):
    flat = [1.0, 0, 0, 0, 0, 1.0, 0, 0, 0, 0, 0, 0, 2.0, 0, 0, 1.0]  # Z scaled to zero
    tip = ClusterSpec("Tip", [2, 3, 4, 5], [0.5, 0.5, 1, 1], (2.0, 0, 0), transform_link=flat)
    result = validate_bytes(tmp_path, "s.fbx", skinned(ROOT, tip))

    issue = only_issue(result, "FBX_SKIN_BIND_MATRIX_NOT_INVERTIBLE")
    assert issue.severity == "warning"
    assert "1 of its bones have a bind matrix (TransformLink) that cannot be" in issue.message
    assert "FBX_SKIN_BIND_POSE_MISMATCH" not in codes(result)  # singular matrices are skipped


def test_a_bone_away_from_its_bind_pose_is_information_with_the_distance(tmp_path):
    moved = ClusterSpec("Tip", [2, 3, 4, 5], [0.5, 0.5, 1, 1], (2.0, 0, 0), (2.0, 0.5, 0))
    issue = only_issue(
        validate_bytes(tmp_path, "s.fbx", skinned(ROOT, moved)), "FBX_SKIN_BIND_POSE_MISMATCH"
    )
    assert issue.severity == "info"
    # 0.5 off in a skeleton 2 units across: 0.25 of its size.
    assert issue.message.endswith("the first is Tip, off by 0.25.")


def test_a_bone_within_a_thousandth_of_the_skeleton_is_in_its_bind_pose(tmp_path):
    close = ClusterSpec("Tip", [2, 3, 4, 5], [0.5, 0.5, 1, 1], (2.0, 0, 0), (2.0, 0.0019, 0))
    assert skin_codes(validate_bytes(tmp_path, "s.fbx", skinned(ROOT, close))) == set()


def test_influences_per_vertex_come_from_the_clusters_for_the_budget(tmp_path):
    everyone = [
        ClusterSpec(f"Bone{n}", [0, 1, 2, 3, 4, 5], [0.2] * 6, translation=(n, 0.0, 0.0))
        for n in range(5)
    ]
    data = skinned(*everyone)

    generic = validate_bytes(tmp_path, "s.fbx", data)  # its budget is 8
    assert generic.assets[0].metrics["influences_per_vertex"] == 5
    assert "BUDGET_INFLUENCES" not in codes(generic)
    unity = validate(tmp_path / "s.fbx", engine="unity")
    budget = only_issue(unity, "BUDGET_INFLUENCES")
    assert budget.severity == "error"
    assert budget.message.startswith(
        "6 vertices have more bone influences than the unity budget of 4 (up to 5); the first "
        "is vertex 0 of mesh Strip."
    )


def test_a_cluster_indexing_by_fractions_is_unreadable_though_ufbx_reads_the_file(tmp_path):
    data = ascii_fbx(Scene(meshes=[MeshSpec("Strip", STRIP, QUADS, skin=[ROOT, TIP])]))
    data = data.replace(b"a: 2,3,4,5", b"a: 2,3.5,4,5", 1)  # Tip's Indexes
    result = validate_bytes(tmp_path, "s.fbx", data)

    issue = only_issue(result, "FBX_SKIN_UNREADABLE")
    assert issue.severity == "warning"
    assert issue.message == (
        "Mesh Strip: its skin cannot be read (cluster Tip: Indexes holds indices that are not "
        "32-bit integers), so its weights were not checked."
    )


def test_a_cluster_connected_twice_to_its_skin_weighs_once(tmp_path):
    scene = Scene(meshes=[MeshSpec("Strip", STRIP, QUADS, skin=[ROOT, TIP])])
    nodes = scene_nodes(scene, 7400, binary=True)
    (connections,) = [node for node in nodes if node.name == "Connections"]
    connections.children += connections.children  # every connection written twice
    result = validate_bytes(tmp_path, "s.fbx", encode_binary(nodes, 7400))

    assert skin_codes(result) == set()
    assert result.assets[0].metrics["influences_per_vertex"] == 2
