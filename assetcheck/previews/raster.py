"""A small software rasterizer: triangles in, a shaded RGBA picture out, numpy only, no GPU.

The model is drawn as grey clay from a fixed three-quarter view (the same for every file, so
previews compare at a glance), orthographic, fitted to the picture, with flat Lambert shading
(a key light from the upper left, a fill light at the camera) and a 2x2 supersample for smooth
edges. Triangles are scan-converted in vectorized chunks (numpy arrays of rows, then of
pixels: no Python loop per triangle), and a depth buffer keeps the nearest surface.
"""

from __future__ import annotations

import math
from collections.abc import Iterator

import numpy as np

#: Camera: turned this many degrees around the up axis, then tilted down.
AZIMUTH_DEGREES, ELEVATION_DEGREES = 35.0, 25.0
CLAY = np.array([0.70, 0.75, 0.82], np.float32)
AMBIENT = 0.25
#: Directions in view space (x right, y up, z towards the viewer) and strengths: a key light
#: from the upper left, and a light at the camera so no face turned to the viewer is dark.
LIGHTS = (((-0.45, 0.65, 0.62), 0.45), ((0.0, 0.0, 1.0), 0.35))
MARGIN = 0.06  # of the picture, on each side
SUPERSAMPLE = 2

#: Bounding-box pixels (an upper bound of the samples covered) per vectorized chunk, and over
#: the whole picture: the second bounds the time a file full of huge overlapping triangles
#: can take (it is then thinned).
CHUNK_PIXELS = 1 << 19
TOTAL_PIXELS = 1 << 25


def render_clay(triangles: np.ndarray, width: int, height: int) -> np.ndarray:
    """``triangles`` (shape ``(n, 3, 3)``: three xyz corners each, glTF's +Y up) as an
    ``(height, width, 4)`` uint8 RGBA picture on a transparent background."""
    triangles = np.asarray(triangles, np.float64)
    triangles = triangles[np.isfinite(triangles).all(axis=(1, 2))]
    if not len(triangles):
        return np.zeros((height, width, 4), np.uint8)
    big_w, big_h = width * SUPERSAMPLE, height * SUPERSAMPLE
    screen = _project(triangles, big_w, big_h)
    # The triangle seen at each sample (-1: none), shaded once at the end: the last row of
    # ``shades`` is the background's (no colour, no coverage).
    shades = np.zeros((len(screen) + 1, 4), np.float32)
    shades[:-1, :3], shades[:-1, 3] = _shade(screen), 1.0
    seen = np.full(big_h * big_w, -1, np.int64)
    depth = np.full(big_h * big_w, np.inf)
    for pixels, owners, depths in _fragments(screen, big_w, big_h):
        _keep_nearest(depth, seen, pixels, depths, owners)
    samples = shades[seen].reshape(big_h, big_w, 4)
    # Sum each SUPERSAMPLE² block: coverage becomes alpha, colour the mean of covered samples.
    # (Sums of strided slices: numpy reduces the short block axes of a reshape ~20x slower.)
    summed = np.zeros((height, width, 4), np.float32)
    for dy in range(SUPERSAMPLE):
        for dx in range(SUPERSAMPLE):
            summed += samples[dy::SUPERSAMPLE, dx::SUPERSAMPLE]
    alpha = summed[..., 3] / (SUPERSAMPLE * SUPERSAMPLE)
    summed[..., :3] /= np.maximum(summed[..., 3:], 1e-6)
    summed[..., 3] = alpha
    return np.clip(np.rint(summed * 255), 0, 255).astype(np.uint8)


def _project(triangles: np.ndarray, width: int, height: int) -> np.ndarray:
    """Corners in pixels (x right, y down) with depth (smaller is nearer), fitted to the frame."""
    turn, tilt = math.radians(AZIMUTH_DEGREES), math.radians(ELEVATION_DEGREES)
    around_up = np.array(
        [[math.cos(turn), 0, math.sin(turn)], [0, 1, 0], [-math.sin(turn), 0, math.cos(turn)]]
    )
    tilt_down = np.array(
        [[1, 0, 0], [0, math.cos(tilt), -math.sin(tilt)], [0, math.sin(tilt), math.cos(tilt)]]
    )
    view = triangles @ (tilt_down @ around_up).T
    points = view.reshape(-1, 3)
    low, high = points.min(axis=0), points.max(axis=0)
    extent = np.maximum(high - low, 1e-9)
    usable = 1 - 2 * MARGIN
    scale = min(width * usable / extent[0], height * usable / extent[1])
    centre = (low + high) / 2
    screen = np.empty_like(view)
    screen[..., 0] = (view[..., 0] - centre[0]) * scale + width / 2
    screen[..., 1] = (centre[1] - view[..., 1]) * scale + height / 2
    screen[..., 2] = -view[..., 2] * scale  # the camera looks down -z: larger z is nearer
    return screen


