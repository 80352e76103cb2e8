"""What a reader is given: one file's bytes, its name in the upload, and a way to find resources.

Relative resources (a glTF's ``.bin`` buffers and images) are found only inside the upload's own
folder or archive: :func:`resolve_relative` refuses schemes, absolute paths and ``..`` escapes, so
no reader can reach above the upload or onto the network.
"""

from __future__ import annotations

import mmap
import os
import posixpath
import stat
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Protocol
from urllib.parse import unquote

from assetcheck.asset.options import ValidationOptions
from assetcheck.issues import IssueCollector

if TYPE_CHECKING:  # the registry names these types in its own annotations
    from assetcheck.formats.registry import FormatRegistry

#: A file's whole content: bytes, a slice of an archive, or the upload memory-mapped.
FileData = bytes | memoryview | mmap.mmap


class Resources(Protocol):
    """Finds the bytes of a resource by its normalised path relative to the upload's root."""

    def read(self, path: str) -> bytes | memoryview | None:
        """The resource's bytes, or None when the upload has no such file."""


@dataclass
class NoResources:
    """The upload is a single file: it has no other files to resolve against."""

    def read(self, path: str) -> None:
        return None


#: Path parts that do not name an entry below the folder they are in.
_NOT_A_NAME = frozenset({"", ".", ".."})


@dataclass
class DirectoryResources:
    """Resources in a folder on disk, never above it (symlinks leading out are refused)."""

    root: Path
    opened: set[str] = field(default_factory=set)

    def read(self, path: str) -> bytes | None:
        target = self._plain_file(path) or self._resolved_file(path)
        if target is None:
            return None
        self.opened.add(path)
        with open(target, "rb") as handle:
            return handle.read()

    def _plain_file(self, path: str) -> str | None:
        """The file at the normalised ``path`` when it is a regular file reached from the root
        through real folders only (no symlink below the root, so it cannot lead out): one
        ``lstat`` per part instead of resolving the root and the path. None for anything else,
        which :meth:`_resolved_file` judges."""
        target = os.fspath(self.root)
        mode = 0
        for part in path.split("/"):
            if part in _NOT_A_NAME:  # "..", "." or empty: only the full resolve judges those
                return None
            target = os.path.join(target, part)
            try:
                mode = os.lstat(target).st_mode
            except OSError:
                return None
            if stat.S_ISLNK(mode):
                return None
        return target if stat.S_ISREG(mode) else None

    def _resolved_file(self, path: str) -> Path | None:
        """The file ``path`` names with its symlinks resolved, None when it is not a file or
        lies outside the root."""
        root = self.root.resolve()
        target = (root / path).resolve()
        if not target.is_relative_to(root) or not target.is_file():
            return None
        return target


@dataclass
class SourceFile:
    """One model file to read.

    ``name`` is its path in the upload (for ZIP members, the path inside the archive); ``data`` is
    its whole content; ``path`` is set when the content is also a file on disk that a reader may
    open itself (the FBX reader parses from a file). ``base`` is the file's folder relative to
    the root of ``resources``.
    """

    name: str
    data: FileData
    kind: str
    resources: Resources = field(default_factory=NoResources)
    base: str = ""
    path: Path | None = None

    def resolve(self, uri: str) -> str | None:
        """The normalised resource path ``uri`` names, or None if it leaves the upload."""
        return resolve_relative(self.base, uri)

    def read_resource(self, uri: str) -> bytes | memoryview | None:
        """The bytes of the relative resource ``uri``, or None if it is outside or missing."""
        path = self.resolve(uri)
        return None if path is None else self.resources.read(path)


def resolve_relative(base: str, uri: str) -> str | None:
    """Join a relative URI reference to the folder ``base``; None if it is not a safe relative path.

    Refused: any scheme (``http:``, ``file:``, ``data:``...), an authority (``//host``), an absolute
    path, a Windows drive or backslash path, and any path that climbs above the root.
    """
    if not uri or ":" in uri.split("/", 1)[0] or uri.startswith(("/", "\\")) or "\\" in uri:
        return None
    path = unquote(uri.split("#", 1)[0].split("?", 1)[0])
    if not path or path.startswith("/") or "\x00" in path:
        return None
    joined = posixpath.normpath(posixpath.join(base, path))
    if joined == ".." or joined.startswith("../") or joined.startswith("/"):
        return None
    return joined


@contextmanager
def map_file(path: Path) -> Iterator[bytes | mmap.mmap]:
    """The file's content, memory-mapped (so a 100 MB GLB is not copied); empty files as b""."""
    with open(path, "rb") as handle:
        if path.stat().st_size == 0:
            yield b""
            return
        mapped = mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ)
        try:
            yield mapped
        finally:
            # A view may still point into the map; the OS unmaps it when the last view dies.
            with suppress(BufferError):
                mapped.close()


@dataclass
class ReadContext:
    """State shared while one upload is read: where issues go, the options, the registered file
    formats, files inspected."""

    issues: IssueCollector
    options: ValidationOptions
    formats: FormatRegistry
    scanned_files: int = 0
