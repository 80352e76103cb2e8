"""The passes over one big mesh, on one thread and on several: where threads start to pay.

    python bench/mesh_threads.py [--sides 100 190 ...] [--threads 1 2] [--runs 7]

For each grid of ``side`` x ``side`` vertices (``bench/grid_glb.py``'s triangles, positions
on a wavy surface), the edge table with the pieces (``mesh.topology.mesh_topology``'s work)
and the zero-area and duplicate search (``mesh.duplicates.triangle_marks``) are timed with
each thread count, the runs of the counts taking turns; the median wall and CPU (this
process's, every thread's) milliseconds are printed. The threads are forced (``run_all``
with the count given), whatever ``mesh.threads.mesh_threads`` would choose; the results are
checked to be the same with every count. ``TRIANGLES_PER_THREAD`` is set where the wall
time of two threads falls below one's with margin (docs/performance.md, "Big meshes on
every core").
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

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from assetcheck.mesh import duplicates, edge_table, threads, topology
from assetcheck.mesh.duplicates import triangle_marks
from assetcheck.mesh.prepared import PreparedMesh, Vertices
from bench.grid_glb import grid_triangles


def grid_mesh(side: int) -> PreparedMesh:
    """A ``side`` x ``side`` grid on a wavy surface (no flat triangle, no weld)."""
    x, y = np.meshgrid(np.arange(side, dtype=np.float32), np.arange(side, dtype=np.float32))
    z = np.sin(x * 0.3) * np.cos(y * 0.2)
    positions = np.stack([x.ravel(), y.ravel(), z.ravel()], axis=1)
    return PreparedMesh(Vertices.of(positions), grid_triangles(side, side))


#: Per stage run by ``run_all``: the CPU time of its tasks, each on its thread, and the threads.
STAGES: list[tuple[list[float], int]] = []


def run_all_timed(tasks, count):  # type: ignore[no-untyped-def]
    """``run_all``, recording each task's CPU time (``thread_time``) in :data:`STAGES`."""
    spent: list[float] = []

    def timed_task(task):  # type: ignore[no-untyped-def]
        def run():  # type: ignore[no-untyped-def]
            start = time.thread_time()
            try:
                return task()
            finally:
                spent.append(time.thread_time() - start)

        return run

    try:
        return threads.run_all([timed_task(task) for task in tasks], count)
    finally:
        STAGES.append((spent, count))


def edges_and_pieces(mesh: PreparedMesh, threads: int) -> object:
    return topology.mesh_topology(
        mesh.corners.astype(np.uint32), len(mesh.vertices), threads=threads
    )


def flat_and_duplicates(mesh: PreparedMesh, threads: int) -> object:
    marks = triangle_marks(mesh.vertices, mesh.corners, threads)
    return marks.zero_area, marks.duplicates


def timed(work: Callable[[], object]) -> tuple[float, float, float, object]:
    """Wall and CPU seconds of ``work()``, its critical path (about the wall time on idle
    cores: the CPU time with each stage's tasks counted at the longest of them, or at their
    sum shared by the threads when that is longer) and its result."""
    STAGES.clear()
    wall, cpu = time.perf_counter(), time.process_time()
    result = work()
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    critical = cpu - sum(
        sum(spent) - max(max(spent, default=0.0), sum(spent) / count) for spent, count in STAGES
    )
    return wall, cpu, critical, result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sides", type=int, nargs="+", default=[100, 190, 300, 450, 670, 1340])
    parser.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--runs", type=int, default=7)
    arguments = parser.parse_args()
    edge_table.run_all = duplicates.run_all = run_all_timed  # type: ignore[assignment]
    print(
        "| triangles | pass | "
        + " | ".join(f"{t} thr wall / CPU / critical" for t in arguments.threads)
    )
    for side in arguments.sides:
        mesh = grid_mesh(side)
        passes: dict[str, Callable[[PreparedMesh, int], object]] = {
            "edges + pieces": edges_and_pieces,
            "flat + duplicates": flat_and_duplicates,
        }
        for name, measure in passes.items():
            work = partial(measure, mesh)
            figures: dict[int, list[tuple[float, float, float]]] = {
                t: [] for t in arguments.threads
            }
            results = set()
            for _ in range(arguments.runs):
                for count in arguments.threads:
                    wall, cpu, critical, result = timed(lambda: work(count))  # noqa: B023
                    figures[count].append((wall, cpu, critical))
                    results.add(repr(result))
            assert len(results) == 1, results
            cells = [
                " / ".join(
                    f"{statistics.median(run[k] for run in figures[t]) * 1e3:.1f}" for k in range(3)
                )
                for t in arguments.threads
            ]
            print(f"| {len(mesh.triangles):,} | {name} | " + " | ".join(cells))


if __name__ == "__main__":
    main()
