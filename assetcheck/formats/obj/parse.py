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


#: Written indices of a corner that gives no UV or no normal: below any written index (those
#: are kept within ``NO_SUCH_INDEX`` either way), and far enough from the int64 limits that
#: arithmetic on it never wraps.
ABSENT = -NO_SUCH_INDEX - 1
#: The longest number word parsed in a batch (longer ones are parsed one by one, so a huge
#: word never sizes a fixed-width array).
MAX_FAST_NUMBER = 64
#: What a UTF-8 text may start with (the first line is read without it).
UTF8_BOM = b"\xef\xbb\xbf"
#: Statements of numbers, and of elements with the element each makes.
NUMBER_STATEMENTS = frozenset({b"v", b"vt", b"vn"})
ELEMENT_STATEMENTS = {
    b"f": Element.FACE,
    b"fo": Element.FACE,
    b"l": Element.LINE,
    b"p": Element.POINT,
}
ELEMENT_NAMES = {Element.FACE: "f", Element.LINE: "l", Element.POINT: "p"}


@dataclass
class Tally:
    """On how many lines something happened (a line counts once), and the first of them
    (1-based)."""

    count: int = 0
    line: int = 0
    example: str = ""
    last: int = field(default=0, repr=False, compare=False)

    def add(self, line: int, example: str = "") -> None:
        if line == self.last:
            return
        if not self.count or line < self.line:
            self.line, self.example = line, example
        self.count += 1
        self.last = line


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
    """Rows of numbers made into arrays: a list of chunks and how many rows they hold."""

    def __init__(self, dtype: type, width: int) -> None:
        self.dtype, self.width = dtype, width
        self.chunks: list[np.ndarray] = []
        self.rows = 0

    def array(self) -> np.ndarray:
        if not self.chunks:
            return np.empty((0, self.width), self.dtype)
        return np.concatenate(self.chunks)


