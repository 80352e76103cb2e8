"""Checks of a KTX2 header's values and of where its sections lie (KTX 2.0, sections 3 and 4):
texture type, sizes, level count, sections inside the file, in order, aligned and apart, and
the level lengths the format implies."""

from __future__ import annotations

import math
from itertools import pairwise

from assetcheck.formats.ktx2.dfd import MODEL_ETC1S, MODEL_UASTC, DataFormat
from assetcheck.formats.ktx2.fixed_part import Ktx2Header, Section
from assetcheck.formats.ktx2.sizes import full_level_count, level_bytes, stored_block_bytes
from assetcheck.issues.findings import Findings

#: Larger than any GPU accepts (Vulkan drivers cap 2D images at 32768 at most, Direct3D 12 at
#: 16384): such a size is a lie or a texture no engine can load.
MAX_DIMENSION = 32768
SCHEME_NAMES = {0: "none", 1: "BasisLZ", 2: "Zstandard", 3: "ZLIB", 0x10000: "Asobo"}
SCHEME_BASISLZ = 1
#: vkFormat values KTX 2.0 prohibits: the SCALED formats and the multi-planar ones.
PROHIBITED_FORMATS = frozenset(
    {
        11,
        12,
        18,
        19,
        25,
        26,
        32,
        33,
        39,
        40,
        46,
        47,
        53,
        54,
        60,
        61,
        66,
        67,
        72,
        73,
        79,
        80,
        86,
        87,
        93,
        94,
        *range(1000156002, 1000156007),
        *range(1000156012, 1000156017),
        *range(1000156022, 1000156027),
        *range(1000156029, 1000156034),
        *range(1000330000, 1000330004),
    }
)


def check_header_values(header: Ktx2Header, findings: Findings) -> None:
    """The header's own fields: formats and schemes, the texture type, sizes and index."""
    if header.vk_format in PROHIBITED_FORMATS:
        findings.add(
            "KTX2_HEADER_INVALID", reason=f"vkFormat {header.vk_format} is one KTX2 prohibits"
        )
    if header.vk_format == 0 and header.type_size != 1:
        findings.add(
            "KTX2_HEADER_INVALID",
            reason=f"typeSize is {header.type_size}; VK_FORMAT_UNDEFINED needs 1",
        )
    if header.scheme not in SCHEME_NAMES:
        findings.add(
            "KTX2_HEADER_INVALID", reason=f"supercompressionScheme {header.scheme} is reserved"
        )
    for name, section in (("kvd", header.kvd), ("sgd", header.sgd)):
        if section.length == 0 and section.offset != 0:
            findings.add(
                "KTX2_HEADER_INVALID",
                reason=f"{name}ByteOffset is {section.offset} but {name}ByteLength is 0",
            )
    reason = _texture_type_error(header)
    if reason is not None:
        findings.add("KTX2_TEXTURE_TYPE_INVALID", reason=reason)
    largest = max(header.width, header.height, header.depth)
    if largest > MAX_DIMENSION:
        findings.add(
            "KTX2_DIMENSION_TOO_LARGE",
            width=header.width,
            height=header.height,
            depth=header.depth,
            limit=MAX_DIMENSION,
        )
    if header.width and header.level_count > full_level_count(header):
        findings.add(
            "KTX2_LEVEL_COUNT_INVALID",
            reason=(
                f"levelCount is {header.level_count}, but a texture of {largest} px has at most "
                f"{full_level_count(header)} levels"
            ),
        )


def _texture_type_error(header: Ktx2Header) -> str | None:
    """Why the sizes, layers and faces make no texture type of KTX 2.0 section 4.1, or None."""
    if header.width == 0:
        return "pixelWidth is 0"
    if header.faces not in (1, 6):
        return f"faceCount is {header.faces}, not 1 or 6"
    if header.faces == 6 and (header.width != header.height or header.depth):
        return (
            f"a cube map's faces must be square and 2D, not {header.width}x"
            f"{header.height}x{header.depth}"
        )
    if header.height == 0 and header.depth:
        return "pixelDepth is set but pixelHeight is 0"
    return None


def check_format_rules(header: Ktx2Header, data_format: DataFormat, findings: Findings) -> None:
    """Rules that need the descriptor: block-compressed formats have a height and their own
    levels, and BasisLZ carries only ETC1S."""
    if data_format.block_compressed and header.height == 0:
        findings.add(
            "KTX2_TEXTURE_TYPE_INVALID",
            reason=f"pixelHeight is 0, but {data_format.model_name} is block-compressed",
        )
    if header.scheme == SCHEME_BASISLZ and data_format.color_model != MODEL_ETC1S:
        findings.add(
            "KTX2_HEADER_INVALID",
            reason=f"BasisLZ supercompresses only ETC1S, not {data_format.model_name}",
        )
    elif data_format.color_model == MODEL_ETC1S and header.scheme != SCHEME_BASISLZ:
        findings.add(
            "KTX2_HEADER_INVALID",
            reason="ETC1S data must be supercompressed with "
            f"BasisLZ, not supercompressionScheme {header.scheme}",
        )
    if data_format.block_compressed and header.level_count == 0:
        findings.add(
            "KTX2_LEVEL_COUNT_INVALID",
            reason=(
                f"levelCount is 0 (generate the mipmaps), which block-compressed formats such as "
                f"{data_format.model_name} do not allow"
            ),
        )


