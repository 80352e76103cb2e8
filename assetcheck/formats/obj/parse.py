"""The statements of an OBJ file, read in one bounded pass into numpy arrays.

The text is read in blocks of :data:`BLOCK_BYTES`, never as a whole: a line longer than
:data:`MAX_LINE_BYTES` stops the read (``OBJ_LINE_TOO_LONG``) as soon as the block holding its
start is seen, so a stream that never ends a line costs one block. Values wait in Python lists
for at most :data:`FLUSH_VALUES` numbers, then join the arrays; every flush charges the arrays
to ``Limits.memory_limit_mb`` (``RESOURCE_LIMIT``) and looks at the clock
(``Limits.parse_timeout``, ``VALIDATION_TIMEOUT``). Indices are never used to size anything:
a face naming vertex 10^9 of a file with eight is out of range, not a reason to allocate.

Read: ``v`` (the first three numbers; vertex colours after them are ignored), ``vt`` (u and v),
``vn``, ``f``/``fo``, ``l``, ``p`` (with 1-based and negative, relative indices), ``g``, ``o``,
``usemtl`` and ``mtllib``. The other statements of the OBJ specification (free-form geometry,
smoothing groups, ``maplib``...) are known and skipped; anything else is an unknown statement.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from enum import IntEnum

import numpy as np

from assetcheck.asset.options import Limits
from assetcheck.formats.obj.plugin import SKIPPED_STATEMENTS
from assetcheck.formats.source import FileData

#: The longest line read (bytes): longer ones stop the read with ``OBJ_LINE_TOO_LONG``.
MAX_LINE_BYTES = 1 << 20
#: Bytes read at a time; larger than a line may be, so every line ends inside two blocks.
BLOCK_BYTES = 4 << 20
#: Numbers held in Python lists before they join the arrays.
FLUSH_VALUES = 1 << 18
#: An index that refers to nothing (0, or a relative index before the first element).
NO_SUCH_INDEX = 1 << 62
#: Bytes the arrays keep per position or normal, texture coordinate, corner and element.
BYTES_PER_XYZ, BYTES_PER_UV, BYTES_PER_CORNER, BYTES_PER_ELEMENT = 24, 16, 24, 21

#: What ``float`` does not take but OBJ readers do: the longest number at the start of a
#: token (``3.1+e2`` is read as 3.1, as assimp and most C readers do).
_NUMBER_PREFIX = re.compile(rb"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")


class Element(IntEnum):
    """What an element statement draws."""

    FACE = 0
    LINE = 1
    POINT = 2


@dataclass
class Tally:
    """How often something happened, and the first line (1-based) it happened on."""

    count: int = 0
    line: int = 0
    example: str = ""

    def add(self, line: int, example: str = "") -> None:
        if not self.count:
            self.line, self.example = line, example
        self.count += 1


@dataclass
class Stop:
    """Why the read stopped before the end: the issue code and its fields."""

    code: str
    fields: dict[str, object]


@dataclass
class ObjText:
    """What an OBJ file states, as arrays.

    ``corners`` has a row per element corner: its position, texture coordinate and normal
    (0-based rows of ``positions``, ``texcoords`` and ``normals``; -1 where the corner gives
    none). Elements (faces, lines and points) start at ``element_starts`` in ``corners``;
    ``element_parts`` says which of ``parts`` (group or object name, material) each is in.
    Elements naming an index the file lacks were left out (``out_of_range``).
    """

    positions: np.ndarray
    texcoords: np.ndarray
    normals: np.ndarray
    corners: np.ndarray
    element_starts: np.ndarray
    element_kinds: np.ndarray
    element_parts: np.ndarray
    parts: list[tuple[str, str | None]]
    #: Material libraries as written, with the line naming them.
    libraries: list[tuple[str, int]] = field(default_factory=list)
    unknown_statements: Tally = field(default_factory=Tally)
    syntax_errors: Tally = field(default_factory=Tally)
    loose_numbers: Tally = field(default_factory=Tally)
    out_of_range: Tally = field(default_factory=Tally)
    #: Why the read stopped early; None when it read the whole file.
    stop: Stop | None = None

    @property
    def element_sizes(self) -> np.ndarray:
        """The number of corners of each element."""
        return np.diff(self.element_starts, append=len(self.corners))


class StopReading(Exception):
    """The read stopped early: ``stop`` says why."""

    def __init__(self, stop: Stop) -> None:
        self.stop = stop


class _Columns:
    """Values of one kind: Python lists until flushed, then numpy chunks."""

    def __init__(self, dtype: type, width: int) -> None:
        self.dtype, self.width = dtype, width
        self.pending: list = []
        self.chunks: list[np.ndarray] = []
        self.rows = 0

    def flush(self) -> None:
        if self.pending:
            self.chunks.append(np.array(self.pending, self.dtype).reshape(-1, self.width))
            self.pending = []

    def array(self) -> np.ndarray:
        self.flush()
        if not self.chunks:
            return np.empty((0, self.width), self.dtype)
        return np.concatenate(self.chunks)


class _Reader:
    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.deadline = time.monotonic() + limits.parse_timeout
        self.positions = _Columns(np.float64, 3)
        self.texcoords = _Columns(np.float64, 2)
        self.normals = _Columns(np.float64, 3)
        self.corners = _Columns(np.int64, 3)
        self.elements = _Columns(np.int64, 4)  # start, kind, part, line
        self.pending_values = 0
        self.kept_bytes = 0
        self.parts: dict[tuple[str, str | None], int] = {}
        self.group = "default"
        self.material: str | None = None
        self.part: int | None = None
        self.line = 0
        self.libraries: list[tuple[str, int]] = []
        self.unknown_statements = Tally()
        self.syntax_errors = Tally()
        self.loose_numbers = Tally()
        self.stop: Stop | None = None

    def read(self, data: FileData) -> ObjText:
        try:
            for line in bounded_lines(data):
                self.line += 1
                self._statement(line)
                if self.pending_values >= FLUSH_VALUES:
                    self._flush()
            self._flush()
        except StopReading as stopped:
            self.stop = stopped.stop
        return self._finish()

    def _statement(self, line: bytes) -> None:
        if b"#" in line:
            line = line.split(b"#", 1)[0]
        words = line.split()
        if not words:
            return
        key = words[0]
        if key == b"v":
            self._numbers(self.positions, words, 3)
        elif key == b"vt":
            self._numbers(self.texcoords, words, 1)
        elif key == b"vn":
            self._numbers(self.normals, words, 3)
        elif key in (b"f", b"fo"):
            self._element(Element.FACE, words)
        elif key == b"l":
            self._element(Element.LINE, words)
        elif key == b"p":
            self._element(Element.POINT, words)
        elif key in (b"g", b"o"):
            self.group = _text(b" ".join(words[1:])) or "default"
            self.part = None
        elif key == b"usemtl":
            self.material = _text(line.strip()[len(key) :].strip()) or None
            self.part = None
        elif key == b"mtllib":
            self.libraries += [(_text(name), self.line) for name in words[1:]]
        elif key not in SKIPPED_STATEMENTS:
            self.unknown_statements.add(self.line, _text(key[:40]))

    def _numbers(self, columns: _Columns, words: list[bytes], needed: int) -> None:
        """The first ``columns.width`` numbers of a statement (missing ones beyond ``needed``
        are 0, as for a ``vt`` with u only)."""
        given = words[1 : 1 + columns.width]
        if len(given) < needed:
            self.syntax_errors.add(self.line, _text(words[0]))
            return
        try:
            values = [float(word) for word in given]
        except ValueError:
            loose = [_NUMBER_PREFIX.match(word) for word in given]
            if not all(loose):
                self.syntax_errors.add(self.line, _text(words[0]))
                return
            self.loose_numbers.add(self.line)
            values = [float(match.group()) for match in loose if match]
        values += [0.0] * (columns.width - len(values))
        columns.pending += values
        columns.rows += 1
        self.pending_values += len(values)

    def _element(self, kind: Element, words: list[bytes]) -> None:
        counts = (self.positions.rows, self.texcoords.rows, self.normals.rows)
        corners: list[int] = []
        try:
            for word in words[1:]:
                fields = word.split(b"/")
                if len(fields) > 3 or not fields[0]:
                    raise ValueError(word)
                corners.append(_index(int(fields[0]), counts[0]))
                for slot in (1, 2):
                    given = len(fields) > slot and fields[slot]
                    corners.append(_index(int(fields[slot]), counts[slot]) if given else -1)
        except ValueError:
            corners = []
        if not corners:
            self.syntax_errors.add(self.line, _text(words[0]))
            return
        if self.part is None:
            key = (self.group, self.material)
            self.part = self.parts.setdefault(key, len(self.parts))
        self.elements.pending += (self.corners.rows, int(kind), self.part, self.line)
        self.elements.rows += 1
        self.corners.pending += corners
        self.corners.rows += len(corners) // 3
        self.pending_values += len(corners)

    def _flush(self) -> None:
        for columns in (self.positions, self.texcoords, self.normals, self.corners, self.elements):
            columns.flush()
        self.pending_values = 0
        kept = (
            (self.positions.rows + self.normals.rows) * BYTES_PER_XYZ
            + self.texcoords.rows * BYTES_PER_UV
            + self.corners.rows * BYTES_PER_CORNER
            + self.elements.rows * BYTES_PER_ELEMENT
        )
        if kept > self.limits.memory_limit_mb << 20:
            raise StopReading(Stop("RESOURCE_LIMIT", {"limit_mb": self.limits.memory_limit_mb}))
        if time.monotonic() > self.deadline:
            raise StopReading(Stop("VALIDATION_TIMEOUT", {"seconds": self.limits.parse_timeout}))

    def _finish(self) -> ObjText:
        corners = self.corners.array()
        elements = self.elements.array()
        sizes = np.diff(elements[:, 0], append=len(corners))
        positions, texcoords, normals = (
            c.array() for c in (self.positions, self.texcoords, self.normals)
        )
        counts = np.array([len(positions), len(texcoords), len(normals)])
        bad = np.repeat(np.arange(len(elements)), sizes)[(corners >= counts).any(axis=1)]
        out_of_range = Tally()
        if bad.size:
            dropped = np.unique(bad)
            out_of_range = Tally(len(dropped), int(elements[dropped[0], 3]))
            keep = np.ones(len(elements), bool)
            keep[dropped] = False
            corners = corners[np.repeat(keep, sizes)]
            elements, sizes = elements[keep], sizes[keep]
        return ObjText(
            positions,
            texcoords,
            normals,
            corners.astype(np.int32),
            (np.cumsum(sizes) - sizes).astype(np.int32),
            elements[:, 1].astype(np.int8),
            elements[:, 2].astype(np.int32),
            list(self.parts),
            self.libraries,
            self.unknown_statements,
            self.syntax_errors,
            self.loose_numbers,
            out_of_range,
            self.stop,
        )


def _index(written: int, count: int) -> int:
    """The 0-based row a written index names: 1-based, or relative to the ``count`` rows so
    far when negative; :data:`NO_SUCH_INDEX` for 0 and for a relative index before the first."""
    if written > 0:
        return min(written - 1, NO_SUCH_INDEX)
    if written < 0 and count + written >= 0:
        return count + written
    return NO_SUCH_INDEX


def _text(value: bytes) -> str:
    return value.decode("utf-8", "replace")


def bounded_lines(data: FileData) -> Iterator[bytes]:
    """Each line of ``data``, without its end, read a block at a time; a line longer than
    :data:`MAX_LINE_BYTES` raises :class:`StopReading` (``OBJ_LINE_TOO_LONG``)."""
    size, start, carry = len(data), 0, b""
    while start < size:
        block = carry + bytes(data[start : start + BLOCK_BYTES])
        block_offset = start - len(carry)
        start += BLOCK_BYTES
        cut = len(block) if start >= size else block.rfind(b"\n") + 1
        carry = block[cut:]
        if len(carry) > MAX_LINE_BYTES:
            raise StopReading(_too_long(block_offset + cut))
        if not cut:
            continue
        offset = block_offset
        for line in block[: cut - 1 if block[cut - 1 : cut] == b"\n" else cut].split(b"\n"):
            if len(line) > MAX_LINE_BYTES:
                raise StopReading(_too_long(offset))
            yield line
            offset += len(line) + 1


def _too_long(offset: int) -> Stop:
    return Stop("OBJ_LINE_TOO_LONG", {"offset": offset, "limit": MAX_LINE_BYTES})


def read_obj_text(data: FileData, limits: Limits) -> ObjText:
    """Every statement of ``data`` this module reads, within ``limits`` (see the module)."""
    return _Reader(limits).read(data)
