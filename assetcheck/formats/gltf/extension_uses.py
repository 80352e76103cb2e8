"""Objects that glTF extensions refer to: what a viewer reaches only through an extension.

Core glTF links a texture to its image with ``source`` and a primitive to its material with
``material``. Some extensions add references of their own, and an object reached only through
them is used all the same:

- ``EXT_texture_webp``, ``KHR_texture_basisu`` and ``MSFT_texture_dds`` give a texture another
  image in their ``source``;
- ``KHR_materials_variants`` gives a primitive other materials in ``mappings[].material``, and
  names the root's variants in ``mappings[].variants``;
- ``KHR_lights_punctual`` gives a node one of the root's lights in ``light``;
- ``KHR_draco_mesh_compression`` gives a primitive the buffer view of its payload, and
  ``EXT_meshopt_compression`` (or KHR's) a buffer view the buffer of its compressed data.

A reference counts only when its extension is listed in ``extensionsUsed`` (an undeclared
extension is ignored by loaders, and reported as ``UNDECLARED_EXTENSION``). Variants and lights
are linked, as in Khronos glTF-Validator, only when the root carries the extension's object too
(:func:`root_items`). Indices are returned as written; callers check that they resolve.
:func:`material_needs` gathers what a primitive's material and its variants' materials ask of
it, tangents for
``KHR_materials_anisotropy`` included (see :class:`~assetcheck.formats.gltf.links.MaterialNeeds`).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, NamedTuple

from assetcheck.formats.gltf.fields import as_integer, child, extensions_used
from assetcheck.formats.gltf.links import (
    DocumentLinks,
    MaterialNeeds,
    Primitive,
    collection,
    index_of,
    linked_extensions,
    resolves,
)

DRACO = "KHR_draco_mesh_compression"
MESHOPT = ("EXT_meshopt_compression", "KHR_meshopt_compression")
#: Texture extensions whose ``source`` names an image.
IMAGE_SOURCE_EXTENSIONS = ("EXT_texture_webp", "KHR_texture_basisu", "MSFT_texture_dds")
VARIANTS = "KHR_materials_variants"
LIGHTS = "KHR_lights_punctual"
#: The root array of each extension that has one, and what its elements are called.
ROOT_ARRAYS = {LIGHTS: "lights", VARIANTS: "variants"}


class VariantMapping(NamedTuple):
    """One ``mappings`` element of a primitive's ``KHR_materials_variants`` object."""

    primitive: Primitive
    pointer: str
    json: dict[str, Any]

    @property
    def variants(self) -> list[tuple[str, int]]:
        """The valid (non-negative integer) variant indices: ``(pointer, index)``."""
        values = self.json.get("variants")
        at = child(self.pointer, "variants")
        return [
            (child(at, number), index)
            for number, value in enumerate(values if isinstance(values, list) else ())
            if (index := as_integer(value)) is not None and index >= 0
        ]


def _extension(item: object, name: str) -> dict[str, Any] | None:
    extensions = item.get("extensions") if isinstance(item, dict) else None
    value = extensions.get(name) if isinstance(extensions, dict) else None
    return value if isinstance(value, dict) else None


def _object_array(value: object) -> list[dict] | None:
    if isinstance(value, list) and value and all(isinstance(item, dict) for item in value):
        return value
    return None


def root_items(document: dict[str, Any], extension: str) -> list[dict] | None:
    """The lights or variants of the root's ``extension`` object, as Khronos links them: None
    without that object (or the declaration), an empty list when its array is unusable."""
    if extension not in linked_extensions(document):
        return None
    root = _extension(document, extension)
    if root is None:
        return None
    return _object_array(root.get(ROOT_ARRAYS[extension])) or []


def root_pointer(extension: str, index: int) -> str:
    """The JSON Pointer of element ``index`` of the root array of ``extension``."""
    return child(child(child("/extensions", extension), ROOT_ARRAYS[extension]), index)


def node_lights(document: dict[str, Any]) -> Iterator[tuple[str, object]]:
    """Each node's ``KHR_lights_punctual`` object (when declared): ``(pointer, object)``."""
    if LIGHTS not in linked_extensions(document):
        return
    for number, node in enumerate(collection(document, "nodes")):
        light = _extension(node, LIGHTS)
        if light is not None:
            yield child(child(child("/nodes", number), "extensions"), LIGHTS), light


def variant_mappings(links: DocumentLinks) -> Iterator[VariantMapping]:
    """The mappings of every primitive's ``KHR_materials_variants`` object (when declared and
    its ``mappings`` is a usable array)."""
    if VARIANTS not in linked_extensions(links.document):
        return
    for primitive in links.primitives:
        mappings = _object_array((_extension(primitive.json, VARIANTS) or {}).get("mappings"))
        at = child(child(child(primitive.pointer, "extensions"), VARIANTS), "mappings")
        for number, mapping in enumerate(mappings or ()):
            yield VariantMapping(primitive, child(at, number), mapping)


def extension_image_sources(document: dict[str, Any]) -> Iterator[int]:
    """The images that textures name through a declared image-source extension."""
    declared = extensions_used(document)
    names = [name for name in IMAGE_SOURCE_EXTENSIONS if name in declared]
    for texture in collection(document, "textures"):
        for name in names:
            source = index_of(_extension(texture, name), "source")
            if source is not None:
                yield source


def compressed_data_sources(document: dict[str, Any]) -> Iterator[tuple[str, int]]:
    """``(collection, index)`` of the buffer views and buffers that hold compressed geometry."""
    declared = extensions_used(document)
    if DRACO in declared:
        for mesh in collection(document, "meshes"):
            primitives = mesh.get("primitives") if mesh is not None else None
            for primitive in primitives if isinstance(primitives, list) else ():
                view = index_of(_extension(primitive, DRACO), "bufferView")
                if view is not None:
                    yield "bufferViews", view
    names = [name for name in MESHOPT if name in declared]
    for view_json in collection(document, "bufferViews"):
        for name in names:
            buffer = index_of(_extension(view_json, name), "buffer")
            if buffer is not None:
                yield "buffers", buffer


def variant_materials(links: DocumentLinks) -> Iterator[int]:
    """The materials that primitives map to variants through ``KHR_materials_variants``."""
    for primitive in links.primitives:
        yield from primitive_variant_materials(links.document, primitive.json)


def primitive_variant_materials(document: dict[str, Any], primitive: object) -> list[int]:
    """The materials one primitive maps to variants (empty unless ``KHR_materials_variants``
    is declared and the root has its object)."""
    if root_items(document, VARIANTS) is None:
        return []
    mappings = (_extension(primitive, VARIANTS) or {}).get("mappings")
    return [
        material
        for mapping in (_object_array(mappings) or ())
        if (material := index_of(mapping, "material")) is not None
    ]


def material_needs(links: DocumentLinks, primitive: Primitive) -> list[MaterialNeeds]:
    """What the primitive's material and the materials of its variants ask of it."""
    numbers = [primitive.material, *primitive_variant_materials(links.document, primitive.json)]
    return [
        needs
        for number in numbers
        if resolves(number, links.materials) and (needs := links.materials[number]) is not None
    ]
