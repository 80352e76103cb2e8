"""The worker's files for the job page's 3D viewer: the GLB the browser loads (self-contained,
no URI, no compression, hostile hierarchies flattened) and the overlays of the issues."""

from __future__ import annotations

import json
import struct
from pathlib import Path

import numpy as np
import pytest

from assetcheck.engine import validate
from assetcheck.plugins.manager import get_plugin_manager
from assetcheck.previews.budget import ByteBudget
from assetcheck.previews.drawing import PreviewWriter
from assetcheck.previews.job_files import model_file_path
from assetcheck.previews.overlays import MAX_ELEMENTS
from assetcheck.testing.compressed import shared_zeros_meshopt_glb
from assetcheck.testing.fbx import ClusterSpec, MeshSpec, Scene, binary_fbx, cube, grid
from assetcheck.testing.gltf import ARRAY_BUFFER, ELEMENT_ARRAY_BUFFER, GltfBuilder, png_bytes
from assetcheck.testing.shapes import lathe, pawn_glb
from assetcheck.testing.zip import zip_of
from tests.checks.test_fbx_skins import QUADS, ROOT, STRIP
from tests.previews import draw_previews


@pytest.fixture(scope="module")
def plugin_manager():
    return get_plugin_manager()


def viewer_files(
    tmp_path: Path,
    plugin_manager,
    name: str,
    content: bytes,
    beside: dict[str, bytes] | None = None,
) -> tuple[Path, dict, dict]:
    """Upload ``content`` as ``name`` (with ``beside`` files next to it) into a job folder,
    write its previews and viewer files; the viewer GLB's path and JSON, and the overlays of
    the model file ``name`` (or the one model file of a ZIP)."""
    job = tmp_path / "job"
    job.mkdir()
    upload = job / "upload"
    upload.write_bytes(content)
    for other, data in (beside or {}).items():
        (job / other).write_bytes(data)
    assert draw_previews(upload, name, plugin_manager) == 1
    [model] = (job / "previews").glob("*.glb")
    overlays = json.loads(model.with_suffix(".json").read_text())
    return model, glb_json(model.read_bytes()), overlays


def glb_json(data: bytes) -> dict:
    magic, version, length = struct.unpack("<4sII", data[:12])
    assert (magic, version, length) == (b"glTF", 2, len(data))
    chunk_length, kind = struct.unpack("<I4s", data[12:20])
    assert kind == b"JSON"
    return json.loads(data[20 : 20 + chunk_length])


def pawn_with(builder: GltfBuilder, duplicates: int = 0, **primitive_fields) -> None:
    positions, indices = lathe()
    indices = np.concatenate([indices, indices[64 : 64 + duplicates]])
    builder.document["meshes"] = [
        {
            "name": "Pawn",
            "primitives": [
                {
                    "attributes": {
                        "POSITION": builder.add_accessor(
                            positions, "VEC3", minmax=True, target=ARRAY_BUFFER
                        )
                    },
                    "indices": builder.add_accessor(
                        indices.reshape(-1), "SCALAR", target=ELEMENT_ARRAY_BUFFER
                    ),
                    **primitive_fields,
                }
            ],
        }
    ]


def test_a_self_contained_glb_is_shown_as_uploaded_without_a_copy(tmp_path: Path, plugin_manager):
    model, _, overlays = viewer_files(tmp_path, plugin_manager, "pawn.glb", pawn_glb())
    assert model.read_bytes() == pawn_glb()
    assert model.stat().st_ino == (tmp_path / "job" / "upload").stat().st_ino  # a link
    assert overlays["maxElements"] == MAX_ELEMENTS
    # the pawn's foot and crown close in triangles of zero area, and nothing else is amiss
    assert {entry["code"] for entry in overlays["entries"]} == {"MESH_ZERO_AREA_TRIANGLES"}


