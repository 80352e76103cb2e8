"""Which images a glTF's materials sample, and in which role: what the texture content and
texel density checks judge each image against."""

from __future__ import annotations

import posixpath
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, NamedTuple

from assetcheck.formats.gltf.fields import child
from assetcheck.formats.gltf.links import (
    NORMAL_TEXTURE_KEYS,
    DocumentLinks,
    index_of,
    linked_extensions,
    resolve,
    texture_infos,
)

if TYPE_CHECKING:
    from assetcheck.asset import Asset
    from assetcheck.formats.gltf.image_data import ImageStructure

BASE_COLOR, METALLIC_ROUGHNESS, NORMAL = "baseColorTexture", "metallicRoughnessTexture", "normal"


class Use(NamedTuple):
    """One material's use of an image: the texture info's pointer, the material, its role
    (:data:`BASE_COLOR`, :data:`METALLIC_ROUGHNESS`, :data:`NORMAL` or the texture info's key)."""

    pointer: str
    material: int
    role: str


@dataclass
class SampledImage:
    """An image some material samples, and every use of it."""

    index: int
    uses: list[Use] = field(default_factory=list)

    def used_as(self, role: str) -> list[Use]:
        return [use for use in self.uses if use.role == role]


def sampled_images(links: DocumentLinks) -> dict[int, SampledImage]:
    """Every image a material samples through a texture's ``source`` (or ``EXT_texture_webp``),
    with its uses, by image index."""
    extensions = linked_extensions(links.document)
    textures, images = links.items("textures"), links.items("images")
    found: dict[int, SampledImage] = {}
    for number, material in enumerate(links.items("materials")):
        if material is None:
            continue
        for pointer, key, info in texture_infos(material, child("/materials", number), extensions):
            image = _source(resolve(index_of(info, "index"), textures))
            if image is None or resolve(image, images) is None:
                continue
            role = NORMAL if key in NORMAL_TEXTURE_KEYS else key
            found.setdefault(image, SampledImage(image)).uses.append(Use(pointer, number, role))
    return found


def _source(texture: dict | None) -> int | None:
    source = index_of(texture, "source")
    if source is not None:
        return source
    extensions = texture.get("extensions") if texture is not None else None
    webp = extensions.get("EXT_texture_webp") if isinstance(extensions, dict) else None
    return index_of(webp, "source")


def image_structures(asset: Asset, links: DocumentLinks) -> dict[int, ImageStructure | None]:
    """The structural parse of each image's data (``Texture.structure``), by image index:
    ``asset.textures`` holds one texture per image that is an object, in order."""
    present = [n for n, image in enumerate(links.items("images")) if image is not None]
    return {
        number: texture.structure for number, texture in zip(present, asset.textures, strict=False)
    }


def image_label(links: DocumentLinks, index: int) -> str:
    """An image as messages quote it: its name, else its file's name, else its index."""
    image = resolve(index, links.items("images")) or {}
    name, uri = image.get("name"), image.get("uri")
    if isinstance(name, str) and name:
        return repr(name)
    if isinstance(uri, str) and uri and not uri.startswith("data:"):
        return repr(posixpath.basename(uri))
    return f"#{index}"


def material_label(links: DocumentLinks, index: int) -> str:
    """A material as messages quote it: its name, else its index."""
    name = (resolve(index, links.items("materials")) or {}).get("name")
    return repr(name) if isinstance(name, str) and name else f"#{index}"
