"""Mesh topology and texture coordinates: how triangles meet, and what their UVs do.

Every format becomes :class:`Surface` objects, one per glTF primitive or FBX or OBJ mesh: the format
model's prepared mesh (shared with the geometry check, so positions are hashed and triangles
filtered once) with one row per vertex for normals and UVs. An FBX mesh is read per polygon
corner (its normals and UVs are), and the position weld joins the corners again; an OBJ mesh
likewise (an OBJ corner names its position, UV and normal apart). The
measuring is :mod:`~assetcheck.mesh.topology` and :mod:`~assetcheck.mesh.uvs`; the engine
profile's :class:`~assetcheck.scoring.profiles.MeshRules` decide which UV set is the lightmap,
whether open meshes are findings and how much texel density may vary. In glTF, UVs that are
not finite are left to Khronos' ``ACCESSOR_INVALID_FLOAT``. FBX meshes are checked for a
lightmap only when the profile names their first UV set (the FBX reader decodes the first UV
layer only).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

import numpy as np

from assetcheck.asset import Asset
from assetcheck.checks import Check, CheckContext
from assetcheck.formats.gltf.accessor_data import AccessorReader
from assetcheck.formats.gltf.meshes import primitive_label
from assetcheck.formats.gltf.model import GltfDocument
from assetcheck.issues import FileIssues
from assetcheck.mesh.prepared import PreparedMesh
from assetcheck.mesh.topology import meshes_inside_out, prepared_topology
from assetcheck.mesh.uvs import (
    DENSITY_PERCENTILE,
    UvFaults,
    density_spread,
    lightmap_faults,
    uv_triangle_faults,
)
from assetcheck.plugins.hookspecs import hookimpl

if TYPE_CHECKING:
    from assetcheck.formats.fbx.model import FbxGeometry

#: A mesh with at least this share of its triangles collapsed in UV space is palette-textured
#: (each face samples one texel, as voxel and low-poly art does): deliberate, not reported.
PALETTE_SHARE = 0.9

TOPOLOGY_CODES = (
    "MESH_NON_MANIFOLD_EDGES",
    "MESH_INCONSISTENT_WINDING",
    "MESH_OPEN_BOUNDARY",
    "MESH_INSIDE_OUT",
    "MESH_SEPARATE_PIECES",
)
UV_CODES = (
    "MESH_UV_NOT_FINITE",
    "MESH_UV_ZERO_AREA",
    "MESH_LIGHTMAP_UV_OVERLAP",
    "MESH_LIGHTMAP_UV_OUTSIDE",
    "MESH_TEXEL_DENSITY_SPREAD",
)


@dataclass
class Surface:
    """One glTF primitive or FBX mesh: its prepared ``mesh`` and per vertex its normals and UV
    sets (by set number). ``textured_sets``: the UV sets its material samples textures with.
    ``fields`` name it in issues (``name``, and ``pointer`` in glTF)."""

    fields: dict[str, str]
    mesh: PreparedMesh
    normals: np.ndarray | None = None
    uv_sets: dict[int, np.ndarray] = field(default_factory=dict)
    textured_sets: tuple[int, ...] = ()
    #: Whether non-finite UVs are this check's to report (glTF leaves them to its own code).
    report_non_finite: bool = False


def check_topology(asset: Asset, context: CheckContext) -> None:
    rules = context.profile.mesh_rules
    found = surfaces(asset)
    topologies = prepared_topology([surface.mesh for surface in found])
    for surface, topology, verdict in zip(found, topologies, _inside_out(found), strict=True):
        issues, fields = context.issues, surface.fields
        if topology.non_manifold_edges:
            issues.add(
                "MESH_NON_MANIFOLD_EDGES",
                count=topology.non_manifold_edges,
                edges=topology.edges,
                **fields,
            )
        if topology.misoriented_edges:
            issues.add(
                "MESH_INCONSISTENT_WINDING",
                count=topology.misoriented_edges,
                edges=topology.edges,
                **fields,
            )
        if rules.closed_meshes and topology.boundary_edges:
            issues.add(
                "MESH_OPEN_BOUNDARY",
                count=topology.boundary_edges,
                edges=topology.edges,
                engine=context.profile.name,
                **fields,
            )
        if topology.pieces > 1:
            issues.add("MESH_SEPARATE_PIECES", count=topology.pieces, **fields)
        if verdict is not None:
            issues.add("MESH_INSIDE_OUT", count=verdict[0], total=verdict[1], **fields)


def _inside_out(found: list[Surface]) -> list[tuple[int, int] | None]:
    """The inside-out verdict of each surface (None for those without normals)."""
    judged = [
        (index, (surface.mesh.vertices, surface.normals, surface.mesh.corners))
        for index, surface in enumerate(found)
        if surface.normals is not None
    ]
    verdicts: list[tuple[int, int] | None] = [None] * len(found)
    for (index, _), verdict in zip(
        judged, meshes_inside_out([mesh for _, mesh in judged]), strict=True
    ):
        verdicts[index] = verdict
    return verdicts


def check_uvs(asset: Asset, context: CheckContext) -> None:
    rules = context.profile.mesh_rules
    issues = context.issues
    densities: list[UvFaults] = []
    for surface in surfaces(asset):
        for number, uvs in sorted(surface.uv_sets.items()):
            textured = number in surface.textured_sets
            if not textured and not surface.report_non_finite:
                continue
            faults = uv_triangle_faults(surface.mesh.vertices, uvs, surface.mesh.corners)
            label = {"uv_set": number, **surface.fields}
            if surface.report_non_finite and faults.non_finite:
                issues.add("MESH_UV_NOT_FINITE", count=faults.non_finite, total=len(uvs), **label)
            if textured and 0 < faults.zero_area < PALETTE_SHARE * faults.triangles:
                issues.add(
                    "MESH_UV_ZERO_AREA", count=faults.zero_area, total=faults.triangles, **label
                )
            if textured and number == min(surface.textured_sets):
                densities.append(faults)
        lightmap = surface.uv_sets.get(rules.lightmap_uv_set)
        if lightmap is not None:
            _check_lightmap(surface, rules.lightmap_uv_set, lightmap, issues)
    spread = density_spread(densities)
    if spread is not None and spread > rules.texel_density_spread:
        issues.add(
            "MESH_TEXEL_DENSITY_SPREAD",
            spread=f"{spread:.1f}",
            percentile=f"{DENSITY_PERCENTILE:g}",
            engine=context.profile.name,
            limit=f"{rules.texel_density_spread:g}",
        )


def _check_lightmap(surface: Surface, number: int, uvs: np.ndarray, issues: FileIssues) -> None:
    faults = lightmap_faults(uvs, surface.mesh.corners)
    label = {"uv_set": number, **surface.fields}
    if faults.outside:
        issues.add(
            "MESH_LIGHTMAP_UV_OUTSIDE", count=faults.outside, total=faults.triangles, **label
        )
    if faults.overlapped_cells:
        percent = 100 * faults.overlapped_cells / faults.covered_cells
        issues.add("MESH_LIGHTMAP_UV_OVERLAP", percent=f"{percent:.2g}", **label)


def surfaces(asset: Asset) -> list[Surface]:
    """The surfaces of a glTF, FBX, OBJ or USD asset (none for others or without usable
    geometry). Each check builds its own list, cheaply: the arrays in it are the format
    model's, computed once per asset for every check."""
    if asset.gltf is not None:
        return list(_gltf_surfaces(asset.gltf))
    if asset.fbx is not None:
        return list(_polygon_surfaces(asset, asset.fbx.meshes))
    if asset.obj is not None:
        return list(_polygon_surfaces(asset, asset.obj.meshes))
    if asset.usd is not None:
        return list(_polygon_surfaces(asset, asset.usd.meshes))
    return []


