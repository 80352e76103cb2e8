"""KTX2 images of a glTF document: every finding of the structural parse (kept by the reader
on the image's :class:`~assetcheck.asset.Texture`), and the ``KHR_texture_basisu`` rules for
each image a texture names through that extension.

The Khronos image codes (``IMAGE_UNEXPECTED_EOS``, ``IMAGE_DATA_INVALID``) stay with the image
check, for parity with Khronos; the ``KTX2_*`` codes here say what exactly is wrong.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from assetcheck.asset import Asset
from assetcheck.checks import Check, CheckContext
from assetcheck.formats.gltf import GLTF_FORMATS
from assetcheck.formats.gltf.fields import child, extensions_used
from assetcheck.formats.gltf.links import (
    DocumentLinks,
    index_of,
    resolve,
    texture_infos,
)
from assetcheck.formats.ktx2.codes import ISSUE_TYPES
from assetcheck.issues.findings import Finding
from assetcheck.plugins.hookspecs import hookimpl

if TYPE_CHECKING:
    from assetcheck.formats.ktx2 import Ktx2Image

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


@dataclass
class BasisuUse:
    """How a document uses one image through the extension."""

    #: Some texture samples it with mipmaps (no sampler, or no minFilter, counts).
    needs_mipmaps: bool = False
    #: Each material slot that shows it: the slot's pointer and whether it holds colour.
    slots: list[tuple[str, bool]] = field(default_factory=list)


def check_ktx2_images(asset: Asset, context: CheckContext) -> None:
    if asset.gltf is None:
        return
    links = asset.gltf.links
    basisu = _basisu_uses(links)
    textures = iter(asset.textures)
    for index, image in enumerate(links.items("images")):
        if image is None:
            continue
        texture = next(textures, None)
        structure = texture.structure if texture is not None else None
        if structure is None or structure.ktx2 is None:
            continue
        findings = structure.ktx2.findings
        if index in basisu:
            findings += _basisu_findings(structure.ktx2, basisu[index])
        for finding in findings:
            finding.at(pointer=child("/images", index)).report_to(context.issues)


def _basisu_findings(image: Ktx2Image, use: BasisuUse) -> tuple[Finding, ...]:
    """The extension's rules, and its colour space rule once per kind of slot."""
    from assetcheck.formats.ktx2.basisu import basisu_findings, color_space_finding

    findings = basisu_findings(image, needs_mipmaps=use.needs_mipmaps)
    reported = set()
    for pointer, colour in use.slots:
        finding = color_space_finding(image, pointer, colour)
        if finding is not None and colour not in reported:
            reported.add(colour)
            findings += (finding,)
    return findings


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
        use = uses.setdefault(source, BasisuUse())
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
