"""Resolving a glTF's buffers and images to bytes: the GLB BIN chunk, data: URIs, upload files.

Relative URIs are read only through :meth:`SourceFile.read_resource`, which cannot leave the
upload; URIs that point elsewhere were already reported by
:func:`~assetcheck.formats.gltf.uris.report_unsafe_uris` and are simply not loaded.
"""

from __future__ import annotations

import posixpath
from typing import NamedTuple

from assetcheck.asset import Texture
from assetcheck.formats.gltf.fields import FieldReader, child
from assetcheck.formats.gltf.image_data import parse_image
from assetcheck.formats.gltf.layout import Buffer, Bytes, view_bytes
from assetcheck.formats.gltf.uris import (
    UriKind,
    classify_uri,
    content_mismatch,
    decode_data_uri,
    shorten_uri,
)
from assetcheck.formats.images import image_info
from assetcheck.formats.source import SourceFile

#: The media types a buffer's data: URI may declare.
BUFFER_MEDIA_TYPES = frozenset({"application/octet-stream", "application/gltf-buffer"})

#: Khronos tolerates up to 3 bytes of padding after buffer 0's data in the BIN chunk.
_GLB_PADDING = 3


class Resource(NamedTuple):
    """What a URI resolved to: its bytes (None when unavailable) and a data: URI's media type."""

    data: Bytes | None
    media_type: str | None = None


class ResourceLoader:
    """Loads the URIs of one document, reporting what cannot be loaded."""

    def __init__(self, source: SourceFile, fields: FieldReader) -> None:
        self.source = source
        self.fields = fields

    def load(self, uri: str, pointer: str) -> Resource:
        """The bytes ``uri`` names: decoded data, an upload file, or nothing for unsafe URIs."""
        issues = self.fields.issues
        kind = classify_uri(uri, self.source.base)
        if kind is UriKind.DATA:
            try:
                decoded = decode_data_uri(uri)
            except ValueError as error:
                issues.add("INVALID_URI", pointer=pointer, uri=shorten_uri(uri), reason=str(error))
                return Resource(None)
            actual = content_mismatch(decoded.media_type, decoded.data)
            if actual is not None:
                issues.add(
                    "GLTF_DATA_URI_MISMATCH",
                    pointer=pointer,
                    declared=decoded.media_type,
                    actual=actual,
                )
            return Resource(decoded.data, decoded.media_type)
        if kind is UriKind.RELATIVE:
            data = self.source.read_resource(uri.replace("\\", "/"))
            if data is None:
                issues.add(
                    "IO_ERROR",
                    pointer=pointer,
                    uri=shorten_uri(uri),
                    reason="no such file in the upload",
                )
            return Resource(data)
        return Resource(None)


def load_buffers(
    buffers: list[dict | None],
    loader: ResourceLoader,
    *,
    glb_bin: Bytes | None = None,
    is_glb: bool = False,
) -> list[Buffer | None]:
    """Every buffer's declared length and bytes, index-aligned with ``buffers``.

    In a GLB, buffer 0 without a URI is the BIN chunk. Real lengths are compared with declared
    ones here, before anything could be allocated from them.
    """
    fields = loader.fields
    loaded: list[Buffer | None] = []
    for index, buffer in enumerate(buffers):
        if buffer is None:
            loaded.append(None)
            continue
        at = child("/buffers", index)
        declared = fields.integer(buffer, "byteLength", at, required=True, minimum=1)
        uri = fields.string(buffer, "uri", at)
        data: Bytes | None = None
        if uri is not None:
            resource = loader.load(uri, child(at, "uri"))
            data = resource.data
            if resource.media_type is not None and resource.media_type not in BUFFER_MEDIA_TYPES:
                fields.issues.add(
                    "BUFFER_DATA_URI_MIME_TYPE_INVALID",
                    pointer=child(at, "uri"),
                    mime_type=resource.media_type,
                )
        elif index == 0 and is_glb:
            data = glb_bin
            if data is None:
                fields.issues.add("BUFFER_MISSING_GLB_DATA", pointer=at)
            elif declared is not None and len(data) - declared > _GLB_PADDING:
                fields.issues.add(
                    "BUFFER_GLB_CHUNK_TOO_BIG", pointer=at, extra=len(data) - declared
                )
        if data is not None and declared is not None and len(data) < declared:
            fields.issues.add(
                "BUFFER_BYTE_LENGTH_MISMATCH", pointer=at, actual=len(data), declared=declared
            )
        loaded.append(Buffer(declared, data))
    return loaded


def load_images(
    images: list[dict | None],
    buffer_views: list[dict | None],
    buffers: list[Buffer | None],
    loader: ResourceLoader,
) -> tuple[list[Texture], dict[int, Bytes]]:
    """A :class:`Texture` per image, with its size in bytes and pixels when they are known,
    and the bytes of each image that has them, by image index (for the content checks)."""
    fields = loader.fields
    textures = []
    found: dict[int, Bytes] = {}
    for index, image in enumerate(images):
        if image is None:
            continue
        at = child("/images", index)
        uri = fields.string(image, "uri", at)
        media_type = image.get("mimeType") if isinstance(image.get("mimeType"), str) else None
        data: Bytes | None = None
        external_uri = None
        if uri is not None:
            resource = loader.load(uri, child(at, "uri"))
            data = resource.data
            media_type = resource.media_type or media_type
            if resource.media_type is None:
                external_uri = uri
        else:
            view = fields.resolve(
                fields.index(image, "bufferView", at),
                buffer_views,
                "bufferViews",
                child(at, "bufferView"),
            )
            if view is not None:
                data = view_bytes(view, buffers)
        textures.append(_texture(index, image, external_uri, media_type, data))
        if data is not None:
            found[index] = data
    return textures, found


def _texture(
    index: int, image: dict, uri: str | None, media_type: str | None, data: Bytes | None
) -> Texture:
    name = image.get("name")
    if not isinstance(name, str) or not name:
        name = posixpath.basename(uri) if uri else f"image {index}"
    info = image_info(data) if data is not None else None
    return Texture(
        name=name,
        uri=uri,
        mime_type=media_type or (info.mime_type if info else None),
        byte_size=len(data) if data is not None else None,
        width=info.width if info else None,
        height=info.height if info else None,
        structure=parse_image(data) if data is not None else None,
    )
