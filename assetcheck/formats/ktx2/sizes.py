"""Sizes that follow from a KTX2 header: the mip chain, the bytes of a level, and the GPU
memory the texture takes once uploaded (``docs/statistics.md``, "Textures")."""

from __future__ import annotations

from assetcheck.formats.ktx2.dfd import DataFormat
from assetcheck.formats.ktx2.header import Ktx2Header

#: Basis Universal textures are transcoded on load; the estimate assumes the high-quality
#: targets, BC7 or ASTC 4x4: a 16-byte block per 4x4 texels, 1 byte per texel.
TRANSCODED_BLOCK = (4, 4, 1)
TRANSCODED_BLOCK_BYTES = 16


def full_level_count(header: Ktx2Header) -> int:
    """The levels of a complete mip chain: floor(log2(largest side)) + 1."""
    return max(header.width, header.height, header.depth, 1).bit_length()


def level_bytes(
    header: Ktx2Header, level: int, block: tuple[int, int, int], block_bytes: int
) -> int:
    """The bytes of level ``level`` in whole blocks of ``block`` texels of ``block_bytes``
    bytes, all layers and faces included (the KTX 2.0 ``levelImages`` layout)."""
    blocks = 1
    for side, block_side in zip((header.width, header.height, header.depth), block, strict=True):
        blocks *= max(1, -(-max(1, side >> level) // block_side))
    return blocks * block_bytes * max(1, header.layers) * header.faces


def stored_block_bytes(data_format: DataFormat) -> int | None:
    """The bytes of one texel block as stored before supercompression; None when the
    descriptor does not say (a universal format, or bytesPlane0 left 0)."""
    if data_format.universal or not data_format.bytes_planes[0]:
        return None
    return sum(data_format.bytes_planes)


def gpu_bytes(header: Ktx2Header, data_format: DataFormat | None) -> int | None:
    """The GPU memory the texture takes with the levels it has (all of a full chain when
    ``levelCount`` is 0: the loader generates them); None when the descriptor is unknown."""
    if data_format is None:
        return None
    block_bytes: int | None
    if data_format.universal:
        block, block_bytes = TRANSCODED_BLOCK, TRANSCODED_BLOCK_BYTES
    else:
        block, block_bytes = data_format.block, stored_block_bytes(data_format)
        if block_bytes is None:
            return None
    levels = header.level_count or full_level_count(header)
    return sum(level_bytes(header, p, block, block_bytes) for p in range(levels))
