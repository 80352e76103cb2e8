"""The GLB reader: the binary container of glTF 2.0, checked as Khronos glTF-Validator checks it.

A GLB is a 12-byte header (magic ``glTF``, version 2, total length) and chunks, each an 8-byte
header (length, type) and its data: JSON first, then at most one BIN chunk. The chunks are
walked in the same order, with the same codes and offsets as Khronos; the JSON then goes to
the shared glTF logic with the BIN chunk as buffer 0. The BIN chunk is never copied: it stays
a view of ``source.data``, which may be a memory map of a large file.
"""

from __future__ import annotations

import struct
from typing import NamedTuple

from assetcheck.asset import Asset
from assetcheck.asset.options import ValidationOptions
from assetcheck.formats.gltf.glb_layout import (
    BIN_CHUNK,
    CHUNK_HEADER_LENGTH,
    HEADER_LENGTH,
    JSON_CHUNK,
    MAGIC,
    VERSION,
)
from assetcheck.formats.gltf.json_decoding import parse_document
from assetcheck.formats.gltf.reader import read_document
from assetcheck.formats.registry import FileFormat
from assetcheck.formats.source import FileData, SourceFile
from assetcheck.issues import FileIssues
from assetcheck.plugins.hookspecs import hookimpl

_CHUNK_NAMES = {JSON_CHUNK: "JSON", BIN_CHUNK: "BIN"}

#: A GLB starts with its magic, ``glTF``.
GLB = FileFormat("glb", "GLB", (".glb",), magic=(MAGIC.to_bytes(4, "little"),))


class GlbChunks(NamedTuple):
    """The first JSON and BIN chunks of a complete GLB (None where there is none)."""

    json: memoryview | None
    bin: memoryview | None


@hookimpl
def register_file_formats() -> list[FileFormat]:
    return [GLB]


@hookimpl
def read_asset(source: SourceFile, issues: FileIssues, options: ValidationOptions) -> Asset | None:
    if source.kind != GLB.name:
        return None
    chunks = read_chunks(source.data, issues)
    if chunks is None or chunks.json is None:
        return Asset.unread(source.name, "glb")
    text = bytes(chunks.json)
    document = parse_document(text, issues)
    if document is None:
        return Asset.unread(source.name, "glb")
    return read_document(
        document, text, source, issues, options, container="glb", glb_bin=chunks.bin
    )


def read_chunks(data: FileData, issues: FileIssues) -> GlbChunks | None:
    """The chunks of the GLB in ``data``, or None when it is unusable (reported).

    As in Khronos, a wrong magic or version, or a file that ends inside a header or a chunk,
    leaves nothing to read. The other container errors are reported and reading goes on.
    """
    view = memoryview(data)
    if len(view) < HEADER_LENGTH:
        issues.add("GLB_UNEXPECTED_END_OF_HEADER", offset=len(view))
        return None
    magic, version, declared = struct.unpack_from("<III", view, 0)
    if magic != MAGIC:
        issues.add("GLB_INVALID_MAGIC", offset=0, magic=repr(bytes(view[:4])))
        return None
    if version != VERSION:
        issues.add("GLB_INVALID_VERSION", offset=4, version=version)
        return None
    if declared <= HEADER_LENGTH:
        issues.add("GLB_LENGTH_TOO_SMALL", offset=8, length=declared)
    walker = _ChunkWalker(view, declared, issues)
    if not walker.walk():
        return None
    return GlbChunks(json=walker.found.get(JSON_CHUNK), bin=walker.found.get(BIN_CHUNK))


class _ChunkWalker:
    """Walks the chunks that follow the header, reporting in Khronos' order with its offsets."""

    def __init__(self, view: memoryview, declared: int, issues: FileIssues) -> None:
        self.view = view
        self.declared = declared
        self.issues = issues
        self.found: dict[int, memoryview] = {}
        self.chunks_seen = 0

    def walk(self) -> bool:
        """Visit every chunk; False when the file ends inside one (nothing is read then)."""
        size = len(self.view)
        offset = HEADER_LENGTH
        while offset < size:
            if offset == self.declared:
                self.issues.add("GLB_EXTRA_DATA", offset=offset)
                return True
            if size - offset < CHUNK_HEADER_LENGTH:
                self.issues.add("GLB_UNEXPECTED_END_OF_CHUNK_HEADER", offset=size)
                return False
            length, chunk_type = struct.unpack_from("<II", self.view, offset)
            start = offset + CHUNK_HEADER_LENGTH
            self._check_header(offset, chunk_type, length)
            if start + length > size:
                self.issues.add("GLB_UNEXPECTED_END_OF_CHUNK_DATA", offset=size)
                return False
            if chunk_type in _CHUNK_NAMES and chunk_type not in self.found:
                self.found[chunk_type] = self.view[start : start + length]
            self.chunks_seen += 1
            offset = start + length
        if offset != self.declared:
            self.issues.add(
                "GLB_LENGTH_MISMATCH", offset=offset, declared=self.declared, actual=offset
            )
        return True

    def _check_header(self, offset: int, chunk_type: int, length: int) -> None:
        add = self.issues.add
        name = chunk_name(chunk_type)
        if length % 4:
            add("GLB_CHUNK_LENGTH_UNALIGNED", offset=offset, chunk=name)
        if offset + CHUNK_HEADER_LENGTH + length > self.declared:
            add("GLB_CHUNK_TOO_BIG", offset=offset, chunk=name, length=length)
        if self.chunks_seen == 0 and chunk_type != JSON_CHUNK:
            add("GLB_UNEXPECTED_FIRST_CHUNK", offset=offset, chunk=name)
        if chunk_type == BIN_CHUNK and self.chunks_seen > 1 and BIN_CHUNK not in self.found:
            add("GLB_UNEXPECTED_BIN_CHUNK", offset=offset)
        if length == 0 and chunk_type == JSON_CHUNK:
            add("GLB_EMPTY_CHUNK", offset=offset, chunk=name)
        if length == 0 and chunk_type == BIN_CHUNK:
            add("GLB_EMPTY_BIN_CHUNK", offset=offset)
        if chunk_type not in _CHUNK_NAMES:
            add("GLB_UNKNOWN_CHUNK_TYPE", offset=offset, chunk=name)
        elif chunk_type in self.found:
            add("GLB_DUPLICATE_CHUNK", offset=offset, chunk=name)


def chunk_name(chunk_type: int) -> str:
    """A chunk type as Khronos prints it (``0x4e4f534a``), with its name when it is known."""
    code = f"0x{chunk_type:08x}"
    return f"{_CHUNK_NAMES[chunk_type]} ({code})" if chunk_type in _CHUNK_NAMES else code
