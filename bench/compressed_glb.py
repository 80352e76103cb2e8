"""Write ~25 MB Draco- and meshopt-compressed GLBs, each beside the same mesh uncompressed.

    python bench/compressed_glb.py bench/out     # then: python bench/validate_speed.py bench/out

A grid with a noisy height and random unit normals (so the codecs cannot shrink it to nothing),
sized so that each compressed file is about 25 MB: ``draco_25mb.glb`` (Draco, 14-bit positions,
edgebreaker) and ``meshopt_25mb.glb`` (EXT_meshopt_compression, lossless), each with its twin
``*.plain.glb``; and ``draco_tiles_25mb.glb``, the same Draco grid cut into 4 x 4 tiles (a mesh
each, as scans and terrain are shipped), whose payloads decode side by side on the cores there
are. ``validate_speed.py`` prints each compressed file's time against its twin's (target,
issue 16: at most twice).
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from assetcheck.testing.compressed import Mesh, draco_glb, meshopt_glb, plain_glb
from bench.grid_glb import grid_triangles

#: Grid sides giving ~25 MB (Draco takes ~13.7 bytes a vertex here, meshopt ~19.6), and how
#: many tiles a side the grid is cut into.
FILES = {
    "draco_25mb": (1350, 1, draco_glb),
    "draco_tiles_25mb": (1350, 4, draco_glb),
    "meshopt_25mb": (1130, 1, meshopt_glb),
}


def tiles(mesh: Mesh, n: int, cuts: int) -> list[Mesh]:
    """The n x n grid ``mesh`` cut into ``cuts`` x ``cuts`` tiles, neighbours sharing the
    positions (and normals) along their common edge."""
    grid_positions, grid_normals = (a.reshape(n, n, 3) for a in (mesh.positions, mesh.normals))
    bounds = np.linspace(0, n - 1, cuts + 1).astype(int).tolist()
    parts = []
    for row in range(cuts):
        for column in range(cuts):
            rows = slice(bounds[row], bounds[row + 1] + 1)
            columns = slice(bounds[column], bounds[column + 1] + 1)
            height = bounds[row + 1] - bounds[row] + 1
            width = bounds[column + 1] - bounds[column] + 1
            parts.append(
                Mesh(
                    grid_positions[rows, columns].reshape(-1, 3).copy(),
                    grid_normals[rows, columns].reshape(-1, 3).copy(),
                    grid_triangles(height, width),
                )
            )
    return parts


def noisy_grid(n: int) -> Mesh:
    """An n x n grid, 2 (n-1)^2 triangles, with a noisy height and random unit normals."""
    rng = np.random.default_rng(0)
    axis = np.linspace(0, 1, n, dtype=np.float32)
    u, v = np.meshgrid(axis, axis)
    height = np.sin(u * 6) * 0.1 + rng.random(u.shape, dtype=np.float32) * 0.01
    positions = np.stack([u.ravel(), height.ravel(), v.ravel()], axis=1).astype(np.float32)
    normals = rng.normal(size=(n * n, 3)).astype(np.float32)
    normals /= np.linalg.norm(normals, axis=1, keepdims=True)
    return Mesh(positions, normals, grid_triangles(n, n))


if __name__ == "__main__":
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "bench/out")
    out.mkdir(parents=True, exist_ok=True)
    for label, (side, cuts, compress) in FILES.items():
        meshes = tiles(noisy_grid(side), side, cuts)
        triangles = sum(len(mesh.triangles) for mesh in meshes)
        for path, data in (
            (out / f"{label}.glb", compress(meshes, "grid")),
            (out / f"{label}.plain.glb", plain_glb(meshes, "grid")),
        ):
            path.write_bytes(data)
            print(
                f"{path}: {len(data) / 1e6:.1f} MB, {len(meshes)} meshes, {triangles:,} triangles"
            )
