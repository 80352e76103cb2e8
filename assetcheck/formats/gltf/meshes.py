"""glTF primitives as triangle meshes: the modes that draw triangles and a primitive's label."""

from __future__ import annotations

from assetcheck.formats.gltf.links import DocumentLinks, Primitive

TRIANGLE_MODES = frozenset({4, 5, 6})


def primitive_label(links: DocumentLinks, primitive: Primitive) -> str:
    """The mesh's name, and the primitive's number when the mesh has several."""
    mesh = links.items("meshes")[primitive.mesh] or {}
    name = mesh.get("name")
    label = name if isinstance(name, str) and name else f"mesh {primitive.mesh}"
    primitives = mesh.get("primitives")
    if isinstance(primitives, list) and len(primitives) > 1:
        label += f", primitive {primitive.number}"
    return label