class _Numbers(_Columns):
    """``v``, ``vt`` or ``vn`` statements: their words until flushed, then float64 rows. Every
    statement makes a row, so later indices name the rows the author meant: a number missing
    or unreadable is read as 0 (``OBJ_SYNTAX_ERROR``), as assimp reads it."""

    def __init__(self, statement: str, width: int, needed: int) -> None:
        super().__init__(np.float64, width)
        self.statement, self.needed = statement, needed
        self.words: list[bytes] = []
        self.lines: list[int] = []

    def add(self, words: list[bytes], line: int) -> bool:
        """Take a statement's first ``width`` numbers (0 for those it lacks); False when it
        gives fewer than it must."""
        given = words[1 : 1 + self.width]
        self.words += given
        if len(given) < self.width:
            self.words += [b"0"] * (self.width - len(given))
        self.lines.append(line)
        self.rows += 1
        return len(given) >= self.needed

    def flush(self, reader: _Reader) -> None:
        if not self.words:
            return
        values = None
        if max(map(len, self.words)) <= MAX_FAST_NUMBER:  # never a huge fixed-width array
            try:
                values = np.array(self.words).astype(np.float64)
            except ValueError:
                values = None
        if values is None:
            values = np.array(
                [
                    reader.number(word, self.lines[i // self.width], self.statement)
                    for i, word in enumerate(self.words)
                ]
            )
        self.chunks.append(values.reshape(-1, self.width))
        self.words, self.lines = [], []


class _Elements:
    """``f``, ``l`` and ``p`` statements: their corner words until flushed, then the rows of
    ``corners`` and of ``elements`` (start, kind, part, line). A batch whose corners all have
    one form (``v``, ``v/vt``, ``v//vn`` or ``v/vt/vn``) is parsed by numpy at once; any other
    element by element."""

    def __init__(self) -> None:
        self.corners = _Columns(np.int64, 3)
        self.elements = _Columns(np.int64, 4)
        self.words: list[bytes] = []
        #: Per element: corners, kind, part, line, and the position, UV and normal counts
        #: its relative indices count back from.
        self.pending: list[tuple[int, int, int, int, int, int, int]] = []

    def add(self, kind: Element, part: int, words: list[bytes], line: int, counts: tuple) -> None:
        self.words += words
        self.pending.append((len(words), int(kind), part, line, *counts))

    def flush(self, reader: _Reader) -> None:
        if not self.pending:
            return
        pending = np.array(self.pending, np.int64)
        written = _uniform_corners(b" ".join(self.words), len(self.words))
        if written is None:
            written, pending = self._one_by_one(pending, reader)
        sizes = pending[:, 0]
        counts = np.repeat(pending[:, 4:7], sizes, axis=0)
        relative = counts + written
        corners = np.where(
            written > 0,
            written - 1,
            np.where((written < 0) & (relative >= 0), relative, NO_SUCH_INDEX),
        )
        corners[written == ABSENT] = -1
        starts = self.corners.rows + np.cumsum(sizes) - sizes
        self.corners.chunks.append(corners)
        self.corners.rows += len(corners)
        self.elements.chunks.append(np.column_stack([starts, pending[:, 1:4]]))
        self.elements.rows += len(pending)
        self.words, self.pending = [], []

    def _one_by_one(self, pending: np.ndarray, reader: _Reader) -> tuple[np.ndarray, np.ndarray]:
        """The written indices of each readable element (``ABSENT`` where a corner gives
        none), and the elements kept; the others are syntax errors."""
        rows: list[list[int]] = []
        kept = []
        start = 0
        for number, (size, kind, _, line, *_counts) in enumerate(self.pending):
            try:
                corners = [_corner(word) for word in self.words[start : start + size]]
            except ValueError:
                reader.syntax_errors.add(line, ELEMENT_NAMES[Element(kind)])
            else:
                rows += corners
                kept.append(number)
            start += size
        written = np.array(rows, np.int64).reshape(-1, 3)
        return written, pending[kept]


class _Reader:
    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.deadline = time.monotonic() + limits.parse_timeout
        self.positions = _Numbers("v", 3, 3)
        self.texcoords = _Numbers("vt", 2, 1)
        self.normals = _Numbers("vn", 3, 3)
        self.elements = _Elements()
        self.pending_values = 0
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
                self._statement(line if self.line > 1 else line.removeprefix(UTF8_BOM))
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
        if key in NUMBER_STATEMENTS:
            columns = {b"v": self.positions, b"vt": self.texcoords, b"vn": self.normals}[key]
            if not columns.add(words, self.line):
                self.syntax_errors.add(self.line, _text(key))
            self.pending_values += columns.width
        elif key in ELEMENT_STATEMENTS:
            self._element(ELEMENT_STATEMENTS[key], words)
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

    def number(self, word: bytes, line: int, statement: str) -> float:
        """One number read on its own: ``float``'s reading, else the number it starts with
        (``OBJ_LOOSE_NUMBERS``), else 0 (``OBJ_SYNTAX_ERROR``)."""
        try:
            return float(word)
        except ValueError:
            pass
        loose = _NUMBER_PREFIX.match(word)
        if loose is None:
            self.syntax_errors.add(line, statement)
            return 0.0
        self.loose_numbers.add(line)
        return float(loose.group())

    def _element(self, kind: Element, words: list[bytes]) -> None:
        if len(words) < 2:
            self.syntax_errors.add(self.line, ELEMENT_NAMES[kind])
            return
        if self.part is None:
            key = (self.group, self.material)
            self.part = self.parts.setdefault(key, len(self.parts))
        counts = (self.positions.rows, self.texcoords.rows, self.normals.rows)
        self.elements.add(kind, self.part, words[1:], self.line, counts)
        self.pending_values += 3 * (len(words) - 1)

    def _flush(self) -> None:
        for numbers in (self.positions, self.texcoords, self.normals):
            numbers.flush(self)
        self.elements.flush(self)
        self.pending_values = 0
        kept = (
            (self.positions.rows + self.normals.rows) * BYTES_PER_XYZ
            + self.texcoords.rows * BYTES_PER_UV
            + self.elements.corners.rows * BYTES_PER_CORNER
            + self.elements.elements.rows * BYTES_PER_ELEMENT
        )
        if kept > self.limits.memory_limit_mb << 20:
            raise StopReading(Stop("RESOURCE_LIMIT", {"limit_mb": self.limits.memory_limit_mb}))
        if time.monotonic() > self.deadline:
            raise StopReading(Stop("VALIDATION_TIMEOUT", {"seconds": self.limits.parse_timeout}))

    def _finish(self) -> ObjText:
        corners = self.elements.corners.array()
        elements = self.elements.elements.array()
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


def _uniform_corners(text: bytes, count: int) -> np.ndarray | None:
    """The written indices of ``count`` corners (``(count, 3)``, ``ABSENT`` where a form has
    no UV or normal) when every corner of ``text`` (joined by spaces) has the same form;
    None otherwise. Checked without a regular expression (too slow on megabytes): only
    digits, signs, slashes and spaces; each corner the form's number of slashes; and the
    numbers, parsed at once, as many as the form gives (an empty field gives fewer) and whole
    numbers within what an index can be."""
    slashes, doubled = text.count(b"/"), text.count(b"//")
    forms = {
        (0, 0): (False, False),
        (count, 0): (True, False),
        (2 * count, count): (False, True),
        (2 * count, 0): (True, True),
    }
    form = forms.get((slashes, doubled))
    if form is None or text.translate(None, b"0123456789+-/ "):
        return None
    raw = np.frombuffer(text, np.uint8)
    starts = np.concatenate([[0], np.flatnonzero(raw == ord(" ")) + 1])
    per_corner = np.add.reduceat((raw == ord("/")).astype(np.int32), starts)
    if int(per_corner.min()) != int(per_corner.max()):
        return None
    width = 1 + sum(form)
    try:
        parsed = np.fromstring(text.replace(b"/", b" "), dtype=np.float64, sep=" ")
    except ValueError:  # a sign alone, or a sign inside a number
        return None
    if len(parsed) != count * width or not (np.abs(parsed) < NO_SUCH_INDEX).all():
        return None
    numbers = parsed.astype(np.int64).reshape(count, width)
    written = np.full((count, 3), ABSENT, np.int64)
    written[:, 0] = numbers[:, 0]
    if form[0]:
        written[:, 1] = numbers[:, 1]
    if form[1]:
        written[:, 2] = numbers[:, -1]
    return written


def _corner(word: bytes) -> list[int]:
    """One corner's written indices (``ABSENT`` for a UV or normal it does not give);
    ValueError when it is not ``v``, ``v/vt``, ``v//vn`` or ``v/vt/vn`` in whole numbers."""
    fields = word.split(b"/")
    if len(fields) > 3 or not fields[0]:
        raise ValueError(word)
    corner = [_written(fields[0])]
    for slot in (1, 2):
        corner.append(_written(fields[slot]) if len(fields) > slot and fields[slot] else ABSENT)
    return corner


def _written(field: bytes) -> int:
    """A written index, kept within what the arrays hold (beyond it, it names nothing)."""
    return max(min(int(field), NO_SUCH_INDEX), -NO_SUCH_INDEX)


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
