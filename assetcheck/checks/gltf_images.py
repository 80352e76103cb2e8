"""Images: one source (buffer view or URI), and image data against its declared MIME type.

The reader parses each image's structure with :mod:`assetcheck.formats.gltf.image_data` (headers and
chunks, never pixels) and keeps it on its :class:`~assetcheck.asset.Texture`; this check
reports what Khronos reports of it, whatever the source (buffer view, ``data:`` URI or file).
"""

from __future__ import annotations

from assetcheck.asset import Asset, Texture
from assetcheck.checks import Check, CheckContext
from assetcheck.formats.gltf import GLTF_FORMATS
from assetcheck.formats.gltf.fields import child, extensions_used
from assetcheck.formats.gltf.image_data import ImageStructure
from assetcheck.formats.gltf.links import (
    DocumentLinks,
    index_of,
    resolve,
)
from assetcheck.formats.gltf.uris import UriKind, classify_uri, decode_data_uri
from assetcheck.formats.images import image_info
from assetcheck.issues import FileIssues
from assetcheck.plugins.hookspecs import hookimpl

#: The formats Khronos recognises, and those glTF allows without an extension.
RECOGNISED = frozenset({"image/png", "image/jpeg", "image/webp", "image/ktx2"})
ENABLED = frozenset({"image/png", "image/jpeg"})
#: The extension that allows each other format; listing it in ``extensionsUsed`` enables it.
FORMAT_EXTENSIONS = {"image/webp": "EXT_texture_webp", "image/ktx2": "KHR_texture_basisu"}

CODES = (
    "TEXTURE_INVALID_IMAGE_MIME_TYPE",
    "ONE_OF_MISMATCH",
    "URI_GLB",
    "DATA_URI_GLB",
    "IMAGE_BUFFER_VIEW_WITH_BYTESTRIDE",
    "IMAGE_UNRECOGNIZED_FORMAT",
    "IMAGE_UNEXPECTED_EOS",
    "IMAGE_DATA_INVALID",
    "IMAGE_NON_ENABLED_MIME_TYPE",
    "IMAGE_MIME_TYPE_INVALID",
    "IMAGE_NPOT_DIMENSIONS",
    "IMAGE_FEATURES_UNSUPPORTED",
)


def is_power_of_two(value: int) -> bool:
    return value > 0 and value & (value - 1) == 0


class _ImageChecker:
    def __init__(self, asset: Asset, links: DocumentLinks, issues: FileIssues) -> None:
        self.asset = asset
        self.links = links
        self.issues = issues
        declared = extensions_used(links.document)
        self.enabled = ENABLED | {f for f, e in FORMAT_EXTENSIONS.items() if e in declared}

    def check(self) -> None:
        textures = iter(self.asset.textures)
        structures: dict[int, ImageStructure | None] = {}
        for index, image in enumerate(self.links.items("images")):
            if image is not None:
                structures[index] = self._check(
                    image, child("/images", index), next(textures, None)
                )
        self._check_texture_sources(structures)

    def _check_texture_sources(self, structures: dict[int, ImageStructure | None]) -> None:
        """A texture's own ``source`` must be PNG or JPEG; other formats go in extensions.
        (A format no declared extension enables is reported on its image only.)"""
        for index, texture in enumerate(self.links.items("textures")):
            source = index_of(texture, "source")
            structure = structures.get(source) if source is not None else None
            if (
                structure is not None
                and structure.readable
                and structure.mime_type in self.enabled - ENABLED
            ):
                self.issues.add(
                    "TEXTURE_INVALID_IMAGE_MIME_TYPE",
                    pointer=child(child("/textures", index), "source"),
                    mime_type=structure.mime_type,
                )

    def _check(self, image: dict, at: str, texture: Texture | None) -> ImageStructure | None:
        """Check one image; returns the structure of its data (None when not read)."""
        uri = image.get("uri")
        if not isinstance(uri, str):
            uri = None
        view = index_of(image, "bufferView")
        if (view is None) == (uri is None):
            self.issues.add("ONE_OF_MISMATCH", pointer=at, names="bufferView, uri")
        view_json = resolve(view, self.links.items("bufferViews"))
        if view_json is not None and "byteStride" in view_json:
            self.issues.add("IMAGE_BUFFER_VIEW_WITH_BYTESTRIDE", pointer=child(at, "bufferView"))
        kind = classify_uri(uri) if uri is not None else None
        if uri is not None and self.asset.format == "glb":
            self.issues.add("URI_GLB", pointer=child(at, "uri"))
            if kind is UriKind.DATA:
                self.issues.add("DATA_URI_GLB", pointer=child(at, "uri"))
        structure = texture.structure if texture is not None else None
        if kind is UriKind.DATA and uri is not None and not _data_uri_matches(uri):
            structure = None  # reported by the reader; Khronos drops such data
        if uri is None and view is None:
            structure = None
        self._check_structure(image, at, "uri" if uri is not None else "bufferView", structure)
        return structure

    def _check_structure(
        self, image: dict, at: str, source: str, structure: ImageStructure | None
    ) -> None:
        """Khronos' checks of image data, in its order: format, structure, enabled formats,
        declared MIME type, size, features."""
        if structure is None:
            return
        mime_type = structure.mime_type
        if mime_type not in RECOGNISED:
            self.issues.add("IMAGE_UNRECOGNIZED_FORMAT", pointer=at)
            return
        if structure.truncated:
            self.issues.add("IMAGE_UNEXPECTED_EOS", pointer=at)
            return
        if structure.invalid is not None:
            self.issues.add("IMAGE_DATA_INVALID", pointer=at, reason=structure.invalid)
            return
        if mime_type not in self.enabled:
            self.issues.add(
                "IMAGE_NON_ENABLED_MIME_TYPE",
                pointer=at,
                mime_type=mime_type,
                extension=FORMAT_EXTENSIONS[mime_type],
            )
        declared = image.get("mimeType")
        if isinstance(declared, str) and declared != mime_type:
            self.issues.add(
                "IMAGE_MIME_TYPE_INVALID",
                pointer=child(at, source),
                actual=mime_type,
                declared=declared,
            )
        width, height = structure.width, structure.height
        if (
            width is not None
            and height is not None
            and not (is_power_of_two(width) and is_power_of_two(height))
        ):
            self.issues.add("IMAGE_NPOT_DIMENSIONS", pointer=at, width=width, height=height)
        if structure.unsupported_features:
            self.issues.add("IMAGE_FEATURES_UNSUPPORTED", pointer=at)


def _data_uri_matches(uri: str) -> bool:
    """Whether a data: URI decodes to data of the media type it declares."""
    try:
        decoded = decode_data_uri(uri)
    except ValueError:
        return False
    info = image_info(decoded.data)
    return info is not None and info.mime_type == decoded.media_type


def check_images(asset: Asset, context: CheckContext) -> None:
    if asset.gltf is not None:
        _ImageChecker(asset, asset.gltf.links, context.issues).check()


@hookimpl
def register_checks() -> list[Check]:
    return [
        Check(
            "gltf-images",
            "Images: one source each; data in a recognised format that "
            "matches the declared MIME type; power-of-two sizes.",
            check_images,
            CODES,
            GLTF_FORMATS,
        )
    ]
