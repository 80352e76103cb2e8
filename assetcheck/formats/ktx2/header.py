"""The fixed part of a KTX2 file: identifier, header, index and level index (KTX 2.0, section 3).

:func:`read_header` reads them with bounds checks only: it never reads past the data, and it
reads the level index only when the data holds it, so a header that claims four billion levels
costs nothing.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, fields, replace

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


@dataclass(frozen=True)
class Section:
    """Bytes ``offset`` to ``offset + length`` of the file."""

    offset: int
    length: int

    @property
    def end(self) -> int:
        return self.offset + self.length


@dataclass(frozen=True)
class Level(Section):
    """A level index entry: where level ``p`` is stored and how long it is once inflated."""

    uncompressed_length: int = 0


@dataclass(frozen=True)
class Ktx2Header:
    """The header fields, the index and the level index (``levels[p]`` is level ``p``; one
    entry when ``level_count`` is 0; none before :func:`read_level_index`)."""

    vk_format: int
    type_size: int
    width: int
    height: int
    depth: int
    layers: int
    faces: int
    level_count: int
    scheme: int
    dfd: Section
    kvd: Section
    sgd: Section
    levels: tuple[Level, ...]

    @property
    def index_end(self) -> int:
        """Where the level index ends: the first byte any other section may use."""
        return HEADER.size + LEVEL.size * len(self.levels)


#: The header's nine UInt32 (vkFormat .. supercompressionScheme), as Ktx2Header names them.
_COUNT_FIELDS = tuple(field.name for field in fields(Ktx2Header))[:9]


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
    counts = dict(zip(_COUNT_FIELDS, values[1:10], strict=True))
    dfd, kvd, sgd = (Section(*values[i : i + 2]) for i in (10, 12, 14))
    return Ktx2Header(**counts, dfd=dfd, kvd=kvd, sgd=sgd, levels=())


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
        Level(*LEVEL.unpack_from(view, HEADER.size + p * LEVEL.size)) for p in range(entries)
    )
    return replace(header, levels=levels)
