"""Compressed glTF geometry, decoded at read time so every reader of vertex data sees it.

:func:`decode_compressed` decodes every meshopt buffer view (:mod:`.gltf_meshopt`) and every
Draco primitive (:mod:`.gltf_draco`) of a document, reports what is wrong with them, and
returns the decoded data as :class:`~assetcheck.formats.gltf.accessor_data.DecodedPayloads`: the
accessor data layer then serves decoded bytes and arrays in place of the compressed ones, so
checks, statistics and previews need no code of their own for compression.

The decoders are native code fed with hostile bytes: they run only in a forked child under the
reader's time and memory limits (``options.limits``, the FBX parser's), one child per codec and
file. A hang ends as ``VALIDATION_TIMEOUT``, a blow-up as ``RESOURCE_LIMIT``, a crash as the
codec's decode error; the caller always carries on. See ``docs/compression.md``.
"""

from __future__ import annotations

from typing import Any

from assetcheck.asset.options import Limits
from assetcheck.formats.gltf.accessor_data import DecodedPayloads
from assetcheck.formats.gltf.draco import EXTENSION as DRACO
from assetcheck.formats.gltf.draco import decode_draco_primitives
from assetcheck.formats.gltf.fields import declared_names
from assetcheck.formats.gltf.layout import Accessors, Buffer
from assetcheck.formats.gltf.meshopt import decode_meshopt_views
from assetcheck.issues import FileIssues

#: The extensions whose payloads AssetCheck decodes and checks (Khronos glTF-Validator does not).
DECODED_EXTENSIONS = frozenset(
    {"KHR_draco_mesh_compression", "EXT_meshopt_compression", "KHR_meshopt_compression"}
)


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
    views = decode_meshopt_views(
        document, buffers, issues, limits, is_glb=is_glb, required=required
    )
    draco = decode_draco_primitives(
        document, buffers, accessors, issues, limits, required=DRACO in required
    )
    return DecodedPayloads(views=views, accessors=draco)
