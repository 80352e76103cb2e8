"""Measuring texture coordinates of triangle meshes, for any format.

:func:`uv_triangle_faults` counts non-finite UVs and UV triangles of zero area, and samples the
texel density of a mesh; :func:`lightmap_faults` finds lightmap UV triangles that leave the unit
square or overlap.

**Overlap** is found by rasterising the UV triangles into a coverage grid of
:data:`OVERLAP_GRID` x :data:`OVERLAP_GRID` cells: a cell is covered by a triangle when the
cell's centre lies strictly inside it, and overlapped when two or more triangles cover it. So
an overlap is seen only where it covers a cell centre: overlaps thinner than a cell (1/1024 of
the square, a texel of a 1024 px lightmap) can be missed, and a centre exactly on a triangle's
edge counts for no triangle, so neighbours sharing an edge never read as overlapping. That is
the resolution lightmappers pack at, and the miss is the same as theirs.

**Texel density** is measured as UV units per metre (the square root of a triangle's UV area
over its surface area) on at most :data:`SAMPLE_TRIANGLES` triangles per mesh, spread evenly, and
compared across the model weighted by surface area (:func:`density_spread`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from assetcheck.checks.mesh_faults import Vertices, flat_triangles, usable_corners
from assetcheck.checks.mesh_topology import SAMPLE_TRIANGLES

#: Cells per side of the lightmap coverage grid.
OVERLAP_GRID = 1024
#: Cell samples rasterised at once: bounds the temporary arrays (about 40 bytes a sample).
RASTER_BATCH = 1 << 21
#: The share of the surface area left out at each end when comparing texel densities, so a few
#: slivers do not decide the spread.
DENSITY_PERCENTILE = 5.0


@dataclass(frozen=True)
class UvFaults:
    """Of the ``triangles`` of a mesh in one UV set: UVs that are not finite, triangles with
    surface area but zero UV area, and a sample of texel densities with their surface areas."""

    triangles: int
    non_finite: int
    zero_area: int
    densities: np.ndarray
    areas: np.ndarray


@dataclass(frozen=True)
class LightmapFaults:
    """Lightmap UV triangles outside [0, 1], and the covered and overlapped grid cells."""

    triangles: int
    outside: int
    covered_cells: int
    overlapped_cells: int


def uv_triangle_faults(vertices: Vertices, uvs: np.ndarray, triangles: np.ndarray) -> UvFaults:
    """Measure the UV set ``uvs`` (``(count, 2)``, one row per vertex) of ``triangles``."""
    non_finite = int(np.count_nonzero(~np.isfinite(uvs).all(axis=1)))
    corners = usable_corners(triangles, min(len(vertices), len(uvs)))
    points = np.take(vertices.coords, corners, axis=1)
    flat = flat_triangles(points)
    uv_points = _uv_points(uvs, corners)
    flat_uv = flat_triangles(uv_points)
    finite = np.isfinite(uv_points).all(axis=(0, 1))
    zero_uv = int(np.count_nonzero(flat_uv & ~flat & finite))
    count = corners.shape[1]
    sample = corners
    if count > SAMPLE_TRIANGLES:
        sample = corners[:, np.linspace(0, count - 1, SAMPLE_TRIANGLES).astype(np.intp)]
    surface = _areas(np.take(vertices.coords, sample, axis=1).astype(np.float64))
    uv_area = _areas(_uv_points(uvs, sample).astype(np.float64))
    with np.errstate(invalid="ignore", divide="ignore"):
        usable = (surface > 0) & (uv_area > 0) & np.isfinite(uv_area) & np.isfinite(surface)
        densities = np.sqrt(uv_area[usable] / surface[usable])
    return UvFaults(len(triangles), non_finite, zero_uv, densities, surface[usable])


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
    high = densities[order[min(np.searchsorted(cumulative, cumulative[-1] - share),
                               len(order) - 1)]]
    return float(high / low)


def lightmap_faults(uvs: np.ndarray, triangles: np.ndarray) -> LightmapFaults:
    """Triangles of ``triangles`` whose lightmap UVs (``uvs``, ``(count, 2)``) leave [0, 1], and
    the grid cells they cover and overlap (see the module docstring)."""
    corners = usable_corners(triangles, len(uvs))
    points = np.take(np.asarray(uvs, np.float64).T, corners, axis=1)  # (2 axes, 3 corners, n)
    finite = np.isfinite(points).all(axis=(0, 1))
    points = points[:, :, finite]
    outside = int(np.count_nonzero(((points < 0) | (points > 1)).any(axis=(0, 1))))
    coverage = np.zeros(OVERLAP_GRID * OVERLAP_GRID, np.int32)
    _rasterise(points * OVERLAP_GRID, coverage)
    return LightmapFaults(corners.shape[1], outside, int(np.count_nonzero(coverage)),
                          int(np.count_nonzero(coverage > 1)))


def _rasterise(points: np.ndarray, coverage: np.ndarray) -> None:
    """Add 1 to each cell of ``coverage`` whose centre lies strictly inside a triangle of
    ``points`` (``(2, 3, n)`` in cell units)."""
    twice_area = _signed_twice_area(points)
    points = points[:, :, twice_area != 0]
    sign = np.sign(twice_area[twice_area != 0])
    low = np.clip(np.floor(points.min(axis=1) - 0.5) + 1, 0, OVERLAP_GRID).astype(np.int64)
    high = np.clip(np.ceil(points.max(axis=1) - 0.5), 0, OVERLAP_GRID).astype(np.int64)
    width, height = np.maximum(high - low, 0)
    cells = width * height
    ends = np.cumsum(cells)
    first = 0
    while first < len(cells):
        last = int(np.searchsorted(ends, ends[first - 1] + RASTER_BATCH if first else
                                   RASTER_BATCH, side="right"))
        last = max(last, first + 1)
        _rasterise_batch(points[:, :, first:last], sign[first:last], low[:, first:last],
                         width[first:last], cells[first:last], coverage)
        first = last


def _rasterise_batch(points: np.ndarray, sign: np.ndarray, low: np.ndarray, width: np.ndarray,
                     cells: np.ndarray, coverage: np.ndarray) -> None:
    total = int(cells.sum())
    if not total:
        return
    triangle = np.repeat(np.arange(len(cells)), cells)
    offset = np.arange(total) - np.repeat(np.cumsum(cells) - cells, cells)
    x = low[0][triangle] + offset % width[triangle]
    y = low[1][triangle] + offset // width[triangle]
    centre_x, centre_y = x + 0.5, y + 0.5
    inside = np.ones(total, bool)
    for start in range(3):
        end = (start + 1) % 3
        ax, ay = points[0, start][triangle], points[1, start][triangle]
        bx, by = points[0, end][triangle], points[1, end][triangle]
        edge = (bx - ax) * (centre_y - ay) - (by - ay) * (centre_x - ax)
        inside &= edge * sign[triangle] > 0
    coverage += np.bincount(y[inside] * OVERLAP_GRID + x[inside],
                            minlength=len(coverage)).astype(np.int32, copy=False)


def _uv_points(uvs: np.ndarray, corners: np.ndarray) -> np.ndarray:
    """UV corners as ``(3 axes, 3 corners, n)`` float32 with a zero third axis, the layout
    :func:`~assetcheck.checks.mesh_faults.flat_triangles` takes."""
    flat = np.take(np.asarray(uvs, np.float32).T, corners, axis=1)
    return np.concatenate([flat, np.zeros((1, *flat.shape[1:]), np.float32)])


def _signed_twice_area(points: np.ndarray) -> np.ndarray:
    """Twice the signed area of 2D triangles given as ``(2, 3, n)``."""
    ab, ac = points[:, 1] - points[:, 0], points[:, 2] - points[:, 0]
    return ab[0] * ac[1] - ab[1] * ac[0]


def _areas(points: np.ndarray) -> np.ndarray:
    """Areas of triangles given as ``(3 axes, 3 corners, n)``."""
    ab, ac = points[:, 1] - points[:, 0], points[:, 2] - points[:, 0]
    cross = np.cross(ab.T, ac.T)
    return 0.5 * np.sqrt(np.einsum("ij,ij->i", cross, cross))
