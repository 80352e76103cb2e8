"""The one walk of an FBX file: the security scan and the node tree, in a single bounded pass.

ufbx allocates what a file declares before it checks it, so a 1 KB file can ask for gigabytes.
This walk checks every declared size against the bytes really there (``docs/security.md``,
FBX): node end offsets inside their parent, array sizes against their encoded bytes and the
upload's uncompressed-size limit, zlib arrays inflated (in bounded steps) to exactly their
declared size, nesting at most :data:`MAX_NESTING` deep. It also flags embedded media
(``Content`` blobs) that are programs. A file it rejects (:attr:`FbxScan.rejected`) must not
reach the parser.

On the way it keeps the nodes the reader asked for (:mod:`assetcheck.formats.fbx.tree`), so
the file is walked once by this project's code. Memory is bounded: inflation runs 1 MiB at a
time and the kept nodes count against the parser's memory limit (over it the file is
``RESOURCE_LIMIT`` and rejected). Time is linear in the file size plus the inflation work (at
most the uncompressed-size limit), and a walk that outlasts the parse time limit stops with
``VALIDATION_TIMEOUT``. ASCII files are walked by :mod:`assetcheck.formats.fbx.walk_ascii`.
"""

from __future__ import annotations

import struct
import time
import zlib

import numpy as np

from assetcheck.asset.options import Limits
from assetcheck.formats.fbx import FBX_BINARY_MAGIC
from assetcheck.formats.fbx.scan_rules import (
    CLOCK_INTERVAL,
    CONTENT_HEAD_BYTES,
    MAX_NESTING,
    FbxWalk,
    FbxWalker,
    malformed,
    out_of_time,
    truncated,
)
from assetcheck.formats.fbx.tree import (
    PROPERTY_COST,
    ArrayRef,
    BlobRef,
    FbxNode,
    FbxSource,
    KeepRule,
    geometry_nodes,
)
from assetcheck.formats.fbx.walk_ascii import walk_ascii
from assetcheck.formats.source import FileData

#: Deflate cannot expand its input by more than this factor (RFC 1951 blocks of max-length runs).
ZLIB_MAX_RATIO = 1032

_BINARY_HEADER_SIZE = 27
# Scalar property types: their struct format; B and Z are sizes only (no reader gives them).
_SCALAR_FORMATS = {
    ord(c): kind for c, kind in {"Y": "h", "C": "?", "I": "i", "F": "f", "D": "d", "L": "q"}.items()
}
_SCALAR_SIZES = {
    **{code: struct.calcsize(kind) for code, kind in _SCALAR_FORMATS.items()},
    ord("B"): 1,
    ord("Z"): 1,
}
_ARRAY_DTYPES = {
    ord(c): dtype
    for c, dtype in {"f": "f4", "d": "f8", "l": "i8", "i": "i4", "b": "u1", "c": "u1"}.items()
}
_ARRAY_ITEM_SIZES = {code: int(dtype[1]) for code, dtype in _ARRAY_DTYPES.items()}
_STRING_TYPES = frozenset(b"SR")
_FILENAME_NODES = frozenset({b"RelativeFilename", b"Filename"})
_INFLATE_STEP = 1 << 20
# Nodes with more scalar properties than this get a fast check that they are all of one type
# (FBX 6 writes arrays as thousands of scalar records); a kept one becomes one numpy array.
_MANY_PROPERTIES = 16


def walk_fbx(data: FileData, limits: Limits, keep: KeepRule = geometry_nodes) -> FbxWalk:
    """Walk the binary or ASCII FBX in ``data``, keeping the nodes ``keep`` asks for; never
    raises for bad input."""
    view = memoryview(data)
    if bytes(view[: len(FBX_BINARY_MAGIC)]) == FBX_BINARY_MAGIC:
        return _BinaryWalk(view, limits, keep).run()
    return walk_ascii(view, limits, keep)


class _Malformed(Exception):
    def __init__(self, reason: str, offset: int) -> None:
        super().__init__(reason)
        self.reason = reason
        self.offset = offset


class _Truncated(_Malformed):
    """The file ends before its structure does: an upload cut short, not a crafted file."""


class _OutOfTime(Exception):
    def __init__(self, offset: int) -> None:
        super().__init__(offset)
        self.offset = offset


# What a node's parent learns from it: its end offset, its name, and (offset, length) of its
# first string property. A plain tuple: the walk makes one per node.
_Child = tuple[int, bytes, "tuple[int, int] | None"]


