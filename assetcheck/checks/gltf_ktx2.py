"""KTX2 images of a glTF document: every finding of the structural parse (kept by the reader
on the image's :class:`~assetcheck.asset.Texture`), and the ``KHR_texture_basisu`` rules for
each image a texture names through that extension.

The Khronos image codes (``IMAGE_UNEXPECTED_EOS``, ``IMAGE_DATA_INVALID``) stay with the image
check, for parity with Khronos; the ``KTX2_*`` codes here say what exactly is wrong. The
extension's rules (:mod:`assetcheck.checks.gltf_ktx2_basisu`) are imported by the first document
with a KTX2 image.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from assetcheck.asset import Asset
from assetcheck.checks import Check, CheckContext
from assetcheck.formats.gltf import GLTF_FORMATS
from assetcheck.formats.gltf.fields import child
from assetcheck.formats.ktx2.codes import ISSUE_TYPES
from assetcheck.lazy_imports import lazy_module
from assetcheck.plugins.hookspecs import hookimpl

if TYPE_CHECKING:
    from assetcheck.asset import Texture
    from assetcheck.checks import gltf_ktx2_basisu as basisu
    from assetcheck.formats.gltf.links import DocumentLinks
    from assetcheck.formats.ktx2 import Ktx2Image
else:  # the KHR_texture_basisu rules, imported by the first document with a KTX2 image
    basisu = lazy_module("assetcheck.checks.gltf_ktx2_basisu")


def check_ktx2_images(asset: Asset, context: CheckContext) -> None:
    if asset.gltf is None:
        return
    links = asset.gltf.links
    parsed = _ktx2_images(links, asset.textures)
    if not parsed:
        return
    uses = basisu.basisu_uses(links)
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
