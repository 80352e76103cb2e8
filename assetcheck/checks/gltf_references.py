"""Every index reference of a glTF document names an existing object (``UNRESOLVED_REFERENCE``).

The reader resolves the references it needs for reading (buffers, buffer views, a primitive's
attributes, indices and material, an image's buffer view); this check resolves all the others
the way Khronos glTF-Validator links them, the references of declared extensions included
(a ``EXT_texture_webp`` source, a node's ``KHR_lights_punctual`` light, the variants and
material of a ``KHR_materials_variants`` mapping).
"""

from __future__ import annotations

from collections.abc import Iterator

from assetcheck.asset import Asset
from assetcheck.checks import Check, CheckContext
from assetcheck.formats.gltf import GLTF_FORMATS
from assetcheck.formats.gltf.extension_uses import (
    LIGHTS,
    VARIANTS,
    node_lights,
    root_items,
    variant_mappings,
)
from assetcheck.formats.gltf.fields import as_integer, child
from assetcheck.formats.gltf.links import (
    DocumentLinks,
    animation_samplers,
    index_of,
    linked_extensions,
    texture_infos,
)
from assetcheck.plugins.hookspecs import hookimpl

#: A reference: its pointer, the index, and the collection: by name, or as ``(name, items)``
#: for collections that are not top-level arrays.
Reference = tuple[str, int, str | tuple[str, list]]
WEBP = "EXT_texture_webp"

#: Single references held by objects of a collection: (property, referenced collection).
SINGLE_REFERENCES = {
    "nodes": (("camera", "cameras"), ("mesh", "meshes"), ("skin", "skins")),
    "skins": (("inverseBindMatrices", "accessors"), ("skeleton", "nodes")),
    "textures": (("sampler", "samplers"), ("source", "images")),
}
#: Arrays of references held by objects of a collection: (property, referenced collection).
LIST_REFERENCES = {
    "nodes": (("children", "nodes"),),
    "scenes": (("nodes", "nodes"),),
    "skins": (("joints", "nodes"),),
}


def references(links: DocumentLinks) -> Iterator[Reference]:
    """Every reference checked here: ``(pointer, index, referenced collection)``.

    The referenced collection is named, or given with its items for a channel's ``sampler``
    (the ``samplers`` of its own animation) and for extensions' root arrays.
    """
    document = links.document
    yield from _reference(document, "scene", "", "scenes")
    for name, properties in SINGLE_REFERENCES.items():
        for number, item in enumerate(links.items(name)):
            for key, target in properties:
                index = index_of(item, key)
                if index is not None:  # the pointer only for what is there
                    yield child(child(f"/{name}", number), key), index, target
    for name, properties in LIST_REFERENCES.items():
        for number, item in enumerate(links.items(name)):
            for key, target in properties:
                if item is not None and key in item:
                    yield from _list(item, key, child(child(f"/{name}", number), key), target)
    extensions = linked_extensions(document)
    for number, material in enumerate(links.items("materials")):
        for pointer, _, info in texture_infos(material, child("/materials", number), extensions):
            yield from _reference(info, "index", pointer, "textures")
    for number in range(len(links.items("accessors"))):
        yield from _sparse_views(links, number)
    for primitive in links.primitives:
        for morph_number, morph in enumerate(_targets(primitive.json)):
            at = child(child(primitive.pointer, "targets"), morph_number)
            for semantic in morph:
                yield from _reference(morph, semantic, at, "accessors")
    for number, animation in enumerate(links.items("animations")):
        if animation is not None:
            yield from _animation(animation, child("/animations", number))
    yield from _extension_references(links)


def _reference(
    parent: object,
    key: str,
    at: str,
    target: str | tuple[str, list],
) -> Iterator[Reference]:
    """The reference ``parent[key]`` (``parent`` being at ``at``), when it is an index."""
    index = index_of(parent, key)
    if index is not None:
        yield child(at, key), index, target


def _extension_references(links: DocumentLinks) -> Iterator[Reference]:
    if WEBP in linked_extensions(links.document):
        for number, texture in enumerate(links.items("textures")):
            extension = (texture or {}).get("extensions")
            webp = extension.get(WEBP) if isinstance(extension, dict) else None
            at = child(child(child("/textures", number), "extensions"), WEBP)
            yield from _reference(webp, "source", at, "images")
    lights = root_items(links.document, LIGHTS)
    if lights is not None:
        for at, light in node_lights(links.document):
            yield from _reference(light, "light", at, ("lights", lights))
    variants = root_items(links.document, VARIANTS)
    if variants is not None:
        for mapping in variant_mappings(links):
            for pointer, index in mapping.variants:
                yield pointer, index, ("variants", variants)
            yield from _reference(mapping.json, "material", mapping.pointer, "materials")


def _list(item: dict | None, key: str, at: str, target: str) -> Iterator[Reference]:
    value = item.get(key) if item is not None else None
    if isinstance(value, list):
        for position, entry in enumerate(value):
            number = as_integer(entry)
            if number is not None and number >= 0:
                yield child(at, position), number, target


def _sparse_views(links: DocumentLinks, number: int) -> Iterator[Reference]:
    layout = links.layout(number)
    if layout is None or layout.sparse is None:
        return
    at = child(child("/accessors", number), "sparse")
    yield child(child(at, "indices"), "bufferView"), layout.sparse.indices_view, "bufferViews"
    yield child(child(at, "values"), "bufferView"), layout.sparse.values_view, "bufferViews"


def _targets(primitive: dict) -> list[dict]:
    targets = primitive.get("targets")
    if isinstance(targets, list) and targets and all(isinstance(t, dict) for t in targets):
        return targets
    return []


def _animation(animation: dict, at: str) -> Iterator[Reference]:
    samplers = animation_samplers(animation)
    for number, sampler in samplers:
        for key in ("input", "output"):
            yield from _reference(sampler, key, child(child(at, "samplers"), number), "accessors")
    if not samplers:
        return
    for number, channel in enumerate(animation["channels"]):
        channel_at = child(child(at, "channels"), number)
        target = channel.get("target")
        yield from _reference(target, "node", child(channel_at, "target"), "nodes")
        yield from _reference(channel, "sampler", channel_at, ("samplers", animation["samplers"]))


def check_references(asset: Asset, context: CheckContext) -> None:
    if asset.gltf is None:
        return
    links = asset.gltf.links
    for pointer, index, target in references(links):
        name, items = (target, links.items(target)) if isinstance(target, str) else target
        if index >= len(items) or items[index] is None:
            context.issues.add(
                "UNRESOLVED_REFERENCE", pointer=pointer, index=index, collection=name
            )


@hookimpl
def register_checks() -> list[Check]:
    return [
        Check(
            "gltf-references",
            "Every index reference names an existing object.",
            check_references,
            ("UNRESOLVED_REFERENCE",),
            GLTF_FORMATS,
        )
    ]
