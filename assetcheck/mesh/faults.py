"""Measuring triangle meshes of any format: zero-area and duplicate triangles, unused vertices.

Format-neutral: :func:`triangle_faults` measures a
:class:`~assetcheck.mesh.prepared.PreparedMesh`, :func:`unused_vertices` the indices drawn,
and :func:`report_triangle_faults` says what was found, with the codes glTF and FBX share.
The loops over triangles and indices are compiled kernels: zero-area and duplicate triangles
are marked by :func:`~assetcheck.mesh.duplicates.triangle_marks` (duplicates found in hash sets
of the triangles' winding hashes rather than by sorting them, on a few threads for a big mesh),
unused vertices by ``_kernels.mark_used`` (docs/performance.md).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

from assetcheck.issues import FileIssues
from assetcheck.mesh._kernels import flat_count, mark_used, meshes_faults
from assetcheck.mesh.batches import batches
from assetcheck.mesh.duplicates import FLAT_RATIO, PART_WINDINGS, triangle_marks
from assetcheck.mesh.prepared import PreparedMesh, Vertices
from assetcheck.mesh.threads import mesh_threads

#: Triangles gathered at once by the measures that still gather with numpy: small enough that
#: the temporary arrays stay in the CPU caches' reach and the allocator reuses them (measured
#: fastest), large enough that loop overhead does not show.
CHUNK_TRIANGLES = 1 << 16

#: Meshes of at most this many triangles are counted together (:func:`meshes_triangle_faults`):
#: each one's hash set (128 KB at most) stays in the CPU caches.
SMALL_MESH_TRIANGLES = 4 * PART_WINDINGS
#: Triangles counted together at most: the batch's copies of the vertices and corners stay
#: a few megabytes.
BATCH_TRIANGLES = 1 << 17


class TriangleFaults(NamedTuple):
    """Of ``total`` triangles, how many have zero area and how many duplicate another."""

    total: int
    zero_area: int
    duplicates: int


def triangle_faults(mesh: PreparedMesh, *, repeated_are_flat: bool = False) -> TriangleFaults:
    """Count zero-area and duplicate triangles of ``mesh``.

    A duplicate lies on an earlier triangle with the same winding (flipped copies are a
    deliberate way to draw both sides). Matching is by 64-bit hashes: the odds of any false
    match are about n^2 / 2^65, one in three million for the 3.6 million triangles of a
    100 MB GLB. Triangles that point past the vertices are not faults here (other checks
    report them); those that repeat an index count as zero-area when ``repeated_are_flat``.
    """
    marks = triangle_marks(mesh.vertices, mesh.corners, mesh_threads(len(mesh.triangles)))
    zero_area, duplicates = marks.zero_area, marks.duplicates
    if repeated_are_flat:
        a, b, c = mesh.triangles.T
        zero_area += int(np.count_nonzero((a == b) | (b == c) | (c == a)))
    return TriangleFaults(len(mesh.triangles), zero_area, duplicates)


def meshes_triangle_faults(meshes: Sequence[PreparedMesh]) -> list[TriangleFaults]:
    """:func:`triangle_faults` of each of ``meshes``, in their order: those of at most
    :data:`SMALL_MESH_TRIANGLES` triangles counted together, up to :data:`BATCH_TRIANGLES`
    at a time, in one compiled pass (``_kernels.meshes_faults``), the others alone."""
    faults: list[TriangleFaults | None] = [None] * len(meshes)
    small = [i for i, mesh in enumerate(meshes) if len(mesh.triangles) <= SMALL_MESH_TRIANGLES]
    sizes = [(len(meshes[i].triangles), len(meshes[i].vertices)) for i in small]
    for batch in batches(sizes, BATCH_TRIANGLES):
        chosen = [small[index] for index in batch]
        for index, found in zip(
            chosen, _counted_together([meshes[i] for i in chosen]), strict=True
        ):
            faults[index] = found
    for index, mesh in enumerate(meshes):
        if faults[index] is None:
            faults[index] = triangle_faults(mesh)
    return [found for found in faults if found is not None]


def _counted_together(meshes: list[PreparedMesh]) -> list[TriangleFaults]:
    """:func:`triangle_faults` of each of ``meshes``, their vertices and corners laid out one
    mesh after another for one pass."""
    vertex_starts = np.zeros(len(meshes) + 1, np.int64)
    np.cumsum([len(mesh.vertices) for mesh in meshes], out=vertex_starts[1:])
    triangle_starts = np.zeros(len(meshes) + 1, np.int64)
    np.cumsum([mesh.corners.shape[1] for mesh in meshes], out=triangle_starts[1:])
    zero_area, duplicates = meshes_faults(
        np.concatenate([mesh.vertices.coords for mesh in meshes], axis=1),
        np.concatenate([mesh.vertices.keys for mesh in meshes]),
        np.concatenate([mesh.corners for mesh in meshes], axis=1, dtype=np.int64, casting="unsafe"),
        vertex_starts,
        triangle_starts,
        float(FLAT_RATIO),
    )
    return [
        TriangleFaults(len(mesh.triangles), int(flat), int(repeated))
        for mesh, flat, repeated in zip(
            meshes, zero_area.tolist(), duplicates.tolist(), strict=True
        )
    ]


def faulty_triangles(
    vertices: Vertices, triangles: np.ndarray, limit: int, *, repeated_are_flat: bool = False
) -> tuple[np.ndarray, np.ndarray]:
    """The numbers of the first ``limit`` zero-area triangles and of the first ``limit``
    duplicates, judged as :func:`triangle_faults` counts them: what the job page's viewer
    marks. Triangles that repeat an index count as zero-area when ``repeated_are_flat`` (and
    their corners all exist)."""
    corners = np.ascontiguousarray(triangles.T)
    a, b, c = corners
    inside = (corners < len(vertices)).all(axis=0)
    distinct = (a != b) & (b != c) & (c != a)
    numbers = np.flatnonzero(distinct & inside)
    marks = triangle_marks(vertices, corners[:, numbers], 1, numbered=True)
    assert marks.repeated is not None
    zero_area, duplicates = numbers[marks.flat.view(bool)], numbers[marks.repeated.view(bool)]
    if repeated_are_flat:
        zero_area = np.union1d(zero_area, np.flatnonzero(~distinct & inside))
    return zero_area[:limit], duplicates[:limit]


def flat_triangles(vertices: Vertices, corners: np.ndarray) -> int:
    """How many of the triangles ``corners`` (``(3, n)`` indices of ``vertices``) are flat:
    twice their area at most :data:`FLAT_RATIO` times their longest side squared (NaN or
    infinite corners are not flat)."""
    return flat_count(vertices.coords, corners, float(FLAT_RATIO))


def unused_vertices(indices: np.ndarray, vertex_count: int) -> int:
    """How many of ``vertex_count`` vertices no index of ``indices`` uses (indices out of
    range are ignored)."""
    used = np.zeros(vertex_count, np.uint8)
    mark_used_vertices(used, indices)
    return vertex_count - int(np.count_nonzero(used))


def mark_used_vertices(used: np.ndarray, indices: np.ndarray) -> None:
    """Set ``used`` (uint8, one per vertex, contiguous) to 1 at each of ``indices`` (any shape
    and integer dtype; those out of range are ignored)."""
    mark_used(used, indices.ravel())


def report_triangle_faults(issues: FileIssues, faults: TriangleFaults, **fields: object) -> None:
    """Report zero-area and duplicate triangles; ``fields`` hold the mesh's ``name`` (and a
    glTF primitive's ``pointer``)."""
    if faults.zero_area:
        issues.add("MESH_ZERO_AREA_TRIANGLES", count=faults.zero_area, total=faults.total, **fields)
    if faults.duplicates:
        issues.add(
            "MESH_DUPLICATE_TRIANGLES", count=faults.duplicates, total=faults.total, **fields
        )
