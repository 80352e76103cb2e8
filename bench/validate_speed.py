"""Whole-process speed and peak memory of `assetcheck validate`, beside the Khronos validator.

    python bench/grid_glb.py bench/out          # ~2, 25 and 100 MB grid GLBs
    python bench/big_fbx.py bench/out           # ~50 MB FBX
    python bench/compressed_glb.py bench/out    # ~25 MB Draco and meshopt GLBs, with twins
    npm install --prefix bench gltf-validator   # the reference, for the GLB rows
    python bench/validate_speed.py bench/out

Each command runs ``--runs`` times; the median wall time and the largest peak RSS are printed.
The package is byte-compiled first, as a pip install leaves it: otherwise (``./dev`` installs in
editable mode, and ``PYTHONDONTWRITEBYTECODE`` may be set) every run would compile ~100 modules.
Targets (issue 2): at least twice the validator's speed on the 25 and 100 MB files, no slower on
the 2 MB one, process start included; peak RSS under 2x the file size + 150 MB. Issue 16: a
compressed file (``X.glb`` beside its uncompressed twin ``X.plain.glb``) within twice the time
of its twin: those ratios are printed after the table.
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
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ASSETCHECK = Path(sys.executable).with_name("assetcheck")


def measure(command: list[str]) -> tuple[float, float, str]:
    """Wall seconds, peak RSS in MB (the process and the children it waited for), stdout."""
    started = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    output = process.stdout.read()
    _, status, usage = os.wait4(process.pid, 0)
    elapsed = time.perf_counter() - started
    process.returncode = os.waitstatus_to_exitcode(status)
    return elapsed, usage.ru_maxrss / 1024, output.decode(errors="replace")


def run(command: list[str], runs: int) -> tuple[float, float, str]:
    results = [measure(command) for _ in range(runs)]
    return (statistics.median(r[0] for r in results), max(r[1] for r in results), results[0][2])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    compileall.compile_dir(HERE.parent / "assetcheck", quiet=1)
    node = shutil.which("node")
    have_khronos = node and (HERE / "node_modules" / "gltf-validator").is_dir()
    header = (f"{'file':<22}{'MB':>7}{'ours s':>9}{'MB/s':>8}{'Mtri/s':>8}{'RSS MB':>8}"
              f"{'RSS cap':>9}{'khronos s':>11}{'k RSS':>7}{'speedup':>9}")
    print(header)
    times: dict[str, float] = {}
    for path in sorted(args.folder.iterdir()):
        if path.suffix.lower() not in (".glb", ".gltf", ".fbx"):
            continue
        size_mb = path.stat().st_size / 1e6
        seconds, rss, output = run([str(ASSETCHECK), "validate", "--format", "json", str(path)],
                                   args.runs)
        report = json.loads(output)
        times[path.name] = seconds
        triangles = sum(m["triangleCount"] for m in report["result"]["meshes"])
        line = (f"{path.name:<22}{size_mb:>7.1f}{seconds:>9.3f}{size_mb / seconds:>8.0f}"
                f"{triangles / seconds / 1e6:>8.2f}{rss:>8.0f}{2 * size_mb + 150:>9.0f}")
        if have_khronos and path.suffix.lower() != ".fbx":
            k_seconds, k_rss, _ = run([node, str(HERE / "khronos_validate.mjs"), str(path)],
                                      args.runs)
            line += f"{k_seconds:>11.3f}{k_rss:>7.0f}{k_seconds / seconds:>8.2f}x"
        print(line, flush=True)
    print_compressed_ratios(times)


def print_compressed_ratios(times: dict[str, float]) -> None:
    """Each compressed file's time against its uncompressed twin's (target: at most 2x)."""
    pairs = [(name, name[:-4] + ".plain.glb") for name in sorted(times)
             if not name.endswith(".plain.glb") and name[:-4] + ".plain.glb" in times]
    if pairs:
        print(f"\n{'compressed':<22}{'ours s':>9}{'twin s':>9}{'ratio':>8}")
    for name, twin in pairs:
        print(f"{name:<22}{times[name]:>9.3f}{times[twin]:>9.3f}"
              f"{times[name] / times[twin]:>7.2f}x")


if __name__ == "__main__":
    main()
