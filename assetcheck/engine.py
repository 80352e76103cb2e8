"""``validate``: the one entry point the CLI, the worker and the tests call.

It reads the upload (expanding ZIP archives), hands each model file to the ``read_asset``
hook, scores what was found and returns a :class:`~assetcheck.model.Result`. It never raises
for a bad file: whatever is wrong with the upload becomes issues in the result.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pluggy

from assetcheck import scoring
from assetcheck.formats import zip as zip_format
from assetcheck.formats.sniff import SNIFF_BYTES, classify
from assetcheck.formats.source import DirectoryResources, ReadContext, SourceFile, map_file
from assetcheck.issues import IssueCollector
from assetcheck.model import Asset, Result, SecurityScan
from assetcheck.options import ValidationOptions
from assetcheck.plugins import build_registry, get_plugin_manager
from assetcheck.profiles import PROFILES, UnknownEngineError


def validate(
    path: str | Path,
    *,
    engine: str = "generic",
    options: ValidationOptions | None = None,
    filename: str | None = None,
    plugin_manager: pluggy.PluginManager | None = None,
) -> Result:
    """Validate the upload at ``path`` for ``engine`` and return everything found.

    ``filename`` is the name to report (the client's name when the service stored the upload
    under its own); relative glTF resources are looked up beside ``path``, never above it.
    ``options`` wins over ``engine`` when both are given. Raises :class:`UnknownEngineError`
    for an engine no profile defines, and ``OSError`` when ``path`` itself cannot be opened.
    """
    options = options or ValidationOptions(engine=engine)
    if options.engine not in PROFILES:
        raise UnknownEngineError(options.engine)
    pm = plugin_manager or get_plugin_manager()
    collector = IssueCollector(build_registry(pm), options.policy)
    context = ReadContext(collector, options)
    path = Path(path)
    started = time.perf_counter()
    resources = DirectoryResources(path.parent)
    with map_file(path) as data:
        root = SourceFile(filename or path.name, data, "", resources, path=path)
        assets = [
            asset
            for source in _model_sources(root, context)
            if (asset := _read(pm, source, context)) is not None
        ]
    context.scanned_files += len(resources.opened)
    if not assets and not collector.counts:
        collector.add("NO_MODEL_FILES", file=root.name)
    read_done = time.perf_counter()
    for asset in assets:
        asset.buffers = []  # the result keeps the model, not the bytes (they may be mapped)
    return _result(root.name, options, assets, context, {
        "read_ms": _ms(read_done - started),
        "total_ms": _ms(time.perf_counter() - started),
    })


def _model_sources(root: SourceFile, context: ReadContext) -> Iterator[SourceFile]:
    """The upload itself when it is a model file, or the model files inside the archive."""
    context.scanned_files += 1
    kind, claimed = classify(root.name, bytes(root.data[:SNIFF_BYTES]), in_archive=False)
    if kind is None:
        context.issues.add("UNSUPPORTED_FILE_TYPE", file=root.name)
        return
    if claimed is not None:
        context.issues.add("FILE_TYPE_MISMATCH", file=root.name, claimed=claimed, actual=kind)
    root.kind = kind
    if kind == "zip":
        yield from zip_format.iter_model_sources(root, context)
    else:
        yield root


def _read(pm: pluggy.PluginManager, source: SourceFile, context: ReadContext) -> Asset | None:
    """The first reader's asset for ``source``; a reader that raises becomes READER_CRASHED."""
    for impl in reversed(pm.hook.read_asset.get_hookimpls()):
        issues = context.issues.for_file(source.name, source=impl.plugin_name)
        try:
            asset = impl.function(source=source, issues=issues, options=context.options)
        except Exception as error:  # a reader bug must not take the whole validation down
            issues.add("READER_CRASHED", plugin=impl.plugin_name,
                       error=f"{type(error).__name__}: {error}")
            return None
        if asset is not None:
            return asset
    return None


def _result(
    filename: str,
    options: ValidationOptions,
    assets: list[Asset],
    context: ReadContext,
    timings: dict[str, float],
) -> Result:
    collector = context.issues
    security = SecurityScan.from_issues(context.scanned_files, collector.issues)
    severities = {code: collector.severity_of(code) for code in collector.counts}
    score = scoring.health_score(
        collector.counts, severities, {w.severity for w in security.warnings}
    )
    return Result(
        filename=filename,
        engine=options.engine,
        assets=assets,
        security=security,
        issues=collector.issues,
        issue_counts=dict(collector.counts),
        severity_counts=collector.severity_counts(),
        truncated=collector.truncated,
        health_score=score,
        grade=scoring.grade_for(score),
        timings=timings,
    )


def _ms(seconds: float) -> float:
    return round(seconds * 1000, 1)
