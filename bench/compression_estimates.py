"""The estimated savings of the byte breakdown (``docs/statistics.md``, "Estimated savings")
against real encodings of the same meshes, to show how far the documented ratios are from what
the encoders make:

    python bench/compression_estimates.py

For each mesh (the lathe pawn, a flat 200 x 200 grid, the same grid with random heights) the
uncompressed GLB is validated and its estimates read from the report; then the mesh is really
encoded: quantized as ``gltfpack`` does (positions 16-bit, normals 8-bit, padded to 4 bytes)
and compressed by meshoptimizer's codecs, and compressed by Draco (``DracoPy``, 14-bit
positions and 10-bit normals as glTF-Transform's defaults, compression level 7). Neither is
followed by gzip or Zstandard.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from assetcheck.engine import validate
from assetcheck.testing.compressed import Mesh, encode_meshopt, pawn_mesh, plain_glb
from bench.grid_glb import grid_triangles


def grid_mesh(side: int, *, rough: bool) -> Mesh:
    """A ``side`` x ``side`` grid, flat or with random heights, normals up."""
    rows, columns = np.meshgrid(np.arange(side), np.arange(side), indexing="ij")
    heights = np.random.default_rng(29).random((side, side)) if rough else np.zeros((side, side))
    positions = np.stack([columns, heights, rows], axis=-1).reshape(-1, 3).astype(np.float32)
    normals = np.tile(np.array([0, 1, 0], np.float32), (len(positions), 1))
    return Mesh(positions, normals, grid_triangles(side, side))


def quantized_meshopt(mesh: Mesh) -> int:
    """Bytes of the mesh quantized (16-bit positions, 8-bit normals) and meshopt-encoded."""
    low, high = mesh.positions.min(axis=0), mesh.positions.max(axis=0)
    scale = np.where(high > low, high - low, 1)
    positions = np.zeros((len(mesh.positions), 4), np.uint16)
    positions[:, :3] = np.round((mesh.positions - low) / scale * 65535)
    normals = np.zeros((len(mesh.normals), 4), np.int8)
    normals[:, :3] = np.round(mesh.normals * 127)
    count = len(mesh.positions)
    return (
        len(encode_meshopt(positions, count, 8, "ATTRIBUTES"))
        + len(encode_meshopt(normals, count, 4, "ATTRIBUTES"))
        + len(encode_meshopt(mesh.triangles, mesh.triangles.size, 4, "TRIANGLES"))
    )


def draco(mesh: Mesh) -> int:
    """Bytes of the mesh as a Draco payload, at glTF-Transform's default precision."""
    import DracoPy

    payload = DracoPy.encode(
        mesh.positions.astype(np.float64),
        mesh.triangles,
        quantization_bits=14,
        normals=mesh.normals.astype(np.float64),
        normal_quantization_bits=10,
        compression_level=7,
    )
    return len(payload)


def main() -> None:
    meshes = {
        "pawn": pawn_mesh(),
        "grid 200 x 200": grid_mesh(200, rough=False),
        "rough grid 200 x 200": grid_mesh(200, rough=True),
    }
    print(
        f"{'mesh':<22}{'now':>10}{'meshopt est':>13}{'meshopt real':>14}"
        f"{'draco est':>11}{'draco real':>12}"
    )
    with tempfile.TemporaryDirectory() as folder:
        for name, mesh in meshes.items():
            path = Path(folder) / "mesh.glb"
            path.write_bytes(plain_glb(mesh))
            usage = validate(path).assets[0].byte_usage
            assert usage is not None
            estimates = {saving.method: saving for saving in usage.savings}
            print(
                f"{name:<22}{estimates['meshopt'].bytes:>10,}"
                f"{estimates['meshopt'].estimated_bytes:>13,}{quantized_meshopt(mesh):>14,}"
                f"{estimates['draco'].estimated_bytes:>11,}{draco(mesh):>12,}"
            )


if __name__ == "__main__":
    main()
