"""Buffers of a GLB that live elsewhere: a ``uri`` (``URI_GLB``, info) and, worse, a ``data:``
URI (``DATA_URI_GLB``, warning) whose base64 the binary chunk would hold without overhead.
Images get the same codes from :mod:`assetcheck.checks.gltf_images`."""

from __future__ import annotations

from assetcheck.asset import Asset
from assetcheck.checks import Check, CheckContext
from assetcheck.formats.gltf import GLTF_FORMATS
from assetcheck.formats.gltf.fields import child
from assetcheck.formats.gltf.links import collection
from assetcheck.formats.gltf.uris import UriKind, classify_uri
from assetcheck.plugins.hookspecs import hookimpl


def check_buffer_uris(asset: Asset, context: CheckContext) -> None:
    if asset.document is None or asset.format != "glb":
        return
    for index, buffer in enumerate(collection(asset.document, "buffers")):
        uri = buffer.get("uri") if buffer is not None else None
        if not isinstance(uri, str):
            continue
        pointer = child(child("/buffers", index), "uri")
        context.issues.add("URI_GLB", pointer=pointer)
        if classify_uri(uri) is UriKind.DATA:
            context.issues.add("DATA_URI_GLB", pointer=pointer)


@hookimpl
def register_checks() -> list[Check]:
    return [
        Check(
            "gltf-buffer-uris",
            "Buffers of a GLB referred to by URI instead of stored in its binary chunk.",
            check_buffer_uris,
            ("URI_GLB", "DATA_URI_GLB"),
            GLTF_FORMATS,
        )
    ]
