"""The layout of a ZIP archive, parsed by hand: end record, central directory, local headers.

Python's ``zipfile`` trusts what the headers say. The security scan needs the raw layout instead:
where each member's bytes really lie and every name a tool might extract it under. Nothing here
inflates member data; ``data`` is the archive's bytes (``bytes`` or a memory map). The records'
signatures, and how far from the end the end record may lie, are in
:mod:`assetcheck.formats.zip.signatures`.
"""

from __future__ import annotations

import stat
import struct
from dataclasses import dataclass

from assetcheck.formats.zip.signatures import (
    CENTRAL_SIGNATURE,
    END_RECORD_SEARCH,
    END_SIGNATURE,
    LOCAL_SIGNATURE,
    Buffer,
)
from assetcheck.formats.zip.signatures import END_RECORD as _END
from assetcheck.formats.zip.signatures import searchable as searchable  # for the USD reader
from assetcheck.issues.findings import Findings

_ZIP64_END_SIGNATURE = b"PK\x06\x06"
_ZIP64_LOCATOR_SIGNATURE = b"PK\x06\x07"

_ZIP64_LOCATOR = struct.Struct("<4sLQL")
_ZIP64_END = struct.Struct("<4sQ2H2L4Q")
#: What a local header and a central directory header both hold, in this order: flags,
#: method, time, date, CRC-32, compressed and uncompressed size, name and extra field lengths.
_MEMBER = struct.Struct("<4H3L2H")
#: Before them, a local header has its signature and the version needed to extract.
_LOCAL_LEAD = struct.Struct("<4sH")
#: A central directory header has its signature and the versions made by and needed; after
#: them, the comment length, disk, internal and external attributes, local header offset.
_CENTRAL_LEAD = struct.Struct("<4s2H")
_CENTRAL_TAIL = struct.Struct("<3H2L")
_LOCAL_SIZE = _LOCAL_LEAD.size + _MEMBER.size
_CENTRAL_SIZE = _CENTRAL_LEAD.size + _MEMBER.size + _CENTRAL_TAIL.size
_EXTRA_HEADER = struct.Struct("<2H")

_ZIP64_EXTRA = 0x0001
_UNICODE_PATH_EXTRA = 0x7075
_MAX16, _MAX32 = 0xFFFF, 0xFFFFFFFF

FLAG_ENCRYPTED = 0x0001
FLAG_DATA_DESCRIPTOR = 0x0008
FLAG_UTF8 = 0x0800
_DOS_DIRECTORY = 0x10


class ZipLayoutError(ValueError):
    """The archive has no usable end record or central directory."""


@dataclass(frozen=True)
class EndRecord:
    """The end of central directory record (ZIP64 values applied) and where it leads.

    ``base`` is where the archive's offset 0 lies in the data: more than 0 when other bytes
    precede an archive whose offsets were not adjusted (a ZIP appended to another file).
    """

    offset: int
    entry_count: int
    central_start: int
    central_size: int
    base: int


@dataclass(frozen=True)
class ZipEntry:
    """One central directory entry, checked against its local header.

    Offsets are positions in the data. ``data_offset`` is None when the member's bytes cannot be
    located (no local header, or data outside the archive). ``other_names`` are the names other
    tools may extract the member under, as ``(where, name)``: the local header's when it
    differs, and the Info-ZIP Unicode path field's.
    """

    index: int
    name: str
    flags: int
    method: int
    crc: int
    compressed_size: int
    uncompressed_size: int
    header_offset: int
    data_offset: int | None
    external_attr: int = 0
    other_names: tuple[tuple[str, str], ...] = ()

    @property
    def is_directory(self) -> bool:
        return self.name.endswith(("/", "\\")) or bool(self.external_attr & _DOS_DIRECTORY)

    @property
    def is_encrypted(self) -> bool:
        return bool(self.flags & FLAG_ENCRYPTED)

    @property
    def is_symlink(self) -> bool:
        """Unix file type bits (the high 16 bits of the external attributes) say "link"."""
        return stat.S_ISLNK(self.external_attr >> 16)

    @property
    def data_end(self) -> int | None:
        return None if self.data_offset is None else self.data_offset + self.compressed_size


