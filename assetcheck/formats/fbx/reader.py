"""The FBX reader: one bounded walk of the file, then ufbx in a child process under limits.

The plugin (:mod:`assetcheck.formats.fbx.plugin`) hands FBX files here; the format is its.
The walk (:mod:`assetcheck.formats.fbx.walk`) checks every size the file declares before the
native parser sees it, and keeps the nodes the geometry needs; a file it finds malformed is
never parsed. ufbx then reads the file in a forked child (:mod:`assetcheck.sandbox.decoder`)
limited by ``options.limits``: a hang becomes ``VALIDATION_TIMEOUT``, a blow-up
``RESOURCE_LIMIT``, and the caller carries on. The mesh geometry is decoded from the kept nodes
in the same child, under the same limits (:mod:`assetcheck.formats.fbx.scene`). Why the scene
is ufbx's and not read from the walk's nodes: ``docs/decisions.md``, One FBX reading path.
ufbx reads only the file itself; images its textures name are looked up, like a glTF's, only
inside the upload (beside the file or in its ZIP), and only their headers are read.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from functools import partial
from pathlib import Path

from assetcheck.asset import Asset
from assetcheck.asset.options import Limits, ValidationOptions
from assetcheck.formats.fbx.byte_usage import fbx_byte_usage
from assetcheck.formats.fbx.plugin import FBX, SUPPORTED_VERSIONS
from assetcheck.formats.fbx.scene import RESULT_TYPES, FbxParseError, read_scene
from assetcheck.formats.fbx.tree import FbxSource, FbxTree
from assetcheck.formats.fbx.walk import walk_fbx
from assetcheck.formats.images import image_info
from assetcheck.formats.registry import SNIFF_BYTES
from assetcheck.formats.source import SourceFile
from assetcheck.issues import FileIssues
from assetcheck.sandbox.decoder import run_decoder


def read_asset(source: SourceFile, issues: FileIssues, options: ValidationOptions) -> Asset | None:
    """The asset in an FBX file (binary 3000 to 7700, or ASCII); None for other formats."""
    if source.kind != FBX.name:
        return None
    if not FBX.matches(bytes(source.data[:SNIFF_BYTES])):  # only the name says FBX
        issues.add(
            "FBX_PARSE_ERROR",
            offset=0,
            reason="it starts with neither the binary FBX magic nor an ASCII FBX header",
        )
        return Asset.unread(source.name, "fbx")
    walk = walk_fbx(source.data, options.limits)
    for finding in walk.scan.findings:
        finding.report_to(issues)
    asset = None if walk.scan.rejected else _parse(source, issues, options.limits, walk.tree)
    if asset is None:
        return Asset.unread(source.name, "fbx")
    scene = asset.fbx
    if scene is None:  # only a parser child subverted by the file sends that
        issues.add("FBX_PARSER_CRASHED", reason="it sent an asset without its FBX scene")
        return Asset.unread(source.name, "fbx")
    version = scene.version
    minimum, maximum = SUPPORTED_VERSIONS
    if not minimum <= version <= maximum:
        issues.add("FBX_UNSUPPORTED_VERSION", version=version, minimum=minimum, maximum=maximum)
    scene.source = FbxSource(memoryview(source.data), binary=not scene.ascii)
    _size_external_images(asset, source)
    asset.byte_usage = fbx_byte_usage(source.data)
    for mesh in scene.meshes:
        if mesh.geometry_fault is not None:
            issues.add("FBX_INVALID_GEOMETRY", name=mesh.name, reason=mesh.geometry_fault)
        for gap in mesh.unset_values:
            issues.add(
                "FBX_UNSET_LAYER_VALUES",
                name=mesh.name,
                layer=gap.layer,
                items=gap.items,
                count=gap.count,
                total=gap.total,
            )
    return asset


def _parse(source: SourceFile, issues: FileIssues, limits: Limits, tree: FbxTree) -> Asset | None:
    """The asset ufbx reads (its geometry decoded from ``tree``), or None after reporting why
    there is none."""
    # Loaded here, not at start-up (GLB-only runs never pay for it), and before the fork, so
    # the child's memory limit is spent on parsing, never on mapping the library.
    import ufbx  # noqa: F401

    with _file_on_disk(source) as path:
        try:
            return run_decoder(
                partial(read_scene, str(path), source.name, tree),
                limits,
                issues,
                "FBX_PARSER_CRASHED",
                result_types=RESULT_TYPES,
            )
        except FbxParseError as error:
            issues.add("FBX_PARSE_ERROR", reason=str(error))
    return None


@contextmanager
def _file_on_disk(source: SourceFile) -> Iterator[Path]:
    """The file's path: ufbx parses only files, so content without one (a ZIP member) is
    written to a private temporary file, deleted afterwards."""
    if source.path is not None:
        yield source.path
        return
    handle, name = tempfile.mkstemp(prefix="assetcheck-", suffix=".fbx")
    try:
        with os.fdopen(handle, "wb") as file:
            file.write(source.data)
        yield Path(name)
    finally:
        os.unlink(name)


def _size_external_images(asset: Asset, source: SourceFile) -> None:
    """Read the type and size of each image a texture names that the upload holds (beside the
    FBX, or in its ZIP). FBX paths may use backslashes; absolute ones are never looked up."""
    for texture in asset.textures:
        if texture.uri is None or texture.width is not None:
            continue
        data = source.read_resource(texture.uri.replace("\\", "/"))
        info = image_info(data) if data is not None else None
        if info is not None:
            texture.mime_type, texture.width, texture.height = (
                info.mime_type,
                info.width,
                info.height,
            )
