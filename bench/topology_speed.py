"""The topology and UV checks' own time on the grid GLBs, in-process, beside the mesh-geometry
check (zero-area and duplicate triangles) as a reference measured in the same run.

    python bench/topology_speed.py            # builds the grids in memory, 5 runs each

Each GLB is validated ``--runs`` times with the checks wrapped in timers of CPU time (the
machine may be shared); the medians are printed, with the topology and UV checks' share of
the whole validation. ``textured`` grids also have a base colour texture and a lightmap UV
set, so every UV check has work to do.
Target (issue 21): under 0.5 s for all topology and UV checks together on the 100 MB grid.
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

from assetcheck.checks import geometry, topology  # noqa: E402
from assetcheck.engine import validate  # noqa: E402
from bench.grid_glb import grid_glb  # noqa: E402

TIMED = {
    "topology": (topology, "check_topology"),
    "uvs": (topology, "check_uvs"),
    "geometry": (geometry, "check_geometry"),
}


def timed(spent: dict[str, float], label: str, function):
    def run(*args, **kwargs):
        started = time.process_time()
        try:
            return function(*args, **kwargs)
        finally:
            spent[label] += time.process_time() - started

    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--sizes", type=int, nargs="*", default=[670, 1340])
    args = parser.parse_args()
    spent: dict[str, float] = defaultdict(float)
    for label, (module, name) in TIMED.items():
        setattr(module, name, timed(spent, label, getattr(module, name)))
    print(
        f"{'grid':<24}{'triangles':>11}{'topology s':>12}{'uvs s':>8}{'geometry s':>12}"
        f"{'validate s':>12}{'share':>7}"
    )
    with tempfile.TemporaryDirectory() as folder:
        for n in args.sizes:
            for textured in (False, True):
                path = Path(folder) / f"grid_{n}{'_textured' if textured else ''}.glb"
                path.write_bytes(grid_glb(n, textured=textured))
                rows = defaultdict(list)
                for _ in range(args.runs):
                    spent.clear()
                    started = time.process_time()
                    validate(path)
                    rows["validate"].append(time.process_time() - started)
                    for label in TIMED:
                        rows[label].append(spent[label])
                medians = {label: statistics.median(values) for label, values in rows.items()}
                ours = medians["topology"] + medians["uvs"]
                print(
                    f"{path.name:<24}{2 * (n - 1) ** 2:>11,}{medians['topology']:>12.3f}"
                    f"{medians['uvs']:>8.3f}{medians['geometry']:>12.3f}"
                    f"{medians['validate']:>12.3f}{ours / medians['validate']:>6.0%}",
                    flush=True,
                )
                path.unlink()


if __name__ == "__main__":
    main()
