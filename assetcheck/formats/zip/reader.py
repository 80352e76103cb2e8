"""Expanding a ZIP upload into the model files inside it, scanning every member on the way.

Nothing is extracted and nothing is written to disk: members are inflated in memory, one at a
time, within ``options.limits`` (bounded streaming, :mod:`assetcheck.formats.zip.inflate`), and
the structure is judged from our own parse of it (:mod:`assetcheck.formats.zip.layout`).
Archives inside the archive are opened down to ``limits.max_archive_depth`` levels below the
upload; their members are named by the path through them: ``packs/trees.zip/oak.glb``.
Members of any registered model format are yielded (``ReadContext.formats``); members of other
container formats are not opened.
"""

from __future__ import annotations

import posixpath
import zlib
from collections.abc import Iterator
from dataclasses import dataclass, field

from assetcheck.formats.registry import SNIFF_BYTES
from assetcheck.formats.source import ReadContext, SourceFile
from assetcheck.formats.zip.inflate import (
    InflationBudget,
    UnreadableMemberError,
    UnsupportedCompressionError,
    ZipBombError,
)
from assetcheck.formats.zip.layout import (
    Buffer,
    ZipEntry,
    ZipLayout,
    ZipLayoutError,
    read_layout,
    recover_layout,
    searchable,
)
from assetcheck.formats.zip.plugin import ZIP
from assetcheck.formats.zip.polyglot import report_embedded_zip
from assetcheck.formats.zip.rules import entry_findings, overlap_finding, unsafe_path_reason
from assetcheck.issues.findings import Finding
from assetcheck.security.content import executable_kind


def iter_model_sources(root: SourceFile, context: ReadContext) -> Iterator[SourceFile]:
    """The model files inside the ZIP ``root``, at any depth, each scanned on the way.

    Each member inspected adds one to ``context.scanned_files``. Whatever is wrong with the
    archive or a member is reported as an issue, never raised; the members that can be read
    are still yielded, up to the first bomb found, where reading stops.
    """
    archive = _Archive(searchable(root.data), root.name, prefix="")
    yield from _UploadScan(context).archive(archive, depth=0)


class ArchiveResources:
    """The members of one archive, as the resources of the models inside it.

    A glTF's relative buffers and images resolve to other members of the same archive: never
    to the disk, never to an enclosing archive. Directories, links, encrypted members and
    members with unsafe names are never returned. What was read is kept until :meth:`forget`.
    """

    def __init__(self, scan: _UploadScan, archive: _Archive, entries: list[ZipEntry]) -> None:
        self._scan = scan
        self._archive = archive
        self._by_path: dict[str, ZipEntry] = {}
        for entry in entries:
            path = _resource_path(entry)
            if path is not None:
                self._by_path.setdefault(path, entry)
        self._read: dict[str, bytes | None] = {}

    def read(self, path: str) -> bytes | None:
        """The member at the normalised ``path`` inflated, or None if missing or unreadable."""
        if path not in self._read:
            entry = self._by_path.get(path)
            self._read[path] = (
                None if entry is None else self._scan.read_member(self._archive, entry)
            )
        return self._read[path]

    def forget(self) -> None:
        """Drop the members read so far (their model has been read)."""
        self._read.clear()


@dataclass
class _Archive:
    """One archive being read: its bytes, the display prefix of its members, their state."""

    data: Buffer
    name: str
    prefix: str
    inflated: set[int] = field(default_factory=set)
    unreadable: set[int] = field(default_factory=set)


