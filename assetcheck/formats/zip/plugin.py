"""The ZIP plugin: the ZIP format, whose members the reader (:mod:`.reader`) expands.

The reader (bounded inflation, the entry rules, the member scan) is imported by the first ZIP
file, so a run that validates only models never pays for it.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from assetcheck.formats.registry import FileFormat
from assetcheck.formats.zip.signatures import END_SIGNATURE, LOCAL_SIGNATURE
from assetcheck.plugins.hookspecs import hookimpl

if TYPE_CHECKING:
    from assetcheck.formats.source import ReadContext, SourceFile


def model_sources(root: SourceFile, context: ReadContext) -> Iterator[SourceFile]:
    """The model files inside the ZIP ``root``
    (:func:`assetcheck.formats.zip.reader.iter_model_sources`)."""
    from assetcheck.formats.zip.reader import iter_model_sources

    return iter_model_sources(root, context)


#: A ZIP starts with a local file header, or the end record when it is empty.
ZIP = FileFormat(
    "zip", "ZIP", (".zip",), magic=(LOCAL_SIGNATURE, END_SIGNATURE), members=model_sources
)


@hookimpl
def register_file_formats() -> list[FileFormat]:
    return [ZIP]
