"""The USDZ package, judged from our own parse of its ZIP layout before USD reads it.

A USDZ is a ZIP that USD reads in place: members stored (never compressed or encrypted), each
member's data starting at a multiple of 64 bytes, of the file types the USDZ specification
allows, the first member the root layer. Those are the rules AR Quick Look relies on. The
package is also scanned as a ZIP upload is (:mod:`assetcheck.formats.zip.rules`): member names
that climb out, symbolic links, encryption, overlapping entries; and a compressed member is
inflated within the upload's budget, so a ZIP bomb gets ``ZIP_BOMB`` as in a ZIP upload (USD
itself never inflates anything). Images are read from the package for their sizes.
"""

from __future__ import annotations

import posixpath
from dataclasses import dataclass, field

from assetcheck.asset.options import Limits
from assetcheck.formats.zip.inflate import (
    STORED,
    InflationBudget,
    UnreadableMemberError,
    ZipBombError,
)
from assetcheck.formats.zip.layout import Buffer, ZipEntry, ZipLayoutError, read_layout
from assetcheck.formats.zip.rules import entry_findings, overlap_finding, unsafe_path_reason
from assetcheck.issues import FileIssues
from assetcheck.issues.findings import Finding

#: The file types a USDZ may hold (the USDZ specification; Pixar's FileExtensionValidator).
ALLOWED_EXTENSIONS = frozenset(
    [".usd", ".usda", ".usdc", ".usdz", ".png", ".jpg", ".jpeg", ".exr", ".m4a", ".mp3", ".wav"]
)
#: USD maps members in place: their data starts at a multiple of this.
ALIGNMENT = 64


@dataclass
class Package:
    """A USDZ's members by normalised name, and whether USD can read it at all (its root
    layer, the first member, is stored and its layout is whole)."""

    data: Buffer
    members: dict[str, ZipEntry] = field(default_factory=dict)
    readable: bool = True

    def read(self, path: str) -> bytes | None:
        """The stored bytes of member ``path`` (normalised), or None when the package holds
        no such stored member."""
        entry = self.members.get(path)
        if entry is None or entry.method != STORED or entry.data_offset is None:
            return None
        return bytes(self.data[entry.data_offset : entry.data_offset + entry.compressed_size])


def scan_package(name: str, data: Buffer, limits: Limits, issues: FileIssues) -> Package:
    """The package ``name`` holding ``data``, after reporting every rule it breaks (the ZIP
    rules' findings about a member name it as ``name/member``, as in a ZIP upload)."""
    package = Package(data)
    try:
        layout = read_layout(data, max_entries=limits.max_archive_entries)
    except ZipLayoutError as error:
        issues.add("ZIP_CORRUPT", reason=str(error))
        package.readable = False
        return package
    for finding in layout.damage:
        _report(finding, name, issues)
        package.readable = False
    if layout.more_entries:
        issues.add("ZIP_TOO_MANY_ENTRIES", limit=limits.max_archive_entries)
    for entry in layout.entries:
        for finding in entry_findings(entry):
            _report(finding, name, issues)
    overlap = overlap_finding(layout.entries)
    if overlap is not None:
        _report(overlap, name, issues)
        package.readable = False
    budget = InflationBudget(limits.max_uncompressed_bytes, limits.max_compression_ratio)
    for entry in layout.entries:
        if not entry.is_directory:
            _check_member(name, entry, data, budget, issues)
            if unsafe_path_reason(entry.name) is None:
                package.members[posixpath.normpath(entry.name.replace("\\", "/"))] = entry
    first = layout.entries[0] if layout.entries else None
    if first is None or first.method != STORED or first.is_encrypted:
        package.readable = False
    return package


def _report(finding: Finding, name: str, issues: FileIssues) -> None:
    """Report a ZIP rule's ``finding`` about the member it names (the package if none)."""
    file = name if finding.file is None else f"{name}/{finding.file}"
    issues.collector.add(finding.code, file=file, source=issues.source, **finding.fields)


def _check_member(
    name: str, entry: ZipEntry, data: Buffer, budget: InflationBudget, issues: FileIssues
) -> None:
    """Report what AR Quick Look refuses in one member, and a bomb among compressed ones."""
    if posixpath.splitext(entry.name.lower())[1] not in ALLOWED_EXTENSIONS:
        issues.add("USDZ_FILE_TYPE_NOT_ALLOWED", member=entry.name)
    if entry.method != STORED:
        issues.add("USDZ_COMPRESSED_MEMBER", member=entry.name)
        if entry.data_offset is not None and not entry.is_encrypted and not budget.exceeded:
            try:
                budget.inflate(data, entry.data_offset, entry.compressed_size, entry.method)
            except ZipBombError as bomb:
                _report(Finding("ZIP_BOMB", file=entry.name, reason=bomb.reason), name, issues)
            except UnreadableMemberError as error:
                _report(Finding("ZIP_CORRUPT", file=entry.name, reason=error.reason), name, issues)
    elif entry.data_offset is not None and entry.data_offset % ALIGNMENT:
        issues.add("USDZ_UNALIGNED_MEMBER", member=entry.name, start=entry.data_offset)
