"""The scale and transforms checks' own time, in-process, on the grid GLBs and a large FBX,
beside the whole validation measured in the same runs.

    python bench/scale_check.py               # builds the files in memory, 5 runs each

The glTF bounding box comes from the POSITION accessors' min/max (no vertex data read); the
FBX one from every control point carried through its nodes, so the FBX grid (1120 x 1120
quads, ~50 MB) is where the scale check has the most to do. Budget (issue 29): the new checks
add at most 15 % to a validation; these print their share of it.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from assetcheck.checks import scale, transforms  # noqa: E402
from assetcheck.engine import validate  # noqa: E402
from assetcheck.testing.fbx import Scene, binary_fbx, grid  # noqa: E402
from bench.grid_glb import grid_glb  # noqa: E402

TIMED = {"scale": (scale, "check_scale"), "transforms": (transforms, "check_transforms")}


def timed(spent: dict[str, float], label: str, function):
    def run(*args, **kwargs):
        started = time.perf_counter()
        try:
            return function(*args, **kwargs)
        finally:
            spent[label] += time.perf_counter() - started

    return run


def inputs() -> dict[str, bytes]:
    """The files measured, by name."""
    return {
        "grid_25mb.glb": grid_glb(670),
        "grid_100mb.glb": grid_glb(1340),
        "grid_50mb.fbx": binary_fbx(Scene(meshes=[grid("Grid", 1120, 1120)])),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    spent: dict[str, float] = defaultdict(float)
    for label, (module, name) in TIMED.items():
        setattr(module, name, timed(spent, label, getattr(module, name)))
    print(f"{'file':<18}{'scale s':>10}{'transforms s':>14}{'validate s':>12}{'share':>7}")
    with tempfile.TemporaryDirectory() as folder:
        for name, content in inputs().items():
            path = Path(folder) / name
            path.write_bytes(content)
            rows = defaultdict(list)
            for _ in range(args.runs):
                spent.clear()
                started = time.perf_counter()
                validate(path)
                rows["validate"].append(time.perf_counter() - started)
                for label in TIMED:
                    rows[label].append(spent[label])
            medians = {label: statistics.median(values) for label, values in rows.items()}
            ours = medians["scale"] + medians["transforms"]
            print(
                f"{name:<18}{medians['scale']:>10.4f}{medians['transforms']:>14.4f}"
                f"{medians['validate']:>12.3f}{ours / medians['validate']:>6.1%}",
                flush=True,
            )
            path.unlink()


if __name__ == "__main__":
    main()
