"""Mesh geometry: zero-area and duplicate triangles, unused vertices, missing normals.

The measuring is shared by every format (:mod:`assetcheck.mesh.faults`). glTF primitives are
the document model's prepared meshes (``asset.gltf``, shared with the topology and UV checks);
FBX, OBJ and USD meshes come from their readers' polygon geometry (``asset.polygon_scene``),
measured alike (OBJ normals need not be of unit length: the format allows any). In glTF,
triangles whose corners repeat a vertex index are left to Khronos'
``ACCESSOR_INDEX_TRIANGLE_DEGENERATE`` (the glTF vertex data check) and indices past the last
vertex to ``ACCESSOR_INDEX_OOB``; FBX and OBJ have no such codes, so there a repeated corner
counts as a zero-area triangle. An OBJ mesh is made of the positions its faces use, so it has
no unused vertices.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from assetcheck.asset import Asset
from assetcheck.checks import Check, CheckContext
from assetcheck.formats.gltf.links import Primitive
from assetcheck.formats.gltf.meshes import TRIANGLE_MODES, primitive_label
from assetcheck.formats.gltf.model import GltfDocument
from assetcheck.issues import FileIssues
from assetcheck.mesh.faults import (
    mark_used_vertices,
    meshes_triangle_faults,
    report_triangle_faults,
    triangle_faults,
    unused_vertices,
)
from assetcheck.mesh.prepared import PreparedMesh, Vertices
from assetcheck.mesh.vectors import UNIT_LENGTH_THRESHOLD_VEC3, non_unit_rows, vector_length
from assetcheck.plugins.hookspecs import hookimpl

if TYPE_CHECKING:
    from assetcheck.formats.fbx.model import FbxGeometry, FbxLayer, FbxScene

UNLIT = "KHR_materials_unlit"

CODES = (
    "MESH_ZERO_AREA_TRIANGLES",
    "MESH_DUPLICATE_TRIANGLES",
    "MESH_UNUSED_VERTICES",
    "MESH_MISSING_NORMALS",
    "FBX_NON_UNIT_NORMALS",
)


class _GltfGeometry:
    """The geometry checks of one glTF document."""

    def __init__(self, document: GltfDocument, issues: FileIssues) -> None:
        self.document = document
        self.links = document.links
        self.issues = issues

    def check(self) -> None:
        drawn = [
            primitive
            for primitive in self.links.primitives
            if primitive.mode in TRIANGLE_MODES and "POSITION" in primitive.attributes
        ]
        meshes = [self.document.mesh(primitive).prepared for primitive in drawn]
        faults = iter(meshes_triangle_faults([mesh for mesh in meshes if mesh is not None]))
        for primitive, mesh in zip(drawn, meshes, strict=True):
            self._check_normals(primitive)
            if mesh is not None:
                report_triangle_faults(
                    self.issues, next(faults), pointer=primitive.pointer, name=self.label(primitive)
                )
        self._check_unused_vertices()

    def label(self, primitive: Primitive) -> str:
        return primitive_label(self.links, primitive)

    def _check_normals(self, primitive: Primitive) -> None:
        if primitive.semantics.has_normal or self._unlit(primitive.material):
            return
        self.issues.add(
            "MESH_MISSING_NORMALS", pointer=primitive.pointer, name=self.label(primitive)
        )

    def _unlit(self, material: int | None) -> bool:
        if material is None:
            return False
        extensions = (self.links.items("materials")[material] or {}).get("extensions")
        return isinstance(extensions, dict) and UNLIT in extensions

    def _check_unused_vertices(self) -> None:
        """Vertices no primitive draws, per POSITION accessor (primitives may share one)."""
        used: dict[int, np.ndarray] = {}
        users: dict[int, Primitive] = {}
        drawn_whole: set[int] = set()
        for primitive in self.links.primitives:
            accessor = primitive.attributes.get("POSITION")
            if accessor is None:
                continue
            vertices = self.document.vertices(accessor)
            if vertices is None:  # no real vertex data: nothing to judge
                continue
            users.setdefault(accessor, primitive)
            values = (
                None if primitive.indices is None else self.links.reader.indices(primitive.indices)
            )
            if values is None:  # drawn without indices, or unreadable: count every vertex
                drawn_whole.add(accessor)
                continue
            mark_used_vertices(used.setdefault(accessor, np.zeros(len(vertices), np.uint8)), values)
        for accessor, mask in used.items():
            unused = mask.size - int(np.count_nonzero(mask))
            if unused and accessor not in drawn_whole:
                self.issues.add(
                    "MESH_UNUSED_VERTICES",
                    pointer=users[accessor].pointer,
                    name=self.label(users[accessor]),
                    count=unused,
                    total=mask.size,
                )


def check_geometry(asset: Asset, context: CheckContext) -> None:
    if asset.gltf is not None:
        _GltfGeometry(asset.gltf, context.issues).check()
    elif asset.fbx is not None:
        check_fbx_geometry(asset.fbx, context.issues)
    elif asset.polygon_scene is not None:  # OBJ and USD
        for mesh in asset.polygon_scene.meshes:
            if mesh.geometry is not None:
                check_polygon_geometry(mesh.name, mesh.geometry, context.issues)


@hookimpl
def register_checks() -> list[Check]:
    return [
        Check(
            "mesh-geometry",
            "Zero-area and duplicate triangles, unused vertices, "
            "missing normals and (FBX) normals that are not of unit length.",
            check_geometry,
            CODES,
        )
    ]


def check_fbx_geometry(scene: FbxScene, issues: FileIssues) -> None:
    """Report the geometry faults of every mesh of ``scene``."""
    for mesh in scene.meshes:
        geometry = mesh.geometry
        if geometry is None:
            if mesh.geometry_fault is None and not mesh.has_normals:
                issues.add("MESH_MISSING_NORMALS", name=mesh.name)
            continue
        if geometry.normals is not None:
            _check_normals(mesh.name, geometry.normals, issues)
        check_polygon_geometry(mesh.name, geometry, issues)


def check_polygon_geometry(name: str, geometry: FbxGeometry, issues: FileIssues) -> None:
    """Report missing normals, zero-area and duplicate triangles and unused vertices of one
    polygon mesh (FBX or OBJ) called ``name``."""
    if geometry.normals is None:
        issues.add("MESH_MISSING_NORMALS", name=name)
    triangles = geometry.triangles()
    if len(triangles):
        faults = triangle_faults(
            PreparedMesh(Vertices.of(geometry.positions), triangles), repeated_are_flat=True
        )
        report_triangle_faults(issues, faults, name=name)
    unused = unused_vertices(geometry.corners, len(geometry.positions))
    if unused:
        issues.add("MESH_UNUSED_VERTICES", name=name, count=unused, total=len(geometry.positions))


def _check_normals(name: str, normals: FbxLayer, issues: FileIssues) -> None:
    """Normals the polygons use that are not of unit length."""
    used = np.zeros(len(normals.values), bool)
    used[normals.corner_values] = True
    values = normals.values[used]
    rows = non_unit_rows(values, UNIT_LENGTH_THRESHOLD_VEC3)
    if rows.size:
        issues.add(
            "FBX_NON_UNIT_NORMALS",
            name=name,
            count=int(rows.size),
            total=len(values),
            first=int(np.flatnonzero(used)[rows[0]]),
            length=vector_length(values[rows[0]]),
        )
