"""What comparing costs: the pure comparison of stored reports (what the API will run) against
validating the models it compares.

    python bench/diff_speed.py [--files 100] [--rounds 5]

Two sides of ``--files`` GLBs each (the test suite's builder: a textured mesh of 200 to 2,000
separate triangles, the new side decimated by a third), validated once into JSON reports; then
each round times ``diff_reports`` on the two lists of reports, ``Diff.to_dict`` and the text
and Markdown renderings. Prints the medians, and the time the validation of both sides took.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from assetcheck.diff import diff_reports
from assetcheck.diff.markdown import render_markdown
from assetcheck.diff.text import render_text
from tests.diff.models import glb, report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--files", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        sides: dict[str, list[dict]] = {"old": [], "new": []}
        started = time.perf_counter()
        for number in range(args.files):
            triangles = 200 + (number * 18) % 1800
            for side, count in (("old", triangles), ("new", triangles * 2 // 3)):
                path = glb(Path(folder, side, f"model{number:03}.glb"), triangles=count)
                sides[side].append(report(path, f"model{number:03}.glb"))
        validation = time.perf_counter() - started
    timings: dict[str, list[float]] = {
        "diff_reports": [],
        "to_dict": [],
        "text": [],
        "markdown": [],
    }
    for _ in range(args.rounds):
        started = time.perf_counter()
        diff = diff_reports(sides["old"], sides["new"], by_name=True)
        timings["diff_reports"].append(time.perf_counter() - started)
        for name, render in (
            ("to_dict", lambda made: made.to_dict()),
            ("text", render_text),
            ("markdown", render_markdown),
        ):
            started = time.perf_counter()
            render(diff)
            timings[name].append(time.perf_counter() - started)
    print(f"{args.files} files a side; building and validating both sides: {validation:.1f} s")
    for name, values in timings.items():
        print(f"  {name:<13} median {1000 * statistics.median(values):8.1f} ms")


if __name__ == "__main__":
    main()
