"""The structural parse of glTF image data: sizes, truncation, malformed headers and features
glTF viewers ignore, on real bytes of each format."""

from __future__ import annotations

import struct
import zlib

import pytest

from assetcheck.formats.gltf.image_data import ImageStructure, parse_image
from assetcheck.testing.gltf import png_bytes
from assetcheck.testing.ktx2 import UASTC, Ktx2Texture, patch_header


def _png_chunk(kind: bytes, body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))


def _png_with(*chunks: bytes) -> bytes:
    """:func:`png_bytes` (4 x 2) with ``chunks`` inserted after its header."""
    data = png_bytes(4, 2)
    return data[:33] + b"".join(chunks) + data[33:]


def jpeg_bytes(width: int = 8, height: int = 4, channels: int = 3) -> bytes:
    """SOI, an APP0 segment, then a baseline start-of-frame."""
    app0 = b"\xff\xe0" + struct.pack(">H", 16) + b"JFIF\x00" + bytes(9)
    frame = struct.pack(">BHHB", 8, height, width, channels) + bytes(3 * channels)
    sof = b"\xff\xc0" + struct.pack(">H", 2 + len(frame)) + frame
    return b"\xff\xd8" + app0 + sof + b"\xff\xd9"


def webp_vp8x(width: int = 8, height: int = 8, features: int = 0) -> bytes:
    body = (
        bytes([features, 0, 0, 0])
        + (width - 1).to_bytes(3, "little")
        + (height - 1).to_bytes(3, "little")
    )
    chunk = b"VP8X" + struct.pack("<I", len(body)) + body
    return b"RIFF" + struct.pack("<I", 4 + len(chunk)) + b"WEBP" + chunk


def ktx2_bytes(width: int = 4, height: int = 4, **header: int) -> bytes:
    """A one-level UASTC KTX2 file (:class:`Ktx2Texture`), with header fields changed."""
    data = Ktx2Texture(width, height, model=UASTC, zstd=False, levels=1).build()
    return patch_header(data, **header) if header else data


@pytest.mark.parametrize(
    ("data", "mime_type", "size"),
    [
        (png_bytes(4, 2), "image/png", (4, 2)),
        (jpeg_bytes(8, 4), "image/jpeg", (8, 4)),
        (webp_vp8x(8, 16), "image/webp", (8, 16)),
        (ktx2_bytes(4, 4), "image/ktx2", (4, 4)),
    ],
    ids=["png", "jpeg", "webp", "ktx2"],
)
def test_well_formed_images_give_their_format_and_size(data, mime_type, size):
    assert parse_image(data)._replace(ktx2=None) == ImageStructure(mime_type, *size)


def test_ktx2_data_and_data_that_starts_like_ktx_keep_the_full_ktx2_parse():
    assert parse_image(ktx2_bytes()).ktx2.findings == ()
    ktx1 = parse_image(b"\xabKTX 11\xbb\r\n\x1a\n" + bytes(64))
    assert ktx1.mime_type is None
    assert [p.code for p in ktx1.ktx2.findings] == ["KTX2_IDENTIFIER_INVALID"]
    assert parse_image(png_bytes()).ktx2 is None


@pytest.mark.parametrize(
    "data",
    [
        png_bytes()[:40],
        jpeg_bytes()[:30],
        webp_vp8x()[:20],
        ktx2_bytes()[:90],
        ktx2_bytes()[:-10],
    ],
    ids=["png-before-idat", "jpeg-before-frame", "webp-header", "ktx2-index", "ktx2-level"],
)
def test_images_cut_short_are_truncated(data):
    structure = parse_image(data)
    assert structure.truncated and structure.width is None


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        (_png_with(_png_chunk(b"sRGB", b"\x00\x00")), "Wrong chunk length."),
        (png_bytes()[:8] + png_bytes()[33:], "PNG header not found."),
        (jpeg_bytes()[:2] + b"\xff\xe0\x00\x01" + bytes(16), "Invalid JPEG marker segment length."),
        (jpeg_bytes(channels=2), "Invalid number of JPEG color channels."),
        (b"RIFF\x20\x00\x00\x00WEBPVP8Q" + bytes(20), "Wrong WebP header."),
        (ktx2_bytes(faces=3), "KTX2 faceCount is 3, not 1 or 6."),
        (ktx2_bytes(width=0), "KTX2 pixelWidth is 0."),
    ],
    ids=[
        "png-chunk-length",
        "png-no-header",
        "jpeg-segment-length",
        "jpeg-channels",
        "webp-chunk",
        "ktx2-faces",
        "ktx2-width",
    ],
)
def test_malformed_images_are_invalid_with_a_reason(data, reason):
    assert parse_image(data).invalid == reason


@pytest.mark.parametrize(
    ("data", "unsupported"),
    [
        (_png_with(_png_chunk(b"gAMA", struct.pack(">I", 45455))), False),
        (_png_with(_png_chunk(b"gAMA", struct.pack(">I", 100000))), False),
        (_png_with(_png_chunk(b"gAMA", struct.pack(">I", 22000))), True),
        (
            _png_with(_png_chunk(b"sRGB", b"\x00"), _png_chunk(b"gAMA", struct.pack(">I", 22000))),
            False,
        ),
        (_png_with(_png_chunk(b"iCCP", b"profile\x00\x00")), True),
        (_png_with(_png_chunk(b"pHYs", struct.pack(">IIB", 2835, 5670, 1))), True),
        (webp_vp8x(features=0x02), True),
        (webp_vp8x(features=0x20), True),
        (webp_vp8x(features=0x10), False),
    ],
    ids=[
        "srgb-gamma",
        "linear-gamma",
        "custom-gamma",
        "srgb-wins-over-gamma",
        "icc-profile",
        "non-square-pixels",
        "webp-animation",
        "webp-icc",
        "webp-alpha",
    ],
)
def test_colour_spaces_other_than_srgb_or_linear_non_square_pixels_and_animation_are_flagged(
    data, unsupported
):
    assert parse_image(data).unsupported_features is unsupported


def test_data_shorter_than_any_signature_has_no_format():
    assert parse_image(b"\x89PNG\r\n\x1a\n").mime_type is None
