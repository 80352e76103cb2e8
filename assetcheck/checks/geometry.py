"""Mesh geometry: zero-area and duplicate triangles, unused vertices, missing normals.

The measuring is shared by every format (:mod:`assetcheck.checks.mesh_faults`). glTF
primitives are read through the accessor data layer; FBX meshes come from the reader's decoded
geometry (:mod:`assetcheck.checks.fbx_geometry`). In glTF, triangles whose corners repeat a
vertex index are left to Khronos' ``ACCESSOR_INDEX_TRIANGLE_DEGENERATE`` (the glTF vertex data
check) and indices past the last vertex to ``ACCESSOR_INDEX_OOB``; FBX has no such codes, so
there a repeated corner counts as a zero-area triangle.
"""

from __future__ import annotations

import numpy as np

from assetcheck.asset import Asset
from assetcheck.checks import Check, CheckContext
from assetcheck.checks.fbx_geometry import check_fbx_geometry
from assetcheck.checks.gltf_links import DocumentLinks, Primitive, document_links
from assetcheck.checks.mesh_faults import Vertices, report_triangle_faults, triangle_faults
from assetcheck.formats.gltf_data import asset_cache, primitive_triangles
from assetcheck.hookspecs import hookimpl
from assetcheck.issues import FileIssues

TRIANGLE_MODES = frozenset({4, 5, 6})
UNLIT = "KHR_materials_unlit"

CODES = (
    "MESH_ZERO_AREA_TRIANGLES",
    "MESH_DUPLICATE_TRIANGLES",
    "MESH_UNUSED_VERTICES",
    "MESH_MISSING_NORMALS",
    "FBX_NON_UNIT_NORMALS",
)


class _GltfGeometry:
    """The geometry checks of one glTF document; vertex data read once per accessor."""

    def __init__(self, asset: Asset, links: DocumentLinks, issues: FileIssues) -> None:
        self.asset = asset
        self.links = links
        self.issues = issues

    def check(self) -> None:
        for primitive in self.links.primitives:
            if primitive.mode in TRIANGLE_MODES and "POSITION" in primitive.attributes:
                self._check_normals(primitive)
                self._check_triangles(primitive)
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

    def _check_triangles(self, primitive: Primitive) -> None:
        vertices = self._vertices(primitive.attributes["POSITION"])
        # Without indices the triangles are numbered up to a declared count: trust it only
        # when the positions' real bytes back it.
        if vertices is None or (
            primitive.indices is None and primitive.vertex_count != len(vertices)
        ):
            return
        triangles = primitive_triangles(self.asset, primitive.mesh, primitive.number)
        if triangles is None or not len(triangles):
            return
        report_triangle_faults(
            self.issues,
            triangle_faults(vertices, triangles),
            pointer=primitive.pointer,
            name=self.label(primitive),
        )

    def _vertices(self, accessor: int) -> Vertices | None:
        return gltf_vertices(self.asset, self.links, accessor)

    def _check_unused_vertices(self) -> None:
        """Vertices no primitive draws, per POSITION accessor (primitives may share one)."""
        used: dict[int, np.ndarray] = {}
        users: dict[int, Primitive] = {}
        drawn_whole: set[int] = set()
        for primitive in self.links.primitives:
            accessor = primitive.attributes.get("POSITION")
            if accessor is None:
                continue
            vertices = self._vertices(accessor)
            if vertices is None:  # no real vertex data: nothing to judge
                continue
            users.setdefault(accessor, primitive)
            values = (
                None if primitive.indices is None else self.links.reader.indices(primitive.indices)
            )
            if values is None:  # drawn without indices, or unreadable: count every vertex
                drawn_whole.add(accessor)
                continue
            if len(values) and int(values.max()) >= len(vertices):
                values = values[values < len(vertices)]
            used.setdefault(accessor, np.zeros(len(vertices), bool))[values] = True
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


def primitive_label(links: DocumentLinks, primitive: Primitive) -> str:
    """The mesh's name, and the primitive's number when the mesh has several."""
    mesh = links.items("meshes")[primitive.mesh] or {}
    name = mesh.get("name")
    label = name if isinstance(name, str) and name else f"mesh {primitive.mesh}"
    primitives = mesh.get("primitives")
    if isinstance(primitives, list) and len(primitives) > 1:
        label += f", primitive {primitive.number}"
    return label


def gltf_vertices(asset: Asset, links: DocumentLinks, accessor: int) -> Vertices | None:
    """The positions of POSITION accessor ``accessor``, hashed once per asset for every check;
    None when they cannot be read as 3D points."""

    def build() -> Vertices | None:
        positions = links.reader.normalized(accessor)
        if positions is None or positions.ndim != 2 or positions.shape[1] != 3:
            return None
        return Vertices.of(positions)

    return asset_cache(asset, f"vertices:{accessor}", build)


def check_geometry(asset: Asset, context: CheckContext) -> None:
    if asset.document is not None:
        _GltfGeometry(asset, document_links(asset), context.issues).check()
    elif asset.fbx is not None:
        check_fbx_geometry(asset.fbx, context.issues)


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
