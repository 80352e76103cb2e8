"""The signatures that start a ZIP archive's records, and how far from its end the end record
may lie: what the format registry, the polyglot scan and the engine need of ZIP on every file.

The layout parser (:mod:`assetcheck.formats.zip.layout`, its records' classes) is imported by
the first archive or end record found, so a file without one never loads it
(``docs/performance.md``).
"""

from __future__ import annotations

import mmap
import struct

#: What the ZIP code reads an archive from: ``bytes`` or a memory map (both have ``find``).
Buffer = bytes | mmap.mmap

END_SIGNATURE = b"PK\x05\x06"
CENTRAL_SIGNATURE = b"PK\x01\x02"
LOCAL_SIGNATURE = b"PK\x03\x04"

#: The end of central directory record: signature, disk numbers, entry counts, the central
#: directory's size and offset, the comment's length.
END_RECORD = struct.Struct("<4s4H2LH")
#: The end record sits in the last bytes, before a comment of at most 64 KiB.
END_RECORD_SEARCH = END_RECORD.size + 0xFFFF


def searchable(data: bytes | memoryview | mmap.mmap) -> Buffer:
    """``data`` as a :data:`Buffer` (which ``find`` works on): a memoryview is copied."""
    return data.tobytes() if isinstance(data, memoryview) else data