@dataclass
class ZipLayout:
    """The entries of an archive, in central directory order, and the damage found: one
    ``ZIP_CORRUPT`` finding each, whose ``file`` is the member's name (None for the archive).

    ``more_entries`` is true when the archive holds entries past the ``max_entries`` parsed.
    """

    entries: list[ZipEntry]
    damage: Findings
    more_entries: bool = False


def read_layout(data: Buffer, *, max_entries: int) -> ZipLayout:
    """The first ``max_entries`` entries of the central directory, each checked against its
    local header. A damaged entry ends the parse (those before it are kept, with the damage).

    Raises :class:`ZipLayoutError` when no end record leads to a central directory.
    """
    end = find_end_record(data)
    entries: list[ZipEntry] = []
    damage = Findings()
    position, stop = end.central_start, end.central_start + end.central_size
    while position < stop:
        if len(entries) == max_entries:
            return ZipLayout(entries, damage, more_entries=True)
        parsed = _central_entry(data, position, stop, len(entries), end, damage)
        if parsed is None:
            damage.add(
                "ZIP_CORRUPT",
                reason=f"central directory entry {len(entries)} is "
                "damaged; the entries after it were not read",
            )
            break
        entry, position = parsed
        entries.append(entry)
    if not damage and len(entries) != end.entry_count:
        damage.add(
            "ZIP_CORRUPT",
            reason=f"the end record declares {end.entry_count} "
            f"entries but the central directory holds {len(entries)}",
        )
    return ZipLayout(entries, damage)


def recover_layout(data: Buffer, *, max_entries: int) -> ZipLayout:
    """The members a damaged archive still describes, walking its local headers from the start.

    For archives whose central directory is lost (a truncated upload). The walk stops at the
    first member whose size the local header does not give or whose data is cut off.
    """
    entries: list[ZipEntry] = []
    position = 0
    while len(entries) < max_entries:
        header = _local_header(data, position)
        if header is None:
            break
        uncompressed, compressed, _ = _zip64_values(
            header.extra, header.uncompressed, header.compressed, 0
        )
        if header.flags & FLAG_DATA_DESCRIPTOR and not compressed:
            break
        if header.end + compressed > len(data):
            break
        entries.append(
            header.entry(len(entries), compressed, uncompressed, position, data_offset=header.end)
        )
        position = header.end + compressed
    more = len(entries) == max_entries and data[position : position + 4] == LOCAL_SIGNATURE
    return ZipLayout(entries, Findings(), more_entries=more)


def find_end_record(data: Buffer) -> EndRecord:
    """The last end record near the end of ``data`` that leads to a central directory."""
    search_from = max(0, len(data) - END_RECORD_SEARCH)
    position = data.rfind(END_SIGNATURE, search_from)
    while position != -1:
        end = end_record_at(data, position)
        if end is not None:
            return end
        position = data.rfind(END_SIGNATURE, search_from, position)
    raise ZipLayoutError(
        "no end of central directory record leads to a central directory "
        "(the file may be truncated, or split across several disks)"
    )


def end_record_at(data: Buffer, offset: int) -> EndRecord | None:
    """The end record at ``offset`` if it is consistent, else None.

    Consistent: one disk only, and a central directory of the declared size right before the
    record (before the ZIP64 records when present) that starts with an entry signature.
    """
    if offset + _END.size > len(data):
        return None
    (_, disk, central_disk, disk_entries, entries, size, start_offset, _) = _END.unpack_from(
        data, offset
    )
    if disk or central_disk:
        return None
    directory_end = offset
    if _MAX16 in (disk_entries, entries) or _MAX32 in (size, start_offset):
        zip64 = _zip64_end_record(data, offset)
        if zip64 is not None:
            entries, size, start_offset, directory_end = zip64
    central_start = directory_end - size
    base = central_start - start_offset
    if central_start < 0 or base < 0:
        return None
    if entries and data[central_start : central_start + 4] != CENTRAL_SIGNATURE:
        return None
    return EndRecord(offset, entries, central_start, size, base)