def _gltf_surfaces(document: GltfDocument) -> Iterator[Surface]:
    links, reader = document.links, document.reader
    for primitive in links.primitives:
        mesh = document.mesh(primitive).prepared
        if mesh is None:
            continue
        count = len(mesh.vertices)
        normals = _attribute(reader, primitive.attributes.get("NORMAL"), 3, count)
        uv_sets = {}
        for semantic, accessor in primitive.attributes.items():
            if semantic.startswith("TEXCOORD_") and semantic[9:].isdigit():
                uvs = _attribute(reader, accessor, 2, count)
                if uvs is not None:
                    uv_sets[int(semantic[9:])] = uvs
        needs = (
            links.materials[primitive.material]
            if primitive.material is not None and primitive.material < len(links.materials)
            else None
        )
        textured = tuple(sorted({n for n in needs.texcoords.values() if n >= 0})) if needs else ()
        yield Surface(
            {"pointer": primitive.pointer, "name": primitive_label(links, primitive)},
            mesh,
            normals,
            uv_sets,
            textured,
        )


def _attribute(
    reader: AccessorReader, accessor: int | None, width: int, count: int
) -> np.ndarray | None:
    """An attribute's values as floats when they are ``width`` wide, one per vertex."""
    if accessor is None:
        return None
    values = reader.normalized(accessor)
    if values is None or values.ndim != 2 or values.shape != (count, width):
        return None
    return values


class _PolygonMesh(Protocol):
    """An FBX, OBJ or USD mesh: its name, materials and polygon geometry."""

    name: str
    geometry: FbxGeometry | None

    @property
    def materials(self) -> list[str]: ...


def _polygon_surfaces(asset: Asset, meshes: Sequence[_PolygonMesh]) -> Iterator[Surface]:
    """FBX, OBJ and USD meshes, one vertex per polygon corner (normals and UVs are per corner)."""
    textured_materials = {m.name for m in asset.materials if m.texture_count}
    for mesh in meshes:
        geometry = mesh.geometry
        if geometry is None or not len(geometry.corners):
            continue
        prepared = geometry.corner_mesh
        if not len(prepared.triangles):
            continue
        normals = None if geometry.normals is None else geometry.normals.per_corner
        uv_sets = {} if geometry.uvs is None else {0: geometry.uvs.per_corner}
        textured = (0,) if uv_sets and textured_materials & set(mesh.materials) else ()
        yield Surface(
            {"name": mesh.name},
            prepared,
            normals,
            uv_sets,
            textured,
            report_non_finite=True,
        )


@hookimpl
def register_checks() -> list[Check]:
    return [
        Check(
            "mesh-topology",
            "Non-manifold edges, inconsistent winding, open meshes (where "
            "the profile expects closed ones), inside-out normals and separate pieces.",
            check_topology,
            TOPOLOGY_CODES,
        ),
        Check(
            "mesh-uvs",
            "UVs that are not finite or have zero area, lightmap UVs that "
            "overlap or leave the unit square, and uneven texel density.",
            check_uvs,
            UV_CODES,
        ),
    ]
