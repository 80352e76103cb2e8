"""A triangle mesh prepared once for every measure that reads it.

The format models build one :class:`PreparedMesh` per glTF primitive and per FBX mesh (the glTF
document model, ``Asset.gltf``; the FBX scene, ``Asset.fbx``), and the geometry, topology and UV
checks all measure that one object: positions are hashed, unusable triangles dropped and
vertices welded once per mesh, however many checks read them.

Each derived array is computed on first use and kept. When computing one raises, nothing is
kept and the next reader computes it again: a check that crashes on a mesh (or runs out of
memory on its own allocations) leaves no half-built field behind for the others. The arrays
are read-only, so no measure can change what the others read.
"""

from __future__ import annotations

from functools import cached_property, partial
from typing import NamedTuple

import numpy as np

from assetcheck.mesh._kernels import hash_positions
from assetcheck.mesh._kernels import usable_corners as _usable_corners
from assetcheck.mesh.threads import mesh_threads, run_all, spans


class Vertices(NamedTuple):
    """Vertex positions laid out for gathering: ``coords`` is ``(3, count)`` float32 (x, y and
    z rows) and ``keys`` a 64-bit hash per vertex, equal for vertices at the same position.
    Both are read-only."""

    coords: np.ndarray
    keys: np.ndarray

    @classmethod
    def of(cls, positions: np.ndarray) -> Vertices:
        """From ``(count, 3)`` positions of any real dtype and layout (other than float32 and
        float64, converted to float32 first); one compiled pass (``_kernels.hash_positions``),
        in spans on threads for many vertices (:func:`~assetcheck.mesh.threads.mesh_threads`)."""
        if positions.dtype not in (np.float32, np.float64):
            positions = positions.astype(np.float32)
        coords = np.empty((3, len(positions)), np.float32)
        keys = np.empty(len(positions), np.uint64)
        threads = mesh_threads(len(positions))
        if threads == 1:  # most meshes: no tasks to make
            hash_positions(positions, coords, keys)
        else:
            run_all(
                [
                    partial(hash_positions, positions, coords, keys, first, last)
                    for first, last in spans(len(positions), threads)
                ],
                threads,
            )
        coords.setflags(write=False)
        keys.setflags(write=False)
        return cls(coords, keys)

    def __len__(self) -> int:
        return self.coords.shape[1]


class PreparedMesh:
    """``vertices`` and the ``(n, 3)`` ``triangles`` drawn from them, as the file has them
    (some may repeat a vertex or point past the vertices), with what the measures derive."""

    def __init__(self, vertices: Vertices, triangles: np.ndarray) -> None:
        self.vertices = vertices
        self.triangles = read_only(triangles)

    @cached_property
    def corners(self) -> np.ndarray:
        """The triangles as ``(3, n)`` vertex indices, without those that repeat a vertex or
        point past the vertices (other checks report them)."""
        return read_only(usable_corners(self.triangles, len(self.vertices)))

    @cached_property
    def welded_ids(self) -> np.ndarray | None:
        """Per vertex, the id of its position (:func:`welded_ids`)."""
        ids = welded_ids(self.vertices)
        return None if ids is None else read_only(ids)


def usable_corners(
    triangles: np.ndarray, vertex_count: int, threads: int | None = None
) -> np.ndarray:
    """The ``(n, 3)`` ``triangles`` as ``(3, n)`` corner indices, without those that repeat an
    index or point past the vertices (one compiled pass, ``_kernels.usable_corners``, in spans
    on ``threads`` threads; default :func:`~assetcheck.mesh.threads.mesh_threads`): each span
    writes its triangles from its first column on, and the spans' kept columns are then
    joined in order."""
    triangles = np.ascontiguousarray(triangles)
    if threads is None:
        threads = mesh_threads(len(triangles))
    corners = np.empty((3, len(triangles)), triangles.dtype)
    if threads == 1:  # most meshes: no tasks to make
        usable = _usable_corners(triangles, vertex_count, corners, 0, len(triangles))
        return corners if usable == len(triangles) else np.ascontiguousarray(corners[:, :usable])
    chunks = spans(len(triangles), threads)
    kept = run_all(
        [
            partial(_usable_corners, triangles, vertex_count, corners, first, last)
            for first, last in chunks
        ],
        threads,
    )
    if sum(kept) == len(triangles):
        return corners
    return np.concatenate(
        [corners[:, first : first + count] for (first, _), count in zip(chunks, kept, strict=True)],
        axis=1,
    )


def welded_ids(vertices: Vertices) -> np.ndarray | None:
    """Per vertex, the id of its position, as uint32: vertices whose positions are equal bit
    for bit (``-0.0`` is ``0.0``) share it, the weld rule of ``docs/topology.md``. None when no
    two vertices share a position (then a vertex's index is its id)."""
    keys = vertices.keys
    ordered = np.sort(keys)
    if not np.any(ordered[1:] == ordered[:-1]):
        return None
    order = np.argsort(keys)
    first_of_run = np.empty(len(keys), bool)
    first_of_run[0] = True
    np.not_equal(keys[order[1:]], keys[order[:-1]], out=first_of_run[1:])
    ids = np.empty(len(keys), np.uint32)
    ids[order] = np.cumsum(first_of_run, dtype=np.uint32) - np.uint32(1)
    return ids


def read_only(array: np.ndarray) -> np.ndarray:
    """``array`` made read-only; a read-only view when it was writeable, so that a shared
    buffer's owner keeps its own access."""
    if array.flags.writeable:
        array = array.view()
        array.flags.writeable = False
    return array
