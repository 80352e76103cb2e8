"""Scanning ZIP uploads in tests: :func:`expand` and :func:`validate_zip` scan the (often
hostile) bytes that :mod:`assetcheck.testing.zip` builds and fail if anything reached the disk."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from assetcheck.asset.options import Limits, ValidationOptions
from assetcheck.asset.result import Result, SecurityScan, SecurityWarning
from assetcheck.engine import validate
from assetcheck.formats.source import ReadContext, SourceFile
from assetcheck.formats.zip.reader import iter_model_sources
from assetcheck.issues import Issue, IssueCollector, IssueRegistry
from assetcheck.plugins import builtin_codes as codes
from tests.builtin_formats import builtin_formats


@contextmanager
def no_files_written(folder: Path) -> Iterator[None]:
    """Run the block with the empty ``folder`` as working and temporary directory, and fail
    if anything was written there: where a careless extraction or temporary file would go."""
    assert not any(folder.iterdir()), "the watched folder must start empty"
    cwd, temp = Path.cwd(), tempfile.tempdir
    os.chdir(folder)
    tempfile.tempdir = str(folder)
    try:
        yield
    finally:
        os.chdir(cwd)
        tempfile.tempdir = temp
    assert list(folder.iterdir()) == [], "the scan wrote files"


@dataclass
class Expansion:
    """What :func:`expand` got: the model files, the issues, and the scan the engine builds
    from them. ``scanned_members`` counts the members inspected (the engine adds the upload)."""

    sources: list[SourceFile]
    issues: list[Issue]
    scanned_members: int
    security: SecurityScan = field(init=False)

    def __post_init__(self) -> None:
        self.security = SecurityScan.from_issues(self.scanned_members + 1, self.issues)

    @property
    def names(self) -> list[str]:
        return [source.name for source in self.sources]

    @property
    def codes(self) -> set[str]:
        return {issue.code for issue in self.issues}

    def only(self, code: str) -> Issue:
        """The one issue of ``code`` (fails when there are none or several)."""
        found = [issue for issue in self.issues if issue.code == code]
        assert len(found) == 1, f"expected one {code}, got {[i.message for i in found]}"
        return found[0]


def expand(
    data: bytes, tmp_path: Path, *, limits: Limits | None = None, name: str = "upload.zip"
) -> Expansion:
    """Expand the ZIP ``data`` as the engine does, checking that nothing is written to disk."""
    registry = IssueRegistry(codes.register_issue_types())
    context = ReadContext(
        IssueCollector(registry), ValidationOptions(limits=limits or Limits()), builtin_formats()
    )
    with no_files_written(_scratch_folder(tmp_path)):
        sources = list(iter_model_sources(SourceFile(name, data, "zip"), context))
    return Expansion(sources, context.issues.issues, context.scanned_files)


def validate_zip(
    data: bytes, tmp_path: Path, *, limits: Limits | None = None, name: str = "upload.zip"
) -> Result:
    """Validate the ZIP ``data`` with the engine, as an upload alone in its folder; fails if
    anything was written beside it or to the working or temporary folder."""
    upload = tmp_path / "upload"
    upload.mkdir()
    path = upload / name
    path.write_bytes(data)
    with no_files_written(_scratch_folder(tmp_path)):
        result = validate(path, options=ValidationOptions(limits=limits or Limits()))
    assert list(upload.iterdir()) == [path], "the scan wrote files beside the upload"
    return result


def only_warning(result: Result, code: str) -> SecurityWarning:
    """The one security warning of ``code`` in ``result`` (fails when there are none or several)."""
    found = [warning for warning in result.security.warnings if warning.code == code]
    assert len(found) == 1, f"expected one {code}, got {[w.message for w in found]}"
    return found[0]


def _scratch_folder(tmp_path: Path) -> Path:
    scratch = tmp_path / "scratch"
    scratch.mkdir(exist_ok=True)
    return scratch
