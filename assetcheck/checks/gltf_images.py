"""Images: one source (buffer view or URI), and image data against its declared MIME type.

Image headers are read with :mod:`assetcheck.images`, never decoded. Embedded images (buffer
views and ``data:`` URIs) are fully checked; for images in separate files the reader's
:class:`~assetcheck.model.Texture` gives the size and, when no ``mimeType`` is declared, the
detected format.
"""

from __future__ import annotations

from assetcheck.checks import Check, CheckContext
from assetcheck.checks.gltf_links import (
    DocumentLinks,
    document_links,
    index_of,
    resolves,
)
from assetcheck.checks.gltf_schema import GLTF_FORMATS, extensions_used
from assetcheck.formats.gltf_fields import child
from assetcheck.formats.gltf_uris import UriKind, classify_uri, decode_data_uri
from assetcheck.hookspecs import hookimpl
from assetcheck.images import ImageInfo, image_info
from assetcheck.issues import FileIssues
from assetcheck.model import Asset, Texture

#: The formats Khronos recognises, and those glTF allows without an extension.
RECOGNISED = frozenset({"image/png", "image/jpeg", "image/webp", "image/ktx2"})
ENABLED = frozenset({"image/png", "image/jpeg"})
#: The extension that allows each other format; listing it in ``extensionsUsed`` enables it.
FORMAT_EXTENSIONS = {"image/webp": "EXT_texture_webp", "image/ktx2": "KHR_texture_basisu"}

CODES = ("ONE_OF_MISMATCH", "URI_GLB", "DATA_URI_GLB", "IMAGE_BUFFER_VIEW_WITH_BYTESTRIDE",
         "IMAGE_UNRECOGNIZED_FORMAT", "IMAGE_NON_ENABLED_MIME_TYPE", "IMAGE_MIME_TYPE_INVALID",
         "IMAGE_NPOT_DIMENSIONS")


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
        for index, image in enumerate(self.links.items("images")):
            if image is not None:
                self._check(image, child("/images", index), next(textures, None))

    def _check(self, image: dict, at: str, texture: Texture | None) -> None:
        uri = image.get("uri") if isinstance(image.get("uri"), str) else None
        view = index_of(image, "bufferView")
        if (view is None) == (uri is None):
            self.issues.add("ONE_OF_MISMATCH", pointer=at, names="bufferView, uri")
        views = self.links.items("bufferViews")
        if resolves(view, views) and "byteStride" in views[view]:
            self.issues.add("IMAGE_BUFFER_VIEW_WITH_BYTESTRIDE", pointer=child(at, "bufferView"))
        kind = classify_uri(uri) if uri is not None else None
        if uri is not None and self.asset.format == "glb":
            self.issues.add("URI_GLB", pointer=child(at, "uri"))
            if kind is UriKind.DATA:
                self.issues.add("DATA_URI_GLB", pointer=child(at, "uri"))
        if kind is UriKind.DATA:
            self._check_data(image, at, "uri", _data_uri_image(uri))
        elif uri is None and view is not None:
            data = self.links.reader.view_slice(view)
            if data is not None:
                self._check_data(image, at, "bufferView", image_info(data.data) or _UNKNOWN)
        elif kind is UriKind.RELATIVE and texture is not None and texture.byte_size is not None:
            # The reader's texture holds the detected format only when none is declared.
            declared = isinstance(image.get("mimeType"), str)
            info = ImageInfo(texture.mime_type or "", texture.width, texture.height)
            self._check_data(image, at, "uri", info, check_format=not declared)

    def _check_data(self, image: dict, at: str, source: str, info: ImageInfo | None,
                    check_format: bool = True) -> None:
        if info is None:
            return
        if check_format and info.mime_type not in RECOGNISED:
            self.issues.add("IMAGE_UNRECOGNIZED_FORMAT", pointer=at)
            return
        declared = image.get("mimeType")
        if check_format and info.mime_type not in self.enabled:
            self.issues.add("IMAGE_NON_ENABLED_MIME_TYPE", pointer=at, mime_type=info.mime_type,
                            extension=FORMAT_EXTENSIONS[info.mime_type])
        if check_format and isinstance(declared, str) and declared != info.mime_type:
            self.issues.add("IMAGE_MIME_TYPE_INVALID", pointer=child(at, source),
                            actual=info.mime_type, declared=declared)
        if info.width is not None and info.height is not None and not (
                is_power_of_two(info.width) and is_power_of_two(info.height)):
            self.issues.add("IMAGE_NPOT_DIMENSIONS", pointer=at, width=info.width,
                            height=info.height)


#: Image data whose format is not recognised.
_UNKNOWN = ImageInfo("")


def _data_uri_image(uri: str) -> ImageInfo | None:
    """The image in a data: URI; None when it is malformed or not what it declares (the reader
    reports those, and Khronos drops such data)."""
    try:
        decoded = decode_data_uri(uri)
    except ValueError:
        return None
    info = image_info(decoded.data)
    if info is None or info.mime_type != decoded.media_type:
        return None
    return info


def check_images(asset: Asset, context: CheckContext) -> None:
    if asset.document is not None:
        _ImageChecker(asset, document_links(asset), context.issues).check()


@hookimpl
def register_checks() -> list[Check]:
    return [Check("gltf-images", "Images: one source each; data in a recognised format that "
                  "matches the declared MIME type; power-of-two sizes.", check_images, CODES,
                  GLTF_FORMATS)]
