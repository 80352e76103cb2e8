"""A small software rasterizer: triangles in, a shaded RGBA picture out, on the CPU, no GPU.

The model is drawn as grey clay from a fixed three-quarter view (the same for every file, so
previews compare at a glance), orthographic, fitted to the picture, with flat Lambert shading
(a key light from the upper left, a fill light at the camera) and a 2x2 supersample for smooth
edges. This module owns those rules (numpy: camera, projection, shading, which triangles are
drawn); the compiled kernels (:mod:`assetcheck.mesh._kernels`) scan-convert the triangles into
a depth buffer that keeps the nearest surface, and average the supersamples.
"""

from __future__ import annotations

import math

import numpy as np

from assetcheck.mesh._kernels import draw_nearest, resolve_samples

#: Camera: turned this many degrees around the up axis, then tilted down.
AZIMUTH_DEGREES, ELEVATION_DEGREES = 35.0, 25.0
CLAY = np.array([0.70, 0.75, 0.82], np.float32)
AMBIENT = 0.25
#: Directions in view space (x right, y up, z towards the viewer) and strengths: a key light
#: from the upper left, and a light at the camera so no face turned to the viewer is dark.
LIGHTS = (((-0.45, 0.65, 0.62), 0.45), ((0.0, 0.0, 1.0), 0.35))
MARGIN = 0.06  # of the picture, on each side
SUPERSAMPLE = 2

#: Bounding-box samples (an upper bound of the samples covered) over the whole picture: bounds
#: the time a file full of huge overlapping triangles can take (it is then thinned).
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
    seen = np.full((big_h, big_w), -1, np.int32)
    depth = np.full((big_h, big_w), np.inf)
    draw_nearest(screen, *_drawn(screen, big_w, big_h), depth, seen)
    # Each SUPERSAMPLE² block: coverage becomes alpha, colour the mean of covered samples.
    picture = np.empty((height, width, 4), np.uint8)
    resolve_samples(seen, shades, picture)
    return picture


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


def _drawn(
    screen: np.ndarray, width: int, height: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``(planes, triangles drawn, their first sample row, their row counts)``: the triangles
    whose bounds hold a sample centre and whose depth plane is finite, in order, thinned
    evenly past :data:`TOTAL_PIXELS` samples of bounds."""
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
    return planes, drawn, low[drawn, 1], spans[drawn, 1]


def _depth_planes(screen: np.ndarray) -> np.ndarray:
    """Per triangle, ``(a, b, c)`` with depth = a*x + b*y + c (NaN for a triangle of no area)."""
    origin = screen[:, 0]
    u, v = screen[:, 1] - origin, screen[:, 2] - origin
    area = u[:, 0] * v[:, 1] - u[:, 1] * v[:, 0]
    with np.errstate(divide="ignore", invalid="ignore"):
        a = np.where(area != 0, (u[:, 2] * v[:, 1] - v[:, 2] * u[:, 1]) / area, np.nan)
        b = np.where(area != 0, (v[:, 2] * u[:, 0] - u[:, 2] * v[:, 0]) / area, np.nan)
    return np.stack([a, b, origin[:, 2] - a * origin[:, 0] - b * origin[:, 1]], axis=1)
