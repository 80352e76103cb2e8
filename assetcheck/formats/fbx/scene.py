"""Turning a ufbx scene into the asset model: runs in the parser's child process.

ufbx gives the counts, materials, textures, animation stacks, units and axes. Its Python binding's
vertex arrays are not reliable, so the geometry (and the UV set count, which the binding does
not give) comes from this project's own decoder of the node tree the walk kept
(:mod:`assetcheck.formats.fbx.geometry`), matched to ufbx's meshes by order and counts. The
animation curves come from it too (:mod:`assetcheck.formats.fbx.curves`): the binding gives no
keys; and the materials' texture slots (:mod:`assetcheck.formats.fbx.materials`), whose
embedded images are left where they lie in the file.
Everything returned is picklable data of the asset model: ufbx objects and the arrays it lends
out die with the scene, so nothing of them is kept.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from assetcheck.asset import Animation, Asset, Material, MeshPart, Texture
from assetcheck.formats.fbx.animation import FbxCurves, unpack_curves
from assetcheck.formats.fbx.curves import CurveFault, read_curves
from assetcheck.formats.fbx.geometry import DecodedMesh, read_geometries
from assetcheck.formats.fbx.materials import read_materials
from assetcheck.formats.fbx.model import (
    FbxAxes,
    FbxGeometry,
    FbxImage,
    FbxInstance,
    FbxMaterial,
    FbxMesh,
    FbxScene,
    FbxSkin,
    FbxTexture,
    FbxTextureSlot,
    FbxUnsetValues,
    unpack_geometry,
    unpack_skin,
)
from assetcheck.formats.fbx.objects import FbxObjects
from assetcheck.formats.fbx.tree import FbxTree, FbxTreeError
from assetcheck.formats.images import image_info

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
PBR_SHADERS = frozenset(
    {
        "SHADER_OSL_STANDARD_SURFACE",
        "SHADER_ARNOLD_STANDARD_SURFACE",
        "SHADER_3DS_MAX_PHYSICAL_MATERIAL",
        "SHADER_3DS_MAX_PBR_METAL_ROUGH",
        "SHADER_3DS_MAX_PBR_SPEC_GLOSS",
        "SHADER_GLTF_MATERIAL",
        "SHADER_OPENPBR_MATERIAL",
        "SHADER_SHADERFX_GRAPH",
    }
)

_AXES = ("+X", "-X", "+Y", "-Y", "+Z", "-Z")
_LOAD_ERROR_PREFIX = "Failed to load FBX file: "


class FbxParseError(Exception):
    """ufbx could not read the file; the message is ufbx's reason."""


#: The classes :func:`read_scene` returns or raises, for the parent to accept from the child.
RESULT_TYPES = (
    Asset,
    MeshPart,
    Material,
    Texture,
    Animation,
    FbxParseError,
    FbxScene,
    FbxMesh,
    FbxTexture,
    FbxAxes,
    FbxGeometry,
    unpack_geometry,
    FbxInstance,
    FbxUnsetValues,
    FbxSkin,
    unpack_skin,
    FbxCurves,
    unpack_curves,
    FbxMaterial,
    FbxTextureSlot,
    FbxImage,
)