def _shade(screen: np.ndarray) -> np.ndarray:
    """Each triangle's colour: two-sided Lambert, since windings in the wild are unreliable."""
    a, b, c = screen[:, 0], screen[:, 1], screen[:, 2]
    # Back to a right-handed view space (y up, z towards the viewer) for the normal.
    flip = np.array([1.0, -1.0, -1.0])
    normal = np.cross((b - a) * flip, (c - a) * flip)
    length = np.linalg.norm(normal, axis=1, keepdims=True)
    normal = normal / np.maximum(length, 1e-12)
    intensity = np.full(len(normal), AMBIENT)
    for direction, strength in LIGHTS:
        towards = np.array(direction) / np.linalg.norm(direction)
        intensity += strength * np.abs(normal @ towards)
    return (np.minimum(intensity, 1.0)[:, None] * CLAY).astype(np.float32)


def _fragments(
    screen: np.ndarray, width: int, height: int
) -> Iterator[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """``(pixel index, triangle index, depth)`` arrays of the covered samples, chunk by chunk."""
    xy = screen[..., :2]
    low = np.clip(np.ceil(xy.min(axis=1) - 0.5), 0, [width, height]).astype(np.int64)
    high = np.clip(np.floor(xy.max(axis=1) - 0.5), -1, [width - 1, height - 1]).astype(np.int64)
    spans = np.maximum(high - low + 1, 0)
    boxes = spans[:, 0] * spans[:, 1]
    planes = _depth_planes(screen)
    drawn = np.flatnonzero((boxes > 0) & np.isfinite(planes).all(axis=1))
    total = int(boxes[drawn].sum())
    if total > TOTAL_PIXELS:  # thin evenly rather than drop one region of the model
        drawn = drawn[:: math.ceil(total / TOTAL_PIXELS)]
    start = 0
    while start < len(drawn):
        sizes = np.cumsum(boxes[drawn[start:]])
        stop = start + max(1, int(np.searchsorted(sizes, CHUNK_PIXELS, side="right")))
        chunk = drawn[start:stop]
        start = stop
        yield _scan(screen, planes, chunk, low[chunk, 1], spans[chunk, 1], width)


def _scan(
    screen: np.ndarray,
    planes: np.ndarray,
    triangles: np.ndarray,
    top: np.ndarray,
    rows: np.ndarray,
    width: int,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Scan-convert ``triangles``: for each pixel row they cross, the span between their edges
    at the row's centre line; every pixel whose centre lies in a span is covered."""
    owner = np.repeat(triangles, rows)
    row = np.repeat(top, rows) + _ranks(rows)
    centre_y = row + 0.5
    left, right = np.full(len(row), np.inf), np.full(len(row), -np.inf)
    for first, second in ((0, 1), (1, 2), (2, 0)):
        p, q = screen[owner, first], screen[owner, second]
        rise = q[:, 1] - p[:, 1]
        with np.errstate(divide="ignore", invalid="ignore"):
            along = (centre_y - p[:, 1]) / rise
        crosses = (rise != 0) & (along >= 0) & (along <= 1)
        x = p[:, 0] + along * (q[:, 0] - p[:, 0])
        left = np.where(crosses, np.minimum(left, x), left)
        right = np.where(crosses, np.maximum(right, x), right)
    first_x = np.clip(np.ceil(left - 0.5), 0, width).astype(np.int64)
    last_x = np.clip(np.floor(right - 0.5), -1, width - 1).astype(np.int64)
    pixels = np.maximum(last_x - first_x + 1, 0)
    owner, row = np.repeat(owner, pixels), np.repeat(row, pixels)
    x = np.repeat(first_x, pixels) + _ranks(pixels)
    a, b, c = planes[owner].T
    return row * width + x, owner, a * (x + 0.5) + b * (row + 0.5) + c


def _depth_planes(screen: np.ndarray) -> np.ndarray:
    """Per triangle, ``(a, b, c)`` with depth = a*x + b*y + c (NaN for a triangle of no area)."""
    origin = screen[:, 0]
    u, v = screen[:, 1] - origin, screen[:, 2] - origin
    area = u[:, 0] * v[:, 1] - u[:, 1] * v[:, 0]
    with np.errstate(divide="ignore", invalid="ignore"):
        a = np.where(area != 0, (u[:, 2] * v[:, 1] - v[:, 2] * u[:, 1]) / area, np.nan)
        b = np.where(area != 0, (v[:, 2] * u[:, 0] - u[:, 2] * v[:, 0]) / area, np.nan)
    return np.stack([a, b, origin[:, 2] - a * origin[:, 0] - b * origin[:, 1]], axis=1)


def _ranks(counts: np.ndarray) -> np.ndarray:
    """0, 1, ..., n-1 for each n of ``counts``, concatenated."""
    return np.arange(int(counts.sum())) - np.repeat(np.cumsum(counts) - counts, counts)


def _keep_nearest(
    depth: np.ndarray,
    seen: np.ndarray,
    pixels: np.ndarray,
    depths: np.ndarray,
    owners: np.ndarray,
) -> None:
    """Record the triangle of the fragment nearest at each pixel, this chunk's and what the
    buffers hold from earlier ones taken together (a per-pixel minimum: no sort)."""
    np.minimum.at(depth, pixels, depths)
    nearest = depths == depth[pixels]
    seen[pixels[nearest]] = owners[nearest]
