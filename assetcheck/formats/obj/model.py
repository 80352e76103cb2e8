"""The OBJ part of the asset model: the file's meshes as polygon geometry (``Asset.obj``).

An OBJ mesh is one group or object (``g``/``o``) with one material (``usemtl``): the split
engines and assimp make, drawn once where it is. Its geometry is the polygon model FBX's reader
fills too (:class:`~assetcheck.formats.fbx.model.FbxGeometry`: control points, polygon corners,
layers with a row per corner) and the scene is a
:class:`~assetcheck.formats.fbx.model.PolygonScene`, so the shared geometry, topology and UV
checks, the preview and the viewer measure both formats with one code path. OBJ has no units or
axes: positions are taken as metres with +Y up, as assimp, Blender and three.js read them.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

import numpy as np

from assetcheck.formats.fbx.model import FbxGeometry, FbxInstance


@dataclass
class ObjMesh:
    """One mesh: its counts (``docs/statistics.md``), its material's name and its faces as
    polygon geometry (None once the checks have run, or when it has no faces)."""

    name: str
    material: str | None
    vertices: int
    triangles: int
    faces: int
    lines: int
    points: int
    #: Faces of five or more corners, and faces of four or more that are not planar or not
    #: convex (engines triangulate those differently).
    ngons: int = 0
    nonplanar: int = 0
    concave: int = 0
    geometry: FbxGeometry | None = None
    #: The one node drawing it, where it is (OBJ has no transforms): named after the mesh.
    instances: list[FbxInstance] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.instances:
            self.instances = [FbxInstance(self.name, np.eye(4))]

    @property
    def materials(self) -> list[str]:
        """The materials the mesh uses (none or one)."""
        return [] if self.material is None else [self.material]


@dataclass
class ObjScene:
    """What the OBJ reader learned beyond the format-neutral ``Asset`` fields."""

    meshes: list[ObjMesh] = field(default_factory=list)
    #: The material libraries (``mtllib``) as written.
    libraries: list[str] = field(default_factory=list)

    def summary(self) -> dict[str, object]:
        """The scalar facts, for the report's per-file metadata."""
        return {
            "meshes": len(self.meshes),
            "faces": sum(mesh.faces for mesh in self.meshes),
            "lines": sum(mesh.lines for mesh in self.meshes),
            "points": sum(mesh.points for mesh in self.meshes),
            "material_libraries": len(self.libraries),
        }

    def to_metres_y_up(self) -> np.ndarray:
        """The identity: OBJ positions are taken as metres, +Y up (see the module)."""
        return np.eye(4)

    def world_triangles(self) -> Iterator[tuple[str, np.ndarray, np.ndarray]]:
        """Per mesh with faces: its name, its control points (``(n, 3)`` float32, metres, +Y
        up) and its fan-triangulated faces (``(m, 3)`` int32 indices into them), as
        :meth:`~assetcheck.formats.fbx.model.FbxScene.world_triangles` gives FBX meshes."""
        for mesh in self.meshes:
            if mesh.geometry is not None:
                geometry = mesh.geometry
                yield mesh.name, geometry.positions.astype(np.float32), geometry.triangles()

    def drop_geometry(self) -> None:
        """Let go of the geometry arrays (the counts and facts stay)."""
        for mesh in self.meshes:
            mesh.geometry = None
