"""What quantization, meshopt and Draco would make of a glTF's uncompressed geometry, estimated
(``docs/statistics.md``, "Estimated savings"). Nothing is encoded: the figures follow from the
accessors' counts and types, so they cost nothing to compute.

- **Quantization** (``KHR_mesh_quantization``): float positions to 16-bit, normals and
  tangents to 8-bit, texture coordinates to 16-bit, each vertex attribute padded to 4 bytes as
  glTF requires. Exact arithmetic; an estimate because the precision it keeps may not suit
  every model.
- **meshopt** (``EXT_meshopt_compression``) on the quantized data: vertex data 1.5 times
  smaller (the low end of the 1.5-2x meshoptimizer's release notes give for quantized vertex
  data) and 4 bits per index (the high end of their 3-4 bits), before any general-purpose
  compression.
- **Draco** (``KHR_draco_mesh_compression``): :data:`DRACO_RATIO` of the quantized vertices
  with 32-bit indices, the ratio meshoptimizer's author measured for Draco's default settings.
"""

from __future__ import annotations

import math

from assetcheck.asset.memory import Saving
from assetcheck.formats.gltf.accessor_data import FLOAT
from assetcheck.formats.gltf.compression import MESHOPT_EXTENSIONS
from assetcheck.formats.gltf.links import DocumentLinks

#: What reads an accessor: (category, attribute or "", item name).
Label = tuple[str, str, str]

#: Bytes per vertex of each float attribute once quantized (semantic family, accessor type).
QUANTIZED_BYTES = {
    ("POSITION", "VEC3"): 8,  # 3 x 16-bit, padded to 4 bytes
    ("NORMAL", "VEC3"): 4,  # 3 x 8-bit, padded
    ("TANGENT", "VEC4"): 4,  # 4 x 8-bit
    ("TEXCOORD", "VEC2"): 4,  # 2 x 16-bit
}
#: meshoptimizer v0.8 release notes (github.com/zeux/meshoptimizer/releases/tag/v0.8): the
#: vertex codec "typically provides 1.5-2x compression ratio for quantized vertex data", the
#: index codec "typically encodes index buffers using ~3-4 bits per index".
MESHOPT_VERTEX_RATIO = 1.5
MESHOPT_BITS_PER_INDEX = 4
#: Draco (default settings) against quantized vertices and 32-bit indices on nyra.obj:
#: 99,085 of 550,812 bytes (gist.github.com/zeux/b48678a44944187c16f55ad6cca45e78).
DRACO_RATIO = 99_085 / 550_812
INDEX_BYTES = 4


def geometry_savings(links: DocumentLinks, labels: dict[int, Label]) -> list[Saving]:
    """The estimated savings on the vertex attributes and indices stored uncompressed (not in
    a Draco payload nor a meshopt view), ``labels`` saying what reads each accessor
    (:func:`~assetcheck.formats.gltf.byte_usage.accessor_labels`); none without any."""
    views = links.items("bufferViews")
    vertices = quantized = indices = index_count = 0
    for accessor, (category, attribute, _) in labels.items():
        layout = links.layout(accessor)
        if layout is None or layout.buffer_view is None or _meshopt(views, layout.buffer_view):
            continue
        size = layout.count * layout.element_length
        if category == "geometry":
            family = attribute.split("_")[0]
            per_vertex = QUANTIZED_BYTES.get((family, layout.type))
            vertices += size
            quantized += (
                layout.count * per_vertex if per_vertex and layout.component_type == FLOAT else size
            )
        elif category == "indices":
            indices += size
            index_count += layout.count
    if not vertices:
        return []
    savings = []
    if quantized < vertices:
        savings.append(Saving("quantization", "vertex attributes", vertices, quantized))
    meshopt = math.ceil(quantized / MESHOPT_VERTEX_RATIO + index_count * MESHOPT_BITS_PER_INDEX / 8)
    draco = math.ceil(DRACO_RATIO * (quantized + index_count * INDEX_BYTES))
    now = vertices + indices
    savings.append(Saving("meshopt", "vertex attributes and indices", now, meshopt))
    savings.append(Saving("draco", "vertex attributes and indices", now, draco))
    return savings


def _meshopt(views: list[dict | None], index: int) -> bool:
    view = views[index] if index < len(views) else None
    extensions = view.get("extensions") if view is not None else None
    return isinstance(extensions, dict) and any(name in extensions for name in MESHOPT_EXTENSIONS)
