"""Every hook AssetCheck calls. Each docstring is the hook's contract.

Plugins implement these with ``@assetcheck.hookimpl``; built-in behaviour is itself a set of
plugins (``assetcheck.plugins.manager.DEFAULT_PLUGINS``), so any of it can be replaced or blocked.
pluggy never calls a specification itself, only the plugins' implementations: the bodies of
those that return something raise ``NotImplementedError``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import pluggy

if TYPE_CHECKING:
    from assetcheck.asset import Asset
    from assetcheck.asset.options import ValidationOptions
    from assetcheck.checks import Check
    from assetcheck.formats.registry import FileFormat
    from assetcheck.formats.source import SourceFile
    from assetcheck.issues import FileIssues, IssueType
    from assetcheck.reports import ReportFormat
    from assetcheck.scoring.profiles import EngineProfile

hookspec = pluggy.HookspecMarker("assetcheck")
hookimpl = pluggy.HookimplMarker("assetcheck")


@hookspec
def register_issue_types() -> list[IssueType]:
    """Return the issue types this plugin can report.

    Called once per plugin manager; the results of every plugin form the one issue registry.
    A code may be returned by one plugin only (returning the identical type twice is allowed).
    Declare them with :class:`~assetcheck.issues.IssueArea` (``IssueArea("studio").declare(code,
    severity, message, fix, security_level=None, title="", count_phrase="")``) or as
    :class:`~assetcheck.issues.IssueType` values. Codes are UPPER_SNAKE with an area prefix;
    ``message`` and ``fix`` are templates with named ``{fields}``, filled from the keyword
    arguments of ``issues.add(code, **fields)``. A check may report only registered codes. A
    ``security_level`` (``critical``, ``high``, ``medium``, ``low``) makes the type a finding of
    the security scan.

    ``title`` names the problem in plain words, as an artist sees it ("Broken normals"): reports
    and the dashboard lead with it. ``count_phrase``, a template of the message's fields, makes
    each finding's headline count what it is about (``"on {count:,} {count:vertex|vertices}"``:
    "Broken normals on 8 vertices"; ``{field:one|many}`` picks the word by the field's value).
    A type without a title gets one made from its code (``STUDIO_MESH_NAME`` -> "Studio mesh
    name").
    """
    raise NotImplementedError


@hookspec
def register_file_formats() -> list[FileFormat]:
    """Return the file formats this plugin reads.

    Called once per plugin manager; the formats of every plugin, in the order the plugins were
    registered (the built-in ones first), decide what each file of an upload is. A
    :class:`~assetcheck.formats.registry.FileFormat` is ``FileFormat(name, title, extensions,
    magic=(), recognise=None, members=None, named_in_archives=False)``; a name and an extension
    may be registered by one format only (a clash is a ``ValueError`` when validating).

    The content decides: the first 4 KiB of a file are matched against every format's
    ``magic`` (the bytes it starts with), then, when none matched, every format's
    ``recognise(head)``; the first match wins. A file whose content matches no format, named
    however it is, is ``UNSUPPORTED_FILE_TYPE`` (an empty one ``EMPTY_FILE``): the service
    refuses such an upload (415, 400) and ``assetcheck validate`` reports it, with the same
    words. Inside an archive, a member whose content matches nothing is read as the format its
    extension claims, so that format's reader explains what is wrong; a member that neither
    places is not a model file.

    A file of a *model* format goes to the ``read_asset`` hooks with ``source.kind`` set to
    the format's ``name``; a *container* (``members`` set) is expanded by ``members(source,
    context)`` into the model files inside it. ``assetcheck validate`` picks the files with a
    registered extension out of the folders it is given. Messages about unsupported uploads
    name the formats by their ``title``.
    """
    raise NotImplementedError


@hookspec(firstresult=True)
def read_asset(source: SourceFile, issues: FileIssues, options: ValidationOptions) -> Asset | None:
    """Read one model file of the upload into an :class:`~assetcheck.asset.Asset`.

    ``source.kind`` is the name of the file's format (``glb``, ``gltf``, ``fbx`` or a format
    registered by ``register_file_formats``), decided from the content. Return
    ``None`` to let another reader try; the first non-``None`` answer wins. A reader never raises
    for a malformed file: it reports issues through ``issues`` and returns what it could read
    (an Asset with zero counts when nothing could be read). A reader that raises anyway is
    reported as ``READER_CRASHED``.
    """


@hookspec
def register_report_formats() -> list[ReportFormat]:
    """Return the report formats this plugin renders.

    Each :class:`~assetcheck.reports.ReportFormat` has a unique ``name`` (the ``{format}`` of
    ``/api/v1/report/{jobId}/{format}`` and of ``assetcheck validate --format``), a content type
    and a ``render(report) -> str`` that turns a stored JSON report into the format. Renderers
    never recompute anything: they only present the report they are given. A failed job's
    report has no result (``grade`` is null, ``job.error`` says why): check
    ``assetcheck.reports.document.failure(report)`` first and present the failure. An optional
    ``description`` says what the format is for and an optional ``title`` names it for people
    ("SARIF"): the dashboard's job page offers every format that is not an image as a download,
    by its title (its name without one) and description.
    """
    raise NotImplementedError


@hookspec
def register_checks() -> list[Check]:
    """Return the checks this plugin runs on every model file.

    Called once per plugin manager, and again only after a plugin is registered or
    unregistered: the answer holds for every file the manager validates, so a plugin whose
    checks depend on its settings decides them in ``configure``.

    The engine runs each :class:`~assetcheck.checks.Check` on its own, for each asset whose format
    is in ``check.formats``: a check that raises is logged with its traceback and becomes a
    ``CHECK_CRASHED`` issue naming this plugin (a warning, or an error with
    ``[plugins] crash = "error"``), and every other check still runs. Checks report only codes
    of the issue registry. ``[plugins] disabled`` turns a check off by ``name`` or
    ``plugin:name``.

    A check is ``Check(name, description, run, codes=(), formats=...)``; the engine calls
    ``run(asset, context)``. ``context.issues.add(code, pointer=..., offset=..., **fields)``
    reports, ``context.profile.budgets`` holds the engine profile's budgets and
    ``context.options`` the run's options. ``docs/model.md`` describes the asset and context.
    """
    raise NotImplementedError


@hookspec
def register_engine_profiles() -> list[EngineProfile]:
    """Return the engine profiles (name, title, budgets) this plugin adds.

    Called once per plugin manager, and again only after a plugin is registered or
    unregistered.
    An :class:`~assetcheck.scoring.profiles.EngineProfile` needs a ``name``, a ``title`` and
    :class:`~assetcheck.scoring.profiles.Budgets` with every budget given (``docs/model.md``); its
    optional ``severity`` maps codes to the severity they get on this engine.

    A profile name may be defined by one plugin only. The ``engine`` option of a validation must
    name one of the registered profiles (API, CLI and dashboard). Budgets can still be changed
    per installation in ``[engines.<name>]``.
    """
    raise NotImplementedError


@hookspec(firstresult=True)
def compute_health_score(
    counts: Mapping[str, int], severities: Mapping[str, str], security_levels: frozenset[str]
) -> int | None:
    """Return the health score, 0..100, of a validation.

    ``counts`` is the number of occurrences per issue code, ``severities`` each code's severity
    under the profile, ``security_levels`` the levels of the security scan's warnings. The first
    plugin to answer wins; the built-in ``assetcheck.scoring`` answers last (``trylast``). The
    grade always follows from the score by the fixed bands of ``docs/scoring.md``.
    """


@hookspec
def configure(settings: Mapping[str, Any]) -> None:
    """Receive the whole configuration once, when the plugin manager is built.

    ``settings`` is the merged configuration as plain data (TOML file and ``ASSETCHECK_*``
    variables over the defaults). A plugin reads its own table from it, by convention named
    after the plugin (``[naming]`` for the naming plugin), and keeps what it needs. A plugin
    that raises here stops start-up: the command line prints one line naming the plugin and
    the exception's message, and exits 2, so say in the message which key is wrong and why.
    ``ASSETCHECK_<TABLE>_<KEY>`` variables reach the table even when the file lacks the key.
    """
