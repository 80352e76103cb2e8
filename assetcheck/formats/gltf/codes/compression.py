"""Issue types of compressed glTF geometry: ``KHR_draco_mesh_compression`` and meshopt.

AssetCheck decodes every payload (``docs/compression.md``); Khronos glTF-Validator checks only
the JSON around them, so none of these codes is one of Khronos'. Pointers name the primitive
(Draco) or the buffer view (meshopt) whose payload is at fault.
"""

from assetcheck.issues import IssueArea

declare = IssueArea(
    "compression",
    fix="Compress the model again from its source with a current encoder (gltf-transform, "
    "gltfpack); a payload that does not decode here will not load in an engine either.",
).declare

ISSUE_TYPES = [
    declare(
        "DRACO_DECODE_FAILED",
        "error",
        "The Draco payload of this primitive does not decode: {reason}.",
        title="Draco-compressed mesh does not unpack",
    ),
    declare(
        "DRACO_ATTRIBUTE_MISSING",
        "error",
        "The Draco attribute {semantic} names attribute id {id}, which the payload does not "
        "hold (it holds {ids}).",
        title="Draco-compressed mesh lacks an attribute",
    ),
    declare(
        "DRACO_ATTRIBUTE_SHAPE_MISMATCH",
        "error",
        "The Draco attribute {semantic} decodes to {decoded} components per vertex, but its "
        "accessor is {type}.",
        title="Draco-compressed mesh attribute of the wrong shape",
    ),
    declare(
        "DRACO_VERTEX_COUNT_MISMATCH",
        "error",
        "The accessor of {semantic} declares {declared} vertices, but the Draco payload "
        "decodes to {decoded}.",
        title="Draco-compressed mesh with the wrong vertex count",
    ),
    declare(
        "DRACO_INDEX_COUNT_MISMATCH",
        "error",
        "The indices accessor declares {declared} indices, but the Draco payload decodes to "
        "{decoded} ({triangles} triangles).",
        title="Draco-compressed mesh with the wrong triangle count",
    ),
    declare(
        "DRACO_POSITION_OUT_OF_BOUNDS",
        "error",
        "{count} decoded positions lie outside the POSITION accessor's min/max (by up to "
        "{excess:g} on axis {axis}).",
        "Set the POSITION accessor's min and max from the decoded positions; engines cull "
        "the mesh by these bounds.",
        title="Draco-compressed mesh outside its bounding box",
        count_phrase="({count:,} {count:vertex|vertices})",
    ),
    declare(
        "MESHOPT_DECODE_FAILED",
        "error",
        "The meshopt payload of this buffer view does not decode: {reason}.",
        title="Meshopt-compressed data does not unpack",
    ),
    declare(
        "MESHOPT_BYTE_LENGTH_MISMATCH",
        "error",
        "The buffer view is {byte_length} bytes long, but its meshopt payload decodes to "
        "{count} elements of {byte_stride} bytes ({decoded} bytes).",
        title="Meshopt-compressed data unpacks to the wrong size",
    ),
    declare(
        "MESHOPT_INVALID_LAYOUT",
        "error",
        "The meshopt extension of this buffer view breaks the extension's rules: {reason}.",
        title="Meshopt-compressed data set up wrongly",
    ),
    declare(
        "MESHOPT_FALLBACK_MISUSED",
        "error",
        "Buffer {buffer} is a meshopt fallback buffer, but {reason}.",
        "Point only compressed buffer views at a fallback buffer, and never a meshopt "
        "extension object.",
        title="Misused fallback buffer for meshopt-compressed data",
    ),
    declare(
        "MESHOPT_FALLBACK_NOT_REQUIRED",
        "error",
        "Buffer {buffer} has no data (no uri and not the GLB binary chunk), but {extension} "
        "is not in extensionsRequired: a loader without the extension has nothing to read.",
        "Add the extension to extensionsRequired, or give the fallback buffer its "
        "uncompressed data.",
        title="Meshopt-compressed data not marked as required",
    ),
]

#: Every code here makes a file invalid that Khronos, which does not decode payloads, calls valid.
STRICTER_THAN_KHRONOS = {
    issue_type.code: "Khronos glTF-Validator checks only the JSON around compressed payloads; "
    "AssetCheck decodes them (`docs/compression.md`), and a payload that does "
    "not decode, or does not match its accessors, fails in every engine."
    for issue_type in ISSUE_TYPES
}
