"""Draco GLBs whose decoding keeps a decoder child busy for minutes: what a client can upload
to tie up cores, and what the tests of process cleanup need running while they act."""

from __future__ import annotations

import numpy as np

from assetcheck.testing.compressed import DRACO, UNSIGNED_INT
from assetcheck.testing.gltf import FLOAT, GltfBuilder


def grid_payload(size: int) -> bytes:
    """A ``size`` x ``size`` wavy grid of positions, Draco-encoded: a few bits a vertex."""
    import DracoPy

    axis = np.linspace(0, 1, size)
    u, v = (part.ravel() for part in np.meshgrid(axis, axis))
    positions = np.stack([u, np.sin(u * 6) * 0.1, v], axis=1)
    corner = (np.arange(size - 1)[:, None] * size + np.arange(size - 1)[None, :]).ravel()
    triangles = (
        np.stack(
            [corner, corner + size, corner + 1, corner + 1, corner + size, corner + size + 1],
            axis=1,
        )
        .reshape(-1, 3)
        .astype(np.uint32)
    )
    return DracoPy.encode(positions, triangles, quantization_bits=14, compression_level=7)


def truncated_draco_glb(primitives: int = 8000, grid: int = 300) -> bytes:
    """A GLB with one mesh of ``primitives`` primitives, each naming the same Draco payload
    of a ``grid`` x ``grid`` mesh cut one byte short. The decoder gets through nearly all of
    it before failing (some 50 ms for the default grid), once per primitive: minutes of
    decoding for some 1 MB."""
    builder = GltfBuilder()
    view = builder.add_buffer_view(grid_payload(grid)[:-1])
    vertices, triangles = grid * grid, 2 * (grid - 1) ** 2
    builder.document["accessors"] = [
        {
            "componentType": FLOAT,
            "count": vertices,
            "type": "VEC3",
            "min": [0.0, -0.1, 0.0],
            "max": [1.0, 0.1, 1.0],
        },
        {"componentType": UNSIGNED_INT, "count": 3 * triangles, "type": "SCALAR"},
    ]
    primitive = {
        "attributes": {"POSITION": 0},
        "indices": 1,
        "extensions": {DRACO: {"bufferView": view, "attributes": {"POSITION": 0}}},
    }
    mesh = builder.add_mesh([])
    builder.document["meshes"][mesh]["primitives"] = [primitive] * primitives
    builder.add_node(mesh)
    builder.document["extensionsUsed"] = builder.document["extensionsRequired"] = [DRACO]
    return builder.glb()