def test_a_gltf_with_files_beside_it_becomes_one_glb_with_its_texture_inside(
    tmp_path: Path, plugin_manager
):
    builder = GltfBuilder()
    kept = builder.add_texture(builder.add_image(uri="wood.png"))
    remote = builder.add_texture(builder.add_image(uri="https://example.com/steal.png"))
    builder.add_material("Wood", base_color_texture=kept)
    builder.document["materials"][0]["emissiveTexture"] = {"index": remote}
    pawn_with(builder, material=0)
    builder.add_node(mesh=0)
    gltf = builder.write_gltf(tmp_path / "source", "pawn")
    model, document, _ = viewer_files(
        tmp_path,
        plugin_manager,
        "pawn.gltf",
        gltf.read_bytes(),
        {"pawn.bin": (gltf.parent / "pawn.bin").read_bytes(), "wood.png": png_bytes(4, 4)},
    )

    text = json.dumps(document)
    assert "uri" not in text and "example.com" not in text
    assert document["images"][0] == {
        "bufferView": document["images"][0]["bufferView"],
        "mimeType": "image/png",
    }
    assert document["textures"][0] == {"source": 0}
    material = document["materials"][0]
    assert material["pbrMetallicRoughness"]["baseColorTexture"] == {"index": 0}
    assert "emissiveTexture" not in material  # its image is remote: left out
    [primitive] = document["meshes"][0]["primitives"]
    assert primitive["extras"] == {"primitive": 0} and primitive["mode"] == 4
    assert b"\x89PNG" in model.read_bytes()


def test_a_node_loop_reaches_the_browser_as_a_flat_list_of_placed_nodes(
    tmp_path: Path, plugin_manager
):
    builder = GltfBuilder()
    pawn_with(builder)
    first = builder.add_node(mesh=0, name="first")
    second = builder.add_node(mesh=0, name="second")
    builder.document["nodes"][first].update(children=[second], translation=[2.0, 0.0, 0.0])
    builder.document["nodes"][second]["children"] = [first]  # a loop
    _, document, _ = viewer_files(tmp_path, plugin_manager, "loop.glb", builder.glb())
    assert all("children" not in node for node in document["nodes"])
    assert [node.get("name") for node in document["nodes"][:2]] == ["first", "second"]
    # no root reaches the loop: the mesh is shown where it is, once
    assert [node.get("mesh") for node in document["nodes"]] == [None, None, 0]
    assert document["scenes"] == [{"nodes": [2]}]


def test_a_zip_member_gets_a_copy_of_its_own(tmp_path: Path, plugin_manager):
    model, document, _ = viewer_files(
        tmp_path, plugin_manager, "props.zip", zip_of({"props/pawn.glb": pawn_glb(copies=2)})
    )
    assert model == model_file_path(tmp_path / "job", "viewer_model", "props/pawn.glb")
    assert [node.get("mesh") for node in document["nodes"]] == [0, 0]
    assert document["nodes"][1]["matrix"][12] == 1.0  # the second pawn, one metre along x


def test_overlays_list_the_duplicate_and_zero_area_triangles(tmp_path: Path, plugin_manager):
    builder = GltfBuilder()
    pawn_with(builder, duplicates=12)
    builder.add_node(mesh=0)
    _, _, overlays = viewer_files(tmp_path, plugin_manager, "pawn.glb", builder.glb())
    entries = {entry["code"]: entry for entry in overlays["entries"]}
    duplicates = entries["MESH_DUPLICATE_TRIANGLES"]
    assert duplicates["pointer"] == "/meshes/0/primitives/0" and duplicates["count"] == 12
    assert len(duplicates["triangles"]) == 12 * 9
    assert duplicates["marks"] == "triangles"
    flat = entries["MESH_ZERO_AREA_TRIANGLES"]  # the pawn's foot and crown meet at points
    assert flat["count"] == 64 and len(flat["points"]) == 64 * 3
    assert flat["marks"] == "triangle centres"


def test_overlays_say_which_primitives_and_images_each_accessor_and_buffer_view_feeds(
    tmp_path: Path, plugin_manager
):
    _, _, overlays = viewer_files(tmp_path, plugin_manager, "pawn.glb", pawn_glb())
    document = glb_json(pawn_glb())
    primitive = document["meshes"][0]["primitives"][0]
    position, indices = primitive["attributes"]["POSITION"], primitive["indices"]
    view = document["accessors"][position]["bufferView"]
    assert overlays["uses"][f"/accessors/{position}"] == ["/meshes/0/primitives/0"]
    assert overlays["uses"][f"/accessors/{indices}"] == ["/meshes/0/primitives/0"]
    assert overlays["uses"][f"/bufferViews/{view}"] == ["/meshes/0/primitives/0"]


