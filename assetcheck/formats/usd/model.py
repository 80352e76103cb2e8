"""The USD part of the asset model: the stage's meshes as polygon geometry (``Asset.usd``).

A USD mesh (``UsdGeom.Mesh``) is polygon geometry of the kind FBX's reader fills (points,
face vertex indices, primvars with a row per corner:
:class:`~assetcheck.formats.fbx.model.FbxGeometry`), drawn by the prims that place it: itself,
and every instance proxy of it. The scene is a
:class:`~assetcheck.formats.fbx.model.PolygonScene`, so the shared geometry, topology and UV
checks, the preview and the viewer measure USD with the code path of FBX and OBJ. Positions are
in the stage's units and axes (``metersPerUnit``, ``upAxis``); :meth:`UsdScene.to_metres_y_up`
converts them.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

import numpy as np

from assetcheck.formats.fbx.model import FbxAxes, FbxGeometry, FbxInstance, placed_triangles

#: The axis systems of the two up axes USD knows (right-handed, as USD is).
UP_AXES = {"Y": FbxAxes("+X", "+Y", "+Z"), "Z": FbxAxes("+X", "+Z", "-Y")}


@dataclass
class UsdMesh:
    """One ``UsdGeom.Mesh`` prim: its path, counts (``docs/statistics.md``), the materials
    bound to it or its subsets, and its faces as polygon geometry (None once the checks have
    run, or when it has no faces or is damaged)."""

    name: str
    vertices: int
    triangles: int
    faces: int
    materials: list[str] = field(default_factory=list)
    geometry: FbxGeometry | None = None
    #: The prims that draw it, with their local-to-world matrices (stage units and axes).
    instances: list[FbxInstance] = field(default_factory=list)


@dataclass
class UsdScene:
    """What the USD reader learned beyond the format-neutral ``Asset`` fields."""

    #: ``usdz`` (a package), ``usdc`` (binary crate) or ``usda`` (text), read from the content.
    encoding: str
    #: The stage's ``upAxis`` (``Y`` or ``Z``) and ``metersPerUnit``, as authored or USD's
    #: fallbacks (``Y``, 0.01) where not.
    up_axis: str = "Y"
    meters_per_unit: float = 0.01
    default_prim: str = ""
    prims: int = 0
    time_codes_per_second: float = 24.0
    meshes: list[UsdMesh] = field(default_factory=list)

    def summary(self) -> dict[str, object]:
        """The scalar facts, for the report's per-file metadata."""
        return {
            "encoding": self.encoding,
            "up_axis": self.up_axis,
            "meters_per_unit": self.meters_per_unit,
            "default_prim": self.default_prim,
            "prims": self.prims,
            "meshes": len(self.meshes),
            "time_codes_per_second": self.time_codes_per_second,
        }

    def to_metres_y_up(self) -> np.ndarray:
        """The 4x4 matrix from stage coordinates to metres, +Y up, +Z front (as glTF)."""
        matrix = np.eye(4)
        unit = self.meters_per_unit if self.meters_per_unit > 0 else 1.0
        matrix[:3, :3] = UP_AXES.get(self.up_axis, UP_AXES["Y"]).to_y_up() * unit
        return matrix

    def world_triangles(self) -> Iterator[tuple[str, np.ndarray, np.ndarray]]:
        """Per drawn mesh instance: its prim's path, its points in metres, +Y up (``(n, 3)``
        float32) and its fan-triangulated faces (``(m, 3)`` int32 indices into them)."""
        return placed_triangles(self.meshes, self.to_metres_y_up())

    def drop_geometry(self) -> None:
        """Let go of the geometry arrays (the counts and facts stay)."""
        for mesh in self.meshes:
            mesh.geometry = None
