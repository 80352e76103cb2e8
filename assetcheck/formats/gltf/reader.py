"""The glTF reader (``.gltf`` JSON) and the document logic it shares with the GLB reader.

:func:`read_document` turns a parsed glTF JSON object into an :class:`Asset`: the version
check, the URI security findings, resolving buffers and images, the declared-size checks and
the statistics, which equal Khronos glTF-Validator's ``info`` for the same file.
"""

from __future__ import annotations

import math
import re
from typing import Any

from assetcheck.asset import Asset
from assetcheck.asset.options import ValidationOptions
from assetcheck.formats.gltf.byte_usage import gltf_byte_usage
from assetcheck.formats.gltf.compression import decode_compressed
from assetcheck.formats.gltf.fields import FieldReader
from assetcheck.formats.gltf.json_decoding import parse_document
from assetcheck.formats.gltf.layout import (
    Bytes,
    check_accessors,
    check_buffer_views,
    read_accessors,
)
from assetcheck.formats.gltf.model import GltfDocument
from assetcheck.formats.gltf.resources import ResourceLoader, load_buffers, load_images
from assetcheck.formats.gltf.stats import count_meshes, read_animations, read_materials
from assetcheck.formats.gltf.uris import report_unsafe_uris
from assetcheck.formats.registry import FileFormat, leading_text
from assetcheck.formats.source import SourceFile
from assetcheck.issues import FileIssues
from assetcheck.plugins.hookspecs import hookimpl

#: Khronos' pattern for ``asset.version``.
VERSION_PATTERN = re.compile(r"^([0-9]+)\.([0-9]+)$")
SUPPORTED_MAJOR_VERSION = 2


def _starts_json_object(head: bytes) -> bool:
    return leading_text(head).startswith(b"{")


#: glTF is JSON: its first non-blank byte is ``{``. So is much else, so in an archive only a
#: file whose name claims a format is taken for one (``meta.json`` is data).
GLTF = FileFormat("gltf", "glTF", (".gltf",), recognise=_starts_json_object, named_in_archives=True)


@hookimpl
def register_file_formats() -> list[FileFormat]:
    return [GLTF]


@hookimpl
def read_asset(source: SourceFile, issues: FileIssues, options: ValidationOptions) -> Asset | None:
    if source.kind != GLTF.name:
        return None
    text = bytes(source.data)
    document = parse_document(text, issues)
    if document is None:
        return Asset.unread(source.name, "gltf")
    return read_document(document, text, source, issues, options, container="gltf")


def read_document(
    document: dict[str, Any],
    text: bytes,
    source: SourceFile,
    issues: FileIssues,
    options: ValidationOptions,
    *,
    container: str,
    glb_bin: Bytes | None = None,
) -> Asset:
    """The asset described by a glTF JSON object, parsed from ``text``, from a ``container``
    (``gltf``, ``glb``).

    URIs that leave the upload are reported whatever the version. Like Khronos, nothing else is
    read unless ``asset.version`` is a 2.x version: otherwise the asset has no statistics, no
    ``document`` and no ``gltf`` model. ``glb_bin`` is the GLB BIN chunk, used as buffer 0 when
    it has no URI. Compressed geometry is decoded under ``options.limits`` (see
    :mod:`~assetcheck.formats.gltf.compression`).
    """
    report_unsafe_uris(document, text, source.base, issues)
    fields = FieldReader(issues)
    version = _read_version(document, fields)
    asset = Asset(filename=source.name, format=container)
    if version is None:
        return asset
    asset.document = document
    asset.details = _details(document["asset"], version)

    loader = ResourceLoader(source, fields)
    accessors = read_accessors(fields.elements(document, "accessors"), fields)
    buffers = load_buffers(
        fields.elements(document, "buffers"), loader, glb_bin=glb_bin, is_glb=container == "glb"
    )
    views = fields.elements(document, "bufferViews")
    check_accessors(accessors, check_buffer_views(views, buffers, fields), fields)
    asset.buffers = [buffer.data if buffer else None for buffer in buffers]
    asset.gltf = GltfDocument(
        document,
        asset.buffers,
        decode_compressed(
            document, buffers, accessors, issues, options.limits, is_glb=container == "glb"
        ),
    )

    materials = fields.elements(document, "materials")
    animations = fields.elements(document, "animations")
    asset.parts = count_meshes(fields.elements(document, "meshes"), accessors, materials, fields)
    asset.materials = read_materials(materials)
    asset.animations = read_animations(animations, accessors)
    asset.textures, asset.gltf.images = load_images(
        fields.elements(document, "images"), views, buffers, loader
    )
    asset.vertex_count = sum(part.vertex_count for part in asset.parts)
    asset.triangle_count = sum(part.triangle_count for part in asset.parts)
    asset.material_count = len(materials)
    asset.animation_count = len(animations)
    asset.uses_pbr = any(material.pbr for material in asset.materials)
    asset.byte_usage = gltf_byte_usage(asset, source.data, asset.gltf.links)
    return asset


def _details(asset: dict[str, Any], version: str) -> dict[str, Any]:
    details: dict[str, Any] = {"version": version}
    if isinstance(asset.get("generator"), str):
        details["generator"] = asset["generator"]
    return details


def _read_version(document: dict[str, Any], fields: FieldReader) -> str | None:
    """``asset.version`` when it is a 2.x version this reader understands, else None (reported).

    A number (``"version": 1``) is a type mismatch as in Khronos; its major version is reported
    too, so glTF 1.0 files always say that they are glTF 1.0.
    """
    asset = fields.object(document, "asset", "", required=True)
    if asset is None:
        return None
    version = fields.string(asset, "version", "/asset", required=True)
    if version is None:
        major = _numeric_major(asset.get("version"))
        if major is not None and major != SUPPORTED_MAJOR_VERSION:
            fields.issues.add(
                "UNKNOWN_ASSET_MAJOR_VERSION", pointer="/asset/version", version=asset["version"]
            )
        return None
    match = VERSION_PATTERN.match(version)
    if match is None:
        fields.issues.add(
            "PATTERN_MISMATCH",
            pointer="/asset/version",
            value=version,
            pattern=VERSION_PATTERN.pattern,
        )
        return None
    if int(match.group(1)) != SUPPORTED_MAJOR_VERSION:
        fields.issues.add("UNKNOWN_ASSET_MAJOR_VERSION", pointer="/asset/version", version=version)
        return None
    if int(match.group(2)) != 0:
        fields.issues.add("UNKNOWN_ASSET_MINOR_VERSION", pointer="/asset/version", version=version)
    return version


def _numeric_major(value: object) -> int | None:
    """The major version a number in ``asset.version`` stands for (old exporters wrote ``1``)."""
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        return None
    return int(value)