def read_scene(path: str, filename: str, tree: FbxTree) -> Asset:
    """The asset in the FBX file at ``path``, whose nodes the walk kept in ``tree``, reported
    under ``filename``.

    Raises :class:`FbxParseError` when ufbx rejects the file and ``MemoryError`` when it runs
    out of memory. A geometry that cannot be decoded is kept without geometry, with a fault.
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
        asset, facts = _asset(scene, filename)
    finally:
        scene.close()
    _add_geometry(facts.meshes, tree)
    facts.curves = _curves(tree)
    facts.materials, facts.images = _materials(tree)
    _name_unnamed(facts.meshes)
    asset.parts = _parts(facts.meshes)
    return asset


def _asset(scene: ufbx.Scene, filename: str) -> tuple[Asset, FbxScene]:
    """The asset ufbx read, and its FBX facts (``asset.fbx``)."""
    meshes = [_mesh(mesh) for mesh in scene.meshes]
    materials = [_material(material) for material in scene.materials]
    textures = [_fbx_texture(texture) for texture in scene.textures]
    animations = [
        Animation(stack.name, duration=stack.time_end - stack.time_begin)
        for stack in scene.anim_stacks
    ]
    facts = _scene(scene, meshes, [fbx for fbx, _ in textures])
    asset = Asset(
        filename=filename,
        format="fbx",
        vertex_count=sum(mesh.vertices for mesh in meshes),
        triangle_count=sum(mesh.triangles for mesh in meshes),
        material_count=len(materials),
        animation_count=len(animations),
        uses_pbr=any(material.pbr for material in materials),
        materials=materials,
        textures=[texture for _, texture in textures],
        animations=animations,
        details=facts.summary(),
        fbx=facts,
    )
    return asset, facts


def _scene(scene: ufbx.Scene, meshes: list[FbxMesh], textures: list[FbxTexture]) -> FbxScene:
    metadata, settings = scene.metadata, scene.settings
    axes = settings.axes
    return FbxScene(
        version=metadata.version,
        ascii=bool(metadata.ascii),
        creator=metadata.creator,
        unit_meters=settings.unit_meters,
        original_unit_meters=settings.original_unit_meters,
        axes=FbxAxes(_axis(axes.right), _axis(axes.up), _axis(axes.front)),
        original_up_axis=_axis(settings.original_axis_up),
        frames_per_second=settings.frames_per_second,
        bone_count=len(scene.bones),
        meshes=meshes,
        textures=textures,
    )


def _mesh(mesh: ufbx.Mesh) -> FbxMesh:
    """The facts ufbx gives about one mesh; its geometry is added later."""
    skins = mesh.skin_deformers
    return FbxMesh(
        name=mesh.name,
        vertices=mesh.num_vertices,
        triangles=mesh.num_triangles,
        faces=mesh.num_faces,
        quads=0,
        ngons=0,
        has_normals=mesh.vertex_normals is not None,
        has_uvs=mesh.vertex_uvs is not None,
        materials=[material.name for material in mesh.materials],
        skinned=bool(skins),
        bones=sum(len(skin.clusters) for skin in skins),
        blend_shapes=sum(len(blend.channels) for blend in mesh.blend_deformers),
    )


def _name_unnamed(meshes: list[FbxMesh]) -> None:
    """Name each mesh whose geometry the file leaves unnamed (Asset Forge and Kenney's writer
    do) after the nodes drawing it, else ``mesh <index>``, as an unnamed glTF mesh is named."""
    for index, mesh in enumerate(meshes):
        if not mesh.name:
            nodes = dict.fromkeys(instance.node for instance in mesh.instances if instance.node)
            mesh.name = ", ".join(nodes) or f"mesh {index}"


def _parts(meshes: list[FbxMesh]) -> list[MeshPart]:
    return [
        MeshPart(mesh.name, mesh.vertices, mesh.triangles, len(mesh.materials)) for mesh in meshes
    ]


def _add_geometry(meshes: list[FbxMesh], tree: FbxTree) -> None:
    """Give each mesh its decoded geometry, its UV sets, its skin, and its quads and n-gons
    from the geometry."""
    try:
        decoded = read_geometries(tree)
    except FbxTreeError as error:
        for mesh in meshes:
            mesh.geometry_fault = f"its node structure cannot be read ({error})"
        return
    for mesh, found in zip(meshes, match_meshes(meshes, decoded), strict=True):
        if found is None:
            continue
        mesh.geometry, mesh.geometry_fault, mesh.instances, mesh.unset_values, mesh.uv_sets = (
            found.geometry,
            found.fault,
            found.instances,
            found.unset_values,
            found.uv_sets,
        )
        mesh.skin, mesh.skin_fault = found.skin, found.skin_fault
        if found.geometry is not None:
            sizes = found.geometry.polygon_sizes
            mesh.quads = int(np.count_nonzero(sizes == 4))
            mesh.ngons = int(np.count_nonzero(sizes > 4))


def _curves(tree: FbxTree) -> FbxCurves | None:
    """The animation curves of the stacks, or None when they cannot be read: the node tree is
    broken (the meshes' geometry fault says why), or a curve is one ufbx read and
    :func:`read_curves` cannot (none is known); the curves' rules then judge nothing."""
    try:
        return read_curves(FbxObjects.of(tree))
    except (FbxTreeError, CurveFault):
        return None


def _materials(tree: FbxTree) -> tuple[list[FbxMaterial], list[FbxImage]]:
    """The materials' texture slots and the embedded images they show; none when the node
    tree is broken (the meshes' geometry fault says why)."""
    try:
        return read_materials(FbxObjects.of(tree))
    except FbxTreeError:
        return [], []


def match_meshes(meshes: list[FbxMesh], decoded: list[DecodedMesh]) -> list[DecodedMesh | None]:
    """For each of ufbx's meshes, the decoded geometry that is the same mesh: the next one in
    file order with the same control point and triangle counts (a damaged geometry, whose
    counts are unknown, matches the next mesh whose counts nothing else matches)."""
    matched: list[DecodedMesh | None] = []
    position = 0
    for mesh in meshes:
        found = None
        for index in range(position, len(decoded)):
            candidate = decoded[index]
            if candidate.fault is not None or (candidate.vertices, candidate.triangles) == (
                mesh.vertices,
                mesh.triangles,
            ):
                found, position = candidate, index + 1
                break
        matched.append(found)
    return matched


def _material(material: ufbx.Material) -> Material:
    import ufbx

    shader = ufbx.ShaderType(material.shader_type).name  # pyufbx hands out a plain int
    return Material(
        name=material.name,
        shading=SHADING_MODELS.get(shader, "unknown"),
        pbr=shader in PBR_SHADERS,
        texture_count=len(material.textures),
    )


def _fbx_texture(texture: ufbx.Texture) -> tuple[FbxTexture, Texture]:
    """A texture's file names as written (never resolved on this machine), and the image:
    an embedded one's type and size are read from its header."""
    content = texture.content
    fbx = FbxTexture(
        texture.name,
        texture.relative_filename,
        texture.absolute_filename,
        embedded=bool(content),
        byte_size=len(content) if content else None,
    )
    image = Texture(
        fbx.name, uri=None if fbx.embedded else fbx.path or None, byte_size=fbx.byte_size
    )
    info = image_info(content) if content else None
    if info is not None:
        image.mime_type, image.width, image.height = info.mime_type, info.width, info.height
    return fbx, image


def _axis(value: int) -> str:
    return _AXES[value] if 0 <= value < len(_AXES) else "unknown"
