"""`assetcheck validate` with a running daemon, beside the same command without it and the
Khronos validator, on the files pipelines and pre-commit check one at a time.

    npm install --prefix bench            # the Khronos glTF-Validator, the reference
    python bench/daemon_speed.py [--runs 9]

Writes a 1-triangle GLB and the 2 MB grid (``bench/grid_glb.py``) to a temporary folder, starts
a daemon on a socket of its own there, and runs, taking turns in each round: ``validate
--format json`` through the daemon, the same with ``--no-daemon``, and the validator. Prints
the median wall time of each (whole process, start to exit) and the speed-ups; issue 28's
target with the daemon: at least 2x the validator on both files. It also checks that the
daemon's output is the command's own: text byte for byte, JSON but for its timings.
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from assetcheck.testing.gltf import GltfBuilder, Primitive  # noqa: E402
from bench.grid_glb import grid_glb  # noqa: E402

ASSETCHECK = str(Path(sys.executable).with_name("assetcheck"))
#: The speed-up over the validator the daemon must reach (issue 28).
TARGET = 2.0


def seconds(command: list[str], env: dict[str, str]) -> float:
    started = time.perf_counter()
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    return time.perf_counter() - started


def without_timings(output: bytes) -> dict:
    report = json.loads(output)
    report.pop("timings")
    return report


def same_output(path: Path, env: dict[str, str]) -> bool:
    """Whether the daemon prints what the command prints alone, as text and as JSON."""
    outputs = {}
    for report_format in ("text", "json"):
        for switch in ([], ["--no-daemon"]):
            command = [ASSETCHECK, "validate", "--format", report_format, str(path), *switch]
            outputs[report_format, bool(switch)] = subprocess.run(
                command, capture_output=True, env=env
            ).stdout
    return outputs["text", False] == outputs["text", True] and without_timings(
        outputs["json", False]
    ) == without_timings(outputs["json", True])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=9)
    args = parser.parse_args()
    compileall.compile_dir(HERE.parent / "assetcheck", quiet=1)
    node = shutil.which("node")
    validator = HERE / "node_modules" / "gltf-validator"
    if node is None or not validator.is_dir():
        sys.exit("the Khronos validator is missing: npm install --prefix bench")
    folder = Path(tempfile.mkdtemp(prefix="acd-bench-"))
    env = {**os.environ, "ASSETCHECK_DAEMON_SOCKET": str(folder / "run" / "daemon.sock")}
    env.pop("ASSETCHECK_NO_DAEMON", None)
    try:
        builder = GltfBuilder()
        builder.add_node(builder.add_mesh([Primitive(3)]))
        files = [builder.write_glb(folder / "triangle.glb"), folder / "grid_2mb.glb"]
        files[1].write_bytes(grid_glb(190))
        subprocess.run([ASSETCHECK, "daemon", "start"], env=env, check=True)
        print(
            f"{'file':<16}{'daemon s':>10}{'alone s':>9}{'khronos s':>11}"
            f"{'vs alone':>10}{'vs khronos':>12}{'target':>8}  same output"
        )
        for path in files:
            commands = [
                [ASSETCHECK, "validate", "--format", "json", str(path)],
                [ASSETCHECK, "validate", "--format", "json", "--no-daemon", str(path)],
                [node, str(HERE / "khronos_validate.mjs"), str(path)],
            ]
            rounds = [[seconds(command, env) for command in commands] for _ in range(args.runs)]
            daemon, alone, khronos = (statistics.median(r[i] for r in rounds) for i in range(3))
            verdict = "met" if khronos / daemon >= TARGET else "MISSED"
            print(
                f"{path.name:<16}{daemon:>10.3f}{alone:>9.3f}{khronos:>11.3f}"
                f"{alone / daemon:>9.2f}x{khronos / daemon:>11.2f}x{TARGET:>6.1f}x {verdict:<7}"
                f"{'yes' if same_output(path, env) else 'NO'}",
                flush=True,
            )
    finally:
        subprocess.run([ASSETCHECK, "daemon", "stop"], env=env, stdout=subprocess.DEVNULL)
        shutil.rmtree(folder)


if __name__ == "__main__":
    main()
