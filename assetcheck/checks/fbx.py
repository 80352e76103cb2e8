"""FBX scenes: n-gons and quads, old file versions, texture references and embedded media.

Everything comes from the facts the FBX reader kept (``Asset.fbx``), never from the file
again. What FBX shares with glTF is checked beside it: missing normals (geometry), legacy
materials and missing UVs (materials), units and axis systems (transforms).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from assetcheck.asset import Asset
from assetcheck.checks import Check, CheckContext
from assetcheck.formats.fbx.plugin import SUPPORTED_VERSIONS
from assetcheck.plugins.hookspecs import hookimpl

if TYPE_CHECKING:
    from assetcheck.formats.fbx.model import FbxTexture

MB = 1_000_000
#: FBX 2011: Blender and other current importers refuse older files.
MODERN_VERSION = 7100
#: An embedded PNG or JPEG takes well under 2 bytes per pixel; a file larger than that at the
#: profile's largest texture size is an oversized image, a layered source file or a video.
EMBEDDED_BYTES_PER_PIXEL = 2
#: A drive letter, a UNC share (``\\server``) or a POSIX root.
ABSOLUTE_PATH = re.compile(r"^(?:[A-Za-z]:[\\/]|[\\/]{2}|/)")
#: A user's home folder: ``C:\Users\name``, ``/Users/name``, ``/home/name``.
USER_FOLDER = re.compile(r"[\\/](?:Users|home|Documents and Settings)[\\/][^\\/]+", re.IGNORECASE)

CODES = (
    "FBX_NGONS",
    "FBX_NOT_TRIANGULATED",
    "FBX_OLD_VERSION",
    "FBX_EXTERNAL_TEXTURE",
    "FBX_ABSOLUTE_TEXTURE_PATH",
    "FBX_PATH_REVEALS_USER",
    "FBX_EMBEDDED_MEDIA_TOO_LARGE",
)


def check_fbx(asset: Asset, context: CheckContext) -> None:
    scene = asset.fbx
    if scene is None:  # the file could not be parsed: the reader said why
        return
    for mesh in scene.meshes:
        if mesh.ngons:
            context.issues.add("FBX_NGONS", name=mesh.name, count=mesh.ngons)
        elif mesh.quads:
            context.issues.add("FBX_NOT_TRIANGULATED", name=mesh.name, count=mesh.quads)
    if SUPPORTED_VERSIONS[0] <= scene.version < MODERN_VERSION:
        context.issues.add("FBX_OLD_VERSION", version=scene.version)
    _check_textures(scene.textures, context)


def _check_textures(textures: list[FbxTexture], context: CheckContext) -> None:
    """Each image file once, however many texture objects use it."""
    files = {(t.path, t.embedded): t for t in textures}
    for texture in files.values():
        relative = texture.relative_filename
        if texture.embedded:
            _check_embedded_size(texture.name, texture.byte_size or 0, context)
        elif relative and not ABSOLUTE_PATH.match(relative):
            context.issues.add("FBX_EXTERNAL_TEXTURE", name=texture.name, path=relative)
        elif texture.path:
            context.issues.add("FBX_ABSOLUTE_TEXTURE_PATH", name=texture.name, path=texture.path)
    private = next(
        (
            path
            for texture in textures
            for path in (texture.absolute_filename, texture.relative_filename)
            if path and USER_FOLDER.search(path)
        ),
        None,
    )
    if private is not None:
        context.issues.add("FBX_PATH_REVEALS_USER", path=private)


def _check_embedded_size(name: str, byte_size: int, context: CheckContext) -> None:
    side = context.profile.budgets.texture_size
    limit = side * side * EMBEDDED_BYTES_PER_PIXEL
    if byte_size > limit:
        context.issues.add(
            "FBX_EMBEDDED_MEDIA_TOO_LARGE",
            name=name,
            megabytes=byte_size / MB,
            engine=context.profile.name,
            limit=limit / MB,
        )


@hookimpl
def register_checks() -> list[Check]:
    return [
        Check(
            "fbx-scene",
            "FBX n-gons and quads, old versions, external, absolute and "
            "private texture paths, and oversized embedded media.",
            check_fbx,
            CODES,
            frozenset({"fbx"}),
        )
    ]
