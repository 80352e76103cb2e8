"""OBJ faces engines triangulate differently: faces of four or more corners that are not flat
(``OBJ_NONPLANAR_FACES``) or not convex (``OBJ_CONCAVE_FACES``).

OBJ keeps faces as the modelling tool made them, and every engine triangulates them on
import, each its own way (fans, ear clipping, shortest diagonal): a flat convex face comes out
the same whatever the way, any other does not. Every profile wants triangles (GPUs draw
nothing else), so these are warnings under every profile. Measured per size of face with
numpy, on the polygon geometry the reader made (``asset.obj``): the face's normal by Newell's
method, its flatness as the farthest corner from the plane through its centre, its convexity
as the turn at each corner against that normal. Faces with no area are left to the zero-area
triangle check.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from assetcheck.asset import Asset
from assetcheck.checks import Check, CheckContext

if TYPE_CHECKING:
    from assetcheck.formats.fbx.model import FbxGeometry

#: A face is flat when no corner is farther from its plane than this share of its extent.
FLATNESS = 1e-3
#: A turn against the face's normal counts when larger than this share of its extent squared.
TURN = 1e-6

CODES = ("OBJ_NONPLANAR_FACES", "OBJ_CONCAVE_FACES")


def face_faults(geometry: FbxGeometry) -> tuple[int, int]:
    """How many faces of four or more corners are not flat, and how many are concave."""
    sizes = geometry.polygon_sizes
    nonplanar = concave = 0
    for size in np.unique(sizes[sizes >= 4]).tolist():
        starts = geometry.polygon_starts[sizes == size]
        points = geometry.positions[geometry.corners[starts[:, None] + np.arange(size)]]
        following = np.roll(points, -1, axis=1)
        normal = np.cross(points, following).sum(axis=1)
        length = np.linalg.norm(normal, axis=1)
        extent = np.ptp(points, axis=1).max(axis=1)
        usable = (length > 0) & (extent > 0) & np.isfinite(length)
        points, following = points[usable], following[usable]
        unit = normal[usable] / length[usable, None]
        extent = extent[usable]
        offsets = points - points.mean(axis=1, keepdims=True)
        distance = np.abs(np.einsum("fkc,fc->fk", offsets, unit)).max(axis=1)
        nonplanar += int(np.count_nonzero(distance > FLATNESS * extent))
        edges = following - points
        turns = np.einsum("fkc,fc->fk", np.cross(edges, np.roll(edges, -1, axis=1)), unit)
        concave += int(np.count_nonzero((turns < -TURN * extent[:, None] ** 2).any(axis=1)))
    return nonplanar, concave


def check_faces(asset: Asset, context: CheckContext) -> None:
    if asset.obj is None:
        return
    for mesh in asset.obj.meshes:
        if mesh.geometry is None:
            continue
        nonplanar, concave = face_faults(mesh.geometry)
        if nonplanar:
            context.issues.add("OBJ_NONPLANAR_FACES", name=mesh.name, count=nonplanar)
        if concave:
            context.issues.add("OBJ_CONCAVE_FACES", name=mesh.name, count=concave)


def faces_check(format_name: str) -> Check:
    """The check of OBJ faces, for the format called ``format_name``."""
    return Check(
        "obj-faces",
        "OBJ faces of four or more corners that are not flat or not convex.",
        check_faces,
        CODES,
        frozenset({format_name}),
    )
