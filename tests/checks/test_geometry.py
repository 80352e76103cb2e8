"""Mesh geometry: zero-area and duplicate triangles, unused vertices, missing normals."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from assetcheck.formats.fbx import scene_codes as fbx_checks
from assetcheck.issues import quality_codes as quality
from assetcheck.mesh.faults import CHUNK_TRIANGLES, triangle_faults
from assetcheck.mesh.prepared import PreparedMesh, Vertices
from assetcheck.testing.fbx import MeshSpec, Scene, binary_fbx, cube
from assetcheck.testing.gltf import (
    ARRAY_BUFFER,
    ELEMENT_ARRAY_BUFFER,
    TRIANGLE_STRIP,
    GltfBuilder,
    png_bytes,
)
from tests.formats import codes, only_issue, validate_bytes

QUALITY_CODES = {t.code for t in quality.ISSUE_TYPES} | {t.code for t in fbx_checks.ISSUE_TYPES}
#: A unit square in the XY plane, facing +Z.
SQUARE = [(0, 0, 0), (1, 0, 0), (1, 1, 0), (0, 1, 0)]


def add_primitive(
    builder: GltfBuilder,
    positions,
    indices=None,
    *,
    normals: bool = True,
    uvs: bool = False,
    mode: int = 4,
    material: int | None = None,
) -> dict:
    """A primitive over ``positions`` (and ``indices``), as the builder lays out accessors."""
    positions = np.asarray(positions, np.float32)
    attributes = {
        "POSITION": builder.add_accessor(positions, "VEC3", minmax=True, target=ARRAY_BUFFER)
    }
    if normals:
        facing = np.tile(np.array([0, 0, 1], np.float32), (len(positions), 1))
        attributes["NORMAL"] = builder.add_accessor(facing, "VEC3", target=ARRAY_BUFFER)
    if uvs:
        attributes["TEXCOORD_0"] = builder.add_accessor(
            positions[:, :2].copy(), "VEC2", target=ARRAY_BUFFER
        )
    primitive: dict = {"attributes": attributes, "mode": mode}
    if indices is not None:
        primitive["indices"] = builder.add_accessor(
            np.asarray(indices, np.uint16).ravel(), "SCALAR", target=ELEMENT_ARRAY_BUFFER
        )
    if material is not None:
        primitive["material"] = material
    return primitive


def add_mesh(builder: GltfBuilder, name: str, *primitives: dict) -> int:
    meshes = builder.document.setdefault("meshes", [])
    meshes.append({"name": name, "primitives": list(primitives)})
    builder.add_node(len(meshes) - 1, name=name)
    return len(meshes) - 1


def one_mesh(tmp_path: Path, positions, indices=None, **options):
    builder = GltfBuilder()
    add_mesh(builder, "rock", add_primitive(builder, positions, indices, **options))
    return validate_bytes(tmp_path, "rock.glb", builder.glb())


def well_made_glb() -> bytes:
    """A textured, lit, 1 m square with normals and UVs and a short animation."""
    builder = GltfBuilder()
    texture = builder.add_texture(builder.add_image(png_bytes(64, 64)))
    material = builder.add_material("painted", base_color_texture=texture)
    add_mesh(
        builder,
        "panel",
        add_primitive(builder, SQUARE, [[0, 1, 2], [0, 2, 3]], uvs=True, material=material),
    )
    sway = np.zeros((31, 3))
    sway[:, 0] = 0.1 * np.sin(np.linspace(0, np.pi, 31))  # an arc: no key on a straight line
    builder.add_animation("sway", keyframes=31, duration=1.0, translations=sway)
    return builder.glb()


def test_well_made_gltf_triggers_no_quality_issue(tmp_path):
    result = validate_bytes(tmp_path, "panel.glb", well_made_glb())
    assert QUALITY_CODES.isdisjoint(codes(result)), codes(result)
    assert result.grade == "excellent"


def test_well_made_fbx_triggers_no_quality_issue(tmp_path):
    triangles = [[0, 1, 2], [0, 2, 3]]
    scene = Scene(meshes=[MeshSpec("Panel", [(*p[:2], 0.0) for p in SQUARE], triangles)])
    result = validate_bytes(tmp_path, "panel.fbx", binary_fbx(scene))
    assert QUALITY_CODES.isdisjoint(codes(result)), codes(result)


def test_collinear_and_collapsed_triangles_are_counted_as_zero_area(tmp_path):
    positions = [*SQUARE, (2, 0, 0), (1, 1, 0)]  # vertex 5 sits where vertex 2 is
    result = one_mesh(tmp_path, positions, [[0, 1, 2], [0, 1, 4], [1, 2, 5]])
    issue = only_issue(result, "MESH_ZERO_AREA_TRIANGLES")
    assert issue.message.startswith("Mesh rock: 2 of 3 triangles have zero area")
    assert issue.pointer == "/meshes/0/primitives/0"


def test_repeated_index_is_left_to_the_khronos_degenerate_code(tmp_path):
    result = one_mesh(tmp_path, SQUARE, [[0, 1, 2], [0, 0, 3]])
    assert "MESH_ZERO_AREA_TRIANGLES" not in codes(result)
    assert "ACCESSOR_INDEX_TRIANGLE_DEGENERATE" in codes(result)


def test_thin_but_real_triangle_has_area(tmp_path):
    result = one_mesh(tmp_path, [(0, 0, 0), (1000, 0, 0), (500, 0.01, 0)], [[0, 1, 2]])
    assert "MESH_ZERO_AREA_TRIANGLES" not in codes(result)


def test_zero_area_triangles_of_a_strip_are_counted(tmp_path):
    positions = [(0, 0, 0), (0, 1, 0), (1, 0, 0), (1, 1, 0), (2, 1, 0), (3, 1, 0)]  # last: flat
    result = one_mesh(tmp_path, positions, mode=TRIANGLE_STRIP)
    assert (
        "1 of 4 triangles have zero area" in only_issue(result, "MESH_ZERO_AREA_TRIANGLES").message
    )


def test_same_triangle_twice_with_the_same_winding_is_a_duplicate(tmp_path):
    # The repeat starts at another corner and uses its own vertices at the same places.
    positions = [*SQUARE, (1, 0, 0), (1, 1, 0), (0, 0, 0)]
    result = one_mesh(tmp_path, positions, [[0, 1, 2], [0, 2, 3], [4, 5, 6]])
    assert (
        "1 of 3 triangles lie exactly on another"
        in only_issue(result, "MESH_DUPLICATE_TRIANGLES").message
    )


def test_flipped_copy_for_double_sided_drawing_is_not_a_duplicate(tmp_path):
    result = one_mesh(tmp_path, SQUARE, [[0, 1, 2], [0, 2, 1]])
    assert "MESH_DUPLICATE_TRIANGLES" not in codes(result)


def test_duplicates_are_found_across_chunks_of_triangles():
    rng = np.random.default_rng(7)
    vertices = Vertices.of(rng.random((3 * CHUNK_TRIANGLES, 3)))
    triangles = np.arange(3 * CHUNK_TRIANGLES, dtype=np.uint32).reshape(-1, 3)
    triangles = np.vstack([triangles, triangles[:1], triangles[-1:]])
    assert triangle_faults(PreparedMesh(vertices, triangles)).duplicates == 2


def test_negative_zero_and_zero_are_the_same_position():
    vertices = Vertices.of(np.array([[0.0, 0, 0], [1, 0, 0], [0, 1, 0], [-0.0, 0, -0.0]]))
    faults = triangle_faults(PreparedMesh(vertices, np.array([[0, 1, 2], [3, 1, 2]])))
    assert (faults.total, faults.zero_area, faults.duplicates) == (2, 0, 1)


def test_nan_positions_are_neither_flat_nor_a_crash():
    vertices = Vertices.of(np.array([[np.nan, 0, 0], [1, 0, 0], [0, 1, 0]]))
    assert triangle_faults(PreparedMesh(vertices, np.array([[0, 1, 2]]))).zero_area == 0


def test_vertices_no_index_draws_are_unused(tmp_path):
    positions = [*SQUARE, (5, 5, 5), (6, 6, 6)]
    issue = only_issue(
        one_mesh(tmp_path, positions, [[0, 1, 2], [0, 2, 3]]), "MESH_UNUSED_VERTICES"
    )
    assert issue.message.startswith("Mesh rock: 2 of 6 vertices belong to no triangle")


def test_float_indices_are_an_invalid_format_not_triangles_to_judge(tmp_path):
    # Khronos glTF-Validator reports only MESH_PRIMITIVE_INDICES_ACCESSOR_INVALID_FORMAT.
    builder = GltfBuilder()
    primitive = add_primitive(builder, SQUARE[:3])
    primitive["indices"] = builder.add_accessor(
        np.array([0, 1, 2], np.float32), "SCALAR", target=ELEMENT_ARRAY_BUFFER
    )
    add_mesh(builder, "rock", primitive)
    result = validate_bytes(tmp_path, "rock.glb", builder.glb())
    assert codes(result) == ["MESH_PRIMITIVE_INDICES_ACCESSOR_INVALID_FORMAT"]


def test_primitives_sharing_vertices_use_them_together(tmp_path):
    builder = GltfBuilder()
    first = add_primitive(builder, SQUARE, [[0, 1, 2]])
    second = dict(
        first,
        indices=builder.add_accessor(
            np.array([0, 2, 3], np.uint16), "SCALAR", target=ELEMENT_ARRAY_BUFFER
        ),
    )
    add_mesh(builder, "split", first, second)
    assert "MESH_UNUSED_VERTICES" not in codes(validate_bytes(tmp_path, "s.glb", builder.glb()))


def test_primitive_without_normals_is_named_with_its_number_in_a_multi_primitive_mesh(tmp_path):
    builder = GltfBuilder()
    add_mesh(
        builder,
        "crate",
        add_primitive(builder, SQUARE, [[0, 1, 2]]),
        add_primitive(builder, SQUARE, [[0, 2, 3]], normals=False),
    )
    issue = only_issue(validate_bytes(tmp_path, "c.glb", builder.glb()), "MESH_MISSING_NORMALS")
    assert issue.message.startswith("Mesh crate, primitive 1 has no vertex normals")
    assert issue.pointer == "/meshes/0/primitives/1"


def test_unlit_material_needs_no_normals(tmp_path):
    builder = GltfBuilder()
    unlit = builder.add_material("sky", shading="unlit")
    add_mesh(
        builder, "sky", add_primitive(builder, SQUARE, [[0, 1, 2]], normals=False, material=unlit)
    )
    assert "MESH_MISSING_NORMALS" not in codes(validate_bytes(tmp_path, "s.glb", builder.glb()))


def test_points_need_no_normals(tmp_path):
    assert "MESH_MISSING_NORMALS" not in codes(one_mesh(tmp_path, SQUARE, normals=False, mode=0))


@pytest.mark.parametrize("version", [7400, 6100])
def test_fbx_mesh_without_normals_is_reported(tmp_path, version):
    bare = MeshSpec("Wall", cube().vertices, cube().polygons, normals=False)
    result = validate_bytes(tmp_path, "wall.fbx", binary_fbx(Scene(meshes=[bare]), version))
    assert only_issue(result, "MESH_MISSING_NORMALS").message.startswith(
        "Mesh Wall has no vertex normals"
    )
