"""Supercompressed KTX2 data, checked without inflating it: the BasisLZ global data (KTX 2.0,
appendix "BasisLZ Global Data") and the Zstandard frames of each level (RFC 8878 frame and
block headers only, so a level that claims gigabytes costs a walk over its block headers)."""

from __future__ import annotations

import struct

from assetcheck.formats.ktx2.dfd import MODEL_ETC1S, DataFormat
from assetcheck.formats.ktx2.fixed_part import Ktx2Header, Level
from assetcheck.issues.findings import Findings

SCHEME_BASISLZ, SCHEME_ZSTANDARD = 1, 2
#: endpointCount, selectorCount (UInt16), then the endpoints, selectors, tables and extended
#: data lengths (UInt32); then one image descriptor per image.
BASISLZ_HEADER = struct.Struct("<HH4I")
IMAGE_DESC = struct.Struct("<5I")
ZSTD_MAGIC = 0xFD2FB528
ZSTD_SKIPPABLE = range(0x184D2A50, 0x184D2A60)
#: Bytes of the Frame_Content_Size field by its flag (flag 0: 1 byte in single-segment mode).
ZSTD_CONTENT_SIZE_BYTES = (0, 2, 4, 8)
#: Block headers walked per file at most; real frames have one per 128 KiB.
ZSTD_BLOCK_LIMIT = 1 << 16
ZSTD_RESERVED_BLOCK = 3


def check_global_data(
    view: memoryview, header: Ktx2Header, data_format: DataFormat | None, findings: Findings
) -> None:
    """BasisLZ needs global data laid out for every image; other schemes have none."""
    sgd = header.sgd
    if header.scheme != SCHEME_BASISLZ:
        if sgd.length:
            findings.add(
                "KTX2_GLOBAL_DATA_INVALID",
                reason=f"only BasisLZ has global data, but it is {sgd.length} bytes long",
            )
        return
    if sgd.end > len(view):
        return  # reported by the layout check
    reason = _basislz_error(view, header, data_format)
    if reason is not None:
        findings.add("KTX2_GLOBAL_DATA_INVALID", reason=reason)


def basislz_image_count(header: Ktx2Header) -> int:
    """Images the global data describes: every z slice of every face of every layer, per
    level."""
    slices = sum(max(header.depth >> p, 1) for p in range(max(header.level_count, 1)))
    return max(header.layers, 1) * header.faces * slices


def _basislz_error(
    view: memoryview, header: Ktx2Header, data_format: DataFormat | None
) -> str | None:
    sgd = header.sgd
    if sgd.length < BASISLZ_HEADER.size:
        return (
            f"BasisLZ global data is {sgd.length} bytes, less than its {BASISLZ_HEADER.size}"
            "-byte header"
        )
    _, _, endpoints, selectors, tables, extended = BASISLZ_HEADER.unpack_from(view, sgd.offset)
    images = basislz_image_count(header)
    expected = (
        BASISLZ_HEADER.size + IMAGE_DESC.size * images + endpoints + selectors + tables + extended
    )
    if expected != sgd.length:
        return (
            f"its {images} image descriptors and codebook lengths take {expected} bytes, "
            f"but sgdByteLength is {sgd.length}"
        )
    if extended and data_format is not None and data_format.color_model == MODEL_ETC1S:
        return f"extendedByteLength is {extended}; ETC1S has no extended data"
    alpha = data_format is not None and len(data_format.channels) == 2
    descriptors = sgd.offset + BASISLZ_HEADER.size
    for number, level in enumerate(_image_levels(header)):
        _, rgb_offset, rgb_length, alpha_offset, alpha_length = IMAGE_DESC.unpack_from(
            view, descriptors + number * IMAGE_DESC.size
        )
        reason = _slice_error(level, rgb_offset, rgb_length, alpha_offset, alpha_length, alpha)
        if reason is not None:
            return f"image {number}: {reason}"
    return None


def _image_levels(header: Ktx2Header) -> list[Level]:
    """The level of each image descriptor, in the global data's order."""
    per_slice = max(header.layers, 1) * header.faces
    return [
        level
        for p, level in enumerate(header.levels)
        for _ in range(per_slice * max(header.depth >> p, 1))
    ]