def first_member_offset(data: Buffer, end: EndRecord) -> int | None:
    """Where the first member's local header lies, if it is where the central directory says,
    under the same name; else None. Proof that an end record belongs to a real archive.
    """
    stop = end.central_start + end.central_size
    damage = Findings()
    parsed = _central_entry(data, end.central_start, stop, 0, end, damage)
    if parsed is None or damage:
        return None
    return parsed[0].header_offset


@dataclass(frozen=True)
class EmbeddedZip:
    """A ZIP archive found inside other data: its first member's local header is at ``start``."""

    start: int
    entry_count: int


def embedded_archive(data: Buffer, end_offset: int) -> EmbeddedZip | None:
    """The archive whose end record is at ``end_offset``, if that record is consistent
    (:func:`end_record_at`), declares entries, and its first member's local header is where
    the central directory says (:func:`first_member_offset`); else None."""
    end = end_record_at(data, end_offset)
    if end is None or not end.entry_count:
        return None
    start = first_member_offset(data, end)
    return None if start is None else EmbeddedZip(start, end.entry_count)


def _zip64_end_record(data: Buffer, end_offset: int) -> tuple[int, int, int, int] | None:
    locator_offset = end_offset - _ZIP64_LOCATOR.size
    record_offset = locator_offset - _ZIP64_END.size
    if record_offset < 0:
        return None
    signature, _, _, disk_count = _ZIP64_LOCATOR.unpack_from(data, locator_offset)
    if signature != _ZIP64_LOCATOR_SIGNATURE or disk_count > 1:
        return None
    (signature, _, _, _, disk, central_disk, _, entries, size, start_offset) = (
        _ZIP64_END.unpack_from(data, record_offset)
    )
    if signature != _ZIP64_END_SIGNATURE or disk or central_disk:
        return None
    return entries, size, start_offset, record_offset


@dataclass(frozen=True)
class _MemberHeader:
    """What a local or a central directory header says of a member, before ZIP64 values."""

    flags: int
    method: int
    crc: int
    compressed: int
    uncompressed: int
    raw_name: bytes
    extra: bytes
    #: Where the name and extra field end: a local header's data, a central header's comment.
    end: int

    @property
    def name(self) -> str:
        return _decode_name(self.raw_name, self.flags)

    def entry(
        self,
        index: int,
        compressed: int,
        uncompressed: int,
        header_offset: int,
        *,
        data_offset: int | None,
        external_attr: int = 0,
        other_names: tuple[tuple[str, str], ...] = (),
    ) -> ZipEntry:
        """The entry this header describes, with its sizes as ZIP64 left them."""
        return ZipEntry(
            index,
            self.name,
            self.flags,
            self.method,
            self.crc,
            compressed,
            uncompressed,
            header_offset,
            data_offset,
            external_attr,
            other_names,
        )


def _member_header(data: Buffer, offset: int, lead: int, size: int) -> _MemberHeader | None:
    """The header of ``size`` bytes at ``offset``, whose member fields start ``lead`` bytes
    into it, with the name and extra field that follow it; None when they run past the data."""
    (flags, method, _, _, crc, compressed, uncompressed, name_length, extra_length) = (
        _MEMBER.unpack_from(data, offset + lead)
    )
    name_start = offset + size
    extra_start = name_start + name_length
    end = extra_start + extra_length
    if end > len(data):
        return None
    return _MemberHeader(
        flags,
        method,
        crc,
        compressed,
        uncompressed,
        data[name_start:extra_start],
        data[extra_start:end],
        end,
    )


def _local_header(data: Buffer, offset: int) -> _MemberHeader | None:
    """The local header at ``offset``; None when there is none or it runs past the data."""
    if offset < 0 or offset + _LOCAL_SIZE > len(data):
        return None
    if data[offset : offset + 4] != LOCAL_SIGNATURE:
        return None
    return _member_header(data, offset, _LOCAL_LEAD.size, _LOCAL_SIZE)


