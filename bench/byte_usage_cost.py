"""What the byte breakdown and the GPU memory figures cost (issue 29, item 4: at most 15% more
time), on the grid GLBs of bench/grid_glb.py:

    python bench/grid_glb.py bench/out
    python bench/byte_usage_cost.py bench/out

For each grid, ``validate()`` runs ``--runs`` times in this process; the time spent in the
breakdown (``gltf_byte_usage``, savings included) and in the report's figures
(``file_metadata``, the GPU memory of each texture) is measured inside those same runs, so the
share printed is the breakdown's part of the whole validation, free of run-to-run noise. The
Markdown and text sections are rendered too and timed.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from assetcheck.engine import validate
from assetcheck.formats.gltf import reader
from assetcheck.reports import document
from assetcheck.reports.markdown import render_markdown
from assetcheck.reports.text import render_text

GRIDS = ("grid_25mb.glb", "grid_100mb.glb", "grid_100mb_textured.glb")


class Timed:
    """A function that adds the seconds each call takes to ``seconds``."""

    def __init__(self, function: Callable[..., Any]) -> None:
        self.function = function
        self.seconds = 0.0

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        started = time.perf_counter()
        try:
            return self.function(*args, **kwargs)
        finally:
            self.seconds += time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    print(f"{'file':<26}{'MB':>7}{'validate s':>12}{'breakdown s':>13}{'share':>8}{'render s':>10}")
    for name in GRIDS:
        path = args.folder / name
        if not path.is_file():
            print(f"{name:<26} missing: run bench/grid_glb.py {args.folder}")
            continue
        totals, parts, renders = [], [], []
        for _ in range(args.runs):
            breakdown = Timed(reader.gltf_byte_usage)
            memory = Timed(document.gpu_memory)
            reader.gltf_byte_usage, document.gpu_memory = breakdown, memory
            try:
                started = time.perf_counter()
                report = document.build_report(validate(path))
                totals.append(time.perf_counter() - started)
            finally:
                reader.gltf_byte_usage = breakdown.function
                document.gpu_memory = memory.function
            parts.append(breakdown.seconds + memory.seconds)
            started = time.perf_counter()
            render_markdown(report), render_text(report)
            renders.append(time.perf_counter() - started)
        total, part = statistics.median(totals), statistics.median(parts)
        print(
            f"{name:<26}{path.stat().st_size / 1e6:>7.1f}{total:>12.2f}{part:>13.4f}"
            f"{part / (total - part):>8.2%}{statistics.median(renders):>10.4f}"
        )


if __name__ == "__main__":
    main()
