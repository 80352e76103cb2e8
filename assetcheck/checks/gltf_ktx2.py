"""KTX2 images of a glTF document: every finding of the structural parse (kept by the reader
on the image's :class:`~assetcheck.asset.Texture`), and the ``KHR_texture_basisu`` rules for
each image a texture names through that extension.

The Khronos image codes (``IMAGE_UNEXPECTED_EOS``, ``IMAGE_DATA_INVALID``) stay with the image
check, for parity with Khronos; the ``KTX2_*`` codes here say what exactly is wrong.
"""

from __future__ import annotations

from assetcheck.asset import Asset
from assetcheck.checks import Check, CheckContext
from assetcheck.checks.gltf_links import DocumentLinks, document_links, index_of, resolves
from assetcheck.checks.gltf_schema import GLTF_FORMATS
from assetcheck.codes.ktx2 import ISSUE_TYPES
from assetcheck.formats.gltf_fields import child
from assetcheck.hookspecs import hookimpl
from assetcheck.ktx2 import Ktx2Image
from assetcheck.ktx2.basisu import basisu_problems

EXTENSION = "KHR_texture_basisu"
#: Minification filters that sample mipmaps (NEAREST_MIPMAP_NEAREST .. LINEAR_MIPMAP_LINEAR).
MIPMAP_FILTERS = frozenset({9984, 9985, 9986, 9987})


def check_ktx2_images(asset: Asset, context: CheckContext) -> None:
    if asset.document is None:
        return
    links = document_links(asset)
    basisu = _basisu_sources(links)
    textures = iter(asset.textures)
    for index, image in enumerate(links.items("images")):
        if image is None:
            continue
        texture = next(textures, None)
        structure = texture.structure if texture is not None else None
        if structure is None or structure.ktx2 is None:
            continue
        ktx2: Ktx2Image = structure.ktx2
        problems = ktx2.problems
        if index in basisu:
            problems += basisu_problems(ktx2, needs_mipmaps=basisu[index])
        for problem in problems:
            context.issues.add(problem.code, pointer=child("/images", index), **problem.fields)


def _basisu_sources(links: DocumentLinks) -> dict[int, bool]:
    """Each image a texture names through the extension, and whether some such texture
    samples it with mipmaps (no sampler, or no minFilter, counts as mipmapped)."""
    samplers = links.items("samplers")
    sources: dict[int, bool] = {}
    for texture in links.items("textures"):
        extension = (texture or {}).get("extensions", {})
        source = index_of(extension.get(EXTENSION) if isinstance(extension, dict) else None,
                          "source")
        if source is None:
            continue
        sampler = index_of(texture, "sampler")
        min_filter = samplers[sampler].get("minFilter") if resolves(sampler, samplers) else None
        mipmapped = not isinstance(min_filter, int) or min_filter in MIPMAP_FILTERS
        sources[source] = sources.get(source, False) or mipmapped
    return sources


@hookimpl
def register_checks() -> list[Check]:
    return [Check("gltf-ktx2", "KTX2 images: the file structure against the KTX 2.0 "
                  "specification, without transcoding, and the KHR_texture_basisu rules.",
                  check_ktx2_images, tuple(t.code for t in ISSUE_TYPES), GLTF_FORMATS)]
