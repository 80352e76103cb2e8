"""Writers of real ZIP bytes: honest archives (through ``zipfile``) and hostile ones by hand.

:func:`zip_of` packs files as any archiver would. :func:`build_zip` writes every header field
itself, so a test can make any of them lie: sizes, CRCs, flags, attributes, a local header name
that differs from the central directory's. The bomb builders make small files that would inflate
to gigabytes; they never inflate them.
"""

from __future__ import annotations

import io
import stat
import struct
import zipfile
import zlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

MIB = 1 << 20
GIB = 1 << 30

FLAG_ENCRYPTED = 0x0001
FLAG_UTF8 = 0x0800
SYMLINK_ATTRIBUTES = (stat.S_IFLNK | 0o777) << 16

_LOCAL = struct.Struct("<4s5H3L2H")
_CENTRAL = struct.Struct("<4s6H3L5H2L")
_END = struct.Struct("<4s4H2LH")
_ZIP64_END = struct.Struct("<4sQ2H2L4Q")
_ZIP64_LOCATOR = struct.Struct("<4sLQL")
_MADE_BY_UNIX = (3 << 8) | 20


def tiny_glb(document: bytes = b'{"asset":{"version":"2.0"}}') -> bytes:
    """A minimal valid GLB: the 12-byte header and one JSON chunk padded with spaces."""
    document += b" " * (-len(document) % 4)
    chunk = struct.pack("<I4s", len(document), b"JSON") + document
    return struct.pack("<4sII", b"glTF", 2, 12 + len(chunk)) + chunk


def elf_program() -> bytes:
    """The start of a 64-bit Linux executable: what a scanner sees in its first bytes."""
    return b"\x7fELF\x02\x01\x01" + bytes(57) + b"\x90" * 256


