"""The edge table of ``docs/topology.md``, built and read in chunks on a few threads.

Each stage is a compiled kernel that releases the GIL (``_kernels.lower_vertex_counts``,
``edge_cursors``, ``file_edges``, ``tally_edges``); :func:`edge_and_piece_counts` splits the
triangles, then the vertices, into one span per thread and runs the spans together
(:func:`~assetcheck.mesh.threads.run_all`). The result does not depend on the split: each chunk
files its edges after those of the chunks before it, so every vertex's entries are in the
triangles' order, as one pass files them, and the tallies of the vertex ranges are sums.
"""

from __future__ import annotations

from functools import partial

import numpy as np

from assetcheck.mesh._kernels import (
    edge_cursors,
    file_edges,
    lower_vertex_counts,
    piece_counts,
    tally_edges,
)
from assetcheck.mesh.threads import run_all, spans

#: Vertex ranges a thread takes in the last stage, the pieces' pass running beside them: each
#: thread takes the next range when it is done with its last, so none waits long for the
#: others (a range costs one task, under 1 µs).
RANGES_PER_THREAD = 4


def edge_and_piece_counts(
    corners: np.ndarray, vertex_count: int, starts: np.ndarray | None, threads: int
) -> tuple[np.ndarray, np.ndarray]:
    """Per mesh (meshes whose ids begin at ``starts``; one when None), the distinct, boundary,
    non-manifold and misoriented edges of the triangles ``corners`` (``(3, n)`` uint32 ids
    below ``vertex_count``), as an int64 ``(4, meshes)`` array, and their pieces
    (``_kernels.piece_counts``, int64), on ``threads`` threads. The pieces are counted in one
    pass beside the last stage, whose vertices are cut into :data:`RANGES_PER_THREAD` ranges
    a thread so that the threads share that stage and the pieces evenly.

    The entries take 16 bits when every triangle spans fewer than 2**15 ids, as in meshes
    written with nearby vertices together (half the fresh memory), else 32 bits; the counts
    and cursors take 4 bytes a vertex for each thread."""
    triangles = corners.shape[1]
    if vertex_count >= 1 << 31:
        raise ValueError("an edge table holds fewer than 2**31 vertices")
    if 3 * triangles >= 1 << 32:
        raise ValueError("an edge table holds fewer than 2**32 edges")
    chunks = spans(triangles, threads)
    cursors = np.zeros((len(chunks), vertex_count), np.uint32)
    farthest = run_all(
        [
            partial(lower_vertex_counts, corners, first, last, row)
            for (first, last), row in zip(chunks, cursors, strict=True)
        ],
        threads,
    )
    total = edge_cursors(cursors)
    entries = np.empty(total, np.uint16 if max(farthest) < 1 << 15 else np.uint32)
    run_all(
        [
            partial(file_edges, corners, first, last, row, entries)
            for (first, last), row in zip(chunks, cursors, strict=True)
        ],
        threads,
    )
    ends = cursors[-1]  # each vertex's cursor of the last chunk: where its entries end
    pieces = partial(piece_counts, corners, vertex_count, starts)
    if threads == 1:
        return tally_edges(entries, ends, 0, vertex_count, starts), pieces()
    parts = RANGES_PER_THREAD * threads
    shares = np.array([total * k // parts for k in range(1, parts)], ends.dtype)
    cuts = [0, *np.searchsorted(ends, shares).tolist()]  # in the ends' dtype: no copy of them
    ranges = zip(cuts, [*cuts[1:], vertex_count], strict=True)
    found = run_all(
        [pieces, *(partial(tally_edges, entries, ends, low, high, starts) for low, high in ranges)],
        threads,
    )
    return np.stack(found[1:]).sum(axis=0), found[0]
