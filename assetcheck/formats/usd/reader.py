"""The USD reader: the package scanned here, the stage read by ``usd-core`` in a child.

A USDZ package is first judged from our own parse of its ZIP layout
(:mod:`~assetcheck.formats.usd.package`). The file is then copied into a private folder of
its own, named after its encoding (USD picks a reader by the name; the upload's name never
reaches a path), and ``usd-core`` reads it in a forked child (:mod:`assetcheck.sandbox.decoder`)
limited by ``options.limits``: a hang becomes ``VALIDATION_TIMEOUT``, a blow-up
``RESOURCE_LIMIT``, a crash ``USD_PARSER_CRASHED``, and the caller carries on. Alone in its
folder, a layer reaches only what its package holds; a ``.usda``/``.usdc`` layer on its own is
composed alone, and the relative paths it names are looked up in the upload here (missing, or
a layer not composed: ``docs/usd.md``, ship the asset as a USDZ). Images its materials name are
sized from the package, or from the upload for a layer on its own.
"""

from __future__ import annotations

import os
import posixpath
import tempfile
from functools import partial

from assetcheck.asset import Asset
from assetcheck.asset.options import ValidationOptions
from assetcheck.formats.images import image_info
from assetcheck.formats.registry import SNIFF_BYTES
from assetcheck.formats.source import SourceFile
from assetcheck.formats.usd.dependencies import leaving_reason
from assetcheck.formats.usd.package import Package, scan_package
from assetcheck.formats.usd.plugin import USD, encoding
from assetcheck.formats.usd.stage import RESULT_TYPES, UsdParseError, UsdRead, read_stage
from assetcheck.formats.zip.layout import searchable
from assetcheck.issues import FileIssues
from assetcheck.sandbox.decoder import run_decoder


def read_asset(source: SourceFile, issues: FileIssues, options: ValidationOptions) -> Asset:
    """The asset in a USD file; an unread asset (after saying why) when the file is not USD,
    its package cannot be read in place, or USD could not read it within the limits."""
    kind = encoding(bytes(source.data[:SNIFF_BYTES]))
    if kind is None:  # only the name says USD
        issues.add(
            "USD_PARSE_ERROR",
            reason="it is neither a USDZ package, a binary crate layer (PXR-USDC) nor a "
            "text layer (#usda)",
        )
        return Asset.unread(source.name, USD.name)
    package = None
    if kind == "usdz":
        package = scan_package(source.name, searchable(source.data), options.limits, issues)
        if not package.readable:
            issues.add(
                "USD_PARSE_ERROR",
                reason="USD cannot read the package in place (its first member is "
                "compressed or encrypted, or its layout is damaged)",
            )
            return Asset.unread(source.name, USD.name)
    read = _read(source, kind, issues, options)
    if read is None or read.asset.usd is None:
        return Asset.unread(source.name, USD.name)
    for finding in read.findings:
        finding.report_to(issues)
    for kind, path in read.beside:
        if source.read_resource(path) is None:
            issues.add("USD_MISSING_DEPENDENCY", path=path, kind=kind)
        elif kind != "asset path":
            issues.add("USD_LAYER_NOT_COMPOSED", path=path, kind=kind)
    _size_images(read.asset, source, package)
    return read.asset


def _read(
    source: SourceFile, kind: str, issues: FileIssues, options: ValidationOptions
) -> UsdRead | None:
    """What the child read, or None after reporting why there is nothing."""
    # Loaded here, not at start-up, and before the fork, so the child's memory limit is spent
    # on reading, never on mapping the library.
    from pxr import Usd  # noqa: F401

    with tempfile.TemporaryDirectory(prefix="assetcheck-usd-") as folder:
        path = os.path.join(folder, f"model.{kind}")
        with open(path, "wb") as file:
            file.write(source.data)
        try:
            return run_decoder(
                partial(read_stage, path, source.name, kind),
                options.limits,
                issues,
                "USD_PARSER_CRASHED",
                result_types=RESULT_TYPES,
            )
        except UsdParseError as error:
            issues.add("USD_PARSE_ERROR", reason=str(error))
    return None


def _size_images(asset: Asset, source: SourceFile, package: Package | None) -> None:
    """Read the type and size of each image a material names, from the package (or the
    upload, for a layer on its own); paths that leave it are never looked up."""
    for texture in asset.textures:
        uri = texture.uri
        if uri is None or leaving_reason(uri, "") is not None:
            continue
        if package is not None:
            data: bytes | memoryview | None = package.read(
                posixpath.normpath(uri.replace("\\", "/"))
            )
        else:
            data = source.read_resource(uri)
        if data is None:
            continue
        texture.byte_size = len(data)
        info = image_info(data)
        if info is not None:
            texture.mime_type, texture.width, texture.height = (
                info.mime_type,
                info.width,
                info.height,
            )
