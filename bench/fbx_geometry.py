"""How fast FBX geometry is read: a 2-million-triangle grid (1000 x 1000 quads), binary
(raw and zlib arrays) and ASCII, decoded and fan-triangulated.

    python bench/fbx_geometry.py [--runs 5]

Prints the median seconds of the walk (:func:`assetcheck.formats.fbx.walk.walk_fbx`: the security
checks and the node tree), of :func:`assetcheck.formats.fbx.geometry.read_geometries` (arrays,
transforms) and of triangulating the result. Target (issue 15): the binary file's geometry
(tree and arrays) in under 0.5 s. Run from the repository root (it builds the files with the test
suite's FBX writer).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from assetcheck.asset.options import Limits
from assetcheck.formats.fbx.geometry import read_geometries
from assetcheck.formats.fbx.walk import walk_fbx
from assetcheck.testing.fbx import Scene, ascii_fbx, binary_fbx, grid

SIDE = 1000


def median_seconds(data: bytes, runs: int) -> tuple[float, float, float, int]:
    """Median seconds to walk, to decode and to triangulate, and the triangle count."""
    walk, decode, triangulate, count = [], [], [], 0
    for _ in range(runs):
        started = time.perf_counter()
        tree = walk_fbx(data, Limits()).tree
        walked = time.perf_counter()
        (mesh,) = read_geometries(tree)
        decoded = time.perf_counter()
        count = len(mesh.geometry.triangles())
        walk.append(walked - started)
        decode.append(decoded - walked)
        triangulate.append(time.perf_counter() - decoded)
    return statistics.median(walk), statistics.median(decode), statistics.median(triangulate), count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    scene = Scene(meshes=[grid("Grid", SIDE, SIDE)])
    files = {
        "binary 7400": binary_fbx(scene, 7400),
        "binary 7400 zlib": binary_fbx(scene, 7400, compress=True),
        "ascii 7400": ascii_fbx(scene, 7400),
    }
    print(
        f"{'file':<18}{'MB':>7}{'triangles':>11}{'walk s':>8}{'decode s':>10}"
        f"{'triangulate s':>15}{'total s':>9}"
    )
    for name, data in files.items():
        walk, decode, triangulate, count = median_seconds(data, args.runs)
        print(
            f"{name:<18}{len(data) / 1e6:>7.1f}{count:>11,}{walk:>8.3f}{decode:>10.3f}"
            f"{triangulate:>15.3f}{walk + decode + triangulate:>9.3f}",
            flush=True,
        )


if __name__ == "__main__":
    main()
