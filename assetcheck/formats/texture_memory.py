"""The GPU memory each texture takes with its full mip chain, level by level, as the engine
stores it (``docs/statistics.md``, "GPU memory"): the shared figure of the texture memory check
and of the reports.

- PNG, JPEG, WebP, GIF and BMP are decoded to RGBA8: 4 bytes per texel, every level of a full
  chain (each side halved, rounded down, to 1).
- KTX2: the format the file names, with the levels it holds
  (:func:`assetcheck.formats.ktx2.sizes.gpu_memory`).
- KTX2 whose format is unknown, and DDS (not parsed): assumed BC7 or ASTC 4x4, full chain.
"""

from __future__ import annotations

import math

from assetcheck.asset import Asset, Texture
from assetcheck.asset.memory import GpuMemory, Saving, TextureMemory
from assetcheck.formats.ktx2.sizes import (
    TRANSCODED_BLOCK,
    TRANSCODED_BLOCK_BYTES,
    Block,
    block_level_bytes,
)

#: Media types uploaded to the GPU as they are stored, in blocks.
BLOCK_COMPRESSED = frozenset({"image/ktx2", "image/vnd-ms.dds"})
DECODED_FORMAT = "RGBA8"
DECODED_BLOCK: Block = (1, 1, 1)
DECODED_BYTES_PER_TEXEL = 4
ASSUMED_FORMAT = "BC7 or ASTC 4x4"
#: Images a KTX2 encoding would replace: those decoded to RGBA8.
DECODED_IMAGES = frozenset({"image/png", "image/jpeg", "image/webp"})
#: ETC1S: "common usable bitrates are .3-1.25 bits/texel" (Basis Universal's README); the
#: estimate takes the high end.
ETC1S_BITS_PER_TEXEL = 1.25


def mip_chain(width: int, height: int, block: Block, block_bytes: int) -> tuple[int, ...]:
    """The bytes of every level of a full mip chain of a ``width`` x ``height`` image stored in
    whole blocks: floor(log2(largest side)) + 1 levels."""
    levels = max(width, height, 1).bit_length()
    size = (width, height, 1)
    return tuple(block_level_bytes(size, p, block, block_bytes) for p in range(levels))


def gpu_memory(texture: Texture) -> GpuMemory | None:
    """The GPU memory of ``texture`` with its mip chain; None when its size is unknown."""
    ktx2 = texture.structure.ktx2 if texture.structure is not None else None
    if ktx2 is not None and ktx2.gpu_memory is not None:
        return ktx2.gpu_memory
    if not texture.width or not texture.height:
        return None
    if texture.mime_type in BLOCK_COMPRESSED:
        chain = mip_chain(texture.width, texture.height, TRANSCODED_BLOCK, TRANSCODED_BLOCK_BYTES)
        return GpuMemory(ASSUMED_FORMAT, chain, assumed=True)
    chain = mip_chain(texture.width, texture.height, DECODED_BLOCK, DECODED_BYTES_PER_TEXEL)
    return GpuMemory(DECODED_FORMAT, chain)


def texture_memory(asset: Asset) -> list[TextureMemory]:
    """The GPU memory of each texture of ``asset`` whose size is known, in the file's order."""
    found = []
    for texture in asset.textures:
        memory = gpu_memory(texture)
        if memory is not None:
            found.append(
                TextureMemory(texture.name, texture.width or 0, texture.height or 0, memory)
            )
    return found


def ktx2_savings(textures: list[Texture]) -> list[Saving]:
    """What KTX2 would make of the PNG, JPEG and WebP images of known size and bytes, in file
    bytes and GPU memory, estimated; none when there are none. UASTC stores a 16-byte block
    per 4x4 texels over a full mip chain (before Zstandard: an upper bound); ETC1S
    :data:`ETC1S_BITS_PER_TEXEL`. On the GPU both are transcoded to BC7 or ASTC 4x4, against
    RGBA8 for the decoded images."""
    images = [
        t
        for t in textures
        if t.mime_type in DECODED_IMAGES and t.width and t.height and t.byte_size
    ]
    if not images:
        return []
    stored = sum(t.byte_size or 0 for t in images)
    decoded = blocks = texels = 0
    for t in images:
        width, height = t.width or 0, t.height or 0
        decoded += sum(mip_chain(width, height, DECODED_BLOCK, DECODED_BYTES_PER_TEXEL))
        blocks += sum(mip_chain(width, height, TRANSCODED_BLOCK, TRANSCODED_BLOCK_BYTES))
        texels += sum(mip_chain(width, height, DECODED_BLOCK, 1))
    etc1s = math.ceil(texels * ETC1S_BITS_PER_TEXEL / 8)
    return [
        Saving("ktx2-uastc", "images", stored, blocks, decoded, blocks),
        Saving("ktx2-etc1s", "images", stored, etc1s, decoded, blocks),
    ]
