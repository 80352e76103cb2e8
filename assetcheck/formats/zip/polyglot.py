"""Finding a ZIP archive hidden inside a file of another format (a polyglot).

A GLB with a ZIP appended still loads in a viewer, and unzip tools open the archive in it: the
model's scan says nothing about that archive. Any ``PK\\x05\\x06`` in a binary buffer is not
enough to say so: the end record must lead to a central directory whose first entry's local
header is where it says, under the same name.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import chain
from typing import TYPE_CHECKING

from assetcheck.formats.zip.signatures import END_RECORD_SEARCH, END_SIGNATURE, Buffer
from assetcheck.issues import IssueCollector
from assetcheck.lazy_imports import lazy_module
from assetcheck.mesh._kernels import signature_positions

if TYPE_CHECKING:
    from assetcheck.formats.zip import layout
    from assetcheck.formats.zip.layout import EmbeddedZip
else:  # the layout parser, imported by the first end record signature: most files have none
    layout = lazy_module("assetcheck.formats.zip.layout")

#: End record signatures examined outside the last 64 KiB: a file stuffed with signatures
#: costs milliseconds, not minutes. (Unzip tools look only in those last 64 KiB.)
MAX_INNER_CANDIDATES = 10_000


def find_embedded_zip(data: Buffer) -> EmbeddedZip | None:
    """A ZIP archive with at least one entry inside ``data`` (bytes or a memory map), or None.

    Every end record in the last 64 KiB is examined, last first, as unzip tools do; before
    them, the first :data:`MAX_INNER_CANDIDATES`. Archives appended as they are (offsets from
    their own start) and archives whose offsets count from the start of ``data`` (``zip -A``)
    are both found.
    """
    tail = max(0, len(data) - END_RECORD_SEARCH)
    candidates = chain(
        _signatures_backwards(data, tail),
        _signatures(data, tail + len(END_SIGNATURE) - 1),
    )
    for position in candidates:
        found = layout.embedded_archive(data, position)
        if found is not None:
            return found
    return None


def report_embedded_zip(data: Buffer, file: str, issues: IssueCollector) -> None:
    """Report ``POLYGLOT_FILE`` on ``file`` when its ``data`` hides a ZIP. An archive whose
    first member starts the data is the file itself (a USDZ package), not hidden in it."""
    found = find_embedded_zip(data)
    if found is not None and found.start > 0:
        issues.add(
            "POLYGLOT_FILE",
            file=file,
            offset=found.start,
            start=found.start,
            entries=found.entry_count,
        )


def _signatures_backwards(data: Buffer, start: int) -> Iterator[int]:
    position = data.rfind(END_SIGNATURE, start)
    while position != -1:
        yield position
        position = data.rfind(END_SIGNATURE, start, position + len(END_SIGNATURE) - 1)


def _signatures(data: Buffer, stop: int) -> Iterator[int]:
    """The first :data:`MAX_INNER_CANDIDATES` end signatures wholly before ``stop``, searched
    for once the caller asks for the first (by the compiled scan: the whole file is read,
    several times faster than ``bytes.find``, docs/performance.md)."""
    yield from signature_positions(data, END_SIGNATURE, stop, MAX_INNER_CANDIDATES)
