"""Rules about a ZIP archive's entries, judged from our own parse of its layout.

Each rule is a pure function returning findings (:mod:`assetcheck.issues.findings`) whose
``file`` is the member's name inside the archive; the ZIP reader places and reports them. Bombs
are decided while inflating (:mod:`assetcheck.formats.zip.inflate`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from assetcheck.formats.zip.layout import ZipEntry
from assetcheck.issues.findings import Finding

_DRIVE = re.compile(r"[A-Za-z]:")
_SEPARATORS = re.compile(r"[/\\]")


def entry_findings(entry: ZipEntry) -> Iterator[Finding]:
    """Path traversal under any of the entry's names, symbolic links and encryption."""
    reason = next(_traversal_reasons(entry), None)
    if reason is not None:
        yield Finding("ZIP_PATH_TRAVERSAL", file=entry.name, reason=reason)
    if entry.is_symlink:
        yield Finding("ZIP_SYMLINK", file=entry.name)
    if entry.is_encrypted:
        yield Finding("ZIP_ENCRYPTED", file=entry.name)


def unsafe_path_reason(name: str) -> str | None:
    """Why extracting to ``name`` could write outside the target folder, or None if it cannot.

    Backslashes count as separators, as they do for extractors on Windows.
    """
    if name.startswith(("/", "\\")):
        return "it is an absolute path"
    if _DRIVE.match(name):
        return f"it starts with the drive {name[:2]}"
    if ".." in _SEPARATORS.split(name):
        return "it climbs out of the folder with '..'"
    return None


def overlap_finding(entries: Iterable[ZipEntry]) -> Finding | None:
    """One finding when any two entries' local headers and data share bytes, else None.

    This is the construction of David Fifield's "better zip bomb" (many central directory
    entries reusing one compressed kernel); no honest archive writer produces it.
    """
    located = sorted(
        (e for e in entries if e.data_offset is not None), key=lambda e: (e.header_offset, e.index)
    )
    overlapping: set[int] = set()
    first_pair: tuple[ZipEntry, ZipEntry] | None = None
    furthest: ZipEntry | None = None
    for entry in located:
        if furthest is not None and entry.header_offset < _end(furthest):
            overlapping.update((entry.index, furthest.index))
            first_pair = first_pair or (entry, furthest)
        if furthest is None or _end(entry) > _end(furthest):
            furthest = entry
    if first_pair is None:
        return None
    entry, other = first_pair
    return Finding(
        "ZIP_OVERLAPPING_ENTRIES", file=entry.name, other=other.name, count=len(overlapping)
    )


def _traversal_reasons(entry: ZipEntry) -> Iterator[str]:
    reason = unsafe_path_reason(entry.name)
    if reason is not None:
        yield reason
    for where, name in entry.other_names:
        reason = unsafe_path_reason(name)
        if reason is not None:
            yield f"the name in its {where}, {name!r}, {reason.removeprefix('it ')}"


def _end(entry: ZipEntry) -> int:
    return entry.data_end or entry.header_offset
