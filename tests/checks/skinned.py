"""Skinned triangles built for the skin tests: a skeleton of joint nodes and one triangle whose
three vertices all carry the same influences."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from assetcheck.testing.gltf import GltfBuilder


def skinned_glb(
    folder: Path,
    weights: list[float] | list[int],
    joint_indices: list[int] | None = None,
    *,
    dtype: type = np.float32,
    joints: int = 8,
) -> Path:
    """A GLB whose triangle's vertices each have ``weights`` (4 per set, stored as ``dtype``:
    integer types normalized) on ``joint_indices`` (default 0, 1, 2...) of a skin of
    ``joints`` joint nodes at the origin."""
    builder = GltfBuilder()
    nodes = [builder.add_node(name=f"bone{n}") for n in range(joints)]
    indices = list(range(len(weights))) if joint_indices is None else joint_indices
    builder.add_skinned_triangle(
        nodes,
        np.tile(np.array(weights, dtype), (3, 1)),
        np.tile(np.array(indices, np.uint16), (3, 1)),
    )
    return builder.write_glb(folder / "skinned.glb")
