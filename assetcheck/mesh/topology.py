"""Measuring how the triangles of a mesh meet along their edges, for any format.

**Weld rule.** Corners are one vertex when their positions are equal bit for bit (``-0.0`` is
``0.0``): the position hashes of :class:`~assetcheck.mesh.prepared.Vertices`, welded once
per mesh (:attr:`~assetcheck.mesh.prepared.PreparedMesh.welded_ids`). glTF splits
a vertex wherever its UV or normal changes, so without welding every UV seam and hard edge would
read as an opening. Positions that are merely close are not welded: a crack is a real opening.

**Edge table.** Each triangle's three edges become one 64-bit key each (lower welded vertex,
higher welded vertex, and one bit for the direction the triangle runs the edge), sorted in
place: n log n in the triangle count. Equal keys but the last bit are one edge, and its run of
keys says what it is: one key is a boundary edge (an opening), two keys of opposite directions
a well-made edge, two of the same direction an edge whose triangles face opposite ways
(inconsistent winding), three or more a non-manifold edge. Triangles whose corners weld
together, or point past the vertices, are left out (other checks count them).

**Many meshes at once.** :func:`meshes_topology` measures the meshes of a document together,
as one mesh whose vertex ids are moved apart (no edge can join two of them), and tallies each
edge and piece to the mesh its vertices belong to: a document of many small primitives costs
a few passes instead of one per primitive, with the same result for each.

**Pieces** are the connected sets of triangles sharing welded vertices, found by union-find with
path halving in vectorised rounds. **Inside-out** is a majority verdict, so it is judged on at
most :data:`SAMPLE_TRIANGLES` triangles spread evenly through the mesh.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from assetcheck.mesh.faults import CHUNK_TRIANGLES
from assetcheck.mesh.prepared import PreparedMesh, Vertices

#: Triangles the inside-out verdict (a majority) is judged on: a share measured on 65,536
#: evenly spread triangles is within a percent of the whole mesh's.
SAMPLE_TRIANGLES = 1 << 16

#: Meshes of more triangles are not split into pieces: the vectorised union-find takes 0.06 to
#: 0.12 s per million triangles (idle machine; more under load, and more the more scattered
#: the vertex ids), which on the largest meshes would break the checks' time limit.
PIECES_TRIANGLE_LIMIT = 500_000
#: Meshes are measured together up to this many triangles (:func:`meshes_topology`): a batch
#: of small meshes is split into pieces whole, as one mesh of that size would be.
BATCH_TRIANGLES = PIECES_TRIANGLE_LIMIT
#: Keys of one sorted edge table (32 MB): a larger mesh's edges are split into several tables
#: by their lower vertex, which bounds the memory the topology check adds.
EDGE_TABLE_KEYS = 1 << 22

_1, _32, _33 = np.uint64(1), np.uint64(32), np.uint64(33)


@dataclass(frozen=True)
class Topology:
    """How the ``triangles`` of a mesh meet: counts of distinct (undirected) edges."""

    triangles: int
    edges: int
    boundary_edges: int
    non_manifold_edges: int
    #: Edges shared by exactly two triangles that run it the same way (one of them is flipped).
    misoriented_edges: int
    #: Connected pieces; None for meshes over :data:`PIECES_TRIANGLE_LIMIT` triangles.
    pieces: int | None

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


def mesh_topology(corners: np.ndarray, vertex_count: int) -> Topology:
    """The topology of the triangles ``corners`` (``(3, n)`` welded ids below ``vertex_count``,
    as :func:`welded_corners` gives them)."""
    return _measure([(corners, vertex_count)])[0]


def meshes_topology(meshes: Sequence[tuple[np.ndarray, int]]) -> list[Topology]:
    """:func:`mesh_topology` of each of ``meshes`` (welded corners and vertex count). Meshes
    are measured together, up to :data:`BATCH_TRIANGLES` triangles at a time, as one mesh
    whose vertex ids are kept apart: a document of many small primitives costs a few passes,
    not one per primitive."""
    topologies: list[Topology] = []
    batch: list[tuple[np.ndarray, int]] = []
    triangles = vertices = 0
    for corners, vertex_count in meshes:
        if batch and (
            triangles + corners.shape[1] > BATCH_TRIANGLES or vertices + vertex_count >= 1 << 31
        ):
            topologies += _measure(batch)
            batch, triangles, vertices = [], 0, 0
        batch.append((corners, vertex_count))
        triangles += corners.shape[1]
        vertices += vertex_count
    return topologies + (_measure(batch) if batch else [])


def _measure(meshes: list[tuple[np.ndarray, int]]) -> list[Topology]:
    """The topology of each of ``meshes``, measured as one mesh: their vertex ids are moved
    apart, so no edge joins two of them."""
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
    counts = np.zeros((4, len(meshes)), np.int64)
    triangles = corners.shape[1]
    if triangles:
        # Edges go to one table per range of lower vertices (an edge's keys share its lower
        # vertex), so no table holds more than about EDGE_TABLE_KEYS keys; the tables take
        # turns in one array, which saves the page faults of a fresh one each.
        tables = -(-3 * triangles // EDGE_TABLE_KEYS)
        bounds = np.linspace(0, vertex_count, tables + 1).astype(np.int64)
        room = np.empty(-(-3 * triangles // tables) * 9 // 8, np.uint64)
        for lowest, past in itertools.pairwise(bounds.tolist()):
            # room comes back grown if this table needed more
            keys, room = _edge_keys(corners, room, lowest, past if tables > 1 else None)
            keys.sort()
            counts += _edge_runs(keys, starts)
            del keys
    pieces = _pieces(corners, vertex_count, starts) if triangles <= PIECES_TRIANGLE_LIMIT else None
    return [
        Topology(
            part.shape[1],
            edges=int(edges),
            boundary_edges=int(boundary),
            non_manifold_edges=int(non_manifold),
            misoriented_edges=int(misoriented),
            pieces=None if pieces is None else int(pieces[index]),
        )
        for index, ((part, _), (edges, boundary, non_manifold, misoriented)) in enumerate(
            zip(meshes, counts.T, strict=True)
        )
    ]


def _edge_runs(keys: np.ndarray, starts: np.ndarray | None) -> np.ndarray:
    """From sorted edge keys, per mesh (meshes whose vertex ids begin at ``starts``; one mesh
    when None): distinct edges, boundary, non-manifold and misoriented edges, as ``(4, meshes)``."""
    meshes = 1 if starts is None else len(starts)
    count = len(keys)
    if not count:
        return np.zeros((4, meshes), np.int64)
    # links[i + 1]: keys i and i + 1 are the same edge; padded at both ends.
    links = np.zeros(count + 1, bool)
    for start in range(0, count - 1, CHUNK_TRIANGLES):  # chunks keep the shifted copies small
        end = min(start + CHUNK_TRIANGLES, count - 1)
        np.equal(
            keys[start + 1 : end + 1] >> _1, keys[start:end] >> _1, out=links[start + 1 : end + 1]
        )
    before, after = links[:-1], links[1:]
    owner = None if starts is None else np.searchsorted(starts, keys >> _33, side="right") - 1
    # A run of three or more keys starts with two links in a row.
    non_manifold = ~before[:-1] & after[:-1] & after[1:]
    # A run of exactly two keys: its first key is linked to the next one only.
    pair_starts = ~before[:-1] & after[:-1] & ~after[1:]
    pair_starts &= keys[1:] == keys[:-1]  # the direction bits are equal too
    return np.stack(
        [
            _tally(~before, owner, meshes),
            _tally(~before & ~after, owner, meshes),
            _tally(non_manifold, owner, meshes),
            _tally(pair_starts, owner, meshes),
        ]
    )


def _tally(found: np.ndarray, owner: np.ndarray | None, meshes: int) -> np.ndarray:
    """How many of ``found`` (a mask over the first keys or vertices) each mesh has, its
    items' meshes being ``owner`` (all one mesh when None)."""
    if owner is None:
        return np.array([np.count_nonzero(found)])
    return np.bincount(owner[: len(found)][found], minlength=meshes)


