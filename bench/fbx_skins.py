"""What FBX skins cost: validation with and without the ``fbx-skins`` check, and the reader's
share (keeping and decoding the clusters), on the largest real skinned FBX and on a big one
built here.

    python bench/fbx_skins.py [--rounds 21] [FILE ...]

- **built**: a grid of 200 x 200 quads (40,401 control points) skinned by 64 bones in bands,
  every control point weighted on 4 of them (161,604 weights), binary FBX 7400;
- each FILE given (the largest real one: the production corpus'
  ``Characters-and-Animals_Animated-Woman_smooth.fbx``).

Each round validates each file with every built-in check and with ``fbx-skins`` disabled, one
after the other; CPU time counts the parser's child process too (its clusters are read there,
whether or not the check runs). The reader's share is the walk and the geometry reader in this
process, keeping ``Deformer`` nodes or not. Medians are printed.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from assetcheck.asset.options import Limits
from assetcheck.engine import validate
from assetcheck.formats.fbx.geometry import read_geometries
from assetcheck.formats.fbx.tree import geometry_nodes
from assetcheck.formats.fbx.walk import walk_fbx
from assetcheck.plugins.manager import PluginConfig, get_plugin_manager
from assetcheck.testing.fbx import ClusterSpec, MeshSpec, Scene, binary_fbx, grid

CHECK = "assetcheck.checks.fbx_skins"
SIDE, BONES, INFLUENCES = 200, 64, 4


def built() -> bytes:
    return binary_fbx(Scene(meshes=[skinned_grid(SIDE, BONES)]))


def skinned_grid(side: int, bones: int) -> MeshSpec:
    """A grid of ``side`` x ``side`` quads skinned by bones ``Bone0``.. in bands across it,
    every control point weighted on :data:`INFLUENCES` of them."""
    mesh = grid("Sheet", side, side)
    points = (side + 1) ** 2
    columns = [index % (side + 1) for index in range(points)]
    band = (side + 1) / (bones - INFLUENCES + 1)
    clusters = []
    for bone in range(bones):
        rows = [p for p in range(points) if 0 <= bone - int(columns[p] / band) < INFLUENCES]
        clusters.append(
            ClusterSpec(f"Bone{bone}", rows, [1 / INFLUENCES] * len(rows), (bone * band, 0, 0))
        )
    mesh.skin = clusters
    return mesh


def cpu_seconds(path: Path, plugin_manager) -> float:
    """CPU seconds of one validation, the parser's child process included."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.process_time()
    validate(path, plugin_manager=plugin_manager)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    children = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    return time.process_time() - started + children


def without_deformers(depth: int, parent: str, name: str) -> bool:
    return geometry_nodes(depth, parent, name) and not (depth == 2 and name == "Deformer")


def reader_seconds(data: bytes, keep) -> float:
    started = time.process_time()
    read_geometries(walk_fbx(data, Limits(), keep).tree)
    return time.process_time() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=21)
    parser.add_argument("files", nargs="*", type=Path)
    args = parser.parse_args()
    with_check = get_plugin_manager()
    without = get_plugin_manager(PluginConfig(disabled=(CHECK,)))
    folder = Path(tempfile.mkdtemp())
    (folder / "built.fbx").write_bytes(built())
    print(f"{'file':<52}{'MB':>6}{'with ms':>9}{'without':>9}{'reader+':>9}{'reader-':>9}")
    for path in [folder / "built.fbx", *args.files]:
        data = path.read_bytes()
        cpu_seconds(path, with_check)
        timings: dict[str, list[float]] = {"with": [], "without": [], "kept": [], "left": []}
        for _ in range(args.rounds):
            timings["with"].append(cpu_seconds(path, with_check))
            timings["without"].append(cpu_seconds(path, without))
            timings["kept"].append(reader_seconds(data, geometry_nodes))
            timings["left"].append(reader_seconds(data, without_deformers))
        medians = [statistics.median(timings[key]) * 1e3 for key in timings]
        print(f"{path.name:<52}{len(data) / 1e6:>6.2f}" + "".join(f"{m:>9.1f}" for m in medians))


if __name__ == "__main__":
    main()
