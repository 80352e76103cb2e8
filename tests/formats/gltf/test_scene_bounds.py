"""Node transforms and the world box of a glTF document's drawn meshes."""

from __future__ import annotations

import numpy as np

from assetcheck.formats.gltf.model import GltfDocument
from assetcheck.formats.gltf.node_transforms import local_matrix
from assetcheck.formats.gltf.scene_bounds import scene_box
from assetcheck.mesh.bounds import corners, placed_box

SHORT = 5122


def composed(node: dict) -> np.ndarray:
    """A node's local matrix composed with numpy arrays, the way it was before Python floats
    (the arithmetic every report was made with)."""
    x, y, z, w = node.get("rotation", (0.0, 0.0, 0.0, 1.0))
    rotation = np.array(
        [
            [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
            [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
            [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)],
        ]
    )
    result = np.eye(4)
    result[:3, :3] = rotation * np.array(node.get("scale", (1.0, 1.0, 1.0)))
    result[:3, 3] = node.get("translation", (0.0, 0.0, 0.0))
    return result


def test_local_matrix_is_rotation_times_scale_then_translation_to_the_last_bit():
    random = np.random.default_rng(7)
    for _ in range(200):
        rotation = random.normal(size=4)
        node = {
            "rotation": (rotation / np.linalg.norm(rotation)).tolist(),
            "scale": random.uniform(-3, 3, size=3).tolist(),
            "translation": random.normal(scale=100, size=3).tolist(),
        }
        for kept in (("rotation",), ("scale", "translation"), tuple(node)):
            part = {key: node[key] for key in kept}
            assert local_matrix(part).tobytes() == composed(part).tobytes()


def test_scene_box_spans_every_primitive_of_each_mesh_on_every_node():
    accessors = [
        {"componentType": 5126, "count": 3, "type": "VEC3", "min": low, "max": high}
        for low, high in (
            ([0, 0, 0], [1, 1, 1]),
            ([-2, 0.5, 0], [0, 3, 0.5]),
            ([5, 5, 5], [6, 6, 6]),
        )
    ] + [  # normalized shorts: -32767..32767 reads as -1..1
        {
            "componentType": SHORT,
            "normalized": True,
            "count": 3,
            "type": "VEC3",
            "min": [-32768, 0, 0],
            "max": [32767, 16384, 0],
        }
    ]
    document = GltfDocument(
        {
            "asset": {"version": "2.0"},
            "accessors": accessors,
            "meshes": [
                {"primitives": [{"attributes": {"POSITION": 0}}, {"attributes": {"POSITION": 1}}]},
                {"primitives": [{"attributes": {"POSITION": 3}}]},
                {"primitives": [{"attributes": {"POSITION": 2}}]},  # drawn by no node
            ],
            "nodes": [
                {"mesh": 0},
                {"mesh": 0, "translation": [10.0, 0.0, 0.0]},
                {"mesh": 1, "scale": [2.0, 2.0, 2.0]},
            ],
        },
        [],
    )
    box = scene_box(document.links, document.world_matrices)
    first = corners([-2.0, 0.0, 0.0], [1.0, 3.0, 1.0])
    second = corners([-1.0, 0.0, 0.0], [1.0, 16384 / 32767, 0.0])
    expected = placed_box([document.world_matrices[n] for n in (0, 1, 2)], [first, first, second])
    assert box is not None and expected is not None
    assert (box.low.tolist(), box.high.tolist()) == (expected.low.tolist(), expected.high.tolist())
    assert box.low.tolist() == [-2.0, 0.0, 0.0] and box.high.tolist() == [11.0, 3.0, 1.0]
    assert document.scene_box is document.scene_box  # computed once per document
