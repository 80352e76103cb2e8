"""The structure of a glTF image's data, read as Khronos glTF-Validator reads it: headers and
chunk layout only, never pixels.

:func:`parse_image` detects PNG, JPEG, WebP and KTX2 by their signatures (data shorter than 14
bytes is no format at all), then walks the format's structure up to the facts a viewer needs
first (PNG: the chunks before ``IDAT``; JPEG: the segments up to the first start-of-frame; WebP:
the first chunk header; KTX2: the header, the level index and the data it points at). The
result says whether the data ended early (``IMAGE_UNEXPECTED_EOS``), is malformed
(``IMAGE_DATA_INVALID``, with a reason) or uses features glTF viewers ignore: colour space
information other than sRGB or linear, non-square pixels, animation
(``IMAGE_FEATURES_UNSUPPORTED``).

KTX2 data, and data that starts like a KTX file, is also parsed in full by
:func:`assetcheck.formats.ktx2.parse_ktx2` (kept as ``ktx2``), whose findings the KTX2 check reports
with codes of their own; the fields above stay what Khronos reports.
"""

from __future__ import annotations

import struct
from typing import TYPE_CHECKING, NamedTuple

from assetcheck.formats.ktx2.header import IDENTIFIER as KTX2_SIGNATURE
from assetcheck.formats.ktx2.header import (
    KTX_FAMILY_PREFIX,
    HeaderTruncated,
    TooManyLevels,
    read_fixed_header,
    read_level_index,
)

if TYPE_CHECKING:
    from assetcheck.formats.ktx2 import Ktx2Image

SIGNATURE_BYTES = 14
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"

#: PNG chunks whose length is fixed, and that length.
PNG_CHUNK_LENGTHS = {b"IHDR": 13, b"cHRM": 32, b"sRGB": 1, b"pHYs": 9, b"gAMA": 4}
#: cHRM values of sRGB (white point, red, green, blue; x and y times 100,000).
SRGB_CHROMATICITIES = (31270, 32900, 64000, 33000, 30000, 60000, 15000, 6000)
#: gAMA values (gamma times 100,000) of the sRGB curve and of linear data.
SRGB_GAMMA, LINEAR_GAMMA = 45455, 100000

#: JPEG markers that stand alone (no length): TEM, RSTn, SOI, EOI, and a fill byte.
JPEG_STANDALONE = frozenset({0x01, *range(0xD0, 0xD8), 0xD8, 0xD9, 0xFF})
#: JPEG markers that carry the frame size: SOFn (not DHT, JPG, DAC) and DHP.
JPEG_FRAME_MARKERS = frozenset({*range(0xC0, 0xD0), 0xDE}) - {0xC4, 0xC8, 0xCC}

KTX2_FACE_COUNTS = (1, 6)
KTX2_SUPERCOMPRESSION_SCHEMES = range(4)


class ImageStructure(NamedTuple):
    """What :func:`parse_image` found.

    ``mime_type`` is None when no signature matched. ``truncated`` and ``invalid`` (the reason)
    are mutually exclusive; when either is set, ``width`` and ``height`` are None.
    """

    mime_type: str | None
    width: int | None = None
    height: int | None = None
    truncated: bool = False
    invalid: str | None = None
    unsupported_features: bool = False
    #: The full KTX2 parse, for KTX2 data and data that starts like a KTX file; else None.
    ktx2: Ktx2Image | None = None

    @property
    def readable(self) -> bool:
        return self.mime_type is not None and not self.truncated and self.invalid is None


class _Truncated(Exception):
    pass


class _Invalid(Exception):
    pass


def detect(data: bytes | memoryview) -> str | None:
    """The MIME type of ``data`` by its signature, or None."""
    head = bytes(data[:SIGNATURE_BYTES])
    if len(head) < SIGNATURE_BYTES:
        return None
    if head[:3] == b"\xff\xd8\xff":
        return "image/jpeg"
    if head.startswith(PNG_SIGNATURE):
        return "image/png"
    if head[:4] == b"RIFF" and head[8:14] == b"WEBPVP":
        return "image/webp"
    if head[:12] == KTX2_SIGNATURE:
        return "image/ktx2"
    return None


def parse_image(data: bytes | memoryview) -> ImageStructure:
    """The structure of the image in ``data`` (see the module docstring)."""
    mime_type = detect(data)
    view = memoryview(data)
    ktx2 = _parse_ktx2(view) if bytes(view[: len(KTX_FAMILY_PREFIX)]) == KTX_FAMILY_PREFIX else None
    if mime_type is None:
        return ImageStructure(None, ktx2=ktx2)
    try:
        width, height, unsupported = _PARSERS[mime_type](view)
    except _Truncated:
        return ImageStructure(mime_type, truncated=True, ktx2=ktx2)
    except _Invalid as error:
        return ImageStructure(mime_type, invalid=str(error), ktx2=ktx2)
    return ImageStructure(mime_type, width, height, unsupported_features=unsupported, ktx2=ktx2)


