"""The world-space bounding box of a glTF document's drawn meshes, in metres (glTF's unit).

It comes from the POSITION accessors' ``min``/``max`` (JSON, no vertex data) carried through the
node transforms, so it costs microseconds. A skinned mesh is placed as skinning places it in
the bind pose: its first joint's world matrix times that joint's inverse bind matrix.
"""

from __future__ import annotations

import numpy as np

from assetcheck.formats.gltf.accessor_data import COMPONENT_DTYPES, FLOAT
from assetcheck.formats.gltf.links import DocumentLinks, index_list, index_of, resolve
from assetcheck.formats.gltf.node_transforms import _numbers
from assetcheck.mesh.bounds import Box, corners, placed_box


def drawn_mesh(links: DocumentLinks, node: dict | None) -> int | None:
    """The mesh ``node`` draws, when it names one the document has."""
    mesh = index_of(node, "mesh")
    return mesh if mesh is not None and mesh < len(links.items("meshes")) else None


def scene_box(links: DocumentLinks, world: dict[int, np.ndarray]) -> Box | None:
    """The box around every drawn mesh placed by ``world`` (each node's world matrix), or None
    when nothing drawn has usable bounds (or they are flat to a point)."""
    boxes = _mesh_boxes(links)
    nodes = links.items("nodes")
    transforms, placed = [], []
    for index, matrix in world.items():
        mesh = drawn_mesh(links, nodes[index])
        if mesh in boxes:
            skin = index_of(nodes[index], "skin")
            transforms.append(matrix if skin is None else _bind_transform(links, skin, world))
            placed.append(boxes[mesh])
    return placed_box(transforms, placed)


def _mesh_boxes(links: DocumentLinks) -> dict[int, np.ndarray]:
    """Each mesh's bounding box as its 8 corners in homogeneous coordinates, ``(8, 4)``."""
    bounds: dict[int, tuple[np.ndarray, np.ndarray]] = {}
    for primitive in links.primitives:
        found = _position_bounds(links, primitive.attributes.get("POSITION"))
        if found is None:
            continue
        low, high = found
        if primitive.mesh in bounds:
            known_low, known_high = bounds[primitive.mesh]
            low, high = np.minimum(low, known_low), np.maximum(high, known_high)
        bounds[primitive.mesh] = (low, high)
    return {mesh: corners(low, high) for mesh, (low, high) in bounds.items()}


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
) -> tuple[np.ndarray, np.ndarray] | None:
    """A POSITION accessor's declared ``min`` and ``max``, dequantized when normalized."""
    layout = links.layout(accessor)
    json = resolve(accessor, links.items("accessors"))
    if layout is None or json is None:
        return None
    low, high = _numbers(json.get("min"), 3), _numbers(json.get("max"), 3)
    if low is None or high is None:
        return None
    if layout.normalized and layout.component_type != FLOAT:
        largest = np.iinfo(COMPONENT_DTYPES[layout.component_type]).max
        return np.maximum(np.array(low) / largest, -1.0), np.maximum(np.array(high) / largest, -1.0)
    return np.array(low), np.array(high)
