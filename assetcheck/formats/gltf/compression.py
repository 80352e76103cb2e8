"""Compressed glTF geometry, decoded at read time so every reader of vertex data sees it.

:func:`decode_compressed` decodes every meshopt buffer view (:mod:`.meshopt`) and every
Draco primitive (:mod:`.draco`) of a document, reports what is wrong with them, and
returns the decoded data as :class:`~assetcheck.formats.gltf.accessor_data.DecodedPayloads`: the
accessor data layer then serves decoded bytes and arrays in place of the compressed ones, so
checks, statistics and previews need no code of their own for compression.

The decoders are native code fed with hostile bytes: they run only in a forked child under the
reader's time and memory limits (``options.limits``, the FBX parser's), one child per codec and
file. A hang ends as ``VALIDATION_TIMEOUT``, a blow-up as ``RESOURCE_LIMIT``, a crash as the
codec's decode error; the caller always carries on. See ``docs/compression.md``. Each codec's
module is imported by the first document that names its extension.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from assetcheck.asset.options import Limits
from assetcheck.formats.gltf.accessor_data import DecodedPayloads
from assetcheck.formats.gltf.fields import declared_names
from assetcheck.formats.gltf.layout import Accessors, Buffer
from assetcheck.issues import FileIssues

if TYPE_CHECKING:
    import numpy as np

#: The meshopt extensions, KHR's first (on buffer views, and on buffers for their fallback).
MESHOPT_EXTENSIONS = ("KHR_meshopt_compression", "EXT_meshopt_compression")
#: The Draco extension (on mesh primitives).
DRACO_EXTENSION = "KHR_draco_mesh_compression"
#: The extensions whose payloads AssetCheck decodes and checks (Khronos glTF-Validator does not).
DECODED_EXTENSIONS = frozenset({DRACO_EXTENSION, *MESHOPT_EXTENSIONS})


def decode_compressed(
    document: dict[str, Any],
    buffers: list[Buffer | None],
    accessors: Accessors,
    issues: FileIssues,
    limits: Limits,
    *,
    is_glb: bool,
) -> DecodedPayloads:
    """Every compressed payload of ``document`` decoded and checked (findings in ``issues``).

    A payload whose extension object no loader can use is a decode failure when the extension
    is in ``extensionsRequired``, and is left to the uncompressed data otherwise
    (``docs/compression.md``).
    """
    required = frozenset(declared_names(document, "extensionsRequired"))
    views: dict[int, memoryview] = {}
    draco: dict[int, np.ndarray] = {}
    # Each codec's module is imported by the first document that names its extension: without
    # one, the codec has nothing to decode and nothing to report.
    meshopt_holders = _items(document, "buffers") + _items(document, "bufferViews")
    if _names_any(meshopt_holders, MESHOPT_EXTENSIONS):
        from assetcheck.formats.gltf.meshopt import decode_meshopt_views

        views = decode_meshopt_views(
            document, buffers, issues, limits, is_glb=is_glb, required=required
        )
    primitives = [
        primitive
        for mesh in _items(document, "meshes")
        if isinstance(mesh, dict)
        for primitive in _items(mesh, "primitives")
    ]
    if _names_any(primitives, (DRACO_EXTENSION,)):
        from assetcheck.formats.gltf.draco import decode_draco_primitives

        draco = decode_draco_primitives(
            document, buffers, accessors, issues, limits, required=DRACO_EXTENSION in required
        )
    return DecodedPayloads(views=views, accessors=draco)


def _items(owner: dict[str, Any], name: str) -> list[Any]:
    """``owner[name]`` when it is an array, else none."""
    items = owner.get(name)
    return items if isinstance(items, list) else []


def _names_any(objects: list[Any], extensions: tuple[str, ...]) -> bool:
    """Whether one of ``objects`` has an ``extensions`` object naming one of ``extensions``."""
    for item in objects:
        named = item.get("extensions") if isinstance(item, dict) else None
        if isinstance(named, dict) and any(name in named for name in extensions):
            return True
    return False