def test_non_unit_normals_are_listed_by_vertex_at_the_attribute_pointer(
    tmp_path: Path, plugin_manager
):
    builder = GltfBuilder()
    positions, _ = lathe()
    normals = np.tile(np.array([0.0, 1.0, 0.0], np.float32), (len(positions), 1))
    normals[:8] *= 2.0
    pawn_with(builder)
    primitive = builder.document["meshes"][0]["primitives"][0]
    primitive["attributes"]["NORMAL"] = builder.add_accessor(normals, "VEC3", target=ARRAY_BUFFER)
    builder.add_node(mesh=0)
    _, _, overlays = viewer_files(tmp_path, plugin_manager, "normals.glb", builder.glb())
    [entry] = [e for e in overlays["entries"] if e["code"] == "ACCESSOR_VECTOR3_NON_UNIT"]
    assert entry["pointer"] == "/meshes/0/primitives/0/attributes/NORMAL"
    assert entry["count"] == 8 and entry["marks"] == "vertices"
    assert np.allclose(np.reshape(entry["points"], (-1, 3)), positions[:8])


def test_an_fbx_becomes_a_glb_of_its_decoded_meshes_in_clay(tmp_path: Path, plugin_manager):
    _, document, overlays = viewer_files(
        tmp_path, plugin_manager, "cube.fbx", binary_fbx(Scene(meshes=[cube()]))
    )
    [mesh] = document["meshes"]
    [primitive] = mesh["primitives"]
    assert primitive["extras"] == {"name": "Cube"} and primitive["material"] == 0
    assert document["accessors"][primitive["indices"]]["count"] == 12 * 3
    assert document["materials"][0]["name"] == "clay"
    assert overlays["entries"] == []


def test_an_fbx_keeps_its_uvs_with_one_vertex_per_control_point_and_uv(
    tmp_path: Path, plugin_manager
):
    """The UV checker needs the FBX's UVs: each corner keeps its own, V turned to glTF's
    top-left origin, and corners sharing a control point and a UV share a vertex."""
    spec = cube()
    spec.uv_values = [(0.0, 0.0), (1.0, 0.0), (1.0, 0.25), (0.0, 0.25)]
    spec.uv_index = [0, 1, 2, 3] * 6
    model, document, _ = viewer_files(tmp_path, plugin_manager, "uv.fbx", binary_fbx(Scene([spec])))
    [primitive] = document["meshes"][0]["primitives"]
    pairs = {(point, corner) for quad in spec.polygons for corner, point in enumerate(quad)}
    uvs = accessor_values(model.read_bytes(), document, primitive["attributes"]["TEXCOORD_0"])
    positions = document["accessors"][primitive["attributes"]["POSITION"]]
    assert len(uvs) == positions["count"] == len(pairs)
    assert {tuple(uv) for uv in uvs.tolist()} == {(0, 1), (1, 1), (1, 0.75), (0, 0.75)}

    (tmp_path / "plain").mkdir()
    _, plain, _ = viewer_files(
        tmp_path / "plain", plugin_manager, "plain.fbx", binary_fbx(Scene([grid("Grid", 2, 2)]))
    )
    assert "TEXCOORD_0" not in plain["meshes"][0]["primitives"][0]["attributes"]


def accessor_values(data: bytes, document: dict, index: int) -> np.ndarray:
    """The float32 values of accessor ``index`` of the GLB ``data`` (tightly packed)."""
    json_length = struct.unpack("<I", data[12:16])[0]
    binary = data[20 + json_length + 8 :]
    accessor = document["accessors"][index]
    view = document["bufferViews"][accessor["bufferView"]]
    width = {"SCALAR": 1, "VEC2": 2, "VEC3": 3, "VEC4": 4}[accessor["type"]]
    start = view.get("byteOffset", 0) + accessor.get("byteOffset", 0)
    values = np.frombuffer(binary, np.float32, accessor["count"] * width, start)
    return values.reshape(-1, width)


