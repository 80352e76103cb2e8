"""Transforms and scale: mirrored nodes, models of an absurd size, unusual FBX units and axes.

For glTF the size is the world-space bounding box of every drawn mesh, from the POSITION
accessors' ``min``/``max`` (JSON, no vertex data) carried through the node transforms, so it
costs microseconds. For FBX it is the bounding box of each decoded geometry carried through the
transforms of the nodes that draw it and the file's unit (so it is in metres); a mirrored FBX
node is one whose transform, geometric transform included, has a negative determinant. The
file's unit and axis system, which engines must convert on import, are reported too.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

from assetcheck.asset import Asset
from assetcheck.checks import Check, CheckContext
from assetcheck.formats.gltf.accessor_data import COMPONENT_DTYPES, FLOAT
from assetcheck.formats.gltf.links import (
    DocumentLinks,
    index_list,
    index_of,
    resolve,
)
from assetcheck.formats.gltf.node_transforms import (
    _numbers,
    world_matrices,
)
from assetcheck.plugins.hookspecs import hookimpl

if TYPE_CHECKING:
    from assetcheck.formats.fbx.model import FbxAxes, FbxScene

#: Sizes (largest side of the bounding box, in metres) beyond which a model is in the wrong
#: unit: a millimetre-scale export of anything over a metre passes a kilometre, and under a
#: tenth of a millimetre nothing is visible at the near planes engines use.
LARGEST_SIZE = 1000.0
SMALLEST_SIZE = 0.0001
#: FBX units (metres per unit) engines expect: centimetres (FBX's own) and metres.
USUAL_UNITS = (0.01, 1.0)
UNIT_NAMES = {
    0.001: "millimetres",
    0.01: "centimetres",
    0.0254: "inches",
    0.1: "decimetres",
    0.3048: "feet",
    0.9144: "yards",
    1.0: "metres",
    1000.0: "kilometres",
    1609.344: "miles",
}
USUAL_UP_AXES = frozenset({"+Y", "+Z"})
_LENGTH_UNITS = (("km", 1000.0), ("m", 1.0), ("cm", 0.01))

CODES = (
    "NODE_NEGATIVE_SCALE",
    "MODEL_EXTREMELY_LARGE",
    "MODEL_EXTREMELY_SMALL",
    "FBX_UNUSUAL_UNIT",
    "FBX_UNUSUAL_AXES",
)


def describe_length(meters: float) -> str:
    """``meters`` in the unit that reads best: ``1.8 km``, ``2.5 m``, ``4 cm``, ``0.05 mm``."""
    for unit, size in _LENGTH_UNITS:
        if meters >= size:
            return f"{meters / size:.3g} {unit}"
    return f"{meters * 1000:.2g} mm"


def check_transforms(asset: Asset, context: CheckContext) -> None:
    if asset.gltf is not None:
        _check_gltf(asset.gltf.links, context)
    elif asset.fbx is not None:
        _check_fbx_nodes(asset.fbx, context)
        _check_fbx_unit(asset.fbx.unit_meters, context)
        _check_fbx_axes(asset.fbx.axes, context)


def _check_gltf(links: DocumentLinks, context: CheckContext) -> None:
    world = world_matrices(links)
    nodes = links.items("nodes")
    drawn = [
        (index, node)
        for index in sorted(world)
        if (node := nodes[index]) is not None
        and _mesh(links, node) is not None
        and index_of(node, "skin") is None
    ]
    determinants = (
        np.linalg.det(np.array([world[index][:3, :3] for index, _ in drawn])) if drawn else []
    )
    for (index, node), determinant in zip(drawn, determinants, strict=True):
        if determinant < 0:
            name = node.get("name")
            context.issues.add(
                "NODE_NEGATIVE_SCALE",
                pointer=f"/nodes/{index}",
                name=name if isinstance(name, str) and name else f"{index}",
            )
    _check_size(model_size(links, world), context)


def _check_size(size: float | None, context: CheckContext) -> None:
    """MODEL_EXTREMELY_LARGE or _SMALL for a model ``size`` metres across (None: unknown)."""
    if size is None:
        return
    if size > LARGEST_SIZE:
        context.issues.add(
            "MODEL_EXTREMELY_LARGE", size=describe_length(size), limit=describe_length(LARGEST_SIZE)
        )
    elif size < SMALLEST_SIZE:
        context.issues.add(
            "MODEL_EXTREMELY_SMALL",
            size=describe_length(size),
            limit=describe_length(SMALLEST_SIZE),
        )


def _mesh(links: DocumentLinks, node: dict | None) -> int | None:
    mesh = index_of(node, "mesh")
    return mesh if mesh is not None and mesh < len(links.items("meshes")) else None


def model_size(links: DocumentLinks, world: dict[int, np.ndarray]) -> float | None:
    """The largest side of the world-space bounding box of every drawn mesh, or None when
    nothing drawn has usable bounds (or they are flat to a point)."""
    boxes = _mesh_boxes(links)
    nodes = links.items("nodes")
    transforms, corners = [], []
    for index, matrix in world.items():
        mesh = _mesh(links, nodes[index])
        if mesh in boxes:
            # A skinned mesh follows its joints: in the bind pose, joint world x inverse bind.
            skin = index_of(nodes[index], "skin")
            transforms.append(matrix if skin is None else _bind_transform(links, skin, world))
            corners.append(boxes[mesh])
    return _placed_size(transforms, corners)


def _placed_size(transforms: list[np.ndarray], corners: list[np.ndarray]) -> float | None:
    """The largest side of the bounding box of boxes (``(8, 4)`` corners each) placed by their
    4x4 transforms; None when it is not finite or flat to a point."""
    if not corners:
        return None
    placed = np.einsum("kij,kcj->kci", np.array(transforms), np.array(corners))[..., :3]
    with np.errstate(invalid="ignore"):
        size = float(np.max(placed.max(axis=(0, 1)) - placed.min(axis=(0, 1))))
    return size if math.isfinite(size) and size > 0 else None


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
    return {mesh: _box(low, high) for mesh, (low, high) in bounds.items()}


def _box(low: np.ndarray, high: np.ndarray) -> np.ndarray:
    """A bounding box's 8 corners in homogeneous coordinates, ``(8, 4)``."""
    return np.array(
        [
            [x, y, z, 1.0]
            for x in (low[0], high[0])
            for y in (low[1], high[1])
            for z in (low[2], high[2])
        ]
    )


