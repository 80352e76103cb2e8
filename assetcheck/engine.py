"""``validate``: the one entry point the CLI, the worker and the tests call.

It reads the upload (expanding ZIP archives), hands each model file to the ``read_asset`` hook,
runs every registered check on each asset, scores what was found (capped so the grade follows
the verdict, see :func:`assetcheck.scoring.score.verdict_cap`) and returns a
:class:`~assetcheck.asset.result.Result`. It never raises for a bad file: whatever is wrong with the
upload becomes issues in the result.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

import pluggy

from assetcheck import __version__
from assetcheck.asset import Asset
from assetcheck.asset.options import ValidationOptions
from assetcheck.asset.result import CheckRun, Result, SecurityScan
from assetcheck.checks import Check, CheckContext
from assetcheck.formats.registry import SNIFF_BYTES, format_registry
from assetcheck.formats.source import DirectoryResources, ReadContext, SourceFile, map_file
from assetcheck.formats.zip.polyglot import report_embedded_zip
from assetcheck.formats.zip.signatures import searchable
from assetcheck.issues import IssueCollector
from assetcheck.lazy_imports import lazy_module
from assetcheck.plugins.manager import (
    DEFAULT_PLUGINS,
    PluginManager,
    build_registry,
    get_plugin_manager,
    registered_checks,
)
from assetcheck.scoring import score as scoring
from assetcheck.scoring.budget_usage import measure
from assetcheck.scoring.profiles import EngineProfile, resolve_profile

if TYPE_CHECKING:
    import logging
else:
    logging = lazy_module("logging")


def _log() -> logging.Logger:
    """The ``assetcheck.engine`` logger. ``logging`` is imported by the first message: most runs
    log none (``docs/performance.md``)."""
    return logging.getLogger("assetcheck.engine")


#: What ``validate`` hands each model file to once the checks are done (see ``on_checked``).
AssetConsumer = Callable[[Asset, SourceFile], None]


def validate(
    path: str | Path,
    *,
    engine: str = "generic",
    options: ValidationOptions | None = None,
    filename: str | None = None,
    plugin_manager: pluggy.PluginManager | None = None,
    on_checked: AssetConsumer | None = None,
) -> Result:
    """Validate the upload at ``path`` for ``engine`` and return everything found.

    ``filename`` is the name to report (the client's name when the service stored the upload
    under its own); relative glTF resources are looked up beside ``path``, never above it.
    ``options`` wins over ``engine`` when both are given. ``on_checked(asset, source)`` is
    called for each model file read, once every check has run and while its data (the glTF
    document model with its decoded payloads, FBX geometry, the mapped bytes) is still there,
    so that the worker draws its previews without reading it again; what it raises is the
    caller's. Raises
    :class:`~assetcheck.scoring.profiles.UnknownEngineError` for an engine no profile defines, and
    ``OSError`` when ``path`` itself cannot be opened.
    """
    options = options or ValidationOptions(engine=engine)
    pm = plugin_manager or get_plugin_manager()
    profile = resolve_profile(pm, options.engine, options.budget_overrides)
    policy = replace(
        options.policy, severity_overrides={**profile.severity, **options.policy.severity_overrides}
    )
    collector = IssueCollector(build_registry(pm), policy)
    formats = format_registry(pm)
    context = ReadContext(collector, options, formats)
    path = Path(path)
    started = time.perf_counter()
    resources = DirectoryResources(path.parent)
    with map_file(path) as data:
        root = SourceFile(filename or path.name, data, "", resources, path=path)
        assets: list[Asset] = []
        kept: list[tuple[Asset, SourceFile]] = []  # a source's bytes are kept for on_checked only
        for source in model_sources(root, context):
            asset = _read(pm, source, context)
            if asset is not None:
                assets.append(asset)
                if on_checked is not None:
                    kept.append((asset, source))
        context.scanned_files += len(resources.opened)
        if not assets and not collector.counts:
            collector.add("NO_MODEL_FILES", file=root.name, **formats.message_fields())
        read_done = time.perf_counter()
        registered = registered_checks(pm)
        with ExitStack() as closing:  # what the checks start ends with them
            begun = _start_checks(registered, assets, options, closing)
            checks = _run_checks(pm, registered, assets, collector, profile, options, begun)
        finished = time.perf_counter()
        if on_checked is not None:
            for asset, source in kept:
                on_checked(asset, source)
    for asset in assets:
        asset.buffers = []  # the result keeps the model, not the bytes (they may be mapped)
        asset.gltf = None  # nor the glTF document's arrays, read from them
        if asset.polygon_scene is not None:
            asset.polygon_scene.drop_geometry()  # nor the FBX, OBJ or USD geometry arrays
    return _result(
        pm,
        root.name,
        profile,
        assets,
        context,
        checks,
        {
            "read_ms": _ms(read_done - started),
            "checks_ms": _ms(finished - read_done),
            "total_ms": _ms(finished - started),
        },
    )


def model_sources(root: SourceFile, context: ReadContext) -> Iterator[SourceFile]:
    """The upload itself when it is a model file, or the model files inside it when it is a
    container (``FileFormat.members``); what is wrong with the upload's type or the container
    is reported into ``context``."""
    context.scanned_files += 1
    formats = context.formats
    head = bytes(root.data[:SNIFF_BYTES])
    kind, claimed = formats.classify(root.name, head, in_archive=False)
    if kind is None:  # the service refuses such an upload with the same code and words
        refused = formats.refusal(head) or "UNSUPPORTED_FILE_TYPE"
        context.issues.add(refused, file=root.name, **formats.message_fields())
        return
    file_format = formats[kind]
    if claimed is not None:
        context.issues.add(
            "FILE_TYPE_MISMATCH",
            file=root.name,
            claimed=claimed,
            actual=kind,
            extension=file_format.extensions[0],
        )
    root.kind = kind
    if file_format.members is not None:
        yield from file_format.members(root, context)
    else:
        report_embedded_zip(searchable(root.data), root.name, context.issues)
        yield root


def _read(pm: pluggy.PluginManager, source: SourceFile, context: ReadContext) -> Asset | None:
    """The first reader's asset for ``source``; a reader that raises becomes READER_CRASHED."""
    for impl in reversed(pm.hook.read_asset.get_hookimpls()):
        issues = context.issues.for_file(source.name, source=impl.plugin_name)
        try:
            asset = impl.function(source=source, issues=issues, options=context.options)
        except Exception as error:  # a reader bug must not take the whole validation down
            _log().error(
                "reader of plugin %r crashed on %s", impl.plugin_name, source.name, exc_info=error
            )
            issues.add("READER_CRASHED", plugin=impl.plugin_name, error=_describe(error))
            return None
        if asset is not None and not isinstance(asset, Asset):
            _log().error(
                "reader of plugin %r returned a %s for %s",
                impl.plugin_name,
                type(asset).__name__,
                source.name,
            )
            issues.add(
                "READER_CRASHED",
                plugin=impl.plugin_name,
                error=f"it returned a {type(asset).__name__}, not an Asset",
            )
            return None
        if asset is not None:
            asset.byte_size = len(source.data)
            asset.metrics = measure(asset)
            return asset
    return None


