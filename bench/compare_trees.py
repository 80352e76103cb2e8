"""CPU time of the whole `assetcheck validate` process, for two source trees taking turns.

    git worktree add /tmp/before main             # or any checkout of the older commit
    python bench/grid_glb.py bench/out
    python bench/compare_trees.py /tmp/before . bench/out/grid_*.glb

Each file is validated ``--runs`` times by each tree (``python -m assetcheck validate --format
json``, run from the tree's folder and with the tree first on ``PYTHONPATH``: ``-m`` puts the
working folder first on the import path), the trees taking turns so that a shared machine's
load falls on both alike; the median CPU time (user + system, the process and its children)
of each is printed with their ratio. The reports must be the same but for their timings and
the version: the script stops when they are not.
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

#: Report fields that differ between two runs of the same code.
VARYING = ("timings", "assetcheck", "job")


def cpu_seconds(tree: Path, path: Path) -> tuple[float, dict[str, object]]:
    """CPU seconds of one validation of ``path`` by ``tree``'s code, and its report."""
    before = os.times()
    output = subprocess.run(
        [sys.executable, "-m", "assetcheck", "validate", "--format", "json", str(path.resolve())],
        cwd=tree,
        env={**os.environ, "PYTHONPATH": str(tree)},
        capture_output=True,
        check=False,
    ).stdout
    after = os.times()
    report = json.loads(output)
    for field in VARYING:
        report.pop(field, None)
    spent = (after.children_user - before.children_user) + (
        after.children_system - before.children_system
    )
    return spent, report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("before", type=Path)
    parser.add_argument("after", type=Path)
    parser.add_argument("files", type=Path, nargs="+")
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    trees = [args.before.resolve(), args.after.resolve()]
    for tree in trees:
        compileall.compile_dir(tree / "assetcheck", quiet=1)
    print(f"{'file':<28}{'before s':>10}{'after s':>10}{'before / after':>16}")
    for path in args.files:
        times: list[list[float]] = [[], []]
        reports: list[dict[str, object]] = []
        for _ in range(args.runs):
            for index, tree in enumerate(trees):
                spent, report = cpu_seconds(tree, path)
                times[index].append(spent)
                reports.append(report)
        if any(report != reports[0] for report in reports):
            sys.exit(f"{path.name}: the two trees' reports differ")
        before, after = (statistics.median(t) for t in times)
        print(f"{path.name:<28}{before:>10.3f}{after:>10.3f}{before / after:>15.2f}x", flush=True)


if __name__ == "__main__":
    main()
