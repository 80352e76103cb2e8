"""Measuring how the triangles of a mesh meet along their edges, for any format.

**Weld rule.** Corners are one vertex when their positions are equal bit for bit (``-0.0`` is
``0.0``): the position hashes of :class:`~assetcheck.mesh.prepared.Vertices`, welded once
per mesh (:attr:`~assetcheck.mesh.prepared.PreparedMesh.welded_ids`). glTF splits
a vertex wherever its UV or normal changes, so without welding every UV seam and hard edge would
read as an opening. Positions that are merely close are not welded: a crack is a real opening.

**Edge table.** Each triangle's three edges are filed under their lower welded vertex, with the
distance to the higher one and one bit for the direction the triangle runs the edge (a counting
sort, linear in the triangles, in the compiled kernels of :mod:`.edge_table`, on a few threads
for a big mesh). The entries of one lower vertex that share the higher vertex are one edge, and
their run says what it is: one entry is a boundary edge (an opening), two of opposite directions
a well-made edge, two of the same direction an edge whose triangles face opposite ways
(inconsistent winding), three or more a non-manifold edge. Triangles whose corners weld
together, or point past the vertices, are left out (other checks count them).

**Many meshes at once.** :func:`meshes_topology` measures the meshes of a document together,
as one mesh whose vertex ids are moved apart (no edge can join two of them), and tallies each
edge and piece to the mesh its vertices belong to: a document of many small primitives costs
a few passes instead of one per primitive, with the same result for each.
:func:`prepared_topology` welds small meshes together too, in one sort of all their position
hashes: their ids are the rank of their position within their mesh, kept apart mesh by mesh
(what an edge table counts does not depend on how a mesh's welded vertices are numbered).

**Pieces** are the connected sets of triangles sharing welded vertices, found by union-find with
path halving (``_kernels.piece_counts``, beside the edge table's last stage), on meshes of any
size. **Inside-out** is a majority verdict, so it is judged on at most :data:`SAMPLE_TRIANGLES`
triangles spread evenly through the mesh.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

from assetcheck.mesh._kernels import inside_out_votes
from assetcheck.mesh.batches import batches
from assetcheck.mesh.edge_table import edge_and_piece_counts
from assetcheck.mesh.prepared import PreparedMesh, Vertices
from assetcheck.mesh.threads import mesh_threads

#: Triangles the inside-out verdict (a majority) is judged on: a share measured on 65,536
#: evenly spread triangles is within a percent of the whole mesh's.
SAMPLE_TRIANGLES = 1 << 16

#: The normals' dtypes the inside-out kernel reads as they are; others are converted first.
_KERNEL_NORMALS = (np.dtype(np.float32), np.dtype(np.float64))

#: Meshes are measured together up to this many triangles (:func:`meshes_topology`): a batch
#: of small meshes takes no more memory than one mesh of that size (the edge table takes 6
#: or 12 bytes a triangle and 4 a vertex, the pieces 5 a vertex).
BATCH_TRIANGLES = 500_000

#: Meshes of at most this many vertices are welded together (:func:`prepared_topology`): a
#: dozen numpy calls per mesh saved; bigger meshes are welded alone, the per-mesh cost
#: nothing beside their sort.
WELD_TOGETHER_VERTICES = 4096


class Topology(NamedTuple):
    """How the ``triangles`` of a mesh meet: counts of distinct (undirected) edges."""

    triangles: int
    edges: int
    boundary_edges: int
    non_manifold_edges: int
    #: Edges shared by exactly two triangles that run it the same way (one of them is flipped).
    misoriented_edges: int
    #: Connected pieces.
    pieces: int

    @property
    def closed(self) -> bool:
        """Whether the mesh is watertight: every edge is shared by exactly two triangles."""
        return self.triangles > 0 and self.boundary_edges == 0 and self.non_manifold_edges == 0


def welded_corners(mesh: PreparedMesh) -> np.ndarray:
    """The usable corners of ``mesh`` (``(3, n)``) as welded vertex ids (uint32), without the
    triangles whose corners weld together."""
    ids = mesh.welded_ids
    if ids is None:
        return mesh.corners.astype(np.uint32, copy=False)
    welded = np.take(ids, mesh.corners)
    a, b, c = welded
    distinct = (a != b) & (b != c) & (c != a)
    return welded if distinct.all() else welded[:, distinct]


def mesh_topology(
    corners: np.ndarray, vertex_count: int, *, threads: int | None = None
) -> Topology:
    """The topology of the triangles ``corners`` (``(3, n)`` welded ids below ``vertex_count``,
    as :func:`welded_corners` gives them), on ``threads`` threads (default:
    :func:`~assetcheck.mesh.threads.mesh_threads` of their number); the same on any number."""
    return _measure([(corners, vertex_count)], threads)[0]


def meshes_topology(
    meshes: Sequence[tuple[np.ndarray, int]], *, threads: int | None = None
) -> list[Topology]:
    """:func:`mesh_topology` of each of ``meshes`` (welded corners and vertex count). Meshes
    are measured together, up to :data:`BATCH_TRIANGLES` triangles at a time, as one mesh
    whose vertex ids are kept apart: a document of many small primitives costs a few passes,
    not one per primitive."""
    topologies: list[Topology] = []
    for batch in batches([(corners.shape[1], count) for corners, count in meshes], BATCH_TRIANGLES):
        topologies += _measure([meshes[index] for index in batch], threads)
    return topologies


def prepared_topology(
    meshes: Sequence[PreparedMesh], *, threads: int | None = None
) -> list[Topology]:
    """:func:`mesh_topology` of each of ``meshes``' :func:`welded_corners`, in their order:
    those of at most :data:`WELD_TOGETHER_VERTICES` vertices welded and measured together
    (:func:`_weld_and_measure`, in batches as :func:`meshes_topology` makes them), the others
    as :func:`meshes_topology` measures them."""
    topologies: list[Topology | None] = [None] * len(meshes)
    sizes = [len(mesh.vertices) for mesh in meshes]
    small = [i for i, size in enumerate(sizes) if size <= WELD_TOGETHER_VERTICES]
    big = [i for i, size in enumerate(sizes) if size > WELD_TOGETHER_VERTICES]
    for batch in batches([(meshes[i].corners.shape[1], sizes[i]) for i in small], BATCH_TRIANGLES):
        chosen = [small[index] for index in batch]
        found = _weld_and_measure([meshes[i] for i in chosen], threads)
        for index, topology in zip(chosen, found, strict=True):
            topologies[index] = topology
    welded = [(welded_corners(meshes[i]), sizes[i]) for i in big]
    for index, topology in zip(big, meshes_topology(welded, threads=threads), strict=True):
        topologies[index] = topology
    return [topology for topology in topologies if topology is not None]


def _measure(meshes: list[tuple[np.ndarray, int]], threads: int | None) -> list[Topology]:
    """The topology of each of ``meshes``, measured as one mesh on ``threads`` threads (None:
    as many as its size takes): their vertex ids are moved apart, so no edge joins two of
    them."""
    if len(meshes) == 1:
        (corners, vertex_count), starts = meshes[0], None
    else:
        offsets = np.cumsum([0] + [count for _, count in meshes], dtype=np.uint64)
        vertex_count, starts = int(offsets[-1]), offsets[:-1]
        corners = np.concatenate(
            [
                part.astype(np.uint32) + np.uint32(start)
                for (part, _), start in zip(meshes, starts.tolist(), strict=True)
            ],
            axis=1,
        )
    return _count([part.shape[1] for part, _ in meshes], corners, vertex_count, starts, threads)


def _weld_and_measure(meshes: list[PreparedMesh], threads: int | None) -> list[Topology]:
    """The topology of each of ``meshes`` (at least one), welded and measured together: all
    their position hashes sorted at once by mesh, then hash, each run of one position in one
    mesh is one id, and each mesh's ids follow the ids of the meshes before it."""
    vertex_counts = [len(mesh.vertices) for mesh in meshes]
    first_vertex = np.zeros(len(meshes) + 1, np.intp)
    np.cumsum(vertex_counts, out=first_vertex[1:])
    keys = np.concatenate([mesh.vertices.keys for mesh in meshes])
    owners = np.repeat(np.arange(len(meshes), dtype=np.intp), vertex_counts)
    order = np.lexsort((keys, owners))
    ranked_keys, ranked_owners = keys[order], owners[order]
    new = np.ones(len(keys), bool)
    np.not_equal(ranked_keys[1:], ranked_keys[:-1], out=new[1:])
    new[1:] |= ranked_owners[1:] != ranked_owners[:-1]
    running = np.zeros(len(keys) + 1, np.uint32)
    np.cumsum(new, out=running[1:])
    ids = np.empty(len(keys), np.uint32)
    ids[order] = running[1:] - np.uint32(1)
    starts = running[first_vertex[:-1]].astype(np.uint64)
    triangle_counts = [mesh.corners.shape[1] for mesh in meshes]
    corners = np.concatenate(
        [mesh.corners for mesh in meshes], axis=1, dtype=np.intp, casting="unsafe"
    )
    corners += np.repeat(first_vertex[:-1], triangle_counts)
    welded = ids[corners]
    a, b, c = welded
    distinct = (a != b) & (b != c) & (c != a)
    if not distinct.all():
        owner = np.repeat(np.arange(len(meshes)), triangle_counts)
        triangle_counts = np.bincount(owner[distinct], minlength=len(meshes)).tolist()
        welded = welded[:, distinct]
    return _count(triangle_counts, welded, int(running[-1]), starts, threads)


