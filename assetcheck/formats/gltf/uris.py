"""Where a glTF URI points, the security findings about it, and decoding ``data:`` URIs.

AssetCheck never fetches a URL: a URI is either embedded data, a relative path resolved inside
the upload by :meth:`SourceFile.read_resource`, or a finding (``docs/security.md``, glTF and GLB).
"""

from __future__ import annotations

import base64
import posixpath
import re
from collections.abc import Iterator
from enum import Enum
from typing import Any, NamedTuple
from urllib.parse import unquote, unquote_to_bytes

from assetcheck.formats.gltf.fields import child
from assetcheck.formats.images import image_mime
from assetcheck.issues import FileIssues
from assetcheck.security.content import executable_kind

_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*:")

#: Media types whose content can be recognised, so a data: URI claiming one can be checked.
_CHECKABLE_MEDIA_TYPES = frozenset(
    {"image/png", "image/jpeg", "image/webp", "image/ktx2", "image/gif", "image/bmp"}
)


class UriKind(Enum):
    DATA = "data"
    RELATIVE = "relative"
    EXTERNAL = "external"
    TRAVERSAL = "traversal"


class DataUri(NamedTuple):
    media_type: str
    data: bytes


def classify_uri(uri: str, base: str = "") -> UriKind:
    """What kind of reference ``uri`` is, for a document in the folder ``base`` of the upload.

    Backslashes count as separators (a Windows engine treats them so) and percent-escapes are
    decoded before ``..`` is judged, so neither hides a climb out of the folder. A scheme of one
    letter is a Windows drive (``C:/``): external, like any other scheme but ``data:``.
    """
    scheme = _SCHEME.match(uri)
    if scheme:
        return UriKind.DATA if scheme.group().lower() == "data:" else UriKind.EXTERNAL
    path = unquote(uri.split("#", 1)[0].split("?", 1)[0]).replace("\\", "/")
    if path.startswith("/"):
        return UriKind.EXTERNAL
    joined = posixpath.normpath(posixpath.join(base, path))
    if joined == ".." or joined.startswith("../"):
        return UriKind.TRAVERSAL
    return UriKind.RELATIVE


def report_unsafe_uris(
    document: dict[str, Any], text: bytes, base: str, issues: FileIssues
) -> None:
    """Report every ``uri`` string of the document (parsed from the JSON ``text``) that leaves
    the upload.

    The whole document is searched (glTF 1.0 and extensions included), except ``extras``, which
    no engine loads.
    """
    for pointer, uri in uri_properties(document, text):
        kind = classify_uri(uri, base)
        if kind is UriKind.EXTERNAL:
            issues.add("GLTF_EXTERNAL_URI", pointer=pointer, uri=shorten_uri(uri))
        elif kind is UriKind.TRAVERSAL:
            issues.add("GLTF_PATH_TRAVERSAL", pointer=pointer, uri=shorten_uri(uri))


def uri_properties(document: dict[str, Any], text: bytes) -> Iterator[tuple[str, str]]:
    """The pointer and value of every ``uri`` string of ``document`` outside ``extras``, in
    document order; ``text`` is the JSON it was parsed from.

    Where glTF 2.0 puts them, in buffers and images, they are found without walking the
    document: when the text spells the key ``"uri"`` no more often than those objects hold
    it, no other object can hold one. (A key is spelled in the text as it is unless it has
    escapes, so a text with any backslash goes the long way, as does one with ``"uri"`` as a
    value or in ``extras``.) Otherwise the whole document is walked.
    """
    listed = _listed_uris(document)
    if b"\\" not in text and text.count(b'"uri"') == len(listed):
        return ((pointer, uri) for pointer, uri in listed if type(uri) is str)
    return _uri_walk(document)


#: The top-level arrays whose objects glTF 2.0 gives a ``uri``.
_URI_COLLECTIONS = ("buffers", "images")


def _listed_uris(document: dict[str, Any]) -> list[tuple[str, object]]:
    """The pointer and value of the ``uri`` key of each object of :data:`_URI_COLLECTIONS`,
    whatever the value, in document order."""
    return [
        (f"/{name}/{index}/uri", item["uri"])
        for name, items in document.items()
        if name in _URI_COLLECTIONS and type(items) is list
        for index, item in enumerate(items)
        if type(item) is dict and "uri" in item
    ]


