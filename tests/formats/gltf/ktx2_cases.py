"""Crafted glTF files with a broken KTX2 image: golden cases like those of
:mod:`tests.formats.gltf.cases`, one per ``KTX2_*`` code, each a triangle whose base colour is a
KTX2 texture named through ``KHR_texture_basisu`` (built by :mod:`assetcheck.testing.ktx2`)."""

from __future__ import annotations

import struct
from collections.abc import Callable

import numpy as np

from assetcheck.formats.ktx2.header import HEADER
from assetcheck.testing.gltf import GltfBuilder
from assetcheck.testing.ktx2 import UASTC, Ktx2Texture, level_entry, patch_header, patch_level
from tests.formats.gltf.cases import Case, Document, accessor, attributes, primitive

EXTENSION = "KHR_texture_basisu"
ETC1S = Ktx2Texture(8, 8).build()
ETC1S_RGBA = Ktx2Texture(8, 8, alpha=True).build()
UASTC_RAW = Ktx2Texture(8, 8, model=UASTC, zstd=False).build()
UASTC_ZSTD = Ktx2Texture(8, 8, model=UASTC).build()


def _basisu(data: bytes) -> Callable[[GltfBuilder, Document], None]:
    """A change that gives the triangle a base colour texture of KTX2 ``data``."""

    def change(builder: GltfBuilder, document: Document) -> None:
        image = builder.add_image(data, mime_type="image/ktx2")
        texture = builder.add_texture(image)
        document["textures"][texture] = {"extensions": {EXTENSION: {"source": image}}}
        document["extensionsUsed"] = [EXTENSION]
        document["extensionsRequired"] = [EXTENSION]
        primitive(document)["material"] = builder.add_material(base_color_texture=texture)
        attributes(document)["TEXCOORD_0"] = accessor(builder, np.zeros((3, 2), np.float32), "VEC2")

    return change


def _patched(data: bytes, offset_field: int, delta: int, value: int) -> bytes:
    """``data`` with the UInt32 at ``delta`` past the section offset in header field
    ``offset_field`` (10: DFD, 12: key/value data, 14: global data) set to ``value``."""
    patched = bytearray(data)
    struct.pack_into("<I", patched, HEADER.unpack_from(data)[offset_field] + delta, value)
    return bytes(patched)


def _levels_swapped(data: bytes) -> bytes:
    (first, first_length, _), (second, second_length, _) = (
        level_entry(data, 0),
        level_entry(data, 1),
    )
    swapped = patch_level(patch_level(data, 0, offset=second), 1, offset=first)
    return patch_level(patch_level(swapped, 0, length=first_length), 1, length=second_length)


def _zstd_magic_broken(data: bytes) -> bytes:
    offset = level_entry(data, 0)[0]
    return data[:offset] + b"ABCD" + data[offset + 4 :]


KTX2_CASES = {
    name: Case("triangle", _basisu(data), glb=True)
    for name, data in {
        "ktx2_identifier_invalid": b"\xabKTX 11\xbb\r\n\x1a\n" + bytes(64),
        "ktx2_header_truncated": ETC1S[:90],
        "ktx2_header_invalid": patch_header(UASTC_RAW, type_size=4),
        "ktx2_texture_type_invalid": patch_header(UASTC_RAW, faces=3),
        "ktx2_dimension_too_large": patch_header(UASTC_RAW, width=1 << 16, height=1 << 16),
        "ktx2_level_count_invalid": Ktx2Texture(8, 8, model=UASTC, zstd=False, levels=0).build(),
        "ktx2_dfd_invalid": _patched(UASTC_RAW, 10, 0, 999),
        "ktx2_data_out_of_file": UASTC_ZSTD[:-10],
        "ktx2_sections_overlap": patch_level(UASTC_RAW, 2, offset=level_entry(UASTC_RAW, 1)[0]),
        "ktx2_section_order_invalid": _levels_swapped(UASTC_RAW),
        "ktx2_alignment_invalid": patch_level(
            UASTC_RAW + bytes(8), 0, offset=level_entry(UASTC_RAW, 0)[0] + 8
        ),
        "ktx2_level_length_invalid": patch_level(UASTC_RAW, 0, uncompressed=1),
        "ktx2_key_value_data_invalid": _patched(UASTC_RAW, 12, 0, 1),
        "ktx2_global_data_invalid": _patched(ETC1S_RGBA, 14, 20 + 16, 0),
        "ktx2_zstd_data_invalid": _zstd_magic_broken(UASTC_ZSTD),
        "ktx2_basisu_format_invalid": patch_header(UASTC_ZSTD, vk_format=37),
        "ktx2_basisu_not_2d": Ktx2Texture(8, 8, model=UASTC, faces=6).build(),
        "ktx2_basisu_dimensions": Ktx2Texture(10, 8).build(),
        "ktx2_basisu_metadata": Ktx2Texture(8, 8, key_values={"KTXorientation": b"ru\0"}).build(),
        "ktx2_basisu_color_space": Ktx2Texture(8, 8, srgb=False).build(),
        "ktx2_mipmaps_incomplete": Ktx2Texture(8, 8, levels=2).build(),
    }.items()
}
