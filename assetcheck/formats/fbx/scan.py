"""The FBX pre-scan: a bounded walk of the node tree before the native parser sees the file.

ufbx allocates what a file declares before it checks it, so a 1 KB file can ask for gigabytes.
This walk checks every declared size against the bytes really there (``docs/security.md``,
FBX): node end offsets inside their parent, array sizes against their encoded bytes and the upload's
uncompressed-size limit, zlib arrays inflated (in bounded steps) to exactly their declared size,
nesting at most :data:`MAX_NESTING` deep. It also flags embedded media (``Content`` blobs) that
are programs. A file it rejects (:attr:`FbxScan.rejected`) must not reach the parser.

On the way it counts the UV sets of each mesh geometry, which ufbx's Python bindings do not
expose. Memory is bounded (inflation runs 1 MiB at a time); time is linear in the file size plus
the inflation work (at most the uncompressed-size limit), and a walk that outlasts the parse
time limit stops with ``VALIDATION_TIMEOUT``.
"""

from __future__ import annotations

import struct
import time
import zlib

from assetcheck.asset.options import Limits
from assetcheck.formats.fbx import FBX_BINARY_MAGIC
from assetcheck.formats.fbx.scan_ascii import scan_ascii
from assetcheck.formats.fbx.scan_rules import (
    CLOCK_INTERVAL,
    CONTENT_HEAD_BYTES,
    MAX_NESTING,
    FbxScan,
    executable_finding,
    is_mesh,
    malformed,
    out_of_time,
    truncated,
)
from assetcheck.formats.source import FileData

#: Deflate cannot expand its input by more than this factor (RFC 1951 blocks of max-length runs).
ZLIB_MAX_RATIO = 1032

_BINARY_HEADER_SIZE = 27
_SCALAR_SIZES = {
    ord(c): size
    for c, size in {"C": 1, "B": 1, "Z": 1, "Y": 2, "I": 4, "F": 4, "L": 8, "D": 8}.items()
}
_ARRAY_ITEM_SIZES = {
    ord(c): size for c, size in {"c": 1, "b": 1, "i": 4, "f": 4, "l": 8, "d": 8}.items()
}
_STRING_TYPES = frozenset(b"SR")
_FILENAME_NODES = frozenset({b"RelativeFilename", b"Filename"})
_INFLATE_STEP = 1 << 20
# Nodes with more scalar properties than this get a fast check that they are all of one type.
_MANY_PROPERTIES = 16


def scan_fbx(data: FileData, limits: Limits) -> FbxScan:
    """Walk the binary or ASCII FBX in ``data``; never raises for bad input."""
    if bytes(data[: len(FBX_BINARY_MAGIC)]) == FBX_BINARY_MAGIC:
        return _BinaryScan(memoryview(data), limits).run()
    return scan_ascii(memoryview(data), limits)


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


