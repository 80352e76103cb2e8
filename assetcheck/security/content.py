"""Recognising executables and scripts by their bytes and by their names."""

from __future__ import annotations

import struct
from pathlib import PurePosixPath

#: Extensions of programs and scripts that have no place in a 3D asset.
EXECUTABLE_EXTENSIONS = frozenset(
    {
        ".exe",
        ".dll",
        ".com",
        ".scr",
        ".msi",
        ".bat",
        ".cmd",
        ".ps1",
        ".psm1",
        ".vbs",
        ".vbe",
        ".wsf",
        ".hta",
        ".jar",
        ".sh",
        ".bash",
        ".zsh",
        ".js",
        ".mjs",
        ".py",
        ".pyc",
        ".pl",
        ".rb",
        ".php",
        ".so",
        ".dylib",
        ".elf",
        ".apk",
        ".app",
        ".lnk",
    }
)

_MACHO_MAGICS = (b"\xfe\xed\xfa\xce", b"\xfe\xed\xfa\xcf", b"\xce\xfa\xed\xfe", b"\xcf\xfa\xed\xfe")
#: Shared by Mach-O universal ("fat") binaries and Java class files: a program either way.
_FAT_OR_CLASS_MAGIC = b"\xca\xfe\xba\xbe"


def executable_kind(head: bytes, name: str = "") -> str | None:
    """What kind of program ``head`` (the first 4 KiB) or ``name`` shows, or None.

    Content: ELF, a PE (``MZ`` with a valid ``PE`` header offset, so random binary data that
    happens to start with ``MZ`` is not flagged), Mach-O (thin or universal), a Java class, or a
    ``#!`` script. Names: the extensions in :data:`EXECUTABLE_EXTENSIONS`, read as extractors
    read them: cut at a NUL byte, without the trailing dots and spaces Windows drops.
    """
    if head.startswith(b"\x7fELF"):
        return "ELF executable"
    if head.startswith(b"MZ") and _has_pe_header(head):
        return "Windows (PE) executable"
    if head.startswith(_MACHO_MAGICS):
        return "Mach-O executable"
    if head.startswith(_FAT_OR_CLASS_MAGIC):
        return "Mach-O universal binary or Java class"
    if head.startswith((b"#!/", b"#! /")):
        return "script with a #! line"
    suffix = PurePosixPath(name.split("\0", 1)[0].rstrip(". ")).suffix.lower()
    if suffix in EXECUTABLE_EXTENSIONS:
        return f"{suffix} file"
    return None


def _has_pe_header(head: bytes) -> bool:
    if len(head) < 0x40:
        return False
    (offset,) = struct.unpack_from("<I", head, 0x3C)
    return head[offset : offset + 4] == b"PE\0\0"
