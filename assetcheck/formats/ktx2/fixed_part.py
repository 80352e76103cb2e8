"""What the fixed part of a KTX2 file says (KTX 2.0, section 3): the header's values, the
index's sections and the level index, as :mod:`assetcheck.formats.ktx2.header` reads them.

Apart from the header's reader, so that what every run imports of KTX2 (the identifier, the
reader's errors) creates no class: a run without KTX2 images never loads this module
(``docs/performance.md``).
"""

from __future__ import annotations

from dataclasses import dataclass, fields

from assetcheck.formats.ktx2.header import HEADER, LEVEL


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
    entry when ``level_count`` is 0; none before
    :func:`~assetcheck.formats.ktx2.header.read_level_index`)."""

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
COUNT_FIELDS = tuple(field.name for field in fields(Ktx2Header))[:9]