class _BinaryWalk(FbxWalker):
    """One walk over a binary file. The hot paths avoid calls and objects per property."""

    def __init__(self, data: memoryview, limits: Limits, keep: KeepRule) -> None:
        self.data = data
        self.size = len(data)
        self.deadline = time.monotonic() + limits.parse_timeout
        self.nodes = 0
        endian = ">" if self.size > 22 and data[22] else "<"
        self.length = struct.Struct(endian + "I")
        self.array_header = struct.Struct(endian + "III")
        version = self.length.unpack_from(data, 23)[0] if self.size >= _BINARY_HEADER_SIZE else 0
        self.header = struct.Struct(endian + ("QQQB" if version >= 7500 else "IIIB"))
        self.scalars = {code: struct.Struct(endian + f) for code, f in _SCALAR_FORMATS.items()}
        super().__init__(limits, keep, FbxSource(data, True, endian))

    def run(self) -> FbxWalk:
        try:
            self._walk_top_level()
        except _Truncated as error:
            self.scan.findings.append(truncated(error.reason, error.offset))
        except _Malformed as error:
            self.scan.findings.append(malformed(error.reason, error.offset))
        except _OutOfTime as stop:
            self.scan.findings.append(out_of_time(self.limits.parse_timeout, stop.offset))
        return self.result()

    def _walk_top_level(self) -> None:
        if self.size < _BINARY_HEADER_SIZE:
            raise _Truncated("the file ends inside its header", self.size)
        position = _BINARY_HEADER_SIZE
        # The footer follows the empty record that closes the top level; trailing bytes too
        # short for a node header are padding some writers leave.
        while position + self.header.size <= self.size:
            child = self._node(position, self.size, 1, self.builder.root)
            if child is None:
                return
            position = child[0]

    def _node(self, position: int, limit: int, depth: int, parent: FbxNode | None) -> _Child | None:
        """Check the node at ``position`` and everything under it, keeping it under ``parent``
        (a kept node, or None) if the rule says so; None for an end record."""
        if position + self.header.size > limit:
            raise _Malformed("a node header runs past the end of its parent", position)
        end, count, props_length, name_length = self.header.unpack_from(self.data, position)
        if end == 0 and name_length == 0:
            return None
        if depth > MAX_NESTING:
            raise _Malformed(f"nodes are nested more than {MAX_NESTING} deep", position)
        self.nodes += 1
        if self.nodes % CLOCK_INTERVAL == 0 and time.monotonic() > self.deadline:
            raise _OutOfTime(position)
        props_start = position + self.header.size + name_length
        props_end = props_start + props_length
        if end > self.size:
            raise _Truncated(
                f"a node ends at byte {end}, past the last byte ({self.size})", position
            )
        if not props_end <= end <= limit:
            raise _Malformed(
                f"a node ends at byte {end}, outside its parent (bytes {position}..{limit})",
                position,
            )
        name = bytes(self.data[props_start - name_length : props_start])
        node = None
        if parent is not None:
            node = self.builder.child(parent, depth, name.decode("latin-1"))
        first_string = self._properties(props_start, props_end, count, node) if count else None
        if props_end < end:
            self._children(node, props_end, end, depth)
        return end, name, first_string

    def _bytes(self, span: tuple[int, int], most: int) -> bytes:
        """The first ``most`` bytes of the string property at ``span``."""
        start, length = span
        return bytes(self.data[start : start + min(length, most)])

    def _children(self, node: FbxNode | None, position: int, end: int, depth: int) -> None:
        filename = ""
        blobs: list[tuple[int, int]] = []
        while position < end:
            child = self._node(position, end, depth + 1, node)
            if child is None:
                break
            position, child_name, first_string = child
            if first_string and child_name in _FILENAME_NODES and not filename:
                filename = self._bytes(first_string, 4096).decode("utf-8", "replace")
            elif first_string and child_name == b"Content":
                blobs.append(first_string)
        for blob in blobs:
            self.check_content(self._bytes(blob, CONTENT_HEAD_BYTES), filename, blob[0])

    def _properties(
        self, position: int, end: int, count: int, node: FbxNode | None
    ) -> tuple[int, int] | None:
        """Check ``count`` property records in ``[position, end)``, giving them to ``node``
        when it is kept; the (offset, length) of the first string."""
        if count > (end - position) // 2:  # no property record is shorter than 2 bytes
            raise _Malformed(
                f"a node declares {count} properties in {end - position} bytes", position
            )
        data = self.data
        props = None if node is None else node.props
        first_string = None
        remaining = count
        while remaining:
            if position >= end:
                raise _Malformed("a property runs past the end of its node", position)
            code = data[position]
            scalar = _SCALAR_SIZES.get(code)
            if scalar is not None:
                run = 1
                if remaining > _MANY_PROPERTIES:
                    run = self._scalar_run(position, end, code, scalar, remaining)
                if props is not None:
                    self._keep_scalars(props, position, code, run, run == remaining)
                position += run * (scalar + 1)
                remaining -= run
                continue
            if code in _STRING_TYPES and position + 5 <= end:
                (length,) = self.length.unpack_from(data, position + 1)
                position += 5
                if first_string is None:
                    first_string = (position, length)
                fits = position + length <= end  # else the node is malformed: keep nothing
                if props is not None and fits and code == ord("R"):
                    if self.builder.charge(PROPERTY_COST):  # read when asked for, if ever
                        props.append(BlobRef(position, position + length))
                elif props is not None and fits and self.builder.charge(PROPERTY_COST + length):
                    props.append(
                        bytes(data[position : position + length]).decode("utf-8", "replace")
                    )
            elif code in _ARRAY_ITEM_SIZES and position + 13 <= end:
                items, encoding, length = self.array_header.unpack_from(data, position + 1)
                position += 13
                self._check_array(position, end, code, items, encoding, length)
                if props is not None and self.builder.charge(PROPERTY_COST):
                    dtype = _ARRAY_DTYPES[code]
                    props.append(ArrayRef(dtype, position, position + length, items, encoding))
            elif code in _STRING_TYPES or code in _ARRAY_ITEM_SIZES:
                raise _Malformed("a property runs past the end of its node", position)
            else:
                raise _Malformed(f"unknown property type {code:#04x}", position)
            position += length
            remaining -= 1
        if position > end:
            raise _Malformed("a property runs past the end of its node", end)
        return first_string

    def _scalar_run(self, position: int, end: int, code: int, size: int, remaining: int) -> int:
        """How many of the ``remaining`` records are scalars of type ``code``: all, or one.

        FBX 6 writes arrays as thousands of scalar records; checking a whole run with one
        slice comparison keeps those files fast.
        """
        stride = size + 1
        run_end = position + stride * remaining
        if run_end <= end and self.data[position:run_end:stride] == bytes([code]) * remaining:
            return remaining
        return 1

    def _keep_scalars(
        self, props: list[object], position: int, code: int, run: int, last: bool
    ) -> None:
        """Give a kept node the ``run`` scalars of type ``code`` at ``position``: one numpy
        array (a view of the file) when they are all its properties, else their values."""
        scalar = self.scalars.get(code)
        if scalar is None:  # B and Z: sizes the scan knows, values nothing reads
            self.builder.fail(f"unknown property type {code:#04x} at byte {position}")
            return
        one_array = run > 1 and last and not props
        if not self.builder.charge(PROPERTY_COST * (1 if one_array else run)):
            return
        if run == 1:
            props.append(scalar.unpack_from(self.data, position + 1)[0])
            return
        stride = scalar.size + 1
        values = np.ndarray((run,), np.dtype(scalar.format), self.data, position + 1, (stride,))
        if one_array:
            props.append(values)
        else:
            props.extend(values.tolist())

    def _check_array(
        self, position: int, end: int, code: int, items: int, encoding: int, length: int
    ) -> None:
        declared = items * _ARRAY_ITEM_SIZES[code]
        if over_limit := self.declare_array(declared):
            raise _Malformed(over_limit, position)
        if position + length > end:
            raise _Malformed("an array runs past the end of its node", position)
        if encoding == 0:
            if length != declared:
                raise _Malformed(
                    f"an array of {items} items declares {declared} bytes but holds {length}",
                    position,
                )
        elif encoding == 1:
            if declared > length * ZLIB_MAX_RATIO + 64:
                raise _Malformed(
                    f"a compressed array of {length} bytes declares {declared} bytes, more "
                    "than zlib can produce from it",
                    position,
                )
            inflated = inflated_size(self.data[position : position + length], declared + 1)
            if inflated < 0:
                raise _Malformed("a compressed array is not valid zlib data", position)
            if inflated != declared:
                found = "more" if inflated > declared else f"{inflated} bytes"
                raise _Malformed(
                    f"a compressed array declares {declared} bytes but inflates to {found}",
                    position,
                )
        else:
            raise _Malformed(f"an array has unknown encoding {encoding}", position)


def inflated_size(compressed: memoryview, limit: int) -> int:
    """How many bytes ``compressed`` inflates to, counting no further than ``limit``.

    Memory stays at one step of output whatever the stream claims; -1 for invalid data.
    """
    inflater = zlib.decompressobj()
    total = 0
    try:
        for start in range(0, len(compressed), _INFLATE_STEP):
            pending: bytes | memoryview = compressed[start : start + _INFLATE_STEP]
            while not inflater.eof:
                out = inflater.decompress(pending, min(limit - total, _INFLATE_STEP))
                total += len(out)
                if total >= limit:
                    return total
                tail = inflater.unconsumed_tail
                if not out and len(tail) == len(pending):
                    break  # this step's input is used up: feed the next one
                pending = tail
    except zlib.error:
        return -1
    return total