def _central_entry(
    data: Buffer,
    position: int,
    stop: int,
    index: int,
    end: EndRecord,
    damage: Findings,
) -> tuple[ZipEntry, int] | None:
    """The entry whose central header is at ``position``, and where the next one starts;
    what is wrong with its local header goes to ``damage``."""
    if position + _CENTRAL_SIZE > stop or data[position : position + 4] != CENTRAL_SIGNATURE:
        return None
    header = _member_header(data, position, _CENTRAL_LEAD.size, _CENTRAL_SIZE)
    comment_length, _, _, external_attr, header_offset = _CENTRAL_TAIL.unpack_from(
        data, position + _CENTRAL_SIZE - _CENTRAL_TAIL.size
    )
    if header is None or header.end + comment_length > stop:
        return None
    uncompressed, compressed, header_offset = _zip64_values(
        header.extra, header.uncompressed, header.compressed, header_offset
    )
    name = header.name
    other_names = []
    unicode_name = _unicode_path(header.extra)
    if unicode_name is not None and unicode_name != name:
        other_names.append(("Unicode path field", unicode_name))
    header_offset += end.base
    local = _local_header(data, header_offset)
    if local is None:
        damage.add(
            "ZIP_CORRUPT", file=name, reason=f"its local header is missing at byte {header_offset}"
        )
    elif local.raw_name != header.raw_name:
        other_names.append(("local header", local.name))
        damage.add("ZIP_CORRUPT", file=name, reason=f"its local header names it {local.name!r}")
    entry = header.entry(
        index,
        compressed,
        uncompressed,
        header_offset,
        data_offset=_data_offset(local, name, compressed, end, damage),
        external_attr=external_attr,
        other_names=tuple(other_names),
    )
    return entry, header.end + comment_length


def _data_offset(
    local: _MemberHeader | None, name: str, compressed: int, end: EndRecord, damage: Findings
) -> int | None:
    """Where the member's data starts, after its ``local`` header; None when there is no
    local header, or (damage) when the data runs into the central directory."""
    if local is None:
        return None
    if local.end + compressed > end.central_start:
        damage.add(
            "ZIP_CORRUPT", file=name, reason="its data runs past the start of the central directory"
        )
        return None
    return local.end


def _extra_fields(extra: bytes) -> dict[int, bytes]:
    """The extra field blocks by header id (the first of each id); a torn block ends the walk."""
    fields: dict[int, bytes] = {}
    position = 0
    while position + _EXTRA_HEADER.size <= len(extra):
        header_id, size = _EXTRA_HEADER.unpack_from(extra, position)
        start = position + _EXTRA_HEADER.size
        if start + size > len(extra):
            break
        fields.setdefault(header_id, extra[start : start + size])
        position = start + size
    return fields


def _zip64_values(
    extra: bytes, uncompressed: int, compressed: int, header_offset: int
) -> tuple[int, int, int]:
    """The sizes and offset with the ZIP64 extra field's 64-bit values where the 32-bit ones
    are saturated (the field holds only those, in this order)."""
    field = _extra_fields(extra).get(_ZIP64_EXTRA)
    if field is None:
        return uncompressed, compressed, header_offset
    values = [uncompressed, compressed, header_offset]
    position = 0
    for i, value in enumerate(values):
        if value == _MAX32 and position + 8 <= len(field):
            (values[i],) = struct.unpack_from("<Q", field, position)
            position += 8
    return values[0], values[1], values[2]


def _unicode_path(extra: bytes) -> str | None:
    field = _extra_fields(extra).get(_UNICODE_PATH_EXTRA)
    if field is None or len(field) < 5 or field[0] != 1:
        return None
    return field[5:].decode("utf-8", errors="replace")


def _decode_name(raw: bytes, flags: int) -> str:
    """Names are UTF-8 when the flag says so, else code page 437 (the ZIP default)."""
    return raw.decode("utf-8" if flags & FLAG_UTF8 else "cp437", errors="replace")