def _run_checks(
    pm: pluggy.PluginManager,
    registered: Sequence[tuple[str, Check]],
    assets: list[Asset],
    collector: IssueCollector,
    profile: EngineProfile,
    options: ValidationOptions,
    begun: dict[tuple[str, str, int], object],
) -> list[CheckRun]:
    """Run every ``registered`` check on every asset of its formats, each on its own, with what
    its ``start`` began for that asset (``begun``, see ``_start_checks``).

    A check that raises is logged with its traceback and reported as CHECK_CRASHED on that
    asset (a warning, or an error under ``[plugins] crash = "error"``); the others still run.
    """
    runs = []
    versions = _plugin_versions(pm)
    for plugin_name, check in registered:
        run = CheckRun(check.name, plugin_name, version=versions.get(plugin_name))
        source = f"{plugin_name}:{check.name}"
        for asset in assets:
            if not check.runs_on(asset.format):
                continue
            started = begun.get((plugin_name, check.name, id(asset)))
            context = CheckContext(
                collector.for_file(asset.filename, source), profile, options, started
            )
            try:
                check.run(asset, context)
            except Exception as error:  # one broken rule must not silence the others
                _log().error(
                    "check %r of plugin %r crashed on %s",
                    check.name,
                    plugin_name,
                    asset.filename,
                    exc_info=error,
                )
                context.issues.add(
                    "CHECK_CRASHED", plugin=plugin_name, check=check.name, error=_describe(error)
                )
                run.crashed = True
        runs.append(run)
    return runs


def _start_checks(
    registered: Sequence[tuple[str, Check]],
    assets: list[Asset],
    options: ValidationOptions,
    closing: ExitStack,
) -> dict[tuple[str, str, int], object]:
    """What each check's ``start`` returns for each asset it runs on, by plugin, check name
    and asset identity, each to be closed by ``closing``; a ``start`` that raises is logged."""
    begun: dict[tuple[str, str, int], object] = {}
    for plugin_name, check in registered:
        start = check.start
        if start is None:
            continue
        for asset in (a for a in assets if check.runs_on(a.format)):
            try:
                started = start(asset, options)
            except Exception as error:  # its run does without
                _log().error(
                    "start of check %r of plugin %r crashed on %s",
                    check.name,
                    plugin_name,
                    asset.filename,
                    exc_info=error,
                )
                continue
            if started is not None:
                closing.callback(started.close)
                begun[plugin_name, check.name, id(asset)] = started
    return begun


def _plugin_versions(pm: pluggy.PluginManager) -> dict[str, str | None]:
    """Each plugin's version by name: AssetCheck's for built-ins, the distribution's for
    entry points; plugins of neither kind (loose files, extra objects) have none."""
    if isinstance(pm, PluginManager):
        return pm.versions
    return dict.fromkeys(DEFAULT_PLUGINS, __version__)


def _result(
    pm: pluggy.PluginManager,
    filename: str,
    profile: EngineProfile,
    assets: list[Asset],
    context: ReadContext,
    checks: list[CheckRun],
    timings: dict[str, float],
) -> Result:
    collector = context.issues
    security = SecurityScan.from_issues(context.scanned_files, collector.issues)
    security_levels = frozenset(w.severity for w in security.warnings)
    severity_counts = collector.severity_counts()
    score = scoring.verdict_cap(
        pm.hook.compute_health_score(
            counts=dict(collector.counts),
            severities={code: collector.severity_of(code) for code in collector.counts},
            security_levels=security_levels,
        ),
        has_errors=severity_counts.get("error", 0) > 0,
        model_read=any(asset.parsed for asset in assets),
        security_levels=security_levels,
    )
    return Result(
        filename=filename,
        profile=profile,
        assets=assets,
        security=security,
        issues=collector.issues,
        issue_counts=dict(collector.counts),
        severity_counts=severity_counts,
        truncated=collector.truncated,
        health_score=score,
        grade=scoring.grade_for(score),
        checks=checks,
        timings=timings,
    )


def _describe(error: Exception) -> str:
    return f"{type(error).__name__}: {error}"


def _ms(seconds: float) -> float:
    return round(seconds * 1000, 1)
