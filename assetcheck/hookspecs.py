"""Every hook AssetCheck calls. Each docstring is the hook's contract.

Plugins implement these with ``@assetcheck.hookimpl``; built-in behaviour is itself a set of
plugins (``assetcheck.plugins.DEFAULT_PLUGINS``), so any of it can be replaced or blocked.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pluggy

if TYPE_CHECKING:
    from assetcheck.formats.source import SourceFile
    from assetcheck.issues import FileIssues, IssueType
    from assetcheck.model import Asset
    from assetcheck.options import ValidationOptions
    from assetcheck.reports import ReportFormat

hookspec = pluggy.HookspecMarker("assetcheck")
hookimpl = pluggy.HookimplMarker("assetcheck")


@hookspec
def register_issue_types() -> list[IssueType]:
    """Return the issue types this plugin can report.

    Called once per plugin manager; the results of every plugin form the one issue registry.
    A code may be returned by one plugin only (returning the identical type twice is allowed).
    """


@hookspec(firstresult=True)
def read_asset(source: SourceFile, issues: FileIssues, options: ValidationOptions) -> Asset | None:
    """Read one model file of the upload into an :class:`~assetcheck.model.Asset`.

    ``source.kind`` is the format decided from the content (``glb``, ``gltf``, ``fbx``). Return
    ``None`` to let another reader try; the first non-``None`` answer wins. A reader never raises
    for a malformed file: it reports issues through ``issues`` and returns what it could read
    (an Asset with zero counts when nothing could be read).
    """


@hookspec
def register_report_formats() -> list[ReportFormat]:
    """Return the report formats this plugin renders.

    Each :class:`~assetcheck.reports.ReportFormat` has a unique ``name`` (the ``{format}`` of
    ``/api/v1/report/{jobId}/{format}`` and of ``assetcheck validate --format``), a content type
    and a ``render(report) -> str`` that turns a stored JSON report into the format. Renderers
    never recompute anything: they only present the report they are given.
    """
