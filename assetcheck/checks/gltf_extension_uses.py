"""Objects that glTF extensions refer to: what a viewer reaches only through an extension.

Core glTF links a texture to its image with ``source`` and a primitive to its material with
``material``. Some extensions add references of their own, and an object reached only through
them is used all the same:

- ``EXT_texture_webp``, ``KHR_texture_basisu`` and ``MSFT_texture_dds`` give a texture another
  image in their ``source``;
- ``KHR_materials_variants`` gives a primitive other materials in ``mappings[].material``.

A reference counts only when its extension is listed in ``extensionsUsed`` (an undeclared
extension is ignored by loaders, and reported as ``UNDECLARED_EXTENSION``). Indices are
returned as written; callers check that they resolve. :func:`material_needs` gathers what a
primitive's material and its variants' materials ask of it, tangents for
``KHR_materials_anisotropy`` included (see :class:`~assetcheck.checks.gltf_links.MaterialNeeds`).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from assetcheck.checks.gltf_links import (
    DocumentLinks,
    MaterialNeeds,
    Primitive,
    collection,
    index_of,
    resolves,
)
from assetcheck.checks.gltf_schema import extensions_used

#: Texture extensions whose ``source`` names an image.
IMAGE_SOURCE_EXTENSIONS = ("EXT_texture_webp", "KHR_texture_basisu", "MSFT_texture_dds")
VARIANTS = "KHR_materials_variants"


def _extension(item: object, name: str) -> dict[str, Any] | None:
    extensions = item.get("extensions") if isinstance(item, dict) else None
    value = extensions.get(name) if isinstance(extensions, dict) else None
    return value if isinstance(value, dict) else None


def extension_image_sources(document: dict[str, Any]) -> Iterator[int]:
    """The images that textures name through a declared image-source extension."""
    declared = extensions_used(document)
    names = [name for name in IMAGE_SOURCE_EXTENSIONS if name in declared]
    for texture in collection(document, "textures"):
        for name in names:
            source = index_of(_extension(texture, name), "source")
            if source is not None:
                yield source


def variant_materials(document: dict[str, Any]) -> Iterator[int]:
    """The materials that primitives map to variants through ``KHR_materials_variants``."""
    for mesh in collection(document, "meshes"):
        primitives = mesh.get("primitives") if mesh is not None else None
        for primitive in primitives if isinstance(primitives, list) else ():
            yield from primitive_variant_materials(document, primitive)


def primitive_variant_materials(document: dict[str, Any], primitive: object) -> list[int]:
    """The materials one primitive maps to variants (empty unless ``KHR_materials_variants``
    is declared)."""
    if VARIANTS not in extensions_used(document):
        return []
    mappings = (_extension(primitive, VARIANTS) or {}).get("mappings")
    return [material for mapping in (mappings if isinstance(mappings, list) else ())
            if (material := index_of(mapping, "material")) is not None]


def material_needs(links: DocumentLinks, primitive: Primitive) -> list[MaterialNeeds]:
    """What the primitive's material and the materials of its variants ask of it."""
    numbers = [primitive.material,
               *primitive_variant_materials(links.document, primitive.json)]
    return [needs for number in numbers if resolves(number, links.materials)
            and (needs := links.materials[number]) is not None]
