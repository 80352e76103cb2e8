"""Turning a ufbx scene into the asset model: runs in the parser's child process.

Everything returned is plain picklable data: ufbx objects and the numpy arrays it lends out
die with the scene, so nothing of them may be kept.
"""

from __future__ import annotations

from collections import Counter
from operator import itemgetter
from typing import TYPE_CHECKING, Any

from assetcheck.asset import Animation, Asset, Material, MeshPart, Texture

if TYPE_CHECKING:  # ufbx itself is imported where a file is parsed: in the child process
    import ufbx

#: ufbx's shader types (``UFBX_SHADER_*``, by name) as the shading model names AssetCheck reports.
SHADING_MODELS = {
    "SHADER_UNKNOWN": "unknown",
    "SHADER_FBX_LAMBERT": "lambert",
    "SHADER_FBX_PHONG": "phong",
    "SHADER_OSL_STANDARD_SURFACE": "standardSurface",
    "SHADER_ARNOLD_STANDARD_SURFACE": "arnoldStandardSurface",
    "SHADER_3DS_MAX_PHYSICAL_MATERIAL": "physicalMaterial",
    "SHADER_3DS_MAX_PBR_METAL_ROUGH": "metallicRoughness",
    "SHADER_3DS_MAX_PBR_SPEC_GLOSS": "specularGlossiness",
    "SHADER_GLTF_MATERIAL": "gltfMaterial",
    "SHADER_OPENPBR_MATERIAL": "openPBR",
    # Maya writes Stingray PBS materials as ShaderFX graphs.
    "SHADER_SHADERFX_GRAPH": "shaderfxGraph",
    "SHADER_BLENDER_PHONG": "blenderPhong",
    "SHADER_WAVEFRONT_MTL": "wavefrontMtl",
}

#: Physically based shading models; Lambert, Phong and their variants are not.
PBR_SHADERS = frozenset({
    "SHADER_OSL_STANDARD_SURFACE",
    "SHADER_ARNOLD_STANDARD_SURFACE",
    "SHADER_3DS_MAX_PHYSICAL_MATERIAL",
    "SHADER_3DS_MAX_PBR_METAL_ROUGH",
    "SHADER_3DS_MAX_PBR_SPEC_GLOSS",
    "SHADER_GLTF_MATERIAL",
    "SHADER_OPENPBR_MATERIAL",
    "SHADER_SHADERFX_GRAPH",
})

_AXES = ("+X", "-X", "+Y", "-Y", "+Z", "-Z")
_LOAD_ERROR_PREFIX = "Failed to load FBX file: "


class FbxParseError(Exception):
    """ufbx could not read the file; the message is ufbx's reason."""


#: The classes :func:`read_scene` returns or raises, for the parent to accept from the child.
RESULT_TYPES = (Asset, MeshPart, Material, Texture, Animation, FbxParseError)


def read_scene(path: str, filename: str) -> Asset:
    """The asset in the FBX file at ``path``, reported under ``filename``.

    Raises :class:`FbxParseError` when ufbx rejects the file and ``MemoryError`` when it runs
    out of memory.
    """
    import ufbx

    try:
        scene = ufbx.load_file(path)
    except ufbx.UfbxError as error:
        reason = str(error).removeprefix(_LOAD_ERROR_PREFIX)
        if reason.lower() == "out of memory":
            raise MemoryError(reason) from None
        raise FbxParseError(reason) from None
    try:
        return _asset(scene, filename)
    finally:
        scene.close()


def _asset(scene: ufbx.Scene, filename: str) -> Asset:
    meshes = [_mesh_details(mesh) for mesh in scene.meshes]
    materials = [_material(material) for material in scene.materials]
    textures = [_texture_details(texture) for texture in scene.textures]
    animations = [
        Animation(stack.name, duration=stack.time_end - stack.time_begin)
        for stack in scene.anim_stacks
    ]
    return Asset(
        filename=filename,
        format="fbx",
        vertex_count=sum(mesh["vertices"] for mesh in meshes),
        triangle_count=sum(mesh["triangles"] for mesh in meshes),
        material_count=len(materials),
        animation_count=len(animations),
        uses_pbr=any(material.pbr for material in materials),
        parts=[
            MeshPart(mesh["name"], mesh["vertices"], mesh["triangles"], len(mesh["materials"]))
            for mesh in meshes
        ],
        materials=materials,
        textures=[_texture(texture) for texture in textures],
        animations=animations,
        details=_scene_details(scene, meshes, textures),
    )


def _scene_details(
    scene: ufbx.Scene, meshes: list[dict[str, Any]], textures: list[dict[str, Any]]
) -> dict[str, Any]:
    metadata, settings = scene.metadata, scene.settings
    axes = settings.axes
    return {
        "version": metadata.version,
        "ascii": bool(metadata.ascii),
        "creator": metadata.creator,
        "unit_meters": settings.unit_meters,
        "original_unit_meters": settings.original_unit_meters,
        "axes": {"right": _axis(axes.right), "up": _axis(axes.up), "front": _axis(axes.front)},
        "original_up_axis": _axis(settings.original_axis_up),
        "frames_per_second": settings.frames_per_second,
        "bone_count": len(scene.bones),
        "meshes": meshes,
        "textures": textures,
    }


def _mesh_details(mesh: ufbx.Mesh) -> dict[str, Any]:
    """The facts later checks need about one mesh; ``vertices`` counts control points."""
    faces_by_corners = Counter(map(itemgetter(1), mesh.faces))
    skins = mesh.skin_deformers
    return {
        "name": mesh.name,
        "vertices": mesh.num_vertices,
        "triangles": mesh.num_triangles,
        "faces": mesh.num_faces,
        "quads": faces_by_corners[4],
        "ngons": sum(count for corners, count in faces_by_corners.items() if corners > 4),
        "has_normals": mesh.vertex_normals is not None,
        "has_uvs": mesh.vertex_uvs is not None,
        "materials": [material.name for material in mesh.materials],
        "skinned": bool(skins),
        "bones": sum(len(skin.clusters) for skin in skins),
        "blend_shapes": sum(len(blend.channels) for blend in mesh.blend_deformers),
    }


def _material(material: ufbx.Material) -> Material:
    import ufbx

    shader = ufbx.ShaderType(material.shader_type).name  # pyufbx hands out a plain int
    return Material(
        name=material.name,
        shading=SHADING_MODELS.get(shader, "unknown"),
        pbr=shader in PBR_SHADERS,
        texture_count=len(material.textures),
    )


def _texture_details(texture: ufbx.Texture) -> dict[str, Any]:
    """A texture's file names as written (never resolved on this machine) and embedded size."""
    content = texture.content
    return {
        "name": texture.name,
        "relative_filename": texture.relative_filename,
        "absolute_filename": texture.absolute_filename,
        "embedded": bool(content),
        "byte_size": len(content) if content else None,
    }


def _texture(details: dict[str, Any]) -> Texture:
    uri = None if details["embedded"] else (
        details["relative_filename"] or details["absolute_filename"] or None)
    return Texture(details["name"], uri=uri, byte_size=details["byte_size"])


def _axis(value: int) -> str:
    return _AXES[value] if 0 <= value < len(_AXES) else "unknown"
