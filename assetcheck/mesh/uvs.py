"""Measuring texture coordinates of triangle meshes, for any format.

:func:`uv_triangle_faults` counts non-finite UVs and UV triangles of zero area, and samples the
texel density of a mesh; :func:`lightmap_faults` finds lightmap UV triangles that leave the unit
square or overlap.

**Overlap** is found by rasterising the UV triangles into a coverage grid of
:data:`OVERLAP_GRID` x :data:`OVERLAP_GRID` cells: a cell is covered by a triangle when the
cell's centre lies strictly inside it, and overlapped when two or more triangles cover it (a
triangle is drawn a row of cells at a time, or centre by centre when it is narrow: the same
cells either way; the compiled kernel ``_kernels.rasterise``). So an overlap is seen only
where it covers a cell centre: overlaps thinner than a cell (1/1024 of the square, a texel of
a 1024 px lightmap) can be missed, and a centre exactly on a triangle's edge counts for no
triangle, so neighbours sharing an edge never read as overlapping. That is the resolution
lightmappers pack at, and the miss is the same as theirs. The time is bounded: a mesh whose
triangles would test more than :data:`RASTER_SAMPLES` cell centres gets a coarser grid
(halved down to :data:`SMALLEST_GRID` cells a side), and if even that is too many, an evenly
spread subset of its triangles is rasterised (overlaps among them are still found).

**Texel density** is measured as UV units per metre (the square root of a triangle's UV area
over its surface area) on at most 65,536 triangles per mesh, spread evenly, and
compared across the model weighted by surface area (:func:`density_spread`).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from assetcheck.mesh._kernels import mapped_areas as kernel_areas
from assetcheck.mesh._kernels import rasterise
from assetcheck.mesh.faults import CHUNK_TRIANGLES, FLAT_RATIO, flat_triangles
from assetcheck.mesh.prepared import Vertices
from assetcheck.mesh.topology import evenly_sampled

#: Cells per side of the lightmap coverage grid.
OVERLAP_GRID = 1024
#: The coarsest grid used for meshes of very many lightmap triangles.
SMALLEST_GRID = 128
#: Cell centres tested per mesh at most (estimated): a finer grid than that allows is halved.
RASTER_SAMPLES = 1 << 21
#: Triangles at most this many cells wide have each centre of their bounds tested; wider ones
#: are drawn a row at a time, as runs of cells (``bench/lightmap_raster.py``: in the compiled
#: rasteriser, runs are as fast from about 8 cells wide, and 3x faster from 64).
NARROW_CELLS = 4
#: The share of the surface area left out at each end when comparing texel densities, so a few
#: slivers do not decide the spread.
DENSITY_PERCENTILE = 5.0


class UvFaults(NamedTuple):
    """Of the ``triangles`` of a mesh in one UV set: UVs that are not finite, triangles with
    surface area but zero UV area, and a sample of texel densities with their surface areas."""

    triangles: int
    non_finite: int
    zero_area: int
    densities: np.ndarray
    areas: np.ndarray


class LightmapFaults(NamedTuple):
    """Lightmap UV triangles outside [0, 1], and the covered and overlapped grid cells."""

    triangles: int
    outside: int
    covered_cells: int
    overlapped_cells: int
    #: Cells per side of the grid used (see :func:`lightmap_faults`).
    grid: int


def uv_triangle_faults(vertices: Vertices, uvs: np.ndarray, corners: np.ndarray) -> UvFaults:
    """Measure the UV set ``uvs`` (``(count, 2)``, one row per vertex) of the triangles
    ``corners`` (``(3, n)`` vertex indices: a prepared mesh's ``corners``)."""
    rows = np.ascontiguousarray(np.asarray(uvs, np.float32).T)
    non_finite = int(np.count_nonzero(~np.isfinite(rows).all(axis=0)))
    zero_uv = 0
    for start in range(0, corners.shape[1], CHUNK_TRIANGLES):
        chunk = corners[:, start : start + CHUNK_TRIANGLES]
        flat = np.flatnonzero(_flat_2d(np.take(rows, chunk, axis=1)))
        if len(flat):  # a UV triangle is a fault only when its surface triangle has area
            zero_uv += len(flat) - flat_triangles(vertices, chunk[:, flat])
    sample = evenly_sampled(corners)
    surface = _areas(np.take(vertices.coords, sample, axis=1).astype(np.float64))
    uv_area = np.abs(_signed_twice_area(np.take(rows, sample, axis=1).astype(np.float64))) / 2
    with np.errstate(invalid="ignore", divide="ignore"):
        usable = (surface > 0) & (uv_area > 0) & np.isfinite(uv_area) & np.isfinite(surface)
        densities = np.sqrt(uv_area[usable] / surface[usable])
    return UvFaults(corners.shape[1], non_finite, zero_uv, densities, surface[usable])


def mapped_areas(vertices: Vertices, uvs: np.ndarray, corners: np.ndarray) -> tuple[float, float]:
    """The UV area and the surface area of the triangles ``corners`` (``(3, n)``) in the UV
    set ``uvs``, summed over every triangle (each triangle's in float32, by the compiled kernel
    ``_kernels.mapped_areas``; a chunk of them at a time summed in float64); a triangle with a
    corner that is not finite counts in neither."""
    rows = np.ascontiguousarray(np.asarray(uvs, np.float32).T)
    size = min(corners.shape[1], CHUNK_TRIANGLES)
    uv, surface = np.empty(size, np.float32), np.empty(size, np.float32)
    uv_total = surface_total = 0.0
    for start in range(0, corners.shape[1], CHUNK_TRIANGLES):
        chunk = corners[:, start : start + CHUNK_TRIANGLES]
        count = chunk.shape[1]
        kernel_areas(vertices.coords, rows, chunk, uv, surface)
        usable = np.isfinite(uv[:count]) & np.isfinite(surface[:count])
        uv_total += float(uv[:count].sum(where=usable, dtype=np.float64)) / 2
        surface_total += float(surface[:count].sum(where=usable, dtype=np.float64)) / 2
    return uv_total, surface_total


def density_spread(samples: list[UvFaults]) -> float | None:
    """How many times the texel density at the top :data:`DENSITY_PERCENTILE` of the surface
    exceeds the one at the bottom, over the samples of every mesh; None without samples."""
    densities = np.concatenate([s.densities for s in samples]) if samples else np.empty(0)
    if not len(densities):
        return None
    areas = np.concatenate([s.areas for s in samples])
    order = np.argsort(densities)
    cumulative = np.cumsum(areas[order])
    share = DENSITY_PERCENTILE / 100 * cumulative[-1]
    low = densities[order[np.searchsorted(cumulative, share)]]
    high = densities[
        order[min(np.searchsorted(cumulative, cumulative[-1] - share), len(order) - 1)]
    ]
    return float(high / low)


def lightmap_faults(uvs: np.ndarray, corners: np.ndarray) -> LightmapFaults:
    """Of the triangles ``corners`` (``(3, n)`` vertex indices), those whose lightmap UVs
    (``uvs``, ``(count, 2)``) leave [0, 1], and the grid cells they cover and overlap (see the
    module docstring)."""
    rows = np.ascontiguousarray(np.asarray(uvs, np.float32).T)
    cells, stride = _grid_size(rows, corners)
    corners = corners[:, ::stride]
    counts = np.zeros(cells * cells, np.int32)
    outside = 0
    for start in range(0, corners.shape[1], CHUNK_TRIANGLES):
        chunk = np.take(rows, corners[:, start : start + CHUNK_TRIANGLES], axis=1)
        points = _finite(chunk.astype(np.float64))
        flat = points.reshape(6, -1)
        outside += int(np.count_nonzero((flat.min(axis=0) < 0) | (flat.max(axis=0) > 1)))
        points *= cells
        rasterise(points, cells, counts, NARROW_CELLS)
    return LightmapFaults(
        corners.shape[1],
        outside,
        int(np.count_nonzero(counts)),
        int(np.count_nonzero(counts > 1)),
        cells,
    )


def _finite(points: np.ndarray) -> np.ndarray:
    """The triangles of ``points`` (``(2, 3, n)``) whose corners are all finite."""
    finite = np.isfinite(points.reshape(6, -1)).all(axis=0)
    return points if finite.all() else points.compress(finite, axis=2)


def _grid_size(rows: np.ndarray, corners: np.ndarray) -> tuple[int, int]:
    """The grid's cells per side and the stride of the triangles rasterised: the finest grid
    (from :data:`OVERLAP_GRID` down to :data:`SMALLEST_GRID`) on which the triangles test at
    most :data:`RASTER_SAMPLES` cell centres (estimated on an even sample), every triangle;
    else the coarsest grid, every ``stride``-th triangle."""
    sample = evenly_sampled(corners)
    points = _finite(np.take(rows, sample, axis=1).astype(np.float64))
    scale = corners.shape[1] / max(sample.shape[1], 1)
    cells = OVERLAP_GRID
    while True:
        low, high = _cell_bounds(points * cells, cells)
        estimate = scale * float(np.prod(high - low, axis=0).sum())
        if estimate <= RASTER_SAMPLES:
            return cells, 1
        if cells == SMALLEST_GRID:
            return cells, int(np.ceil(estimate / RASTER_SAMPLES))
        cells //= 2


def _cell_bounds(points: np.ndarray, cells: int) -> tuple[np.ndarray, np.ndarray]:
    """Per triangle (``(2, 3, n)`` in cell units), the first and past-the-last cell columns
    and rows whose centres may lie strictly inside it, as ``(2, n)`` each."""
    # Reduced over the first axis of each (3, n) row block: contiguous, so fast.
    smallest = np.stack([points[0].min(axis=0), points[1].min(axis=0)])
    largest = np.stack([points[0].max(axis=0), points[1].max(axis=0)])
    low = np.clip(np.floor(smallest - 0.5) + 1, 0, cells).astype(np.int64)
    high = np.clip(np.ceil(largest - 0.5), 0, cells).astype(np.int64)
    return low, np.maximum(high, low)


def _flat_2d(points: np.ndarray) -> np.ndarray:
    """Which 2D triangles (``(2, 3, n)``) are flat, by the rule of
    :func:`~assetcheck.mesh.faults.flat_triangles`; NaN corners are not flat."""
    with np.errstate(invalid="ignore", over="ignore"):
        twice_area = np.abs(_signed_twice_area(points))
        sides = [
            points[:, 1] - points[:, 0],
            points[:, 2] - points[:, 0],
            points[:, 2] - points[:, 1],
        ]
        longest = np.maximum.reduce([side[0] * side[0] + side[1] * side[1] for side in sides])
        return twice_area <= FLAT_RATIO * longest


def _signed_twice_area(points: np.ndarray) -> np.ndarray:
    """Twice the signed area of 2D triangles given as ``(2, 3, n)`` (NaN for NaN or infinite
    corners)."""
    with np.errstate(invalid="ignore", over="ignore"):
        ab, ac = points[:, 1] - points[:, 0], points[:, 2] - points[:, 0]
        return ab[0] * ac[1] - ab[1] * ac[0]


def _areas(points: np.ndarray) -> np.ndarray:
    """Areas of triangles given as ``(3 axes, 3 corners, n)``."""
    with np.errstate(invalid="ignore", over="ignore"):  # NaN or infinite corners: NaN
        ab, ac = points[:, 1] - points[:, 0], points[:, 2] - points[:, 0]
        cross = np.cross(ab.T, ac.T)
        return 0.5 * np.sqrt(np.einsum("ij,ij->i", cross, cross))
