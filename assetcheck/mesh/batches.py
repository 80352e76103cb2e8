"""Cutting a document's meshes into batches that one compiled pass measures together."""

from __future__ import annotations

from collections.abc import Iterator, Sequence


def batches(sizes: Sequence[tuple[int, int]], triangles: int) -> Iterator[range]:
    """Consecutive runs of the meshes of ``sizes`` (each one's triangles and vertices) of up
    to ``triangles`` triangles (a bigger mesh alone) and fewer than 2**31 vertices, in
    order, every mesh in one."""
    first = batch_triangles = batch_vertices = 0
    for index, (mesh_triangles, mesh_vertices) in enumerate(sizes):
        if index > first and (
            batch_triangles + mesh_triangles > triangles
            or batch_vertices + mesh_vertices >= 1 << 31
        ):
            yield range(first, index)
            first, batch_triangles, batch_vertices = index, 0, 0
        batch_triangles += mesh_triangles
        batch_vertices += mesh_vertices
    if first < len(sizes):
        yield range(first, len(sizes))
