"""The world-space bounding box of a glTF document's drawn meshes, in metres (glTF's unit).

It comes from the POSITION accessors' ``min``/``max`` (JSON, no vertex data) carried through the
node transforms, so it costs microseconds. A skinned mesh is placed as skinning places it in
the bind pose: its first joint's world matrix times that joint's inverse bind matrix.
``GltfDocument.scene_box`` keeps it for the checks that ask.
"""

from __future__ import annotations

import numpy as np

from assetcheck.formats.gltf.accessor_data import FLOAT, INTEGER_RANGES
from assetcheck.formats.gltf.links import DocumentLinks, index_list, index_of, resolve
from assetcheck.formats.gltf.node_transforms import _numbers
from assetcheck.mesh.bounds import Box, placed_box

#: Which corner of a box takes the high coordinate on each axis, in the order of
#: :func:`assetcheck.mesh.bounds.corners` (x, then y, then z).
_HIGH_CORNERS = np.array([[x, y, z] for x in (0, 1) for y in (0, 1) for z in (0, 1)], dtype=bool)


def drawn_mesh(links: DocumentLinks, node: dict | None) -> int | None:
    """The mesh ``node`` draws, when it names one the document has."""
    mesh = index_of(node, "mesh")
    return mesh if mesh is not None and mesh < len(links.items("meshes")) else None


def scene_box(links: DocumentLinks, world: dict[int, np.ndarray]) -> Box | None:
    """The box around every drawn mesh placed by ``world`` (each node's world matrix), or None
    when nothing drawn has usable bounds (or they are flat to a point)."""
    rows, boxes = _mesh_boxes(links)
    nodes = links.items("nodes")
    transforms, placed = [], []
    for index, matrix in world.items():
        mesh = drawn_mesh(links, nodes[index])
        row = rows.get(mesh) if mesh is not None else None
        if row is not None:
            skin = index_of(nodes[index], "skin")
            transforms.append(matrix if skin is None else _bind_transform(links, skin, world))
            placed.append(row)
    return placed_box(transforms, [boxes[row] for row in placed])


def _mesh_boxes(links: DocumentLinks) -> tuple[dict[int, int], np.ndarray]:
    """Each mesh's bounding box as its 8 corners in homogeneous coordinates: the row of each
    mesh that has one, and the ``(meshes, 8, 4)`` corners (those of
    :func:`assetcheck.mesh.bounds.corners`, built at once)."""
    bounds: dict[int, tuple[list[float], list[float]]] = {}
    for primitive in links.primitives:
        found = _position_bounds(links, primitive.attributes.get("POSITION"))
        if found is None:
            continue
        low, high = found
        if primitive.mesh in bounds:  # on a tie min and max keep the known value, as numpy did
            known_low, known_high = bounds[primitive.mesh]
            low = [min(known, new) for known, new in zip(known_low, low, strict=True)]
            high = [max(known, new) for known, new in zip(known_high, high, strict=True)]
        bounds[primitive.mesh] = (low, high)
    lows = np.array([low for low, _ in bounds.values()]).reshape(-1, 1, 3)
    highs = np.array([high for _, high in bounds.values()]).reshape(-1, 1, 3)
    boxes = np.ones((len(bounds), 8, 4))
    boxes[:, :, :3] = np.where(_HIGH_CORNERS, highs, lows)
    return {mesh: row for row, mesh in enumerate(bounds)}, boxes


def _bind_transform(links: DocumentLinks, skin: int, world: dict[int, np.ndarray]) -> np.ndarray:
    skins = links.items("skins")
    joints = index_list(skins[skin], "joints") if skin < len(skins) and skins[skin] else []
    if not joints or joints[0] not in world:
        return np.eye(4)
    inverse_bind = np.eye(4)
    accessor = index_of(skins[skin], "inverseBindMatrices")
    matrices = links.reader.read(accessor) if accessor is not None else None
    if matrices is not None and matrices.shape[1] == 16:
        inverse_bind = matrices[0].astype(float).reshape(4, 4).T
    return world[joints[0]] @ inverse_bind


def _position_bounds(
    links: DocumentLinks, accessor: int | None
) -> tuple[list[float], list[float]] | None:
    """A POSITION accessor's declared ``min`` and ``max``, dequantized when normalized."""
    layout = links.layout(accessor)
    json = resolve(accessor, links.items("accessors"))
    if layout is None or json is None:
        return None
    low, high = _numbers(json.get("min"), 3), _numbers(json.get("max"), 3)
    if low is None or high is None:
        return None
    if layout.normalized and layout.component_type != FLOAT:
        largest = INTEGER_RANGES[layout.component_type][1]
        return [max(v / largest, -1.0) for v in low], [max(v / largest, -1.0) for v in high]
    return low, high
