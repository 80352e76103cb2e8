"""Decoding glTF JSON (a ``.gltf`` file or a GLB JSON chunk) the way Khronos glTF-Validator does."""

from __future__ import annotations

import json
from typing import Any

from assetcheck.formats.gltf.fields import preview
from assetcheck.issues import FileIssues

UTF8_BOM = b"\xef\xbb\xbf"


def parse_document(data: bytes, issues: FileIssues) -> dict[str, Any] | None:
    """The JSON object in ``data``, or None when there is none (reported).

    Khronos reports a leading UTF-8 byte order mark as ``INVALID_JSON`` and still reads the
    document, so this does too. Invalid UTF-8, invalid JSON (``NaN`` included) and nesting too
    deep to parse are ``INVALID_JSON``; a root that is not an object is ``TYPE_MISMATCH``.
    """
    if data.startswith(UTF8_BOM):
        issues.add("INVALID_JSON", pointer="", reason="a UTF-8 byte order mark starts the JSON")
        data = data[len(UTF8_BOM) :]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        issues.add("INVALID_JSON", pointer="", reason=f"invalid UTF-8 byte at offset {error.start}")
        return None
    try:
        document = json.loads(text, parse_constant=_reject_constant)
    except ValueError as error:
        issues.add("INVALID_JSON", pointer="", reason=str(error))
        return None
    except RecursionError:
        issues.add("INVALID_JSON", pointer="", reason="the JSON is nested too deeply to read")
        return None
    if not isinstance(document, dict):
        issues.add("TYPE_MISMATCH", pointer="", value=preview(document), expected="an object")
        return None
    return document


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON value")