def test_primitives_sharing_accessors_share_one_copy_of_their_data(tmp_path: Path, plugin_manager):
    vertices = 50_000
    model, document, _ = viewer_files(
        tmp_path, plugin_manager, "shared.glb", shared_zeros_meshopt_glb(vertices, primitives=6)
    )
    primitives = document["meshes"][0]["primitives"]
    assert [primitive["extras"] for primitive in primitives] == [
        {"primitive": number} for number in range(6)
    ]
    assert len({json.dumps(primitive["attributes"]) for primitive in primitives}) == 1
    assert len({primitive["indices"] for primitive in primitives}) == 1
    one_copy = vertices * 4 * (3 + 3) + 3 * 4  # float POSITION and NORMAL, one triangle
    assert model.stat().st_size <= one_copy + 8192  # six primitives: at most one copy


def test_viewer_files_past_the_jobs_budget_are_not_written_and_the_writer_says_why(
    tmp_path: Path, plugin_manager
):
    upload = tmp_path / "upload"
    upload.write_bytes(shared_zeros_meshopt_glb(50_000, primitives=6))
    budget = ByteBudget(limit=100_000, reason="a test's limit")
    writer = PreviewWriter(tmp_path, budget=budget)
    validate(upload, filename="shared.glb", plugin_manager=plugin_manager, on_checked=writer)

    [picture] = (tmp_path / "previews").iterdir()  # the picture fits; the viewer's files do not
    assert picture.suffix == ".png" and writer.written == 1
    assert budget.used == picture.stat().st_size
    [withheld] = writer.withheld
    assert withheld["file"] == "shared.glb"
    assert withheld["reason"].startswith("The 3D viewer's model was not kept: it needs more than")
    assert "this job may store beside its upload (a test's limit)" in withheld["reason"]


def test_skinned_vertices_at_fault_are_listed_at_the_set_the_finding_names(
    tmp_path: Path, plugin_manager
):
    builder = GltfBuilder()
    joints = [builder.add_node(name="hips"), builder.add_node(name="spine")]
    weights = np.array([[1.5, -0.5, 0, 0], [0.5, 0, 0, 0], [1, 0, 0, 0]], np.float32)
    indices = np.array([[0, 1, 0, 0], [0, 0, 0, 0], [5, 0, 0, 0]], np.uint16)
    builder.add_skinned_triangle(joints, weights, indices)
    _, _, overlays = viewer_files(tmp_path, plugin_manager, "skinned.glb", builder.glb())
    entries = {entry["code"]: entry for entry in overlays["entries"]}
    at = "/meshes/0/primitives/0/attributes/"
    marked = {code: (e["pointer"], e["points"]) for code, e in entries.items()}
    assert marked == {
        "ACCESSOR_WEIGHTS_NEGATIVE": (at + "WEIGHTS_0", [0, 0, 0]),
        "ACCESSOR_JOINTS_INDEX_OOB": (at + "JOINTS_0", [0, 1, 0]),
        "ACCESSOR_WEIGHTS_NON_NORMALIZED": (at + "WEIGHTS_0", [0, 0, 0, 1, 0, 0, 0, 1, 0]),
    }


def test_skin_weights_at_fault_mark_their_control_points_and_unused_bones_their_place(
    tmp_path: Path, plugin_manager
):
    heavy = ClusterSpec("Tip", [2, 3, 4, 5], [0.6, 0.5, 1.2, 1.0], translation=(2.0, 0, 0))
    brace = ClusterSpec("Brace", [4], [-0.2], translation=(1.0, 0, 0))
    end = ClusterSpec("End", [4, 5], [0.0, 0.0], translation=(3.0, 0, 0))
    strip = MeshSpec("Strip", STRIP, QUADS, skin=[ROOT, heavy, brace, end])
    content = binary_fbx(Scene(meshes=[strip]))
    _, _, overlays = viewer_files(tmp_path, plugin_manager, "strip.fbx", content)

    marked = {
        e["code"]: (e["name"], e["count"], e["marks"], e["points"]) for e in overlays["entries"]
    }
    assert marked == {  # in metres (the file's centimetres), where the viewer's GLB has them
        "FBX_SKIN_WEIGHTS_NOT_NORMALIZED": ("Strip", 1, "vertices", [0.01, 0, 0]),  # sums 1.1
        "FBX_SKIN_WEIGHTS_NEGATIVE": ("Strip", 1, "vertices", [0.02, 0, 0]),
        "FBX_SKIN_BONE_UNUSED": ("Strip", 1, "bones", [0.03, 0, 0]),
    }


