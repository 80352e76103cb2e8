"""Zero-area and duplicate triangles, marked in chunks on a few threads.

The rules are :func:`assetcheck.mesh.faults.triangle_faults`'s. Each stage is a compiled kernel
that releases the GIL: each chunk of triangles marks its flat ones and counts its windings by
part, the top bits of their hash (``_kernels.flat_marks``); each chunk writes its windings into
their parts after those of the chunks before it (``split_windings``), so a part holds its
windings in the triangles' order however the triangles were split; each range of parts is
searched with a hash set that stays in the CPU caches (``count_repeats``). One pass does the
same with one chunk and one range: the counts and marks do not depend on the split.
"""

from __future__ import annotations

from functools import partial
from typing import NamedTuple

import numpy as np

from assetcheck.mesh._kernels import count_repeats, flat_marks, split_windings
from assetcheck.mesh.prepared import Vertices
from assetcheck.mesh.threads import run_all, spans

#: A triangle has zero area when its height is under this fraction of its longest side: far
#: below any real sliver, far above float32 rounding of exactly collinear corners.
FLAT_RATIO = np.float32(1e-6)
#: Windings a part holds, about: its hash set (32 KB) stays in the CPU caches; one hash set
#: over all 3.6 million of a 100 MB grid missed them on every probe (docs/performance.md).
PART_WINDINGS = 2048


class TriangleMarks(NamedTuple):
    """Of the triangles measured, how many are flat (``zero_area``) and how many repeat an
    earlier one that is not (``duplicates``); ``flat`` (one byte per triangle) is 1 at the
    flat ones, ``repeated``, when asked for, at the duplicates. A named tuple: cheaper to
    define at start-up than a dataclass."""

    zero_area: int
    duplicates: int
    flat: np.ndarray
    repeated: np.ndarray | None


def triangle_marks(
    vertices: Vertices, corners: np.ndarray, threads: int, *, numbered: bool = False
) -> TriangleMarks:
    """The flat and duplicate triangles among ``corners`` (``(3, n)`` indices of
    ``vertices``), on ``threads`` threads; ``repeated`` marks only when ``numbered``.
    ``IndexError`` for a triangle that points past the vertices."""
    coords, keys = vertices.coords, vertices.keys
    triangles = corners.shape[1]
    bits = 0
    while (triangles >> bits) > PART_WINDINGS:
        bits += 1
    chunks, ratio = spans(triangles, threads), float(FLAT_RATIO)
    flat = np.zeros(triangles, np.uint8)
    counts = np.zeros((len(chunks), 1 << bits), np.int64)
    zero_area = run_all(
        [
            partial(flat_marks, coords, keys, corners, first, last, ratio, bits, flat, row)
            for (first, last), row in zip(chunks, counts, strict=True)
        ],
        threads,
    )
    # Part by part, each chunk's windings after the earlier chunks'.
    bounds = np.zeros(counts.shape[1] + 1, np.int64)
    np.cumsum(counts.sum(axis=0), out=bounds[1:])
    cursors = bounds[:-1] + np.cumsum(counts, axis=0) - counts
    split = np.empty(bounds[-1], np.uint64)
    numbers = np.empty(bounds[-1], np.uint32) if numbered else None
    run_all(
        [
            partial(
                split_windings, coords, keys, corners, first, last, bits, flat, row, split, numbers
            )
            for (first, last), row in zip(chunks, cursors, strict=True)
        ],
        threads,
    )
    repeated = np.zeros(triangles, np.uint8) if numbered else None
    duplicates = run_all(
        [
            partial(count_repeats, split, bounds, low, high, numbers, repeated)
            for low, high in spans(counts.shape[1], threads)
        ],
        threads,
    )
    return TriangleMarks(sum(zero_area), sum(duplicates), flat, repeated)
