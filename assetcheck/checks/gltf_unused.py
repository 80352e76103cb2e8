"""Objects nothing uses (``UNUSED_OBJECT``, info), as Khronos glTF-Validator marks them.

An object is used when something that is itself linked refers to it: a node's mesh, a
primitive's material, a texture's image... Root nodes of scenes, children, joints and animated
nodes are used nodes. References made through declared extensions count too (images named by
``EXT_texture_webp``, ``KHR_texture_basisu`` or ``MSFT_texture_dds``, materials named by
``KHR_materials_variants``, the payloads of Draco and meshopt, see
:mod:`assetcheck.formats.gltf.extension_uses`), and the lights
and variants of the root's extension objects are used when nodes and mappings name them. Also
reported: texture coordinate sets no material samples, and mesh weights every node overrides.
"""

from __future__ import annotations

from assetcheck.asset import Asset
from assetcheck.checks import Check, CheckContext
from assetcheck.formats.gltf import GLTF_FORMATS
from assetcheck.formats.gltf.extension_uses import (
    LIGHTS,
    VARIANTS,
    compressed_data_sources,
    extension_image_sources,
    material_needs,
    node_lights,
    root_items,
    root_pointer,
    variant_mappings,
    variant_materials,
)
from assetcheck.formats.gltf.fields import child
from assetcheck.formats.gltf.links import (
    COLLECTIONS,
    DocumentLinks,
    animation_samplers,
    index_list,
    index_of,
    linked_extensions,
    resolves,
    texture_infos,
    uses,
)
from assetcheck.issues import FileIssues
from assetcheck.plugins.hookspecs import hookimpl

#: The collections whose unused elements are reported, in Khronos' order: all but animations
#: and scenes, which are used by being there.
REPORTED = tuple(name for name in COLLECTIONS if name not in ("animations", "scenes"))


def used_objects(links: DocumentLinks) -> dict[str, set[int]]:
    """The indices of the used objects of each collection."""
    used: dict[str, set[int]] = {name: set() for name in REPORTED}

    def mark(collection: str, index: int | None) -> None:
        if resolves(index, links.items(collection)):
            used[collection].add(index)

    for use in uses(links):
        used[use.collection].add(use.index)
    views = links.items("bufferViews")
    used["bufferViews"].update(
        layout.buffer_view
        for layout in links.layouts  # one per accessor
        if layout is not None and resolves(layout.buffer_view, views)
    )
    for view in views:
        mark("buffers", index_of(view, "buffer"))
    for node in links.items("nodes"):
        if node is None:
            continue
        for key, collection in (("camera", "cameras"), ("mesh", "meshes"), ("skin", "skins")):
            if key in node:
                mark(collection, index_of(node, key))
        for kid in index_list(node, "children"):
            mark("nodes", kid)
    for key, items in (("nodes", links.items("scenes")), ("joints", links.items("skins"))):
        for item in items:
            for member in index_list(item, key):
                mark("nodes", member)
    for animation in links.items("animations"):
        if animation is not None and animation_samplers(animation):
            for channel in animation["channels"]:
                mark("nodes", index_of(channel.get("target"), "node"))
    for texture in links.items("textures"):
        mark("samplers", index_of(texture, "sampler"))
        mark("images", index_of(texture, "source"))
    extensions = linked_extensions(links.document)
    for number, material in enumerate(links.items("materials")):
        for _, _, info in texture_infos(material, child("/materials", number), extensions):
            mark("textures", index_of(info, "index"))
    for primitive in links.primitives:
        mark("materials", primitive.material)
    for image in extension_image_sources(links.document):
        mark("images", image)
    for name, index in compressed_data_sources(links.document):
        mark(name, index)
    if root_items(links.document, VARIANTS) is not None:  # else no primitive has variants
        for variant_material in variant_materials(links):
            mark("materials", variant_material)
    return used


def _check_extension_items(links: DocumentLinks, issues: FileIssues) -> None:
    """Lights no node names and variants no mapping names."""
    named: dict[str, set[int | None]] = {
        LIGHTS: {index_of(light, "light") for _, light in node_lights(links.document)},
        VARIANTS: {index for mapping in variant_mappings(links) for _, index in mapping.variants},
    }
    for extension, used in named.items():
        for index, _ in enumerate(root_items(links.document, extension) or ()):
            if index not in used:
                issues.add("UNUSED_OBJECT", pointer=root_pointer(extension, index))


def _check_animation_samplers(links: DocumentLinks, issues: FileIssues) -> None:
    for index, animation in enumerate(links.items("animations")):
        samplers = animation_samplers(animation)
        if animation is None or not samplers:
            continue
        used = {index_of(channel, "sampler") for channel in animation["channels"]}
        for number, _ in samplers:
            if number not in used:
                issues.add(
                    "UNUSED_OBJECT",
                    pointer=child(child(child("/animations", index), "samplers"), number),
                )


def _check_texcoords(links: DocumentLinks, issues: FileIssues) -> None:
    for primitive in links.primitives:
        if not primitive.semantics.texcoord_count:
            continue  # no set to report, whatever its materials sample
        sampled = {
            texcoord
            for needs in material_needs(links, primitive)
            for texcoord in needs.texcoords.values()
        }
        for number in range(primitive.semantics.texcoord_count):
            if number not in sampled:
                issues.add(
                    "UNUSED_OBJECT",
                    pointer=child(child(primitive.pointer, "attributes"), f"TEXCOORD_{number}"),
                )


def _check_mesh_weights(links: DocumentLinks, used_meshes: set[int], issues: FileIssues) -> None:
    weighted = {
        index_of(node, "mesh")
        for node in links.items("nodes")
        if node is not None and not isinstance(node.get("weights"), list)
    }
    for index, mesh in enumerate(links.items("meshes")):
        if (
            mesh is not None
            and isinstance(mesh.get("weights"), list)
            and mesh["weights"]
            and index in used_meshes
            and index not in weighted
        ):
            issues.add("UNUSED_MESH_WEIGHTS", pointer=child(child("/meshes", index), "weights"))


def check_unused(asset: Asset, context: CheckContext) -> None:
    if asset.gltf is None:
        return
    links = asset.gltf.links
    _check_texcoords(links, context.issues)
    _check_animation_samplers(links, context.issues)
    used = used_objects(links)
    for name in REPORTED:
        for index, item in enumerate(links.items(name)):
            if item is not None and index not in used[name]:
                context.issues.add("UNUSED_OBJECT", pointer=child(f"/{name}", index))
    _check_mesh_weights(links, used["meshes"], context.issues)
    _check_extension_items(links, context.issues)


@hookimpl
def register_checks() -> list[Check]:
    return [
        Check(
            "gltf-unused",
            "Objects, texture coordinate sets and mesh weights that nothing uses.",
            check_unused,
            ("UNUSED_OBJECT", "UNUSED_MESH_WEIGHTS"),
            GLTF_FORMATS,
        )
    ]
