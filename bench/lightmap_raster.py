"""The lightmap coverage grid's two ways of drawing a triangle, side by side, by its width.

    python bench/lightmap_raster.py            # up to 20,000 triangles a width, 5 runs each

For triangles 1 to 128 cells wide (and as tall), the CPU time per triangle of the compiled
rasteriser (``assetcheck.mesh._kernels.rasterise``) testing every cell centre of its bounds and
drawing it a row at a time in runs of cells; then the whole ``lightmap_faults`` on a 12-triangle
box whose faces each fill the unit square and on 200,000 small triangles. The crossover sets
``assetcheck.mesh.uvs.NARROW_CELLS``: triangles at most that wide have their centres tested,
wider ones are drawn in runs.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from assetcheck.mesh import uvs
from assetcheck.mesh._kernels import rasterise

GRID = uvs.OVERLAP_GRID
#: Cell centres tested per width at most, which bounds the time of the widest.
MAX_CENTRES = 20_000_000


def triangles(width: int, count: int) -> np.ndarray:
    """``count`` right triangles ``width`` cells wide and tall, at random places, in cell
    units as ``(2, 3, count)``."""
    rng = np.random.default_rng(width)
    origin = rng.uniform(0, GRID - width - 1, (2, count))
    across, up = np.array([[width], [0]]), np.array([[0], [width]])
    points = np.stack([origin, origin + across, origin + up], axis=1)
    return np.ascontiguousarray(points)


def seconds(run: Callable[[], object], runs: int) -> float:
    times = []
    for _ in range(runs):
        started = time.process_time()
        run()
        times.append(time.process_time() - started)
    return statistics.median(times)


def by_width(count: int, runs: int) -> None:
    print(f"{'width':>6} {'centres µs/tri':>15} {'runs µs/tri':>12} {'runs faster':>12}")
    counts = np.zeros(GRID * GRID, np.int32)
    for width in (1, 2, 3, 4, 8, 16, 32, 64, 128):
        count = min(count, MAX_CENTRES // width**2)
        points = triangles(width, count)
        centres = seconds(partial(rasterise, points, GRID, counts, GRID), runs)
        rows = seconds(partial(rasterise, points, GRID, counts, 0), runs)
        print(
            f"{width:>6} {centres / count * 1e6:>15.3f} {rows / count * 1e6:>12.3f}"
            f" {centres / rows:>11.1f}x"
        )


def whole(runs: int) -> None:
    square = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float64)
    faces = [[4 * face + i for i in half] for face in range(6) for half in ((0, 1, 2), (0, 2, 3))]
    rng = np.random.default_rng(0)
    small = rng.uniform(0, 1, (600_000, 2))
    small[1::3] = small[::3] + np.array([0.001, 0])
    small[2::3] = small[::3] + np.array([0, 0.001])
    cases = {
        "box, 12 triangles each filling the square": (np.tile(square, (6, 1)), np.array(faces).T),
        "200,000 triangles of 1 cell": (small, np.arange(600_000).reshape(-1, 3).T),
    }
    for name, (points, corners) in cases.items():
        took = seconds(partial(uvs.lightmap_faults, points, corners), runs)
        print(f"lightmap_faults, {name}: {took * 1000:.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--triangles", type=int, default=20_000)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    by_width(args.triangles, args.runs)
    whole(args.runs)


if __name__ == "__main__":
    main()
