"""Vertex data: unit normals and tangents, clamped colours, index values (gltf-vertex-data)."""

from __future__ import annotations

import numpy as np

from assetcheck.checks import gltf_vertex_data
from assetcheck.testing.gltf import ARRAY_BUFFER, ELEMENT_ARRAY_BUFFER, GltfBuilder
from tests.formats import validate_bytes


def unit_rows(random: np.random.Generator, count: int) -> np.ndarray:
    rows = random.normal(size=(count, 3))
    return (rows / np.linalg.norm(rows, axis=1, keepdims=True)).astype(np.float32)


def many_primitives_glb(seed: int) -> bytes:
    """Primitives with normals, tangents, colours and indices, most of them sound, some with
    a long normal, a tangent sign of 0.5, a colour above 1, an index beyond the vertices, a
    primitive restart value (255 of bytes indexing 300 vertices) or a degenerate triangle,
    some with a partial last triangle."""
    random = np.random.default_rng(seed)
    builder = GltfBuilder()
    for number in range(40):
        flaw = number % 8
        count = 300 if flaw == 5 else int(random.integers(3, 30))
        normals, colors = unit_rows(random, count), random.uniform(size=(count, 4))
        tangents = np.hstack([unit_rows(random, count), np.ones((count, 1), np.float32)])
        indices = random.integers(0, count, size=3 * int(random.integers(2, 20)))
        indices[0::3], indices[1::3], indices[2::3] = 0, 1, 2  # no degenerate triangle
        if flaw == 1:
            normals[-1] *= 1.1
        elif flaw == 2:
            tangents[0, 3] = 0.5
        elif flaw == 3:
            colors[count // 2, 1] = 1.5
        elif flaw == 4:
            indices[-1] = count
        elif flaw == 5:
            indices[-2] = 255
        elif flaw == 6:
            indices[4] = indices[3]
        elif flaw == 7:
            indices = indices[:-1]
        positions = random.normal(size=(count, 3)).astype(np.float32)
        attributes = {
            "POSITION": builder.add_accessor(positions, "VEC3", minmax=True, target=ARRAY_BUFFER),
            "NORMAL": builder.add_accessor(normals, "VEC3", target=ARRAY_BUFFER),
            "TANGENT": builder.add_accessor(tangents, "VEC4", target=ARRAY_BUFFER),
            "COLOR_0": builder.add_accessor(colors.astype(np.float32), "VEC4", target=ARRAY_BUFFER),
        }
        index = builder.add_accessor(
            indices.astype(np.uint8 if flaw == 5 else np.uint16),
            "SCALAR",
            target=ELEMENT_ARRAY_BUFFER,
        )
        primitive = {"attributes": attributes, "indices": index}
        builder.add_node(builder.add_mesh([]))
        builder.document["meshes"][-1]["primitives"] = [primitive]
        if number % 5 == 0:  # a second use of the same accessors
            builder.document["meshes"][-1]["primitives"].append(dict(primitive))
    return builder.glb()


def vertex_data_issues(tmp_path, data: bytes) -> list[tuple[str, str | None, str]]:
    result = validate_bytes(tmp_path, "many.glb", data)
    return [
        (issue.code, issue.pointer, issue.message)
        for issue in result.issues
        if issue.source == "assetcheck.checks.gltf_vertex_data:gltf-vertex-data"
    ]


def test_accessors_screened_together_report_what_each_checked_alone_reports(tmp_path, monkeypatch):
    for seed in range(3):
        data = many_primitives_glb(seed)
        screened = vertex_data_issues(tmp_path, data)
        monkeypatch.setattr(gltf_vertex_data, "SMALL_ROWS", 0)  # nothing screened
        alone = vertex_data_issues(tmp_path, data)
        monkeypatch.undo()
        assert len({code for code, _, _ in alone}) == 6
        assert screened == alone
