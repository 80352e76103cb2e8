"""Whole-process speed and peak memory of `assetcheck validate`, beside the Khronos validator.

    python bench/grid_glb.py bench/out          # ~2, 25 and 100 MB grid GLBs
    python bench/big_fbx.py bench/out           # ~50 MB FBX
    python bench/compressed_glb.py bench/out    # ~25 MB Draco and meshopt GLBs, with twins
    python bench/big_usd_obj.py bench/out       # ~25 MB OBJ and USDZ grids
    npm install --prefix bench gltf-validator   # the reference, for the GLB rows
    python bench/validate_speed.py bench/out

Each file is compared with a reference reader, whole process (the ``ref`` column): the Khronos
validator for GLB and glTF, ``assimp info`` (Debian's assimp-utils) for OBJ (issue 32). assimp
has no USD reader ("No suitable reader found"), so a USDZ is compared with usd-core opening
the stage and reading every mesh's points and face indices, the least any USD reader does.

Each command runs ``--runs`` times, AssetCheck's and the validator's runs taking turns (the
machine may be shared); the median wall time and the largest peak RSS are printed. The package
is byte-compiled first, as a pip install leaves it: otherwise (``./dev`` installs in editable
mode, and ``PYTHONDONTWRITEBYTECODE`` may be set) every run would compile ~100 modules.
Targets (issue 18), process start included: no slower than the validator on the 2 MB file, at
least 2x its speed on the 25 MB one and 2.5x on the 100 MB one; peak RSS under 2x the file size
+ 150 MB.
Issue 21: the topology and UV checks add under 0.5 s on the 100 MB grids: each grid is also run
with those two checks disabled (``plugins.disabled`` in a config file), and the difference is
printed after the table.
Issue 16: a compressed file (``X.glb`` beside its uncompressed twin ``X.plain.glb``) within
twice the time of its twin: those ratios are printed after the table.
Issue 29: its check plugins (skins, animation content, texture content, texel density, scale;
``without_issue29.toml`` names them) add at most 15% to the time of the 25 MB and 100 MB grids,
plain and textured, and of a skinned, animated file of about 1 MB. Each of those files (the
grids of the folder, and those ``python bench/issue29_files.py bench/out`` writes to
``bench/out/issue29``) is run with every built-in check and with those checks disabled, in
turns (three times as many runs for files under 5 MB); the medians of the whole process's wall
time and of its CPU time (its children's included: the decoders', the FBX parser's) are printed
with what the checks add, last.
``--budget-only`` prints that table alone.
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
from typing import NamedTuple

HERE = Path(__file__).resolve().parent
ASSETCHECK = Path(sys.executable).with_name("assetcheck")


class Run(NamedTuple):
    """One command's run: wall seconds, peak RSS in MB and CPU seconds (user + system; the
    process and the children it waited for), stdout."""

    seconds: float
    rss: float
    cpu: float
    output: str


def measure(command: list[str]) -> Run:
    started = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    output = process.stdout.read()
    _, status, usage = os.wait4(process.pid, 0)
    elapsed = time.perf_counter() - started
    process.returncode = os.waitstatus_to_exitcode(status)
    cpu = usage.ru_utime + usage.ru_stime
    return Run(elapsed, usage.ru_maxrss / 1024, cpu, output.decode(errors="replace"))


#: The speed-up over the validator each grid file must reach (issue 18), by file name.
TARGETS = {"grid_2mb.glb": 1.0, "grid_25mb.glb": 2.0, "grid_100mb.glb": 2.5}
#: A config file that disables the topology and UV checks (issue 21's "before").
WITHOUT_TOPOLOGY = HERE / "without_topology.toml"
#: A config file that disables the check plugins of issue 29 (its "before").
WITHOUT_ISSUE29 = HERE / "without_issue29.toml"
#: The files of issue 29's budget: the grids of the folder, then those of its issue29 folder.
ISSUE29_GRIDS = ("grid_25mb.glb", "grid_100mb.glb", "grid_100mb_textured.glb")
#: At most this much more time with issue 29's checks than without (whole process, wall).
ISSUE29_BUDGET = 0.15
#: Files under this many MB run this many times more: a run of a third of a second moves by
#: tens of milliseconds with the machine's other work, and more runs cost little.
SMALL_MB, SMALL_RUNS = 5, 3


def run_in_turns(commands: list[list[str]], runs: int) -> list[Run]:
    """For each command: the median seconds and CPU seconds, the largest peak RSS and the
    first output, the commands run one after another in each of ``runs`` rounds."""
    rounds = [[measure(command) for command in commands] for _ in range(runs)]
    return [
        Run(
            statistics.median(r[i].seconds for r in rounds),
            max(r[i].rss for r in rounds),
            statistics.median(r[i].cpu for r in rounds),
            rounds[0][i].output,
        )
        for i in range(len(commands))
    ]


#: Reads every mesh of a USD stage with usd-core, the USDZ rows' reference.
_USD_OPEN = (
    "import sys; from pxr import Usd, UsdGeom; stage = Usd.Stage.Open(sys.argv[1]); "
    "[(m.GetPointsAttr().Get(), m.GetFaceVertexIndicesAttr().Get()) "
    "for m in map(UsdGeom.Mesh, stage.Traverse()) if m]"
)


def reference(path: Path, node: str | None) -> tuple[str, list[str]] | None:
    """The reference reader for ``path`` (its name and command), None where there is none."""
    suffix = path.suffix.lower()
    if suffix in (".glb", ".gltf") and node and (HERE / "node_modules" / "gltf-validator").is_dir():
        return "khronos", [node, str(HERE / "khronos_validate.mjs"), str(path)]
    if suffix == ".obj" and shutil.which("assimp"):
        return "assimp", ["assimp", "info", str(path)]
    if suffix == ".usdz":
        return "usd-core", [sys.executable, "-c", _USD_OPEN, str(path)]
    return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--budget-only", action="store_true", help="issue 29's table alone")
    args = parser.parse_args()
    compileall.compile_dir(HERE.parent / "assetcheck", quiet=1)
    if not args.budget_only:
        print_speed_table(args.folder, args.runs)
    print_issue29_cost(args.folder, args.runs)


def print_speed_table(folder: Path, runs: int) -> None:
    """The table of every file against its reference, then the topology and compressed-file
    figures."""
    node = shutil.which("node")
    header = (
        f"{'file':<22}{'MB':>7}{'ours s':>9}{'MB/s':>8}{'Mtri/s':>8}{'RSS MB':>8}"
        f"{'RSS cap':>9}{'ref':>10}{'ref s':>8}{'ref RSS':>8}{'speedup':>9}{'target':>8}"
    )
    print(header)
    times: dict[str, float] = {}
    without_topology: dict[str, float] = {}
    for path in sorted(folder.iterdir()):
        if path.suffix.lower() not in (".glb", ".gltf", ".fbx", ".obj", ".usdz"):
            continue
        size_mb = path.stat().st_size / 1e6
        commands = [[str(ASSETCHECK), "validate", "--format", "json", str(path)]]
        compared = reference(path, node)
        if compared is not None:
            commands.append(compared[1])
        if path.name.startswith("grid_"):
            commands.append(commands[0] + ["--config", str(WITHOUT_TOPOLOGY)])
        (seconds, rss, _, output), *others = run_in_turns(commands, runs)
        if path.name.startswith("grid_"):
            without_topology[path.name] = others.pop()[0]
        report = json.loads(output)
        times[path.name] = seconds
        triangles = sum(m["triangleCount"] for m in report["result"]["meshes"])
        line = (
            f"{path.name:<22}{size_mb:>7.1f}{seconds:>9.3f}{size_mb / seconds:>8.0f}"
            f"{triangles / seconds / 1e6:>8.2f}{rss:>8.0f}{2 * size_mb + 150:>9.0f}"
        )
        if compared is not None:
            ((k_seconds, k_rss, _, _),) = others
            speedup = k_seconds / seconds
            line += f"{compared[0]:>10}{k_seconds:>8.3f}{k_rss:>8.0f}{speedup:>8.2f}x"
            target = TARGETS.get(path.name)
            if target is not None:
                line += f"{target:>6.1f}x {'met' if speedup >= target else 'MISSED'}"
        print(line, flush=True)
    print_topology_cost(times, without_topology)
    print_compressed_ratios(times)


def print_topology_cost(times: dict[str, float], without: dict[str, float]) -> None:
    """What the topology and UV checks add to each grid (target on the 100 MB ones: 0.5 s)."""
    if without:
        print(f"\n{'topology and UVs':<24}{'without s':>10}{'with s':>9}{'added s':>9}")
    for name, seconds in without.items():
        added = times[name] - seconds
        verdict = ("met" if added < 0.5 else "MISSED") if "100mb" in name else ""
        print(f"{name:<24}{seconds:>10.3f}{times[name]:>9.3f}{added:>9.3f} {verdict}")


def print_issue29_cost(folder: Path, runs: int) -> None:
    """What issue 29's checks add to each of its files (budget: :data:`ISSUE29_BUDGET`), whole
    process, with the machine's load average before and after."""
    extra = folder / "issue29"
    paths = [folder / name for name in ISSUE29_GRIDS if (folder / name).is_file()]
    paths += sorted(extra.iterdir()) if extra.is_dir() else []
    if not paths:
        return
    print(
        f"\nissue 29's checks, medians of {runs} runs in turns ({SMALL_RUNS * runs} for files "
        f"under {SMALL_MB} MB); load {_load()}"
    )
    print(
        f"{'file':<26}{'MB':>7}{'with s':>9}{'without s':>11}{'added':>8}"
        f"{'cpu with':>10}{'cpu without':>13}{'added':>8}  budget {ISSUE29_BUDGET:.0%}"
    )
    for path in paths:
        command = [str(ASSETCHECK), "validate", "--format", "json", str(path)]
        small = path.stat().st_size < SMALL_MB * 1e6
        commands = [command, [*command, "--config", str(WITHOUT_ISSUE29)]]
        on, off = run_in_turns(commands, SMALL_RUNS * runs if small else runs)
        added, cpu_added = on.seconds / off.seconds - 1, on.cpu / off.cpu - 1
        print(
            f"{path.name:<26}{path.stat().st_size / 1e6:>7.1f}{on.seconds:>9.3f}"
            f"{off.seconds:>11.3f}{added:>8.1%}{on.cpu:>10.3f}{off.cpu:>13.3f}{cpu_added:>8.1%}"
            f"  {'met' if added <= ISSUE29_BUDGET else 'MISSED'}",
            flush=True,
        )
    print(f"load {_load()}")


def _load() -> str:
    return " ".join(f"{value:.1f}" for value in os.getloadavg())


def print_compressed_ratios(times: dict[str, float]) -> None:
    """Each compressed file's time against its uncompressed twin's (target: at most 2x)."""
    pairs = [
        (name, name[:-4] + ".plain.glb")
        for name in sorted(times)
        if not name.endswith(".plain.glb") and name[:-4] + ".plain.glb" in times
    ]
    if pairs:
        print(f"\n{'compressed':<22}{'ours s':>9}{'twin s':>9}{'ratio':>8}")
    for name, twin in pairs:
        print(f"{name:<22}{times[name]:>9.3f}{times[twin]:>9.3f}{times[name] / times[twin]:>7.2f}x")


if __name__ == "__main__":
    main()
