"""Materials: legacy shading models, and FBX meshes whose textured material has no UVs.

A glTF primitive that lacks the ``TEXCOORD_n`` its material samples is Khronos'
``MESH_PRIMITIVE_TOO_FEW_TEXCOORDS``, reported by the glTF mesh check; this check reports the
same fault for FBX meshes as ``MESH_MISSING_UVS``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from assetcheck.asset import Asset
from assetcheck.checks import Check, CheckContext
from assetcheck.formats.gltf.links import collection
from assetcheck.plugins.hookspecs import hookimpl

if TYPE_CHECKING:
    from assetcheck.formats.fbx.model import FbxScene

#: Shading models that predate physically based rendering (names of ``Material.shading``).
LEGACY_SHADING = frozenset({"lambert", "phong", "blenderPhong", "wavefrontMtl"})
SPECULAR_GLOSSINESS = "specularGlossiness"
GLTF_SPECULAR_GLOSSINESS = "KHR_materials_pbrSpecularGlossiness"

CODES = ("MATERIAL_NOT_PBR", "MATERIAL_SPECULAR_GLOSSINESS", "MESH_MISSING_UVS")


def check_materials(asset: Asset, context: CheckContext) -> None:
    if asset.document is not None:
        _check_gltf_materials(asset.document, context)
    elif asset.fbx is not None:
        _check_fbx_materials(asset, asset.fbx, context)


def _check_gltf_materials(document: dict, context: CheckContext) -> None:
    for index, material in enumerate(collection(document, "materials")):
        if material is None:
            continue
        extensions = material.get("extensions")
        if isinstance(extensions, dict) and GLTF_SPECULAR_GLOSSINESS in extensions:
            name = material.get("name")
            context.issues.add(
                "MATERIAL_SPECULAR_GLOSSINESS",
                pointer=f"/materials/{index}",
                name=name if isinstance(name, str) and name else f"{index}",
            )


def _check_fbx_materials(asset: Asset, scene: FbxScene, context: CheckContext) -> None:
    for material in asset.materials:
        if material.shading in LEGACY_SHADING:
            context.issues.add("MATERIAL_NOT_PBR", name=material.name, shading=material.shading)
        elif material.shading == SPECULAR_GLOSSINESS:
            context.issues.add("MATERIAL_SPECULAR_GLOSSINESS", name=material.name)
    textures = {m.name: m.texture_count for m in asset.materials if m.texture_count}
    for mesh in scene.meshes:
        textured = [name for name in mesh.materials if name in textures]
        has_uvs = mesh.has_uvs if mesh.geometry is None else mesh.geometry.uvs is not None
        if textured and not has_uvs:
            context.issues.add(
                "MESH_MISSING_UVS",
                name=mesh.name,
                material=textured[0],
                textures=textures[textured[0]],
            )


@hookimpl
def register_checks() -> list[Check]:
    return [
        Check(
            "material-models",
            "Legacy (non-PBR) and specular-glossiness materials, and "
            "FBX meshes whose textured material has no UVs.",
            check_materials,
            CODES,
        )
    ]
