"""The USD plugin: the USD format (``.usdz`` packages and ``.usda``/``.usdc``/``.usd`` layers)
and a ``read_asset`` hook that loads the reader for USD files.

Content decides (``docs/usd.md``): binary crate layers start with ``PXR-USDC``, text layers with
``#usda``, and a USDZ package is a ZIP whose first member is a USD layer (the format
``refines`` ZIP: any other ZIP stays one). The reader, and Pixar's ``usd-core`` with it, is
imported by the first USD file only, so start-up and runs without USD never pay for it.
"""

from __future__ import annotations

import struct
from typing import TYPE_CHECKING

from assetcheck.formats.registry import FileFormat, leading_text
from assetcheck.plugins.hookspecs import hookimpl

if TYPE_CHECKING:
    from assetcheck.asset import Asset
    from assetcheck.asset.options import ValidationOptions
    from assetcheck.formats.source import SourceFile
    from assetcheck.issues import FileIssues

CRATE_MAGIC = b"PXR-USDC"
TEXT_MAGIC = b"#usda "
ZIP_MAGIC = b"PK\x03\x04"
LAYER_EXTENSIONS = (b".usd", b".usda", b".usdc")
#: Where a ZIP local header keeps its name's length, and where the name starts.
_NAME_LENGTH = struct.Struct("<H")
_NAME_LENGTH_AT, _NAME_AT = 26, 30


def encoding(head: bytes) -> str | None:
    """``usdz``, ``usdc`` or ``usda`` for content starting with ``head``; None for other
    content."""
    if head.startswith(CRATE_MAGIC):
        return "usdc"
    if leading_text(head).startswith(TEXT_MAGIC):
        return "usda"
    if head.startswith(ZIP_MAGIC) and len(head) >= _NAME_AT:
        (length,) = _NAME_LENGTH.unpack_from(head, _NAME_LENGTH_AT)
        if head[_NAME_AT : _NAME_AT + length].lower().endswith(LAYER_EXTENSIONS):
            return "usdz"
    return None


#: Crate layers by their magic; text layers and packages by :func:`encoding`.
USD = FileFormat(
    "usd",
    "USD",
    (".usdz", ".usd", ".usda", ".usdc"),
    magic=(CRATE_MAGIC,),
    recognise=lambda head: encoding(head) is not None,
    refines="zip",
)


@hookimpl
def register_file_formats() -> list[FileFormat]:
    return [USD]


@hookimpl
def read_asset(source: SourceFile, issues: FileIssues, options: ValidationOptions) -> Asset | None:
    """The asset in a USD file (:func:`assetcheck.formats.usd.reader.read_asset`); None for
    other formats."""
    if source.kind != USD.name:
        return None
    from assetcheck.formats.usd import reader

    return reader.read_asset(source, issues, options)
