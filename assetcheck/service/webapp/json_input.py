"""The one parser of JSON that clients send (``docs/security.md``, Limits): request bodies,
JSON-valued form options and the cursors the service handed out.

Python's ``json`` reads nesting by recursion, so a 2 KB body of a thousand nested arrays is a
``RecursionError`` deep inside it; and it reads ``NaN`` and ``Infinity``, which are not JSON.
:func:`parse_json` refuses input too long, nested too deeply or malformed with a
:class:`JsonInputError` before or instead of any of that; each caller turns it into a 400 with
its own code (``INVALID_BODY``, ``INVALID_OPTIONS``, ``INVALID_PARAMETER``). It also refuses
strings no stored text may hold, a NUL character or half of a surrogate pair (``"\u0000"``,
``"\ud800"``): PostgreSQL stores neither, and UTF-8 cannot encode the second.
"""

from __future__ import annotations

import json
import re
from typing import Any

#: The longest JSON the service reads from a client: options and settings take a few hundred.
MAX_JSON_BYTES = 64 * 1024
#: The deepest nesting of arrays and objects it reads: its documents have two levels.
MAX_JSON_DEPTH = 32

#: A complete JSON string, escapes included (the unrolled form: linear, no backtracking).
_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"', re.S)
_OPENING, _CLOSING = frozenset(b"[{"), frozenset(b"]}")


class JsonInputError(ValueError):
    """JSON from a client that the service does not read; ``str()`` says why, for the client."""


def parse_json(
    raw: bytes | str, what: str, *, max_bytes: int = MAX_JSON_BYTES, max_depth: int = MAX_JSON_DEPTH
) -> Any:
    """The value ``raw`` holds, as ``json.loads`` reads it. ``what`` names the input in the
    error (``"The body"``). Raises :class:`JsonInputError` when ``raw`` is longer than
    ``max_bytes``, nests arrays and objects more than ``max_depth`` deep, is not UTF-8 or is
    not JSON (``NaN`` and ``Infinity`` included), or when a string in it (a key included)
    holds a NUL character or a lone surrogate."""
    data = raw.encode("utf-8", errors="surrogatepass") if isinstance(raw, str) else raw
    if len(data) > max_bytes:
        raise JsonInputError(f"{what} is larger than the {max_bytes} bytes of JSON accepted.")
    if _depth_exceeds(data, max_depth):
        raise JsonInputError(
            f"{what} is nested too deeply: at most {max_depth} levels of "
            "arrays and objects are accepted."
        )
    try:
        value = json.loads(data.decode("utf-8"), parse_constant=_refuse_constant)
    except UnicodeDecodeError as error:
        raise JsonInputError(f"{what} is not UTF-8 (byte {error.start}).") from None
    except ValueError as error:
        raise JsonInputError(f"{what} is not valid JSON ({error}).") from None
    if not _is_storable(value):
        raise JsonInputError(
            f"{what} holds a string with a NUL character or a lone surrogate (\\u0000, "
            "\\ud800 to \\udfff unpaired): text must be Unicode characters."
        )
    return value


def _depth_exceeds(data: bytes, max_depth: int) -> bool:
    """Whether the brackets outside strings open more than ``max_depth`` levels at some point.
    Malformed input is judged as well as it can be: the parser refuses it afterwards anyway."""
    depth = 0
    for byte in _STRING.sub(b'""', data):
        if byte in _OPENING:
            depth += 1
            if depth > max_depth:
                return True
        elif byte in _CLOSING:
            depth -= 1
    return False


def _is_storable_text(text: str) -> bool:
    """Whether ``text`` can be stored as it is: no NUL character, no lone surrogate."""
    if "\0" in text:
        return False
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _is_storable(value: Any) -> bool:
    """Whether every string in the JSON value ``value``, keys included, is storable text."""
    if isinstance(value, str):
        return _is_storable_text(value)
    if isinstance(value, list):
        return all(_is_storable(item) for item in value)
    if isinstance(value, dict):
        return all(_is_storable_text(key) and _is_storable(item) for key, item in value.items())
    return True


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")
