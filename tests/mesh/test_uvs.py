"""Lightmap coverage: the grid cells the UV triangles cover and overlap."""

from __future__ import annotations

import numpy as np
import pytest

from assetcheck.mesh._kernels import rasterise
from assetcheck.mesh.prepared import Vertices
from assetcheck.mesh.uvs import OVERLAP_GRID, lightmap_faults, mapped_areas


def scanned_cells(
    uvs: np.ndarray, corners: np.ndarray, cells: int, bits: int = 32
) -> tuple[int, int]:
    """Covered and overlapped cells found by testing every cell centre of the grid against
    every triangle: the definition of ``docs/issues.md`` (a centre strictly inside). UVs are
    read as ``bits``-bit floats."""
    coverage = np.zeros((cells, cells), np.int64)
    for triangle in corners.T:
        points = uvs[triangle].astype(f"float{bits}").astype(np.float64) * cells
        (x0, y0), (x1, y1), (x2, y2) = points
        sign = np.sign((x1 - x0) * (y2 - y0) - (y1 - y0) * (x2 - x0))
        low = np.clip(np.floor(points.min(axis=0)).astype(int), 0, cells)
        high = np.clip(np.ceil(points.max(axis=0)).astype(int), 0, cells)
        if sign == 0 or (high <= low).any():
            continue
        centre_x, centre_y = np.meshgrid(
            np.arange(low[0], high[0]) + 0.5, np.arange(low[1], high[1]) + 0.5
        )
        inside = np.ones_like(centre_x, bool)
        for (ax, ay), (bx, by) in zip(points, np.roll(points, -1, axis=0), strict=True):
            edge = (bx - ax) * (centre_y - ay) - (by - ay) * (centre_x - ax)
            inside &= edge * sign > 0
        coverage[low[1] : high[1], low[0] : high[0]] += inside
    return int(np.count_nonzero(coverage)), int(np.count_nonzero(coverage > 1))


def random_mesh(seed: int, triangles: int, snap: bool) -> tuple[np.ndarray, np.ndarray]:
    """Triangles of every size and winding; with ``snap``, corners on cell centres and cell
    corners, so edges run along rows and through centres."""
    rng = np.random.default_rng(seed)
    uvs = rng.uniform(-0.1, 1.1, (triangles * 3, 2))
    uvs[::3] = rng.uniform(0, 1, (triangles, 2))
    small = rng.random(triangles) < 0.5
    uvs[1::3][small] = uvs[::3][small] + rng.normal(0, 0.01, (int(small.sum()), 2))
    if snap:
        grid = OVERLAP_GRID
        uvs = np.round(uvs * grid * 2) / (grid * 2)
    return uvs, np.arange(triangles * 3).reshape(-1, 3).T


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("snap", [False, True])
def test_covered_and_overlapped_cells_are_those_a_scan_of_every_centre_finds(seed, snap):
    uvs, corners = random_mesh(seed, 40, snap)
    faults = lightmap_faults(uvs, corners)
    scanned = scanned_cells(uvs, corners, faults.grid)
    assert (faults.covered_cells, faults.overlapped_cells) == scanned


def test_a_box_whose_faces_each_fill_the_square_overlaps_wholly():
    square = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float64)
    uvs = np.tile(square, (6, 1))
    corners = np.array(
        [[4 * face + i for i in step] for face in range(6) for step in ((0, 1, 2), (0, 2, 3))]
    ).T
    faults = lightmap_faults(uvs, corners)
    assert faults.covered_cells == faults.overlapped_cells == faults.grid**2 - faults.grid


def test_neighbours_sharing_an_edge_do_not_overlap():
    uvs = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float64)
    faults = lightmap_faults(uvs, np.array([[0, 1, 2], [0, 2, 3]]).T)
    assert faults.overlapped_cells == 0
    assert faults.covered_cells == OVERLAP_GRID**2 - OVERLAP_GRID


def test_centres_within_rounding_of_an_edge_are_settled_as_the_scan_settles_them():
    # Edges computed to pass through a cell centre, each off it by a rounding error: solving
    # a run's ends in floating point misplaces about a third of them by a cell, which the
    # settling test must put back. Every triangle drawn in runs (none is narrow enough to have
    # its centres tested), in cell units, as the rasteriser takes them.
    rng = np.random.default_rng(7)
    centres = rng.integers(10, 1000, (40, 2)) + 0.5
    directions = rng.normal(size=(40, 2))
    first = centres - rng.uniform(5, 50, (40, 1)) * directions
    second = centres + rng.uniform(5, 50, (40, 1)) * directions
    third = first + rng.normal(size=(40, 2)) * 30
    triangles = np.stack([first, second, third], axis=1)  # (n, 3 corners, 2 axes)
    for triangle in triangles:
        uvs = triangle / OVERLAP_GRID
        counts = np.zeros(OVERLAP_GRID * OVERLAP_GRID, np.int32)
        rasterise(triangle.T[:, :, None].copy(), OVERLAP_GRID, counts, 0)
        covered = int(np.count_nonzero(counts))
        assert covered == scanned_cells(uvs, np.array([[0], [1], [2]]), OVERLAP_GRID, 64)[0]


def test_mapped_areas_sum_every_triangle_and_skip_those_not_finite():
    square = np.array([[0, 0, 0], [2, 0, 0], [2, 0, 3], [0, 0, 3], [9, 9, 9]], np.float32)
    uvs = np.array([[0, 0], [4, 0], [4, 4], [0, 4], [np.nan, 0]], np.float32)
    corners = np.array([[0, 1, 2], [0, 2, 3], [0, 1, 4]]).T
    uv, surface = mapped_areas(Vertices.of(square), uvs, corners)
    assert (uv, surface) == pytest.approx((16.0, 6.0))
