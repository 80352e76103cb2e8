"""The fixed part of a KTX2 file: identifier, header, index and level index (KTX 2.0, section 3).

:func:`read_header` reads them with bounds checks only: it never reads past the data, and it
reads the level index only when the data holds it, so a header that claims four billion levels
costs nothing. What they read is held in the classes of :mod:`assetcheck.formats.ktx2.fixed_part`.
"""

from __future__ import annotations

import struct
from dataclasses import replace
from typing import TYPE_CHECKING

from assetcheck.lazy_imports import lazy_module

if TYPE_CHECKING:
    from assetcheck.formats.ktx2 import fixed_part
    from assetcheck.formats.ktx2.fixed_part import Ktx2Header
else:  # its classes, imported by the first KTX2 header read
    fixed_part = lazy_module("assetcheck.formats.ktx2.fixed_part")

IDENTIFIER = b"\xabKTX 20\xbb\r\n\x1a\n"
#: What every KTX identifier (version 1 or 2) starts with.
KTX_FAMILY_PREFIX = b"\xabKTX "
#: Identifier, nine UInt32 (vkFormat .. supercompressionScheme), the DFD and key/value data
#: offsets and lengths (UInt32) and the supercompression global data's (UInt64).
HEADER = struct.Struct("<12s9I4I2Q")
#: One level index entry: byteOffset, byteLength, uncompressedByteLength.
LEVEL = struct.Struct("<3Q")
#: No 32-bit size has more mip levels than this; a larger levelCount is not read further.
MAX_LEVELS = 32


class HeaderTruncated(Exception):
    """The data ends before the header or the level index does; ``needed`` bytes it needs."""

    def __init__(self, needed: int) -> None:
        super().__init__(needed)
        self.needed = needed


class TooManyLevels(Exception):
    """``levelCount`` exceeds :data:`MAX_LEVELS`; the level index is not read."""

    def __init__(self, level_count: int) -> None:
        super().__init__(level_count)
        self.level_count = level_count


def read_header(view: memoryview) -> Ktx2Header:
    """The header and level index of the KTX2 file in ``view``, whose identifier the caller
    has checked. Raises :class:`HeaderTruncated` or :class:`TooManyLevels`."""
    return read_level_index(view, read_fixed_header(view))


def read_fixed_header(view: memoryview) -> Ktx2Header:
    """The header and index without the level index (``levels`` is empty).

    Raises :class:`HeaderTruncated`.
    """
    if len(view) < HEADER.size:
        raise HeaderTruncated(HEADER.size)
    values = HEADER.unpack_from(view, 0)
    # The identifier; the nine UInt32, in the order of Ktx2Header's fields; then the offset
    # and length of the data format descriptor, the key/value data and the global data.
    counts = dict(zip(fixed_part.COUNT_FIELDS, values[1:10], strict=True))
    dfd, kvd, sgd = (fixed_part.Section(*values[i : i + 2]) for i in (10, 12, 14))
    return fixed_part.Ktx2Header(**counts, dfd=dfd, kvd=kvd, sgd=sgd, levels=())


def read_level_index(view: memoryview, header: Ktx2Header) -> Ktx2Header:
    """``header`` with its level index, read only when ``view`` holds all of it.

    Raises :class:`HeaderTruncated` or :class:`TooManyLevels`.
    """
    if header.level_count > MAX_LEVELS:
        raise TooManyLevels(header.level_count)
    entries = max(header.level_count, 1)
    needed = HEADER.size + entries * LEVEL.size
    if len(view) < needed:
        raise HeaderTruncated(needed)
    levels = tuple(
        fixed_part.Level(*LEVEL.unpack_from(view, HEADER.size + p * LEVEL.size))
        for p in range(entries)
    )
    return replace(header, levels=levels)