def shorten_uri(uri: str, limit: int = 80) -> str:
    """``uri`` cut to ``limit`` characters for a message (data: URIs can be megabytes long)."""
    return uri if len(uri) <= limit else uri[: limit - 3] + "..."


def decode_data_uri(uri: str) -> DataUri:
    """The media type and bytes of a ``data:`` URI; ``ValueError`` saying why when malformed.

    The syntax is RFC 2397's as Khronos glTF-Validator parses it: an empty media type or one
    with exactly one slash, then ``name=value`` parameters, then ``base64`` (exactly so) last.
    An empty media type is ``text/plain``.
    """
    header, comma, payload = uri[len("data:") :].partition(",")
    if not comma:
        raise ValueError("a data: URI needs a comma before its data")
    media_type, *parameters = header.split(";")
    if media_type and media_type.count("/") != 1:
        raise ValueError(f"the media type '{shorten_uri(media_type, 40)}' is not type/subtype")
    is_base64 = bool(parameters) and parameters[-1] == "base64"
    for parameter in parameters[:-1] if is_base64 else parameters:
        if "=" not in parameter:
            raise ValueError(
                f"the parameter '{shorten_uri(parameter, 40)}' has no '=' "
                "(only a final 'base64' may go without)"
            )
    data = _decode_base64(payload) if is_base64 else unquote_to_bytes(payload)
    return DataUri(media_type.lower() or "text/plain", data)


def _decode_base64(payload: str) -> bytes:
    """Base64 as a URI carries it: percent-escapes and the URL-safe alphabet allowed, and the
    ``=`` padding optional, but present padding must be right (Dart's ``base64.normalize``)."""
    text = _PERCENT_ESCAPE.sub(lambda escape: chr(int(escape.group(1), 16)), payload)
    text = text.replace("-", "+").replace("_", "/")
    stripped = text.rstrip("=")
    padding = len(text) - len(stripped)
    if not _BASE64_ALPHABET.fullmatch(stripped) or padding > 2:
        raise ValueError("invalid base64 data")
    if (padding and len(text) % 4) or len(stripped) % 4 == 1:
        raise ValueError("invalid base64 length")
    return base64.b64decode(stripped + "=" * (-len(stripped) % 4), validate=True)


_PERCENT_ESCAPE = re.compile(r"%([0-9A-Fa-f]{2})")
_BASE64_ALPHABET = re.compile(r"[A-Za-z0-9+/]*")


def content_mismatch(media_type: str, data: bytes | memoryview) -> str | None:
    """What ``data`` really is when it is not the ``media_type`` it claims, else None.

    Only media types whose content can be recognised are judged.
    """
    if media_type not in _CHECKABLE_MEDIA_TYPES:
        return None
    head = bytes(data[:4096])
    actual = image_mime(head)
    if actual == media_type:
        return None
    if actual is not None:
        return f"{actual} data"
    program = executable_kind(head)
    return f"a program ({program})" if program else "not a recognised image"


def _uri_walk(document: dict[str, Any]) -> Iterator[tuple[str, str]]:
    # Iterative: the JSON parser allows nesting deep enough to exhaust Python's stack. A path
    # is kept as (parent path, key) links and spelled as a pointer only for a URI found, so a
    # document of many objects costs no string per object. The values come from json.loads:
    # exact dicts and lists, so a type test is an identity test (this walk sees every value).
    stack: list[tuple[tuple | None, Any]] = [(None, document)]
    while stack:
        path, value = stack.pop()
        if type(value) is dict:
            uri = value.get("uri")
            if type(uri) is str:
                yield child(_pointer(path), "uri"), uri
            nested = [
                ((path, key), item)
                for key, item in value.items()
                if type(item) in _CONTAINERS and key != "extras"
            ]
        else:
            nested = [
                ((path, index), item)
                for index, item in enumerate(value)
                if type(item) in _CONTAINERS
            ]
        nested.reverse()  # so findings come out in document order
        stack += nested


_CONTAINERS = (dict, list)


def _pointer(path: tuple | None) -> str:
    """The JSON Pointer of a ``(parent path, key)`` chain."""
    keys = []
    while path is not None:
        path, key = path
        keys.append(key)
    pointer = ""
    for key in reversed(keys):
        pointer = child(pointer, key)
    return pointer
