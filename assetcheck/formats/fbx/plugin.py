"""The FBX plugin: the FBX format, and a ``read_asset`` hook that loads the reader for FBX files.

The reader (:mod:`assetcheck.formats.fbx.reader`: the walk, the scene, the geometry, the sandbox)
is imported by the first FBX file, so a run that validates only glTF never pays for it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from assetcheck.formats.fbx import FBX_BINARY_MAGIC
from assetcheck.formats.registry import FileFormat, leading_text
from assetcheck.plugins.hookspecs import hookimpl

if TYPE_CHECKING:
    from assetcheck.asset import Asset
    from assetcheck.asset.options import ValidationOptions
    from assetcheck.formats.source import SourceFile
    from assetcheck.issues import FileIssues

#: The FBX versions the reader supports: FBX 3.0 (3000) to FBX 2020 (7700).
SUPPORTED_VERSIONS = (3000, 7700)


def _ascii_header(head: bytes) -> bool:
    text = leading_text(head)
    return text.startswith(b"; FBX") or b"FBXHeaderExtension:" in text


#: Binary FBX starts with the Kaydara magic; ASCII FBX with its ``; FBX`` comment, or it has
#: an ``FBXHeaderExtension`` near the top.
FBX = FileFormat("fbx", "FBX", (".fbx",), magic=(FBX_BINARY_MAGIC,), recognise=_ascii_header)


@hookimpl
def register_file_formats() -> list[FileFormat]:
    return [FBX]


@hookimpl
def read_asset(source: SourceFile, issues: FileIssues, options: ValidationOptions) -> Asset | None:
    """The asset in an FBX file (:func:`assetcheck.formats.fbx.reader.read_asset`); None for
    other formats."""
    if source.kind != FBX.name:
        return None
    from assetcheck.formats.fbx import reader

    return reader.read_asset(source, issues, options)
