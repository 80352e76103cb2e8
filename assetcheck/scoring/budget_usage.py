"""Measuring a model file against the engine budgets: one number per budget of ``Budgets``.

``measure(asset)`` reads what the reader kept (the glTF JSON, the FBX scene facts) and, for
bone influences, the glTF document's skin weights and the FBX skin clusters (read once,
shared with the skin checks).
The budget check compares these numbers with the profile, and the report shows them as
"used / limit".
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from assetcheck.asset import Asset

if TYPE_CHECKING:
    from assetcheck.formats.fbx.model import FbxMesh
    from assetcheck.formats.gltf.model import GltfDocument

MB = 1_000_000
UNSIGNED_INT = 5125
#: Vertex attributes that hold four bone influences each.
JOINT_PREFIX = "JOINTS_"
TEXCOORD_PREFIX = "TEXCOORD_"


def measure(asset: Asset) -> dict[str, int | float | bool]:
    """What ``asset`` uses of each budget (``index_32bit``: whether it uses 32-bit indices)."""
    metrics: dict[str, int | float | bool] = {
        "triangles_per_file": asset.triangle_count,
        "triangles_per_mesh": max((part.triangle_count for part in asset.parts), default=0),
        "materials": asset.material_count,
        "texture_size": max((max(t.width or 0, t.height or 0) for t in asset.textures), default=0),
        "file_size_mb": round(asset.byte_size / MB, 2),
    }
    if asset.document is not None:
        metrics.update(_gltf_metrics(asset.document))
        if asset.gltf is not None:
            metrics["influences_per_vertex"] = most_influences(asset.gltf)
    elif asset.fbx is not None:
        metrics.update(_fbx_metrics(asset.fbx.meshes))
    return metrics


def _gltf_metrics(document: dict[str, Any]) -> dict[str, int | bool]:
    meshes = _objects(document.get("meshes"))
    primitives = [list(_objects(mesh.get("primitives"))) for mesh in meshes]
    attribute_sets = [_attributes(p) for prims in primitives for p in prims]
    accessors = list(_objects(document.get("accessors"), keep_gaps=True))
    return {
        "draw_calls": _gltf_draw_calls(document, [len(prims) for prims in primitives]),
        "uv_sets": max((_count_prefixed(a, TEXCOORD_PREFIX) for a in attribute_sets), default=0),
        "influences_per_vertex": 4
        * max((_count_prefixed(a, JOINT_PREFIX) for a in attribute_sets), default=0),
        "bones": max(
            (
                len(joints)
                for s in _objects(document.get("skins"))
                if isinstance(joints := s.get("joints"), list)
            ),
            default=0,
        ),
        "index_32bit": any(
            _component_type(accessors, p.get("indices")) == UNSIGNED_INT
            for prims in primitives
            for p in prims
        ),
    }


def most_influences(document: GltfDocument) -> int:
    """The most bones any vertex is influenced by (its non-zero weights), over every primitive
    whose joints and weights can be read."""
    counts = (document.influences(primitive) for primitive in document.links.primitives)
    return max((int(found.counts.max(initial=0)) for found in counts if found), default=0)


def _gltf_draw_calls(document: dict[str, Any], primitives_per_mesh: list[int]) -> int:
    """One draw call per primitive of every node that instances a mesh; with no such node,
    one per primitive of every mesh."""
    instanced = [
        node["mesh"]
        for node in _objects(document.get("nodes"))
        if isinstance(node.get("mesh"), int) and 0 <= node["mesh"] < len(primitives_per_mesh)
    ]
    if not instanced:
        return sum(primitives_per_mesh)
    return sum(primitives_per_mesh[mesh] for mesh in instanced)


def _fbx_metrics(meshes: list[FbxMesh]) -> dict[str, int | bool]:
    return {
        # FBX splits a mesh into one draw call per material it uses.
        "draw_calls": sum(max(1, len(mesh.materials)) for mesh in meshes),
        "uv_sets": max((_fbx_uv_sets(mesh) for mesh in meshes), default=0),
        # The skin clusters' non-zero weights per control point (read from the node tree).
        "influences_per_vertex": max(
            (int(mesh.skin.influences.max(initial=0)) for mesh in meshes if mesh.skin), default=0
        ),
        "bones": max((mesh.bones for mesh in meshes), default=0),
        # ufbx hands out 32-bit indices; an engine needs them once a mesh passes 65,535 vertices.
        "index_32bit": any(mesh.vertices > 0xFFFF for mesh in meshes),
    }


def _fbx_uv_sets(mesh: FbxMesh) -> int:
    """The mesh's UV sets as its geometry's nodes count them; else whether it has any."""
    return mesh.uv_sets if mesh.uv_sets is not None else int(mesh.has_uvs)


def _objects(value: Any, keep_gaps: bool = False) -> Iterator[dict[str, Any]]:
    """The dict elements of a JSON array (malformed elements skipped, or as {} with keep_gaps)."""
    if not isinstance(value, list):
        return
    for element in value:
        if isinstance(element, dict):
            yield element
        elif keep_gaps:
            yield {}


def _attributes(primitive: dict[str, Any]) -> dict[str, Any]:
    attributes = primitive.get("attributes")
    return attributes if isinstance(attributes, dict) else {}


def _count_prefixed(attributes: dict[str, Any], prefix: str) -> int:
    return sum(1 for name in attributes if name.startswith(prefix))


def _component_type(accessors: list[dict[str, Any]], index: Any) -> Any:
    if isinstance(index, int) and not isinstance(index, bool) and 0 <= index < len(accessors):
        return accessors[index].get("componentType")
    return None