def _pieces(corners: np.ndarray, vertex_count: int, starts: np.ndarray | None) -> np.ndarray:
    """How many connected pieces the triangles ``corners`` (``(3, n)`` ids) form, per mesh
    (meshes whose vertex ids begin at ``starts``; one mesh when None)."""
    meshes = 1 if starts is None else len(starts)
    parent = np.arange(vertex_count, dtype=np.uint32)
    used = np.zeros(vertex_count, bool)
    # One contiguous array per corner: ``corners`` is often a transposed view, and gathers,
    # masks and reductions over it would all run strided.
    links = [np.ascontiguousarray(row) for row in corners]
    for row in links:
        used[row] = True
    # Each round hooks every triangle's corners to the smallest of their roots, then halves
    # paths until every vertex points at its root; triangles already inside one piece drop out.
    while len(links[0]):
        roots = [parent[row] for row in links]
        lowest = np.minimum(np.minimum(roots[0], roots[1]), roots[2])
        spanning = (roots[0] != lowest) | (roots[1] != lowest) | (roots[2] != lowest)
        kept = np.flatnonzero(spanning)
        if not len(kept):
            break
        lowest, links = lowest[kept], [row[kept] for row in links]
        for root in roots:
            root = root[kept]
            parent[root] = np.minimum(parent[root], lowest)
        _compress(parent)
    vertex = np.arange(vertex_count, dtype=np.uint32)
    owner = None if starts is None else np.searchsorted(starts, vertex, side="right") - 1
    return _tally(used & (parent == vertex), owner, meshes)