def check_sections(
    header: Ktx2Header, data_format: DataFormat | None, size: int, findings: Findings
) -> None:
    """Every section inside the file, after the level index, apart, in order and aligned."""
    sections = named_sections(header)
    for name, section in sections:
        if section.end > size:
            findings.add(
                "KTX2_DATA_OUT_OF_FILE",
                section=name,
                start=section.offset,
                end=section.end,
                size=size,
            )
        elif section.offset < header.index_end:
            findings.add("KTX2_SECTIONS_OVERLAP", first="the header and level index", second=name)
    by_offset = sorted(sections, key=lambda item: item[1].offset)
    for (first, a), (second, b) in pairwise(by_offset):
        if b.offset < a.end:
            findings.add("KTX2_SECTIONS_OVERLAP", first=first, second=second)
    _check_order(header, findings)
    _check_alignment(header, data_format, findings)


def named_sections(header: Ktx2Header) -> list[tuple[str, Section]]:
    """The sections that hold bytes, by name: the descriptor, key/value and global data, and
    each level."""
    sections = [
        ("the data format descriptor", header.dfd),
        ("the key/value data", header.kvd),
        ("the supercompression global data", header.sgd),
    ]
    sections += [(f"level {p}", level) for p, level in enumerate(header.levels)]
    return [(name, section) for name, section in sections if section.length]


def _check_order(header: Ktx2Header, findings: Findings) -> None:
    """Descriptor, key/value data, global data, then the levels, smallest first."""
    for p in range(len(header.levels) - 1):
        larger, smaller = header.levels[p], header.levels[p + 1]
        if larger.length and smaller.length and larger.offset < smaller.offset:
            findings.add(
                "KTX2_SECTION_ORDER_INVALID",
                reason=(f"level {p} is stored before level {p + 1}; levels go smallest first"),
            )
            return
    ordered = [section for section in (header.dfd, header.kvd, header.sgd) if section.length]
    stored = [level for level in header.levels if level.length]
    if stored:
        ordered.append(min(stored, key=lambda level: level.offset))
    if any(b.offset < a.offset for a, b in pairwise(ordered)):
        findings.add(
            "KTX2_SECTION_ORDER_INVALID",
            reason=(
                "the sections are not in the order descriptor, key/value data, global data, levels"
            ),
        )


def _check_alignment(
    header: Ktx2Header, data_format: DataFormat | None, findings: Findings
) -> None:
    """Global data on 8 bytes; levels of data not supercompressed on lcm(texel block, 4)."""
    if header.sgd.length and header.sgd.offset % 8:
        findings.add(
            "KTX2_ALIGNMENT_INVALID",
            section="the supercompression global data",
            start=header.sgd.offset,
            alignment=8,
        )
    if header.scheme != 0:
        return
    known = _expected_block(data_format)
    alignment = math.lcm(known[1] if known else 1, 4)
    for p, level in enumerate(header.levels):
        if level.length and level.offset % alignment:
            findings.add(
                "KTX2_ALIGNMENT_INVALID",
                section=f"level {p}",
                start=level.offset,
                alignment=alignment,
            )
            return


def check_level_lengths(
    header: Ktx2Header, data_format: DataFormat | None, findings: Findings
) -> None:
    """Each level's byteLength and uncompressedByteLength against each other and against
    the bytes its size takes in the format (KTX 2.0, 3.9.7)."""
    images = header.faces * max(1, header.layers)
    expected_block = _expected_block(data_format)
    for p, level in enumerate(header.levels):
        reason = None
        if level.length == 0:
            reason = "it is empty"
        elif header.scheme == 0 and level.length != level.uncompressed_length:
            reason = (
                f"byteLength {level.length} differs from uncompressedByteLength "
                f"{level.uncompressed_length}, and it is not supercompressed"
            )
        elif header.scheme == SCHEME_BASISLZ and level.uncompressed_length:
            reason = "BasisLZ levels must give uncompressedByteLength 0"
        elif header.scheme != SCHEME_BASISLZ and level.uncompressed_length % images:
            reason = (
                f"uncompressedByteLength {level.uncompressed_length} is not a multiple "
                f"of its {images} faces and layers"
            )
        elif header.scheme != SCHEME_BASISLZ and expected_block is not None:
            expected = level_bytes(header, p, *expected_block)
            if level.uncompressed_length != expected:
                reason = (
                    f"it holds {level.uncompressed_length} bytes, but its size takes "
                    f"{expected} in this format"
                )
        if reason is not None:
            findings.add("KTX2_LEVEL_LENGTH_INVALID", level=p, reason=reason)


def _expected_block(data_format: DataFormat | None) -> tuple[tuple[int, int, int], int] | None:
    """The texel block and its stored bytes, when the descriptor gives both (UASTC: 16)."""
    if data_format is None:
        return None
    if data_format.color_model == MODEL_UASTC:
        return data_format.block, 16
    block_bytes = stored_block_bytes(data_format)
    return None if block_bytes is None else (data_format.block, block_bytes)
