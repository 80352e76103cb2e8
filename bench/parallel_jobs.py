"""``assetcheck validate --jobs 2`` against ``--jobs 1`` on many small real files, whole process.

    python bench/parallel_jobs.py                        # the set of bench/many_files.py
    python bench/parallel_jobs.py FOLDER... --rounds 15
    python bench/parallel_jobs.py --against /tmp/old     # another tree's assetcheck beside
    python bench/parallel_jobs.py --quiet 0.1            # each round waits for a quiet machine

Every ``.gltf`` and ``.glb`` under the folders (by default those of ``bench/many_files.py``:
Debian's ``assimp-testmodels`` and ``../shared/corpus/gltf``) is validated by ``assetcheck
validate --no-daemon --format json --jobs N FILES`` as a process of its own, started as the
installed script starts it (start-up, plugins, printing and exit included), with ``--jobs 1``
and ``--jobs 2``. With ``--against TREE`` the same runs
are made with the ``assetcheck`` package of TREE (``git archive <commit> assetcheck | tar -x
-C TREE``), so a change is measured against the code before it, in turns on the same machine.

The machine may be shared: each round runs every command once, in turns, and the figures are
medians over the rounds (wall time; CPU time, user + system of the command, its workers and
their decoder helpers, which outlive the command by a moment and are reaped here;
the speed-up, the median over the rounds of ``--jobs 1`` time over ``--jobs 2`` time of the
same round) and minima (the runs least slowed by other work, and their ratio). A run of one
small file is timed too: start-up and exit, which no worker shares, bound the speed-up. The
load average before and after is printed, and how many cores other processes kept busy during
the runs (``/proc/stat``'s busy time less the commands' own): wall times mean little when they
took more than a few hundredths of a core. The
first round also checks that ``--jobs 2`` prints what ``--jobs 1`` prints, timings aside.
Target (issue 28): ``--jobs 2`` at least 1.7x faster than ``--jobs 1`` on this set.
"""

from __future__ import annotations

import argparse
import compileall
import ctypes
import os
import re
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from bench.many_files import DEFAULT_FOLDERS, model_files  # noqa: E402

TARGET = 1.7
#: ``prctl`` option: orphaned descendants (the workers' decoder helpers) become this process's
#: children, so their CPU time is counted once they are reaped.
PR_SET_CHILD_SUBREAPER = 36
ONE_FILE = "one small file"
TIMINGS = re.compile(rb'"timings": \{[^}]*\}')
_MAIN = "import sys; from assetcheck.__main__ import main; sys.argv[0] = 'assetcheck'; main()"


def command(tree: Path, jobs: int, files: list[Path]) -> list[str]:
    """``assetcheck validate`` run with ``tree``'s package, as the installed script runs it (never
    through a daemon)."""
    return [
        sys.executable,
        "-c",
        _MAIN,
        "validate",
        "--no-daemon",
        "--format",
        "json",
        "--jobs",
        str(jobs),
    ] + [str(path) for path in files]


def timed(argv: list[str], tree: Path) -> tuple[float, float, float, bytes]:
    """Wall seconds, CPU seconds (the process and all its descendants), the cores other
    processes kept busy meanwhile, and standard output."""
    before, busy_before = resource.getrusage(resource.RUSAGE_CHILDREN), busy_seconds()
    started = time.perf_counter()
    output = subprocess.run(
        argv, capture_output=True, env={**os.environ, "PYTHONPATH": str(tree)}, check=False
    ).stdout
    wall = time.perf_counter() - started
    busy = busy_seconds() - busy_before
    while True:  # the orphaned decoder helpers, which die with their worker
        try:
            os.wait4(-1, 0)
        except ChildProcessError:
            break
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, max(0.0, busy - cpu) / wall, output


def wait_for_quiet(cores: float, longest: float = 60.0) -> None:
    """Return once the machine's processes kept fewer than ``cores`` cores busy over one
    second, or after ``longest`` seconds."""
    deadline = time.monotonic() + longest
    while time.monotonic() < deadline:
        before = busy_seconds()
        time.sleep(1.0)
        if busy_seconds() - before < cores:
            return