def _bind_transform(
    links: DocumentLinks,
    skin: int,
    world: dict[int, np.ndarray],
) -> np.ndarray:
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
    links: DocumentLinks,
    accessor: int | None,
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


def _check_fbx_nodes(scene: FbxScene, context: CheckContext) -> None:
    """Mirrored mesh nodes, and the size of everything drawn, in metres."""
    to_metres = scene.to_metres_y_up()
    transforms, corners = [], []
    for mesh in scene.meshes:
        for instance in mesh.instances:
            if instance.mirrored:
                context.issues.add("NODE_NEGATIVE_SCALE", name=instance.node)
        positions = mesh.geometry.positions if mesh.geometry is not None else None
        if positions is None or not len(positions):
            continue
        with np.errstate(invalid="ignore"):
            box = _box(np.nanmin(positions, axis=0), np.nanmax(positions, axis=0))
        for instance in mesh.instances:
            transforms.append(to_metres @ instance.geometry_to_world)
            corners.append(box)
    _check_size(_placed_size(transforms, corners), context)


def _check_fbx_unit(meters: float | None, context: CheckContext) -> None:
    if not meters or meters <= 0 or any(math.isclose(meters, u) for u in USUAL_UNITS):
        return
    name = next(
        (n for size, n in UNIT_NAMES.items() if math.isclose(meters, size)),
        f"units of {meters:g} m",
    )
    context.issues.add("FBX_UNUSUAL_UNIT", unit=name)


def _check_fbx_axes(axes: FbxAxes, context: CheckContext) -> None:
    if not axes.known:
        return  # unknown: old files without an axis system
    if axes.right_handed and axes.up in USUAL_UP_AXES:
        return
    system = f"{axes.up} up" if axes.right_handed else "left-handed"
    context.issues.add(
        "FBX_UNUSUAL_AXES", system=system, right=axes.right, up=axes.up, front=axes.front
    )


@hookimpl
def register_checks() -> list[Check]:
    return [
        Check(
            "transforms-and-scale",
            "Mirrored nodes, models of an absurd size, and FBX "
            "units and axis systems engines must convert.",
            check_transforms,
            CODES,
        )
    ]
