"""Textures far larger than the model needs: the texel density an image gives the surfaces
that use it against what a screen showing the whole model can show (``docs/textures.md``,
Texel density, gives the formula).

For each material's use of an image, over every primitive drawn with the material, once per
node that draws it: the UV area of its triangles in the texture coordinate set the use reads
(in texture units, so a tiled texture counts each repeat) and their surface area in the world
(the mesh's area times the square of the node's scale, ``|det|^(2/3)`` of its world matrix;
skinned meshes at their own scale). The texture puts ``sqrt(width x height x UV area /
surface area)`` texels on each metre; a screen of ``S`` pixels (the profile's largest texture
side) showing the whole model, ``L`` metres across, shows ``S / L`` of them. Only the sizes
from the image headers are read, never the pixels.
"""

from __future__ import annotations

from collections import defaultdict

import numpy as np

from assetcheck.asset import Asset
from assetcheck.checks import Check, CheckContext
from assetcheck.formats.gltf import GLTF_FORMATS
from assetcheck.formats.gltf.links import index_of
from assetcheck.formats.gltf.model import GltfDocument
from assetcheck.formats.gltf.texture_uses import (
    image_label,
    image_structures,
    material_label,
    sampled_images,
)
from assetcheck.formats.texture_rules import density_fields
from assetcheck.mesh.bounds import describe_length
from assetcheck.mesh.uvs import mapped_areas
from assetcheck.plugins.hookspecs import hookimpl

CODES = ("TEXTURE_DENSITY_EXCESSIVE",)


def mapped_surfaces(document: GltfDocument) -> dict[tuple[int, int], tuple[float, float]]:
    """By ``(material, texture coordinate set)``: the UV area and the world surface area of
    every primitive drawn with the material, once per node drawing its mesh."""
    links = document.links
    nodes = links.items("nodes")
    scales: dict[int, float] = defaultdict(float)  # mesh -> sum over its nodes of scale^2
    counts: dict[int, int] = defaultdict(int)  # mesh -> nodes drawing it
    world = document.world_matrices
    drawing = [
        (index, mesh) for index in world if (mesh := index_of(nodes[index], "mesh")) is not None
    ]
    # One stacked call: numpy's determinant of each matrix is the one it gives that matrix alone.
    determinants = (
        np.linalg.det(np.array([world[index][:3, :3] for index, _ in drawing])).tolist()
        if drawing
        else []
    )
    for (index, mesh), determinant in zip(drawing, determinants, strict=True):
        skinned = index_of(nodes[index], "skin") is not None
        scales[mesh] += 1.0 if skinned else abs(determinant) ** (2 / 3)
        counts[mesh] += 1
    needs = links.materials
    totals: dict[tuple[int, int], tuple[float, float]] = {}
    for primitive in links.primitives:
        material, instances = primitive.material, scales.get(primitive.mesh, 0.0)
        if material is None or material >= len(needs) or not instances:
            continue
        need, prepared = needs[material], document.mesh(primitive).prepared
        if need is None or prepared is None:
            continue
        for number in {n for n in need.texcoords.values() if n >= 0}:
            accessor = primitive.attributes.get(f"TEXCOORD_{number}")
            uvs = document.reader.normalized(accessor) if accessor is not None else None
            if uvs is None or uvs.shape != (len(prepared.vertices), 2):
                continue
            uv, surface = mapped_areas(prepared.vertices, uvs, prepared.corners)
            known_uv, known_surface = totals.get((material, number), (0.0, 0.0))
            totals[(material, number)] = (
                known_uv + uv * counts[primitive.mesh],
                known_surface + surface * instances,
            )
    return totals


def check_texel_density(asset: Asset, context: CheckContext) -> None:
    if asset.gltf is None:
        return
    document = asset.gltf
    links = document.links
    box = document.scene_box
    sampled = sampled_images(links)
    if box is None or not sampled:
        return
    size = box.size
    screen = context.profile.budgets.texture_size
    surfaces = mapped_surfaces(document)
    structures = image_structures(asset, links)
    for image in sampled.values():
        structure = structures.get(image.index)
        if structure is None or not structure.width or not structure.height:
            continue
        width, height = structure.width, structure.height
        for use in image.uses:
            need = links.materials[use.material]
            number = need.texcoords.get(use.pointer, -1) if need is not None else -1
            uv, surface = surfaces.get((use.material, number), (0.0, 0.0))
            fields = density_fields(width, height, uv, surface, size, screen)
            if fields is None:
                continue
            context.issues.add(
                "TEXTURE_DENSITY_EXCESSIVE",
                pointer=use.pointer,
                image=image_label(links, image.index),
                material=material_label(links, use.material),
                size=describe_length(size),
                **fields,
            )


@hookimpl
def register_checks() -> list[Check]:
    return [
        Check(
            "gltf-texel-density",
            "Textures whose texel density on the model is far more than a screen showing "
            "the whole model can show.",
            check_texel_density,
            CODES,
            GLTF_FORMATS,
        )
    ]