def zip_of(files: Mapping[str, bytes], *, compression: int = zipfile.ZIP_DEFLATED) -> bytes:
    """An honest archive of ``files`` (name -> content), written by Python's ``zipfile``."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression) as archive:
        for name, content in files.items():
            archive.writestr(name, content)
    return buffer.getvalue()


def nested_zips(depth: int, files: Mapping[str, bytes]) -> bytes:
    """``files`` in an archive inside ``depth`` archives: ``level1.zip/.../levelN.zip/...``."""
    archive = zip_of(files)
    for level in range(depth, 0, -1):
        archive = zip_of({f"level{level}.zip": archive})
    return archive


@dataclass
class Member:
    """One member of :func:`build_zip`; every field a hostile archive might lie about.

    ``payload`` is stored as the member's data instead of ``content`` (deflated unless
    ``method`` is 0); the ``declared_*`` sizes and ``crc`` replace the real ones in both headers.
    """

    name: str
    content: bytes = b""
    method: int = 8
    payload: bytes | None = None
    declared_size: int | None = None
    declared_compressed_size: int | None = None
    crc: int | None = None
    flags: int = 0
    external_attr: int = 0
    local_name: str | None = None
    extra: bytes = b""

    def stored_bytes(self) -> bytes:
        if self.payload is not None:
            return self.payload
        return deflate(self.content) if self.method == 8 else self.content


def build_zip(members: Iterable[Member], *, zip64_end: bool = False) -> bytes:
    """An archive of ``members`` exactly as described, headers written by hand.

    ``zip64_end`` writes the ZIP64 end record and locator, and saturates the classic end
    record's fields so that readers must follow them.
    """
    body, central = bytearray(), bytearray()
    count = 0
    for member in members:
        payload = member.stored_bytes()
        size = len(member.content) if member.declared_size is None else member.declared_size
        crc = zlib.crc32(member.content) if member.crc is None else member.crc
        flags = member.flags | FLAG_UTF8
        name = member.name.encode()
        local_name = name if member.local_name is None else member.local_name.encode()
        compressed = member.declared_compressed_size
        compressed = len(payload) if compressed is None else compressed
        fields = (20, flags, member.method, 0, 0x21, crc, compressed, size)
        central += _CENTRAL.pack(
            b"PK\x01\x02",
            _MADE_BY_UNIX,
            *fields,
            len(name),
            len(member.extra),
            0,
            0,
            0,
            member.external_attr,
            len(body),
        )
        central += name + member.extra
        body += _LOCAL.pack(b"PK\x03\x04", *fields, len(local_name), 0) + local_name + payload
        count += 1
    if not zip64_end:
        end = _END.pack(b"PK\x05\x06", 0, 0, count, count, len(central), len(body), 0)
        return bytes(body + central + end)
    zip64_offset = len(body) + len(central)
    end = (
        _ZIP64_END.pack(
            b"PK\x06\x06",
            _ZIP64_END.size - 12,
            _MADE_BY_UNIX,
            45,
            0,
            0,
            count,
            count,
            len(central),
            len(body),
        )
        + _ZIP64_LOCATOR.pack(b"PK\x06\x07", 0, zip64_offset, 1)
        + _END.pack(b"PK\x05\x06", 0, 0, 0xFFFF, 0xFFFF, 0xFFFFFFFF, 0xFFFFFFFF, 0)
    )
    return bytes(body + central + end)


def zip64_sizes_extra(uncompressed: int, compressed: int) -> bytes:
    """A ZIP64 extra field with 64-bit sizes, for a member whose 32-bit sizes are saturated."""
    return struct.pack("<2H2Q", 0x0001, 16, uncompressed, compressed)


def unicode_path_extra(name: str, *, named: str) -> bytes:
    """An Info-ZIP Unicode path extra field giving ``name`` to the member called ``named``."""
    field = b"\x01" + struct.pack("<L", zlib.crc32(named.encode())) + name.encode()
    return struct.pack("<2H", 0x7075, len(field)) + field


def deflate(content: bytes) -> bytes:
    compressor = zlib.compressobj(9, zlib.DEFLATED, -zlib.MAX_WBITS)
    return compressor.compress(content) + compressor.flush()


def zeros_deflate(mebibytes: int) -> bytes:
    """A raw Deflate stream of ``mebibytes`` MiB of zeros, made without compressing them all.

    After a sync flush, the blocks encoding one more MiB of zeros are the same every time,
    so the stream is the first MiB's blocks, the second's repeated, and the end block.
    """
    compressor = zlib.compressobj(9, zlib.DEFLATED, -zlib.MAX_WBITS)
    zeros = bytes(MIB)
    first = compressor.compress(zeros) + compressor.flush(zlib.Z_SYNC_FLUSH)
    repeated = compressor.compress(zeros) + compressor.flush(zlib.Z_SYNC_FLUSH)
    return first + repeated * (mebibytes - 1) + compressor.flush()


def zeros_crc(size: int, start: int = 0) -> int:
    """The CRC-32 of ``size`` zero bytes (a multiple of 1 MiB) following a CRC of ``start``."""
    zeros = bytes(MIB)
    crc = start
    for _ in range(size // MIB):
        crc = zlib.crc32(zeros, crc)
    return crc


def nested_bomb(members: int = 10, member_gib: int = 1) -> bytes:
    """A small archive holding ``bomb.zip``, whose ``members`` each inflate to ``member_gib``
    GiB of zeros: 10 GiB by default, from about 25 KB (the 42.zip construction, one level)."""
    stream = zeros_deflate(member_gib * 1024)
    crc = zeros_crc(member_gib * GIB)
    inner = build_zip(
        Member(f"{i}.bin", payload=stream, declared_size=member_gib * GIB, crc=crc)
        for i in range(members)
    )
    return build_zip([Member("bomb.zip", inner)])


def overlapping_zip(
    entries: int = 100, *, kernel: bytes | None = None, kernel_mib: int = 1
) -> bytes:
    """David Fifield's "better zip bomb" (quoted-overlap construction): every entry's data
    starts with a stored block quoting the next entry's local header and runs on into the
    next entry's data, down to one shared kernel: ``kernel`` deflated, or by default
    ``kernel_mib`` MiB of zeros (then a bomb). Headers, sizes and CRCs are all true: each entry
    inflates correctly, to the local headers after it and the kernel.
    """
    if kernel is None:
        stream, kernel_size = zeros_deflate(kernel_mib), kernel_mib * MIB
    else:
        stream, kernel_size = deflate(kernel), len(kernel)
    names = [f"{i:04d}.bin".encode() for i in range(entries)]
    header_size = _LOCAL.size + len(names[0])
    quote = b"\x00" + struct.pack("<2H", header_size, header_size ^ 0xFFFF)
    headers: list[bytes] = []  # built last to first: each CRC covers the headers after it
    fields: list[tuple[int, ...]] = []
    for i in reversed(range(entries)):
        later = len(headers)
        compressed = later * (header_size + len(quote)) + len(stream)
        size = later * header_size + kernel_size
        prefix_crc = zlib.crc32(b"".join(headers))
        if kernel is None:
            crc = zeros_crc(kernel_size, prefix_crc)
        else:
            crc = zlib.crc32(kernel, prefix_crc)
        fields.insert(0, (20, FLAG_UTF8, 8, 0, 0x21, crc, compressed, size))
        headers.insert(0, _LOCAL.pack(b"PK\x03\x04", *fields[0], len(names[i]), 0) + names[i])
    body = quote.join(headers) + stream
    central = b"".join(
        _CENTRAL.pack(
            b"PK\x01\x02",
            _MADE_BY_UNIX,
            *fields[i],
            len(names[i]),
            0,
            0,
            0,
            0,
            0,
            i * (header_size + len(quote)),
        )
        + names[i]
        for i in range(entries)
    )
    end = _END.pack(b"PK\x05\x06", 0, 0, entries, entries, len(central), len(body), 0)
    return body + central + end
