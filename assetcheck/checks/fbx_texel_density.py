"""FBX textures far larger than the model needs: glTF's texel density rule
(:mod:`assetcheck.checks.gltf_texel_density`, ``docs/textures.md``) on the polygons each FBX
material is drawn on.

For each material, over every mesh polygon whose material slot names it, once per node that
draws the mesh: the UV area of its triangles in the mesh's first UV set, and their surface
area in metres (the geometry's area times the square of the instance's scale, ``|det|^(2/3)``
of its matrix to metres). Each texture connected to one of the material's properties whose
size is known (an embedded image, or an image file the upload holds beside the model) is
judged against them; only image headers are read.
"""

from __future__ import annotations

from collections import defaultdict
from typing import TYPE_CHECKING

import numpy as np

from assetcheck.asset import Asset
from assetcheck.checks import Check, CheckContext
from assetcheck.formats.texture_rules import density_fields
from assetcheck.mesh.bounds import describe_length, polygon_scene_box
from assetcheck.mesh.uvs import mapped_areas
from assetcheck.plugins.hookspecs import hookimpl

if TYPE_CHECKING:  # a run without FBX files never loads the FBX model
    from assetcheck.formats.fbx.model import FbxScene

CODES = ("TEXTURE_DENSITY_EXCESSIVE",)


def mapped_surfaces(scene: FbxScene) -> dict[str, tuple[float, float]]:
    """By material name: the UV area and the world surface area (square metres) of every
    polygon drawn with the material, once per instance of its mesh."""
    convert = scene.to_metres_y_up()
    totals: dict[str, tuple[float, float]] = defaultdict(lambda: (0.0, 0.0))
    for mesh in scene.meshes:
        geometry = mesh.geometry
        if geometry is None or geometry.uvs is None or not mesh.instances or not mesh.materials:
            continue
        scale = sum(
            abs(float(np.linalg.det((convert @ instance.geometry_to_world)[:3, :3]))) ** (2 / 3)
            for instance in mesh.instances
        )
        triangles = geometry.corner_triangles()
        slots = geometry.triangle_slots()
        vertices, uvs = geometry.corner_mesh.vertices, geometry.uvs.per_corner
        for slot in np.unique(slots):
            if not 0 <= slot < len(mesh.materials):
                continue
            chosen = np.ascontiguousarray(triangles[slots == slot].T)
            uv, surface = mapped_areas(vertices, uvs, chosen)
            name = mesh.materials[int(slot)]
            known_uv, known_surface = totals[name]
            totals[name] = (known_uv + uv * len(mesh.instances), known_surface + surface * scale)
    return dict(totals)


def check_texel_density(asset: Asset, context: CheckContext) -> None:
    scene = asset.fbx
    if scene is None or not any(material.slots for material in scene.materials):
        return
    sizes = {
        texture.name: (texture.width, texture.height)
        for texture in asset.textures
        if texture.width and texture.height
    }
    box = polygon_scene_box(scene)
    if box is None or not sizes:
        return
    surfaces = mapped_surfaces(scene)
    screen = context.profile.budgets.texture_size
    for material in scene.materials:
        uv, surface = surfaces.get(material.name, (0.0, 0.0))
        for slot in material.slots:
            if slot.texture not in sizes:
                continue
            fields = density_fields(*sizes[slot.texture], uv, surface, box.size, screen)
            if fields is not None:
                context.issues.add(
                    "TEXTURE_DENSITY_EXCESSIVE",
                    image=slot.label,
                    material=material.slot_label(slot),
                    size=describe_length(box.size),
                    **fields,
                )


@hookimpl
def register_checks() -> list[Check]:
    return [
        Check(
            "fbx-texel-density",
            "FBX textures whose texel density on the model is far more than a screen showing "
            "the whole model can show.",
            check_texel_density,
            CODES,
            frozenset({"fbx"}),
        )
    ]
