"""The GPU memory a model's textures take: what the texture check judges and the report states.

Sizes come from image headers (:mod:`assetcheck.formats.images`), never from decoding pixels; a
KTX2 image's GPU memory is the one its structural parse computes from its levels
(:func:`assetcheck.formats.ktx2.sizes.gpu_bytes`, ``docs/statistics.md``).
"""

from __future__ import annotations

from collections.abc import Iterable

from assetcheck.asset import Texture

#: GPU bytes per pixel: PNG, JPEG and WebP are decoded to RGBA8; KTX2 and DDS stay in a block
#: format (BC7 or ASTC 4x4 at most, 1 byte per pixel).
DECODED_BYTES_PER_PIXEL = 4
BLOCK_COMPRESSED_BYTES_PER_PIXEL = 1
BLOCK_COMPRESSED = frozenset({"image/ktx2", "image/vnd-ms.dds"})
#: A full mipmap chain adds a third to the base level.
MIPMAPS = 4 / 3


def gpu_bytes(texture: Texture) -> float:
    """The GPU memory a texture of known size takes, with its mipmaps: for a KTX2 image whose
    descriptor could be read, that of the levels it has; else its size times bytes per pixel,
    with a full mip chain."""
    ktx2 = texture.structure.ktx2 if texture.structure is not None else None
    if ktx2 is not None and ktx2.gpu_bytes is not None:
        return ktx2.gpu_bytes
    per_pixel = (
        BLOCK_COMPRESSED_BYTES_PER_PIXEL
        if texture.mime_type in BLOCK_COMPRESSED
        else DECODED_BYTES_PER_PIXEL
    )
    return (texture.width or 0) * (texture.height or 0) * per_pixel * MIPMAPS


def sized(textures: Iterable[Texture]) -> list[Texture]:
    """The textures whose size is known (their header could be read)."""
    return [texture for texture in textures if texture.width and texture.height]


def total_gpu_bytes(textures: Iterable[Texture]) -> int:
    """The GPU memory all ``textures`` of known size take together, in whole bytes."""
    return round(sum(gpu_bytes(texture) for texture in sized(textures)))
