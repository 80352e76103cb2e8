"""Bounding boxes of a whole model in world space: metres, +Y up, +Z front (as glTF).

Each format says where its meshes are: glTF from the POSITION accessors' ``min``/``max`` carried
through the node transforms (:mod:`assetcheck.formats.gltf.scene_bounds`), FBX and OBJ from
their decoded control points carried through the transforms of the nodes drawing them and the
scene's unit and axes (:func:`polygon_scene_box`). OBJ has no unit: its numbers are taken as
metres (``docs/scale.md``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

if TYPE_CHECKING:
    from assetcheck.formats.fbx.model import PolygonScene


_LENGTH_UNITS = (("km", 1000.0), ("m", 1.0), ("cm", 0.01))


def describe_length(meters: float) -> str:
    """``meters`` in the unit that reads best: ``1.8 km``, ``2.5 m``, ``4 cm``, ``0.05 mm``."""
    for unit, size in _LENGTH_UNITS:
        if meters >= size:
            return f"{meters / size:.3g} {unit}"
    return f"{meters * 1000:.2g} mm"


class Box(NamedTuple):
    """An axis-aligned box in metres: ``low`` and ``high`` corners, ``(3,)`` each."""

    low: np.ndarray
    high: np.ndarray

    @property
    def extents(self) -> np.ndarray:
        """Width (X), height (Y) and depth (Z), in metres."""
        return self.high - self.low

    @property
    def size(self) -> float:
        """The largest side, in metres."""
        return float(np.max(self.extents))

    @property
    def bottom_centre(self) -> np.ndarray:
        """The centre of the box's lowest face (where a model stands on the floor)."""
        centre = (self.low + self.high) / 2
        return np.array([centre[0], self.low[1], centre[2]])


def corners(low: Sequence[float] | np.ndarray, high: Sequence[float] | np.ndarray) -> np.ndarray:
    """A box's 8 corners in homogeneous coordinates, ``(8, 4)``."""
    return np.array(
        [
            [x, y, z, 1.0]
            for x in (low[0], high[0])
            for y in (low[1], high[1])
            for z in (low[2], high[2])
        ]
    )


def point_bounds(points: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The smallest and largest of each coordinate of ``(n, 3)`` points, NaN left out (NaN
    where every value is): reduced column by column, which numpy does several times faster
    than along the first axis (``bench/scale_check.py``)."""
    columns = points.T
    low = np.array([np.fmin.reduce(column) for column in columns])
    high = np.array([np.fmax.reduce(column) for column in columns])
    return low, high


def placed_box(transforms: Sequence[np.ndarray], boxes: Sequence[np.ndarray]) -> Box | None:
    """The box around boxes (``(8, 4)`` corners each) placed by their 4x4 transforms; None
    when there are none, or the result is not finite or is flat to a point."""
    if not boxes:
        return None
    placed = np.einsum("kij,kcj->kci", np.array(transforms), np.array(boxes))[..., :3]
    with np.errstate(invalid="ignore"):
        low, high = placed.min(axis=(0, 1)), placed.max(axis=(0, 1))
    if not (np.all(np.isfinite(low)) and np.all(np.isfinite(high))):
        return None
    box = Box(low, high)
    return box if math.isfinite(box.size) and box.size > 0 else None


def polygon_scene_box(scene: PolygonScene) -> Box | None:
    """The world box of every drawn FBX or OBJ mesh instance (None when nothing drawn has
    finite control points)."""
    to_metres = scene.to_metres_y_up()
    transforms, boxes = [], []
    for mesh in scene.meshes:
        positions = mesh.geometry.positions if mesh.geometry is not None else None
        if positions is None or not len(positions):
            continue
        box = corners(*point_bounds(positions))
        for instance in mesh.instances:
            transforms.append(to_metres @ instance.geometry_to_world)
            boxes.append(box)
    return placed_box(transforms, boxes)
