"""KTX2 images of a glTF document: every finding of the structural parse (kept by the reader
on the image's :class:`~assetcheck.asset.Texture`), and the ``KHR_texture_basisu`` rules for
each image a texture names through that extension.

The Khronos image codes (``IMAGE_UNEXPECTED_EOS``, ``IMAGE_DATA_INVALID``) stay with the image
check, for parity with Khronos; the ``KTX2_*`` codes here say what exactly is wrong. The
extension's rules (:mod:`assetcheck.formats.ktx2.basisu`) are imported by the first document
with a KTX2 image.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from assetcheck.asset import Asset
from assetcheck.checks import Check, CheckContext
from assetcheck.formats.gltf import GLTF_FORMATS
from assetcheck.formats.gltf.fields import child, extensions_used
from assetcheck.formats.gltf.links import DocumentLinks, index_of, resolve, texture_infos
from assetcheck.formats.ktx2.codes import ISSUE_TYPES
from assetcheck.lazy_imports import lazy_module
from assetcheck.plugins.hookspecs import hookimpl

if TYPE_CHECKING:
    from assetcheck.asset import Texture
    from assetcheck.formats.ktx2 import Ktx2Image, basisu
    from assetcheck.formats.ktx2.basisu import BasisuUse
else:  # the KHR_texture_basisu rules, imported by the first document with a KTX2 image
    basisu = lazy_module("assetcheck.formats.ktx2.basisu")

EXTENSION = "KHR_texture_basisu"
#: Minification filters that sample mipmaps (NEAREST_MIPMAP_NEAREST .. LINEAR_MIPMAP_LINEAR).
MIPMAP_FILTERS = frozenset({9984, 9985, 9986, 9987})
#: Material texture slots that hold colour (sRGB) data; every other slot holds linear data.
COLOUR_SLOTS = frozenset(
    {
        "baseColorTexture",
        "emissiveTexture",
        "sheenColorTexture",
        "specularColorTexture",
        "diffuseTexture",
        "specularGlossinessTexture",
    }
)


def check_ktx2_images(asset: Asset, context: CheckContext) -> None:
    if asset.gltf is None:
        return
    links = asset.gltf.links
    parsed = _ktx2_images(links, asset.textures)
    if not parsed:
        return
    uses = _basisu_uses(links)
    for index, image in parsed:
        findings = image.findings
        if index in uses:
            findings += basisu.use_findings(image, uses[index])
        for finding in findings:
            finding.at(pointer=child("/images", index)).report_to(context.issues)


def _ktx2_images(links: DocumentLinks, textures: Iterable[Texture]) -> list[tuple[int, Ktx2Image]]:
    """Each image the reader parsed as KTX2, with its index: the document's images in order,
    each with the next of ``textures`` (the asset's)."""
    remaining = iter(textures)
    parsed = []
    for index, image in enumerate(links.items("images")):
        if image is None:
            continue
        texture = next(remaining, None)
        structure = texture.structure if texture is not None else None
        if structure is not None and structure.ktx2 is not None:
            parsed.append((index, structure.ktx2))
    return parsed


def _basisu_uses(links: DocumentLinks) -> dict[int, BasisuUse]:
    """Each image a texture names through the extension, and how it is used."""
    samplers = links.items("samplers")
    sources: dict[int, int] = {}
    uses: dict[int, BasisuUse] = {}
    for number, texture in enumerate(links.items("textures")):
        extension = (texture or {}).get("extensions")
        source = index_of(
            extension.get(EXTENSION) if isinstance(extension, dict) else None, "source"
        )
        if source is None:
            continue
        sources[number] = source
        sampler = resolve(index_of(texture, "sampler"), samplers)
        min_filter = sampler.get("minFilter") if sampler is not None else None
        use = uses.setdefault(source, basisu.BasisuUse())
        use.needs_mipmaps |= not isinstance(min_filter, int) or min_filter in MIPMAP_FILTERS
    declared = frozenset(extensions_used(links.document))
    for number, material in enumerate(links.items("materials")):
        for pointer, key, info in texture_infos(material, child("/materials", number), declared):
            texture_index = index_of(info, "index")
            source = sources.get(texture_index) if texture_index is not None else None
            if source is not None:
                uses[source].slots.append((pointer, key in COLOUR_SLOTS))
    return uses


@hookimpl
def register_checks() -> list[Check]:
    return [
        Check(
            "gltf-ktx2",
            "KTX2 images: the file structure against the KTX 2.0 "
            "specification, without transcoding, and the KHR_texture_basisu rules.",
            check_ktx2_images,
            tuple(t.code for t in ISSUE_TYPES),
            GLTF_FORMATS,
        )
    ]
