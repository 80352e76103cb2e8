"""glTF primitives as triangle meshes: the modes that draw triangles, a primitive's label, and
its positions hashed once per asset."""

from __future__ import annotations

from assetcheck.asset import Asset
from assetcheck.formats.gltf.accessor_data import asset_cache
from assetcheck.formats.gltf.links import DocumentLinks, Primitive
from assetcheck.mesh.faults import Vertices

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


def gltf_vertices(asset: Asset, links: DocumentLinks, accessor: int) -> Vertices | None:
    """The positions of POSITION accessor ``accessor``, hashed once per asset for every check;
    None when they cannot be read as 3D points."""

    def build() -> Vertices | None:
        positions = links.reader.normalized(accessor)
        if positions is None or positions.ndim != 2 or positions.shape[1] != 3:
            return None
        return Vertices.of(positions)

    return asset_cache(asset, f"vertices:{accessor}", build)
