"""What starting a sandboxed child costs (``assetcheck.sandbox.child``): the median wall time
of a child that does nothing, and of one that returns a few MB of arrays; and the same
requests sent to the decoder helper (``assetcheck.sandbox.helper``), which forks once.

    python bench/sandbox_overhead.py [--runs 300] [--module path/to/child.py]

``--module`` times the ``run_in_child`` of another copy of the module (an older version, say:
``git show <commit>:assetcheck/sandbox/child.py > /tmp/old_child.py``), so that two versions
are compared on the same machine in turns. Each case runs ``--runs`` times after a few
unmeasured runs; the median and the 90th percentile are printed, in milliseconds.

Measured on 2 cores shared with other work (load average 3.3 to 3.6), Python 3.11, Linux 6.18:
the medians of 500 runs in three sessions, then of 1500 runs, before (879f2da: sleeps doubling
from 0.5 ms while reaping) and after (one module for every child, a wait on a pidfd):

    child                     before (879f2da)               after
    does nothing              2.34  2.61  4.42 | 4.10 ms     2.37  2.55  3.50 | 3.83 ms
    returns 4 MB of arrays    4.46  4.68  7.83 | 9.42 ms     4.53  4.78  7.36 | 9.64 ms

The same within the noise of a shared machine: the fork and the child's exit are most of the
cost, and the CPU-time limit and the pidfd add a few system calls. A job's validation child
(a small report, with the worker's imports loaded), timed once the same way: 3.55 and 3.69 ms
with 879f2da's multiprocessing Process and Pipe, 3.16 and 3.31 ms with ``start_child``.
"""

from __future__ import annotations

import argparse
import importlib.util
import pickle
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import numpy as np

from assetcheck.sandbox import child as current
from assetcheck.sandbox import helper

LIMITS = {"timeout": 60.0, "memory_limit_mb": 512}
#: What the arrays case returns: three arrays, 4 MB in all (about what a Draco mesh of 200,000
#: vertices decodes to).
ARRAYS = [
    np.arange(600_000, dtype=np.float32),
    np.arange(300_000, dtype=np.uint32),
    np.arange(200_000, dtype=np.float32).reshape(-1, 2),
]


def load(path: Path) -> ModuleType:
    """The module at ``path``, imported under a name of its own."""
    spec = importlib.util.spec_from_file_location("sandbox_child_under_test", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def nothing() -> None:
    return None


def arrays() -> list[pickle.PickleBuffer]:
    return [pickle.PickleBuffer(array) for array in ARRAYS]


def timed(run: Callable[..., object], function: Callable[[], object]) -> float:
    """Seconds that ``run(function)`` takes."""
    start = time.perf_counter()
    run(function, **LIMITS)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=300)
    parser.add_argument("--module", type=Path, help="another child.py to compare with")
    arguments = parser.parse_args()
    versions: dict[str, Callable[..., object]] = {
        "this tree, fresh child": current.run_in_child,
        "this tree, helper": helper.run_in_helper,
    }
    if arguments.module:
        versions[str(arguments.module)] = load(arguments.module).run_in_child
    cases = {"does nothing": nothing, "returns 4 MB of arrays": arrays}
    times: dict[tuple[str, str], list[float]] = {
        (version, case): [] for version in versions for case in cases
    }
    for round_number in range(arguments.runs + 5):
        for version, run in versions.items():  # in turns: the machine may be shared
            for case, function in cases.items():
                elapsed = timed(run, function)
                if round_number >= 5:
                    times[version, case].append(elapsed)
    for (version, case), samples in times.items():
        ninetieth = statistics.quantiles(samples, n=10)[-1]
        print(
            f"{version:>30}  {case:<24} median {statistics.median(samples) * 1e3:7.2f} ms"
            f"   p90 {ninetieth * 1e3:7.2f} ms"
        )


if __name__ == "__main__":
    main()
