import struct
import zlib

import pytest

from assetcheck.formats.images import ImageInfo, image_info, image_mime


def png(width: int, height: int) -> bytes:
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    chunk = struct.pack(">I", len(ihdr)) + b"IHDR" + ihdr
    return b"\x89PNG\r\n\x1a\n" + chunk + struct.pack(">I", zlib.crc32(b"IHDR" + ihdr))


def jpeg(width: int, height: int) -> bytes:
    app0 = b"\xff\xe0" + struct.pack(">H", 16) + b"JFIF\0" + bytes(9)
    sof = b"\xff\xc0" + struct.pack(">HBHHB", 11, 8, height, width, 1) + bytes(3)
    return b"\xff\xd8" + app0 + sof + b"\xff\xd9"


def ktx2(width: int, height: int) -> bytes:
    return b"\xabKTX 20\xbb\r\n\x1a\n" + struct.pack("<IIII", 0, 1, width, height) + bytes(40)


def webp_lossless(width: int, height: int) -> bytes:
    bits = (width - 1) | ((height - 1) << 14)
    return b"RIFF" + bytes(4) + b"WEBPVP8L" + bytes(4) + b"\x2f" + bits.to_bytes(4, "little")


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (png(640, 480), ImageInfo("image/png", 640, 480)),
        (jpeg(1024, 512), ImageInfo("image/jpeg", 1024, 512)),
        (ktx2(2048, 2048), ImageInfo("image/ktx2", 2048, 2048)),
        (webp_lossless(300, 200), ImageInfo("image/webp", 300, 200)),
        (b"GIF89a" + struct.pack("<HH", 16, 8), ImageInfo("image/gif", 16, 8)),
    ],
)
def test_sizes_are_read_from_headers(data, expected):
    assert image_info(data) == expected


def test_truncated_header_keeps_the_type_without_a_size():
    assert image_info(png(8, 8)[:14]) == ImageInfo("image/png")


def test_unknown_bytes_are_not_an_image():
    assert image_info(b"glTF\x02\x00\x00\x00") is None
    assert image_mime(b"") is None