class _BinaryScan:
    """One walk over a binary file. The hot paths avoid calls and objects per property."""

    def __init__(self, data: memoryview, limits: Limits) -> None:
        self.data = data
        self.size = len(data)
        self.limits = limits
        self.scan = FbxScan()
        self.declared_bytes = 0
        self.deadline = time.monotonic() + limits.parse_timeout
        self.nodes = 0
        endian = ">" if self.size > 22 and data[22] else "<"
        self.length = struct.Struct(endian + "I")
        self.array_header = struct.Struct(endian + "III")
        version = self.length.unpack_from(data, 23)[0] if self.size >= _BINARY_HEADER_SIZE else 0
        self.header = struct.Struct(endian + ("QQQB" if version >= 7500 else "IIIB"))

    def run(self) -> FbxScan:
        try:
            self._walk_top_level()
        except _Truncated as error:
            self.scan.findings.append(truncated(error.reason, error.offset))
        except _Malformed as error:
            self.scan.findings.append(malformed(error.reason, error.offset))
        except _OutOfTime as stop:
            self.scan.findings.append(out_of_time(self.limits.parse_timeout, stop.offset))
        return self.scan

    def _walk_top_level(self) -> None:
        if self.size < _BINARY_HEADER_SIZE:
            raise _Truncated("the file ends inside its header", self.size)
        position = _BINARY_HEADER_SIZE
        # The footer follows the empty record that closes the top level; trailing bytes too
        # short for a node header are padding some writers leave.
        while position + self.header.size <= self.size:
            child = self._node(position, self.size, 1)
            if child is None:
                return
            position = child[0]

    def _node(self, position: int, limit: int, depth: int) -> _Child | None:
        """Check the node at ``position`` and everything under it; None for an end record."""
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
        strings = self._properties(props_start, props_end, count) if count else []
        if props_end < end or name == b"Geometry":
            self._children(name, strings, props_end, end, depth)
        return end, name, strings[0] if strings else None

    def _bytes(self, span: tuple[int, int], most: int) -> bytes:
        """The first ``most`` bytes of the string property at ``span``."""
        start, length = span
        return bytes(self.data[start : start + min(length, most)])

    def _children(
        self, name: bytes, strings: list[tuple[int, int]], position: int, end: int, depth: int
    ) -> None:
        filename = ""
        blobs: list[tuple[int, int]] = []
        uv_sets = 0
        has_vertices = False
        while position < end:
            child = self._node(position, end, depth + 1)
            if child is None:
                break
            position, child_name, first_string = child
            if first_string and child_name in _FILENAME_NODES and not filename:
                filename = self._bytes(first_string, 4096).decode("utf-8", "replace")
            elif first_string and child_name == b"Content":
                blobs.append(first_string)
            elif child_name == b"LayerElementUV":
                uv_sets += 1
            elif child_name == b"Vertices":
                has_vertices = True
        for blob in blobs:
            if finding := executable_finding(
                self._bytes(blob, CONTENT_HEAD_BYTES), filename, blob[0]
            ):
                self.scan.findings.append(finding)
        mesh_geometry = (
            name == b"Geometry" and len(strings) > 1 and self._bytes(strings[1], 8) == b"Mesh"
        )
        if is_mesh(name.decode("latin-1"), mesh_geometry, has_vertices):
            self.scan.uv_sets_per_mesh.append(uv_sets)

    def _properties(self, position: int, end: int, count: int) -> list[tuple[int, int]]:
        """Check ``count`` property records in ``[position, end)``; the first two strings'
        (offset, length)."""
        if count > (end - position) // 2:  # no property record is shorter than 2 bytes
            raise _Malformed(
                f"a node declares {count} properties in {end - position} bytes", position
            )
        data = self.data
        strings: list[tuple[int, int]] = []
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
                position += run * (scalar + 1)
                remaining -= run
                continue
            if code in _STRING_TYPES and position + 5 <= end:
                (length,) = self.length.unpack_from(data, position + 1)
                position += 5
                if len(strings) < 2:
                    strings.append((position, length))
            elif code in _ARRAY_ITEM_SIZES and position + 13 <= end:
                items, encoding, length = self.array_header.unpack_from(data, position + 1)
                position += 13
                self._check_array(position, end, code, items, encoding, length)
            elif code in _STRING_TYPES or code in _ARRAY_ITEM_SIZES:
                raise _Malformed("a property runs past the end of its node", position)
            else:
                raise _Malformed(f"unknown property type {code:#04x}", position)
            position += length
            remaining -= 1
        if position > end:
            raise _Malformed("a property runs past the end of its node", end)
        return strings

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

    def _check_array(
        self, position: int, end: int, code: int, items: int, encoding: int, length: int
    ) -> None:
        declared = items * _ARRAY_ITEM_SIZES[code]
        self.declared_bytes += declared
        if self.declared_bytes > self.limits.max_uncompressed_bytes:
            raise _Malformed(
                f"its arrays declare {self.declared_bytes} bytes, over the limit of "
                f"{self.limits.max_uncompressed_bytes}",
                position,
            )
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
