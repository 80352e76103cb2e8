"""Cost of validating hostile node graphs: whole `assetcheck validate` processes.

    python bench/hostile_graphs.py [--runs 3]

Builds each hostile glTF of issue 13 (finding 2) with the test suite's builders: a 50,000-node
chain, the same chain closed into a loop, 50,000 siblings, a skin of 10,000 joints in a chain,
an animation of 10,000 channels, and the same with every channel on one target. Each is
validated in a fresh process; the median wall time is printed with the peak RSS and the codes
reported. Target: every file under 1 s.
"""

from __future__ import annotations

import argparse
import compileall
import json
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from assetcheck.testing.gltf import GltfBuilder, Primitive
from bench.validate_speed import ASSETCHECK, HERE, run

NODES = 50_000
JOINTS = 10_000
CHANNELS = 10_000
TARGET_SECONDS = 1.0


def chain(loop: bool = False) -> GltfBuilder:
    """A chain of :data:`NODES` nodes with a triangle at its end (closed into a loop)."""
    builder = GltfBuilder()
    builder.add_node_chain(
        NODES, loop=loop, leaf_mesh=builder.add_mesh([Primitive(3, index_count=3)])
    )
    return builder


def siblings() -> GltfBuilder:
    """One root with :data:`NODES` children, each instancing the same triangle."""
    builder = GltfBuilder()
    mesh = builder.add_mesh([Primitive(3, index_count=3)])
    root = builder.add_node()
    builder.document["nodes"].extend({"mesh": mesh} for _ in range(NODES))
    builder.document["nodes"][root]["children"] = list(range(root + 1, root + 1 + NODES))
    return builder


def deep_skin() -> GltfBuilder:
    """A triangle skinned to :data:`JOINTS` joints that form one chain, deepest joint first."""
    builder = GltfBuilder()
    joints = builder.add_node_chain(JOINTS)
    builder.add_skinned_triangle(joints[::-1])
    return builder


def many_channels() -> GltfBuilder:
    """An animation of :data:`CHANNELS` channels, each moving its own node."""
    builder = GltfBuilder()
    builder.add_node(builder.add_mesh([Primitive(3, index_count=3)]))
    builder.add_animation(channels=CHANNELS)
    return builder


def channels_on_one_target() -> GltfBuilder:
    """An animation of :data:`CHANNELS` channels that all move the same node: every pair is a
    duplicate target, about 50 million of them."""
    builder = many_channels()
    channels = builder.document["animations"][0]["channels"]
    channels[:] = [dict(channels[0]) for _ in channels]
    return builder


def hostile_files() -> dict[str, bytes]:
    """File name -> content, one per hostile graph of issue 13 (finding 2)."""
    return {
        "chain-50000.gltf": chain().embedded_gltf(),
        "loop-50000.gltf": chain(loop=True).embedded_gltf(),
        "siblings-50000.gltf": siblings().embedded_gltf(),
        "skin-10000-joints.gltf": deep_skin().embedded_gltf(),
        "channels-10000.gltf": many_channels().embedded_gltf(),
        "channels-10000-one-target.gltf": channels_on_one_target().embedded_gltf(),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    compileall.compile_dir(HERE.parent / "assetcheck", quiet=1)
    slow = []
    files = hostile_files()
    width = max(map(len, files)) + 2
    with tempfile.TemporaryDirectory() as folder:
        print(f"{'file':<{width}}{'KB':>9}{'seconds':>9}{'RSS MB':>8}  codes")
        for name, content in files.items():
            path = Path(folder) / name
            path.write_bytes(content)
            seconds, rss, output = run(
                [str(ASSETCHECK), "validate", "--format", "json", str(path)], args.runs
            )
            report = json.loads(output)
            found = ", ".join(sorted({issue["code"] for issue in report["issues"]}))
            print(
                f"{name:<{width}}{len(content) / 1000:>9.1f}{seconds:>9.3f}{rss:>8.0f}  "
                f"{found or '-'}",
                flush=True,
            )
            if seconds >= TARGET_SECONDS:
                slow.append(name)
    if slow:
        sys.exit(f"over {TARGET_SECONDS} s: {', '.join(slow)}")


if __name__ == "__main__":
    main()