def busy_seconds() -> float:
    """CPU seconds all processes of the machine have used since it started."""
    fields = [int(value) for value in Path("/proc/stat").read_text().split("\n")[0].split()[1:]]
    idle = fields[3] + fields[4]  # idle, iowait
    return (sum(fields[:8]) - idle) / os.sysconf("SC_CLK_TCK")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folders", type=Path, nargs="*", default=list(DEFAULT_FOLDERS))
    parser.add_argument("--rounds", type=int, default=11)
    parser.add_argument(
        "--quiet",
        type=float,
        metavar="CORES",
        help="before each round, wait (a minute at most) until other processes keep fewer "
        "than CORES cores busy over a second",
    )
    parser.add_argument("--against", type=Path, help="a tree holding another assetcheck package")
    args = parser.parse_args()
    ctypes.CDLL(None).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    trees = {"this tree": HERE.parent}
    if args.against:
        trees = {f"{args.against}": args.against, **trees}
    for tree in trees.values():
        compileall.compile_dir(tree / "assetcheck", quiet=1)
    files = model_files(args.folders)
    size = sum(path.stat().st_size for path in files) / 1e6
    print(f"{len(files)} files, {size:.1f} MB; load average {os.getloadavg()[0]:.2f}")
    smallest = min(files, key=lambda path: path.stat().st_size)
    cases = {ONE_FILE: (1, [smallest]), "--jobs 1": (1, files), "--jobs 2": (2, files)}
    runs = {
        (name, case): command(tree, jobs, chosen)
        for name, tree in trees.items()
        for case, (jobs, chosen) in cases.items()
    }
    walls: dict[tuple[str, str], list[float]] = {key: [] for key in runs}
    cpus: dict[tuple[str, str], list[float]] = {key: [] for key in runs}
    others: list[float] = []
    for round_number in range(args.rounds):
        if args.quiet is not None:
            wait_for_quiet(args.quiet)
        outputs = {}
        for key, argv in runs.items():
            wall, cpu, busy, outputs[key] = timed(argv, trees[key[0]])
            others.append(busy)
            walls[key].append(wall)
            cpus[key].append(cpu)
        if round_number == 0:
            for name in trees:
                one, two = (
                    TIMINGS.sub(b"", outputs[name, case]) for case in ("--jobs 1", "--jobs 2")
                )
                verdict = "identical to" if one == two else "DIFFERS from"
                print(f"{name}: --jobs 2 output {verdict} --jobs 1, timings aside")
    print(
        f"medians of {args.rounds} rounds; load average now {os.getloadavg()[0]:.2f}; other "
        f"processes kept {statistics.median(others):.2f} cores busy (median; "
        f"{max(others):.2f} at most)"
    )
    print(f"{'':<30}{'wall s':>8}{'min':>7}{'CPU s':>8}{'min':>7}{'speed-up':>10}{'of min':>8}")
    for name in trees:
        for case in cases:
            wall, cpu = statistics.median(walls[name, case]), statistics.median(cpus[name, case])
            line = (
                f"{name + ', ' + case:<30}{wall:>8.3f}{min(walls[name, case]):>7.3f}"
                f"{cpu:>8.3f}{min(cpus[name, case]):>7.3f}"
            )
            if case == "--jobs 2":
                ratio = statistics.median(
                    one / two
                    for one, two in zip(walls[name, "--jobs 1"], walls[name, case], strict=True)
                )
                fastest = min(walls[name, "--jobs 1"]) / min(walls[name, case])
                verdict = "met" if ratio >= TARGET else "MISSED"
                line += f"{ratio:>9.2f}x{fastest:>7.2f}x  target {TARGET}x {verdict}"
            print(line)
        fixed, serial = (statistics.median(walls[name, case]) for case in (ONE_FILE, "--jobs 1"))
        bound = serial / (fixed + (serial - fixed) / 2)
        print(f"{name}: with the work of the files halved exactly, at most {bound:.2f}x")


if __name__ == "__main__":
    main()
