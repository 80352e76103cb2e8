"""Sizes that follow from a KTX2 header: the mip chain, the bytes of a level, and the GPU
memory the texture takes once uploaded, level by level (``docs/statistics.md``, "GPU memory")."""

from __future__ import annotations

from typing import TYPE_CHECKING

from assetcheck.asset.memory import GpuMemory

if TYPE_CHECKING:  # the texture memory estimate of every run needs the block sizes alone
    from assetcheck.formats.ktx2.dfd import DataFormat
    from assetcheck.formats.ktx2.fixed_part import Ktx2Header

Block = tuple[int, int, int]

#: Basis Universal textures are transcoded on load; the memory is that of the high-quality
#: targets, BC7 or ASTC 4x4: a 16-byte block per 4x4 texels, 1 byte per texel.
TRANSCODED_BLOCK: Block = (4, 4, 1)
TRANSCODED_BLOCK_BYTES = 16
TRANSCODED_FORMAT = "BC7 or ASTC 4x4 (Basis Universal, transcoded)"

_ASTC_BLOCKS = (
    (4, 4), (5, 4), (5, 5), (6, 5), (6, 6), (8, 5), (8, 6), (8, 8),
    (10, 5), (10, 6), (10, 8), (10, 10), (12, 10), (12, 12),
)  # fmt: skip
#: The block-compressed vkFormats (Vulkan's ``VkFormat`` values, UNORM and SRGB alike): name,
#: texel block and bytes per block, as the Vulkan specification's format tables give them.
BLOCK_FORMATS: dict[int, tuple[str, Block, int]] = {
    **{code: ("BC1", (4, 4, 1), 8) for code in (131, 132, 133, 134)},
    **{code: ("BC2", (4, 4, 1), 16) for code in (135, 136)},
    **{code: ("BC3", (4, 4, 1), 16) for code in (137, 138)},
    **{code: ("BC4", (4, 4, 1), 8) for code in (139, 140)},
    **{code: ("BC5", (4, 4, 1), 16) for code in (141, 142)},
    **{code: ("BC6H", (4, 4, 1), 16) for code in (143, 144)},
    **{code: ("BC7", (4, 4, 1), 16) for code in (145, 146)},
    **{code: ("ETC2 RGB8", (4, 4, 1), 8) for code in (147, 148)},
    **{code: ("ETC2 RGB8A1", (4, 4, 1), 8) for code in (149, 150)},
    **{code: ("ETC2 RGBA8", (4, 4, 1), 16) for code in (151, 152)},
    **{code: ("EAC R11", (4, 4, 1), 8) for code in (153, 154)},
    **{code: ("EAC RG11", (4, 4, 1), 16) for code in (155, 156)},
    **{
        157 + 2 * number + srgb: (f"ASTC {width}x{height}", (width, height, 1), 16)
        for number, (width, height) in enumerate(_ASTC_BLOCKS)
        for srgb in (0, 1)
    },
}


def full_level_count(header: Ktx2Header) -> int:
    """The levels of a complete mip chain: floor(log2(largest side)) + 1."""
    return max(header.width, header.height, header.depth, 1).bit_length()


def block_level_bytes(size: Block, level: int, block: Block, block_bytes: int) -> int:
    """The bytes of mip level ``level`` of an image of ``size`` texels (width, height, depth;
    0 counts as 1) stored in whole blocks of ``block`` texels of ``block_bytes`` bytes."""
    blocks = 1
    for side, block_side in zip(size, block, strict=True):
        blocks *= max(1, -(-max(1, side >> level) // block_side))
    return blocks * block_bytes


def level_bytes(header: Ktx2Header, level: int, block: Block, block_bytes: int) -> int:
    """The bytes of level ``level`` in whole blocks of ``block`` texels of ``block_bytes``
    bytes, all layers and faces included (the KTX 2.0 ``levelImages`` layout)."""
    size = (header.width, header.height, header.depth)
    return block_level_bytes(size, level, block, block_bytes) * max(1, header.layers) * header.faces


def stored_block_bytes(data_format: DataFormat) -> int | None:
    """The bytes of one texel block as stored before supercompression; None when the
    descriptor does not say (a universal format, or bytesPlane0 left 0)."""
    if data_format.universal or not data_format.bytes_planes[0]:
        return None
    return sum(data_format.bytes_planes)


def gpu_format(header: Ktx2Header, data_format: DataFormat) -> tuple[str, Block, int] | None:
    """The format the GPU stores the texture in: name, texel block, bytes per block. Basis
    Universal's transcode target; a block-compressed ``vkFormat``'s own block; else the
    descriptor's block and bytes (named by the ``vkFormat`` number and its bytes per texel
    block). None when none of them says."""
    if data_format.universal:
        return TRANSCODED_FORMAT, TRANSCODED_BLOCK, TRANSCODED_BLOCK_BYTES
    if header.vk_format in BLOCK_FORMATS:
        return BLOCK_FORMATS[header.vk_format]
    block_bytes = stored_block_bytes(data_format)
    if block_bytes is None:
        return None
    return f"vkFormat {header.vk_format} ({block_bytes} B a block)", data_format.block, block_bytes


def gpu_memory(header: Ktx2Header, data_format: DataFormat | None) -> GpuMemory | None:
    """The GPU memory the texture takes, level by level, with the levels it has (all of a full
    chain when ``levelCount`` is 0: the loader generates them); None when the format is
    unknown."""
    found = gpu_format(header, data_format) if data_format is not None else None
    if found is None:
        return None
    name, block, block_bytes = found
    levels = header.level_count or full_level_count(header)
    return GpuMemory(name, tuple(level_bytes(header, p, block, block_bytes) for p in range(levels)))
