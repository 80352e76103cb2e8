"""How a glTF document uses its images through ``KHR_texture_basisu``, and the extension's rules
for each: imported by the ``gltf-ktx2`` check (:mod:`assetcheck.checks.gltf_ktx2`) for the first
document with a KTX2 image, so a run without one never loads it (``docs/performance.md``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from assetcheck.formats.gltf.fields import child, extensions_used
from assetcheck.formats.gltf.links import DocumentLinks, index_of, resolve, texture_infos
from assetcheck.formats.ktx2.basisu import basisu_findings, color_space_finding
from assetcheck.issues.findings import Finding

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


def use_findings(image: Ktx2Image, use: BasisuUse) -> tuple[Finding, ...]:
    """The extension's rules, and its colour space rule once per kind of slot."""
    findings = basisu_findings(image, needs_mipmaps=use.needs_mipmaps)
    reported = set()
    for pointer, colour in use.slots:
        finding = color_space_finding(image, pointer, colour)
        if finding is not None and colour not in reported:
            reported.add(colour)
            findings += (finding,)
    return findings


def basisu_uses(links: DocumentLinks) -> dict[int, BasisuUse]:
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
