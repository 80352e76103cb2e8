"""Dividing files among worker processes: chunks handed out one at a time, largest files first.

A file's cost is estimated from its size plus a fixed part (reading the plugins' hooks, the
checks' setup, the report), :data:`PER_FILE_BYTES`. Each chunk holds about ``1 / (2 * workers)``
of the cost still left when it is cut (guided scheduling): the first chunks are large, so a
small file costs no exchange of its own, and they shrink toward the end, so the last chunks are
single small files and the workers finish close together. The largest files come first, so no
large file starts when the others are done.
"""

from __future__ import annotations

from collections.abc import Sequence

#: What validating a file costs besides its bytes, counted in bytes of content: an empty glTF
#: takes about as long as a 64 KiB one.
PER_FILE_BYTES = 64 * 1024


def plan_chunks(sizes: Sequence[int], workers: int) -> list[list[int]]:
    """The indices of ``sizes`` (file sizes in bytes) grouped in chunks, in the order to hand
    them out to ``workers`` processes; every index appears once. Files of equal size keep their
    order."""
    order = sorted(range(len(sizes)), key=lambda index: -sizes[index])
    left = sum(sizes) + PER_FILE_BYTES * len(sizes)
    chunks: list[list[int]] = []
    chunk: list[int] = []
    chunk_cost = 0
    for index in order:
        chunk.append(index)
        chunk_cost += sizes[index] + PER_FILE_BYTES
        if chunk_cost * 2 * workers >= left:
            chunks.append(chunk)
            left -= chunk_cost
            chunk, chunk_cost = [], 0
    if chunk:
        chunks.append(chunk)
    return chunks