def _count(
    triangle_counts: list[int],
    corners: np.ndarray,
    vertex_count: int,
    starts: np.ndarray | None,
    threads: int | None,
) -> list[Topology]:
    """The topology of meshes of ``triangle_counts`` triangles, ``corners`` all of them, ids
    below ``vertex_count``, each mesh's from its ``starts`` (None: one mesh)."""
    corners = np.asarray(corners, np.uint32)
    if threads is None:
        threads = mesh_threads(corners.shape[1])
    counts, pieces = edge_and_piece_counts(corners, vertex_count, starts, threads)
    return [
        Topology(
            triangles,
            edges=int(edges),
            boundary_edges=int(boundary),
            non_manifold_edges=int(non_manifold),
            misoriented_edges=int(misoriented),
            pieces=int(pieces[index]),
        )
        for index, (triangles, (edges, boundary, non_manifold, misoriented)) in enumerate(
            zip(triangle_counts, counts.T, strict=True)
        )
    ]


def inside_out(
    vertices: Vertices, normals: np.ndarray, corners: np.ndarray
) -> tuple[int, int] | None:
    """``(against, sampled)`` when the vertex ``normals`` (``(count, 3)``, one per vertex)
    point against the winding of most triangles ``corners`` (``(3, n)`` vertex indices): of
    the ``sampled`` triangles whose normals are decided (neither across the face nor
    unreadable), more than half, ``against``. None when the normals agree with the winding
    (or nothing could be judged)."""
    return meshes_inside_out([(vertices, normals, corners)])[0]


def meshes_inside_out(
    meshes: Sequence[tuple[Vertices, np.ndarray, np.ndarray]],
) -> list[tuple[int, int] | None]:
    """:func:`inside_out` of each of ``meshes`` (vertices, normals, corners): each of its
    sampled triangles' face normal against the sum of its corners' normals, in double
    precision, in the compiled kernel ``_kernels.inside_out_votes``."""
    verdicts: list[tuple[int, int] | None] = []
    for vertices, normals, corners in meshes:
        if normals.dtype not in _KERNEL_NORMALS:
            normals = normals.astype(np.float64)
        against, along = inside_out_votes(vertices.coords, normals, evenly_sampled(corners))
        decided = against + along
        verdicts.append((against, decided) if 2 * against > decided else None)
    return verdicts


def evenly_sampled(corners: np.ndarray) -> np.ndarray:
    """At most :data:`SAMPLE_TRIANGLES` of the triangles ``corners`` (``(3, n)``), spread
    evenly through them."""
    count = corners.shape[1]
    if count <= SAMPLE_TRIANGLES:
        return corners
    return corners[:, np.linspace(0, count - 1, SAMPLE_TRIANGLES).astype(np.intp)]