class _UploadScan:
    """What the archives of one upload share: the inflation budget and the entries left."""

    def __init__(self, context: ReadContext) -> None:
        self.context = context
        self.formats = context.formats
        self.issues = context.issues
        self.limits = context.options.limits
        self.budget = InflationBudget(
            self.limits.max_uncompressed_bytes, self.limits.max_compression_ratio
        )
        self.entries_left = self.limits.max_archive_entries

    def archive(self, archive: _Archive, depth: int) -> Iterator[SourceFile]:
        """The model files in ``archive``, ``depth`` levels below the upload."""
        layout = self._layout(archive)
        self.entries_left -= len(layout.entries)
        if layout.more_entries:
            self.issues.add(
                "ZIP_TOO_MANY_ENTRIES", file=archive.name, limit=self.limits.max_archive_entries
            )
        self._report_structure(archive, layout)
        resources = ArchiveResources(self, archive, layout.entries)
        for entry in layout.entries:
            if self.budget.exceeded:
                return
            if not entry.is_directory:
                self.context.scanned_files += 1
                yield from self._member(archive, entry, resources, depth)

    def read_member(self, archive: _Archive, entry: ZipEntry) -> bytes | None:
        """The member's bytes, inflated within the limits and checked against its size and
        CRC-32; None when it cannot be read (reported once)."""
        if entry.data_offset is None or entry.index in archive.unreadable or self.budget.exceeded:
            return None
        name = archive.prefix + entry.name
        try:
            content = self.budget.inflate(
                archive.data,
                entry.data_offset,
                entry.compressed_size,
                entry.method,
                counted=entry.index not in archive.inflated,
            )
        except ZipBombError as bomb:
            self.issues.add("ZIP_BOMB", file=name, reason=bomb.reason)
            content = None
        except UnsupportedCompressionError as error:
            self.issues.add("ZIP_UNSUPPORTED_COMPRESSION", file=name, method=error.method_name)
            content = None
        except UnreadableMemberError as error:
            self.issues.add("ZIP_CORRUPT", file=name, reason=error.reason)
            content = None
        archive.inflated.add(entry.index)
        if content is not None and (problem := _content_problem(entry, content)) is not None:
            self.issues.add("ZIP_CORRUPT", file=name, reason=problem)
            content = None
        if content is None:
            archive.unreadable.add(entry.index)
        return content

    def _layout(self, archive: _Archive) -> ZipLayout:
        try:
            return read_layout(archive.data, max_entries=self.entries_left)
        except ZipLayoutError as error:
            self.issues.add("ZIP_CORRUPT", file=archive.name, reason=str(error))
            return recover_layout(archive.data, max_entries=self.entries_left)

    def _report_structure(self, archive: _Archive, layout: ZipLayout) -> None:
        for finding in layout.damage:
            self._report(archive, finding)
        for entry in layout.entries:
            for finding in entry_findings(entry):
                self._report(archive, finding)
        overlap = overlap_finding(layout.entries)
        if overlap is not None:
            self._report(archive, overlap)

    def _report(self, archive: _Archive, finding: Finding) -> None:
        """Report ``finding`` about the member it names (the archive when it names none)."""
        name = archive.name if finding.file is None else archive.prefix + finding.file
        finding.at(file=name).report_to(self.issues)

    def _member(
        self, archive: _Archive, entry: ZipEntry, resources: ArchiveResources, depth: int
    ) -> Iterator[SourceFile]:
        name = archive.prefix + entry.name
        sealed = entry.is_symlink or entry.is_encrypted
        content = None if sealed else self.read_member(archive, entry)
        head = b"" if content is None else content[:SNIFF_BYTES]
        program = executable_kind(head, entry.name)
        if program is not None:
            self.issues.add("EXECUTABLE_CONTENT", file=name, kind=program)
        if content is None:
            return
        kind, claimed = self.formats.classify(entry.name, head, in_archive=True)
        if kind is not None and claimed is not None:
            self.issues.add(
                "FILE_TYPE_MISMATCH",
                file=name,
                claimed=claimed,
                actual=kind,
                extension=self.formats[kind].extensions[0],
            )
        if kind == ZIP.name:
            yield from self._nested(_Archive(content, name, prefix=f"{name}/"), depth + 1)
            return
        report_embedded_zip(content, name, self.issues)
        if kind is not None and not self.formats[kind].is_container:
            base = posixpath.dirname(_resource_path(entry) or "")
            yield SourceFile(name, content, kind, resources, base=base)
            resources.forget()

    def _nested(self, archive: _Archive, depth: int) -> Iterator[SourceFile]:
        self.issues.add("ZIP_NESTED_ARCHIVE", file=archive.name, depth=depth)
        if depth > self.limits.max_archive_depth:
            self.issues.add(
                "ZIP_NESTING_TOO_DEEP",
                file=archive.name,
                depth=depth,
                limit=self.limits.max_archive_depth,
            )
            return
        yield from self.archive(archive, depth)


def _resource_path(entry: ZipEntry) -> str | None:
    """The normalised path a resource reference may reach ``entry`` by, or None if it may not."""
    if entry.is_directory or entry.is_symlink or entry.is_encrypted:
        return None
    if unsafe_path_reason(entry.name) is not None:
        return None
    return posixpath.normpath(entry.name.replace("\\", "/"))


def _content_problem(entry: ZipEntry, content: bytes) -> str | None:
    if len(content) != entry.uncompressed_size:
        return (
            f"it inflates to {len(content)} bytes, not the {entry.uncompressed_size} its "
            f"header declares"
        )
    if zlib.crc32(content) != entry.crc:
        return "its content does not match its CRC-32"
    return None
