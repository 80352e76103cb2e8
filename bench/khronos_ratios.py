"""Every figure of issue 28 against the Khronos validator, in one command.

    npm install --prefix bench      # the Khronos glTF-Validator, the reference
    python bench/khronos_ratios.py [--quick]

Runs, one after another on this machine (idle, for figures that mean anything; the load
average is printed before each):

1. ``bench/validate_speed.py`` on the 2, 25 and 100 MB grids (``bench/grid_glb.py``, written to
   a temporary folder): whole process, each command alone (targets 1x, 2x, 2.5x);
2. ``bench/daemon_speed.py``: a 1-triangle GLB and the 2 MB grid with the daemon running
   (target 2x, output identical);
3. ``bench/many_files.py``: the small real files in one process against Khronos' warm loop
   (target 2x);
4. ``bench/parallel_jobs.py``: ``--jobs 2`` against ``--jobs 1`` on the same files (target 1.7x).

``--quick`` runs each with fewer rounds (3), to check the set works; the figures of
``docs/performance.md`` come from the default rounds.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent


def run(title: str, arguments: list[str]) -> None:
    load = ", ".join(f"{figure:.2f}" for figure in os.getloadavg())
    print(f"\n## {title} (load average {load})\n", flush=True)
    subprocess.run([sys.executable, *arguments], check=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="3 rounds each")
    args = parser.parse_args()
    rounds = ["--runs", "3"] if args.quick else []
    folder = Path(tempfile.mkdtemp(prefix="assetcheck-grids-"))
    try:
        subprocess.run(
            [sys.executable, str(HERE / "grid_glb.py"), str(folder)],
            check=True,
            stdout=subprocess.DEVNULL,
        )
        for textured in folder.glob("*_textured.glb"):
            textured.unlink()  # issue 28 names the plain grids
        run("Whole process, one file", [str(HERE / "validate_speed.py"), str(folder), *rounds])
        run("With the daemon", [str(HERE / "daemon_speed.py"), *rounds])
        quick_rounds = ["--rounds", "3"] if args.quick else []
        run("Many small files, one process", [str(HERE / "many_files.py"), *quick_rounds])
        run("--jobs 2 against --jobs 1", [str(HERE / "parallel_jobs.py"), *quick_rounds])
    finally:
        shutil.rmtree(folder)


if __name__ == "__main__":
    main()
