"""glTF node transforms: each node's local matrix and every node's world matrix."""

from __future__ import annotations

import math

import numpy as np

from assetcheck.formats.gltf.fields import is_number
from assetcheck.formats.gltf.links import DocumentLinks

#: What json.loads gives for numbers: the fast path of :func:`_numbers`.
_JSON_NUMBERS = frozenset({float, int})
#: The keys of a node's local transform: a node with none of them is placed at its parent.
_TRANSFORM_KEYS = frozenset({"matrix", "translation", "rotation", "scale"})


def local_matrix(node: dict) -> np.ndarray:
    """A node's 4x4 local transform from ``matrix`` or translation, rotation and scale
    (unusable values count as their defaults).

    The rotation matrix times the scale is computed in Python floats, which are numpy's
    doubles: one array built at the end (from a flat list, which numpy reads faster than
    nested ones) instead of numpy arithmetic on 3x3 arrays."""
    matrix = _numbers(node.get("matrix"), 16)
    if matrix is not None:
        return np.array(matrix).reshape(4, 4).T  # glTF stores matrices column by column
    x, y, z, w = _numbers(node.get("rotation"), 4) or (0.0, 0.0, 0.0, 1.0)
    sx, sy, sz = _numbers(node.get("scale"), 3) or (1.0, 1.0, 1.0)
    tx, ty, tz = _numbers(node.get("translation"), 3) or (0.0, 0.0, 0.0)
    rows = [
        (1 - 2 * (y * y + z * z)) * sx,
        2 * (x * y - z * w) * sy,
        2 * (x * z + y * w) * sz,
        tx,
        2 * (x * y + z * w) * sx,
        (1 - 2 * (x * x + z * z)) * sy,
        2 * (y * z - x * w) * sz,
        ty,
        2 * (x * z - y * w) * sx,
        2 * (y * z + x * w) * sy,
        (1 - 2 * (x * x + y * y)) * sz,
        tz,
        0.0,
        0.0,
        0.0,
        1.0,
    ]
    return np.array(rows).reshape(4, 4)


def world_matrices(links: DocumentLinks) -> dict[int, np.ndarray]:
    """The world transform of every node reachable from a root (a node without a parent).

    One depth-first pass: each node is placed once, from its parent's matrix. A node without
    a local transform shares its parent's matrix object, so the matrices are read-only.
    """
    nodes = links.items("nodes")
    world: dict[int, np.ndarray] = {}
    identity = np.eye(4)
    stack = [
        (index, identity)
        for index, node in enumerate(nodes)
        if node is not None and index not in links.parents
    ]
    while stack:
        index, parent = stack.pop()
        if index in world:  # a node loop: the node checks report it
            continue
        node = nodes[index]
        if node is not None and _TRANSFORM_KEYS & node.keys():
            world[index] = parent @ local_matrix(node)
        else:
            world[index] = parent
        stack.extend((kid, world[index]) for kid in links.children.get(index, ()))
    return world


def _numbers(value: object, length: int) -> list[float] | None:
    """``value`` as a list of ``length`` finite floats, or None."""
    if not isinstance(value, list) or len(value) != length:
        return None
    if not (set(map(type, value)) <= _JSON_NUMBERS or all(map(is_number, value))):
        return None
    floats = list(map(float, value))
    return floats if all(map(math.isfinite, floats)) else None
