"""What FBX animation curves cost: validation with and without the ``fbx-animation-content``
check, and the reader's share (keeping the animation objects and reading their keys), on an
animated rig built here and on each FILE given.

    python bench/fbx_animation_content.py [--rounds 15] [FILE ...]

- **rig**: a cube and 60 bones, each with translation (a smooth path), rotation (a random walk
  in degrees) and scale (constant, as exporters bake it) curves of 200 linear keys on X, Y and
  Z: 540 curves, 108,000 keys, binary FBX 7400, about 1.5 MB (``rig(skinned=True)``, which
  ``bench/validate_speed.py`` times, puts a skinned grid in the cube's place, as
  :func:`bench.fbx_skins.built` skins it, on the animated bones);
- each FILE given (the largest real animated one: the production corpus'
  ``Characters-and-Animals_Animated-Woman_smooth.fbx``, 10 stacks, 3,780 curves).

Each round validates each file with every built-in check and with the check disabled, one after
the other; CPU time counts the parser's child process too (the curves are read there, whether
or not the check runs). The reader's share is the walk keeping the animation objects or not,
and reading the curves, in this process. Medians are printed.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from assetcheck.asset.options import Limits
from assetcheck.formats.fbx.curves import read_curves
from assetcheck.formats.fbx.objects import FbxObjects
from assetcheck.formats.fbx.tree import geometry_nodes
from assetcheck.formats.fbx.walk import walk_fbx
from assetcheck.plugins.manager import PluginConfig, get_plugin_manager
from assetcheck.testing.fbx import CurveSpec, Scene, binary_fbx, cube
from bench.fbx_skins import cpu_seconds, skinned_grid

CHECK = "assetcheck.checks.fbx_animation_content"
BONES, KEYS = 60, 200
#: The skinned grid's quads per side: 1,681 control points, 4 bones each.
SKINNED_SIDE = 40
ANIMATION = frozenset({"AnimationStack", "AnimationLayer", "AnimationCurveNode", "AnimationCurve"})


def rig(*, skinned: bool = False) -> bytes:
    """The animated rig; ``skinned`` puts a grid skinned to its bones in the cube's place."""
    rng = np.random.default_rng(7)
    times = (np.arange(KEYS) / 30).tolist()
    steps = np.linspace(0, 2 * np.pi, KEYS)
    curves = []
    for bone in range(BONES):
        turns = rng.normal(scale=3.0, size=(KEYS, 3)).cumsum(axis=0)
        values = {
            "Lcl Translation": np.stack([np.sin(steps), np.cos(steps), steps], axis=1),
            "Lcl Rotation": turns,
            "Lcl Scaling": np.ones((KEYS, 3)),
        }
        for prop, rows in values.items():
            for axis, component in enumerate("XYZ"):
                curves.append(
                    CurveSpec(f"Bone{bone}", times, rows[:, axis].tolist(), prop, component)
                )
    mesh = skinned_grid(SKINNED_SIDE, BONES) if skinned else cube()
    scene = Scene(meshes=[mesh], animations=[("Take", KEYS / 30)], curves=curves)
    return binary_fbx(scene)


def without_animation(depth: int, parent: str, name: str) -> bool:
    return geometry_nodes(depth, parent, name) and not (depth == 2 and name in ANIMATION)


def walk_seconds(data: bytes, keep) -> float:
    started = time.process_time()
    walk_fbx(data, Limits(), keep)
    return time.process_time() - started


def curve_seconds(data: bytes) -> float:
    objects = FbxObjects.of(walk_fbx(data, Limits()).tree)
    started = time.process_time()
    read_curves(objects)
    return time.process_time() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("files", nargs="*", type=Path)
    args = parser.parse_args()
    with_check = get_plugin_manager()
    without = get_plugin_manager(PluginConfig(disabled=(CHECK,)))
    folder = Path(tempfile.mkdtemp())
    (folder / "rig.fbx").write_bytes(rig())
    columns = ("with", "without", "walk+", "walk-", "curves")
    print(f"{'file':<52}{'MB':>6}" + "".join(f"{c + ' ms':>10}" for c in columns))
    for path in [folder / "rig.fbx", *args.files]:
        data = path.read_bytes()
        cpu_seconds(path, with_check)
        timings: dict[str, list[float]] = {column: [] for column in columns}
        for _ in range(args.rounds):
            timings["with"].append(cpu_seconds(path, with_check))
            timings["without"].append(cpu_seconds(path, without))
            timings["walk+"].append(walk_seconds(data, geometry_nodes))
            timings["walk-"].append(walk_seconds(data, without_animation))
            timings["curves"].append(curve_seconds(data))
        medians = [statistics.median(timings[column]) * 1e3 for column in columns]
        print(f"{path.name:<52}{len(data) / 1e6:>6.2f}" + "".join(f"{m:>10.1f}" for m in medians))


if __name__ == "__main__":
    main()