def _slice_error(
    level: Level,
    rgb_offset: int,
    rgb_length: int,
    alpha_offset: int,
    alpha_length: int,
    alpha: bool,
) -> str | None:
    if rgb_length == 0:
        return "rgbSliceByteLength is 0"
    if rgb_offset + rgb_length > level.length:
        return "its RGB slice runs past its level"
    if alpha and alpha_length == 0:
        return "the descriptor has an alpha channel but the image has no alpha slice"
    if not alpha and (alpha_offset or alpha_length):
        return "it has an alpha slice but the descriptor has no alpha channel"
    if alpha_offset + alpha_length > level.length:
        return "its alpha slice runs past its level"
    return None


def check_zstandard_levels(view: memoryview, header: Ktx2Header, findings: Findings) -> None:
    """Each Zstandard level is whole frames that end where the level ends, and a frame that
    states its content size states the level's uncompressedByteLength."""
    if header.scheme != SCHEME_ZSTANDARD:
        return
    budget = [ZSTD_BLOCK_LIMIT]
    for p, level in enumerate(header.levels):
        if level.length and level.end <= len(view):
            reason = _zstandard_error(view[level.offset : level.end], level, budget)
            if reason is not None:
                findings.add("KTX2_ZSTD_DATA_INVALID", level=p, reason=reason)


def _zstandard_error(data: memoryview, level: Level, budget: list[int]) -> str | None:
    position = 0
    content_total: int | None = 0  # None once a frame does not declare its content size
    while position < len(data):
        if position + 4 > len(data):
            return "it ends inside a frame's magic number"
        (magic,) = struct.unpack_from("<I", data, position)
        if magic in ZSTD_SKIPPABLE:
            if position + 8 > len(data):
                return "it ends inside a skippable frame's header"
            position += 8 + struct.unpack_from("<I", data, position + 4)[0]
            continue
        if magic != ZSTD_MAGIC:
            return f"bytes {position}..{position + 4} are not a Zstandard frame's magic number"
        result = _walk_frame(data, position + 4, budget)
        if isinstance(result, str):
            return result
        position, content_size = result
        content_total = (
            None if content_total is None or content_size is None else content_total + content_size
        )
    if position > len(data):
        return "its last frame runs past the level's byteLength"
    if content_total is not None and content_total != level.uncompressed_length:
        return (
            f"its frames hold {content_total} bytes, but uncompressedByteLength "
            f"is {level.uncompressed_length}"
        )
    return None


def _walk_frame(data: memoryview, position: int, budget: list[int]) -> tuple[int, int | None] | str:
    """The end of the frame whose header starts at ``position`` and its declared content
    size, or why it is malformed. Once the per-file block budget is spent, the rest is
    trusted (the frame is taken to end with the level)."""
    if position >= len(data):
        return "it ends inside a frame header"
    descriptor = data[position]
    if descriptor & 0x08:
        return "a frame header sets its reserved bit"
    size_flag, single_segment = descriptor >> 6, bool(descriptor & 0x20)
    dictionary_bytes = (0, 1, 2, 4)[descriptor & 0x03]
    size_bytes = ZSTD_CONTENT_SIZE_BYTES[size_flag] or (1 if single_segment else 0)
    position += 1 + (0 if single_segment else 1) + dictionary_bytes
    if position + size_bytes > len(data):
        return "it ends inside a frame header"
    content_size = None
    if size_bytes:
        content_size = int.from_bytes(data[position : position + size_bytes], "little")
        content_size += 256 if size_bytes == 2 else 0
    position += size_bytes
    while True:
        if budget[0] <= 0:
            return len(data), None
        budget[0] -= 1
        if position + 3 > len(data):
            return "it ends inside a block header"
        block = int.from_bytes(data[position : position + 3], "little")
        last, kind, size = block & 1, (block >> 1) & 3, block >> 3
        if kind == ZSTD_RESERVED_BLOCK:
            return "a block has the reserved type"
        position += 3 + (1 if kind == 1 else size)
        if position > len(data):
            return "a block runs past the level's byteLength"
        if last:
            break
    if descriptor & 0x04:
        position += 4
    return position, content_size