def test_skin_clusters_without_bone_mark_their_vertices_and_misplaced_bones_their_place(
    tmp_path: Path, plugin_manager
):
    loose = ClusterSpec(None, [4, 5], [0.5, 0.5])
    moved = ClusterSpec("Tip", [2, 3, 4, 5], [0.5, 0.5, 0.5, 0.5], (2.0, 0, 0), (2.0, 0.5, 0))
    beyond = ClusterSpec("Past", [9], [1.0], translation=(1.0, 0, 0))
    strip = MeshSpec("Strip", STRIP, QUADS, skin=[ROOT, moved, loose, beyond])
    content = binary_fbx(Scene(meshes=[strip]))
    _, _, overlays = viewer_files(tmp_path, plugin_manager, "strip.fbx", content)

    marked = {e["code"]: (e["count"], e["marks"], e["points"]) for e in overlays["entries"]}
    assert marked == {  # control point 9 is past the mesh: nothing marks where it is not
        "FBX_SKIN_CLUSTER_WITHOUT_BONE": (2, "vertices", [0.02, 0, 0, 0.02, 0.01, 0]),
        "FBX_SKIN_BIND_POSE_MISMATCH": (1, "bones", [0.02, 0, 0]),
        "FBX_SKIN_BONE_UNUSED": (1, "bones", [0.01, 0, 0]),  # Past weighs no control point
    }


def test_joints_at_fault_are_listed_where_the_scene_places_them_and_their_skin_shows_its_mesh(
    tmp_path: Path, plugin_manager
):
    builder = GltfBuilder()
    joints = [builder.add_node(name="hips"), builder.add_node(name="spine")]
    for joint, height in zip(joints, (1.0, 2.0), strict=True):
        builder.document["nodes"][joint]["translation"] = [0.0, height, 0.0]
    weights = np.array([[1, 0, 0, 0], [0.5, 0.5, 0, 0], [1, 0, 0, 0]], np.float32)
    indices = np.array([[0, 0, 0, 0], [0, 0, 0, 0], [0, 1, 0, 0]], np.uint16)
    builder.add_skinned_triangle(joints, weights, indices)  # identity inverse bind matrices
    _, _, overlays = viewer_files(tmp_path, plugin_manager, "skinned.glb", builder.glb())

    marked = {
        entry["code"]: (entry["pointer"], entry["marks"], entry["points"], entry.get("space"))
        for entry in overlays["entries"]
    }
    at = "/meshes/0/primitives/0/attributes/JOINTS_0"
    assert marked["ACCESSOR_JOINTS_INDEX_DUPLICATE"] == (at, "vertices", [1, 0, 0], None)
    assert marked["ACCESSOR_JOINTS_USED_ZERO_WEIGHT"] == (at, "vertices", [0, 1, 0], None)
    assert marked["SKIN_IBM_BIND_POSE_MISMATCH"] == (  # both joints are away from the origin
        "/skins/0/inverseBindMatrices",
        "joints",
        [0, 1, 0, 0, 2, 0],
        "scene",
    )
    assert marked["SKIN_JOINT_UNUSED"] == ("/skins/0/joints", "joints", [0, 2, 0], "scene")
    assert overlays["uses"]["/skins/0"] == ["/meshes/0/primitives/0"]


def test_a_bone_whose_bind_matrix_cannot_be_inverted_is_marked_where_it_stands(
    tmp_path: Path, plugin_manager
):
    flat = [1.0, 0, 0, 0, 0, 1.0, 0, 0, 0, 0, 0, 0, 2.0, 0, 0, 1.0]  # Z scaled to zero
    tip = ClusterSpec("Tip", [2, 3, 4, 5], [0.5, 0.5, 1, 1], (2.0, 0, 0), transform_link=flat)
    content = binary_fbx(Scene(meshes=[MeshSpec("Strip", STRIP, QUADS, skin=[ROOT, tip])]))
    _, _, overlays = viewer_files(tmp_path, plugin_manager, "strip.fbx", content)

    marked = {e["code"]: (e["count"], e["marks"], e["points"]) for e in overlays["entries"]}
    assert marked == {"FBX_SKIN_BIND_MATRIX_NOT_INVERTIBLE": (1, "bones", [0.02, 0, 0])}
