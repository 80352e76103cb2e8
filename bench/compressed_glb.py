"""Write ~25 MB Draco- and meshopt-compressed GLBs, each beside the same mesh uncompressed.

    python bench/compressed_glb.py bench/out     # then: python bench/validate_speed.py bench/out

A grid with a noisy height and random unit normals (so the codecs cannot shrink it to nothing),
sized so that each compressed file is about 25 MB: ``draco_25mb.glb`` (Draco, 14-bit positions,
edgebreaker) and ``meshopt_25mb.glb`` (EXT_meshopt_compression, lossless), each with its twin
``*.plain.glb``. ``validate_speed.py`` prints each compressed file's time against its twin's
(target, issue 16: at most twice).
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

from assetcheck.testing.compressed import Mesh, draco_glb, meshopt_glb, plain_glb

#: Grid sides giving ~25 MB: Draco takes ~13.7 bytes a vertex here, meshopt ~19.6.
SIDES = {"draco_25mb": (1350, draco_glb), "meshopt_25mb": (1130, meshopt_glb)}


def noisy_grid(n: int) -> Mesh:
    """An n x n grid, 2 (n-1)^2 triangles, with a noisy height and random unit normals."""
    rng = np.random.default_rng(0)
    axis = np.linspace(0, 1, n, dtype=np.float32)
    u, v = np.meshgrid(axis, axis)
    height = np.sin(u * 6) * 0.1 + rng.random(u.shape, dtype=np.float32) * 0.01
    positions = np.stack([u.ravel(), height.ravel(), v.ravel()], axis=1).astype(np.float32)
    normals = rng.normal(size=(n * n, 3)).astype(np.float32)
    normals /= np.linalg.norm(normals, axis=1, keepdims=True)
    corner = (np.arange(n - 1)[:, None] * n + np.arange(n - 1)[None, :]).ravel().astype(np.uint32)
    triangles = np.stack([corner, corner + n, corner + 1, corner + 1, corner + n, corner + n + 1],
                         axis=1).reshape(-1, 3)
    return Mesh(positions, normals, triangles)


if __name__ == "__main__":
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "bench/out")
    out.mkdir(parents=True, exist_ok=True)
    for label, (side, compress) in SIDES.items():
        mesh = noisy_grid(side)
        for path, data in ((out / f"{label}.glb", compress(mesh, "grid")),
                           (out / f"{label}.plain.glb", plain_glb(mesh, "grid"))):
            path.write_bytes(data)
            print(f"{path}: {len(data) / 1e6:.1f} MB, {len(mesh.triangles):,} triangles")