def _parse_ktx2(view: memoryview) -> Ktx2Image:
    """The full KTX2 parse; the parser is loaded by the first image that needs it."""
    from assetcheck.formats.ktx2 import parse_ktx2

    return parse_ktx2(view)


def _take(view: memoryview, start: int, length: int) -> bytes:
    if start + length > len(view):
        raise _Truncated
    return bytes(view[start : start + length])


def _png(view: memoryview) -> tuple[int, int, bool]:
    position = len(PNG_SIGNATURE)
    header: bytes | None = None
    primaries = transfer = None  # None (unknown), "srgb", "linear" or "custom"
    non_square = False
    while True:
        length, kind = struct.unpack(">I4s", _take(view, position, 8))
        expected = PNG_CHUNK_LENGTHS.get(kind)
        if expected is not None and length != expected:
            raise _Invalid("Wrong chunk length.")
        if kind == b"iCCP":
            primaries = transfer = "custom"
        if kind == b"IDAT":
            break
        body = _take(view, position + 8, length)
        if kind == b"IHDR":
            header = body
        elif kind == b"sRGB":
            primaries = transfer = "srgb"
        elif kind == b"cHRM" and primaries is None:
            values = struct.unpack(">8I", body)
            primaries = "srgb" if values == SRGB_CHROMATICITIES else "custom"
        elif kind == b"gAMA" and transfer is None:
            (gamma,) = struct.unpack(">I", body)
            transfer = {SRGB_GAMMA: "srgb", LINEAR_GAMMA: "linear"}.get(gamma, "custom")
        elif kind == b"pHYs":
            x, y = struct.unpack(">II", body[:8])
            non_square = non_square or x != y
        _take(view, position + 8 + length, 4)  # the CRC
        position += 12 + length
    if header is None:
        raise _Invalid("PNG header not found.")
    width, height = struct.unpack(">II", header[:8])
    return width, height, "custom" in (primaries, transfer) or non_square


def _jpeg(view: memoryview) -> tuple[int, int, bool]:
    position = 1  # the signature's first 0xFF starts the first marker
    while True:
        marker = _take(view, position, 1)[0]
        position += 1
        if marker in JPEG_STANDALONE:
            continue
        (length,) = struct.unpack(">H", _take(view, position, 2))
        if length < 2:
            raise _Invalid("Invalid JPEG marker segment length.")
        segment = _take(view, position + 2, length - 2)
        if marker in JPEG_FRAME_MARKERS:
            if len(segment) < 6 or segment[5] not in (1, 3):
                raise _Invalid("Invalid number of JPEG color channels.")
            height, width = struct.unpack(">HH", segment[1:5])
            return width, height, False
        position += length


def _webp(view: memoryview) -> tuple[int, int, bool]:
    lossless = len(view) > 15 and view[15] == 0x4C
    head = _take(view, 0, 25 if lossless else 30)
    kind = head[12:16]
    if kind == b"VP8 ":
        width, height = struct.unpack("<HH", head[26:30])
        return width & 0x3FFF, height & 0x3FFF, False
    if kind == b"VP8L":
        bits = int.from_bytes(head[21:25], "little")
        return (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1, False
    if kind == b"VP8X":
        features = head[20]
        width = int.from_bytes(head[24:27], "little") + 1
        height = int.from_bytes(head[27:30], "little") + 1
        return width, height, bool(features & 0x02 or features & 0x20)
    raise _Invalid("Wrong WebP header.")


def _ktx2(view: memoryview) -> tuple[int, int, bool]:
    try:
        header = read_fixed_header(view)
    except HeaderTruncated:
        raise _Truncated from None
    if header.width == 0:
        raise _Invalid("KTX2 pixelWidth is 0.")
    if header.faces not in KTX2_FACE_COUNTS:
        raise _Invalid(f"KTX2 faceCount is {header.faces}, not 1 or 6.")
    if header.scheme not in KTX2_SUPERCOMPRESSION_SCHEMES:
        raise _Invalid(f"KTX2 supercompressionScheme {header.scheme} is not defined.")
    try:
        header = read_level_index(view, header)
    except (HeaderTruncated, TooManyLevels):
        raise _Truncated from None  # Khronos reads the whole level index, past the data
    for section in (header.dfd, header.kvd, header.sgd, *header.levels):
        if section.length and section.end > len(view):
            raise _Truncated
    return header.width, max(header.height, 1), False


_PARSERS = {"image/png": _png, "image/jpeg": _jpeg, "image/webp": _webp, "image/ktx2": _ktx2}
