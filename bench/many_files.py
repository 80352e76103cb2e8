"""Many files in one process: AssetCheck beside Khronos' validateBytes in a warm Node.js loop.

    npm install --prefix bench                       # gltf-validator, the reference
    python bench/many_files.py                       # assimp-testmodels + ../shared/corpus/gltf
    python bench/many_files.py FOLDER... --rounds 5

Every ``.gltf`` and ``.glb`` under the folders (by default those of Debian's
``assimp-testmodels`` and ``../shared/corpus/gltf``) is validated by:

- **khronos**: ``validateBytes`` over all files in one Node.js process, after a warm-up pass
  (``bench/khronos_loop.mjs``); the median of its timed passes;
- **ours, warm loop**: ``validate()`` and ``build_report()`` over all files in one Python
  process with one plugin manager, after a warm-up pass, single-threaded: the like-for-like
  comparison with the Khronos loop;
- **ours, command**: ``assetcheck validate --format json --jobs N FILES`` as a whole process
  (start-up, reading the plugins and printing the reports included), for ``--jobs 1`` and 2.

The machine may be shared: each round runs every contender once, one after another, and the
medians over the rounds are printed with the ratios to Khronos. Targets (issue 18): the
single-threaded run at least 2x faster than Khronos, ``--jobs 2`` at least 3.5x.
"""

from __future__ import annotations

import argparse
import compileall
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
ASSETCHECK = Path(sys.executable).with_name("assetcheck")
DEFAULT_FOLDERS = (Path("/usr/share/assimp/models"), ROOT.parent / "shared" / "corpus" / "gltf")
TARGETS = {"ours, warm loop": 2.0, "ours, --jobs 1": 2.0, "ours, --jobs 2": 3.5}

# Runs in a child Python: a warm-up pass, then timed passes of validate() + build_report().
_OUR_LOOP = """
import json, sys, time
from pathlib import Path
from assetcheck.engine import validate
from assetcheck.plugins.manager import get_plugin_manager
from assetcheck.reports.document import build_report
files = [Path(line) for line in Path(sys.argv[1]).read_text().splitlines() if line]
pm = get_plugin_manager()
def one_pass():
    started = time.perf_counter()
    for path in files:
        build_report(validate(path, plugin_manager=pm))
    return time.perf_counter() - started
one_pass()
print(json.dumps({"seconds": [one_pass() for _ in range(int(sys.argv[2]))]}))
"""


def model_files(folders: list[Path]) -> list[Path]:
    return sorted(
        p
        for folder in folders
        if folder.is_dir()
        for p in folder.rglob("*")
        if p.suffix.lower() in (".gltf", ".glb") and p.is_file()
    )


def passes(command: list[str]) -> float:
    """The median of the timed passes a warm loop prints."""
    output = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    return statistics.median(json.loads(output.splitlines()[-1])["seconds"])


def whole_process(command: list[str]) -> float:
    started = time.perf_counter()
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folders", type=Path, nargs="*", default=list(DEFAULT_FOLDERS))
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--passes", type=int, default=3, help="timed passes of each warm loop")
    args = parser.parse_args()
    compileall.compile_dir(ROOT / "assetcheck", quiet=1)
    files = model_files(args.folders)
    if not (HERE / "node_modules" / "gltf-validator").is_dir():
        sys.exit("npm install --prefix bench first: the Khronos validator is the reference")
    with tempfile.NamedTemporaryFile("w", suffix=".txt") as listing:
        listing.write("\n".join(map(str, files)) + "\n")
        listing.flush()
        contenders = {
            "khronos": lambda: passes(
                ["node", str(HERE / "khronos_loop.mjs"), listing.name, str(args.passes)]
            ),
            "ours, warm loop": lambda: passes(
                [sys.executable, "-c", _OUR_LOOP, listing.name, str(args.passes)]
            ),
            **{
                f"ours, --jobs {jobs}": lambda jobs=jobs: whole_process(
                    [
                        str(ASSETCHECK),
                        "validate",
                        "--format",
                        "json",
                        "--jobs",
                        str(jobs),
                        *map(str, files),
                    ]
                )
                for jobs in (1, 2)
            },
        }
        timings: dict[str, list[float]] = {name: [] for name in contenders}
        for _ in range(args.rounds):
            for name, run in contenders.items():
                timings[name].append(run())
    size = sum(path.stat().st_size for path in files) / 1e6
    print(f"{len(files)} files, {size:.1f} MB; medians of {args.rounds} rounds")
    khronos = statistics.median(timings["khronos"])
    print(f"{'':<18}{'seconds':>9}{'files/s':>9}{'vs khronos':>12}{'target':>8}")
    for name, seconds in timings.items():
        median = statistics.median(seconds)
        ratio = khronos / median
        target = TARGETS.get(name)
        verdict = (
            "" if target is None else (f"{target:>6.1f}x {'met' if ratio >= target else 'MISSED'}")
        )
        print(f"{name:<18}{median:>9.3f}{len(files) / median:>9.0f}{ratio:>11.2f}x  {verdict}")


if __name__ == "__main__":
    main()
