"""The FBX pre-scan of ASCII files: one pass over keys, strings, braces and array counts.

Numbers are never tokenised, so the pass costs little more than a regular-expression scan of
the file. It checks nesting depth and the ``*N`` element counts arrays declare (each value takes
at least one byte, so a count above the file size is a lie), flags ``Content`` blobs that
decode to programs, and counts the UV sets of each mesh geometry.
"""

from __future__ import annotations

import base64
import binascii
import re
import string
import time
from dataclasses import dataclass

from assetcheck.asset.options import Limits
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

# Runs of numbers and separators, and bare words, are matched whole so that the engine skips
# them quickly; the scan ignores them. Counts are cut at 19 digits: any such count is already
# far beyond the file's size.
_TOKENS = re.compile(rb'[^"{};*A-Za-z_]+|"[^"]*"|;[^\n]*|[{}]|\*\d{1,19}|[A-Za-z_][\w|]*:?')
_KEY_START = frozenset(string.ascii_letters.encode() + b"_")
_FILENAME_KEYS = frozenset({"RelativeFilename", "Filename"})
# Base64 characters that decode to at least CONTENT_HEAD_BYTES.
_CONTENT_HEAD_CHARS = (CONTENT_HEAD_BYTES + 2) // 3 * 4
# The largest element an ASCII array is parsed into (a double).
_ITEM_BYTES = 8


@dataclass
class _Block:
    """A ``{ ... }`` block being read: what the scan needs to remember about it."""

    name: str
    mesh_geometry: bool = False
    filename: str = ""
    uv_sets: int = 0
    has_vertices: bool = False


class _Stop(Exception):
    """The structure cannot be trusted any further; the finding is already recorded."""


class _AsciiScan:
    def __init__(self, data: memoryview, limits: Limits) -> None:
        self.data = data
        self.limits = limits
        self.scan = FbxScan()
        self.stack = [_Block("")]
        self.declared_bytes = 0
        self.key = ""
        self.key_strings: list[str] = []
        self.content: list[bytes] = []
        self.content_offset = 0

    def run(self) -> FbxScan:
        deadline = time.monotonic() + self.limits.parse_timeout
        try:
            for count, match in enumerate(_TOKENS.finditer(self.data), 1):
                if count % CLOCK_INTERVAL == 0 and time.monotonic() > deadline:
                    self.scan.findings.append(out_of_time(self.limits.parse_timeout, match.start()))
                    return self.scan
                self._token(match.start(), match.end())
            self._end_key()
            if len(self.stack) > 1:
                self.scan.findings.append(
                    truncated(
                        f"the file ends inside {len(self.stack) - 1} unclosed blocks",
                        len(self.data),
                    )
                )
        except _Stop:
            pass
        return self.scan

    def _token(self, start: int, end: int) -> None:
        first = self.data[start]
        if first == ord('"'):
            self._string(start + 1, end - 1)
        elif first == ord("{"):
            self._open()
        elif first == ord("}"):
            self._close()
        elif first == ord("*"):
            self._array_count(int(bytes(self.data[start + 1 : end])), start)
        elif first in _KEY_START and self.data[end - 1] == ord(":"):
            self._end_key()
            self.key = bytes(self.data[start : end - 1]).decode("ascii")
            # A key's node sits one level below the blocks open around it (the root counts).
            if len(self.stack) > MAX_NESTING:
                self._stop(f"nodes are nested more than {MAX_NESTING} deep", start)
            self._key(self.stack[-1])

    def _key(self, block: _Block) -> None:
        if self.key == "LayerElementUV":
            block.uv_sets += 1
        elif self.key == "Vertices":
            block.has_vertices = True

    def _string(self, start: int, end: int) -> None:
        if self.key == "Content":
            if sum(map(len, self.content)) < _CONTENT_HEAD_CHARS:
                self.content.append(bytes(self.data[start : min(end, start + _CONTENT_HEAD_CHARS)]))
                self.content_offset = self.content_offset or start
            return
        if len(self.key_strings) < 2:
            self.key_strings.append(
                bytes(self.data[start : min(end, start + 256)]).decode("utf-8", "replace")
            )
        block = self.stack[-1]
        if self.key in _FILENAME_KEYS and not block.filename:
            block.filename = self.key_strings[0]

    def _open(self) -> None:
        mesh_geometry = self._names_mesh_geometry()
        self._end_key(opens_block=True)
        self.stack.append(_Block(self.key, mesh_geometry))
        self.key = ""

    def _close(self) -> None:
        self._end_key()
        self.key = ""
        if len(self.stack) == 1:
            return  # a stray brace: the parser reports it, it allocates nothing
        block = self.stack.pop()
        if is_mesh(block.name, block.mesh_geometry, block.has_vertices):
            self.scan.uv_sets_per_mesh.append(block.uv_sets)

    def _array_count(self, count: int, offset: int) -> None:
        if count > len(self.data):
            self._stop(
                f"an array declares {count} values in a file of {len(self.data)} bytes", offset
            )
        self.declared_bytes += count * _ITEM_BYTES
        if self.declared_bytes > self.limits.max_uncompressed_bytes:
            self._stop(
                f"its arrays declare {self.declared_bytes} bytes, over the limit of "
                f"{self.limits.max_uncompressed_bytes}",
                offset,
            )

    def _names_mesh_geometry(self) -> bool:
        return self.key == "Geometry" and self.key_strings[1:2] == ["Mesh"]

    def _end_key(self, *, opens_block: bool = False) -> None:
        """Finish the key whose values were being read: check a ``Content`` blob it held."""
        if not opens_block and self._names_mesh_geometry():
            self.scan.uv_sets_per_mesh.append(0)  # a mesh written without a block
        self.key_strings = []
        content, offset = self.content, self.content_offset
        self.content, self.content_offset = [], 0
        if not content:
            return
        encoded = re.sub(rb"[^A-Za-z0-9+/]", b"", b"".join(content))
        try:
            head = base64.b64decode(encoded[: len(encoded) // 4 * 4])
        except binascii.Error:
            return
        finding = executable_finding(head[:CONTENT_HEAD_BYTES], self.stack[-1].filename, offset)
        if finding:
            self.scan.findings.append(finding)

    def _stop(self, reason: str, offset: int) -> None:
        self.scan.findings.append(malformed(reason, offset))
        raise _Stop


def scan_ascii(data: memoryview, limits: Limits) -> FbxScan:
    """Scan the ASCII FBX in ``data``; never raises for bad input."""
    return _AsciiScan(data, limits).run()
