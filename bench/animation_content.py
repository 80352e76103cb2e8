"""What the animation content check costs: validation with and without it, in one process.

    python bench/animation_content.py [--rounds 15]

Files built here with the test suite's builder:

- **rig**: a skinned triangle on a chain of 60 joints and one animation of 400 keys (30 fps,
  13 s) on each joint's translation (a smooth path), rotation (a random walk of unit
  quaternions) and scale (constant, as exporters bake it): about 1 MB;
- **clips**: 100 animations of one translation channel of 600 keys each;
- **channels**: one animation of 10,000 channels sharing one sampler (the hostile graph of
  ``bench/hostile_graphs.py``).

Each round validates each file with every built-in check and with ``gltf-animation-content``
disabled, one after the other; the medians of the CPU times are printed with their ratio.
Budget (issue 29): the new checks add at most 15% on a skinned, animated file of 1 MB.
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

from assetcheck.engine import validate
from assetcheck.plugins.manager import PluginConfig, get_plugin_manager
from assetcheck.testing.gltf import GltfBuilder, Primitive

CHECK = "assetcheck.checks.gltf_animation_content"
JOINTS, KEYS = 60, 400


def rig() -> bytes:
    builder = GltfBuilder()
    joints = builder.add_node_chain(JOINTS)
    builder.add_skinned_triangle(joints)
    rng = np.random.default_rng(7)
    times = builder.add_accessor(np.arange(KEYS, dtype=np.float32) / 30, "SCALAR", minmax=True)
    samplers, channels = [], []
    steps = np.linspace(0, 2 * np.pi, KEYS)
    for joint in joints:
        turns = rng.normal(scale=0.02, size=(KEYS, 4)).cumsum(axis=0) + np.eye(4)[3]
        outputs = {
            "translation": np.stack([np.sin(steps), np.cos(steps), steps], axis=1),
            "rotation": turns / np.linalg.norm(turns, axis=1, keepdims=True),
            "scale": np.ones((KEYS, 3)),
        }
        for path, values in outputs.items():
            kind = "VEC4" if path == "rotation" else "VEC3"
            output = builder.add_accessor(values.astype(np.float32), kind)
            samplers.append({"input": times, "output": output})
            channels.append({"sampler": len(samplers) - 1, "target": {"node": joint, "path": path}})
    builder.document["animations"] = [{"samplers": samplers, "channels": channels}]
    return builder.glb()


def clips() -> bytes:
    builder = GltfBuilder()
    builder.add_node(builder.add_mesh([Primitive(3, index_count=3, normals=True)]))
    rng = np.random.default_rng(1)
    for number in range(100):
        path = rng.normal(size=(600, 3)).cumsum(axis=0)
        builder.add_animation(f"clip {number}", keyframes=600, duration=20.0, translations=path)
    return builder.glb()


def channels() -> bytes:
    builder = GltfBuilder()
    builder.add_node(builder.add_mesh([Primitive(3, index_count=3, normals=True)]))
    builder.add_animation(channels=10_000)
    return builder.glb()


def cpu_seconds(path: Path, plugin_manager) -> float:
    started = time.process_time()
    validate(path, plugin_manager=plugin_manager)
    return time.process_time() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=15)
    args = parser.parse_args()
    with_check = get_plugin_manager()
    without = get_plugin_manager(PluginConfig(disabled=(CHECK,)))
    folder = Path(tempfile.mkdtemp())
    print(f"{'file':<10}{'MB':>6}{'with ms':>10}{'without ms':>12}{'added':>8}")
    for name, build in (("rig", rig), ("clips", clips), ("channels", channels)):
        path = folder / f"{name}.glb"
        path.write_bytes(build())
        cpu_seconds(path, with_check)
        timings: dict[str, list[float]] = {"with": [], "without": []}
        for _ in range(args.rounds):
            timings["with"].append(cpu_seconds(path, with_check))
            timings["without"].append(cpu_seconds(path, without))
        on, off = (statistics.median(timings[key]) for key in ("with", "without"))
        size = path.stat().st_size / 1e6
        print(f"{name:<10}{size:>6.2f}{on * 1e3:>10.1f}{off * 1e3:>12.1f}{on / off - 1:>8.0%}")


if __name__ == "__main__":
    main()
