"""Deciding a file's format from its content, and what its name claims."""

from __future__ import annotations

from pathlib import PurePosixPath

GLB_MAGIC = b"glTF"
FBX_BINARY_MAGIC = b"Kaydara FBX Binary  \x00"
ZIP_MAGICS = (b"PK\x03\x04", b"PK\x05\x06")
SNIFF_BYTES = 4096

MODEL_KINDS = ("glb", "gltf", "fbx")
KINDS = (*MODEL_KINDS, "zip")

_EXTENSIONS = {".glb": "glb", ".gltf": "gltf", ".fbx": "fbx", ".zip": "zip"}


def sniff(head: bytes) -> str | None:
    """The format of content starting with ``head`` (at least the first 4 KiB), or None.

    GLB starts with ``glTF``; ZIP with a local file header (or the end record of an empty
    archive); binary FBX with the Kaydara magic; ASCII FBX with its ``; FBX`` comment or an
    ``FBXHeaderExtension`` near the top; glTF is JSON, so its first non-blank byte is ``{``.
    """
    if head.startswith(GLB_MAGIC):
        return "glb"
    if head.startswith(ZIP_MAGICS):
        return "zip"
    if head.startswith(FBX_BINARY_MAGIC):
        return "fbx"
    text = head[:SNIFF_BYTES].removeprefix(b"\xef\xbb\xbf").lstrip()
    if text.startswith(b"{"):
        return "gltf"
    if text.startswith(b"; FBX") or b"FBXHeaderExtension:" in text:
        return "fbx"
    return None


def kind_from_name(name: str) -> str | None:
    """The format a file name claims by its extension, or None."""
    return _EXTENSIONS.get(PurePosixPath(name).suffix.lower())


def classify(name: str, head: bytes, *, in_archive: bool) -> tuple[str | None, str | None]:
    """The format to read a file as, and the format its name wrongly claims (or None).

    Content decides. When the content matches nothing, the name's claim is used, so the reader
    of that format explains what is wrong (``GLB_INVALID_MAGIC`` beats "unsupported"). Inside an
    archive, JSON whose name claims no format (``meta.json``) is a resource, not a model.
    """
    claimed = kind_from_name(name)
    actual = sniff(head)
    if in_archive and actual == "gltf" and claimed is None:
        return None, None
    if actual is None:
        return claimed, None
    mismatch = claimed if claimed is not None and claimed != actual else None
    return actual, mismatch
