"""Issue types of the GLB container, with Khronos glTF-Validator's codes and default severities.

``chunk`` fields name a chunk type the way Khronos does: ``0x4e4f534a`` is JSON, ``0x004e4942``
is BIN. Every issue carries the byte ``offset`` it is about.
"""

from assetcheck.issues import IssueArea

declare = IssueArea("glb").declare

_REEXPORT = "Export the model again as GLB from your modelling tool or glTF converter."

ISSUE_TYPES = [
    declare(
        "GLB_INVALID_MAGIC",
        "error",
        "The file does not start with the GLB magic 'glTF' (found {magic}).",
        "Check that the file really is a GLB and was not damaged in transfer. " + _REEXPORT,
        title="Not a GLB file",
    ),
    declare(
        "GLB_INVALID_VERSION",
        "error",
        "GLB version {version} is not supported: only version 2 (glTF 2.0) is. Version 1 is "
        "the binary form of glTF 1.0.",
        "Convert the model to glTF 2.0 (for example with the Khronos glTF 1.0 to 2.0 "
        "converter or Blender) and export it as GLB.",
        title="Unsupported GLB version",
    ),
    declare(
        "GLB_LENGTH_TOO_SMALL",
        "error",
        "The declared GLB length ({length}) is too small to hold any chunk.",
        _REEXPORT,
        title="Broken GLB file (length too small)",
    ),
    declare(
        "GLB_LENGTH_MISMATCH",
        "error",
        "The declared GLB length ({declared}) does not match the length of its chunks ({actual}).",
        "The file was probably cut short or padded after export. " + _REEXPORT,
        title="Broken GLB file (wrong length)",
    ),
    declare(
        "GLB_EXTRA_DATA",
        "warning",
        "There are bytes after the end of the GLB stream its header declares.",
        "Remove the trailing bytes, or export the model again as GLB.",
        title="Extra bytes after the end of the GLB",
    ),
    declare(
        "GLB_UNEXPECTED_END_OF_HEADER",
        "error",
        "The file ends inside the 12-byte GLB header.",
        "The file is truncated: upload the complete file.",
        title="GLB file cut short (in its header)",
    ),
    declare(
        "GLB_UNEXPECTED_END_OF_CHUNK_HEADER",
        "error",
        "The file ends inside a chunk header.",
        "The file is truncated: upload the complete file.",
        title="GLB file cut short (in a chunk header)",
    ),
    declare(
        "GLB_UNEXPECTED_END_OF_CHUNK_DATA",
        "error",
        "The file ends before the end of its last chunk.",
        "The file is truncated: upload the complete file.",
        title="GLB file cut short (in its data)",
    ),
    declare(
        "GLB_CHUNK_LENGTH_UNALIGNED",
        "error",
        "The length of chunk {chunk} is not a multiple of 4 bytes.",
        "Pad the JSON chunk with spaces and the BIN chunk with zeros to 4 bytes. " + _REEXPORT,
        title="Broken GLB file (chunk not padded to 4 bytes)",
    ),
    declare(
        "GLB_CHUNK_TOO_BIG",
        "error",
        "Chunk {chunk} is {length} bytes long, which does not fit in the declared GLB length.",
        _REEXPORT,
        title="Broken GLB file (chunk longer than the file)",
    ),
    declare(
        "GLB_UNEXPECTED_FIRST_CHUNK",
        "error",
        "The first chunk must be the JSON chunk; found chunk {chunk} instead.",
        _REEXPORT,
        title="Broken GLB file (JSON chunk not first)",
    ),
    declare(
        "GLB_DUPLICATE_CHUNK",
        "error",
        "A second chunk {chunk} was found; only the first one is used.",
        "Keep one JSON chunk and at most one BIN chunk. " + _REEXPORT,
        title="Broken GLB file (chunk repeated)",
    ),
    declare(
        "GLB_UNKNOWN_CHUNK_TYPE",
        "warning",
        "Chunk type {chunk} is unknown and was skipped.",
        "Remove the chunk unless a tool you rely on needs it.",
        title="Unknown data block in the GLB",
    ),
    declare(
        "GLB_UNEXPECTED_BIN_CHUNK",
        "error",
        "The BIN chunk must be the second chunk, right after the JSON chunk.",
        _REEXPORT,
        title="Broken GLB file (binary chunk out of place)",
    ),
    declare(
        "GLB_EMPTY_CHUNK",
        "error",
        "Chunk {chunk} has zero length.",
        _REEXPORT,
        title="Broken GLB file (empty chunk)",
    ),
    declare(
        "GLB_EMPTY_BIN_CHUNK",
        "info",
        "The BIN chunk is empty; an empty BIN chunk should be left out.",
        "Leave the BIN chunk out when there is no binary data.",
        title="Empty binary chunk in the GLB",
    ),
]
