"""FBX node transforms: the FBX SDK's transform stack, evaluated from a ``Model`` node's
properties, in the file's units and axes.

A node's transform relative to its parent is (rightmost applied first)::

    T * Roff * Rp * Rpre * R * Rpost^-1 * Rp^-1 * Soff * Sp * S * Sp^-1

with ``T`` = ``Lcl Translation``, ``R`` = ``Lcl Rotation`` (Euler angles in degrees, in the
node's ``RotationOrder``), ``S`` = ``Lcl Scaling``, ``Rpre``/``Rpost`` = ``PreRotation`` and
``PostRotation`` (always XYZ), ``Roff``/``Rp`` the rotation offset and pivot, ``Soff``/``Sp`` the
scaling offset and pivot. The geometric transform (``GeometricTranslation``, ``Rotation`` and
``Scaling``) applies to the node's own geometry only, after everything else, and is not
inherited. Parents combine by plain matrix products (the SDK's default inheritance, ``RSrs``).
"""

from __future__ import annotations

import numpy as np

from assetcheck.formats.fbx.tree import FbxNode

#: The axis order of each ``RotationOrder`` value: the first axis is applied first.
ROTATION_ORDERS = ("XYZ", "XZY", "YZX", "YXZ", "ZXY", "ZYX", "XYZ")

_VECTORS = {
    "Lcl Translation": 0.0,
    "Lcl Rotation": 0.0,
    "Lcl Scaling": 1.0,
    "PreRotation": 0.0,
    "PostRotation": 0.0,
    "RotationOffset": 0.0,
    "RotationPivot": 0.0,
    "ScalingOffset": 0.0,
    "ScalingPivot": 0.0,
    "GeometricTranslation": 0.0,
    "GeometricRotation": 0.0,
    "GeometricScaling": 1.0,
}


def model_properties(model: FbxNode) -> dict[str, list[float]]:
    """The numeric values of each property of a ``Model`` (``Properties70`` or ``60``)."""
    found: dict[str, list[float]] = {}
    for block, row, first in (("Properties70", "P", 4), ("Properties60", "Property", 3)):
        container = model.child(block)
        if container is None:
            continue
        for prop in container.children_named(row):
            if prop.props and isinstance(prop.props[0], str):
                found[prop.props[0]] = [
                    float(v) for v in prop.props[first:] if isinstance(v, int | float)
                ]
    return found


def local_matrix(props: dict[str, list[float]]) -> np.ndarray:
    """The node's transform relative to its parent (4x4)."""
    v = {name: _vector(props, name, default) for name, default in _VECTORS.items()}
    order = _rotation_order(props)
    rotation_pivot, scaling_pivot = (
        _translation(v["RotationPivot"]),
        _translation(v["ScalingPivot"]),
    )
    return (
        _translation(v["Lcl Translation"])
        @ _translation(v["RotationOffset"])
        @ rotation_pivot
        @ euler(v["PreRotation"], "XYZ")
        @ euler(v["Lcl Rotation"], order)
        @ np.linalg.inv(euler(v["PostRotation"], "XYZ"))
        @ np.linalg.inv(rotation_pivot)
        @ _translation(v["ScalingOffset"])
        @ scaling_pivot
        @ _scaling(v["Lcl Scaling"])
        @ np.linalg.inv(scaling_pivot)
    )


def geometric_matrix(props: dict[str, list[float]]) -> np.ndarray:
    """The geometric transform: from the geometry's coordinates to the node's."""
    return (
        _translation(_vector(props, "GeometricTranslation", 0.0))
        @ euler(_vector(props, "GeometricRotation", 0.0), "XYZ")
        @ _scaling(_vector(props, "GeometricScaling", 1.0))
    )


def euler(degrees: np.ndarray, order: str) -> np.ndarray:
    """The 4x4 rotation of Euler angles (degrees about X, Y, Z) applied in ``order``."""
    matrix = np.eye(4)
    for axis in order:
        matrix = _axis_rotation("XYZ".index(axis), degrees["XYZ".index(axis)]) @ matrix
    return matrix


def _axis_rotation(axis: int, degrees: float) -> np.ndarray:
    radians = np.radians(degrees)
    cos, sin = np.cos(radians), np.sin(radians)
    a, b = [(1, 2), (2, 0), (0, 1)][axis]
    matrix = np.eye(4)
    matrix[a, a] = matrix[b, b] = cos
    matrix[a, b], matrix[b, a] = -sin, sin
    return matrix


def _vector(props: dict[str, list[float]], name: str, default: float) -> np.ndarray:
    values = props.get(name, [])
    vector = np.array(values[:3] if len(values) >= 3 else [default] * 3, dtype=np.float64)
    return vector if np.all(np.isfinite(vector)) else np.full(3, default)


def _rotation_order(props: dict[str, list[float]]) -> str:
    value = props.get("RotationOrder", [0.0])
    index = int(value[0]) if value and 0 <= value[0] < len(ROTATION_ORDERS) else 0
    return ROTATION_ORDERS[index]


def _translation(vector: np.ndarray) -> np.ndarray:
    matrix = np.eye(4)
    matrix[:3, 3] = vector
    return matrix


def _scaling(vector: np.ndarray) -> np.ndarray:
    return np.diag([*vector, 1.0])
