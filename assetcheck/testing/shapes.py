"""Model files with a known shape (a chess pawn), as real GLB bytes: for previews and pages."""

from __future__ import annotations

import numpy as np

from assetcheck.testing.gltf import ARRAY_BUFFER, ELEMENT_ARRAY_BUFFER, GltfBuilder

#: The outline of a chess pawn, as (radius, height) pairs from the foot to the crown.
PAWN_PROFILE = (
    (0.0, 0.0),
    (0.42, 0.0),
    (0.42, 0.08),
    (0.34, 0.14),
    (0.30, 0.20),
    (0.18, 0.30),
    (0.13, 0.55),
    (0.22, 0.60),
    (0.12, 0.66),
    (0.20, 0.78),
    (0.22, 0.88),
    (0.18, 0.98),
    (0.08, 1.04),
    (0.0, 1.05),
)


def lathe(
    profile: tuple[tuple[float, float], ...] = PAWN_PROFILE, segments: int = 32
) -> tuple[np.ndarray, np.ndarray]:
    """A solid of revolution: ``(positions, indices)`` of the outline turned around +Y."""
    angles = np.linspace(0.0, 2 * np.pi, segments, endpoint=False)
    radius, height = np.array(profile, np.float32).T
    positions = (
        np.stack(
            [
                np.outer(radius, np.cos(angles)),
                np.repeat(height[:, None], segments, axis=1),
                np.outer(radius, np.sin(angles)),
            ],
            axis=2,
        )
        .reshape(-1, 3)
        .astype(np.float32)
    )
    ring = np.arange(segments)
    quads = []
    for row in range(len(profile) - 1):
        a, b = row * segments + ring, row * segments + (ring + 1) % segments
        c, d = a + segments, b + segments
        quads.append(np.stack([a, c, b, b, c, d], axis=1).reshape(-1, 3))
    return positions, np.concatenate(quads).astype(np.uint32)


def pawn_glb(copies: int = 1) -> bytes:
    """A GLB of ``copies`` pawns in a row, one mesh instanced by that many nodes."""
    builder = GltfBuilder()
    positions, indices = lathe()
    primitive = {
        "attributes": {
            "POSITION": builder.add_accessor(positions, "VEC3", minmax=True, target=ARRAY_BUFFER)
        },
        "indices": builder.add_accessor(indices.reshape(-1), "SCALAR", target=ELEMENT_ARRAY_BUFFER),
    }
    builder.document["meshes"] = [{"name": "Pawn", "primitives": [primitive]}]
    for copy in range(copies):
        node = builder.add_node(mesh=0, name=f"Pawn {copy + 1}")
        builder.document["nodes"][node]["translation"] = [copy * 1.0, 0.0, 0.0]
    return builder.glb()


def box_glb(
    low: tuple[float, float, float] | list[float],
    high: tuple[float, float, float] | list[float],
    translation: tuple[float, float, float] | list[float] = (0.0, 0.0, 0.0),
) -> bytes:
    """A GLB whose one mesh spans ``low``..``high`` in metres (three points, so its POSITION
    bounds are those corners), drawn by the scene's one root node at ``translation``: for the
    size, origin and dimension checks."""
    builder = GltfBuilder()
    corners = np.array([low, high, [low[0], high[1], low[2]]], np.float32)
    position = builder.add_accessor(corners, "VEC3", minmax=True)
    builder.document["meshes"] = [{"primitives": [{"attributes": {"POSITION": position}}]}]
    node = builder.add_node(0, name="product")
    if any(translation):
        builder.document["nodes"][node]["translation"] = list(translation)
    builder.document["scenes"] = [{"nodes": [node]}]
    builder.document["scene"] = 0
    return builder.glb()
