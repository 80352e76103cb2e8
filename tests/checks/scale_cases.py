"""Crafted files for the scale and FBX conversion checks: the golden cases of
``tests/assets/scale``.

``python -m pytest tests/checks/test_scale.py --update-golden -k golden`` writes each case to
``tests/assets/scale/<name>.<extension>`` with its report, from the builders below.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from assetcheck.asset.dimensions import ProductDimensions
from assetcheck.testing.fbx import Scene, binary_fbx, cube
from assetcheck.testing.shapes import box_glb


@dataclass(frozen=True)
class Case:
    """A crafted file: its bytes, its extension, and the options it is validated with."""

    make: Callable[[], bytes]
    extension: str = "glb"
    engine: str = "generic"
    dimensions: ProductDimensions | None = None


def chair(scale: float = 1.0, translation=(0.0, 0.0, 0.0)) -> bytes:
    """A chair-sized box, 0.6 x 0.9 x 0.4 m times ``scale``, standing on its origin."""
    low, high = np.array([-0.3, 0.0, -0.2]) * scale, np.array([0.3, 0.9, 0.2]) * scale
    return box_glb(low.tolist(), high.tolist(), translation)


def blender_fbx() -> bytes:
    """Two cubes as Blender's FBX exporter writes objects by default: Z-up geometry in metres,
    each node turned -90 degrees about X and scaled by 100 into centimetres."""
    meshes = [cube("Seat"), cube("Back")]
    for mesh in meshes:
        mesh.rotation, mesh.scale = (-90.0, 0.0, 0.0), (100.0, 100.0, 100.0)
    return binary_fbx(Scene(meshes=meshes))


def far_fbx() -> bytes:
    """A 2 cm cube 10 m from the origin (in centimetres)."""
    mesh = cube("Crate")
    mesh.translation = (1000.0, 0.0, 0.0)
    return binary_fbx(Scene(meshes=[mesh]))


CASES: dict[str, Case] = {
    "product_fits_shopify": Case(
        chair, engine="shopify", dimensions=ProductDimensions(0.6, 0.9, 0.4)
    ),
    "model_extremely_large": Case(lambda: chair(scale=100.0), engine="shopify"),
    "model_extremely_small": Case(lambda: chair(scale=0.001), engine="3d-commerce"),
    "model_extremely_large_obj": Case(
        lambda: b"v 0 0 0\nv 2000 0 0\nv 0 1000 0\nf 1 2 3\n", extension="obj"
    ),
    "model_pivot_far_from_base": Case(lambda: chair(translation=(5.0, 0.0, 0.0))),
    "model_pivot_far_from_base_fbx": Case(far_fbx, extension="fbx"),
    "model_dimensions_mismatch": Case(chair, dimensions=ProductDimensions(0.6, 1.2, 0.4)),
    "fbx_conversion_on_nodes": Case(blender_fbx, extension="fbx"),
    "fbx_z_up": Case(lambda: binary_fbx(Scene(meshes=[cube()], up_axis=2)), extension="fbx"),
}
