"""Write a ~25 MB OBJ and a ~25 MB USDZ (each one quad grid), inputs of bench/validate_speed.py.

The USDZ is made with usd-core's own tools: a binary crate layer written by
``Usd.Stage.CreateNew``, packaged by ``UsdUtils.CreateNewUsdzPackage``. Run from the repository
root: ``python bench/big_usd_obj.py bench/out``.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import numpy as np


def grid(size: int) -> tuple[np.ndarray, np.ndarray]:
    """The points of a ``size`` x ``size`` grid of quads (``(size + 1) ** 2``, float32) and its
    quads' corner indices (``(size ** 2, 4)``, counter-clockwise seen from +Z)."""
    axis = np.arange(size + 1, dtype=np.float32) / size
    x, y = np.meshgrid(axis, axis)
    points = np.stack([x.ravel(), y.ravel(), np.zeros(x.size, np.float32)], axis=1)
    row = np.arange(size)[None, :] + (size + 1) * np.arange(size)[:, None]
    quads = np.stack([row, row + 1, row + size + 2, row + size + 1], axis=-1).reshape(-1, 4)
    return points, quads


def write_obj(path: Path, size: int) -> None:
    points, quads = grid(size)
    with open(path, "w") as file:
        file.write("o grid\n")
        np.savetxt(file, points, fmt="v %.6f %.6f %.6f")
        np.savetxt(file, quads + 1, fmt="f %d %d %d %d")


def write_usdz(path: Path, size: int) -> None:
    from pxr import Usd, UsdGeom, UsdUtils, Vt

    points, quads = grid(size)
    with tempfile.TemporaryDirectory() as folder:
        layer = str(Path(folder) / "grid.usdc")
        stage = Usd.Stage.CreateNew(layer)
        UsdGeom.SetStageUpAxis(stage, UsdGeom.Tokens.y)
        UsdGeom.SetStageMetersPerUnit(stage, 1.0)
        root = UsdGeom.Xform.Define(stage, "/Grid")
        stage.SetDefaultPrim(root.GetPrim())
        mesh = UsdGeom.Mesh.Define(stage, "/Grid/Mesh")
        mesh.CreatePointsAttr(Vt.Vec3fArray.FromNumpy(points))
        mesh.CreateFaceVertexCountsAttr(Vt.IntArray.FromNumpy(np.full(len(quads), 4, np.int32)))
        mesh.CreateFaceVertexIndicesAttr(Vt.IntArray.FromNumpy(quads.astype(np.int32).ravel()))
        mesh.CreateSubdivisionSchemeAttr(UsdGeom.Tokens.none)
        stage.GetRootLayer().Save()
        assert UsdUtils.CreateNewUsdzPackage(layer, str(path))


if __name__ == "__main__":
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "bench/out")
    out.mkdir(parents=True, exist_ok=True)
    for path, write, size in (
        (out / "grid_25mb.obj", write_obj, 655),
        (out / "grid_25mb.usdz", write_usdz, 1440),
    ):
        write(path, size)
        print(f"{path}: {path.stat().st_size / 1e6:.1f} MB")
