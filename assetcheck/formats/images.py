"""Image formats and sizes read from headers alone, never decoding pixels.

Used for textures (sizes, GPU memory estimates) and for ``data:`` URI MIME checks. Supports the
formats glTF allows (PNG, JPEG, KTX2 through ``KHR_texture_basisu``, WebP through
``EXT_texture_webp``) plus the common ones FBX files embed (TGA, BMP, GIF, DDS by magic only).
"""

from __future__ import annotations

import struct
from typing import NamedTuple

from assetcheck.formats.ktx2.header import IDENTIFIER as KTX2_MAGIC

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
JPEG_SOF_MARKERS = frozenset(
    {0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF}
)
JPEG_SCAN_LIMIT = 1 << 20


class ImageInfo(NamedTuple):
    """An image's MIME type and, when the header gives them, its pixel size."""

    mime_type: str
    width: int | None = None
    height: int | None = None


def image_mime(head: bytes) -> str | None:
    """The MIME type the first bytes show, or None for an unknown format."""
    if head.startswith(PNG_MAGIC):
        return "image/png"
    if head.startswith(b"\xff\xd8\xff"):
        return "image/jpeg"
    if head.startswith(KTX2_MAGIC):
        return "image/ktx2"
    if head[:4] == b"RIFF" and head[8:12] == b"WEBP":
        return "image/webp"
    if head.startswith((b"GIF87a", b"GIF89a")):
        return "image/gif"
    if head.startswith(b"BM"):
        return "image/bmp"
    if head.startswith(b"DDS "):
        return "image/vnd-ms.dds"
    return None


def image_info(data: bytes | memoryview) -> ImageInfo | None:
    """The MIME type and size of the image in ``data``; None when the format is unknown.

    A known format with a damaged or truncated header gives an ImageInfo without a size.
    """
    head = bytes(data[:64])
    mime = image_mime(head)
    if mime is None:
        return None
    try:
        size = _SIZE_READERS.get(mime, _no_size)(data)
    except (struct.error, IndexError, ValueError):
        size = None
    width, height = size if size else (None, None)
    return ImageInfo(mime, width, height)


def _png_size(data: bytes | memoryview) -> tuple[int, int] | None:
    if bytes(data[12:16]) != b"IHDR":
        return None
    return struct.unpack(">II", data[16:24])


def _jpeg_size(data: bytes | memoryview) -> tuple[int, int] | None:
    position, end = 2, min(len(data), JPEG_SCAN_LIMIT)
    while position + 4 <= end:
        if data[position] != 0xFF:
            return None
        marker = data[position + 1]
        if marker == 0xFF:  # fill byte
            position += 1
            continue
        if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7:  # markers without a length
            position += 2
            continue
        (length,) = struct.unpack(">H", data[position + 2 : position + 4])
        if marker in JPEG_SOF_MARKERS:
            height, width = struct.unpack(">HH", data[position + 5 : position + 9])
            return width, height
        position += 2 + length
    return None


def _webp_size(data: bytes | memoryview) -> tuple[int, int] | None:
    chunk = bytes(data[12:16])
    if chunk == b"VP8 ":
        width, height = struct.unpack("<HH", data[26:30])
        return width & 0x3FFF, height & 0x3FFF
    if chunk == b"VP8L":
        bits = int.from_bytes(data[21:25], "little")
        return (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1
    if chunk == b"VP8X":
        return (
            int.from_bytes(data[24:27], "little") + 1,
            int.from_bytes(data[27:30], "little") + 1,
        )
    return None


def _ktx2_size(data: bytes | memoryview) -> tuple[int, int] | None:
    width, height = struct.unpack("<II", data[20:28])
    return width, max(height, 1)


def _gif_size(data: bytes | memoryview) -> tuple[int, int] | None:
    return struct.unpack("<HH", data[6:10])


def _bmp_size(data: bytes | memoryview) -> tuple[int, int] | None:
    width, height = struct.unpack("<ii", data[18:26])
    return abs(width), abs(height)


def _no_size(data: bytes | memoryview) -> None:
    return None


_SIZE_READERS = {
    "image/png": _png_size,
    "image/jpeg": _jpeg_size,
    "image/webp": _webp_size,
    "image/ktx2": _ktx2_size,
    "image/gif": _gif_size,
    "image/bmp": _bmp_size,
}