def _compress(parent: np.ndarray) -> None:
    """Point every vertex at its root (pointer jumping, in place)."""
    while True:
        grand = parent[parent]
        if np.array_equal(grand, parent):
            return
        parent[:] = grand


def inside_out(
    vertices: Vertices, normals: np.ndarray, corners: np.ndarray
) -> tuple[int, int] | None:
    """``(against, sampled)`` when the vertex ``normals`` (``(count, 3)``, one per vertex)
    point against the winding of most triangles ``corners`` (``(3, n)`` vertex indices): of
    the ``sampled`` triangles whose normals are decided (neither across the face nor
    unreadable), more than half, ``against``. None when the normals agree with the winding
    (or nothing could be judged)."""
    corners = evenly_sampled(corners)
    points = np.take(vertices.coords, corners, axis=1).astype(np.float64)
    with np.errstate(invalid="ignore", over="ignore"):  # NaN or infinite data: undecided
        corner_normals = np.take(normals, corners, axis=0).astype(np.float64).sum(axis=0)
        face = np.cross((points[:, 1] - points[:, 0]).T, (points[:, 2] - points[:, 0]).T)
        agreement = np.einsum("ij,ij->i", face, corner_normals)
    against = int(np.count_nonzero(agreement < 0))
    decided = against + int(np.count_nonzero(agreement > 0))
    return (against, decided) if 2 * against > decided else None


def evenly_sampled(corners: np.ndarray) -> np.ndarray:
    """At most :data:`SAMPLE_TRIANGLES` of the triangles ``corners`` (``(3, n)``), spread
    evenly through them."""
    count = corners.shape[1]
    if count <= SAMPLE_TRIANGLES:
        return corners
    return corners[:, np.linspace(0, count - 1, SAMPLE_TRIANGLES).astype(np.intp)]


def _edge_keys(
    corners: np.ndarray, room: np.ndarray, lowest: int = 0, past: int | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """The edges of the triangles ``corners`` (``(3, n)``) whose lower vertex is in
    ``[lowest, past)`` (every edge when ``past`` is None), as ``lower << 33 | higher << 1 |
    direction`` (uint64): the start of ``room``, or of a larger array when it is too small;
    and the array holding them. Built a chunk at a time, so the temporaries stay small."""
    count = corners.shape[1]
    filled = 0
    for side in range(3):
        for start in range(0, count, CHUNK_TRIANGLES):
            starts = corners[side, start : start + CHUNK_TRIANGLES]
            ends = corners[(side + 1) % 3, start : start + CHUNK_TRIANGLES]
            lower = np.minimum(starts, ends)
            if past is not None:
                inside = (lower >= lowest) & (lower < past)
                if not inside.all():
                    starts, ends, lower = starts[inside], ends[inside], lower[inside]
            if filled + len(lower) > len(room):
                grown = np.empty(max(2 * len(room), filled + len(lower)), np.uint64)
                grown[:filled] = room[:filled]
                room = grown
            keys = room[filled : filled + len(lower)]
            keys[:] = lower
            keys <<= _32
            keys |= np.maximum(starts, ends)
            keys <<= _1
            keys |= starts > ends
            filled += len(lower)
    return room[:filled], room
