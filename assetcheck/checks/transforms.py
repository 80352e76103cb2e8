"""Transforms: mirrored nodes, and FBX units and axes that engines must convert.

A mirrored glTF node is a drawn, unskinned node whose world matrix has a negative determinant;
a mirrored FBX node one whose transform, geometric transform included, has. The file's unit and
axis system are reported when they are unusual, and so is an FBX whose exporter put the unit
or axis conversion on every node instead of into the geometry (``docs/scale.md``).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

from assetcheck.asset import Asset
from assetcheck.checks import Check, CheckContext
from assetcheck.formats.gltf.links import DocumentLinks, index_of
from assetcheck.formats.gltf.scene_bounds import drawn_mesh
from assetcheck.plugins.hookspecs import hookimpl

if TYPE_CHECKING:
    from assetcheck.formats.fbx.model import FbxAxes, FbxScene

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
#: The node scales that convert between centimetres and metres (Blender's FBX exporter puts
#: 100 on every object of a file it writes in centimetres, unless told to apply the scale).
UNIT_CONVERSION_SCALES = (100.0, 0.01)
#: How close a node's rotation and scale must be to a conversion to be taken for one.
CONVERSION_TOLERANCE = 1e-4

CODES = (
    "NODE_NEGATIVE_SCALE",
    "FBX_UNUSUAL_UNIT",
    "FBX_UNUSUAL_AXES",
    "FBX_Z_UP",
    "FBX_CONVERSION_ON_NODES",
)


def check_transforms(asset: Asset, context: CheckContext) -> None:
    if asset.gltf is not None:
        _check_gltf(asset.gltf.links, asset.gltf.world_matrices, context)
    elif asset.fbx is not None:
        _check_fbx_nodes(asset.fbx, context)
        _check_fbx_unit(asset.fbx.unit_meters, context)
        _check_fbx_axes(asset.fbx.axes, context)
        _check_fbx_conversion(asset.fbx, context)


def _check_gltf(links: DocumentLinks, world: dict[int, np.ndarray], context: CheckContext) -> None:
    nodes = links.items("nodes")
    drawn = [
        (index, node)
        for index in sorted(world)
        if (node := nodes[index]) is not None
        and drawn_mesh(links, node) is not None
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


def _check_fbx_nodes(scene: FbxScene, context: CheckContext) -> None:
    """Mirrored mesh nodes."""
    for mesh in scene.meshes:
        for instance in mesh.instances:
            if instance.mirrored:
                context.issues.add("NODE_NEGATIVE_SCALE", name=instance.node)


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
    if axes.right_handed and axes.up == "+Z":
        context.issues.add("FBX_Z_UP", right=axes.right, up=axes.up, front=axes.front)
    if axes.right_handed and axes.up in USUAL_UP_AXES:
        return
    system = f"{axes.up} up" if axes.right_handed else "left-handed"
    context.issues.add(
        "FBX_UNUSUAL_AXES", system=system, right=axes.right, up=axes.up, front=axes.front
    )


def _check_fbx_conversion(scene: FbxScene, context: CheckContext) -> None:
    """FBX_CONVERSION_ON_NODES when every drawn node stands Z-up geometry upright in a scene
    whose up axis is another, or scales it by 100 (or 0.01), the same way: the exporter
    converted on the nodes, not in the geometry."""
    instances = [instance for mesh in scene.meshes for instance in mesh.instances]
    if not instances:
        return
    matrices = np.array([instance.geometry_to_world[:3, :3] for instance in instances])
    scales = np.linalg.norm(matrices, axis=1)  # the length of each column, per node
    conversions = []
    if scene.axes.known and scene.axes.up != "+Z":
        with np.errstate(invalid="ignore", divide="ignore"):  # a node scaled to nothing
            geometry_up = matrices[:, :, 2] / scales[:, 2:3]
        if np.allclose(geometry_up, scene.axes.up_vector, atol=CONVERSION_TOLERANCE):
            conversions.append("a rotation standing Z-up geometry upright (-90° about X)")
    first = float(scales[0, 0])
    uniform = np.allclose(scales, first, rtol=CONVERSION_TOLERANCE)
    if uniform and any(
        math.isclose(first, scale, rel_tol=CONVERSION_TOLERANCE) for scale in UNIT_CONVERSION_SCALES
    ):
        conversions.append(f"a scale of {first:g}")
    if conversions:
        context.issues.add(
            "FBX_CONVERSION_ON_NODES",
            name=instances[0].node,
            count=len(instances),
            conversion=" and ".join(conversions),
        )


@hookimpl
def register_checks() -> list[Check]:
    return [
        Check(
            "transforms",
            "Mirrored nodes, FBX units and axis systems engines must convert, and FBX "
            "conversions left on the nodes.",
            check_transforms,
            CODES,
        )
    ]
